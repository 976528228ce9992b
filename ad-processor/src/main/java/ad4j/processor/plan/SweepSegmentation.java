package ad4j.processor.plan;

import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.derive.ArraySlots;
import ad4j.processor.derive.forward.Tangent;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Segment;
import ad4j.processor.methodsize.Guards;
import ad4j.processor.methodsize.SegmentCalls;
import ad4j.processor.methodsize.Segments;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether the forward-over-reverse sweep of an order-2 method runs whole or calls the forward
 * modes of its own segments, smaller than those of the first-order members (the sweep is about
 * three times as long): which program feeds {@code mHessianSweep} and {@code mPullbackTangent}.
 */
public sealed interface SweepSegmentation {
  /** The forward mode of the gradient program (forward over reverse). */
  Function hessianSweep();

  /** The forward mode of the pullback onto the tape, with the seed's tangent too. */
  Function pullbackTangent();

  /** The sweep whole. */
  record WholeSweep(MethodPrograms programs) implements SweepSegmentation {
    @Override
    public Function hessianSweep() {
      return withoutUnread(Tangent.of(Adjoint.of(programs.reverseFunction(),
          programs.reverseFlow(), Adjoint.Output.GRADIENT)));
    }

    @Override
    public Function pullbackTangent() {
      Function function = programs.function();
      Function pullback = function.hasActiveArrays() ? ArraySlots.perParameter(function)
          : programs.reverseFunction();
      FlowAnalysis pullbackFlow = function.hasActiveArrays() ? new FlowAnalysis(pullback)
          : programs.reverseFlow();
      return withoutUnread(
          Tangent.of(Adjoint.withActiveSeed(pullback, pullbackFlow, Adjoint.Output.TAPE)));
    }
  }

  /**
   * {@code sweep} without the values it no longer reads: the method's own value, whose tangent
   * is all a sweep needs of it.
   */
  private static Function withoutUnread(Function sweep) {
    return sweep.with(sweep.parameters(),
        ad4j.processor.optimize.DeadCode.withoutUnread(sweep.body()));
  }

  /**
   * The sweep split into segments ({@link Segments#forSweep}), called by {@code calls} after
   * the argument checks ({@code guards}) when the method has some.
   */
  record SegmentedSweep(Segments segments, SegmentCalls calls, Optional<Guards> guards)
      implements SweepSegmentation {
    @Override
    public Function hessianSweep() {
      return checkedFirst(calls.hessianSweep());
    }

    @Override
    public Function pullbackTangent() {
      return checkedFirst(calls.pullbackTangent());
    }

    /**
     * The private methods of the sweep's segments, made when asked: per segment, the forward
     * modes of its forward and of its reverse sweep.
     */
    public List<SegmentMethod> methods() {
      List<SegmentMethod> methods = new ArrayList<>();
      for (Segment segment : segments.list()) {
        methods.add(SegmentMethod.of(calls.name(SegmentCalls.HESSIAN_FORWARD, segment.number()),
            segments.forwardWithTangents(segment), SegmentMethod.Sweep.HESSIAN_FORWARD,
            segments, segment));
        methods.add(SegmentMethod.of(calls.name(SegmentCalls.HESSIAN_REVERSE, segment.number()),
            segments.reverseWithTangents(segment), SegmentMethod.Sweep.HESSIAN_REVERSE,
            segments, segment));
      }
      return methods;
    }

    private Function checkedFirst(Function program) {
      return guards.map(checks -> checks.checkedFirst(program)).orElse(program);
    }
  }
}
