package ad4j.processor.derive;

import ad4j.processor.analysis.AccumulatingLoops;
import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.analysis.KeptElements;
import ad4j.processor.analysis.LiveAdjoints;
import ad4j.processor.analysis.TapePlan;
import ad4j.processor.analysis.TripBounds;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.RuledCallee;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.methodsize.LongBlocks;
import ad4j.processor.methodsize.Segments;
import ad4j.processor.optimize.AdjointSums;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Partial;
import ad4j.processor.rules.Site;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reverse mode: a forward sweep that computes the primal and records what the reverse needs,
 * then the reverse sweep, which walks the program backwards and sums into each active value's
 * adjoint the contributions of its uses, built from the rule table; finally the parameters'
 * adjoints are written into an output array and the primal value is returned.
 *
 * <p>Straight-line code keeps every intermediate in a local, which the reverse sweep reads.
 * Values computed in branches outside loops stay readable too (the printer declares them where
 * both sweeps see them), and each branch's reverse tests the same condition. Inside loops, the
 * forward sweep records on the tape the values derivatives read ({@link TapePlan}), each branch
 * its decision, each inner loop its trip count; the reverse sweep takes them back in mirror
 * order. An adjoint passed on unchanged ({@code t = a + b} gives {@code aBar = tBar}) is shared
 * rather than copied, and values whose adjoint never reaches a parameter get no reverse code
 * ({@link LiveAdjoints}).
 */
public final class Adjoint {
  /** What the program does with the parameters' adjoints. */
  public enum Output {
    /** Seed 1; {@code gradient[i] = xBar}: the gradient. */
    GRADIENT("gradient"),
    /** A {@code seed} parameter; {@code adjoints[i] += xBar}: the pullback. */
    PULLBACK("adjoints"),
    /**
     * A {@code seed} parameter; each parameter's adjoint pushed onto the tape, in order: the
     * pullback that the generated code of callers calls.
     */
    TAPE(null);

    private final String arrayName;

    Output(String arrayName) {
      this.arrayName = arrayName;
    }

    /** The name of the output array parameter; null when the adjoints go onto the tape. */
    public String arrayName() {
      return arrayName;
    }
  }

  public static final String FORWARD_NOTE = "forward sweep";
  public static final String REVERSE_NOTE = "reverse sweep";

  /**
   * The links from which an {@code if / else if} chain outside loops records the number of its
   * piece ({@link #longChain}); shorter chains keep their conditions for the reverse sweep, as
   * users write them.
   */
  public static final int LONG_CHAIN = 32;

  /** An adjoint: a variable being summed into, or an operand passed on unchanged. */
  private record AdjointValue(Operand shared, Variable variable) {
    Operand expression() {
      return variable != null ? new Operand.Read(variable) : shared;
    }
  }

  private final Function primal;
  private final FlowAnalysis flow;
  private final TapePlan tape;
  private final IrBuilder builder;
  private final boolean straightLine;
  private final ForwardValues computed = new ForwardValues();
  private final Map<Value, AdjointValue> adjoints = new HashMap<>();
  private final Map<Variable, Variable> variableAdjoints = new HashMap<>();
  private final Map<Integer, Variable> tripCounts = new HashMap<>();
  /**
   * A long {@code if / else if} chain outside loops ({@link #longChain}): its links, and the
   * variable that holds the number of the piece the forward sweep took.
   */
  private record LongChain(List<If> links, Variable piece) {}

  /** The long chains outside loops, by their first link's id. */
  private final Map<Integer, LongChain> longChains = new HashMap<>();
  /**
   * Per block of a piece of a long chain ({@link #pieceSlots}), the values made there that the
   * piece's reverse reads, each with the variable that carries it from the forward sweep to the
   * reverse sweep, stored at the block's end.
   */
  private final Map<Block, Map<Value, Variable>> carriedFrom = new IdentityHashMap<>();
  /**
   * The local arrays made in a piece of a long chain ({@code double[] a = {...}}, {@code new
   * double[n]}) whose adjoint arrays the reverse sweep of the piece makes, not the forward
   * sweep: only that reverse adds into them, and an adjoint array made in the forward sweep was
   * one more variable per piece handed from part to part.
   */
  private final Set<Instruction> arraysOfPieces =
      java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  /** Per block of the reverse sweep, the values taken back from the tape. */
  private final Map<Block, Map<Value, Operand>> restored = new IdentityHashMap<>();
  /** The branches the forward sweep is inside, innermost first: true in a then-block. */
  private final Deque<Boolean> openBranches = new ArrayDeque<>();
  /** For each enclosing loop, how many open branches lie outside its body. */
  private final Deque<Integer> loopBranchBase = new ArrayDeque<>(List.of(0));
  private Variable result;
  private Operand seed;
  /** Whether the seed parameter is active: see {@link #withActiveSeed}. */
  private boolean activeSeed;
  /** The gradient or adjoint array, into which reads of arrays add their adjoints; or null. */
  private Value outputArray;
  /** Per local array that carries derivatives, its adjoint array, made beside it. */
  private final Map<Value, Value> adjointArrays = new HashMap<>();
  /**
   * In the pullback that callers call, per active array parameter, the array its adjoints go
   * into (see {@link ArraySlots#perParameter}); empty when they go into {@link #outputArray}.
   */
  private Map<Value, Value> parameterTargets = Map.of();
  /** The values the reverse sweep computes again rather than taking back from the tape. */
  private final Recomputation recomputation;
  /** The reverse loops the reverse sweep is inside, for the values it computes again. */
  private final Recomputation.Place place = new Recomputation.Place();
  /** Which loops count their trips in an {@code int}. */
  private final TripBounds tripBounds;
  /**
   * Per local array made inside a loop, the longest length it had: the one adjoint array of all
   * its iterations is that long (cleared at the reverse of each making). In the order the
   * arrays are made: values hash by identity, and the adjoint arrays are declared in this order.
   */
  private final Map<Value, Variable> longestLengths = new LinkedHashMap<>();
  /** Where the adjoints of the parameters go: set by {@link #transform}. */
  private Output output;
  /** The stores into local arrays passed to calls whose overwritten elements come back. */
  private final KeptElements keptElements;
  /** Per store that {@link #keptElements} keeps, the element it wrote over. */
  private final Map<Instruction, Value> overwrittenElements = new IdentityHashMap<>();
  /** The values whose adjoints the reverse sweep computes; the others get no reverse code. */
  private LiveAdjoints live;
  /**
   * Whether calls of other {@code @Differentiable} methods run in split mode: the forward sweep
   * calls the callee's recording forward sweep, the reverse sweep its replaying reverse sweep
   * ({@link #withSplitCalls}); else the forward sweep calls the callee itself and the reverse
   * sweep its whole pullback.
   */
  private boolean splitCalls;
  /** The calls whose reverse this program's reverse sweep makes: the forward sweep records. */
  private final java.util.Set<Instruction> replayedCalls =
      java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  /**
   * While the forward sweep writes a checkpointed loop's iterations as the primal runs them:
   * nothing is recorded ({@link #forwardCheckpointedLoop}).
   */
  private boolean primalOnly;
  /**
   * While the reverse sweep of a checkpointed loop's iteration follows the iteration computed
   * anew: what the reverse reads is in locals, not on the tape ({@link #reverseCheckpointedLoop}).
   */
  private boolean fused;
  /** Whether a segment's reverse sweep is made for its forward mode: see below. */
  private boolean segmentTangents;
  /** Per checkpointed loop, the variables of its snapshots. */
  private final Map<Integer, Snapshots> snapshots = new HashMap<>();
  /** The next id for a loop this transform makes: above every id of the primal's. */
  private int nextLoopId;
  /**
   * The loops outside loops whose reverse follows each of their iterations in the forward
   * sweep ({@link AccumulatingLoops}), by id; none but in the programs of {@link
   * #withSplitCalls}.
   */
  private Map<Integer, AccumulatingLoops.Fusible> fusedLoops = Map.of();
  /**
   * The reads, after a fused loop, of the sums it adds into: the adjoint they would pass back is
   * the one the loop's reverse took before the loop ran, so the reverse sweep computes none.
   */
  private final Set<Value> sumReadsAfterFusedLoops = new java.util.HashSet<>();

  private Adjoint(Function primal, FlowAnalysis flow) {
    this.primal = primal;
    this.flow = flow;
    this.tape = new TapePlan(flow);
    this.builder = new IrBuilder(flow.nextId());
    this.straightLine = flow.isStraightLine();
    this.keptElements = KeptElements.of(primal.body(), flow);
    this.tripBounds = new TripBounds(primal);
    this.recomputation = new Recomputation(primal, flow, tripBounds);
    this.nextLoopId = maxStatementId(primal.body()) + 1;
  }

  private static int maxStatementId(Block block) {
    int max = 0;
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch) {
        max = Math.max(max, Math.max(branch.id(), Math.max(maxStatementId(branch.thenBlock()),
            maxStatementId(branch.elseBlock()))));
      } else if (statement instanceof Loop loop) {
        max = Math.max(max, Math.max(loop.id(), maxStatementId(loop.body())));
      }
    }
    return max;
  }

  /**
   * The reverse-mode program of {@code primal}: its parameters, then (for a pullback) the seed,
   * then the output array; it returns the primal's value.
   */
  public static Function of(Function primal, Output output) {
    return of(primal, new FlowAnalysis(primal), output);
  }

  /** As {@link #of(Function, Output)}, with the analysis of {@code primal} made once. */
  public static Function of(Function primal, FlowAnalysis flow, Output output) {
    return AdjointSums.of(new Adjoint(primal, flow).transform(output));
  }

  /**
   * As {@link #of(Function, FlowAnalysis, Output)}, with the calls of other
   * {@code @Differentiable} methods in split mode: the forward sweep calls each callee's
   * recording forward sweep ({@link Operation#recordCall}), which leaves on the tape what the
   * callee's reverse needs, and the reverse sweep calls its replaying reverse sweep ({@link
   * Operation#replayCall}), which takes that back instead of running the callee's forward sweep
   * again. The order-1 members print these programs; the second-order code, which
   * differentiates reverse-mode programs again, keeps whole pullbacks ({@link #of}).
   */
  public static Function withSplitCalls(Function primal, FlowAnalysis flow, Output output) {
    Adjoint adjoint = new Adjoint(primal, flow);
    adjoint.splitCalls = true;
    adjoint.fusedLoops = adjoint.worthFusing(AccumulatingLoops.of(primal));
    // each iteration's reverse follows it in its body, where the body's values still are
    adjoint.fusedLoops.values().forEach(loop -> adjoint.tape.keepInLocals(loop.loop().body()));
    return AdjointSums.of(adjoint.transform(output));
  }

  /**
   * The fusible loops whose iterations record values inside loops of their own, so that the
   * whole loop's tape grows with the product of the trip counts (ADBench GMM: two values per
   * row of each component's matrix, 205 MB at d = 64, K = 200). Only there does fusing pay on
   * HotSpot: GMM's gradient 5 to 10 % faster; logistic regression, whose iterations record two
   * values each, 10 % slower fused than as two loops (BENCHMARKS.md, "Fused loops of sums").
   */
  private Map<Integer, AccumulatingLoops.Fusible> worthFusing(
      Map<Integer, AccumulatingLoops.Fusible> fusible) {
    TapePlan plan = new TapePlan(flow); // no body kept in locals yet: the plain loop's records
    Map<Integer, AccumulatingLoops.Fusible> worth = new HashMap<>();
    fusible.forEach((id, loop) -> {
      if (recordsInInnerLoops(loop.loop().body(), false, plan)) {
        worth.put(id, loop);
      }
    });
    return worth;
  }

  /** Whether an instruction of {@code block} inside a loop of it records a value. */
  private boolean recordsInInnerLoops(Block block, boolean inner, TapePlan plan) {
    for (Statement statement : block.statements()) {
      if (inner && statement instanceof Instruction instruction) {
        for (Value value : plan.recordedAfter(instruction, block)) {
          if (!recomputation.isRecomputed(value)) {
            return true;
          }
        }
      }
      boolean loop = statement instanceof Loop;
      for (Block nested : statement.nestedBlocks()) {
        if (recordsInInnerLoops(nested, inner || loop, plan)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * A callee's two halves in split mode: {@code record}, with the callee's parameters and then
   * the start of each active array parameter's slots (as {@link Operation#recordCall} passes
   * them), runs the forward sweep, pushes what the reverse sweep reads of it and returns the
   * value; {@code replay}, with the parameters of the pullback onto the tape (the arguments
   * again, the arrays for the arrays' adjoints and their starts, the seed), takes that back and
   * runs the reverse sweep only, leaving the adjoints as the pullback does.
   */
  public record Split(Function record, Function replay) {}

  /**
   * The halves of {@code primal}'s pullback onto the tape (for a method with active array
   * parameters, made by {@link ArraySlots#perParameter}), or none when the reverse sweep reads
   * something of the forward sweep that the tape cannot hold (an array: a local array, its
   * adjoints, a vector function's result), or when the method never returns. Recording is then
   * always worth it: each value handed over costs one push and one pop, no more than the
   * instruction that computed it, and the callee's calls are not run again either.
   */
  public static Optional<Split> split(Function primal, FlowAnalysis flow) {
    Adjoint adjoint = new Adjoint(primal, flow);
    adjoint.splitCalls = true;
    return adjoint.splitProgram()
        .map(halves -> new Split(halves.record(), AdjointSums.of(halves.replay())));
  }

  /**
   * As {@link #of(Function, FlowAnalysis, Output)} for a pullback whose seed carries a
   * derivative: {@link Tangent} gives the program a tangent of the seed too. This is the
   * pullback that the second-order code of callers differentiates again.
   */
  public static Function withActiveSeed(Function primal, FlowAnalysis flow, Output output) {
    Adjoint adjoint = new Adjoint(primal, flow);
    adjoint.activeSeed = true;
    return AdjointSums.of(adjoint.transform(output));
  }

  /**
   * A vector function's pullback taken apart, for {@link JacobianRows}, which runs its reverse
   * sweep once per element of the result after one forward sweep.
   *
   * @param parameters the pullback's parameters: the primal's, then the seed and the adjoints
   * @param preamble the declarations both sweeps share
   * @param forward the forward sweep
   * @param reverse the reverse sweep with the parameters' adjoints added into {@code adjoints}
   * @param returned the value the pullback returns
   * @param seed the seed, a parameter of the pullback
   * @param adjoints the array the parameters' adjoints are added into, a parameter too
   * @param adjointArrays the adjoint arrays of the local arrays, which the forward sweep makes
   *     beside them and the reverse sweep adds into
   * @param keepsElements whether the reverse sweep puts overwritten elements back into local
   *     arrays (for the calls it meets)
   * @param builder for the values and variables of the program made from these pieces
   * @param nextLoopId the next loop or branch id that is free
   */
  record PullbackPieces(List<Value> parameters, List<Statement> preamble,
      List<Statement> forward, List<Statement> reverse, Operand returned, Value seed,
      Value adjoints, List<Value> adjointArrays, boolean keepsElements, IrBuilder builder,
      int nextLoopId) {}

  /**
   * The pieces of the pullback of the vector function {@code primal} (calls of other
   * {@code @Differentiable} methods not in split mode); empty when it never returns.
   */
  static Optional<PullbackPieces> pullbackPieces(Function primal, FlowAnalysis flow) {
    if (!primal.returnsArray()) {
      throw new IllegalArgumentException("not a vector function: " + primal.name());
    }
    Adjoint adjoint = new Adjoint(primal, flow);
    Parts parts = adjoint.parts(Output.PULLBACK);
    if (parts.reverse() == null) {
      return Optional.empty();
    }
    List<Value> parameters = parts.parameters();
    return Optional.of(new PullbackPieces(parameters, parts.preamble(), parts.forward(),
        parts.reverse(), parts.returned(), parameters.get(primal.parameters().size()),
        adjoint.outputArray,
        adjoint.adjointArrays.values().stream()
            .sorted(java.util.Comparator.comparingInt(Value::id)).toList(),
        !adjoint.overwrittenElements.isEmpty(), adjoint.builder, adjoint.nextLoopId));
  }

  /**
   * The reverse sweep of one segment of a split method ({@link Segments}): the adjoints of the
   * values the segment handed on and of the parameters come from the tape (in the last segment,
   * the seed instead, a parameter), then the values its forward sweep recorded; after the
   * reverse of its instructions, the adjoints of the values it took and of the parameters go
   * back on the tape for the previous segment.
   */
  public static Function reverseSegment(Function primal, FlowAnalysis flow,
      Segments.Segment segment, boolean last) {
    return AdjointSums.of(new Adjoint(primal, flow).segment(segment, last));
  }

  /**
   * As {@link #reverseSegment}, for the forward mode of the reverse sweep (second order): the
   * adjoints taken from the tape carry tangents, and every adjoint handed on is a variable, zero
   * when nothing reached it, so that {@link Tangent} hands a tangent on beside each one.
   */
  public static Function reverseSegmentWithTangents(Function primal, FlowAnalysis flow,
      Segments.Segment segment, boolean last) {
    Adjoint adjoint = new Adjoint(primal, flow);
    adjoint.segmentTangents = true;
    return AdjointSums.of(adjoint.segment(segment, last));
  }

  private Function segment(Segments.Segment segment, boolean last) {
    live = new LiveAdjoints(primal, flow, segment.carriedOut());
    List<Value> parameters = new ArrayList<>(primal.parameters());
    List<Statement> out = new ArrayList<>();
    List<Value> differentiable = primal.differentiableParameters();
    if (last) {
      // with tangents, the seed has one too (callers' second-order code seeds the pullback)
      Value seedParameter = builder.generated("seed", NumericType.DOUBLE, segmentTangents);
      parameters.add(seedParameter);
      seed = new Operand.Use(seedParameter);
    } else {
      List<Value> incoming = new ArrayList<>(segment.carriedOut());
      incoming.addAll(differentiable);
      for (int i = incoming.size() - 1; i >= 0; i--) {
        Value value = incoming.get(i);
        Variable adjoint = builder.derivedVariable(value, "Bar", NumericType.DOUBLE);
        // with tangents, active: its tangent, recorded beside it, comes back with it
        out.add(new Declare(adjoint, pop(NumericType.DOUBLE, segmentTangents, null, out), null));
        adjoints.put(value, new AdjointValue(null, adjoint));
      }
    }
    List<Value> needed = segment.needed();
    for (int i = needed.size() - 1; i >= 0; i--) {
      out.add(new Instruction(needed.get(i), Operation.POP, List.of(), null));
    }
    Return ret = finalReturn();
    if (last && ret.value() instanceof Operand.Use use && use.isActive()) {
      accumulate(use.value(), seed, false, true, Site.formulas(builder, ret.line().adjoint()),
          out);
    }
    List<Instruction> instructions = segment.instructions();
    for (int i = instructions.size() - 1; i >= 0; i--) {
      reverseInstruction(instructions.get(i), primal.body(), out);
    }
    List<Value> outgoing = new ArrayList<>(segment.carriedIn());
    outgoing.addAll(differentiable);
    for (Value value : outgoing) {
      AdjointValue adjoint = adjoints.get(value);
      if (segmentTangents) {
        // handed on in a variable, so that its tangent goes on the tape beside it even where
        // the adjoint is a constant or nothing reached it (zero)
        Variable handed = builder.derivedVariable(value, "Bar", NumericType.DOUBLE);
        out.add(new Declare(handed, adjoint == null ? Site.number(0.0) : adjoint.expression(),
            null));
        out.add(new Push(new Operand.Read(handed), null));
      } else {
        out.add(new Push(adjoint == null ? Site.number(0.0) : adjoint.expression(), null));
      }
    }
    out.add(new Return(null, null));
    return primal.with(parameters, new Block(out));
  }

  /**
   * The pieces of a reverse-mode program: its parameters; the declarations both sweeps share;
   * the forward sweep; the reverse sweep with the parameters' adjoints written out (null when
   * the method never returns: nothing may follow the forward sweep); the value returned.
   */
  private record Parts(List<Value> parameters, List<Statement> preamble,
      List<Statement> forward, List<Statement> reverse, Operand returned) {}

  private Function transform(Output output) {
    Parts parts = parts(output);
    List<Statement> out = new ArrayList<>(parts.preamble());
    out.addAll(parts.forward());
    if (parts.reverse() != null) {
      out.addAll(parts.reverse());
      out.add(new Return(parts.returned(), null));
    }
    return primal.with(parts.parameters(), new Block(out));
  }

  private Parts parts(Output output) {
    this.output = output;
    live = new LiveAdjoints(primal, flow, List.of());
    List<Value> parameters = new ArrayList<>(primal.parameters());
    if (output != Output.GRADIENT) {
      // a vector function's pullback takes one seed per element of its result
      Value seedParameter = builder.generated("seed",
          primal.returnsArray() ? NumericType.DOUBLE_ARRAY : NumericType.DOUBLE, activeSeed);
      parameters.add(seedParameter);
      seed = new Operand.Use(seedParameter);
    } else {
      seed = Site.number(1.0);
    }
    Value array = null;
    if (output.arrayName != null) {
      array = builder.generated(output.arrayName, NumericType.DOUBLE_ARRAY, false);
      parameters.add(array);
    } else if (primal.hasActiveArrays()) {
      parameterTargets = ArraySlots.adjointTargets(primal);
      if (parameterTargets.isEmpty()) {
        throw new IllegalArgumentException("the adjoints of arrays go into arrays the caller"
            + " passes (ArraySlots.perParameter), not onto the tape: " + primal.name());
      }
    }
    outputArray = array;

    Block body = primal.body();
    List<Statement> preamble = new ArrayList<>();
    if (!straightLine) {
      NumericType resultType = primal.returnsArray() ? NumericType.DOUBLE_ARRAY
          : NumericType.DOUBLE;
      result = builder.generatedVariable("result", resultType);
      preamble.add(new Declare(result, Operand.Constant.zero(resultType), null));
      declareTopLevelCounters(body, preamble);
      declareLongestLengths(body, preamble);
    }
    List<Statement> forward = new ArrayList<>();
    boolean anything = hasStatements(body);
    if (anything) {
      forward.add(new Note(FORWARD_NOTE, null));
    }
    forward.addAll(forward(body).statements());
    if (!forwardCompletes(body)) {
      // the method only throws or loops forever: nothing may follow the forward sweep
      return new Parts(parameters, preamble, recordingCalls(forward), null, null);
    }
    List<Statement> out = new ArrayList<>();
    if (isDifferentiated()) {
      if (anything) {
        out.add(new Note(REVERSE_NOTE, null));
      }
      allocateLoopAdjointArrays(out);
      out.addAll(reverse(body));
    }
    Map<Value, Operand> parameterAdjoints = new HashMap<>();
    for (Value parameter : primal.differentiableParameters()) {
      AdjointValue adjoint = adjoints.get(parameter);
      if (adjoint != null) {
        parameterAdjoints.put(parameter, adjoint.expression());
      }
    }
    for (Variable variable : flow.parameterVariables()) {
      if (variable.isActive()) {
        parameterAdjoints.put(variable.parameter(),
            new Operand.Read(variableAdjoints.get(variable)));
      }
    }
    List<Value> differentiable = primal.differentiableParameters();
    // arrays' adjoints are in the output array already; the doubles' slots follow the layout
    FlatLayout layout = primal.hasActiveArrays() && output != Output.TAPE
        ? new FlatLayout(primal, Value::isActive, false, builder, out) : null;
    for (int i = 0; i < differentiable.size(); i++) {
      Value parameter = differentiable.get(i);
      if (parameter.isActiveArray()) {
        continue;
      }
      Operand adjoint = parameterAdjoints.get(parameter);
      if (output == Output.TAPE) {
        out.add(new Push(adjoint == null ? Site.number(0.0) : adjoint, null));
        continue;
      }
      Operand slot = layout != null ? layout.start(parameter) : Operand.Constant.of(i);
      if (output == Output.GRADIENT) {
        out.add(new ElementStore(array, slot, adjoint == null ? Site.number(0.0) : adjoint,
            false, null));
      } else if (adjoint != null) {
        out.add(new ElementStore(array, slot, adjoint, true, null));
      }
    }
    return new Parts(parameters, preamble, recordingCalls(forward), out,
        straightLine ? finalReturn().value() : new Operand.Read(result));
  }

  /** Whether any derivative reaches a parameter at all. */
  private boolean isDifferentiated() {
    return !straightLine || finalReturn().value().isActive()
        || finalReturn().value() instanceof Operand.Use use && use.value().isActiveArray();
  }

  private Return finalReturn() {
    List<Statement> statements = primal.body().statements();
    return (Return) statements.get(statements.size() - 1);
  }

  private boolean hasStatements(Block block) {
    for (Statement statement : block.statements()) {
      if (!(statement instanceof Return)
          && (!(statement instanceof Instruction instruction) || flow.isLive(instruction))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The trip counts of loops outside loops, and the piece numbers of long chains outside loops
   * ({@link #longChain}), read by the reverse sweep wherever it is.
   */
  private void declareTopLevelCounters(Block block, List<Statement> out) {
    declareTopLevelCounters(block, out, null);
  }

  /**
   * As {@link #declareTopLevelCounters(Block, List)}; inside a piece of a long chain, {@code
   * shared} holds the chain's trip counts, which its pieces share as they share the values they
   * carry ({@link #pieceSlots}): only one piece runs, and each of its loops at most once, so its
   * n-th loop counts in the chain's n-th trip count. One count per loop of every piece made a
   * chain of 300 pieces with a loop each hand 300 counts from part to part.
   */
  private void declareTopLevelCounters(Block block, List<Statement> out, ChainSlots shared) {
    for (Statement statement : block.statements()) {
      List<If> chain = statement instanceof If head ? longChain(head, block) : List.of();
      if (!chain.isEmpty()) {
        Variable piece = builder.generatedVariable("chain" + chain.get(0).id() + "Piece",
            NumericType.INT);
        longChains.put(chain.get(0).id(), new LongChain(chain, piece));
        out.add(new Declare(piece, Operand.Constant.zero(NumericType.INT), null));
        ChainSlots slots = new ChainSlots(chain.get(0).id(), out);
        pieceSlots(chain, slots);
        for (Block pieceBlock : pieces(chain)) {
          slots.startPiece();
          declareTopLevelCounters(pieceBlock, out, primal.isCheckpointed() ? null : slots);
        }
      } else if (statement instanceof If branch) {
        declareTopLevelCounters(branch.thenBlock(), out, shared);
        declareTopLevelCounters(branch.elseBlock(), out, shared);
      } else if (statement instanceof Loop loop && shared != null) {
        tripCounts.put(loop.id(), shared.take("Trips", tripType(loop)));
      } else if (statement instanceof Loop loop) {
        Variable count = builder.generatedVariable("loop" + loop.id() + "Trips",
            tripType(loop));
        tripCounts.put(loop.id(), count);
        out.add(new Declare(count, Operand.Constant.zero(count.type()), null));
        if (primal.isCheckpointed()) {
          Snapshots loopSnapshots = new Snapshots(loop.carriedVariables(),
              builder.generatedVariable("loop" + loop.id() + "Snapshots", NumericType.LONG),
              builder.generatedVariable("loop" + loop.id() + "Every", NumericType.INT),
              builder.generatedVariable("loop" + loop.id() + "Next", count.type()));
          snapshots.put(loop.id(), loopSnapshots);
          out.add(new Declare(loopSnapshots.start(), Operand.Constant.zero(NumericType.LONG),
              null));
          out.add(new Declare(loopSnapshots.every(), Operand.Constant.of(1), null));
          out.add(new Declare(loopSnapshots.next(), Operand.Constant.zero(count.type()),
              null));
        }
      }
    }
  }

  /** The pieces of a long chain: its links' then-blocks, and the last link's else block. */
  private static List<Block> pieces(List<If> chain) {
    List<Block> pieces = new ArrayList<>();
    for (If link : chain) {
      pieces.add(link.thenBlock());
    }
    pieces.add(chain.get(chain.size() - 1).elseBlock());
    return pieces;
  }

  /**
   * The variables a long chain's pieces share: the values they carry to the reverse sweep
   * ({@link #pieceSlots}) and the trip counts of their loops ({@link
   * #declareTopLevelCounters(Block, List, ChainSlots)}). Only one piece runs, so a piece's n-th
   * variable of a kind and type is the chain's n-th, declared when no piece took as many
   * before.
   */
  private final class ChainSlots {
    private final int chainId;
    private final List<Statement> out;
    private final Map<String, List<Variable>> pools = new HashMap<>();
    /** How many of each pool the piece being declared has taken. */
    private final Map<String, Integer> taken = new HashMap<>();

    ChainSlots(int chainId, List<Statement> out) {
      this.chainId = chainId;
      this.out = out;
    }

    /** The next piece: none of the variables taken yet. */
    void startPiece() {
      taken.clear();
    }

    /** The piece's next variable of {@code type}, named {@code chainNKind}. */
    Variable take(String kind, NumericType type) {
      String pool = kind + " " + type;
      int index = taken.merge(pool, 1, Integer::sum) - 1;
      List<Variable> variables = pools.computeIfAbsent(pool, p -> new ArrayList<>());
      if (index == variables.size()) {
        Variable added = builder.generatedVariable("chain" + chainId + kind, type);
        variables.add(added);
        out.add(new Declare(added, Operand.Constant.zero(type), null));
      }
      return variables.get(index);
    }
  }

  /**
   * The variables that carry, from a long chain's forward sweep to its reverse sweep, the values
   * its pieces compute and their reverses read ({@code e = Math.exp(x * y)}, whose partial is
   * {@code e}; the condition of a branch inside a piece). Only one piece runs, so the pieces
   * share them ({@link ChainSlots}): the first value of each type that a piece carries goes
   * into the chain's first variable of that type, and so on. Left in locals of their own,
   * hoisted to the top of the method, a chain of 500 such pieces handed 500 values from part
   * to part of the cut sweeps, past the JVM's limit; now each part hands over what one piece
   * carries. Values made and read in loops inside a piece go on the tape as in any loop; the
   * pieces of a long chain inside a piece carry their own.
   */
  private void pieceSlots(List<If> chain, ChainSlots slots) {
    for (Block piece : pieces(chain)) {
      slots.startPiece();
      List<Block> blocks = new ArrayList<>();
      blocksOfPiece(piece, blocks);
      // the values made outside the piece's loops: those inside go on the tape
      Set<Block> within = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
      blocks.stream().filter(block -> flow.loopDepth(block) == 0).forEach(within::add);
      Map<Value, Variable> carried = new HashMap<>();
      for (Block block : blocks) {
        List<Value> read = new ArrayList<>();
        for (Statement statement : block.statements()) {
          if (statement instanceof Instruction instruction && flow.isLive(instruction)) {
            read.addAll(flow.needs(instruction));
            if (within.contains(block) && makesLocalArray(instruction)
                && instruction.operation().form() == Operation.Form.NEW_ARRAY
                && !instruction.operation().makesMatrix() && !primal.returnsArray()) {
              // its adjoint array is made in the piece's reverse, of the length it was made with
              arraysOfPieces.add(instruction);
              if (instruction.arguments().get(0) instanceof Operand.Use length) {
                read.add(length.value());
              }
            }
          } else if (statement instanceof If branch
              && branch.condition() instanceof Operand.Use use) {
            read.add(use.value());
          }
        }
        for (Value value : read) {
          NumericType type = value.type();
          if (!within.contains(flow.definingBlock(value))
              || !(type.isFloatingPoint() || type == NumericType.INT
                  || type == NumericType.LONG || type == NumericType.BOOLEAN)) {
            continue;
          }
          Variable slot = carried.get(value);
          if (slot == null) {
            slot = slots.take("Carried", type);
            carried.put(value, slot);
            carriedFrom.computeIfAbsent(flow.definingBlock(value), b -> new LinkedHashMap<>())
                .put(value, slot);
          }
          restored.computeIfAbsent(block, b -> new HashMap<>())
              .put(value, new Operand.Read(slot));
        }
      }
    }
  }

  /**
   * {@code block} and the blocks inside it, at any depth, in order, into {@code within}: those
   * of its branches and loops (in a loop's, values made outside it are read too), not those of
   * the pieces of long chains, which carry their own values.
   */
  private void blocksOfPiece(Block block, List<Block> within) {
    within.add(block);
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch && !longChain(branch, block).isEmpty()) {
        continue;
      }
      for (Block nested : statement.nestedBlocks()) {
        blocksOfPiece(nested, within);
      }
    }
  }

  // ---- forward sweep -----------------------------------------------------------------------

  private Block forward(Block block) {
    List<Statement> out = new ArrayList<>();
    boolean recording = !primalOnly && flow.loopDepth(block) > 0
        && !flow.isConditionBlock(block) && !tape.keepsInLocals(block);
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        if (!flow.isLive(instruction)) {
          continue;
        }
        if (instruction.operation().form() == Operation.Form.STORE
            && keptElements.keeps(instruction)) {
          keepOverwritten(instruction, recording, out);
        }
        out.add(instruction);
        if (straightLine) {
          computed.record(instruction);
        }
        if (longestLengths.containsKey(instruction.result())) {
          trackLongest(instruction, out);
        } else if (makesLocalArray(instruction) && !arraysOfPieces.contains(instruction)) {
          allocateAdjointArray(instruction, out);
        }
        if (recording) {
          for (Value needed : tape.recordedAfter(instruction, block)) {
            if (!recomputation.isRecomputed(needed)) {
              out.add(new Push(new Operand.Use(needed), null));
            }
          }
        }
      } else if (statement instanceof Return ret) {
        if (!straightLine) {
          out.add(new Store(result, ret.value(), ret.line()));
        }
      } else if (statement instanceof If branch) {
        List<If> chain = recording ? chain(branch, block) : List.of();
        LongChain numbered = longChains.get(branch.id());
        if (numbered != null) {
          out.add(forwardChain(numbered.links(), 0, numbered.piece()));
        } else if (chain.isEmpty()) {
          forwardIf(branch, recording, out);
        } else {
          out.add(forwardChain(chain, 0, null));
        }
      } else if (statement instanceof Loop loop) {
        if (snapshots.containsKey(loop.id())) {
          forwardCheckpointedLoop(loop, out);
        } else if (fusedLoops.containsKey(loop.id())) {
          forwardFusedLoop(fusedLoops.get(loop.id()), block, out);
        } else {
          forwardLoop(loop, block, out);
        }
      } else if (statement instanceof Jump jump) {
        if (!primalOnly) {
          recordBranchesLeft(out);
        }
        out.add(jump);
      } else {
        out.add(statement); // declarations, stores, throws and notes
      }
    }
    carriedFrom.getOrDefault(block, Map.of()).forEach((value, slot) ->
        out.add(new Store(slot, new Operand.Use(value), null)));
    return new Block(out);
  }

  /**
   * A branch. Inside a loop its decision goes on the tape when the branch is left, so that it
   * lies above everything the branch recorded: after the statement when it completes normally,
   * and, before a jump out of it, as a constant (the path taken is known there).
   */
  private void forwardIf(If branch, boolean recording, List<Statement> out) {
    openBranches.push(true);
    Block thenBlock = forward(branch.thenBlock());
    openBranches.pop();
    openBranches.push(false);
    Block elseBlock = forward(branch.elseBlock());
    openBranches.pop();
    out.add(new If(branch.id(), branch.condition(), thenBlock, elseBlock, branch.line()));
    if (recording && completesNormally(branch)) {
      out.add(new Push(branch.condition(), null));
    }
  }

  /**
   * The links of an {@code if / else if} chain inside a loop whose pieces the sweeps can tell
   * apart by one number, or none: each else block but the last is only the computation of the
   * next condition (inactive, recording nothing) and the next link, and no piece leaves the
   * chain other than by its end. Recording one decision per link after the link (as
   * {@link #forwardIf} does) would put a push after each nested link, so that no else block
   * could be written as {@code else if}: 400 pieces were nested 400 deep, quadratic in size.
   */
  private List<If> chain(If branch, Block block) {
    // a fused loop's body reads its decisions where they were made, as outside loops
    if (flow.loopDepth(block) == 0 || flow.isConditionBlock(block) || fused
        || tape.keepsInLocals(block)) {
      return List.of();
    }
    return links(branch, false);
  }

  /**
   * The links of a long {@code if / else if} chain outside loops ({@link #LONG_CHAIN} links or
   * more), or none. Its sweeps tell the pieces apart by one number as a chain in a loop does,
   * kept in a variable instead of on the tape ({@link #longChains}): the reverse sweep then
   * reads no condition of the forward sweep, one per link, and {@link LongBlocks} can cut both
   * chains into parts that hand over a few values each (a {@code ?:} chain of hundreds of
   * pieces, each a short branch nested in the one before, made members past the JVM's limit).
   * Its pieces may end in a {@code return} ({@code if (x < 1) return a; if (x < 2) return b;
   * ...}, which Java's lowering nests as such a chain): the forward sweep only stores the result
   * there, and the piece's number after it.
   */
  private List<If> longChain(If branch, Block block) {
    if (flow.loopDepth(block) != 0 || flow.isConditionBlock(block) || fused) {
      return List.of();
    }
    List<If> links = links(branch, true);
    return links.size() >= LONG_CHAIN ? links : List.of();
  }

  /**
   * The links of the chain that starts at {@code branch}, as {@link #chain} describes them;
   * with {@code returns}, a piece may also end in a {@code return} ({@link #longChain}).
   */
  private List<If> links(If branch, boolean returns) {
    List<If> links = new ArrayList<>();
    If link = branch;
    while (true) {
      links.add(link);
      if (!leavesOnlyByItsEnd(link.thenBlock(), returns)) {
        return List.of();
      }
      List<Statement> next = link.elseBlock().statements();
      if (next.isEmpty() || !(next.get(next.size() - 1) instanceof If nested)
          || !onlyComputesCondition(next.subList(0, next.size() - 1), link.elseBlock())) {
        break;
      }
      link = nested;
    }
    return links.size() > 1 && leavesOnlyByItsEnd(link.elseBlock(), returns) ? links
        : List.of();
  }

  /**
   * Whether {@code statements} of {@code block} only compute a condition and so have no
   * reverse: nothing recorded, and an active value (a read of a variable) read only there and
   * only by inactive values (comparisons, which pass no adjoint on).
   */
  private boolean onlyComputesCondition(List<Statement> statements, Block block) {
    for (Statement statement : statements) {
      if (!(statement instanceof Instruction instruction)
          || !tape.recordedAfter(instruction, block).isEmpty()) {
        return false;
      }
      Value value = instruction.result();
      if (value.isActive() && !flow.isUsedOnlyIn(value, block)) {
        return false;
      }
    }
    for (Statement statement : statements) {
      Instruction reader = (Instruction) statement;
      if (reader.result().isActive() && reader.arguments().stream()
          .anyMatch(argument -> argument instanceof Operand.Use use && use.isActive())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether no statement of {@code block}, at any depth, jumps, returns or throws; with {@code
   * finalReturn}, but for a {@code return} that is the block's last statement.
   */
  private static boolean leavesOnlyByItsEnd(Block block, boolean finalReturn) {
    List<Statement> statements = block.statements();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      if (statement instanceof Return && finalReturn && i == statements.size() - 1) {
        continue;
      }
      if (statement instanceof Jump || statement instanceof Return
          || statement instanceof Throw) {
        return false;
      }
      if (statement instanceof If branch && !(leavesOnlyByItsEnd(branch.thenBlock(), false)
          && leavesOnlyByItsEnd(branch.elseBlock(), false))) {
        return false;
      }
      if (statement instanceof Loop loop && !(leavesOnlyByItsEnd(loop.condition(), false)
          && leavesOnlyByItsEnd(loop.body(), false)
          && leavesOnlyByItsEnd(loop.update(), false))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The forward sweep of a chain from link {@code index}: each piece ends by recording its
   * number, once, above everything it recorded, so every else block stays the next condition
   * and the next link, which the printer writes as {@code else if}.
   */
  private If forwardChain(List<If> chain, int index, Variable piece) {
    If link = chain.get(index);
    Block thenBlock = withPiece(forward(link.thenBlock()), index, piece);
    Block elseBlock;
    if (index + 1 < chain.size()) {
      List<Statement> next = new ArrayList<>();
      for (Statement statement : link.elseBlock().statements()) {
        if (statement instanceof Instruction instruction && flow.isLive(instruction)) {
          next.add(instruction);
        }
      }
      next.add(forwardChain(chain, index + 1, piece));
      elseBlock = new Block(next);
    } else {
      elseBlock = withPiece(forward(link.elseBlock()), chain.size(), piece);
    }
    return new If(link.id(), link.condition(), thenBlock, elseBlock, link.line());
  }

  /**
   * The block, then the number of its piece recorded: on the tape, or into {@code piece} for a
   * long chain outside loops.
   */
  private static Block withPiece(Block block, int number, Variable piece) {
    List<Statement> statements = new ArrayList<>(block.statements());
    statements.add(piece == null ? new Push(Operand.Constant.of(number), null)
        : new Store(piece, Operand.Constant.of(number), null));
    return new Block(statements);
  }

  /** Before a jump out of the loop body: the decisions of the branches being left. */
  private void recordBranchesLeft(List<Statement> out) {
    int inLoop = openBranches.size() - loopBranchBase.peek();
    int i = 0;
    for (boolean taken : openBranches) {
      if (i++ == inLoop) {
        break;
      }
      out.add(new Push(Operand.Constant.of(taken), null));
    }
  }

  /**
   * The type of {@code loop}'s trip count: {@code int} when the loop provably runs at most
   * {@code Integer.MAX_VALUE} times ({@link TripBounds}: {@code for (int i = 0; i < n; i++)}
   * and its kin), else {@code long}. A loop tested on a {@code double}, counted by a {@code
   * long}, or by an {@code int} from a start that may be negative may run longer, where an
   * {@code int} count wrapped; a {@code long} count cannot, as no loop runs 2^63 times. An
   * {@code int} counter checked once per loop ({@code Math.toIntExact}) would throw for loops
   * that a {@code long} differentiates exactly.
   */
  private NumericType tripType(Loop loop) {
    return tripBounds.fitsInt(loop) ? NumericType.INT : NumericType.LONG;
  }

  /** A loop counts its trips; an inner loop records the count for the reverse sweep. */
  private void forwardLoop(Loop loop, Block block, List<Statement> out) {
    boolean nested = flow.loopDepth(block) > 0;
    // the reverse sweep counts a nested loop's trips again from its start and bound where it
    // can (not the fused reverse of a checkpointed loop, which takes them from the iteration
    // computed anew): then the loop counts nothing here
    boolean counted = !(nested && !primalOnly && recomputation.countsTrips(loop, block));
    List<Statement> body = new ArrayList<>();
    Variable count = tripCounts.get(loop.id());
    if (counted) {
      if (count == null) {
        count = builder.generatedVariable("loop" + loop.id() + "Trips", tripType(loop));
        tripCounts.put(loop.id(), count);
        out.add(new Declare(count, Operand.Constant.zero(count.type()), loop.line()));
      }
      body.addAll(step(count, Operation.ADD, loop.line()));
    }
    loopBranchBase.push(openBranches.size());
    body.addAll(forward(loop.body()).statements());
    loopBranchBase.pop();
    out.add(new Loop(loop.id(), forward(loop.condition()), loop.test(), loop.testFirst(),
        new Block(body), forward(loop.update()), loop.line()));
    if (nested && counted) {
      out.add(new Push(new Operand.Read(count), null));
    }
  }

  /**
   * A loop that only adds into sums whose adjoints are known before it ({@link
   * AccumulatingLoops}), with each iteration's reverse right after the iteration: the sums'
   * adjoints, the seed carried back along their paths to the result, are computed before the
   * loop; so are the adjoints of what the loop reads from before it, declared here since the
   * loop adds into them first. What an iteration records, its reverse takes back before the
   * next iteration records: the tape holds one iteration's values, not all of them.
   */
  private void forwardFusedLoop(AccumulatingLoops.Fusible fusible, Block block,
      List<Statement> out) {
    Loop loop = fusible.loop();
    SourceLine line = loop.line();
    List<Statement> before = new ArrayList<>();
    for (Value value : fusible.valuesFromBefore()) {
      if (!adjoints.containsKey(value)) {
        Variable adjoint = builder.derivedVariable(value, "Bar", NumericType.DOUBLE);
        before.add(new Declare(adjoint, Site.number(0.0), null));
        adjoints.put(value, new AdjointValue(null, adjoint));
      }
    }
    for (Variable variable : fusible.variablesFromBefore()) {
      declareVariableAdjoint(variable, before);
    }
    for (AccumulatingLoops.Accumulator accumulator : fusible.accumulators()) {
      Operand adjoint = seed;
      List<AccumulatingLoops.Step> path = accumulator.path();
      for (int i = path.size() - 1; i >= 0; i--) {
        Instruction instruction = path.get(i).instruction();
        // what the step's factor needs that is made after the loop, made before it as well
        FreshCopy copy = new FreshCopy(builder);
        before.addAll(copy.of(new Block(List.copyOf(path.get(i).again()))).statements());
        List<Operand> arguments = instruction.arguments().stream().map(copy::map).toList();
        Site site = Sites.of(instruction, arguments,
            new Operand.Use(instruction.result()), builder, null, Site.Reuse.NONE);
        Partial partial = Sites.ruleFor(instruction).partial(path.get(i).position(), site)
            .orElseThrow(() -> new IllegalStateException("no partial on the path of "
                + accumulator.variable().name() + ": " + instruction));
        Operand next = partial.applyTo(adjoint, site);
        if (partial.negative()) {
          next = site.negate(next);
        }
        before.addAll(site.instructionsFor(List.of(next)));
        adjoint = next;
      }
      Variable sumAdjoint = builder.derived(accumulator.variable(), "Bar", NumericType.DOUBLE,
          null);
      before.add(new Declare(sumAdjoint, adjoint, null));
      variableAdjoints.put(accumulator.variable(), sumAdjoint);
      // the read, and what only it makes active on the way to the result
      sumReadsAfterFusedLoops.add(accumulator.read().result());
      for (AccumulatingLoops.Step step : path) {
        List<Operand> arguments = step.instruction().arguments();
        boolean others = false;
        for (int i = 0; i < arguments.size(); i++) {
          others |= i != step.position() && arguments.get(i).isActive()
              && !(arguments.get(i) instanceof Operand.Use use
                  && sumReadsAfterFusedLoops.contains(use.value()));
        }
        if (others) {
          break;
        }
        sumReadsAfterFusedLoops.add(step.instruction().result());
      }
    }
    Variable count = tripCounts.get(loop.id());
    List<Statement> body = new ArrayList<>(step(count, Operation.ADD, line));
    loopBranchBase.push(openBranches.size());
    body.addAll(forward(loop.body()).statements());
    loopBranchBase.pop();
    body.add(new Note("the reverse of this iteration, at once", null));
    Variable iteration = builder.generatedVariable("iteration" + loop.id(), count.type());
    body.add(new Declare(iteration, new Operand.Read(count), null));
    enterReverseBody(loop, block, iteration, null, before);
    List<Statement> reversed = reverse(loop.body());
    body.addAll(place.leave(loop));
    body.addAll(reversed);
    if (!before.isEmpty()) {
      before.add(0, new Note("the adjoints of the sums of the loop of line " + line.number()
          + ", known before it runs", null));
    }
    // before the counter's declaration, which the loop's for statement takes in
    int at = out.size();
    if (at > 0 && out.get(at - 1) instanceof Declare declare
        && AccumulatingLoops.assigns(loop.update(), declare.variable())) {
      at--;
    }
    out.addAll(at, before);
    out.add(new Loop(loop.id(), forward(loop.condition()), loop.test(), loop.testFirst(),
        new Block(body), forward(loop.update()), line));
  }

  // ---- checkpointed loops (@Checkpointed) ---------------------------------------------------

  /**
   * A checkpointed loop's snapshots: the loop's state (variables of {@code double},
   * {@code float}, {@code int}, {@code long} or {@code boolean}), the tape's mark below the
   * first snapshot, the iterations between two snapshots and the trip count of the next one.
   */
  private record Snapshots(List<Variable> state, Variable start, Variable every,
      Variable next) {
    /** The state's variables recorded as {@code double}s, in order. */
    List<Variable> doubles() {
      return state.stream().filter(v -> v.type().isFloatingPoint()).toList();
    }

    /** The state's variables recorded as {@code long}s ({@code int}, {@code long}, booleans). */
    List<Variable> longs() {
      return state.stream().filter(v -> !v.type().isFloatingPoint()).toList();
    }
  }

  /**
   * The forward sweep of a checkpointed loop runs as the primal does and records no value of its
   * iterations: at the start of every {@code every}-th iteration it pushes a snapshot of the
   * loop's state, and {@code Tape.makeRoomForSnapshot} drops every other snapshot (doubling
   * {@code every}) when the method's limit is held, so that their number stays bounded
   * whatever the trip count.
   */
  private void forwardCheckpointedLoop(Loop loop, List<Statement> out) {
    Snapshots loopSnapshots = snapshots.get(loop.id());
    Variable count = tripCounts.get(loop.id());
    SourceLine line = loop.line();
    out.add(new Store(loopSnapshots.start(),
        tapeCall("mark", NumericType.LONG, List.of(), line, out), line));
    Site site = Site.formulas(builder, line);
    Operand due = site.isEqualTo(new Operand.Read(count), new Operand.Read(loopSnapshots.next()));
    List<Statement> snapshot = new ArrayList<>();
    snapshot.add(new Note("a snapshot of the loop's state", null));
    Operand every = tapeCall("makeRoomForSnapshot", NumericType.INT, List.of(
        new Operand.Read(loopSnapshots.start()),
        Operand.Constant.of(loopSnapshots.doubles().size()),
        Operand.Constant.of(loopSnapshots.longs().size()),
        Operand.Constant.of(primal.snapshots()),
        new Operand.Read(loopSnapshots.every())), line, snapshot);
    snapshot.add(new Store(loopSnapshots.every(), every, line));
    pushState(loopSnapshots, snapshot);
    Site next = Site.formulas(builder, line);
    Operand nextTrip = next.apply(Operation.ADD, count.type(),
        new Operand.Read(loopSnapshots.next()), new Operand.Read(loopSnapshots.every()));
    snapshot.addAll(next.instructionsFor(List.of(nextTrip)));
    snapshot.add(new Store(loopSnapshots.next(), nextTrip, line));
    List<Statement> body = new ArrayList<>(site.instructionsFor(List.of(due)));
    body.add(new If(nextLoopId++, due, new Block(snapshot), new Block(List.of()), line));
    body.addAll(step(count, Operation.ADD, line));
    primalOnly = true;
    FreshCopy copy = new FreshCopy(builder);
    Block condition = copy.of(forward(loop.condition()));
    Operand test = loop.test() == null ? null : copy.map(loop.test());
    body.addAll(copy.of(forward(loop.body())).statements());
    Block update = copy.of(forward(loop.update()));
    primalOnly = false;
    out.add(new Loop(loop.id(), condition, test, loop.testFirst(), new Block(body), update,
        line));
  }

  /**
   * The reverse of a checkpointed loop, segment by segment from the last: the state comes back
   * from the segment's snapshot; the segment's iterations but its last run forward again,
   * each pushing the state it starts from; then, for each iteration from the last, its state
   * comes back (from the tape, or as the forward run left it), the iteration is computed once
   * more, recording nothing, and its reverse follows, reading the values it needs from the
   * locals just computed. Last, the snapshots leave the tape.
   */
  private void reverseCheckpointedLoop(Loop loop, List<Statement> out) {
    Snapshots loopSnapshots = snapshots.get(loop.id());
    SourceLine line = loop.line().adjoint();
    Operand trips = new Operand.Read(tripCounts.get(loop.id()));
    // a loop counted by a long counts its trips, and so its segments' iterations, in longs
    NumericType tripType = trips.type();
    Operand every = new Operand.Read(loopSnapshots.every());
    Operand start = new Operand.Read(loopSnapshots.start());
    for (Variable variable : loopSnapshots.state()) {
      if (!declaredAtTop(variable)) {
        // declared in a branch of the forward sweep: out of this branch's scope
        out.add(new Declare(variable, Operand.Constant.zero(variable.type()), line));
      }
    }
    // segments = (trips + every - 1) / every: one per snapshot taken
    Site count = Site.formulas(builder, line);
    Operand segments = count.apply(Operation.DIVIDE, tripType,
        count.apply(Operation.SUBTRACT, tripType,
            count.apply(Operation.ADD, tripType, trips, every), Operand.Constant.of(1)),
        every);
    out.addAll(count.instructionsFor(List.of(segments)));
    Variable segment = builder.generatedVariable("loop" + loop.id() + "Segment", tripType);
    out.add(new Declare(segment, segments, line));
    Site more = Site.formulas(builder, line);
    Operand anyLeft = more.isGreaterThan(new Operand.Read(segment),
        Operand.Constant.zero(NumericType.INT));
    List<Statement> segmentBody = new ArrayList<>(step(segment, Operation.SUBTRACT, line));
    Operand first = named("first", tripType, Operation.MULTIPLY,
        List.of(new Operand.Read(segment), every), line, segmentBody);
    Site bound = Site.formulas(builder, line);
    Operand end = bound.apply(Operation.ADD, tripType, first, every);
    segmentBody.addAll(bound.instructionsFor(List.of(end)));
    Operand last = named("last", tripType,
        Operation.call(MathOwner.MATH, "min", 2), List.of(end, trips), line, segmentBody);
    Operand snapshot = new Operand.Read(segment);
    if (tripType != NumericType.INT) {
      // at most the snapshots' limit of segments: the snapshot's number is an int
      snapshot = named("snapshot", NumericType.INT, Operation.cast(NumericType.INT),
          List.of(snapshot), line, segmentBody);
    }
    restoreSnapshot(loopSnapshots, snapshot, start, line, segmentBody);
    segmentBody.addAll(replay(loop, loopSnapshots, first, last, line));
    segmentBody.addAll(reverseIterations(loop, loopSnapshots, first, last, line));
    out.add(new Loop(nextLoopId++, new Block(new ArrayList<>(more.instructionsFor(List.of(anyLeft)))), anyLeft,
        true, new Block(segmentBody), new Block(List.of()), line));
    out.add(new Instruction(builder.generated("dropped", NumericType.VOID, false),
        Operation.tapeCall("reset", 1), List.of(start), line));
  }

  /**
   * {@code for (int replayed = first + 1; replayed < last; replayed++)}: the iterations of the
   * segment but its last, from the state of its first, each pushing the state it starts from.
   */
  private List<Statement> replay(Loop loop, Snapshots loopSnapshots, Operand first,
      Operand last,
      SourceLine line) {
    Variable replayed = builder.generatedVariable("replayed", first.type());
    Site site = Site.formulas(builder, line);
    Operand test = site.isLessThan(new Operand.Read(replayed), last);
    List<Statement> body = new ArrayList<>();
    pushState(loopSnapshots, body);
    primalOnly = true;
    FreshCopy copy = new FreshCopy(builder);
    Block condition = copy.of(forward(loop.condition()));
    if (loop.testFirst() && readsAnyOf(loop, condition)) {
      body.addAll(condition.statements());
    }
    body.addAll(copy.of(forward(loop.body())).statements());
    List<Statement> update = new ArrayList<>(copy.of(forward(loop.update())).statements());
    primalOnly = false;
    update.addAll(step(replayed, Operation.ADD, loop.line()));
    List<Statement> around = new ArrayList<>();
    Site from = Site.formulas(builder, line);
    Operand second = from.apply(Operation.ADD, first.type(), first, Operand.Constant.of(1));
    around.addAll(from.instructionsFor(List.of(second)));
    around.add(new Declare(replayed, second, line));
    around.add(new Loop(loop.id(), new Block(new ArrayList<>(site.instructionsFor(List.of(test)))), test, true,
        new Block(body), new Block(update), line));
    return around;
  }

  /**
   * {@code for (int iteration = last; iteration > first; iteration--)}: each iteration of the
   * segment computed anew and, right after, its reverse.
   */
  private List<Statement> reverseIterations(Loop loop, Snapshots loopSnapshots, Operand first,
      Operand last, SourceLine line) {
    Variable iteration = builder.generatedVariable("iteration" + loop.id(), last.type());
    Site site = Site.formulas(builder, line);
    Operand test = site.isGreaterThan(new Operand.Read(iteration), first);
    List<Statement> body = new ArrayList<>();
    Site notLast = Site.formulas(builder, line);
    Operand popState = notLast.isLessThan(new Operand.Read(iteration), last);
    body.addAll(notLast.instructionsFor(List.of(popState)));
    List<Statement> pops = new ArrayList<>();
    List<Variable> state = loopSnapshots.state();
    List<Variable> pushed = new ArrayList<>(loopSnapshots.doubles());
    pushed.addAll(loopSnapshots.longs());
    for (int i = pushed.size() - 1; i >= 0; i--) {
      Variable variable = pushed.get(i);
      pops.add(new Store(variable, pop(variable.type(), line, pops), line));
    }
    if (!state.isEmpty()) {
      body.add(new If(nextLoopId++, popState, new Block(pops), new Block(List.of()), line));
    }
    primalOnly = true;
    List<Statement> again = new ArrayList<>();
    Block condition = forward(loop.condition());
    if (loop.testFirst() && readsAnyOf(loop, condition)) {
      again.addAll(condition.statements());
    }
    again.addAll(forward(loop.body()).statements());
    primalOnly = false;
    if (loop.body().jumpsTo(loop.id(), Jump.Kind.BREAK, Jump.Kind.CONTINUE)) {
      // a break or continue of the iteration computed anew leaves only that computation
      body.add(new Loop(loop.id(), new Block(List.of()), Operand.Constant.of(false), false,
          new Block(again), new Block(List.of()), loop.line()));
    } else {
      body.addAll(again);
    }
    fused = true;
    body.addAll(reverse(loop.body()));
    fused = false;
    List<Statement> around = new ArrayList<>();
    around.add(new Declare(iteration, last, line));
    around.add(new Loop(nextLoopId++, new Block(new ArrayList<>(site.instructionsFor(List.of(test)))), test,
        true, new Block(body), new Block(step(iteration, Operation.SUBTRACT, line)), line));
    return around;
  }

  /** Whether {@code variable} is in scope in all of the program: a parameter, or at the top. */
  private boolean declaredAtTop(Variable variable) {
    if (flow.parameterVariables().contains(variable)) {
      return true;
    }
    for (Statement statement : primal.body().statements()) {
      if (statement instanceof Declare declare && declare.variable() == variable) {
        return true;
      }
    }
    return false;
  }

  /** Whether the loop's body or update reads a value that {@code condition} computes. */
  private static boolean readsAnyOf(Loop loop, Block condition) {
    java.util.Set<Value> defined = new java.util.HashSet<>();
    for (Statement statement : condition.statements()) {
      if (statement instanceof Instruction instruction) {
        defined.add(instruction.result());
      }
    }
    return !defined.isEmpty() && (reads(loop.body(), defined) || reads(loop.update(), defined));
  }

  private static boolean reads(Block block, java.util.Set<Value> values) {
    for (Statement statement : block.statements()) {
      if (statement.operands().stream().anyMatch(
          operand -> operand instanceof Operand.Use use && values.contains(use.value()))) {
        return true;
      }
      if (statement instanceof If branch
          && (reads(branch.thenBlock(), values) || reads(branch.elseBlock(), values))) {
        return true;
      }
    }
    return false;
  }

  /** Pushes the loop's state: its {@code double}s, then its {@code long}s. */
  private static void pushState(Snapshots loopSnapshots, List<Statement> out) {
    for (Variable variable : loopSnapshots.doubles()) {
      out.add(new Push(new Operand.Read(variable), null));
    }
    for (Variable variable : loopSnapshots.longs()) {
      out.add(new Push(new Operand.Read(variable), null));
    }
  }

  /** The state's variables from snapshot number {@code index}, read where it lies. */
  private void restoreSnapshot(Snapshots loopSnapshots, Operand index, Operand start,
      SourceLine line, List<Statement> out) {
    restoreFrom(loopSnapshots.doubles(), index, start, line, out);
    restoreFrom(loopSnapshots.longs(), index, start, line, out);
  }

  private void restoreFrom(List<Variable> variables, Operand index, Operand start,
      SourceLine line, List<Statement> out) {
    for (int i = 0; i < variables.size(); i++) {
      Variable variable = variables.get(i);
      // index * size + i, written without the factor 1 and the term 0
      Site site = Site.formulas(builder, line);
      Operand place = variables.size() == 1 ? index : site.apply(Operation.MULTIPLY,
          NumericType.INT, index, Operand.Constant.of(variables.size()));
      if (i > 0) {
        place = site.apply(Operation.ADD, NumericType.INT, place, Operand.Constant.of(i));
      }
      out.addAll(site.instructionsFor(List.of(place)));
      String method = switch (variable.type()) {
        case DOUBLE, FLOAT -> "doubleAt";
        case INT -> "intAt";
        case LONG -> "longAt";
        default -> "booleanAt";
      };
      NumericType read = variable.type() == NumericType.FLOAT ? NumericType.DOUBLE
          : variable.type();
      Value value = builder.formula(read, false);
      out.add(new Instruction(value, Operation.tapeCall(method, 2), List.of(start, place),
          line));
      Operand restored = new Operand.Use(value);
      if (variable.type() == NumericType.FLOAT) {
        Value narrowed = builder.formula(NumericType.FLOAT, false);
        out.add(new Instruction(narrowed, Operation.cast(NumericType.FLOAT),
            List.of(restored), line));
        restored = new Operand.Use(narrowed);
      }
      out.add(new Store(variable, restored, line));
    }
  }

  /** {@code tape.method(arguments)}, written where the next statement reads it. */
  private Operand tapeCall(String method, NumericType type, List<Operand> arguments,
      SourceLine line, List<Statement> out) {
    Value value = builder.formula(type, false);
    out.add(new Instruction(value, Operation.tapeCall(method, arguments.size()), arguments,
        line));
    return new Operand.Use(value);
  }

  /** {@code hint = operation(arguments)}, a value of its own that may be read many times. */
  private Operand named(String hint, NumericType type, Operation operation,
      List<Operand> arguments, SourceLine line, List<Statement> out) {
    Value value = builder.generated(hint, type, false);
    out.add(new Instruction(value, operation, arguments, line));
    return new Operand.Use(value);
  }

  /** {@code counter = counter ± 1}. */
  private List<Statement> step(Variable counter, Operation operation, SourceLine line) {
    Site site = Site.formulas(builder, line);
    Operand next = site.apply(operation, counter.type(), new Operand.Read(counter),
        Operand.Constant.of(1));
    List<Statement> out = new ArrayList<>(site.instructionsFor(List.of(next)));
    out.add(new Store(counter, next, line));
    return out;
  }

  /**
   * Whether the forward sweep of {@code block} can complete normally by Java's rules (JLS
   * 14.22), so that javac accepts code after it. A {@code return} only stores the result there;
   * a loop without a test ends only by a {@code break} of its own.
   */
  private static boolean forwardCompletes(Block block) {
    for (Statement statement : block.statements()) {
      boolean completes;
      if (statement instanceof Throw || statement instanceof Jump) {
        completes = false;
      } else if (statement instanceof If branch) {
        completes = forwardCompletes(branch.thenBlock()) || forwardCompletes(branch.elseBlock());
      } else if (statement instanceof Loop loop) {
        completes = loop.test() != null || loop.body().jumpsTo(loop.id(), Jump.Kind.BREAK);
      } else {
        completes = true;
      }
      if (!completes) {
        return false;
      }
    }
    return true;
  }

  /** Whether some path through the branch reaches its end (not ending in a jump or throw). */
  private static boolean completesNormally(If branch) {
    return completesNormally(branch.thenBlock()) || completesNormally(branch.elseBlock());
  }

  private static boolean completesNormally(Block block) {
    List<Statement> statements = block.statements();
    if (statements.isEmpty()) {
      return true;
    }
    Statement last = statements.get(statements.size() - 1);
    if (last instanceof Jump || last instanceof Return || last instanceof Throw) {
      return false;
    }
    return !(last instanceof If nested) || completesNormally(nested);
  }

  // ---- reverse sweep -----------------------------------------------------------------------

  private List<Statement> reverse(Block block) {
    List<Statement> out = new ArrayList<>();
    for (Value value : flow.valuesDefinedIn(block)) {
      boolean parameter = value.origin() == Value.Origin.PARAMETER && !straightLine
          && !flow.isVariableParameter(value);
      if (value.isActive() && (flow.needsDeclaredAdjoint(value) || parameter)
          && !adjoints.containsKey(value)) { // declared before a fused loop: forwardFusedLoop
        Variable adjoint = builder.derivedVariable(value, "Bar", NumericType.DOUBLE);
        out.add(new Declare(adjoint, Site.number(0.0), null));
        adjoints.put(value, new AdjointValue(null, adjoint));
      }
    }
    if (block == primal.body()) {
      for (Variable variable : flow.parameterVariables()) {
        declareVariableAdjoint(variable, out);
      }
    }
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction making && arraysOfPieces.contains(making)) {
        Operand length = making.arguments().get(0);
        allocateAdjointArray(making, length instanceof Operand.Use use
            ? restored.getOrDefault(block, Map.of()).getOrDefault(use.value(), length) : length,
            out);
      }
    }
    for (Statement statement : block.statements()) {
      if (statement instanceof Declare declare) {
        declareVariableAdjoint(declare.variable(), out);
      }
    }
    List<Statement> statements = block.statements();
    for (int i = statements.size() - 1; i >= 0; i--) {
      Statement statement = statements.get(i);
      if (statement instanceof Instruction instruction) {
        if (flow.isLive(instruction)) {
          reverseInstruction(instruction, block, out);
        }
      } else if (statement instanceof Declare declare) {
        Variable adjoint = variableAdjoints.get(declare.variable());
        if (adjoint != null && declare.initial() instanceof Operand.Use use && use.isActive()) {
          accumulate(use.value(), new Operand.Read(adjoint), false, false,
              Site.formulas(builder, declare.line().adjoint()), out);
        }
      } else if (statement instanceof Store store) {
        Variable adjoint = variableAdjoints.get(store.variable());
        if (adjoint != null) {
          SourceLine line = store.line().adjoint();
          if (store.value() instanceof Operand.Use use && use.isActive()) {
            accumulate(use.value(), new Operand.Read(adjoint), false, false,
                Site.formulas(builder, line), out);
          }
          out.add(new Store(adjoint, Site.number(0.0), line));
        }
      } else if (statement instanceof Return ret) {
        if (ret.value() instanceof Operand.Use use && use.isActive()) {
          accumulate(use.value(), seed, false, true, Site.formulas(builder, ret.line().adjoint()),
              out);
        } else if (ret.value() instanceof Operand.Use use
            && adjointArrays.containsKey(use.value())) {
          // a vector function: the seed is the returned array's adjoint
          Value seeded = builder.generated("seeded", NumericType.INT, false);
          // a caller's adjoint array of a result made in a loop is as long as the longest
          out.add(new Instruction(seeded,
              Operation.slotsCall(output == Output.TAPE ? SEED_WITHIN : SEED, 2),
              List.of(seed, new Operand.Use(adjointArrays.get(use.value()))),
              ret.line().adjoint()));
        }
      } else if (statement instanceof If branch) {
        List<If> chain = chain(branch, block);
        LongChain numbered = longChains.get(branch.id());
        if (numbered != null) {
          reverseChain(numbered.links(), 0, new Operand.Read(numbered.piece()), out);
        } else if (chain.isEmpty()) {
          reverseIf(branch, block, out);
        } else {
          Value piece = builder.generated("piece", NumericType.INT, false);
          out.add(new Instruction(piece, Operation.POP, List.of(), branch.line().adjoint()));
          reverseChain(chain, 0, new Operand.Use(piece), out);
        }
      } else if (statement instanceof Loop loop) {
        if (snapshots.containsKey(loop.id())) {
          reverseCheckpointedLoop(loop, out);
        } else if (fusedLoops.containsKey(loop.id())) {
          // its sums' adjoints are the same at its start as at its end: nothing to do here
          out.add(new Note("the reverse of the loop of line " + loop.line().number()
              + " followed each of its iterations", null));
        } else {
          reverseLoop(loop, block, out);
        }
      }
    }
    return out;
  }

  private void declareVariableAdjoint(Variable variable, List<Statement> out) {
    if (variable.isActive() && !variableAdjoints.containsKey(variable)) {
      Variable adjoint = builder.derived(variable, "Bar", NumericType.DOUBLE, null);
      out.add(new Declare(adjoint, Site.number(0.0), null));
      variableAdjoints.put(variable, adjoint);
    }
  }

  /** A branch's reverse takes the same path: by its condition, or its decision on the tape. */
  private void reverseIf(If branch, Block block, List<Statement> out) {
    SourceLine line = branch.line().adjoint();
    // in a piece of a long chain, a condition made in the piece comes in a variable
    Operand decision = branch.condition() instanceof Operand.Use use
        ? restored.getOrDefault(block, Map.of()).getOrDefault(use.value(), use)
        : branch.condition();
    boolean recorded = flow.loopDepth(block) > 0 && !fused && !tape.keepsInLocals(block);
    if (recorded) {
      decision = pop(NumericType.BOOLEAN, line, out);
    }
    List<Statement> thenReverse = reverse(branch.thenBlock());
    List<Statement> elseReverse = reverse(branch.elseBlock());
    if (thenReverse.isEmpty() && elseReverse.isEmpty() && !recorded) {
      return; // nothing to do on either path, and no decision to take back from the tape
    }
    out.add(new If(branch.id(), decision, new Block(thenReverse), new Block(elseReverse), line));
  }

  /**
   * The reverse of a chain from link {@code index}, choosing the piece by the number the forward
   * sweep recorded: {@code if (piece == 0) ... else if (piece == 1) ...}, flat as well. The
   * conditions between the links compute inactive values only and have no reverse.
   */
  private void reverseChain(List<If> chain, int index, Operand piece, List<Statement> out) {
    If link = chain.get(index);
    SourceLine line = link.line().adjoint();
    Site site = Site.formulas(builder, line);
    Operand taken = site.isEqualTo(piece, Operand.Constant.of(index));
    out.addAll(site.instructionsFor(List.of(taken)));
    Block thenBlock = new Block(reverse(link.thenBlock()));
    List<Statement> elseStatements = new ArrayList<>();
    if (index + 1 < chain.size()) {
      reverseChain(chain, index + 1, piece, elseStatements);
    } else {
      elseStatements = reverse(link.elseBlock());
    }
    out.add(new If(link.id(), taken, thenBlock, new Block(elseStatements), line));
  }

  /** {@code for (int iteration = trips; iteration > 0; iteration--)} over the body's reverse. */
  private void reverseLoop(Loop loop, Block block, List<Statement> out) {
    SourceLine line = loop.line().adjoint();
    Operand count;
    if (flow.loopDepth(block) == 0) {
      count = new Operand.Read(tripCounts.get(loop.id()));
    } else if (!fused && recomputation.countsTrips(loop, block)) {
      count = recomputation.tripCount(loop, block, place,
          restored.computeIfAbsent(block, b -> new HashMap<>()), builder, line, out);
    } else {
      Value popped = builder.generated("loop" + loop.id() + "Trips", tripType(loop), false);
      out.add(new Instruction(popped, Operation.POP, List.of(), line));
      count = new Operand.Use(popped);
    }
    Variable iteration = builder.generatedVariable("iteration" + loop.id(), count.type());
    out.add(new Declare(iteration, count, line));
    enterReverseBody(loop, block, iteration, line, out);
    Site site = Site.formulas(builder, line);
    Operand test = site.isGreaterThan(new Operand.Read(iteration),
        Operand.Constant.zero(count.type()));
    Block condition = new Block(new ArrayList<>(site.instructionsFor(List.of(test))));
    List<Statement> reversed = reverse(loop.body());
    List<Statement> body = new ArrayList<>(place.leave(loop));
    body.addAll(reversed);
    out.add(new Loop(loop.id(), condition, test, true, new Block(body),
        new Block(step(iteration, Operation.SUBTRACT, line)), line));
  }

  /**
   * Enters the reverse of an iteration of {@code loop} (held by {@code block}), whose number
   * from 1 is in {@code iteration}; what the counter's start needs goes into {@code out}.
   */
  private void enterReverseBody(Loop loop, Block block, Variable iteration, SourceLine line,
      List<Statement> out) {
    if (recomputation.hasCounter(loop)) {
      // the loop's counter in forward iteration k is start + (k - 1) * step: what reads of it
      // computed again in the reverse body need
      Operand start = recomputation.start(loop, place,
          restored.computeIfAbsent(block, b -> new HashMap<>()), builder, line, out);
      place.enter(loop, iteration, start);
    } else {
      place.enter(loop, iteration, null);
    }
  }

  private Operand pop(NumericType type, SourceLine line, List<Statement> out) {
    return pop(type, false, line, out);
  }

  /** As {@link #pop(NumericType, SourceLine, List)}, of a value that may carry a tangent. */
  private Operand pop(NumericType type, boolean active, SourceLine line, List<Statement> out) {
    Value value = builder.formula(type, active);
    out.add(new Instruction(value, Operation.POP, List.of(), line));
    return new Operand.Use(value);
  }

  /**
   * {@code aLongest = 0} at the top, for each local array {@code a} made inside a loop
   * ({@code new}, {@code clone()}, a vector function's result): a new array in each
   * iteration, all of whose adjoints the reverse sweep keeps in one adjoint array, made once, as
   * long as the longest of them.
   */
  private void declareLongestLengths(Block block, List<Statement> out) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction && makesLocalArray(instruction)
          && flow.loopDepth(block) > 0) {
        Variable longest = builder.derivedVariable(instruction.result(), "Longest",
            NumericType.INT);
        out.add(new Declare(longest, Operand.Constant.zero(NumericType.INT), null));
        longestLengths.put(instruction.result(), longest);
      } else if (statement instanceof If branch) {
        declareLongestLengths(branch.thenBlock(), out);
        declareLongestLengths(branch.elseBlock(), out);
      } else if (statement instanceof Loop loop) {
        declareLongestLengths(loop.condition(), out);
        declareLongestLengths(loop.body(), out);
        declareLongestLengths(loop.update(), out);
      }
    }
  }

  /**
   * Whether {@code instruction} makes a local array that carries derivatives ({@code new},
   * {@code clone()}, a vector function's or vector target's result): one with adjoints of its
   * own.
   */
  private static boolean makesLocalArray(Instruction instruction) {
    Operation.Form form = instruction.operation().form();
    return instruction.result().isActiveArray()
        && (form == Operation.Form.NEW_ARRAY || form == Operation.Form.CLONE
            || form == Operation.Form.USER_CALL || form == Operation.Form.RULED_CALL);
  }

  /** After making {@code a} inside a loop: {@code aLongest = max(aLongest, a.length)}. */
  private void trackLongest(Instruction making, List<Statement> out) {
    Variable longest = longestLengths.get(making.result());
    SourceLine line = making.line();
    Value length = builder.derived(making.result(), "Length", NumericType.INT);
    // a matrix's adjoints are all its elements, row after row
    out.add(making.operation().makesMatrix()
        ? new Instruction(length, Operation.slotsCall("count", 1),
            List.of(new Operand.Use(making.result())), line)
        : new Instruction(length, Operation.LENGTH, List.of(new Operand.Use(making.result())),
            line));
    Site site = Site.formulas(builder, line);
    Operand longer = site.isGreaterThan(new Operand.Use(length), new Operand.Read(longest));
    Operand chosen = site.choose(longer, new Operand.Use(length), new Operand.Read(longest));
    out.addAll(site.instructionsFor(List.of(chosen)));
    out.add(new Store(longest, chosen, line));
  }

  /** Before the reverse sweep: one adjoint array per local array made inside a loop. */
  private void allocateLoopAdjointArrays(List<Statement> out) {
    for (Map.Entry<Value, Variable> entry : longestLengths.entrySet()) {
      Value adjoint = builder.derived(entry.getKey(), "Bar", NumericType.DOUBLE_ARRAY);
      out.add(new Instruction(adjoint, Operation.newArray(NumericType.DOUBLE),
          List.of(new Operand.Read(entry.getValue())), null));
      adjointArrays.put(entry.getKey(), adjoint);
    }
  }

  /**
   * Before {@code a[i] = v} into a local array that is passed to calls of other
   * {@code @Differentiable} methods: the element written over, recorded inside loops, so that
   * the reverse of the store can put it back. The pullback of such a call reads the array as it
   * was when the call was made, and the reverse sweep reaches the call only after undoing every
   * later write.
   */
  private void keepOverwritten(Instruction store, boolean recording, List<Statement> out) {
    Value overwritten = builder.derived(store.result(), "Overwritten", store.result().type());
    out.add(new Instruction(overwritten, Operation.ELEMENT,
        List.of(store.arguments().get(0), store.arguments().get(1)), store.line()));
    if (recording) {
      if (isMadeInALoop(store.arguments().get(0))) {
        // the reverse sweep has no variable that holds this iteration's array
        out.add(new Push(store.arguments().get(0), null));
      }
      out.add(new Push(new Operand.Use(overwritten), null));
      if (recordsIndex(store)) {
        out.add(new Push(store.arguments().get(1), null));
      }
    }
    overwrittenElements.put(store, overwritten);
  }

  /**
   * Whether {@link #keepOverwritten} records the index of a store inside loops: the index of an
   * active store is recorded for its adjoint already ({@link FlowAnalysis}), unless the store
   * writes through a row of a local matrix, whose adjoint needs the element's slot instead.
   */
  private static boolean recordsIndex(Instruction store) {
    return !store.result().isActive() || store.arguments().size() > 3;
  }

  /**
   * After the reverse of a store that kept the element it wrote over ({@link
   * #keepOverwritten}): that element back in the array, for the calls the reverse sweep meets
   * next. {@code index} is the store's index as the reverse sweep has it; inside loops the index
   * (where {@link #recordsIndex}), the element and, for an array made in the loop, the array
   * come back from the tape.
   */
  private void restoreOverwritten(Instruction store, Operand index, Block block,
      List<Statement> out) {
    Value overwritten = overwrittenElements.get(store);
    SourceLine line = store.line().adjoint();
    Operand old = new Operand.Use(overwritten);
    boolean recorded = flow.loopDepth(block) > 0;
    if (recorded) {
      if (recordsIndex(store)) {
        index = pop(NumericType.INT, line, out);
      }
      // an element that carries a derivative comes back as such: forward over reverse, which
      // recorded its tangent with it, takes that back too
      Value taken = builder.again(overwritten);
      out.add(new Instruction(taken, Operation.POP, List.of(), line));
      old = new Operand.Use(taken);
    }
    out.add(new ElementStore(arrayWrittenOver(store, recorded, line, out), index, old, false,
        line));
  }

  /**
   * The array a store into a local array passed to calls wrote into, in the reverse sweep: the
   * array's own variable, or, for an array made in a loop, that iteration's array, taken back
   * from the tape ({@link #keepOverwritten} recorded it first).
   */
  private Value arrayWrittenOver(Instruction store, boolean recorded, SourceLine line,
      List<Statement> out) {
    Operand array = store.arguments().get(0);
    if (!recorded || !isMadeInALoop(array)) {
      return ((Operand.Use) array).value();
    }
    Value taken = builder.again(((Operand.Use) array).value());
    out.add(new Instruction(taken, Operation.POP, List.of(), line));
    return taken;
  }

  /** Whether {@code array} is a local array made inside a loop: a new one each iteration. */
  private boolean isMadeInALoop(Operand array) {
    return array instanceof Operand.Use use && use.value().origin() != Value.Origin.PARAMETER
        && flow.loopDepth(flow.definingBlock(use.value())) > 0;
  }

  /**
   * {@code aBar = new double[a.length]} beside a local array {@code a} that carries
   * derivatives: the adjoints of its elements. Local arrays are made outside loops, so one
   * adjoint array serves the whole reverse sweep.
   */
  private void allocateAdjointArray(Instruction creation, List<Statement> out) {
    allocateAdjointArray(creation, creation.operation().form() == Operation.Form.NEW_ARRAY
        ? creation.arguments().get(0) : null, out);
  }

  /**
   * As {@link #allocateAdjointArray(Instruction, List)}, of {@code length} elements when it is
   * not null (for an array made in a piece of a long chain, in the piece's reverse sweep: the
   * length there, {@link #arraysOfPieces}).
   */
  private void allocateAdjointArray(Instruction creation, Operand length, List<Statement> out) {
    Value array = creation.result();
    Value adjoint = builder.derived(array, "Bar", NumericType.DOUBLE_ARRAY);
    if (creation.operation().makesMatrix()) {
      // a local matrix: its adjoints in one flat array, row after row
      Value count = builder.derived(array, "Count", NumericType.INT);
      out.add(new Instruction(count, Operation.slotsCall("count", 1),
          List.of(new Operand.Use(array)), null));
      length = new Operand.Use(count);
    } else if (length == null) {
      Value measured = builder.derived(array, "Length", NumericType.INT);
      out.add(new Instruction(measured, Operation.LENGTH, List.of(new Operand.Use(array)),
          null));
      length = new Operand.Use(measured);
    }
    out.add(new Instruction(adjoint, Operation.newArray(NumericType.DOUBLE), List.of(length),
        null));
    adjointArrays.put(array, adjoint);
  }

  /**
   * The reverse of making an array inside a loop: its adjoints are consumed, and the adjoint
   * array, which every iteration's array shares, starts the earlier iteration at zero.
   */
  private void clearIfMadeInLoop(Instruction making, List<Statement> out) {
    if (!longestLengths.containsKey(making.result())) {
      return;
    }
    Value cleared = builder.generated("cleared", NumericType.INT, false);
    out.add(new Instruction(cleared, Operation.slotsCall(CLEAR, 1),
        List.of(new Operand.Use(adjointArrays.get(making.result()))), making.line().adjoint()));
  }

  /**
   * The values {@code instruction}'s reverse needs that were made in this iteration of the
   * loops around it: popped from the tape in the reverse order of their pushes, or computed
   * again. Returns, per such value, the operand that holds it in the reverse sweep.
   */
  private Map<Value, Operand> restoreRecorded(Instruction instruction, Block block,
      List<Statement> out) {
    Map<Value, Operand> popped = restored.computeIfAbsent(block, b -> new HashMap<>());
    if (flow.loopDepth(block) == 0 || fused) {
      return popped; // the forward values are in locals
    }
    List<Value> taped = tape.recordedAfter(instruction, block);
    for (int i = taped.size() - 1; i >= 0; i--) {
      Value needed = taped.get(i);
      if (recomputation.isRecomputed(needed)) {
        continue;
      }
      // an array made in this iteration comes back as itself, carrying derivatives as it did
      // (an array without derivatives, such as a rule's partials, is named after the one
      // recorded, so that the second-order code knows it: see Tangent)
      Value copy = needed.isActiveArray() ? builder.again(needed)
          : builder.derived(needed, "", needed.type());
      out.add(new Instruction(copy, Operation.POP, List.of(), null));
      popped.put(needed, new Operand.Use(copy));
    }
    for (Value needed : taped) {
      if (recomputation.isRecomputed(needed)) {
        recomputation.compute(needed, place, popped, builder, null, out);
      }
    }
    return popped;
  }

  /**
   * The reverse of {@code c = w.clone()}: the adjoints of c's elements go to w's, in the output
   * array at w's slots (a parameter) or in w's adjoint array (a local array). A row's first
   * slot, inside a loop, is the one in {@code popped}.
   */
  private void reverseClone(Instruction clone, Map<Value, Operand> popped,
      List<Statement> out) {
    if (!(clone.arguments().get(0) instanceof Operand.Use use)) {
      return; // a copy of a constant table: nothing to pass back
    }
    Value source = use.value();
    Value target;
    Operand start;
    if (clone.arguments().size() == 2) {
      target = adjointTarget(source);
      start = clone.arguments().get(1) instanceof Operand.Use rowStart
          ? popped.getOrDefault(rowStart.value(), rowStart)
          : clone.arguments().get(1);
    } else if (adjointArrays.containsKey(source)) {
      target = adjointArrays.get(source);
      start = Operand.Constant.of(0);
    } else {
      return; // a copy of constants: nothing to pass back
    }
    Value added = builder.generated("added", NumericType.INT, false);
    // an array made inside a loop has its adjoints in an array as long as the longest copy
    String helper = longestLengths.containsKey(clone.result()) ? ADD_INTO_WITHIN : ADD_INTO;
    out.add(new Instruction(added, Operation.slotsCall(helper, 3), List.of(
        new Operand.Use(adjointArrays.get(clone.result())), new Operand.Use(target), start),
        clone.line().adjoint()));
  }

  /**
   * The reverse of {@code a[i] = v}: v's adjoint takes a's adjoint at i, which then becomes
   * zero (the element written over had no part in what follows), plus the adjoint of the
   * assignment expression's own value where that was used.
   */
  private void reverseStore(Instruction store, List<Operand> arguments, List<Statement> out) {
    Value array = ((Operand.Use) store.arguments().get(0)).value();
    Value arrayAdjoint = adjointTarget(array);
    // a row of a local matrix: the element's slot in the matrix's flat adjoints
    Operand index = arguments.size() > 3 ? arguments.get(3) : arguments.get(1);
    SourceLine line = store.line().adjoint();
    Value moved = builder.derived(store.result(), "Bar", NumericType.DOUBLE);
    out.add(new Instruction(moved, Operation.ELEMENT,
        List.of(new Operand.Use(arrayAdjoint), index), line));
    out.add(new ElementStore(arrayAdjoint, index, Site.number(0.0), false, line));
    if (store.arguments().get(2) instanceof Operand.Use stored && stored.isActive()) {
      Site site = Site.formulas(builder, line);
      accumulate(stored.value(), new Operand.Use(moved), false, false, site, out);
      AdjointValue own = adjoints.get(store.result());
      if (own != null && live.isLive(store.result())) {
        accumulate(stored.value(), own.expression(), false, false, site, out);
      }
    }
  }

  private void reverseInstruction(Instruction instruction, Block block, List<Statement> out) {
    Value value = instruction.result();
    if (instruction.operation().form() == Operation.Form.CLONE && value.isActiveArray()) {
      reverseClone(instruction, restoreRecorded(instruction, block, out), out);
      clearIfMadeInLoop(instruction, out);
      return;
    }
    if (instruction.operation().form() == Operation.Form.NEW_ARRAY) {
      clearIfMadeInLoop(instruction, out);
      return;
    }
    if ((instruction.operation().form() == Operation.Form.USER_CALL
        || instruction.operation().form() == Operation.Form.RULED_CALL) && value.isActiveArray()) {
      // a vector function: its result's adjoints are the seed; inside a loop, the arguments
      // of this iteration's call come back from the tape
      Map<Value, Operand> popped = restoreRecorded(instruction, block, out);
      readRowsAgain(instruction, block, popped, out);
      List<Operand> arguments = new ArrayList<>();
      for (Operand argument : instruction.arguments()) {
        arguments.add(argument instanceof Operand.Use use
            ? popped.getOrDefault(use.value(), argument) : argument);
      }
      if (instruction.operation().form() == Operation.Form.USER_CALL) {
        reverseCall(instruction, arguments, new Operand.Use(adjointArrays.get(value)),
            instruction.line().adjoint(), out);
      } else {
        reverseVectorCall(instruction, arguments, out);
      }
      clearIfMadeInLoop(instruction, out);
      return;
    }
    if (!value.isActive()) {
      if (overwrittenElements.containsKey(instruction)) {
        restoreOverwritten(instruction, instruction.arguments().get(1), block, out);
      }
      return;
    }
    Map<Value, Operand> popped = restoreRecorded(instruction, block, out);
    if (instruction.operation().form() == Operation.Form.RULED_CALL
        || instruction.operation().form() == Operation.Form.USER_CALL) {
      readRowsAgain(instruction, block, popped, out);
    }
    if (instruction.operation().form() == Operation.Form.STORE) {
      List<Operand> restoredArguments = new ArrayList<>();
      for (Operand argument : instruction.arguments()) {
        restoredArguments.add(argument instanceof Operand.Use use
            ? popped.getOrDefault(use.value(), argument) : argument);
      }
      reverseStore(instruction, restoredArguments, out);
      if (overwrittenElements.containsKey(instruction)) {
        restoreOverwritten(instruction, restoredArguments.get(1), block, out);
      }
      return;
    }
    if (!live.isLive(value) || sumReadsAfterFusedLoops.contains(value)) {
      return; // nothing that reaches the result depends on this value, or it is passed back
    }
    AdjointValue adjoint = adjoints.get(value);
    if (adjoint == null) {
      throw new IllegalStateException("the reverse sweep reached " + value
          + " before all uses of it that LiveAdjoints found");
    }
    SourceLine line = instruction.line().adjoint();
    Operation operation = instruction.operation();
    List<Operand> arguments = new ArrayList<>();
    for (Operand argument : instruction.arguments()) {
      arguments.add(argument instanceof Operand.Use use
          ? popped.getOrDefault(use.value(), argument) : argument);
    }
    if (operation.form() == Operation.Form.USER_CALL) {
      reverseCall(instruction, arguments, adjoint.expression(), line, out);
      return;
    }
    if (operation.form() == Operation.Form.ELEMENT) {
      // v = w[i]: the element's adjoint, at the slot ArraySlots gave: in the output array for
      // a parameter, in the array's own adjoint array for a local array
      Value array = ((Operand.Use) instruction.arguments().get(0)).value();
      Value target = adjointTarget(array);
      out.add(new ElementStore(target, arguments.get(2), adjoint.expression(), true, line));
      return;
    }
    if (operation.form() == Operation.Form.COPY
        && instruction.arguments().get(0) instanceof Operand.Read read) {
      Variable target = variableAdjoints.get(read.variable());
      Site site = Site.formulas(builder, line);
      Operand sum = site.plus(new Operand.Read(target), adjoint.expression());
      out.addAll(site.instructionsFor(List.of(sum)));
      out.add(new Store(target, sum, line));
      return;
    }
    Operand resultOperand = popped.getOrDefault(value, new Operand.Use(value));
    Site site = Sites.of(instruction, arguments, resultOperand, builder, line,
        straightLine ? computed : Site.Reuse.NONE);
    DerivativeRules.Rule rule = Sites.ruleFor(instruction);
    Map<Integer, Partial> partials = new TreeMap<>();
    for (int i = 0; i < arguments.size(); i++) {
      if (instruction.arguments().get(i) instanceof Operand.Use use && use.isActive()) {
        Optional<Partial> partial = rule.partial(i, site);
        if (partial.isPresent()) {
          partials.put(i, partial.get());
        }
      }
    }
    Operand incoming = adjoint.expression();
    Operand sharedDivisor = Sites.sharedDivisor(partials.values(), site);
    if (sharedDivisor != null) {
      // a / b: both partials divide by b; divide the adjoint once and multiply.
      Value scaled = builder.derived(value, "BarOver", NumericType.DOUBLE);
      out.addAll(Sites.define(scaled, Partial.over(sharedDivisor).applyTo(incoming, site), site,
          line));
      incoming = new Operand.Use(scaled);
    }
    for (Map.Entry<Integer, Partial> entry : partials.entrySet()) {
      Operand.Use use = (Operand.Use) instruction.arguments().get(entry.getKey());
      Partial partial = entry.getValue();
      if (sharedDivisor != null) {
        partial = partial.undivided();
      }
      accumulate(use.value(), partial.applyTo(incoming, site), partial.negative(),
          partial.isOne() && sharedDivisor == null, site, out);
    }
    if (operation.form() == Operation.Form.RULED_CALL) {
      reverseArrayArguments(instruction, arguments, adjoint.expression(), site, out);
    }
  }

  /**
   * The reverse of a call with {@code @DerivativeOf} rules for its array arguments: per array
   * that carries derivatives, {@code Slots.addScaled(partial, a, vBar, target, start)} adds
   * {@code vBar * partial[k]} at the slot ArraySlots gave its first element: into the output
   * array for a parameter or a row of one, into the array's own adjoint array for a local
   * array. The rule's array is the only one allocated, by the user's code.
   */
  private void reverseArrayArguments(Instruction call, List<Operand> arguments,
      Operand adjoint, Site site, List<Statement> out) {
    RuledCallee ruled = call.operation().ruled();
    int slot = ruled.argumentCount();
    for (int i = 0; i < ruled.parameterTypes().size(); i++) {
      if (!(call.arguments().get(i) instanceof Operand.Use use)
          || !use.value().isActiveArray()) {
        continue;
      }
      Operand start = arguments.get(slot++);
      Operand partial = DerivativeRules.arrayPartial(ruled, i, site).orElseThrow(
          () -> new IllegalStateException("no rule for the array argument of " + call));
      Value target = adjointTarget(use.value());
      out.addAll(site.instructionsFor(List.of(partial)));
      Value added = builder.generated("added", NumericType.INT, false);
      out.add(new Instruction(added, Operation.slotsCall(ADD_SCALED, 5), List.of(partial,
          arguments.get(i), adjoint, new Operand.Use(target), start), site.line()));
    }
  }

  /**
   * The reverse of {@code r = v(args)}, a vector target with {@code @DerivativeOf} rules, with
   * the arguments as the reverse sweep has them: with {@code rBar}, the adjoints of r's elements, a {@code double} argument
   * gets {@code Slots.dot(partial, rBar)}, an array argument {@code Slots.addTransposed(partial,
   * a, rBar, target, start)} at its slots.
   */
  private void reverseVectorCall(Instruction call, List<Operand> arguments,
      List<Statement> out) {
    RuledCallee ruled = call.operation().ruled();
    Value resultAdjoint = adjointArrays.get(call.result());
    SourceLine line = call.line().adjoint();
    Site site = Sites.of(call, arguments, new Operand.Use(call.result()), builder, line,
        Site.Reuse.NONE);
    // made inside a loop, the result's adjoints are in an array as long as the longest result
    boolean within = longestLengths.containsKey(call.result());
    Operand seeds = new Operand.Use(resultAdjoint);
    int slot = ruled.argumentCount();
    for (int i = 0; i < ruled.parameterTypes().size(); i++) {
      // the adjoints go to the call's own arguments; the rules take them as restored
      Operand argument = call.arguments().get(i);
      if (argument instanceof Operand.Use use && use.isActive() && live.isLive(use.value())) {
        Operand partial = DerivativeRules.vectorPartial(ruled, i, site).orElseThrow();
        // active, as the adjoint it adds to: the second-order code differentiates it again
        // (Tangent), and a formula over two arrays would be taken for a constant
        out.addAll(site.instructionsFor(List.of(partial)));
        Value dot = builder.formula(NumericType.DOUBLE, true);
        out.add(new Instruction(dot, Operation.slotsCall(within ? DOT_WITHIN : DOT, 2),
            List.of(partial, seeds), line));
        accumulate(use.value(), new Operand.Use(dot), false, false, site, out);
      } else if (argument instanceof Operand.Use use && use.value().isActiveArray()) {
        Operand start = arguments.get(slot++);
        Operand partial = DerivativeRules.vectorPartial(ruled, i, site).orElseThrow();
        Value target = adjointTarget(use.value());
        out.addAll(site.instructionsFor(List.of(partial)));
        Value added = builder.generated("added", NumericType.INT, false);
        out.add(new Instruction(added,
            Operation.slotsCall(within ? "addTransposedWithin" : "addTransposed", 5),
            List.of(partial, arguments.get(i), seeds, new Operand.Use(target), start), line));
      }
    }
  }

  /**
   * The runtime helpers that add a copy's adjoints into its original's ({@code Slots.addInto},
   * and {@code addIntoWithin} for a copy made in a loop) and clear the adjoint array of an array
   * made in a loop ({@code Slots.clear}); {@link Tangent} follows each with the same for the
   * adjoints' tangents.
   */
  static final String ADD_INTO = "addInto";
  static final String ADD_INTO_WITHIN = "addIntoWithin";
  public static final String CLEAR = "clear";

  /**
   * The runtime helpers that start a vector function's reverse sweep from the seed ({@code
   * Slots.seed}, and {@code seedWithin} in the pullback callers call), which {@link
   * JacobianRows} replaces by a unit seed per row.
   */
  static final String SEED = "seed";
  static final String SEED_WITHIN = "seedWithin";

  /** The runtime helper that adds an adjoint times a rule's partials into array slots. */
  static final String ADD_SCALED = "addScaled";

  /**
   * The runtime helpers that take a vector target's rule's partials against the adjoints of
   * its result ({@code Slots.dot}, and {@code dotWithin} for a result made in a loop), whose
   * forward mode {@link Tangent} writes with the rule's tangent member.
   */
  static final String DOT = "dot";
  static final String DOT_WITHIN = "dotWithin";

  /**
   * Before the reverse of a call inside a loop (of a {@code @Differentiable} method or of one
   * with {@code @DerivativeOf} rules): each row
   * {@code r = m[i]} it was passed that the loop computed is read again from {@code m} and the
   * recorded {@code i} (the tape holds no arrays; see {@code FlowAnalysis.rowRead}).
   */
  private void readRowsAgain(Instruction call, Block block, Map<Value, Operand> popped,
      List<Statement> out) {
    for (Operand argument : call.arguments()) {
      if (!(argument instanceof Operand.Use use) || popped.containsKey(use.value())) {
        continue;
      }
      Instruction row = flow.rowRead(use.value());
      Block home = flow.definingBlock(use.value());
      if (row == null || home == null || flow.loopDepth(home) == 0) {
        continue; // read outside loops: the reverse sweep reads the same value
      }
      List<Operand> reads = new ArrayList<>();
      for (Operand read : row.arguments()) {
        reads.add(read instanceof Operand.Use source
            ? popped.getOrDefault(source.value(), read) : read);
      }
      // like the row read, it carries derivatives: forward over reverse reads its tangent too
      Value copy = builder.again(use.value());
      out.add(new Instruction(copy, row.operation(), reads, call.line().adjoint()));
      popped.put(use.value(), new Operand.Use(copy));
    }
  }

  /**
   * The array the adjoints of an array's elements are added into: a local array's own adjoint
   * array; for a parameter or a row of one, the output array, or in the pullback that callers
   * call, the array the caller passed for that parameter.
   */
  private Value adjointTarget(Value array) {
    Value local = adjointArrays.get(array);
    if (local != null) {
      return local;
    }
    Instruction read = flow.rowRead(array);
    if (read != null && read.arguments().get(0) instanceof Operand.Use matrix
        && adjointArrays.containsKey(matrix.value())) {
      return adjointArrays.get(matrix.value()); // a row of a local matrix
    }
    if (parameterTargets.isEmpty()) {
      return outputArray;
    }
    Instruction row = flow.rowRead(array);
    Value parameter = row != null ? ((Operand.Use) row.arguments().get(0)).value() : array;
    return parameterTargets.get(parameter);
  }

  /**
   * The reverse of {@code v = g(args)}: g's pullback onto the tape, seeded with v's adjoint
   * (for a vector function, the adjoint array of the array it returned), leaves the adjoints of
   * g's {@code double} parameters there, the last on top; taken back at once, nothing is
   * allocated. The adjoints of g's array parameters are added where the caller keeps those of
   * the arguments: for an array that carries derivatives here, at its slots ({@link
   * ArraySlots} appended their starts to the call's arguments); for one that carries none, into
   * a scratch array nobody reads ({@code Slots.discarded}).
   */
  private void reverseCall(Instruction instruction, List<Operand> arguments, Operand seed,
      SourceLine line, List<Statement> out) {
    Callee callee = instruction.operation().callee();
    int own = callee.parameterTypes().size();
    List<Operand> callArguments = new ArrayList<>();
    callArguments.addAll(arguments.subList(0, own));
    List<Operand> starts = starts(instruction, arguments);
    int nextStart = 0;
    for (int i = 0; i < own; i++) {
      if (!callee.isActiveArray(i)) {
        continue;
      }
      Operand start = starts.get(nextStart++);
      if (instruction.arguments().get(i) instanceof Operand.Use use
          && use.value().isActiveArray()) {
        callArguments.add(new Operand.Use(adjointTarget(use.value())));
      } else {
        callArguments.add(discarded(callArguments.get(i), line, out));
      }
      callArguments.add(start);
    }
    callArguments.add(seed);
    if (splitCalls && !fused) {
      // the forward sweep called the callee's recording half (recordingCalls): the replaying
      // half takes back what that left on the tape and returns nothing. A checkpointed loop's
      // iteration is computed again without recording right before its reverse, which
      // therefore calls the whole pullback
      replayedCalls.add(instruction);
      Value replayed = builder.generated("replayed", NumericType.VOID, false);
      out.add(new Instruction(replayed, Operation.replayCall(callee), callArguments, line));
    } else {
      Value value = builder.generated("value",
          callee.returnsArray() ? NumericType.DOUBLE_ARRAY : NumericType.DOUBLE, false);
      out.add(new Instruction(value, Operation.pullbackCall(callee), callArguments, line));
    }
    List<Operand> slots = new ArrayList<>();
    for (int i = 0; i < own; i++) {
      if (callee.isActiveScalar(i)) {
        slots.add(instruction.arguments().get(i));
      }
    }
    Operand[] taken = new Operand[slots.size()];
    for (int slot = slots.size() - 1; slot >= 0; slot--) {
      // a constant argument has no adjoint: its value is taken off the tape and dropped. The
      // adjoint is active: the forward mode of this program takes its tangent back as well
      Value taking = builder.generated(callee.name() + "Adjoint", NumericType.DOUBLE, true);
      out.add(new Instruction(taking, Operation.POP, List.of(), line));
      if (slots.get(slot) instanceof Operand.Use use && use.isActive()) {
        taken[slot] = new Operand.Use(taking);
      }
    }
    for (int slot = 0; slot < slots.size(); slot++) {
      if (taken[slot] != null) {
        accumulate(((Operand.Use) slots.get(slot)).value(), taken[slot], false, false,
            Site.formulas(builder, line), out);
      }
    }
  }

  /**
   * Per active array parameter of the callee of {@code call} (its {@code arguments} as the
   * sweep has them), the slot of the argument's first element where its adjoints go: the start
   * {@link ArraySlots} appended to the call for an array that carries derivatives here, 0 for
   * one that carries none (its adjoints go into scratch).
   */
  private static List<Operand> starts(Instruction call, List<Operand> arguments) {
    Callee callee = call.operation().callee();
    int own = callee.parameterTypes().size();
    List<Operand> starts = new ArrayList<>();
    int nextStart = own;
    for (int i = 0; i < own; i++) {
      if (!callee.isActiveArray(i)) {
        continue;
      }
      Operand start = nextStart < arguments.size() ? arguments.get(nextStart++)
          : Operand.Constant.of(0);
      boolean carries = call.arguments().get(i) instanceof Operand.Use use
          && use.value().isActiveArray();
      starts.add(carries ? start : Operand.Constant.of(0));
    }
    return starts;
  }

  /**
   * {@code statements} of the forward sweep with each call whose reverse the reverse sweep
   * replays made a call of the callee's recording half, with the same arguments and the starts
   * the replay will get: so the forward sweep records exactly what the reverse sweep takes back,
   * wherever the call is (in branches, in loops, not at all when its reverse is dead).
   */
  private List<Statement> recordingCalls(List<Statement> statements) {
    if (replayedCalls.isEmpty()) {
      return statements;
    }
    List<Statement> out = new ArrayList<>();
    for (Statement statement : statements) {
      out.add(recordingCalls(statement));
    }
    return out;
  }

  private Block recordingCalls(Block block) {
    return new Block(recordingCalls(block.statements()));
  }

  private Statement recordingCalls(Statement statement) {
    if (statement instanceof Instruction call && replayedCalls.contains(call)) {
      Callee callee = call.operation().callee();
      List<Operand> arguments = new ArrayList<>(
          call.arguments().subList(0, callee.parameterTypes().size()));
      arguments.addAll(starts(call, call.arguments()));
      return new Instruction(call.result(), Operation.recordCall(callee), arguments,
          call.line());
    }
    if (statement instanceof If branch) {
      return new If(branch.id(), branch.condition(), recordingCalls(branch.thenBlock()),
          recordingCalls(branch.elseBlock()), branch.line());
    }
    if (statement instanceof Loop loop) {
      return new Loop(loop.id(), recordingCalls(loop.condition()), loop.test(),
          loop.testFirst(), recordingCalls(loop.body()), recordingCalls(loop.update()),
          loop.line());
    }
    return statement;
  }

  // ---- split mode: the halves of a callee -------------------------------------------------

  /**
   * The pullback onto the tape cut after its forward sweep: what the reverse sweep reads of the
   * forward sweep's values and variables is pushed at the end of the first half, in the order
   * the reverse sweep first reads it, and popped at the start of the second; integer
   * arithmetic on parameters is computed again there instead ({@link #recomputedInReplay}).
   */
  private Optional<Split> splitProgram() {
    Parts parts = parts(Output.TAPE);
    if (parts.reverse() == null) {
      return Optional.empty();
    }
    java.util.Set<Object> defined = java.util.Collections.newSetFromMap(
        new IdentityHashMap<>());
    java.util.Set<Object> nested = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    defined(parts.preamble(), defined, nested, true);
    defined(parts.forward(), defined, nested, true);
    java.util.Set<Object> read = new java.util.LinkedHashSet<>();
    for (Statement statement : parts.reverse()) {
      reads(statement, read);
    }
    List<Object> handedOver = new ArrayList<>();
    for (Object item : read) {
      if (!defined.contains(item)) {
        continue; // a parameter, or made by the reverse sweep itself
      }
      NumericType type = item instanceof Value value ? value.type()
          : ((Variable) item).type();
      if (!(type.isNumeric() || type == NumericType.BOOLEAN) || nested.contains(item)) {
        return Optional.empty(); // an array or an object; a variable out of the second's scope
      }
      handedOver.add(item);
    }
    List<Instruction> recomputed = recomputedInReplay(parts.forward(), handedOver);
    java.util.Set<Value> again = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    recomputed.forEach(instruction -> again.add(instruction.result()));
    handedOver.removeIf(again::contains);
    List<Statement> first = new ArrayList<>(parts.preamble());
    first.addAll(parts.forward());
    for (Object item : handedOver) {
      first.add(new Push(item instanceof Value value ? new Operand.Use(value)
          : new Operand.Read((Variable) item), null));
    }
    first.add(new Return(parts.returned(), null));
    List<Value> recordParameters = new ArrayList<>(primal.parameters().stream()
        .filter(p -> p.origin() == Value.Origin.PARAMETER).toList());
    recordParameters.addAll(starts(primal.parameters()));
    List<Statement> second = new ArrayList<>();
    for (int i = handedOver.size() - 1; i >= 0; i--) {
      Object item = handedOver.get(i);
      if (item instanceof Value value) {
        second.add(new Instruction(value, Operation.POP, List.of(), null));
      } else {
        Variable variable = (Variable) item;
        second.add(new Declare(variable, pop(variable.type(), null, second), null));
      }
    }
    second.addAll(recomputed);
    second.addAll(parts.reverse());
    second.add(new Return(null, null));
    return Optional.of(new Split(primal.with(recordParameters, new Block(first)),
        primal.with(parts.parameters(), new Block(second))));
  }

  /**
   * The values among {@code handedOver} that the second half computes again rather than taking
   * back from the tape: {@code int}, {@code long} and {@code boolean} arithmetic and comparisons
   * of the top level of the forward sweep (run whenever it completes) on parameters, constants
   * and other such values ({@code n - 1}, {@code n == 0} of a recursion's depth). One operation
   * costs less than a push and a pop, and it cannot throw where the first half did not.
   */
  private List<Instruction> recomputedInReplay(List<Statement> forward, List<Object> handedOver) {
    java.util.Set<Value> available = java.util.Collections.newSetFromMap(
        new IdentityHashMap<>());
    available.addAll(primal.parameters());
    java.util.Set<Object> carried = java.util.Collections.newSetFromMap(
        new IdentityHashMap<>());
    carried.addAll(handedOver);
    List<Instruction> recomputed = new ArrayList<>();
    for (Statement statement : forward) {
      if (!(statement instanceof Instruction instruction)
          || !carried.contains(instruction.result())) {
        continue;
      }
      Operation.Form form = instruction.operation().form();
      NumericType type = instruction.result().type();
      boolean cheap = (form == Operation.Form.INFIX || form == Operation.Form.PREFIX
          || form == Operation.Form.CAST || form == Operation.Form.COPY
          || form == Operation.Form.SELECT)
          && (type.isIntegral() || type == NumericType.BOOLEAN)
          && instruction.arguments().stream().allMatch(argument ->
              argument instanceof Operand.Constant
                  || argument instanceof Operand.Use use && available.contains(use.value()));
      if (cheap) {
        available.add(instruction.result());
        recomputed.add(instruction);
      }
    }
    return recomputed;
  }

  /**
   * The parameters that {@link ArraySlots#perParameter} added for the slot of each active
   * array's first element: the second of the two it adds per array.
   */
  private static List<Value> starts(List<Value> parameters) {
    List<Value> added = parameters.stream()
        .filter(p -> p.origin() != Value.Origin.PARAMETER).toList();
    List<Value> starts = new ArrayList<>();
    for (int i = 1; i < added.size(); i += 2) {
      starts.add(added.get(i));
    }
    return starts;
  }

  /**
   * The values and variables {@code statements} define, into {@code into}; those inside
   * branches or loops also into {@code nested}.
   */
  private static void defined(List<Statement> statements, java.util.Set<Object> into,
      java.util.Set<Object> nested, boolean top) {
    for (Statement statement : statements) {
      Object item = null;
      if (statement instanceof Instruction instruction) {
        item = instruction.result();
      } else if (statement instanceof Declare declare) {
        item = declare.variable();
      } else if (statement instanceof If branch) {
        defined(branch.thenBlock().statements(), into, nested, false);
        defined(branch.elseBlock().statements(), into, nested, false);
      } else if (statement instanceof Loop loop) {
        defined(loop.condition().statements(), into, nested, false);
        defined(loop.body().statements(), into, nested, false);
        defined(loop.update().statements(), into, nested, false);
      }
      if (item != null) {
        into.add(item);
        // a value defined in a block is declared where later blocks see it (the printer
        // hoists it); a variable is not
        if (!top && item instanceof Variable) {
          nested.add(item);
        }
      }
    }
  }

  /** The values and variables {@code statement} reads or stores to, in order, into {@code into}. */
  private static void reads(Statement statement, java.util.Set<Object> into) {
    if (statement instanceof Loop loop) {
      // the test is read after the condition block
      loop.condition().statements().forEach(s -> reads(s, into));
      statement.operands().forEach(operand -> reads(operand, into));
      loop.body().statements().forEach(s -> reads(s, into));
      loop.update().statements().forEach(s -> reads(s, into));
      return;
    }
    // an element store's operands begin with its array
    statement.operands().forEach(operand -> reads(operand, into));
    if (statement instanceof Store store) {
      into.add(store.variable());
    } else if (statement instanceof If branch) {
      branch.thenBlock().statements().forEach(s -> reads(s, into));
      branch.elseBlock().statements().forEach(s -> reads(s, into));
    }
  }

  private static void reads(Operand operand, java.util.Set<Object> into) {
    if (operand instanceof Operand.Use use) {
      into.add(use.value());
    } else if (operand instanceof Operand.Read read) {
      into.add(read.variable());
    }
  }

  /** {@code Slots.discarded(n)}: where the adjoints of {@code array}'s n elements may go. */
  private Operand discarded(Operand array, SourceLine line, List<Statement> out) {
    Value count = builder.generated("count", NumericType.INT, false);
    out.add(array.type() == NumericType.DOUBLE_MATRIX
        ? new Instruction(count, Operation.slotsCall("count", 1), List.of(array), line)
        : new Instruction(count, Operation.LENGTH, List.of(array), line));
    Value scratch = builder.generated("discarded", NumericType.DOUBLE_ARRAY, false);
    out.add(new Instruction(scratch, Operation.slotsCall("discarded", 1),
        List.of(new Operand.Use(count)), line));
    return new Operand.Use(scratch);
  }

  /**
   * Adds a contribution to a value's adjoint. {@code mayShare}: the contribution is another
   * adjoint passed on unchanged, which a value with no adjoint yet may share instead of
   * copying (its source is final by now).
   */
  private void accumulate(Value target, Operand contribution, boolean negated, boolean mayShare,
      Site site, List<Statement> out) {
    if (sumReadsAfterFusedLoops.contains(target)) {
      return;
    }
    SourceLine line = site.line();
    AdjointValue existing = adjoints.get(target);
    if (existing != null && existing.variable() != null) {
      Operand.Read current = new Operand.Read(existing.variable());
      Operand sum = negated ? site.minus(current, contribution) : site.plus(current, contribution);
      out.addAll(site.instructionsFor(List.of(sum)));
      out.add(new Store(existing.variable(), sum, line));
      return;
    }
    if (existing == null && mayShare && !negated && straightLine) {
      adjoints.put(target, new AdjointValue(contribution, null));
      return;
    }
    Variable adjoint = builder.derivedVariable(target, "Bar", NumericType.DOUBLE);
    Operand initial;
    if (existing == null) {
      initial = negated ? site.negate(contribution) : contribution;
    } else {
      initial = negated ? site.minus(existing.expression(), contribution)
          : site.plus(existing.expression(), contribution);
    }
    out.addAll(site.instructionsFor(List.of(initial)));
    out.add(new Declare(adjoint, initial, line));
    adjoints.put(target, new AdjointValue(null, adjoint));
  }
}
