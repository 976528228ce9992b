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
 * reverse sweep run it more often still (the tangent and the reverse-mode members of a method
 * of order 1 calling a method of its own class are judged on their programs instead:
 * {@link #judgedOnPrograms}). Calls that give the same result each time and change
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
    Optional<String> members = noteRunAsWritten(call, shown);
    if (members.isEmpty()) {
      return false;
    }
    String name = context.methodName();
    context.diagnostics().error(call, "call to '" + shown + "' runs as written and may give"
        + " another result or do something again each time it runs: " + members.get()
        + ", where '" + name + "' runs it once; make the call where '" + name + "' is called"
        + " and pass its result as a @NoDerivative parameter");
    return true;
  }

  /**
   * Notes {@code call} ({@code shown}) of the {@code @DerivativeOf} target {@code target}, whose
   * body changes state that outlasts its call ({@code change}, its text there: a write, or a
   * call that may make one), and reports an error at it when members of the method being
   * lowered would run it more than once per call. Returns whether it did. (Passing its result
   * as a {@code @NoDerivative} parameter, a plain call's remedy, would drop its derivative.)
   */
  boolean rejectStateChangingTarget(Tree call, String shown, String target, String change) {
    Optional<String> members = noteRunAsWritten(call, shown);
    if (members.isEmpty()) {
      return false;
    }
    String name = context.methodName();
    context.diagnostics().error(call, "call to '" + shown + "': the @DerivativeOf target '"
        + target + "' changes state that outlasts its call ('" + change + "'), so it may give"
        + " another result or do something again each time it runs: " + members.get()
        + ", where '" + name + "' runs it once; make '" + target + "' compute its result from"
        + " its arguments alone");
    return true;
  }

  /**
   * Notes the call {@code shown} that {@code written} makes without naming it (a string
   * concatenation's {@code toString()} of an object), run as written and not alike each time,
   * and reports an error at {@code at} when members of the method being lowered would run it
   * more than once per call. Returns whether it did.
   */
  boolean rejectImplicitCall(Tree at, String shown, String written) {
    Optional<String> members = noteRunAsWritten(at, shown);
    if (members.isEmpty()) {
      return false;
    }
    String name = context.methodName();
    context.diagnostics().error(at, "'" + written + "' calls '" + shown + "', which runs as"
        + " written and may give another result or do something again each time it runs: "
        + members.get() + ", where '" + name + "' runs it once; make the string where '" + name
        + "' is called and pass it as a @NoDerivative parameter");
    return true;
  }

  /**
   * Notes {@code write}, a write into {@code array}, an array the method did not make
   * ({@link MethodArrays#isForeignArray}): it changes state outside the method, again each
   * time it runs. Reports an error at it when members of the method being lowered would run it
   * more than once per call (in a Hessian's sweeps, {@code t[0]++} on a field's array would
   * count once per sweep, and each sweep would see another value). {@code what} names the
   * write for messages ({@code the write into 't[0]'}, {@code 'Arrays.fill(t, 0.0)'}), and
   * {@code shown} for callers' messages. Returns whether it reported an error.
   */
  boolean rejectOwnWrite(Tree write, String what, String shown, String array) {
    Optional<String> members = noteRunAsWritten(write, shown);
    if (members.isEmpty()) {
      return false;
    }
    String name = context.methodName();
    context.diagnostics().error(write, what + " changes '" + array + "', an array that '"
        + name + "' did not make (a field's, or one reached through an object or a call), and"
        + " changes it again each time it runs: " + members.get() + ", where '" + name
        + "' runs it once; copy the array into a local one ('" + array + ".clone()') and write"
        + " there, or write it where '" + name + "' is called");
    return true;
  }

  /**
   * Notes code that runs as written and not alike each time, for callers
   * ({@link CalleePlainCalls}), and says which members of the method being lowered would run
   * it more than once per call: empty when none would, while the method is only examined, or
   * inside a thrown exception's construction.
   */
  private Optional<String> noteRunAsWritten(Tree at, String shown) {
    if (context.notedCalls().buildingThrown()) {
      return Optional.empty(); // runs once, as the member ends
    }
    context.notedCalls().callRunsAsWritten(shown, context.source().line(at), at);
    return repeatingMembers();
  }

  /**
   * Reports an error at {@code at}, the {@code Iterable} that {@code what} walks (an enhanced
   * {@code for}, a stream: {@link IterableLoops}), where members of the method being lowered
   * would run its iterator more than once per call; returns whether it did. (Its calls are
   * noted as they are made.)
   */
  boolean rejectIteration(Tree at, String what, String iterable) {
    Optional<String> members = context.notedCalls().buildingThrown()
        ? Optional.empty() : repeatingMembers();
    if (members.isEmpty()) {
      return false;
    }
    String name = context.methodName();
    context.diagnostics().error(at, what + " runs its"
        + " iterator as written ('" + iterable + ".iterator()', then 'hasNext()' and 'next()'),"
        + " which may give other elements each time it runs: " + members.get() + ", where '"
        + name + "' runs it once; pass the elements in an array, as a @NoDerivative"
        + " parameter");
    return true;
  }

  /**
   * Which members of the method being lowered would run code run as written more than once
   * per call, for a message; empty when none would, or while the method is only examined.
   */
  private Optional<String> repeatingMembers() {
    ExecutableElement method = context.element();
    if (method == null || context.examining()) {
      return Optional.empty();
    }
    String name = context.methodName();
    if (context.order() == 2 && !ActiveParameters.isVectorResult(method.getReturnType())) {
      return Optional.of("mHessian and mValueGradientAndHessian of '" + name + "' make one"
          + " sweep per slot and would run it once per sweep");
    }
    if (ActiveParameters.isVectorResult(method.getReturnType())) {
      return Optional.of("mJacobian and mValueAndJacobian of '" + name + "' make one sweep per"
          + " slot when the result is longer, and the gradients of methods that call '" + name
          + "' run its code twice");
    }
    return Optional.empty(); // a @Checkpointed loop's calls are CheckpointedLoops' to reject
  }

  /**
   * Whether the members of the method being lowered that may run the code of {@code callee}, a
   * {@code @Differentiable} method it calls, more than once per call are only its tangent and
   * its reverse-mode members, and whether they do is judged on their programs once made
   * ({@link UnrepeatableCall}): a method of order 1 with a {@code double} result, the call
   * outside a {@code @Checkpointed} loop, the callee in the method's own class, whose members
   * are planned with the caller's (so that the plan knows whether its pullback's halves hand
   * its values over, or its whole pullback runs it again). The tangent runs the callee once
   * where it reads only the callee's value or only its tangent
   * ({@code optimize/TangentCallsAlone}).
   */
  boolean judgedOnPrograms(ExecutableElement callee) {
    ExecutableElement caller = context.element();
    return caller != null && !context.examining() && context.order() == 1
        && !ActiveParameters.isVectorResult(caller.getReturnType())
        && !(context.loops().inside() && CheckpointedLoops.isCheckpointed(caller))
        && callee.getEnclosingElement().equals(caller.getEnclosingElement());
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
    if (context.order() == 2 && !ActiveParameters.isVectorResult(caller.getReturnType())) {
      return Optional.of("which mHessian and mValueGradientAndHessian of '" + name
          + "' would run once per sweep");
    }
    if (ActiveParameters.isVectorResult(caller.getReturnType())) {
      return Optional.of("which mJacobian and mValueAndJacobian of '" + name
          + "' would run once per row");
    }
    if (context.loops().inside() && CheckpointedLoops.isCheckpointed(caller)) {
      return Optional.of("which the reverse sweep of this @Checkpointed loop would run again"
          + " when it computes iterations anew");
    }
    return Optional.of("which the tangent of '" + name + "' would run twice, once for its"
        + " value and once for its tangent");
  }

  /**
   * Whether a generated member of the method being lowered would run {@code method}'s code more
   * than once per call ({@link RepeatedRuns#ofCallee}), and that code (or its callees') makes
   * calls that run as written: they would run again, a draw differ, a side effect repeat
   * (DESIGN.md, "Soundness"). Such a call is then an error at {@code call}; where only the
   * tangent and the reverse-mode members could run it again, whether they do is judged on their
   * programs ({@link RepeatedRuns#judgedOnPrograms}): the call is noted for that, with the
   * errors to report at it, and is no error here.
   */
  boolean rejectCallee(ExecutableElement method, Tree call, String shown,
      String qualified) {
    Optional<String> members = ofCallee();
    if (members.isEmpty()) {
      return false;
    }
    String callee = method.getSimpleName().toString();
    String once = context.loops().inside() && CheckpointedLoops.isCheckpointed(context.element())
        ? "once per iteration" : "once";
    Optional<CalleePlainCalls.Found> found = context.calleeServices().calleePlainCalls().in(method);
    if (found.isEmpty()) {
      return false;
    }
    String advice = found.get().kind() == CalleePlainCalls.Kind.CALL
        ? "make that call in '" + context.methodName() + "' instead and pass its result to '"
            + callee + "' as a @NoDerivative parameter"
        : "pass its source file to javac with this one";
    String message = "call to '" + shown + "': " + found.get().describe(qualified) + ", "
        + members.get() + ", where '" + context.methodName() + "' runs it " + once + "; "
        + advice;
    if (found.get().kind() == CalleePlainCalls.Kind.CALL && judgedOnPrograms(method)) {
      // the call runs such code in this method too: for StateReadAgain, the array choices
      // before it, and what the generated class records for callers compiled later
      long line = context.source().line(call);
      context.notedCalls().callRunsAsWritten(shown, line, call);
      // the statement's line, which the instructions made of the call keep
      long statement = context.line() != null ? context.line().number() : line;
      context.notedCalls().callsUnrepeatable(new UnrepeatableCall(method, statement, call, message,
          "call to '" + shown + "': " + found.get().describe(qualified) + ", which a"
              + " reverse-mode member of '" + context.methodName() + "' would run again:"
              + " the pullback of '" + qualified + "' (or of a segment of '"
              + context.methodName() + "') cannot hand the values of its forward sweep to its"
              + " reverse sweep, and runs its code once more, where '" + context.methodName()
              + "' runs it once; " + advice));
      return false;
    }
    if (found.get().kind() == CalleePlainCalls.Kind.UNRESOLVED) {
      context.diagnostics().unresolved(call, message); // the class waits for the next round
    } else {
      context.diagnostics().error(call, message);
    }
    return true;
  }
}
