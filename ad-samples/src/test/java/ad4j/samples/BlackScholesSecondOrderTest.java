package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Gamma, vanna and volga of the order-2 Black-Scholes price from one generated Hessian: against
 * the closed forms, against central differences of the generated gradient, and the Hessian's
 * symmetry and Hessian-vector product.
 */
class BlackScholesSecondOrderTest {

  /** Random contracts over the same ranges as {@link BlackScholesTest}. */
  private static double[] contract(Random random) {
    return new double[] {50 + 100 * random.nextDouble(), 50 + 100 * random.nextDouble(),
        0.05 + 3 * random.nextDouble(), -0.02 + 0.12 * random.nextDouble(),
        0.05 + 0.75 * random.nextDouble()};
  }

  @Test
  void gammaVannaVolgaMatchHighPrecisionReference() {
    // {S, K, T, r, sigma, gamma, vanna, volga}: mpmath at 40 digits, second derivatives ({@code
    // diff}) of the price with the exact normal distribution function
    double[][] reference = {
      {100, 95, 0.75, 0.03, 0.25, 0.016658842087595421608, -0.33554769075905125172,
        13.050227410964280862},
      {80, 100, 2, 0.05, 0.4, 0.0087967712972432272656, 0.49814981304007104174,
        -3.6720066044294785622},
    };
    for (double[] row : reference) {
      BlackScholes.SecondOrderGreeks ad =
          BlackScholes.SecondOrderGreeks.byAd(row[0], row[1], row[2], row[3], row[4]);
      assertEquals(row[5], ad.gamma(), 1e-13 * Math.abs(row[5]), "gamma");
      assertEquals(row[6], ad.vanna(), 1e-13 * Math.abs(row[6]), "vanna");
      assertEquals(row[7], ad.volga(), 1e-13 * Math.abs(row[7]), "volga");
    }
  }

  @Test
  void gammaVannaVolgaMatchTheClosedForms() {
    Random random = new Random(4);
    for (int k = 0; k < 500; k++) {
      double[] p = contract(random);
      BlackScholes.SecondOrderGreeks ad =
          BlackScholes.SecondOrderGreeks.byAd(p[0], p[1], p[2], p[3], p[4]);
      BlackScholes.SecondOrderGreeks cf =
          BlackScholes.SecondOrderGreeks.closedForm(p[0], p[1], p[2], p[3], p[4]);
      String at = java.util.Arrays.toString(p);
      // The generated Hessian differentiates the approximation of N twice, whose density is off
      // the exact one by about 1e-14 relative, while the closed forms rely on the exact identity
      // K e^(-rT) φ(d2) = S φ(d1). The two differ by that much of the separate terms of each
      // second derivative, which carry up to two factors d1, d2 or 1/(σ√T) (from ∂d1/∂S and
      // ∂d1/∂σ) and so can be far larger than the Greek: the bound is 1e-13 of the Greek's
      // natural unit times (1 + |d1| + |d2| + 1/(σ√T))². Far in the tails, where φ(d1) itself
      // carries the relative rounding error d1²/2 · 1.1e-16 of exp(-d1²/2) and the Greeks are
      // below 1e-100, the absolute floor of 1e-15 decides.
      double sqrtT = Math.sqrt(p[2]);
      double d1 = (Math.log(p[0] / p[1]) + (p[3] + 0.5 * p[4] * p[4]) * p[2]) / (p[4] * sqrtT);
      double d2 = d1 - p[4] * sqrtT;
      double factors = 1 + Math.abs(d1) + Math.abs(d2) + 1 / (p[4] * sqrtT);
      double growth = factors * factors;
      double density = BlackScholes.pdf(d1);
      assertEquals(cf.gamma(), ad.gamma(),
          1e-13 * growth * density / (p[0] * p[4] * sqrtT) + 1e-15, at + " gamma");
      assertEquals(cf.vanna(), ad.vanna(), 1e-13 * growth * density / p[4] + 1e-15, at + " vanna");
      assertEquals(cf.volga(), ad.volga(), 1e-13 * growth * p[0] * density * sqrtT / p[4] + 1e-15,
          at + " volga");
    }
  }

  @Test
  void hessianMatchesCentralDifferencesOfTheGeneratedGradient() {
    Random random = new Random(5);
    for (int k = 0; k < 100; k++) {
      double[] p = contract(random);
      double[][] h = BlackScholesGrad.callPriceHessian(p[0], p[1], p[2], p[3], p[4]);
      double scale = 0;
      for (double[] row : h) {
        for (double entry : row) {
          scale = Math.max(scale, Math.abs(entry));
        }
      }
      for (int j = 0; j < 5; j++) {
        double[] column = gradientDifference(p, j);
        for (int i = 0; i < 5; i++) {
          assertEquals(column[i], h[i][j], 1e-6 * scale,
              java.util.Arrays.toString(p) + " entry " + i + ", " + j);
        }
      }
    }
  }

  @Test
  void hessianIsSymmetricAndHessianVectorIsItsProduct() {
    Random random = new Random(6);
    for (int k = 0; k < 100; k++) {
      double[] p = contract(random);
      double[][] h = BlackScholesGrad.callPriceHessian(p[0], p[1], p[2], p[3], p[4]);
      double[] v = new double[5];
      for (int i = 0; i < 5; i++) {
        v[i] = random.nextGaussian();
      }
      double[] hv = BlackScholesGrad.callPriceHessianVector(p[0], p[1], p[2], p[3], p[4], v);
      for (int i = 0; i < 5; i++) {
        double expected = 0;
        double size = 0;
        for (int j = 0; j < 5; j++) {
          assertEquals(Double.doubleToRawLongBits(h[i][j]), Double.doubleToRawLongBits(h[j][i]));
          expected += h[i][j] * v[j];
          size += Math.abs(h[i][j] * v[j]);
        }
        // two different sweeps (unit directions, then v) round differently; inside them the
        // partials cancel terms far larger than the entries, so the bound is 1e-12 of the
        // row's size, not a few ulps (the worst of these 100 rows: 8.0e-14 before the adjoint
        // sums were factored by their common factors, 1.02e-13 after)
        assertEquals(expected, hv[i], 1e-12 * size, "row " + i);
      }
    }
  }

  /**
   * Column {@code j} of the Hessian by fourth-order central differences of the generated
   * gradient, with a step relative to the coordinate.
   */
  private static double[] gradientDifference(double[] p, int j) {
    double h = 1e-4 * Math.abs(p[j]);
    double[] m2 = gradientAt(p, j, -2 * h);
    double[] m1 = gradientAt(p, j, -h);
    double[] p1 = gradientAt(p, j, h);
    double[] p2 = gradientAt(p, j, 2 * h);
    double[] column = new double[5];
    for (int i = 0; i < 5; i++) {
      column[i] = (m2[i] - 8 * m1[i] + 8 * p1[i] - p2[i]) / (12 * h);
    }
    return column;
  }

  private static double[] gradientAt(double[] p, int j, double step) {
    double[] q = p.clone();
    q[j] += step;
    return BlackScholesGrad.callPriceGradient(q[0], q[1], q[2], q[3], q[4]);
  }
}
