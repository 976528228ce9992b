package ad4j.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The checks of a tangent member's tangent arrays: shorter than the array (fewer rows, a shorter
 * row) is an error naming both; as long or longer is fine; a null array or row is left alone,
 * for the sweep to throw where the method reads it.
 */
class TangentLengthsTest {
  private static final String MEMBER = "FooGrad.fTangent";

  @Test
  void aShorterTangentIsAnErrorNamingBothLengths() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TangentLengths.check(new double[2], new double[3], MEMBER, "aDot", "a"));
    assertEquals("FooGrad.fTangent: 'aDot' has length 2, needs 3 (one per element of 'a')",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> TangentLengths.check(new double[0], new float[1], MEMBER, "qDot", "q"));
    assertEquals("FooGrad.fTangent: 'qDot' has length 0, needs 1 (one per element of 'q')",
        e.getMessage());
  }

  @Test
  void aMatrixsTangentNeedsItsRowsEachAsLong() {
    double[][] m = {{1, 2}, {3}, {}};
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TangentLengths.check(new double[2][2], m, MEMBER, "mDot", "m"));
    assertEquals("FooGrad.fTangent: 'mDot' has 2 rows, needs 3 (one per row of 'm')",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> TangentLengths.check(
        new double[][] {{0, 0}, {}, {}}, m, MEMBER, "mDot", "m"));
    assertEquals("FooGrad.fTangent: row 1 of 'mDot' has length 0, needs 1 (one per element of"
        + " row 1 of 'm')", e.getMessage());
  }

  @Test
  void longerTangentsAndNullsPass() {
    assertDoesNotThrow(() -> TangentLengths.check(new double[4], new double[3], MEMBER, "a", "b"));
    assertDoesNotThrow(() -> TangentLengths.check(null, new double[3], MEMBER, "a", "b"));
    assertDoesNotThrow(() -> TangentLengths.check(new double[0], (double[]) null, MEMBER, "a",
        "b"));
    assertDoesNotThrow(() -> TangentLengths.check(new double[1], (float[]) null, MEMBER, "a",
        "b"));
    assertDoesNotThrow(() -> TangentLengths.check(new double[][] {{0, 0, 0}, {0}, null},
        new double[][] {{1, 2}, null, {1, 2, 3}}, MEMBER, "mDot", "m"));
    assertDoesNotThrow(() -> TangentLengths.check((double[][]) null, new double[2][2], MEMBER,
        "mDot", "m"));
  }
}
