package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.runtime.GradientCheck;
import ad4j.runtime.internal.Tape;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The RK4 integration of Lotka-Volterra, differentiated through 1,000 loop iterations: against
 * finite differences of the user's method, forward against reverse, value bit for bit; and the
 * tape left empty by every call.
 */
class ControlFlowTest {
  @AfterEach
  void tapeIsEmpty() {
    assertEquals(0, Tape.current().size());
  }

  private static double prey(double[] p) {
    return ControlFlow.finalPrey(p[0], p[1], p[2], p[3], p[4], p[5]);
  }

  private static double[] point(Random random) {
    return new double[] {
        1 + 0.2 * random.nextDouble(), 0.3 + 0.2 * random.nextDouble(),
        0.08 + 0.04 * random.nextDouble(), 0.3 + 0.2 * random.nextDouble(),
        8 + 4 * random.nextDouble(), 8 + 4 * random.nextDouble()};
  }

  @Test
  void rk4GradientMatchesFiniteDifferencesAndTheTangent() {
    Random random = new Random(11);
    for (int n = 0; n < 4; n++) {
      double[] p = point(random);
      double[] gradient = new double[6];
      double value = ControlFlowGrad.finalPreyValueAndGradient(p[0], p[1], p[2], p[3], p[4],
          p[5], gradient);
      assertEquals(Double.doubleToRawLongBits(prey(p)), Double.doubleToRawLongBits(value));
      GradientCheck.check(ControlFlowTest::prey, p, gradient).assertWithin(1e-8);

      double[] d = {0.3, -0.2, 0.1, 0.5, -0.7, 0.4};
      double tangent = ControlFlowGrad.finalPreyTangent(p[0], p[1], p[2], p[3], p[4], p[5],
          d[0], d[1], d[2], d[3], d[4], d[5]);
      double dot = 0;
      for (int i = 0; i < 6; i++) {
        dot += gradient[i] * d[i];
      }
      assertEquals(dot, tangent, 1e-12 * Math.max(1, Math.abs(dot)));

      double[] adjoints = {1, 2, 3, 4, 5, 6};
      ControlFlowGrad.finalPreyPullback(p[0], p[1], p[2], p[3], p[4], p[5], -2, adjoints);
      for (int i = 0; i < 6; i++) {
        assertEquals(i + 1 - 2 * gradient[i], adjoints[i], 1e-12 * Math.abs(gradient[i]) + 1e-12);
      }
    }
  }

  @Test
  void newtonSqrtChecksItsArgumentInEveryMember() {
    IllegalArgumentException primal =
        assertThrows(IllegalArgumentException.class, () -> ControlFlow.newtonSqrt(-1));
    IllegalArgumentException gradient =
        assertThrows(IllegalArgumentException.class, () -> ControlFlowGrad.newtonSqrtGradient(-1));
    IllegalArgumentException tangent = assertThrows(IllegalArgumentException.class,
        () -> ControlFlowGrad.newtonSqrtTangent(-1, 1));
    assertEquals(primal.getMessage(), gradient.getMessage());
    assertEquals(primal.getMessage(), tangent.getMessage());
  }
}
