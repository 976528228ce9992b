package ad4j.runtime.internal;

/**
 * The checks generated members make before they write an output array: that it is none of the
 * arrays they read. {@code fValueAndGradient(x, x)} would clear the gradient, and so {@code x},
 * before the sweep reads {@code x}; a row of a Jacobian or Hessian that is an argument would
 * be overwritten while the sweeps read it; and a matrix output whose rows are not distinct
 * arrays would end with one row's derivatives in both. Such a call throws instead of returning
 * numbers that are not the derivative.
 *
 * <p>This class is public because generated code calls it; it is not meant for direct use.
 */
public final class Outputs {
  private Outputs() {}

  /**
   * Whether {@code array} is one of the rows of {@code matrix} (the same array, not equal
   * contents).
   *
   * @param array an array, or null
   * @param matrix a matrix whose rows may be null
   * @return whether a row of {@code matrix} is {@code array}
   * @throws NullPointerException if {@code matrix} is null
   */
  public static boolean isRowOf(double[] array, double[][] matrix) {
    for (double[] row : matrix) {
      if (row == array && array != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code a} and {@code b} are the same matrix or have a row in common (the same
   * array).
   *
   * @param a a matrix whose rows may be null
   * @param b a matrix whose rows may be null
   * @return whether they share a row
   * @throws NullPointerException if {@code a} or {@code b} is null
   */
  public static boolean sharesRow(double[][] a, double[][] b) {
    if (a == b) {
      return a.length > 0;
    }
    for (double[] row : a) {
      if (row != null && isRowOf(row, b)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Throws unless the first {@code rows} rows of {@code matrix} are distinct arrays: a member
   * writes each row of a Jacobian or Hessian with its own derivatives, and a row that is also
   * another row would end with the other's. Without a set of the rows (which would allocate)
   * and without comparing every pair (quadratic in a Jacobian's rows): each row's first element
   * is set to its index and read back, so a row that is also a later row holds the later one's.
   * Only those first elements are written, of an output the caller clears next.
   *
   * @param matrix the output; its first {@code rows} rows are not null and, when {@code columns}
   *     is positive, at least {@code columns} long
   * @param rows the number of rows the member writes
   * @param columns the number of elements it writes in each row; none: nothing is checked
   * @param member the generated member, for the message ({@code "FGrad.fValueAndJacobian"})
   * @param name the output's parameter name, for the message
   * @throws IllegalArgumentException naming two rows that are one array
   */
  public static void checkDistinctRows(double[][] matrix, int rows, int columns, String member,
      String name) {
    if (columns == 0) {
      return; // nothing is written in a row, so rows that are one array receive nothing
    }
    for (int i = 0; i < rows; i++) {
      matrix[i][0] = i;
    }
    for (int i = 0; i < rows; i++) {
      double index = matrix[i][0];
      if (index != i) {
        throw new IllegalArgumentException(member + ": rows " + i + " and " + (int) index
            + " of '" + name + "' are the same array; pass a matrix of distinct rows");
      }
    }
  }
}
