package ad4j.runtime;

import java.util.Arrays;

/**
 * The results of the calls that run as written (code that carries no derivative: a random draw,
 * logging, a counter), recorded in the first sweep of a generated member that makes several
 * sweeps (a Hessian, a Jacobian) and read back, in the same order, by its later sweeps, so that
 * those calls run once per call of the member, as in the method. Every sweep computes the same
 * primal values and so takes the same path: the n-th call of a sweep is the n-th call of the
 * first.
 *
 * <p>Generated code writes a call {@code v = call()} as {@code v = PlainCalls.runs() ?
 * PlainCalls.record(call()) : PlainCalls.next()} and a call of a {@code void} method as {@code
 * if (PlainCalls.runs()) { call(); PlainCalls.ran(); }}. Outside such a member nothing is
 * recorded. While a call runs, code that it runs in turn (generated code of another method)
 * records nothing here; nor does a call of another method's code ({@code
 * PlainCalls.through(PlainCalls.around(), g(x))}), whose own calls run in every sweep.
 *
 * <p>This class is public because generated code calls it; it is not meant for direct use.
 */
public final class PlainCalls {
  private static final ThreadLocal<PlainCalls> CURRENT = new ThreadLocal<>();

  /** The log that was current when this one was opened, put back when it closes. */
  private final PlainCalls outer;
  /** Null for a log; for the stand-in current while a call of {@link #log} runs, that log. */
  private final PlainCalls log;
  /** The stand-in of this log, current while one of its calls runs. */
  private PlainCalls running;
  /** In a stand-in: the calls started under it that have not returned yet. */
  private int nested;
  private Object[] values = new Object[8];
  private int size;
  private int cursor;
  /** What the call that {@link #runs} did not let run returned in the first sweep. */
  private Object read;

  private PlainCalls(PlainCalls outer, PlainCalls log) {
    this.outer = outer;
    this.log = log;
  }

  /**
   * Opens a log for a member that makes several sweeps; the member calls {@link #close} in a
   * {@code finally} block.
   *
   * @return the log, current on this thread until it closes
   */
  public static PlainCalls open() {
    PlainCalls opened = new PlainCalls(CURRENT.get(), null);
    CURRENT.set(opened);
    return opened;
  }

  /** Puts back the log that was current when this one was opened. */
  public void close() {
    CURRENT.set(outer);
  }

  /**
   * Starts a sweep of the current log's member: the first records, the later ones read what it
   * recorded from the start. Does nothing outside such a member.
   */
  public static void sweep() {
    PlainCalls current = CURRENT.get();
    if (current != null && current.log == null) {
      current.cursor = 0;
    }
  }

  /**
   * Whether the call about to be made runs (then its result goes to {@link #record}, or, for a
   * {@code void} method, {@link #ran} follows it), or is read back with {@link #next} (for a
   * {@code void} method, skipped).
   *
   * @return false when a later sweep reads the call's result back
   */
  public static boolean runs() {
    PlainCalls current = CURRENT.get();
    if (current == null) {
      return true;
    }
    if (current.log != null) {
      current.nested++; // inside a call that runs: nothing is recorded
      return true;
    }
    if (current.cursor < current.size) {
      current.read = current.values[current.cursor++]; // for next(); nothing, for a void method
      return false;
    }
    if (current.running == null) {
      current.running = new PlainCalls(null, current);
    }
    current.running.nested = 0;
    CURRENT.set(current.running);
    return true;
  }

  /**
   * After a call that {@link #runs} let run: records its result in the current log.
   *
   * @param <T> the result's type
   * @param value the call's result
   * @return {@code value}
   */
  public static <T> T record(T value) {
    PlainCalls log = finished();
    if (log != null) {
      log.add(value);
    }
    return value;
  }

  /** After a call of a {@code void} method that {@link #runs} let run. */
  public static void ran() {
    PlainCalls log = finished();
    if (log != null) {
      log.add(null);
    }
  }

  /**
   * The result of the call in place of which a later sweep reads it back.
   *
   * @param <T> the result's type
   * @return what the first sweep's call returned there
   */
  @SuppressWarnings("unchecked")
  public static <T> T next() {
    return (T) CURRENT.get().read;
  }

  /**
   * Before a call of another method's code (a {@code @Differentiable} callee, its generated
   * members, a {@code @DerivativeOf} rule), which runs in every sweep: what it runs records
   * nothing and reads nothing back, until {@link #through} after it.
   *
   * @return true, an argument for {@link #through(boolean, Object)} to take
   */
  public static boolean around() {
    PlainCalls current = CURRENT.get();
    if (current == null) {
      return true;
    }
    if (current.log != null) {
      current.nested++;
      return true;
    }
    if (current.running == null) {
      current.running = new PlainCalls(null, current);
    }
    current.running.nested = 0;
    CURRENT.set(current.running);
    return true;
  }

  /**
   * After a call that {@link #around} began.
   *
   * @param <T> the call's result type
   * @param around the value of {@link #around}, evaluated before the call
   * @param value the call's result
   * @return {@code value}
   */
  public static <T> T through(boolean around, T value) {
    finished();
    return value;
  }

  /** After a call of a {@code void} method that {@link #around} began. */
  public static void through() {
    finished();
  }

  /** The log whose call has just returned, made current again; null when there is none. */
  private static PlainCalls finished() {
    PlainCalls current = CURRENT.get();
    if (current == null || current.log == null) {
      return null;
    }
    if (current.nested > 0) {
      current.nested--; // a call made inside a call that runs
      return null;
    }
    CURRENT.set(current.log);
    return current.log;
  }

  private void add(Object value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, 2 * size);
    }
    values[size++] = value;
    cursor = size;
  }
}
