package ad4j.processor.front;

import com.sun.source.tree.Tree;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;

/**
 * Which generated members would run code of the method being lowered more than once per call
 * of the member, where the method runs it once (DESIGN.md, "Soundness"). Code that runs as
 * written and may give another result or do something again when it runs again (a draw from a
 * random generator, a log line, a counter) is then an error where it is written: run twice, a
 * draw differs between the value and a derivative, and the derivative belongs to no run of the
 * method.
 *
 * <p>Two kinds of code are asked about. The method's own calls that run as written repeat in
 * the members that make one sweep per direction: the Hessian's of an order-2 method and the
 * Jacobian's of a vector function (a tangent per slot when the result is longer than the
 * slots). A call of another {@code @Differentiable} method repeats
 * that method's code in every caller: the caller's tangent asks the callee for its value and
 * then for its tangent, two runs; the multi-sweep members and a {@code @Checkpointed} loop's
 * reverse sweep run it more often still. Calls that give the same result each time and change
 * nothing (those of {@code Math}, {@code String}, the boxed types, argument-only methods of the
 * sources) are never asked about: running them again is harmless.
 */
final class RepeatedRuns {
  private final LoweringContext context;

  RepeatedRuns(LoweringContext context) {
    this.context = context;
  }

  /**
   * Notes {@code call} ({@code shown}), a call of the method's own code that runs as written
   * and not alike each time, and reports an error at it when members of the method being
   * lowered would run it more than once per call. Returns whether it did.
   */
  boolean rejectOwnCall(Tree call, String shown) {
    if (context.buildingThrown()) {
      return false; // runs once, as the member ends
    }
    context.callRunsAsWritten(shown, context.source().line(call), call);
    ExecutableElement method = context.element();
    if (method == null || context.examining()) {
      return false;
    }
    String name = context.methodName();
    String members;
    if (context.order() == 2) {
      members = "mHessian and mValueGradientAndHessian of '" + name + "' make one sweep per"
          + " slot and would run it once per sweep";
    } else if (ActiveParameters.isVectorResult(method.getReturnType())) {
      members = "mJacobian and mValueAndJacobian of '" + name + "' make one sweep per slot when"
          + " the result is longer, and the gradients of methods that call '" + name + "' run"
          + " its code twice";
    } else {
      return false; // a @Checkpointed loop's calls are CheckpointedLoops' to reject
    }
    context.diagnostics().error(call, "call to '" + shown + "' runs as written and may give"
        + " another result or do something again each time it runs: " + members + ", where '"
        + name + "' runs it once; make the call where '" + name + "' is called and pass its"
        + " result as a @NoDerivative parameter");
    return true;
  }

  /**
   * How the generated members of the method being lowered would run the code of a
   * {@code @Differentiable} callee it calls, for a message: "which ... would run ...".
   * Empty while the method is only examined for what it calls.
   */
  Optional<String> ofCallee() {
    ExecutableElement caller = context.element();
    if (caller == null || context.examining()) {
      return Optional.empty();
    }
    String name = context.methodName();
    if (context.order() == 2) {
      return Optional.of("which mHessian and mValueGradientAndHessian of '" + name
          + "' would run once per sweep");
    }
    if (ActiveParameters.isVectorResult(caller.getReturnType())) {
      return Optional.of("which mJacobian and mValueAndJacobian of '" + name
          + "' would run once per row");
    }
    if (context.insideLoop() && CheckpointedLoops.isCheckpointed(caller)) {
      return Optional.of("which the reverse sweep of this @Checkpointed loop would run again"
          + " when it computes iterations anew");
    }
    return Optional.of("which the tangent of '" + name + "' would run twice, once for its"
        + " value and once for its tangent");
  }
}
