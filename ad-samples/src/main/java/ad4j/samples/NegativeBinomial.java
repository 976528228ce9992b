package ad4j.samples;

import ad4j.DerivativeOf;
import ad4j.Differentiable;
import java.io.PrintStream;
import java.util.Locale;
import org.hipparchus.special.Gamma;

/**
 * The negative-binomial log-likelihood of count data, with Hipparchus' {@link Gamma#logGamma}
 * and a {@code @DerivativeOf} rule that gives its derivative, the digamma function
 * {@link Gamma#digamma}. ad4j never reads {@code logGamma}'s body.
 *
 * <p>With mean {@code m > 0} and dispersion {@code r > 0}, a count {@code k} has probability
 * {@code Γ(k + r) / (Γ(r) k!) · (r / (r + m))^r · (m / (r + m))^k}. The log-likelihood of one
 * count is a {@code @Differentiable} method; that of the data set is the sum over the counts,
 * and its gradient the sum of the generated pullbacks, which add into one array.
 */
public final class NegativeBinomial {
  private NegativeBinomial() {}

  /** Overdispersed counts (variance about 3 times the mean), for the printout and tests. */
  static final int[] COUNTS = {0, 3, 1, 7, 2, 0, 5, 12, 1, 4, 0, 2, 9, 3, 1, 6};

  /**
   * The derivative of {@code Gamma.logGamma}: the digamma function.
   *
   * @param x the argument, {@code > 0}
   * @return {@code ψ(x)}
   */
  @DerivativeOf(owner = Gamma.class, value = "logGamma")
  static double logGammaDerivative(double x) {
    return Gamma.digamma(x);
  }

  /**
   * The log-likelihood of one count.
   *
   * @param dispersion {@code r > 0}
   * @param mean {@code m > 0}
   * @param count {@code k >= 0}
   * @return {@code log P(k | r, m)}
   */
  @Differentiable
  public static double logLikelihood(double dispersion, double mean, int count) {
    double total = dispersion + mean;
    return Gamma.logGamma(count + dispersion) - Gamma.logGamma(dispersion)
        - Gamma.logGamma(count + 1.0)
        + dispersion * Math.log(dispersion / total) + count * Math.log(mean / total);
  }

  /**
   * The log-likelihood of {@code counts} and its gradient with respect to {@code (r, m)}, as the
   * sum of the generated pullbacks of {@link #logLikelihood}.
   *
   * @param dispersion {@code r > 0}
   * @param mean {@code m > 0}
   * @param counts the data
   * @param gradient receives {@code {∂/∂r, ∂/∂m}}
   * @return the log-likelihood
   */
  public static double totalLogLikelihoodAndGradient(double dispersion, double mean, int[] counts,
      double[] gradient) {
    gradient[0] = 0;
    gradient[1] = 0;
    double sum = 0;
    for (int count : counts) {
      sum += NegativeBinomialGrad.logLikelihoodPullback(dispersion, mean, count, 1.0, gradient);
    }
    return sum;
  }

  /**
   * The log-likelihood of {@code counts}, in plain Java.
   *
   * @param dispersion {@code r > 0}
   * @param mean {@code m > 0}
   * @param counts the data
   * @return the log-likelihood
   */
  public static double totalLogLikelihood(double dispersion, double mean, int[] counts) {
    double sum = 0;
    for (int count : counts) {
      sum += logLikelihood(dispersion, mean, count);
    }
    return sum;
  }

  /**
   * Fits {@code (log r, log m)} by gradient ascent with backtracking and prints the path.
   *
   * @param out where to print
   */
  public static void print(PrintStream out) {
    out.println("Negative-binomial log-likelihood of " + COUNTS.length + " counts, with"
        + " Hipparchus' Gamma.logGamma and a @DerivativeOf rule (its derivative is digamma)");
    double r = 1;
    double m = 1;
    double[] g = new double[2];
    double value = totalLogLikelihoodAndGradient(r, m, COUNTS, g);
    for (int step = 0; step < 200; step++) {
      // ascend in (log r, log m): d/d(log r) = r d/dr
      double ur = r * g[0];
      double um = m * g[1];
      double size = 1;
      double nextR;
      double nextM;
      double next;
      do {
        nextR = r * Math.exp(size * ur);
        nextM = m * Math.exp(size * um);
        next = totalLogLikelihood(nextR, nextM, COUNTS);
        size /= 2;
      } while (next < value && size > 1e-12);
      r = nextR;
      m = nextM;
      value = totalLogLikelihoodAndGradient(r, m, COUNTS, g);
    }
    double sampleMean = 0;
    for (int count : COUNTS) {
      sampleMean += count;
    }
    sampleMean /= COUNTS.length;
    out.printf(Locale.ROOT, "  maximum likelihood: r = %.6f, m = %.6f (the sample mean is %.6f),"
        + " log-likelihood %.6f, gradient %s%n", r, m, sampleMean, value, Fmt.vec(g));
  }
}
