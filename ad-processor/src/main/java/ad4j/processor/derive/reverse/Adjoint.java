package ad4j.processor.derive.reverse;

import ad4j.processor.analysis.AccumulatingLoops;
import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.analysis.LiveAdjoints;
import ad4j.processor.analysis.TapePlan;
import ad4j.processor.derive.ArraySlots;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Segment;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.optimize.AdjointSums;
import java.util.List;
import java.util.Optional;

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
 *
 * <p>This class is the entry: it chooses the variant of the transform a generated member needs
 * and hands it to the classes of this package, one job each, which share a {@link SweepState}.
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

  /** The note that opens the forward sweep of a reverse-mode program. */
  public static final String FORWARD_NOTE = "forward sweep";

  /** The note that opens its reverse sweep. */
  public static final String REVERSE_NOTE = "reverse sweep";

  /**
   * The links from which an {@code if / else if} chain outside loops records the number of its
   * piece ({@link BranchChains#longChain}); shorter chains keep their conditions for the reverse
   * sweep, as users write them.
   */
  public static final int LONG_CHAIN = 32;

  /**
   * The reverse-mode program of {@code primal}: its parameters, then (for a pullback) the seed,
   * then the output array; it returns the primal's value.
   */
  public static Function of(Function primal, Output output) {
    return of(primal, new FlowAnalysis(primal), output);
  }

  /** As {@link #of(Function, Output)}, with the analysis of {@code primal} made once. */
  public static Function of(Function primal, FlowAnalysis flow, Output output) {
    return AdjointSums.of(new SweepState(primal, flow, PullbackCalls.WHOLE).program
        .transform(AdjointsOut.of(output, false)));
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
    SweepState adjoint = new SweepState(primal, flow, PullbackCalls.SPLIT);
    adjoint.fusedLoops = adjoint.fusion.worthFusing(AccumulatingLoops.of(primal));
    // each iteration's reverse follows it in its body, where the body's values still are
    adjoint.fusedLoops.values().forEach(loop -> adjoint.tape.keepInLocals(loop.loop().body()));
    return AdjointSums.of(adjoint.program.transform(AdjointsOut.of(output, false)));
  }

  /**
   * A callee's two halves in split mode: {@code record}, with the callee's parameters and then
   * the start of each active array parameter's slots (as {@link Operation#recordCall} passes
   * them), runs the forward sweep, pushes what the reverse sweep reads of it and returns the
   * value; {@code replay}, with the parameters of the pullback onto the tape (the arguments
   * again, the arrays for the arrays' adjoints and their starts, the seed), takes that back and
   * runs the reverse sweep only, leaving the adjoints as the pullback does.
   *
   * <p>The replay half's adjoint sums ({@link AdjointSums}) are made when it is first asked
   * for: the planner leaves both halves out where the record half is past HotSpot's limit,
   * and on a long method of branches the sums of a replay half never printed were a tenth of
   * planning it.
   */
  public static final class Split {
    private final Function record;
    private Function replay;
    private boolean summed;

    Split(Function record, Function unsummedReplay) {
      this.record = record;
      this.replay = unsummedReplay;
    }

    /** The recording half. */
    public Function record() {
      return record;
    }

    /** The replaying half, its adjoints summed. */
    public Function replay() {
      if (!summed) {
        replay = AdjointSums.of(replay);
        summed = true;
      }
      return replay;
    }
  }

  /**
   * The halves of {@code primal}'s pullback onto the tape (for a method with active array
   * parameters, made by {@link ArraySlots#perParameter}), or none when the reverse sweep reads
   * something of the forward sweep that the tape cannot hold (an array: a local array, its
   * adjoints, a vector function's result), or when the method never returns. Recording is then
   * always worth it: each value handed over costs one push and one pop, no more than the
   * instruction that computed it, and the callee's calls are not run again either.
   */
  public static Optional<Split> split(Function primal, FlowAnalysis flow) {
    SweepState adjoint = new SweepState(primal, flow, PullbackCalls.SPLIT);
    return adjoint.halves.splitProgram();
  }

  /**
   * As {@link #of(Function, FlowAnalysis, Output)} for a pullback whose seed carries a derivative:
   * {@code derive/forward/Tangent} gives the program a tangent of the seed too. This is the
   * pullback that the second-order code of callers differentiates again.
   */
  public static Function withActiveSeed(Function primal, FlowAnalysis flow, Output output) {
    return AdjointSums.of(new SweepState(primal, flow, PullbackCalls.WHOLE).program
        .transform(AdjointsOut.of(output, true)));
  }

  /**
   * A vector function's pullback taken apart, for {@code derive/jacobian/JacobianRows}, which runs
   * its reverse sweep once per element of the result after one forward sweep.
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
  public record PullbackPieces(List<Value> parameters, List<Statement> preamble,
      List<Statement> forward, List<Statement> reverse, Operand returned, Value seed,
      Value adjoints, List<Value> adjointArrays, boolean keepsElements, IrBuilder builder,
      int nextLoopId) {}

  /**
   * The pieces of the pullback of the vector function {@code primal} (calls of other
   * {@code @Differentiable} methods not in split mode); empty when it never returns.
   */
  public static Optional<PullbackPieces> pullbackPieces(Function primal, FlowAnalysis flow) {
    if (!primal.returnsArray()) {
      throw new IllegalArgumentException("not a vector function: " + primal.name());
    }
    SweepState adjoint = new SweepState(primal, flow, PullbackCalls.WHOLE);
    ReverseProgram.Parts parts = adjoint.program.parts(AdjointsOut.of(Output.PULLBACK, false));
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
   * The reverse sweep of one segment of a split method ({@code methodsize/Segments}): the adjoints
   * of the values the segment handed on and of the parameters come from the tape (in the last
   * segment, the seed instead, a parameter), then the values its forward sweep recorded; after the
   * reverse of its instructions, the adjoints of the values it took and of the parameters go back
   * on the tape for the previous segment.
   */
  public static Function reverseSegment(Function primal, FlowAnalysis flow,
      Segment segment, boolean last) {
    return AdjointSums.of(new SegmentSweep(new SweepState(primal, flow, PullbackCalls.WHOLE),
        false).segment(segment, last));
  }

  /**
   * As {@link #reverseSegment}, for the forward mode of the reverse sweep (second order): the
   * adjoints taken from the tape carry tangents, and every adjoint handed on is a variable, zero
   * when nothing reached it, so that {@code derive/forward/Tangent} hands a tangent on beside each
   * one.
   */
  public static Function reverseSegmentWithTangents(Function primal, FlowAnalysis flow,
      Segment segment, boolean last) {
    return AdjointSums.of(new SegmentSweep(new SweepState(primal, flow, PullbackCalls.WHOLE),
        true).segment(segment, last));
  }
}
