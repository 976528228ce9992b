package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ad4j.runtime.GradientCheck;
import ad4j.runtime.internal.Tape;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The checkpointed RK4 integration ({@link LongIntegration#preyCheckpointed}) against the one
 * recording every step: the same value and the same gradient, bit for bit, at trip counts
 * below, at and above its 1024 snapshots; against finite differences; and its tape bounded.
 */
class LongIntegrationTest {
  private static final double[] P = {1.1, 0.4, 0.1, 0.4, 10, 10};

  @AfterEach
  void tapeIsEmpty() {
    assertEquals(0, Tape.current().size());
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 1023, 1024, 1025, 2049, 20_000})
  void checkpointedGradientIsTheFullTapesGradient(int steps) {
    double[] full = new double[6];
    double[] checkpointed = new double[6];
    double value = LongIntegrationGrad.preyValueAndGradient(P[0], P[1], P[2], P[3], P[4], P[5],
        steps, full);
    assertEquals(value, LongIntegrationGrad.preyCheckpointedValueAndGradient(P[0], P[1], P[2],
        P[3], P[4], P[5], steps, checkpointed));
    assertEquals(LongIntegration.prey(P[0], P[1], P[2], P[3], P[4], P[5], steps), value);
    assertArrayEquals(full, checkpointed);
    GradientCheck.check(p -> LongIntegration.preyCheckpointed(p[0], p[1], p[2], p[3], p[4],
        p[5], steps), P, checkpointed).assertWithin(1e-6);
  }

  @ParameterizedTest
  @ValueSource(ints = {1000, 300_000})
  void checkpointedTapeStaysSmall(int steps) throws InterruptedException {
    long[] bytes = new long[1];
    Thread thread = new Thread(() -> {
      LongIntegrationGrad.preyCheckpointedGradient(P[0], P[1], P[2], P[3], P[4], P[5], steps);
      bytes[0] = Tape.current().capacityBytes();
    });
    thread.start();
    thread.join();
    // at most 1024 snapshots and the states of one segment (at most 2 * 300000 / 1024
    // iterations), 3 values of 8 bytes each, in stacks at most twice as long as needed
    long bound = 2L * 3 * 8 * (1024 + 2 * 300_000 / 1024);
    assertTrue(bytes[0] <= bound, bytes[0] + " bytes of tape, more than " + bound);
  }
}
