package ad4j.processor.write;

import ad4j.processor.front.UnrepeatableCall;
import java.util.List;

/**
 * Calls whose callee's code, which does not run alike twice, a generated member of their
 * caller would run more than once per call ({@code plan/CalleeRuns}): the processor reports
 * each as a compile error at the call, with its message, and writes no class.
 */
public final class CalleesRunAgain extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** One such call and the error to report at it. */
  public record Rejected(UnrepeatableCall call, String message) {}

  private final transient List<Rejected> calls;

  CalleesRunAgain(List<Rejected> calls) {
    super(calls.get(0).message());
    this.calls = List.copyOf(calls);
  }

  /** The calls, in the order of their methods and of lowering. */
  public List<Rejected> calls() {
    return calls;
  }
}
