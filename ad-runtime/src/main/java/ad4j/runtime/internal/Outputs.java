package ad4j.runtime.internal;

/**
 * The checks generated members make before they write an output array: that it is none of the
 * arrays they read. {@code fValueAndGradient(x, x)} would clear the gradient, and so {@code x},
 * before the sweep reads {@code x}; a row of a Jacobian or Hessian that is an argument would
 * be overwritten while the sweeps read it. Such a call throws instead of returning numbers
 * that are not the derivative.
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
}
