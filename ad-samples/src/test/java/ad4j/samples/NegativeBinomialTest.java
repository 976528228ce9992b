package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import org.hipparchus.special.Gamma;
import org.junit.jupiter.api.Test;

/**
 * The negative-binomial log-likelihood with Hipparchus' {@code Gamma.logGamma} and its
 * {@code @DerivativeOf} rule: the generated gradient against the analytic one, against finite
 * differences, and at the maximum likelihood estimate of the mean (the sample mean), where the
 * derivative with respect to the mean is zero for every dispersion.
 */
class NegativeBinomialTest {
  private static final int[] COUNTS = NegativeBinomial.COUNTS;

  /** ∂/∂r and ∂/∂m of the log-likelihood of one count, by hand. */
  private static double[] analytic(double r, double m, int k) {
    double total = r + m;
    return new double[] {
      Gamma.digamma(k + r) - Gamma.digamma(r) + Math.log(r / total) + 1 - (r + k) / total,
      k / m - (r + k) / total
    };
  }

  @Test
  void gradientOfOneCountIsAnalytic() {
    for (double r : new double[] {0.3, 1.7, 12}) {
      for (double m : new double[] {0.5, 3.1, 40}) {
        for (int k : new int[] {0, 1, 4, 30}) {
          double[] expected = analytic(r, m, k);
          double[] actual = NegativeBinomialGrad.logLikelihoodGradient(r, m, k);
          assertEquals(expected[0], actual[0], 1e-12 * Math.max(1, Math.abs(expected[0])));
          assertEquals(expected[1], actual[1], 1e-12 * Math.max(1, Math.abs(expected[1])));
          double dot = actual[0] * 0.7 - actual[1] * 1.3;
          assertEquals(dot, NegativeBinomialGrad.logLikelihoodTangent(r, m, k, 0.7, -1.3),
              1e-12 * Math.max(1, Math.abs(dot)));
        }
      }
    }
  }

  @Test
  void gradientOverTheDataMatchesFiniteDifferences() {
    double[] p = {1.4, 2.6};
    double[] gradient = new double[2];
    double value = NegativeBinomial.totalLogLikelihoodAndGradient(p[0], p[1], COUNTS, gradient);
    assertEquals(NegativeBinomial.totalLogLikelihood(p[0], p[1], COUNTS), value);
    GradientCheck.check(q -> NegativeBinomial.totalLogLikelihood(q[0], q[1], COUNTS), p,
        gradient).assertWithin(1e-8);
  }

  @Test
  void derivativeWithRespectToTheMeanVanishesAtTheSampleMean() {
    double mean = 0;
    for (int k : COUNTS) {
      mean += k;
    }
    mean /= COUNTS.length;
    for (double r : new double[] {0.5, 2, 9}) {
      double[] gradient = new double[2];
      NegativeBinomial.totalLogLikelihoodAndGradient(r, mean, COUNTS, gradient);
      assertEquals(0, gradient[1], 1e-13);
    }
  }
}
