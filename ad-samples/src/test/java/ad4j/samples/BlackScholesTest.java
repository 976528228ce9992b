package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Black-Scholes: the inline normal distribution function, and the Greeks of one generated
 * gradient against the closed form and against 40-digit reference values.
 *
 * <p>Reference values were computed with mpmath at 40 significant digits ({@code ncdf}, and
 * {@code diff} of the price for the Greeks).
 */
class BlackScholesTest {

  /** {x, N(x)} from mpmath. */
  private static final double[][] CDF_REFERENCE = {
    {-30, 4.9067139271481870595e-198},
    {-8, 6.2209605742717841235e-16},
    {-3, 0.0013498980316300945267},
    {-1.5, 0.066807201268858066004},
    {-0.5, 0.30853753872598689636},
    {0, 0.5},
    {0.3, 0.61791142218895263731},
    {1, 0.84134474606854294859},
    {2.5, 0.99379033467422386483},
    {6, 0.99999999901341235496},
    {9, 0.99999999999999999989},
  };

  @Test
  void normCdfIsAccurateToAFewUlps() {
    // The bound grows with x²: exp(-x²/2) turns the rounding of x²/2 (relative 1.1e-16) into a
    // relative error of about x²/2 · 1.1e-16 in the tail, whatever the approximation.
    for (double[] row : CDF_REFERENCE) {
      double x = row[0];
      double expected = row[1];
      double actual = BlackScholes.normCdf(x);
      // Relative accuracy in the lower tail (no cancellation there), absolute above.
      double error = Math.abs(actual - expected) / Math.min(expected, 1);
      double bound = 2e-16 * Math.max(5, x * x);
      assertTrue(error < bound, "N(" + x + ") = " + actual + ", reference " + expected
          + ", error " + error);
    }
  }

  @Test
  void inlineNormCdfEqualsThePlainLoopBitForBit() {
    Random random = new Random(1);
    for (int k = 0; k < 2000; k++) {
      double x = 20 * random.nextDouble() - 10;
      assertEquals(Double.doubleToRawLongBits(BlackScholes.cdf(x)),
          Double.doubleToRawLongBits(BlackScholes.normCdf(x)), "x = " + x);
    }
  }

  @Test
  void derivativeOfNormCdfIsTheDensity() {
    Random random = new Random(2);
    for (int k = 0; k < 2000; k++) {
      double x = 16 * random.nextDouble() - 8;
      double expected = BlackScholes.pdf(x);
      double actual = BlackScholesGrad.normCdfGradient(x)[0];
      assertEquals(expected, actual, 2e-14 * expected, "x = " + x);
    }
  }

  @Test
  void derivativeAtZeroIsTheDensityNotZero() {
    // Math.abs would give abs'(0) = 0 here; the copySign formulation does not.
    double phi0 = BlackScholes.pdf(0);
    assertEquals(phi0, BlackScholesGrad.normCdfGradient(0.0)[0], 1e-14 * phi0);
    assertEquals(phi0, BlackScholesGrad.normCdfGradient(-0.0)[0], 1e-14 * phi0);
    assertEquals(phi0, BlackScholesGrad.normCdfTangent(0.0, 1), 1e-14 * phi0);
    // At-the-money forward with r = -σ²/2: d1 = 0 exactly, so delta = N(0) = 1/2.
    BlackScholes.Greeks g = BlackScholes.Greeks.byAd(100, 100, 2, -0.125, 0.5);
    assertEquals(0.5, g.delta(), 1e-15);
    assertEquals(100 * phi0 * Math.sqrt(2), g.vega(), 1e-12);
  }

  @Test
  void priceAndGreeksMatchHighPrecisionReference() {
    // {S, K, T, r, sigma, price, dC/dS, dC/dK, dC/dT, dC/dr, dC/dsigma}
    double[][] reference = {
      {100, 95, 0.75, 0.03, 0.25, 12.34686863751680248, 0.67331656180680942207,
        -0.57878723729646462871, 6.8554317786684934354, 41.238590657373104795,
        31.235328914241415462},
      {80, 100, 2, 0.05, 0.4, 14.177240494780691157, 0.52597415256184659763,
        -0.27900691710167036654, 5.8989814896968844537, 55.801383420334073307,
        45.03946904188532621},
    };
    for (double[] row : reference) {
      double[] g = new double[5];
      double price = BlackScholesGrad.callPriceValueAndGradient(row[0], row[1], row[2], row[3], row[4], g);
      assertEquals(row[5], price, 1e-14 * row[5]);
      for (int i = 0; i < 5; i++) {
        assertEquals(row[6 + i], g[i], 1e-13 * Math.abs(row[6 + i]), "partial " + i);
      }
    }
  }

  @Test
  void greeksFromOneGradientMatchTheClosedForm() {
    Random random = new Random(3);
    for (int k = 0; k < 500; k++) {
      double s = 50 + 100 * random.nextDouble();
      double strike = 50 + 100 * random.nextDouble();
      double t = 0.05 + 3 * random.nextDouble();
      double r = -0.02 + 0.12 * random.nextDouble();
      double sigma = 0.05 + 0.75 * random.nextDouble();
      BlackScholes.Greeks ad = BlackScholes.Greeks.byAd(s, strike, t, r, sigma);
      BlackScholes.Greeks cf = BlackScholes.Greeks.closedForm(s, strike, t, r, sigma);
      String at = String.format("S=%s K=%s T=%s r=%s sigma=%s", s, strike, t, r, sigma);
      // The price is the same arithmetic except for the grouping of C = S N1 - K e^-rT N2.
      assertClose(cf.price(), ad.price(), at + " price");
      assertClose(cf.delta(), ad.delta(), at + " delta");
      assertClose(cf.dStrike(), ad.dStrike(), at + " dC/dK");
      assertClose(cf.theta(), ad.theta(), at + " theta");
      assertClose(cf.rho(), ad.rho(), at + " rho");
      assertClose(cf.vega(), ad.vega(), at + " vega");
    }
  }

  /**
   * Within {@code 1e-12} relative to the size of the quantity, or {@code 1e-12} absolute for
   * Greeks that are tiny (deep out of the money). The AD Greeks differentiate the approximation
   * of N, whose derivative differs from the exact density by about 1e-14 relative
   * ({@link #derivativeOfNormCdfIsTheDensity}), while the closed form uses the exact density; the
   * rest is rounding.
   */
  private static void assertClose(double expected, double actual, String what) {
    assertEquals(expected, actual, 1e-12 * Math.max(1, Math.abs(expected)), what);
  }
}
