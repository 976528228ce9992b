package ad4j.processor.front;

import com.sun.source.tree.Tree;
import javax.lang.model.element.ExecutableElement;

/**
 * A call of a {@code @Differentiable} method of the caller's own class whose code (or its
 * callees') makes calls that run as written and not alike each time (a draw, a counter, a log
 * line): every generated member of the caller must run the callee's code once per call, as the
 * caller does (DESIGN.md, "Soundness"). Whether they do is known only once their programs are
 * made and optimised: a tangent that reads the callee's value and its tangent runs it twice,
 * one that reads either runs it once ({@code optimize/TangentCallsAlone}); a reverse sweep that
 * replays the callee's recorded half runs it once, one that calls its whole pullback twice. So
 * the lowering notes the call, and {@code plan/CalleeRuns} judges the caller's programs, which
 * the processor reports as an error here when they would run it more than once.
 *
 * @param callee the method called
 * @param line the line of the statement the call is in, which the instructions made of it
 *     keep ({@code ir/SourceLine})
 * @param at the call, where the error is reported
 * @param inTangent the error where the caller's tangent runs the callee for its value and its
 *     tangent
 * @param inReverse the error where a reverse-mode member runs the callee's code again
 */
public record UnrepeatableCall(ExecutableElement callee, long line, Tree at, String inTangent,
    String inReverse) {
  /** The callee's name, as the instructions that call it name it. */
  public String calleeName() {
    return callee.getSimpleName().toString();
  }
}
