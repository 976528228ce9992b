package ad4j.processor.transform;

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
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Partial;
import ad4j.processor.rules.Site;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    String arrayName() {
      return arrayName;
    }
  }

  public static final String FORWARD_NOTE = "forward sweep";
  public static final String REVERSE_NOTE = "reverse sweep";

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
  /**
   * Per local array made inside a loop, the longest length it had: the one adjoint array of all
   * its iterations is that long (cleared at the reverse of each making).
   */
  private final Map<Value, Variable> longestLengths = new HashMap<>();
  /** Where the adjoints of the parameters go: set by {@link #transform}. */
  private Output output;
  /** The local arrays passed to calls, whose overwritten elements the reverse puts back. */
  private final java.util.Set<Value> passedToCalls;
  /** Per store into one of {@link #passedToCalls}, the element it wrote over. */
  private final Map<Instruction, Value> overwrittenElements = new IdentityHashMap<>();
  /** The values whose adjoints the reverse sweep computes; the others get no reverse code. */
  private LiveAdjoints live;

  private Adjoint(Function primal, FlowAnalysis flow) {
    this.primal = primal;
    this.flow = flow;
    this.tape = new TapePlan(flow);
    this.builder = new IrBuilder(flow.nextId());
    this.straightLine = flow.isStraightLine();
    this.passedToCalls = passedToCalls(primal.body(), flow, new java.util.HashSet<>());
    this.recomputation = new Recomputation(primal, flow);
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
   * The reverse sweep of one segment of a split method ({@link Segments}): the adjoints of the
   * values the segment handed on and of the parameters come from the tape (in the last segment,
   * the seed instead, a parameter), then the values its forward sweep recorded; after the
   * reverse of its instructions, the adjoints of the values it took and of the parameters go
   * back on the tape for the previous segment.
   */
  static Function reverseSegment(Function primal, FlowAnalysis flow, Segments.Segment segment,
      boolean last) {
    return AdjointSums.of(new Adjoint(primal, flow).segment(segment, last));
  }

  private Function segment(Segments.Segment segment, boolean last) {
    live = new LiveAdjoints(primal, flow, segment.carriedOut());
    List<Value> parameters = new ArrayList<>(primal.parameters());
    List<Statement> out = new ArrayList<>();
    List<Value> differentiable = primal.differentiableParameters();
    if (last) {
      Value seedParameter = builder.generated("seed", NumericType.DOUBLE, false);
      parameters.add(seedParameter);
      seed = new Operand.Use(seedParameter);
    } else {
      List<Value> incoming = new ArrayList<>(segment.carriedOut());
      incoming.addAll(differentiable);
      for (int i = incoming.size() - 1; i >= 0; i--) {
        Value value = incoming.get(i);
        Variable adjoint = builder.derivedVariable(value, "Bar", NumericType.DOUBLE);
        out.add(new Declare(adjoint, pop(NumericType.DOUBLE, null, out), null));
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
      out.add(new Push(adjoint == null ? Site.number(0.0) : adjoint.expression(), null));
    }
    out.add(new Return(null, null));
    return primal.with(parameters, new Block(out));
  }

  private Function transform(Output output) {
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
    List<Statement> out = new ArrayList<>();
    if (!straightLine) {
      NumericType resultType = primal.returnsArray() ? NumericType.DOUBLE_ARRAY
          : NumericType.DOUBLE;
      result = builder.generatedVariable("result", resultType);
      out.add(new Declare(result, Operand.Constant.zero(resultType), null));
      declareTopLevelTripCounts(body, out);
      declareLongestLengths(body, out);
    }
    boolean anything = hasStatements(body);
    if (anything) {
      out.add(new Note(FORWARD_NOTE, null));
    }
    out.addAll(forward(body).statements());
    if (!forwardCompletes(body)) {
      // the method only throws or loops forever: nothing may follow the forward sweep
      return primal.with(parameters, new Block(out));
    }
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
    out.add(new Return(straightLine ? finalReturn().value() : new Operand.Read(result), null));
    return primal.with(parameters, new Block(out));
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

  /** The trip counts of loops outside loops, read by the reverse sweep wherever it is. */
  private void declareTopLevelTripCounts(Block block, List<Statement> out) {
    for (Statement statement : block.statements()) {
      if (statement instanceof If branch) {
        declareTopLevelTripCounts(branch.thenBlock(), out);
        declareTopLevelTripCounts(branch.elseBlock(), out);
      } else if (statement instanceof Loop loop) {
        Variable count = builder.generatedVariable("loop" + loop.id() + "Trips",
            NumericType.INT);
        tripCounts.put(loop.id(), count);
        out.add(new Declare(count, Operand.Constant.zero(NumericType.INT), null));
      }
    }
  }

  // ---- forward sweep -----------------------------------------------------------------------

  private Block forward(Block block) {
    List<Statement> out = new ArrayList<>();
    boolean recording = flow.loopDepth(block) > 0 && !flow.isConditionBlock(block);
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        if (!flow.isLive(instruction)) {
          continue;
        }
        if (instruction.operation().form() == Operation.Form.STORE && passedToCalls.contains(
                ((Operand.Use) instruction.arguments().get(0)).value())) {
          keepOverwritten(instruction, recording, out);
        }
        out.add(instruction);
        if (straightLine) {
          computed.record(instruction);
        }
        if (longestLengths.containsKey(instruction.result())) {
          trackLongest(instruction, out);
        } else if (makesLocalArray(instruction)) {
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
        if (chain.isEmpty()) {
          forwardIf(branch, recording, out);
        } else {
          out.add(forwardChain(chain, 0));
        }
      } else if (statement instanceof Loop loop) {
        forwardLoop(loop, block, out);
      } else if (statement instanceof Jump jump) {
        recordBranchesLeft(out);
        out.add(jump);
      } else {
        out.add(statement); // declarations, stores, throws and notes
      }
    }
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
    if (flow.loopDepth(block) == 0 || flow.isConditionBlock(block)) {
      return List.of();
    }
    List<If> links = new ArrayList<>();
    If link = branch;
    while (true) {
      links.add(link);
      if (!leavesOnlyByItsEnd(link.thenBlock())) {
        return List.of();
      }
      List<Statement> next = link.elseBlock().statements();
      if (next.isEmpty() || !(next.get(next.size() - 1) instanceof If nested)
          || !onlyComputesCondition(next.subList(0, next.size() - 1), link.elseBlock())) {
        break;
      }
      link = nested;
    }
    return links.size() > 1 && leavesOnlyByItsEnd(link.elseBlock()) ? links : List.of();
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

  /** Whether no statement of {@code block}, at any depth, jumps, returns or throws. */
  private static boolean leavesOnlyByItsEnd(Block block) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Jump || statement instanceof Return
          || statement instanceof Throw) {
        return false;
      }
      if (statement instanceof If branch && !(leavesOnlyByItsEnd(branch.thenBlock())
          && leavesOnlyByItsEnd(branch.elseBlock()))) {
        return false;
      }
      if (statement instanceof Loop loop && !(leavesOnlyByItsEnd(loop.condition())
          && leavesOnlyByItsEnd(loop.body()) && leavesOnlyByItsEnd(loop.update()))) {
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
  private If forwardChain(List<If> chain, int index) {
    If link = chain.get(index);
    Block thenBlock = withPush(forward(link.thenBlock()), index);
    Block elseBlock;
    if (index + 1 < chain.size()) {
      List<Statement> next = new ArrayList<>();
      for (Statement statement : link.elseBlock().statements()) {
        if (statement instanceof Instruction instruction && flow.isLive(instruction)) {
          next.add(instruction);
        }
      }
      next.add(forwardChain(chain, index + 1));
      elseBlock = new Block(next);
    } else {
      elseBlock = withPush(forward(link.elseBlock()), chain.size());
    }
    return new If(link.id(), link.condition(), thenBlock, elseBlock, link.line());
  }

  private static Block withPush(Block block, int piece) {
    List<Statement> statements = new ArrayList<>(block.statements());
    statements.add(new Push(Operand.Constant.of(piece), null));
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

  /** A loop counts its trips; an inner loop records the count for the reverse sweep. */
  private void forwardLoop(Loop loop, Block block, List<Statement> out) {
    boolean nested = flow.loopDepth(block) > 0;
    Variable count = tripCounts.get(loop.id());
    if (count == null) {
      count = builder.generatedVariable("loop" + loop.id() + "Trips", NumericType.INT);
      tripCounts.put(loop.id(), count);
      out.add(new Declare(count, Operand.Constant.zero(NumericType.INT), loop.line()));
    }
    List<Statement> body = new ArrayList<>(step(count, Operation.ADD, loop.line()));
    loopBranchBase.push(openBranches.size());
    body.addAll(forward(loop.body()).statements());
    loopBranchBase.pop();
    out.add(new Loop(loop.id(), forward(loop.condition()), loop.test(), loop.testFirst(),
        new Block(body), forward(loop.update()), loop.line()));
    if (nested) {
      out.add(new Push(new Operand.Read(count), null));
    }
  }

  /** {@code counter = counter ± 1}. */
  private List<Statement> step(Variable counter, Operation operation, SourceLine line) {
    Site site = Site.formulas(builder, line);
    Operand next = site.apply(operation, NumericType.INT, new Operand.Read(counter),
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
      if (value.isActive() && (flow.needsDeclaredAdjoint(value) || parameter)) {
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
              Operation.slotsCall(output == Output.TAPE ? "seedWithin" : "seed", 2),
              List.of(seed, new Operand.Use(adjointArrays.get(use.value()))),
              ret.line().adjoint()));
        }
      } else if (statement instanceof If branch) {
        List<If> chain = chain(branch, block);
        if (chain.isEmpty()) {
          reverseIf(branch, block, out);
        } else {
          Value piece = builder.generated("piece", NumericType.INT, false);
          out.add(new Instruction(piece, Operation.POP, List.of(), branch.line().adjoint()));
          reverseChain(chain, 0, new Operand.Use(piece), out);
        }
      } else if (statement instanceof Loop loop) {
        reverseLoop(loop, block, out);
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
    Operand decision = branch.condition();
    if (flow.loopDepth(block) > 0) {
      decision = pop(NumericType.BOOLEAN, line, out);
    }
    List<Statement> thenReverse = reverse(branch.thenBlock());
    List<Statement> elseReverse = reverse(branch.elseBlock());
    if (thenReverse.isEmpty() && elseReverse.isEmpty() && flow.loopDepth(block) == 0) {
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
    Operand count = new Operand.Read(tripCounts.get(loop.id()));
    if (flow.loopDepth(block) > 0) {
      Value popped = builder.generated("loop" + loop.id() + "Trips", NumericType.INT, false);
      out.add(new Instruction(popped, Operation.POP, List.of(), line));
      count = new Operand.Use(popped);
    }
    Variable iteration = builder.generatedVariable("iteration" + loop.id(), NumericType.INT);
    out.add(new Declare(iteration, count, line));
    if (recomputation.hasCounter(loop)) {
      // the loop's counter in forward iteration k is start + (k - 1) * step: what reads of it
      // computed again in the reverse body need
      Operand start = recomputation.start(loop, place,
          restored.computeIfAbsent(block, b -> new HashMap<>()), builder, line, out);
      place.enter(loop, iteration, start);
    } else {
      place.enter(loop, iteration, null);
    }
    Site site = Site.formulas(builder, line);
    Operand test = site.isGreaterThan(new Operand.Read(iteration),
        Operand.Constant.zero(NumericType.INT));
    Block condition = new Block(new ArrayList<>(site.instructionsFor(List.of(test))));
    List<Statement> reversed = reverse(loop.body());
    List<Statement> body = new ArrayList<>(place.leave(loop));
    body.addAll(reversed);
    out.add(new Loop(loop.id(), condition, test, true, new Block(body),
        new Block(step(iteration, Operation.SUBTRACT, line)), line));
  }

  private Operand pop(NumericType type, SourceLine line, List<Statement> out) {
    Value value = builder.formula(type, false);
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
    out.add(new Instruction(length, Operation.LENGTH, List.of(new Operand.Use(making.result())),
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
      out.add(new Push(new Operand.Use(overwritten), null));
      if (!store.result().isActive()) {
        // the index of an active store is recorded for its adjoint already (FlowAnalysis)
        out.add(new Push(store.arguments().get(1), null));
      }
    }
    overwrittenElements.put(store, overwritten);
  }

  /** The reverse of a store into an {@code int[]} passed to calls: the old element back. */
  private void restoreInactive(Instruction store, Block block, List<Statement> out) {
    Value overwritten = overwrittenElements.get(store);
    SourceLine line = store.line().adjoint();
    Operand index = store.arguments().get(1);
    Operand old = new Operand.Use(overwritten);
    if (flow.loopDepth(block) > 0) {
      index = pop(NumericType.INT, line, out);
      old = pop(overwritten.type(), line, out);
    }
    out.add(new ElementStore(((Operand.Use) store.arguments().get(0)).value(), index, old,
        false, line));
  }

  /** The local arrays passed to calls of other {@code @Differentiable} methods. */
  private static java.util.Set<Value> passedToCalls(Block block, FlowAnalysis flow,
      java.util.Set<Value> into) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.USER_CALL) {
        for (Operand argument : instruction.arguments()) {
          if (argument instanceof Operand.Use use && use.value().type().isArray()
              && use.value().origin() != Value.Origin.PARAMETER
              && flow.rowRead(use.value()) == null) {
            into.add(use.value());
          }
        }
      } else if (statement instanceof If branch) {
        passedToCalls(branch.thenBlock(), flow, into);
        passedToCalls(branch.elseBlock(), flow, into);
      } else if (statement instanceof Loop loop) {
        passedToCalls(loop.condition(), flow, into);
        passedToCalls(loop.body(), flow, into);
        passedToCalls(loop.update(), flow, into);
      }
    }
    return into;
  }

  /**
   * {@code aBar = new double[a.length]} beside a local array {@code a} that carries
   * derivatives: the adjoints of its elements. Local arrays are made outside loops, so one
   * adjoint array serves the whole reverse sweep.
   */
  private void allocateAdjointArray(Instruction creation, List<Statement> out) {
    Value array = creation.result();
    Value adjoint = builder.derived(array, "Bar", NumericType.DOUBLE_ARRAY);
    Operand length = creation.operation().form() == Operation.Form.NEW_ARRAY
        ? creation.arguments().get(0) : null;
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
    if (flow.loopDepth(block) == 0) {
      return popped;
    }
    List<Value> taped = tape.recordedAfter(instruction, block);
    for (int i = taped.size() - 1; i >= 0; i--) {
      Value needed = taped.get(i);
      if (recomputation.isRecomputed(needed)) {
        continue;
      }
      Value copy = builder.derived(needed, "", needed.type());
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
        restoreInactive(instruction, block, out);
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
      Value overwritten = overwrittenElements.get(instruction);
      if (overwritten != null) {
        // the element written over comes back, for the calls the reverse sweep meets next
        Operand old = new Operand.Use(overwritten);
        if (flow.loopDepth(block) > 0) {
          // it carries a derivative as the element did: forward over reverse, which recorded
          // its tangent with it, takes that back too
          Value recorded = builder.again(overwritten);
          out.add(new Instruction(recorded, Operation.POP, List.of(),
              instruction.line().adjoint()));
          old = new Operand.Use(recorded);
        }
        out.add(new ElementStore(((Operand.Use) instruction.arguments().get(0)).value(),
            restoredArguments.get(1), old, false, instruction.line().adjoint()));
      }
      return;
    }
    if (!live.isLive(value)) {
      return; // nothing that reaches the result depends on this value
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
    int slot = ruled.parameterTypes().size();
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
    int slot = ruled.parameterTypes().size();
    for (int i = 0; i < ruled.parameterTypes().size(); i++) {
      // the adjoints go to the call's own arguments; the rules take them as restored
      Operand argument = call.arguments().get(i);
      if (argument instanceof Operand.Use use && use.isActive() && live.isLive(use.value())) {
        Operand partial = DerivativeRules.vectorPartial(ruled, i, site).orElseThrow();
        Operand contribution = site.apply(Operation.slotsCall(within ? "dotWithin" : "dot", 2),
            NumericType.DOUBLE, partial, seeds);
        accumulate(use.value(), contribution, false, false, site, out);
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
  static final String CLEAR = "clear";

  /** The runtime helper that adds an adjoint times a rule's partials into array slots. */
  private static final String ADD_SCALED = "addScaled";

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
    int nextStart = own;
    for (int i = 0; i < own; i++) {
      if (!callee.isActiveArray(i)) {
        continue;
      }
      Operand start = nextStart < arguments.size() ? arguments.get(nextStart++)
          : Operand.Constant.of(0);
      if (instruction.arguments().get(i) instanceof Operand.Use use
          && use.value().isActiveArray()) {
        callArguments.add(new Operand.Use(adjointTarget(use.value())));
        callArguments.add(start);
      } else {
        callArguments.add(discarded(callArguments.get(i), line, out));
        callArguments.add(Operand.Constant.of(0));
      }
    }
    callArguments.add(seed);
    Value value = builder.generated("value",
        callee.returnsArray() ? NumericType.DOUBLE_ARRAY : NumericType.DOUBLE, false);
    out.add(new Instruction(value, Operation.pullbackCall(callee), callArguments, line));
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
