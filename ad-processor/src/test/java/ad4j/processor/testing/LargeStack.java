package ad4j.processor.testing;

import java.util.function.Supplier;

/**
 * Runs a compilation on a thread with a large stack. javac's own parser and attribution recurse
 * once per piece of a long chain in the user's source: the test thread's stack is too small for
 * them (the javac launcher's is not); ad4j's own processing runs on a stack of its own.
 */
public final class LargeStack {
  private static final long STACK_BYTES = 256L << 20;

  private LargeStack() {}

  /** What {@code work} returns, computed on a thread with a large stack; its failure rethrown. */
  public static <T> T run(Supplier<T> work) {
    Object[] result = new Object[1];
    Throwable[] failure = new Throwable[1];
    Thread thread = new Thread(null, () -> {
      try {
        result[0] = work.get();
      } catch (Throwable t) {
        failure[0] = t;
      }
    }, "javac", STACK_BYTES);
    thread.start();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    if (failure[0] != null) {
      throw new AssertionError(failure[0]);
    }
    @SuppressWarnings("unchecked") // result[0] is what work returned
    T value = (T) result[0];
    return value;
  }
}
