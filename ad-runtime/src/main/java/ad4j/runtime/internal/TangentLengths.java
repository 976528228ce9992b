package ad4j.runtime.internal;

/**
 * The checks of a generated tangent member ({@code mTangent}) on its tangent arrays: each must be
 * at least as long as the array it goes with ({@code aDot} as {@code a}; a matrix's as many rows,
 * each at least as long as that row), else the forward sweep, which reads {@code aDot[i]} where
 * the method reads {@code a[i]}, would throw an index exception, or nothing where the method
 * reads only some elements. A longer tangent is fine: callers' generated code passes shared
 * zeros of at least the length. A null array or row is no length to check: the sweep reads it
 * where the method reads the array, and throws there as the method does, or nowhere.
 *
 * <p>This class is public because generated code calls it; it is not meant for direct use.
 */
public final class TangentLengths {
  private TangentLengths() {}

  /**
   * Checks that {@code tangent} is at least as long as {@code array}.
   *
   * @param tangent the tangent argument
   * @param array the array argument it goes with
   * @param member the generated member, as messages name it ({@code FooGrad.fTangent})
   * @param tangentName the tangent parameter's name
   * @param arrayName the array parameter's name
   * @throws IllegalArgumentException if both are not null and {@code tangent} is shorter
   */
  public static void check(double[] tangent, double[] array, String member, String tangentName,
      String arrayName) {
    if (tangent != null && array != null && tangent.length < array.length) {
      throw tooShort(member, tangentName, tangent.length, array.length, arrayName);
    }
  }

  /**
   * Checks that {@code tangent} is at least as long as {@code array}.
   *
   * @param tangent the tangent argument
   * @param array the array argument it goes with
   * @param member the generated member, as messages name it ({@code FooGrad.fTangent})
   * @param tangentName the tangent parameter's name
   * @param arrayName the array parameter's name
   * @throws IllegalArgumentException if both are not null and {@code tangent} is shorter
   */
  public static void check(double[] tangent, float[] array, String member, String tangentName,
      String arrayName) {
    if (tangent != null && array != null && tangent.length < array.length) {
      throw tooShort(member, tangentName, tangent.length, array.length, arrayName);
    }
  }

  /**
   * Checks that {@code tangent} has at least as many rows as {@code matrix}, and that each of its
   * rows is at least as long as that row of {@code matrix}.
   *
   * @param tangent the tangent argument
   * @param matrix the matrix argument it goes with, rows of any length
   * @param member the generated member, as messages name it ({@code FooGrad.fTangent})
   * @param tangentName the tangent parameter's name
   * @param matrixName the matrix parameter's name
   * @throws IllegalArgumentException if both are not null and {@code tangent} has fewer rows,
   *     or a row of each is not null and the tangent's is shorter
   */
  public static void check(double[][] tangent, double[][] matrix, String member,
      String tangentName, String matrixName) {
    if (tangent == null || matrix == null) {
      return;
    }
    if (tangent.length < matrix.length) {
      throw new IllegalArgumentException(member + ": '" + tangentName + "' has " + tangent.length
          + " rows, needs " + matrix.length + " (one per row of '" + matrixName + "')");
    }
    for (int row = 0; row < matrix.length; row++) {
      if (tangent[row] != null && matrix[row] != null
          && tangent[row].length < matrix[row].length) {
        throw new IllegalArgumentException(member + ": row " + row + " of '" + tangentName
            + "' has length " + tangent[row].length + ", needs " + matrix[row].length
            + " (one per element of row " + row + " of '" + matrixName + "')");
      }
    }
  }

  private static IllegalArgumentException tooShort(String member, String tangentName,
      int length, int needs, String arrayName) {
    return new IllegalArgumentException(member + ": '" + tangentName + "' has length " + length
        + ", needs " + needs + " (one per element of '" + arrayName + "')");
  }
}
