package ad4j.runtime.internal;

import java.util.Arrays;

/**
 * The tape of a reverse sweep: stacks of primitive values that the forward sweep of generated
 * code records where a function has loops, calls other {@code @Differentiable} methods or is
 * split into parts — branch decisions, loop trip counts and the intermediate values of each
 * iteration, what a callee's reverse sweep reads, the values that cross from one part to the
 * next — and that its reverse sweep replays backwards. Every generated class refers to it, so
 * {@code ad-runtime} is needed at run time.
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
   * Records a {@code float[]} made inside a loop by reference: see {@link #pushArray(double[])}.
   *
   * @param array the array to record
   */
  public void pushArray(float[] array) {
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
   * Takes back the last array recorded, a {@code float[]}.
   *
   * @return that array
   */
  public float[] popFloatArray() {
    return (float[]) popReference();
  }

  /**
   * Takes back the last array recorded, an {@code int[]}.
   *
   * @return that array
   */
  public int[] popIntArray() {
    return (int[]) popReference();
  }

  /**
   * Records an object or a string by reference: a component that carries no derivative of a
   * value record passed to a call inside a loop, which that iteration's reverse sweep of the
   * call passes along again. See {@link #pushArray(double[])}.
   *
   * @param object the object to record
   */
  public void pushObject(Object object) {
    pushReference(object);
  }

  /**
   * Takes back the last object recorded by {@link #pushObject(Object)}, as the type the
   * generated code that recorded it declared it with.
   *
   * @param <T> that type
   * @return that object
   */
  @SuppressWarnings("unchecked")
  public <T> T popObject() {
    return (T) popReference();
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
   *
   * @return the position, to pass to {@link #reset(long)} or {@link #rewind(long)}
   */
  public long mark() {
    return (long) doubleCount << 32 | longCount;
  }

  /**
   * Drops everything recorded since {@code mark} was taken with {@link #mark()}.
   *
   * @param mark a position returned by {@link #mark()} on this tape
   */
  public void reset(long mark) {
    doubleCount = (int) (mark >>> 32);
    int longsLeft = (int) mark;
    if (arrays != null && longsLeft < Math.min(longCount, arrays.length)) {
      Arrays.fill(arrays, longsLeft, Math.min(longCount, arrays.length), null);
    }
    longCount = longsLeft;
  }

  /**
   * Takes back onto the tape everything popped since {@code mark} was taken with {@link
   * #mark()}: the values are still in place as long as nothing was pushed since. A vector
   * function's Jacobian so runs its reverse sweep once per row over one recording. Arrays
   * recorded by reference do not come back (a pop lets go of them): generated code rewinds
   * only over numbers.
   *
   * @param mark a position at or above the tape's position now
   */
  public void rewind(long mark) {
    doubleCount = (int) (mark >>> 32);
    longCount = (int) mark;
  }

  /**
   * The {@code double} {@code index} places above the position {@code start} (a {@link #mark()}),
   * which stays on the tape: a snapshot of a checkpointed loop's state, read again for each
   * segment of the loop that the reverse sweep computes anew.
   *
   * @param start the mark taken where the snapshots begin
   * @param index the place above that mark
   * @return the value recorded there
   */
  public double doubleAt(long start, int index) {
    return doubles[(int) (start >>> 32) + index];
  }

  /**
   * As {@link #doubleAt}, for a {@code long}, an {@code int} or a boolean of a snapshot.
   *
   * @param start the mark taken where the snapshots begin
   * @param index the place above that mark among the {@code long}s
   * @return the value recorded there
   */
  public long longAt(long start, int index) {
    return longs[(int) start + index];
  }

  /**
   * As {@link #longAt}, narrowed to an {@code int}.
   *
   * @param start the mark taken where the snapshots begin
   * @param index the place above that mark among the {@code long}s
   * @return the value recorded there
   */
  public int intAt(long start, int index) {
    return (int) longAt(start, index);
  }

  /**
   * As {@link #longAt}, for a boolean.
   *
   * @param start the mark taken where the snapshots begin
   * @param index the place above that mark among the {@code long}s
   * @return the value recorded there
   */
  public boolean booleanAt(long start, int index) {
    return longAt(start, index) != 0;
  }

  /**
   * Makes room for one more snapshot of a checkpointed loop's state, whose snapshots lie above
   * {@code start}, each {@code doubles} {@code double}s and {@code longs} {@code long}s, one
   * every {@code every} iterations. While fewer than {@code limit} are held this changes
   * nothing; when {@code limit} are held, every other one is dropped (those of the iterations
   * {@code every}, {@code 3 * every}, ...), the others close up, and snapshots are then taken
   * every {@code 2 * every} iterations. So a loop of any length holds at most {@code limit}
   * snapshots, taken at most every {@code 2n / limit} iterations.
   *
   * @param start the mark taken where the snapshots begin
   * @param doubles the {@code double}s of one snapshot
   * @param longs the {@code long}s of one snapshot
   * @param limit the most snapshots to hold, even
   * @param every the iterations between snapshots now
   * @return the iterations between snapshots from now on: {@code every} or {@code 2 * every}
   * @throws ArithmeticException when {@code 2 * every} is past {@code Integer.MAX_VALUE}
   */
  public int makeRoomForSnapshot(long start, int doubles, int longs, int limit, int every) {
    int doubleStart = (int) (start >>> 32);
    int longStart = (int) start;
    // called at every snapshot: a comparison, no division, while there is room
    boolean full = doubles > 0 ? doubleCount - doubleStart >= (long) limit * doubles
        : longs > 0 && longCount - longStart >= (long) limit * longs;
    if (!full) {
      return every; // also for a loop without state, whose snapshots take no room
    }
    int kept = (limit + 1) / 2;
    for (int i = 1; i < kept; i++) {
      System.arraycopy(this.doubles, doubleStart + 2 * i * doubles, this.doubles,
          doubleStart + i * doubles, doubles);
      System.arraycopy(this.longs, longStart + 2 * i * longs, this.longs,
          longStart + i * longs, longs);
    }
    doubleCount = doubleStart + kept * doubles;
    longCount = longStart + kept * longs;
    // a loop counted by a long may run past limit * 2^30 iterations: an error, never a wrong
    // segment length
    return Math.multiplyExact(2, every);
  }

  /**
   * The bytes the tape's stacks take, in use or not. They grow by doubling and never shrink, so
   * this is at least the most the tape ever held (8 bytes a value) and, once a call needed more
   * than the first few values, less than twice that: what a thread's tape costs in memory.
   *
   * @return that number of bytes
   */
  public long capacityBytes() {
    return 8L * (doubles.length + longs.length);
  }

  /** Empties the tape. Generated code never needs this: see {@link #mark()}. */
  public void clear() {
    reset(0L);
  }
}
