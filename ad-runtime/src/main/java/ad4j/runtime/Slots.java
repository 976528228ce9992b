package ad4j.runtime;

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
}
