package ad4j.runtime;

import java.util.Arrays;

/**
 * The tape of a reverse sweep: stacks of primitive values that the forward sweep of generated
 * code records where a function has branches and loops — branch decisions, loop trip counts and
 * the intermediate values of each iteration — and that its reverse sweep replays backwards.
 *
 * <p>Generated code takes the current thread's tape with {@link #current()}. Pushes and pops of
 * one call are balanced, so calls may nest (a pullback calling another pullback, recursion
 * included) and share the tape. The stacks grow by doubling and never shrink, so a thread
 * allocates nothing once its tape has grown to the size its largest call needs. Values are
 * stored unboxed.
 *
 * <p>This class is public because generated code calls it; it is not meant for direct use.
 */
public final class Tape {
  private static final ThreadLocal<Tape> CURRENT = ThreadLocal.withInitial(Tape::new);
  private static final int INITIAL_CAPACITY = 64;

  private double[] doubles = new double[INITIAL_CAPACITY];
  private int doubleCount;
  private long[] longs = new long[INITIAL_CAPACITY];
  private int longCount;
  private int[] ints = new int[INITIAL_CAPACITY];
  private int intCount;

  private Tape() {}

  /**
   * The calling thread's tape.
   *
   * @return the tape of the current thread, created at its first use
   */
  public static Tape current() {
    return CURRENT.get();
  }

  /**
   * A tape of one's own, for tests and for callers that manage threads themselves.
   *
   * @return a new, empty tape
   */
  public static Tape create() {
    return new Tape();
  }

  /**
   * Records a {@code double}.
   *
   * @param value the value to record
   */
  public void pushDouble(double value) {
    if (doubleCount == doubles.length) {
      doubles = Arrays.copyOf(doubles, 2 * doubles.length);
    }
    doubles[doubleCount++] = value;
  }

  /**
   * Takes back the last {@code double} recorded.
   *
   * @return that value
   */
  public double popDouble() {
    return doubles[--doubleCount];
  }

  /**
   * Records a {@code long}.
   *
   * @param value the value to record
   */
  public void pushLong(long value) {
    if (longCount == longs.length) {
      longs = Arrays.copyOf(longs, 2 * longs.length);
    }
    longs[longCount++] = value;
  }

  /**
   * Takes back the last {@code long} recorded.
   *
   * @return that value
   */
  public long popLong() {
    return longs[--longCount];
  }

  /**
   * Records an {@code int}: a loop's trip count, or a value of an {@code int} variable.
   *
   * @param value the value to record
   */
  public void pushInt(int value) {
    if (intCount == ints.length) {
      ints = Arrays.copyOf(ints, 2 * ints.length);
    }
    ints[intCount++] = value;
  }

  /**
   * Takes back the last {@code int} recorded.
   *
   * @return that value
   */
  public int popInt() {
    return ints[--intCount];
  }

  /**
   * Records a branch decision.
   *
   * @param value the decision
   */
  public void pushBoolean(boolean value) {
    pushInt(value ? 1 : 0);
  }

  /**
   * Takes back the last branch decision recorded.
   *
   * @return that decision
   */
  public boolean popBoolean() {
    return popInt() != 0;
  }

  /**
   * The number of values on the tape, all stacks together: zero between calls.
   *
   * @return that number
   */
  public int size() {
    return doubleCount + longCount + intCount;
  }

  /**
   * Empties the tape. A forward sweep that ends in an exception (an argument check throwing)
   * leaves its values behind; they do no harm to later calls, whose pushes and pops balance
   * above them, but a long-running thread may clear them here.
   */
  public void clear() {
    doubleCount = 0;
    longCount = 0;
    intCount = 0;
  }
}
