package ad4j.spark;

import ad4j.Differentiable;
import ad4j.NoDerivative;

/**
 * A Gaussian mixture's negative log-likelihood over a block of points, in ADBench's
 * parametrisation, written once; ad4j generates its gradient ({@code GaussianMixtureGrad}).
 * Like {@link LogisticLoss#loss} it is a sum over the points, so blocks on different partitions
 * add up; the prior on the inverse covariances, a term of the parameters alone, is added once,
 * on the driver ({@link #prior}).
 *
 * <p>Parameters of {@code K} components in dimension {@code d}: the weight logits
 * {@code alphas[k]}; the means {@code means[k][j]}; and {@code icf[k]}, the factor {@code Q_k} of
 * the inverse covariance {@code Q_k Q_kᵀ}, lower triangular, of length {@code d + d(d−1)/2}:
 * first the logs of its diagonal, then its entries below the diagonal column by column.
 */
public final class GaussianMixture {
  private GaussianMixture() {}

  /**
   * {@code −Σ_i log p(x_i)} with {@code log p(x) = logsumexp_k(α_k + Σ_r q_kr − ½|Q_k (x −
   * μ_k)|²) − logsumexp(α) − (d/2) log 2π}: each log-sum-exp in one streaming pass, each row of
   * {@code Q_k (x − μ_k)} as a scalar, so that the method needs no array of its own.
   *
   * @param alphas the weight logits, {@code K}
   * @param means the means, {@code K × d}
   * @param icf the inverse-covariance factors, {@code K × (d + d(d−1)/2)}
   * @param x the points of the block, {@code n × d}
   * @return the negative log-likelihood of the block's points
   */
  @Differentiable
  public static double negativeLogLikelihood(double[] alphas, double[][] means, double[][] icf,
      @NoDerivative double[][] x) {
    int k = alphas.length;
    int d = means[0].length;
    double maxAlpha = alphas[0];
    for (int c = 1; c < k; c++) {
      maxAlpha = Math.max(maxAlpha, alphas[c]);
    }
    double sumAlpha = 0;
    for (int c = 0; c < k; c++) {
      sumAlpha += Math.exp(alphas[c] - maxAlpha);
    }
    double perPoint = Math.log(sumAlpha) + maxAlpha + 0.5 * d * Math.log(2 * Math.PI);
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double[] xi = x[i];
      double max = 0;
      double scaled = 0;
      for (int c = 0; c < k; c++) {
        double[] mu = means[c];
        double[] f = icf[c];
        double sumQ = 0;
        double sq = 0;
        for (int r = 0; r < d; r++) {
          sumQ += f[r];
          double row = Math.exp(f[r]) * (xi[r] - mu[r]);
          for (int j = 0; j < r; j++) {
            // entry (r, j) of Q: column j starts at d + j (2d − j − 1) / 2
            row += f[d + j * (2 * d - j - 1) / 2 + (r - j - 1)] * (xi[j] - mu[j]);
          }
          sq += row * row;
        }
        double main = alphas[c] + sumQ - 0.5 * sq;
        if (c == 0) {
          max = main;
          scaled = 1;
        } else if (main > max) {
          scaled = scaled * Math.exp(max - main) + 1;
          max = main;
        } else {
          scaled += Math.exp(main - max);
        }
      }
      sum += perPoint - max - Math.log(scaled);
    }
    return sum;
  }

  /**
   * A Wishart-type prior that keeps the inverse covariances bounded: {@code ½ Σ_k (|exp(q_k)|² +
   * |L_k|²)}, the squared Frobenius norm of each factor (ADBench's prior with {@code γ = 1},
   * {@code m = 0}, without its constant).
   *
   * @param icf the inverse-covariance factors, {@code K × (d + d(d−1)/2)}
   * @param d the dimension
   * @return the prior term
   */
  @Differentiable
  public static double prior(double[][] icf, int d) {
    double sum = 0;
    for (int c = 0; c < icf.length; c++) {
      double[] f = icf[c];
      for (int r = 0; r < d; r++) {
        double diag = Math.exp(f[r]);
        sum += diag * diag;
      }
      for (int t = d; t < f.length; t++) {
        sum += f[t] * f[t];
      }
    }
    return 0.5 * sum;
  }
}
