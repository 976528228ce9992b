package ad4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The arrays generated code passes for arguments that carry no derivative. */
class SlotsTest {
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
