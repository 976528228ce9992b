package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import ad4j.samples.bench.Polynomials;
import ad4j.samples.bench.PolynomialsGrad;
import org.junit.jupiter.api.Test;

/**
 * The polynomial benchmark functions of two inputs: gradients against the analytic ones and
 * finite differences of the user's method, and forward mode against reverse mode.
 */
class PolynomialsTest {
  private static final double[][] POINTS = {{1.2, 0.8}, {3, 0.5}, {-0.7, 1.9}, {0.3, -0.7}};

  @Test
  void bealeGradientIsAnalytic() {
    for (double[] p : POINTS) {
      double x = p[0];
      double y = p[1];
      double a = 1.5 - x + x * y;
      double b = 2.25 - x + x * y * y;
      double c = 2.625 - x + x * y * y * y;
      double[] gradient = new double[2];
      double value = PolynomialsGrad.bealeValueAndGradient(x, y, gradient);
      assertEquals(Polynomials.beale(x, y), value);
      double scale = 1 + Math.abs(gradient[0]) + Math.abs(gradient[1]);
      assertEquals(2 * a * (y - 1) + 2 * b * (y * y - 1) + 2 * c * (y * y * y - 1), gradient[0],
          1e-13 * scale);
      assertEquals(2 * a * x + 4 * b * x * y + 6 * c * x * y * y, gradient[1], 1e-13 * scale);
      GradientCheck.check(q -> Polynomials.beale(q[0], q[1]), p, gradient).assertWithin(1e-8);
      assertForwardMatchesReverse(gradient, PolynomialsGrad.bealeTangent(x, y, 0.3, -1.1),
          0.3, -1.1, value);
    }
  }

  @Test
  void goldsteinPriceGradientMatchesFiniteDifferencesAndForwardMode() {
    for (double[] p : POINTS) {
      double[] gradient = new double[2];
      double value = PolynomialsGrad.goldsteinPriceValueAndGradient(p[0], p[1], gradient);
      assertEquals(Polynomials.goldsteinPrice(p[0], p[1]), value);
      GradientCheck.check(q -> Polynomials.goldsteinPrice(q[0], q[1]), p, gradient)
          .assertWithin(1e-8);
      assertForwardMatchesReverse(gradient,
          PolynomialsGrad.goldsteinPriceTangent(p[0], p[1], 0.3, -1.1), 0.3, -1.1, value);
    }
    // at the minimum (0, -1) the gradient vanishes
    double[] gradient = PolynomialsGrad.goldsteinPriceGradient(0, -1);
    assertEquals(0, gradient[0], 1e-12);
    assertEquals(0, gradient[1], 1e-12);
  }

  /**
   * The dot-product test: the tangent along v equals the reverse gradient times v, to rounding
   * relative to the function's size (near a minimum the partials' terms cancel).
   */
  private static void assertForwardMatchesReverse(double[] gradient, double tangent, double vx,
      double vy, double value) {
    double dot = gradient[0] * vx + gradient[1] * vy;
    assertEquals(dot, tangent, 1e-13 * (1 + Math.abs(dot) + Math.abs(value)));
  }
}
