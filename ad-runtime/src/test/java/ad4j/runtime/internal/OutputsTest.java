package ad4j.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
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
}
