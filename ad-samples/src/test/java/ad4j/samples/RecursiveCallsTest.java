package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import ad4j.runtime.internal.Tape;
import ad4j.samples.bench.RecursiveCalls;
import ad4j.samples.bench.RecursiveCallsGrad;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The recursion and the loop of helper calls that {@code RecursiveCallsBench} measures. */
class RecursiveCallsTest {
  @AfterEach
  void tapeIsEmpty() {
    assertEquals(0, Tape.current().size());
  }

  /** Depth 1,000: the recurrence's derivative, carried alongside it by hand. */
  @Test
  void nestedGradientIsTheRecurrencesDerivative() {
    double x = 0.4;
    double a = 0.9;
    int depth = 1000;
    double v = x;
    double dx = 1;
    double da = 0;
    for (int k = 1; k <= depth; k++) {
      double c = a * Math.cos(v);
      dx = c * dx + 0.5;
      da = c * da + Math.sin(v);
      v = a * Math.sin(v) + 0.5 * x;
    }
    double[] gradient = new double[2];
    assertEquals(RecursiveCalls.nested(x, a, depth),
        RecursiveCallsGrad.nestedValueAndGradient(x, a, depth, gradient));
    assertEquals(dx, gradient[0], 1e-12);
    assertEquals(da, gradient[1], 1e-12);
    double[] adjoints = {1, -1};
    RecursiveCallsGrad.nestedPullback(x, a, depth, 0.5, adjoints);
    assertEquals(1 + 0.5 * dx, adjoints[0], 1e-12);
    assertEquals(-1 + 0.5 * da, adjoints[1], 1e-12);
  }

  @Test
  void helperLoopGradientMatchesFiniteDifferencesAndForwardMode() {
    double[] p = {0.6, 0.2};
    double[] gradient = new double[2];
    assertEquals(RecursiveCalls.helperLoop(p[0], p[1]),
        RecursiveCallsGrad.helperLoopValueAndGradient(p[0], p[1], gradient));
    GradientCheck.check(q -> RecursiveCalls.helperLoop(q[0], q[1]), p, gradient)
        .assertWithin(1e-8);
    assertEquals(0.3 * gradient[0] - 0.7 * gradient[1],
        RecursiveCallsGrad.helperLoopTangent(p[0], p[1], 0.3, -0.7), 1e-13);
  }
}
