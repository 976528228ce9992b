package ad4j.runtime.internal;

/**
 * The flat layout of gradients over array parameters: a {@code double[][] m} takes
 * {@code m[0].length + m[1].length + ...} slots, row by row, and rows may differ in length.
 * Generated code asks here where a row starts; for the usual rectangular matrix that is one
 * multiplication, found by {@link #rowLength(double[][])} once per call.
 *
 * <p>This class is public because generated code calls it; it is not meant for direct use.
 */
public final class Slots {
  private Slots() {}

  /**
   * The number of slots of {@code m}: the sum of its rows' lengths.
   *
   * @param m a matrix, rows of any length
   * @return the total number of elements
   * @throws NullPointerException if {@code m} or one of its rows is null
   */
  public static int count(double[][] m) {
    int count = 0;
    for (double[] row : m) {
      count += row.length;
    }
    return count;
  }

  /**
   * The common length of {@code m}'s rows, or -1 when they differ (a jagged matrix).
   *
   * @param m a matrix
   * @return the length every row has, 0 for a matrix without rows, or -1
   * @throws NullPointerException if {@code m} or one of its rows is null
   */
  public static int rowLength(double[][] m) {
    if (m.length == 0) {
      return 0;
    }
    int length = m[0].length;
    for (double[] row : m) {
      if (row.length != length) {
        return -1;
      }
    }
    return length;
  }

  /**
   * The slot of {@code m[row][0]} counted from {@code m}'s first slot.
   *
   * @param m a matrix
   * @param rowLength what {@link #rowLength(double[][])} returned for {@code m}
   * @param row a row index of {@code m}
   * @return the number of elements in the rows before {@code row}
   */
  public static int rowStart(double[][] m, int rowLength, int row) {
    if (rowLength >= 0) {
      return row * rowLength;
    }
    int start = 0;
    for (int i = 0; i < row; i++) {
      start += m[i].length;
    }
    return start;
  }

  /**
   * Adds each element of {@code from} to {@code to}, from slot {@code at} on: the reverse of a
   * copy, which passes the copy's adjoints back to the original's.
   *
   * @param from the adjoints of the copy
   * @param to the adjoints of the original (a gradient, or a local array's adjoints)
   * @param at the slot of the original's first element in {@code to}
   * @return the number of elements added
   */
  public static int addInto(double[] from, double[] to, int at) {
    addFirst(from.length, from, to, at);
    return from.length;
  }

  /**
   * As {@link #addInto(double[], double[], int)} for the adjoints of an array made inside a
   * loop, which are kept in one array as long as the longest such array: adds the elements of
   * {@code from} that fit into {@code to} from slot {@code at} on (those past the copy's own
   * length are zeros).
   *
   * @param from the adjoints of the copy, zeros past its length
   * @param to the adjoints of the original
   * @param at the slot of the original's first element in {@code to}
   * @return the number of elements added
   */
  public static int addIntoWithin(double[] from, double[] to, int at) {
    int count = Math.min(from.length, to.length - at);
    addFirst(count, from, to, at);
    return count;
  }

  /** Adds the first {@code count} elements of {@code from} to {@code to} from slot {@code at}. */
  private static void addFirst(int count, double[] from, double[] to, int at) {
    for (int i = 0; i < count; i++) {
      to[at + i] += from[i];
    }
  }

  /**
   * Sets every element of {@code adjoints} to zero: the reverse of making an array inside a
   * loop, after which the next (earlier) iteration's array starts with no adjoints.
   *
   * @param adjoints the adjoints of the array made in the iteration
   * @return the number of elements cleared
   */
  public static int clear(double[] adjoints) {
    java.util.Arrays.fill(adjoints, 0.0);
    return adjoints.length;
  }

  /**
   * Adds {@code seed * partial[k]} to the slots of the array argument's elements, from slot
   * {@code at} on: the reverse of a call whose partial derivative with respect to an array
   * argument a {@code @DerivativeOf} rule returns.
   *
   * @param partial what the rule returned: one partial derivative per element of the argument
   * @param argument the array the call was passed
   * @param seed the adjoint of the call's result
   * @param to the adjoints of the argument (a gradient, or a local array's adjoints)
   * @param at the slot of the argument's first element in {@code to}
   * @return the number of elements added
   * @throws IllegalArgumentException if the rule's array and the argument differ in length
   */
  public static int addScaled(double[] partial, double[] argument, double seed, double[] to,
      int at) {
    checkPartial(partial.length, argument.length, " elements");
    for (int i = 0; i < partial.length; i++) {
      to[at + i] += seed * partial[i];
    }
    return partial.length;
  }

  /**
   * As {@link #addScaled(double[], double[], double, double[], int)} for a matrix argument,
   * whose elements lie in {@code to} row by row.
   *
   * @param partial what the rule returned: one partial derivative per element of the argument
   * @param argument the matrix the call was passed
   * @param seed the adjoint of the call's result
   * @param to the adjoints of the argument's elements
   * @param at the slot of the argument's first element in {@code to}
   * @return the number of elements added
   * @throws IllegalArgumentException if the rule's matrix and the argument differ in shape
   */
  public static int addScaled(double[][] partial, double[][] argument, double seed,
      double[] to, int at) {
    checkPartial(partial.length, argument.length, " rows");
    for (int i = 0; i < partial.length; i++) {
      checkPartial(partial[i].length, argument[i].length, " elements in row " + i);
    }
    int slot = at;
    for (double[] row : partial) {
      for (double element : row) {
        to[slot++] += seed * element;
      }
    }
    return slot - at;
  }

  /**
   * {@code sum of partial[k] * tangent[k]}: the forward mode of a call whose partial
   * derivative with respect to an array argument a {@code @DerivativeOf} rule returns.
   *
   * @param partial what the rule returned: one partial derivative per element of the argument
   * @param tangent the argument's tangent, of the argument's length
   * @return the dot product
   * @throws IllegalArgumentException if the rule's array and the argument differ in length
   */
  public static double dot(double[] partial, double[] tangent) {
    checkPartial(partial.length, tangent.length, " elements");
    return sumOfProducts(partial, tangent);
  }

  /**
   * As {@link #dot(double[], double[])} for the reverse of a call made inside a loop, whose
   * result's adjoints are kept in an array as long as the longest result of all iterations:
   * the elements of {@code seed} past the partial's length are zeros and take no part.
   *
   * @param partial what the rule returned: one partial derivative per element of the result
   * @param seed the adjoints of the result's elements, zeros past its length
   * @return the sum of the products
   * @throws IllegalArgumentException if the rule's array is longer than {@code seed}
   */
  public static double dotWithin(double[] partial, double[] seed) {
    checkWithin(partial.length, seed.length, " elements");
    return sumOfProducts(partial, seed);
  }

  /** The sum of {@code partial[i] * other[i]} over the elements of {@code partial}. */
  private static double sumOfProducts(double[] partial, double[] other) {
    double sum = 0;
    for (int i = 0; i < partial.length; i++) {
      sum += partial[i] * other[i];
    }
    return sum;
  }

  /**
   * As {@link #dot(double[], double[])} for a matrix argument, row by row.
   *
   * @param partial what the rule returned: one partial derivative per element of the argument
   * @param tangent the argument's tangent, of the argument's shape
   * @return the sum of the products of all elements
   * @throws IllegalArgumentException if the rule's matrix and the argument differ in shape
   */
  public static double dot(double[][] partial, double[][] tangent) {
    checkPartial(partial.length, tangent.length, " rows");
    double sum = 0;
    for (int i = 0; i < partial.length; i++) {
      double[] row = partial[i];
      checkPartial(row.length, tangent[i].length, " elements in row " + i);
      for (int j = 0; j < row.length; j++) {
        sum += row[j] * tangent[i][j];
      }
    }
    return sum;
  }

  /**
   * Adds {@code sum over k of seed[k] * partial[k][j]} to slot {@code at + j} of {@code to}
   * for each element {@code j} of the argument: the reverse of a call of a vector function
   * whose partial derivatives with respect to an array argument a {@code @DerivativeOf} rule
   * returns ({@code [k][j]}: of the result's element k with respect to the argument's element
   * j).
   *
   * @param partial what the rule returned: one row per element of the result
   * @param argument the array the call was passed
   * @param seed the adjoints of the result's elements
   * @param to the adjoints of the argument (a gradient, or a local array's adjoints)
   * @param at the slot of the argument's first element in {@code to}
   * @return the number of elements added to
   * @throws IllegalArgumentException if the rule's matrix is not of shape result × argument
   */
  public static int addTransposed(double[][] partial, double[] argument, double[] seed,
      double[] to, int at) {
    checkRows(partial, seed.length, argument.length);
    addWeightedRows(partial, seed, to, at);
    return argument.length;
  }

  /** Adds {@code seed[k] * partial[k][j]} to {@code to[at + j]} for every k and j. */
  private static void addWeightedRows(double[][] partial, double[] seed, double[] to, int at) {
    for (int k = 0; k < partial.length; k++) {
      double[] row = partial[k];
      double weight = seed[k];
      for (int j = 0; j < row.length; j++) {
        to[at + j] += weight * row[j];
      }
    }
  }

  /**
   * Adds {@code partial · tangent} to {@code to}: the forward mode of a call of a vector
   * function whose partial derivatives with respect to an array argument a
   * {@code @DerivativeOf} rule returns.
   *
   * @param partial what the rule returned: one row per element of the result
   * @param tangent the argument's tangent, of the argument's length
   * @param to the tangents of the result's elements
   * @return the number of elements of the result
   * @throws IllegalArgumentException if the rule's matrix is not of shape result × argument
   */
  public static int addProduct(double[][] partial, double[] tangent, double[] to) {
    checkRows(partial, to.length, tangent.length);
    for (int k = 0; k < partial.length; k++) {
      double[] row = partial[k];
      double sum = 0;
      for (int j = 0; j < row.length; j++) {
        sum += row[j] * tangent[j];
      }
      to[k] += sum;
    }
    return to.length;
  }

  /**
   * As {@link #addTransposed(double[][], double[], double[], double[], int)} for the reverse of
   * a call made inside a loop, whose result's adjoints {@code seed} are kept in an array as long
   * as the longest result of all iterations (zeros past this result's length).
   *
   * @param partial what the rule returned: one row per element of the result
   * @param argument the array the call was passed
   * @param seed the adjoints of the result's elements, zeros past its length
   * @param to the array that holds the adjoints of the argument's elements
   * @param at the slot of the argument's first element in {@code to}
   * @return the number of the argument's elements
   * @throws IllegalArgumentException if the rule's matrix has more rows than {@code seed} has
   *     elements, or a row's length differs from the argument's
   */
  public static int addTransposedWithin(double[][] partial, double[] argument, double[] seed,
      double[] to, int at) {
    checkWithin(partial.length, seed.length, " rows");
    for (int k = 0; k < partial.length; k++) {
      checkPartial(partial[k].length, argument.length, " elements in row " + k);
    }
    addWeightedRows(partial, seed, to, at);
    return argument.length;
  }

  private static void checkWithin(int given, int longest, String what) {
    if (given > longest) {
      throw new IllegalArgumentException("a @DerivativeOf rule returned " + given + what
          + " where at most " + longest + " are needed: one partial derivative per element");
    }
  }

  /** Checks that {@code partial} has {@code rows} rows of {@code columns} elements each. */
  private static void checkRows(double[][] partial, int rows, int columns) {
    checkPartial(partial.length, rows, " rows");
    for (int k = 0; k < partial.length; k++) {
      checkPartial(partial[k].length, columns, " elements in row " + k);
    }
  }

  private static void checkPartial(int given, int needed, String what) {
    if (given != needed) {
      throw new IllegalArgumentException("a @DerivativeOf rule returned " + given + what
          + " where " + needed + " are needed: one partial derivative per element");
    }
  }

  /**
   * Starts the reverse sweep of a vector function: the seed becomes the adjoint of the
   * returned array.
   *
   * @param seed one weight per element of the result, as the caller passed it
   * @param adjoint the adjoints of the returned array's elements
   * @return the number of elements
   * @throws IllegalArgumentException if the lengths differ
   */
  public static int seed(double[] seed, double[] adjoint) {
    if (seed.length != adjoint.length) {
      throw seedOfAnotherLength(seed, adjoint);
    }
    addFirst(seed.length, seed, adjoint, 0);
    return seed.length;
  }

  /**
   * As {@link #seed(double[], double[])} in the pullback that the generated code of callers
   * calls: a caller that called this vector function inside a loop keeps the adjoints of all
   * the results in one array as long as the longest of them, zeros past this result's length.
   *
   * @param seed the caller's adjoints of the result's elements, zeros past its length
   * @param adjoint the adjoints of the returned array's elements
   * @return the number of elements
   * @throws IllegalArgumentException if {@code seed} is shorter than the result
   */
  public static int seedWithin(double[] seed, double[] adjoint) {
    if (seed.length < adjoint.length) {
      throw seedOfAnotherLength(seed, adjoint);
    }
    addFirst(adjoint.length, seed, adjoint, 0);
    return adjoint.length;
  }

  private static IllegalArgumentException seedOfAnotherLength(double[] seed, double[] adjoint) {
    return new IllegalArgumentException("'seed' has length " + seed.length + ", the result has "
        + adjoint.length + " elements: one seed per element");
  }

  /**
   * The range check of {@code java.util.Arrays.fill(a, from, to, v)}, which generated code
   * writes as a loop: throws what the library throws, before anything is written.
   *
   * @param length the array's length
   * @param from the first index written
   * @param to one past the last index written
   * @return the number of elements to write
   * @throws IllegalArgumentException if {@code from > to}
   * @throws ArrayIndexOutOfBoundsException if {@code from < 0} or {@code to > length}
   */
  public static int checkFill(int length, int from, int to) {
    if (from > to) {
      throw new IllegalArgumentException("fromIndex(" + from + ") > toIndex(" + to + ")");
    }
    if (from < 0) {
      throw new ArrayIndexOutOfBoundsException(from);
    }
    if (to > length) {
      throw new ArrayIndexOutOfBoundsException(to);
    }
    return to - from;
  }

  /**
   * Throws where a {@code @DerivativeOf} vector target returned one of the arrays it was given
   * instead of a new array: the caller's members take the result for an array of its own, so
   * that writes through either name would be differentiated as if they were two arrays.
   *
   * @param result what the target returned
   * @param argument an array argument of the call
   * @param target the target, {@code Class.method}, for the message
   * @return 0
   */
  public static int checkNewArray(double[] result, Object argument, String target) {
    if (result == argument) {
      throw new IllegalStateException(target + " returned an array it was given; ad4j"
          + " differentiates a @DerivativeOf target returning 'double[]' as returning a new"
          + " array: return a copy ('clone()')");
    }
    return 0;
  }

  /**
   * The check of {@code Arrays.copyOfRange(a, from, to)}, which generated code writes as a loop:
   * throws an {@code IllegalArgumentException}, as the library does, when {@code from > to}.
   *
   * @param from the first index copied
   * @param to the index after the last one copied
   * @return the length of the copy, {@code to - from}
   */
  public static int checkRange(int from, int to) {
    if (from > to) {
      throw new IllegalArgumentException(from + " > " + to);
    }
    return to - from;
  }

  /**
   * The range check of {@code System.arraycopy}, which generated code writes as a loop: throws
   * an {@code ArrayIndexOutOfBoundsException}, as the library does, before anything is copied,
   * with the message HotSpot gives, checks in its order.
   *
   * @param elementType how the message names the arrays' elements: {@code "double"},
   *     {@code "float"}, {@code "int"}, or {@code "object array"} for the rows of a matrix
   * @param sourceLength the source array's length
   * @param sourceStart the first index read
   * @param targetLength the destination array's length
   * @param targetStart the first index written
   * @param count the number of elements
   * @return {@code count}
   */
  public static int checkCopy(String elementType, int sourceLength, int sourceStart,
      int targetLength, int targetStart, int count) {
    if (sourceStart < 0) {
      throw new ArrayIndexOutOfBoundsException("arraycopy: source index " + sourceStart
          + " out of bounds for " + elementType + "[" + sourceLength + "]");
    }
    if (targetStart < 0) {
      throw new ArrayIndexOutOfBoundsException("arraycopy: destination index " + targetStart
          + " out of bounds for " + elementType + "[" + targetLength + "]");
    }
    if (count < 0) {
      throw new ArrayIndexOutOfBoundsException("arraycopy: length " + count + " is negative");
    }
    if ((long) sourceStart + count > sourceLength) {
      throw new ArrayIndexOutOfBoundsException("arraycopy: last source index "
          + ((long) sourceStart + count) + " out of bounds for " + elementType + "["
          + sourceLength + "]");
    }
    if ((long) targetStart + count > targetLength) {
      throw new ArrayIndexOutOfBoundsException("arraycopy: last destination index "
          + ((long) targetStart + count) + " out of bounds for " + elementType + "["
          + targetLength + "]");
    }
    return count;
  }

  /** A zero array shared by all threads; only ever replaced by a longer one, never written. */
  private static volatile double[] zeros = new double[0];

  /** A matrix of zero rows shared by all threads, likewise; every row is one zero array. */
  private static volatile double[][] zeroRows = new double[0][];

  /** Per thread, where adjoints nobody reads are added (see {@link #discarded(int)}). */
  private static final ThreadLocal<double[]> DISCARDED =
      ThreadLocal.withInitial(() -> new double[0]);

  /**
   * The tangent of an array that carries no derivative, passed to a {@code @Differentiable}
   * callee whose parameter carries them: at least {@code length} zeros. The array is shared
   * and must never be written; generated code only reads a parameter's tangent.
   *
   * @param length the length of the array the zeros stand beside
   * @return an array of at least {@code length} zeros
   */
  public static double[] zeros(int length) {
    double[] shared = zeros;
    if (shared.length < length) {
      shared = new double[Math.max(length, 2 * shared.length)];
      zeros = shared;
    }
    return shared;
  }

  /**
   * As {@link #zeros(int)} for a matrix: at least as many rows as {@code m}, each of at least
   * the length of {@code m}'s longest row, all zeros.
   *
   * @param m the matrix the zeros stand beside
   * @return a matrix of zeros that covers {@code m}'s shape
   * @throws NullPointerException if {@code m} or one of its rows is null
   */
  public static double[][] zeros(double[][] m) {
    int longest = 0;
    for (double[] row : m) {
      longest = Math.max(longest, row.length);
    }
    double[][] shared = zeroRows;
    if (shared.length < m.length || shared.length > 0 && shared[0].length < longest
        || shared.length == 0 && longest > 0) {
      double[] row = zeros(longest);
      shared = new double[Math.max(m.length, shared.length)][];
      java.util.Arrays.fill(shared, row);
      zeroRows = shared;
    }
    return shared;
  }

  /**
   * Where a {@code @Differentiable} callee adds the adjoints of an array argument that carries
   * no derivative in the caller (a data row, a table): this thread's scratch array of at least
   * {@code length} elements, whose contents nobody reads. Grown when too short, then reused,
   * so that the call allocates nothing in the long run.
   *
   * @param length the number of slots the callee adds into
   * @return an array of at least {@code length} elements with meaningless contents
   */
  public static double[] discarded(int length) {
    double[] scratch = DISCARDED.get();
    if (scratch.length < length) {
      scratch = new double[Math.max(length, 2 * scratch.length)];
      DISCARDED.set(scratch);
    }
    return scratch;
  }
}
