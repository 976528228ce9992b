package ad4j.runtime;

import java.util.Arrays;

/**
 * The tape of a reverse sweep: stacks of primitive values that the forward sweep of generated
 * code records where a function has branches and loops — branch decisions, loop trip counts and
 * the intermediate values of each iteration — and that its reverse sweep replays backwards.
 *
 * <p>Generated code takes the current thread's tape with {@link #current()}. Pushes and pops of
 * one call are balanced, so calls may nest (a pullback calling another pullback, recursion
 * included) and share the tape. A call that ends by an exception resets the tape to the
 * {@link #mark()} it took on entry, so the tape is left as the call found it. The stacks grow by doubling and never shrink, so a thread
 * allocates nothing once its tape has grown to the size its largest call needs. Values are
 * stored unboxed; the arrays a loop makes and passes to calls are recorded by reference.
 *
 * <p>This class is public because generated code calls it; it is not meant for direct use.
 */
public final class Tape {
  private static final ThreadLocal<Tape> CURRENT = ThreadLocal.withInitial(Tape::new);
  private static final int INITIAL_CAPACITY = 64;

  private double[] doubles = new double[INITIAL_CAPACITY];
  private int doubleCount;
  /**
   * {@code long}s, and {@code int}s and booleans widened to {@code long}: two stacks, so that a
   * position of the tape fits in one {@code long} ({@link #mark()}).
   */
  private long[] longs = new long[INITIAL_CAPACITY];
  private int longCount;
  /**
   * Arrays recorded by reference ({@link #pushArray(double[])}), beside the {@code long}s: each
   * takes one position of that stack, so that {@link #mark()} still covers everything. Made at
   * the first array recorded; entries are cleared when taken back, so that the tape does not
   * keep arrays alive.
   */
  private Object[] arrays;

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
    pushLong(value);
  }

  /**
   * Takes back the last {@code int} recorded.
   *
   * @return that value
   */
  public int popInt() {
    return (int) popLong();
  }

  /**
   * Records a branch decision.
   *
   * @param value the decision
   */
  public void pushBoolean(boolean value) {
    pushLong(value ? 1 : 0);
  }

  /**
   * Takes back the last branch decision recorded.
   *
   * @return that decision
   */
  public boolean popBoolean() {
    return popLong() != 0;
  }

  /**
   * Records an array made inside a loop by reference, for the reverse sweep of a call that
   * passed it: that iteration's array is the one the callee's pullback must see. Nothing is
   * copied; the writes made to it after the call are undone element by element before the
   * reverse sweep reaches the call.
   *
   * @param array the array to record
   */
  public void pushArray(double[] array) {
    pushReference(array);
  }

  /**
   * Records an {@code int[]} made inside a loop by reference: see {@link #pushArray(double[])}.
   *
   * @param array the array to record
   */
  public void pushArray(int[] array) {
    pushReference(array);
  }

  /**
   * Records a {@code double[][]} made inside a loop by reference: see
   * {@link #pushArray(double[])}.
   *
   * @param matrix the matrix to record
   */
  public void pushArray(double[][] matrix) {
    pushReference(matrix);
  }

  /**
   * Takes back the last array recorded, a {@code double[][]}.
   *
   * @return that matrix
   */
  public double[][] popDoubleMatrix() {
    return (double[][]) popReference();
  }

  /**
   * Takes back the last array recorded, a {@code double[]}.
   *
   * @return that array
   */
  public double[] popDoubleArray() {
    return (double[]) popReference();
  }

  /**
   * Takes back the last array recorded, an {@code int[]}.
   *
   * @return that array
   */
  public int[] popIntArray() {
    return (int[]) popReference();
  }

  private void pushReference(Object array) {
    if (arrays == null || arrays.length < longs.length) {
      arrays = arrays == null ? new Object[longs.length] : Arrays.copyOf(arrays, longs.length);
    }
    if (longCount == longs.length) {
      longs = Arrays.copyOf(longs, 2 * longs.length);
      arrays = Arrays.copyOf(arrays, longs.length);
    }
    arrays[longCount] = array;
    longs[longCount++] = 0;
  }

  private Object popReference() {
    Object array = arrays[--longCount];
    arrays[longCount] = null;
    return array;
  }

  /**
   * The number of values on the tape, all stacks together: zero between calls.
   *
   * @return that number
   */
  public int size() {
    return doubleCount + longCount;
  }

  /**
   * The tape's position now, for {@link #reset(long)}. Generated code takes a mark when a
   * member starts, and resets to it when the member ends by an exception (an argument check,
   * an {@code ArithmeticException}, a callee's exception): what the member had recorded is then
   * dropped, and the thread's tape is as the member found it. Costs two reads.
   */
  public long mark() {
    return (long) doubleCount << 32 | longCount;
  }

  /** Drops everything recorded since {@code mark} was taken with {@link #mark()}. */
  public void reset(long mark) {
    doubleCount = (int) (mark >>> 32);
    int longsLeft = (int) mark;
    if (arrays != null && longsLeft < Math.min(longCount, arrays.length)) {
      Arrays.fill(arrays, longsLeft, Math.min(longCount, arrays.length), null);
    }
    longCount = longsLeft;
  }

  /** Empties the tape. Generated code never needs this: see {@link #mark()}. */
  public void clear() {
    reset(0L);
  }
}
