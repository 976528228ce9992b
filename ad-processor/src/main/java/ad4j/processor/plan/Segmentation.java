package ad4j.processor.plan;

import ad4j.processor.derive.forward.Tangent;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Segment;
import ad4j.processor.methodsize.Guards;
import ad4j.processor.methodsize.SegmentCalls;
import ad4j.processor.methodsize.Segments;
import ad4j.processor.methodsize.SingleReturn;
import ad4j.processor.optimize.DeadCode;
import ad4j.processor.optimize.TangentCallsAlone;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the first-order members of a method run it whole or call the programs of its
 * segments, and so which transform composition feeds each: chosen once per method by
 * {@link MethodPlanner}, so that no member asks again.
 */
public sealed interface Segmentation {
  /** The reverse-mode program that writes {@code output}. */
  Function reverse(Adjoint.Output output);

  /** The forward-mode program of {@code mTangent}. */
  Function tangent();

  /**
   * The two halves of the pullback that callers call in split mode ({@link Adjoint#split}),
   * when the method has them; else {@code mRecord} only computes the value and {@code mReplay}
   * runs the whole pullback.
   */
  Optional<Adjoint.Split> halves();

  /**
   * The method run whole by every member. Each reverse-mode program is made once: the planner
   * asks for the gradient's both for {@code mValueAndGradient} and for {@code mGradientInto},
   * and making one (its adjoint sums above all) is most of what planning a member costs. One
   * is made per planned method, so what it keeps lives as long as that method's plan.
   */
  final class Whole implements Segmentation {
    private final MethodPrograms programs;
    private final Map<Adjoint.Output, Function> reverse = new EnumMap<>(Adjoint.Output.class);

    Whole(MethodPrograms programs) {
      this.programs = programs;
    }

    @Override
    public Function reverse(Adjoint.Output output) {
      return reverse.computeIfAbsent(output, made -> Adjoint.withSplitCalls(
          programs.reverseFunction(), programs.reverseFlow(), made));
    }

    @Override
    public Function tangent() {
      Function tangent = Tangent.of(SingleReturn.of(DeadCode.removeFrom(programs.function())));
      // the method's own value is no longer read once only its tangent is returned, nor the
      // values of callees whose tangent calls run their code anyway
      return tangent.with(tangent.parameters(), TangentCallsAlone.removedFrom(tangent.body()));
    }

    @Override
    public Optional<Adjoint.Split> halves() {
      return Adjoint.split(programs.pullbackSource(), programs.pullbackSourceFlow());
    }
  }

  /**
   * A long straight-line method split into segments: the members call the segments' programs
   * ({@code calls}), after the method's argument checks ({@code guards}) when it has some.
   */
  record Segmented(Segments segments, SegmentCalls calls, Optional<Guards> guards)
      implements Segmentation {
    @Override
    public Function reverse(Adjoint.Output output) {
      return checkedFirst(calls.reverse(output));
    }

    @Override
    public Function tangent() {
      return checkedFirst(calls.tangent());
    }

    /**
     * The private methods of the segments, made when asked: per segment, its forward, reverse
     * and tangent sweeps.
     */
    public List<SegmentMethod> methods() {
      List<SegmentMethod> methods = new ArrayList<>();
      for (Segment segment : segments.list()) {
        methods.add(SegmentMethod.of(calls.name(SegmentCalls.FORWARD, segment.number()),
            segments.forward(segment), SegmentMethod.Sweep.FORWARD, segments, segment));
        methods.add(SegmentMethod.of(calls.name(SegmentCalls.REVERSE, segment.number()),
            segments.reverse(segment), SegmentMethod.Sweep.REVERSE, segments, segment));
        methods.add(SegmentMethod.of(calls.name(SegmentCalls.TANGENT, segment.number()),
            segments.tangent(segment), SegmentMethod.Sweep.TANGENT, segments, segment));
      }
      return methods;
    }

    /** None: the segments hand values over on the tape, which the halves would split. */
    @Override
    public Optional<Adjoint.Split> halves() {
      return Optional.empty();
    }

    /** A program calling the segments, after the method's argument checks if it has some. */
    private Function checkedFirst(Function program) {
      return guards.map(checks -> checks.checkedFirst(program)).orElse(program);
    }
  }
}
