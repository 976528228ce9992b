package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import org.junit.jupiter.api.Test;

/**
 * The quadrature and ODE sample: templates taking lambdas that capture the differentiated
 * parameters. Their gradients against the analytic derivatives of the exact integral and
 * solution (the methods' own errors, Simpson's and Runge-Kutta's, are far below the tolerances),
 * against extrapolated differences of the methods themselves, and forward against reverse mode.
 */
class QuadratureTest {
  @Test
  void integralGradientMatchesTheAnalyticDerivative() {
    double[][] points = {{0.8, 2.5}, {0.1, 0.3}, {2.0, 5.0}};
    for (double[] p : points) {
      double[] gradient = QuadratureGrad.dampedCosineGradient(p[0], p[1]);
      double[] exact = Quadrature.dampedCosineExactGradient(p[0], p[1]);
      assertEquals(exact[0], gradient[0], 1e-8);
      assertEquals(exact[1], gradient[1], 1e-8);
      GradientCheck.check(x -> Quadrature.dampedCosine(x[0], x[1]), p, gradient)
          .assertWithin(1e-8);
    }
  }

  @Test
  void odeGradientMatchesTheAnalyticSensitivities() {
    double k = 1.7;
    double y0 = 2.0;
    double[] gradient = QuadratureGrad.decayGradient(k, y0);
    // y(1) = y0 exp(-k)
    assertEquals(-y0 * Math.exp(-k), gradient[0], 1e-9);
    assertEquals(Math.exp(-k), gradient[1], 1e-9);
    GradientCheck.check(x -> Quadrature.decay(x[0], x[1]), new double[] {k, y0}, gradient)
        .assertWithin(1e-8);
  }

  @Test
  void forwardModeAgreesWithReverseModeAndValuesAreTheMethods() {
    double[] g = new double[2];
    assertEquals(Quadrature.dampedCosine(0.8, 2.5),
        QuadratureGrad.dampedCosineValueAndGradient(0.8, 2.5, g), 0.0);
    assertEquals(0.3 * g[0] - 0.7 * g[1],
        QuadratureGrad.dampedCosineTangent(0.8, 2.5, 0.3, -0.7), 1e-13);
    assertEquals(Quadrature.decay(1.7, 2.0), QuadratureGrad.decayValueAndGradient(1.7, 2.0, g),
        0.0);
    assertEquals(-0.4 * g[0] + 1.1 * g[1], QuadratureGrad.decayTangent(1.7, 2.0, -0.4, 1.1),
        1e-13);
  }
}
