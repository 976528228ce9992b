package ad4j.processor.plan;

import ad4j.processor.analysis.FlowAnalysis;
import ad4j.processor.derive.ArraySlots;
import ad4j.processor.derive.forward.Tangent;
import ad4j.processor.derive.forward.TangentLanes;
import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Segment;
import ad4j.processor.ir.Statement;
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

    /**
     * The sweep with {@code lanes} directions at once ({@link TangentLanes}): the gradient
     * program's parameters, then per lane the directions and the tangent of the gradient;
     * empty where the sweep has what lanes do not cover.
     */
    public Optional<TangentLanes.Sweep> hessianLanes(int lanes) {
      Function gradient = Adjoint.of(programs.reverseFunction(), programs.reverseFlow(),
          Adjoint.Output.GRADIENT);
      return TangentLanes.of(gradient, lanes);
    }

    @Override
    public Function pullbackTangent() {
      Function function = programs.function();
      Function pullback = function.hasActiveArrays() ? ArraySlots.perParameter(function)
          : programs.reverseFunction();
      FlowAnalysis pullbackFlow = function.hasActiveArrays() ? new FlowAnalysis(pullback)
          : programs.reverseFlow();
      Function onTape = Adjoint.withActiveSeed(pullback, pullbackFlow, Adjoint.Output.TAPE);
      // callers of a vector function read its value where they call it, and only the
      // tangents of the adjoints from its pullback's tangent: it returns nothing
      return withoutUnread(Tangent.of(function.returnsArray() ? returningNothing(onTape)
          : onTape));
    }
  }

  /** {@code program} with each {@code return v} made {@code return}. */
  private static Function returningNothing(Function program) {
    return program.with(program.parameters(), returningNothing(program.body()));
  }

  private static Block returningNothing(Block block) {
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Return ret) {
        out.add(new Return(null, ret.line()));
      } else if (statement instanceof If branch) {
        out.add(new If(branch.id(), branch.condition(), returningNothing(branch.thenBlock()),
            returningNothing(branch.elseBlock()), branch.line()));
      } else if (statement instanceof Loop loop) {
        out.add(new Loop(loop.id(), loop.condition(), loop.test(), loop.testFirst(),
            returningNothing(loop.body()), loop.update(), loop.line(), loop.kind()));
      } else {
        out.add(statement);
      }
    }
    return new Block(out);
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
