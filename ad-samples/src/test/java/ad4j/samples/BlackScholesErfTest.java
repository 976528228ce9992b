package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Black-Scholes with Hipparchus' {@code Erf.erfc} and a {@code @DerivativeOf} rule: the Greeks
 * of one generated gradient against the closed form and against finite differences of the
 * price, the value bit for bit, and forward mode against reverse mode; the same with
 * {@code N} from a {@code NormalDistribution} object, an instance method with a rule.
 */
class BlackScholesErfTest {
  private static final double[][] POINTS = {
    {100, 95, 0.75, 0.03, 0.25},
    {100, 130, 2.0, 0.01, 0.4},
    {50, 40, 0.1, -0.01, 0.15},
    {100, 100, 2, -0.125, 0.5}, // d1 = 0
  };

  @Test
  void greeksFromOneGradientMatchTheClosedForm() {
    for (double[] p : POINTS) {
      BlackScholes.Greeks ad = BlackScholesErf.byAd(p[0], p[1], p[2], p[3], p[4]);
      BlackScholes.Greeks cf = BlackScholesErf.closedForm(p[0], p[1], p[2], p[3], p[4]);
      assertEquals(cf.price(), ad.price(), 1e-13 * Math.abs(cf.price()));
      assertEquals(cf.delta(), ad.delta(), 1e-13);
      assertEquals(cf.dStrike(), ad.dStrike(), 1e-13);
      assertEquals(cf.theta(), ad.theta(), 1e-12 * Math.max(1, Math.abs(cf.theta())));
      assertEquals(cf.rho(), ad.rho(), 1e-12 * Math.max(1, Math.abs(cf.rho())));
      assertEquals(cf.vega(), ad.vega(), 1e-12 * Math.max(1, Math.abs(cf.vega())));
    }
  }

  @Test
  void valueIsThePricesBitForBitAndTheGradientMatchesFiniteDifferences() {
    for (double[] p : POINTS) {
      double[] gradient = new double[5];
      double value = BlackScholesErfGrad.callPriceValueAndGradient(p[0], p[1], p[2], p[3], p[4],
          gradient);
      assertEquals(BlackScholesErf.callPrice(p[0], p[1], p[2], p[3], p[4]), value);
      GradientCheck.check(q -> BlackScholesErf.callPrice(q[0], q[1], q[2], q[3], q[4]), p,
          gradient).assertWithin(1e-8);
    }
  }

  @Test
  void forwardModeAgreesWithReverseMode() {
    Random random = new Random(3);
    for (double[] p : POINTS) {
      double[] gradient = BlackScholesErfGrad.callPriceGradient(p[0], p[1], p[2], p[3], p[4]);
      double[] v = new double[5];
      double dot = 0;
      for (int i = 0; i < 5; i++) {
        v[i] = random.nextGaussian();
        dot += gradient[i] * v[i];
      }
      double tangent = BlackScholesErfGrad.callPriceTangent(p[0], p[1], p[2], p[3], p[4], v[0],
          v[1], v[2], v[3], v[4]);
      assertEquals(dot, tangent, 1e-12 * Math.max(1, Math.abs(dot)));
    }
  }

  @Test
  void normalDistributionObjectGivesTheSameGreeks() {
    for (double[] p : POINTS) {
      double[] gradient = new double[5];
      double value = BlackScholesErfGrad.callPriceNormalValueAndGradient(p[0], p[1], p[2], p[3],
          p[4], gradient);
      assertEquals(BlackScholesErf.callPriceNormal(p[0], p[1], p[2], p[3], p[4]), value);
      BlackScholes.Greeks cf = BlackScholesErf.closedForm(p[0], p[1], p[2], p[3], p[4]);
      assertEquals(cf.delta(), gradient[0], 1e-13);
      assertEquals(cf.dStrike(), gradient[1], 1e-13);
      assertEquals(cf.theta(), -gradient[2], 1e-12 * Math.max(1, Math.abs(cf.theta())));
      assertEquals(cf.rho(), gradient[3], 1e-12 * Math.max(1, Math.abs(cf.rho())));
      assertEquals(cf.vega(), gradient[4], 1e-12 * Math.max(1, Math.abs(cf.vega())));
      GradientCheck.check(q -> BlackScholesErf.callPriceNormal(q[0], q[1], q[2], q[3], q[4]), p,
          gradient).assertWithin(1e-8);
    }
  }

  @Test
  void normalDistributionAgreesWithTheInlineApproximation() {
    for (double x = -8; x <= 8; x += 0.25) {
      assertEquals(BlackScholes.cdf(x), BlackScholesErf.cdf(x), 1e-15, "x = " + x);
    }
  }
}
