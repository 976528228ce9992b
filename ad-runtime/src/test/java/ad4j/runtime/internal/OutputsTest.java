package ad4j.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OutputsTest {
  @Test
  void anArrayIsARowOnlyWhereTheMatrixHoldsThatVeryArray() {
    double[] x = {1, 2};
    assertTrue(Outputs.isRowOf(x, new double[][] {{0, 0}, x}));
    assertFalse(Outputs.isRowOf(x, new double[][] {{1, 2}, null})); // equal contents only
    assertFalse(Outputs.isRowOf(null, new double[][] {null}));
    assertFalse(Outputs.isRowOf(x, new double[0][]));
  }

  @Test
  void matricesShareARowWhereOneArrayIsInBoth() {
    double[] r = {3};
    double[][] m = {{1}, r};
    assertTrue(Outputs.sharesRow(new double[][] {r}, m));
    assertTrue(Outputs.sharesRow(m, m));
    assertFalse(Outputs.sharesRow(new double[][] {{3}, null}, m));
    assertFalse(Outputs.sharesRow(new double[0][], new double[0][]));
  }

  @Test
  void rowsThatAreOneArrayAreNamed() {
    double[] r = {5, 5};
    double[][] repeated = {{1, 1}, r, {2, 2}, r};
    IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
        () -> Outputs.checkDistinctRows(repeated, 4, 2, "FGrad.fValueAndJacobian", "jacobian"));
    assertEquals("FGrad.fValueAndJacobian: rows 1 and 3 of 'jacobian' are the same array;"
        + " pass a matrix of distinct rows", thrown.getMessage());
    // rows past the ones written, and rows of which nothing is written, are not compared
    Outputs.checkDistinctRows(repeated, 3, 2, "FGrad.fValueAndJacobian", "jacobian");
    double[] empty = {};
    Outputs.checkDistinctRows(new double[][] {empty, empty}, 2, 0, "FGrad.f", "jacobian");
    // distinct rows with equal contents pass, and only their first elements are written
    double[][] distinct = {{7, 7}, {7, 7}, {7, 7}};
    Outputs.checkDistinctRows(distinct, 3, 2, "FGrad.f", "hessian");
    assertEquals(7, distinct[2][1]);
  }
}
