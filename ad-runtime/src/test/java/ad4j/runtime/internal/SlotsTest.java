package ad4j.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The helpers that generated code calls for {@code @DerivativeOf} rules returning arrays:
 * what each adds where, against sums written out by hand, and the error for a rule's array of
 * another shape; and the arrays it passes for arguments that carry no derivative.
 */
class SlotsTest {
  @Test
  void theWithinFormsReadOnlyThePrefixOfALongerAdjointArray() {
    // adjoints of a result of 2 elements, in an array as long as the longest result (4)
    double[] seed = {3, -2, 0, 0};
    assertEquals(2 * 3 + 5 * -2, Slots.dotWithin(new double[] {2, 5}, seed));
    double[] to = {0, 10, 10, 10};
    assertEquals(3, Slots.addTransposedWithin(new double[][] {{1, 2, 3}, {4, 5, 6}},
        new double[3], seed, to, 1));
    assertArrayEquals(new double[] {0, 10 + 3 - 8, 10 + 6 - 10, 10 + 9 - 12}, to);
    double[] adjoint = {1, 1};
    assertEquals(2, Slots.seedWithin(seed, adjoint));
    assertArrayEquals(new double[] {4, -1}, adjoint);
    double[] copy = {0, 0, 0};
    assertEquals(2, Slots.addIntoWithin(new double[] {7, 8}, copy, 1));
    assertArrayEquals(new double[] {0, 7, 8}, copy);
    assertEquals(4, Slots.clear(seed));
    assertArrayEquals(new double[4], seed);
  }

  @Test
  void theWithinFormsRejectARuleOrAResultLongerThanTheAdjoints() {
    double[] seed = new double[2];
    IllegalArgumentException dot = assertThrows(IllegalArgumentException.class,
        () -> Slots.dotWithin(new double[3], seed));
    assertEquals("a @DerivativeOf rule returned 3 elements where at most 2 are needed: one"
        + " partial derivative per element", dot.getMessage());
    double[] to = {5, 5};
    assertThrows(IllegalArgumentException.class, () -> Slots.addTransposedWithin(
        new double[][] {{1, 1}, {1}}, new double[2], seed, to, 0));
    assertArrayEquals(new double[] {5, 5}, to);
    IllegalArgumentException result = assertThrows(IllegalArgumentException.class,
        () -> Slots.seedWithin(seed, new double[3]));
    assertEquals("'seed' has length 2, the result has 3 elements: one seed per element",
        result.getMessage());
  }

  @Test
  void addScaledAddsTheSeedTimesEachPartialFromTheStartSlotOn() {
    double[] to = {1, 1, 1, 1, 1};
    assertEquals(3, Slots.addScaled(new double[] {2, -1, 0.5}, new double[3], 4, to, 1));
    assertArrayEquals(new double[] {1, 9, -3, 3, 1}, to);
  }

  @Test
  void addScaledOfAMatrixWalksItsRowsInOrder() {
    double[] to = new double[5];
    double[][] partial = {{1, 2}, {}, {3, 4, 5}};
    double[][] argument = {{0, 0}, {}, {0, 0, 0}};
    assertEquals(5, Slots.addScaled(partial, argument, -2, to, 0));
    assertArrayEquals(new double[] {-2, -4, -6, -8, -10}, to);
  }

  @Test
  void dotSumsTheProductsOfAllElements() {
    assertEquals(2 * 0.5 - 3 * 4, Slots.dot(new double[] {2, -3}, new double[] {0.5, 4}));
    assertEquals(1 * 2 + 3 * 4 + 5 * 6, Slots.dot(new double[][] {{1}, {3, 5}},
        new double[][] {{2}, {4, 6}}));
  }

  @Test
  void addTransposedAddsTheSeedTimesTheMatrixToTheArgumentsSlots() {
    double[][] partial = {{1, 2, 3}, {4, 5, 6}}; // two results, three elements
    double[] to = {0, 10, 10, 10};
    assertEquals(3, Slots.addTransposed(partial, new double[3], new double[] {2, -1}, to, 1));
    assertArrayEquals(new double[] {0, 10 + 2 - 4, 10 + 4 - 5, 10 + 6 - 6}, to);
  }

  @Test
  void addProductAddsTheMatrixTimesTheTangent() {
    double[] to = {1, 1};
    assertEquals(2, Slots.addProduct(new double[][] {{1, 2}, {3, 4}}, new double[] {-1, 2}, to));
    assertArrayEquals(new double[] {1 + 3, 1 + 5}, to);
  }

  @Test
  void aRulesArrayOfAnotherShapeIsRejectedBeforeAnythingIsAdded() {
    double[] to = new double[4];
    IllegalArgumentException tooShort = assertThrows(IllegalArgumentException.class,
        () -> Slots.addScaled(new double[2], new double[3], 1, to, 0));
    assertEquals("a @DerivativeOf rule returned 2 elements where 3 are needed: one partial"
        + " derivative per element", tooShort.getMessage());
    IllegalArgumentException row = assertThrows(IllegalArgumentException.class,
        () -> Slots.addTransposed(new double[][] {{1, 2}, {3}}, new double[2],
            new double[2], to, 0));
    assertEquals("a @DerivativeOf rule returned 1 elements in row 1 where 2 are needed: one"
        + " partial derivative per element", row.getMessage());
    IllegalArgumentException rows = assertThrows(IllegalArgumentException.class,
        () -> Slots.addProduct(new double[][] {{1}}, new double[1], new double[2]));
    assertEquals("a @DerivativeOf rule returned 1 rows where 2 are needed: one partial"
        + " derivative per element", rows.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Slots.dot(new double[][] {{1, 2}}, new double[][] {{1}}));
    assertThrows(IllegalArgumentException.class, () -> Slots.addScaled(
        new double[][] {{1, 2}, {3}}, new double[][] {{0, 0}, {0, 0}}, 1, to, 0));
    assertArrayEquals(new double[4], to);
  }

  @Test
  void zerosAreLongEnoughAndZero() {
    double[] zeros = Slots.zeros(37);

    assertTrue(zeros.length >= 37);
    for (double z : zeros) {
      assertEquals(0.0, z);
    }
    assertSame(zeros, Slots.zeros(5)); // shared, not made again for a shorter request
  }

  @Test
  void zeroMatrixCoversEveryRowOfAJaggedMatrix() {
    double[][] m = {{1, 2, 3}, {}, {4, 5, 6, 7, 8}, {9}};

    double[][] zeros = Slots.zeros(m);

    assertTrue(zeros.length >= m.length);
    for (int i = 0; i < m.length; i++) {
      assertTrue(zeros[i].length >= m[i].length, "row " + i);
      for (int j = 0; j < m[i].length; j++) {
        assertEquals(0.0, zeros[i][j]);
      }
    }
    double[][] wider = Slots.zeros(new double[][] {new double[20]});
    assertTrue(wider[0].length >= 20);
  }

  @Test
  void discardedIsLongEnoughReusedAndOwnedByItsThread() throws InterruptedException {
    double[] scratch = Slots.discarded(100);
    assertTrue(scratch.length >= 100);
    assertSame(scratch, Slots.discarded(10));
    assertTrue(Slots.discarded(1000).length >= 1000);

    AtomicReference<double[]> other = new AtomicReference<>();
    Thread thread = new Thread(() -> other.set(Slots.discarded(10)));
    thread.start();
    thread.join();
    assertNotSame(Slots.discarded(10), other.get());
  }
}
