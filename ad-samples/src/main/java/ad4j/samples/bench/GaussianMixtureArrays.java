package ad4j.samples.bench;

import ad4j.Differentiable;
import ad4j.NoDerivative;

/**
 * The full Gaussian-mixture objective of Microsoft's ADBench ({@code gmm}), with array inputs:
 * the negative log-likelihood of {@code n} points of dimension {@code d} under a mixture of
 * {@code K} Gaussians, with ADBench's Wishart prior on the inverse covariances and its constant
 * terms. Parameters, as in ADBench:
 *
 * <ul>
 *   <li>{@code alphas[k]}: the weight logits ({@code K});
 *   <li>{@code means[k][j]}: the means ({@code K × d});
 *   <li>{@code icf[k]}: the inverse-covariance factor of component {@code k}, of length
 *       {@code d + d(d−1)/2}: first the logs {@code q} of the diagonal of the lower-triangular
 *       {@code Q_k}, then its entries below the diagonal column by column;
 *   <li>{@code x[i][j]}: the data ({@code n × d}), {@code @NoDerivative}.
 * </ul>
 *
 * <p>The objective is {@code −(n d / 2) log 2π + Σ_i logsumexp_k(α_k + Σq_k − ½|Q_k (x_i −
 * μ_k)|²) − n logsumexp(α) + Σ_k (½ γ² (|exp(q_k)|² + |L_k|²) − m Σq_k) − K C(d, γ, m)}, with
 * {@code γ = wishartGamma}, {@code m = wishartM} and the constant {@code C} of
 * {@link #wishartConstant}, passed in (it involves the log-gamma function, a constant here).
 * Each log-sum-exp is computed in one streaming pass and each row of {@code Q_k (x_i − μ_k)} as
 * a scalar, so the method needs no local array; it does ADBench's {@code O(n K d²)} work.
 */
public final class GaussianMixtureArrays {
  private GaussianMixtureArrays() {}

  /**
   * The ADBench GMM objective.
   *
   * @param alphas the weight logits, {@code K}
   * @param means the means, {@code K × d}
   * @param icf the inverse-covariance factors, {@code K × (d + d(d−1)/2)}
   * @param x the data, {@code n × d}
   * @param wishartGamma the prior's {@code γ}
   * @param wishartM the prior's {@code m} (an integer in ADBench)
   * @param wishartConstant {@link #wishartConstant} for these {@code d}, {@code γ}, {@code m}
   * @return the objective
   */
  @Differentiable(order = 2)
  public static double objective(double[] alphas, double[][] means, double[][] icf,
      @NoDerivative double[][] x, @NoDerivative double wishartGamma,
      @NoDerivative double wishartM, @NoDerivative double wishartConstant) {
    int n = x.length;
    int k = alphas.length;
    int d = means[0].length;
    double slse = 0;
    for (int i = 0; i < n; i++) {
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
            // entry (r, j) of L: column j starts at d + j (2d − j − 1) / 2
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
      slse += max + Math.log(scaled);
    }
    double maxAlpha = alphas[0];
    for (int c = 1; c < k; c++) {
      maxAlpha = Math.max(maxAlpha, alphas[c]);
    }
    double sumAlpha = 0;
    for (int c = 0; c < k; c++) {
      sumAlpha += Math.exp(alphas[c] - maxAlpha);
    }
    double lseAlphas = Math.log(sumAlpha) + maxAlpha;
    double prior = 0;
    for (int c = 0; c < k; c++) {
      double[] f = icf[c];
      double frobenius = 0;
      double sumQ = 0;
      for (int r = 0; r < d; r++) {
        double diag = Math.exp(f[r]);
        frobenius += diag * diag;
        sumQ += f[r];
      }
      for (int t = d; t < f.length; t++) {
        frobenius += f[t] * f[t];
      }
      prior += 0.5 * wishartGamma * wishartGamma * frobenius - wishartM * sumQ;
    }
    double constant = -n * d * 0.5 * Math.log(2 * Math.PI);
    return constant + slse - n * lseAlphas + prior - k * wishartConstant;
  }

  /**
   * ADBench's constant {@code C} of the Wishart prior: with {@code p = d} and
   * {@code n' = p + m + 1}, {@code C = n' p (log γ − ½ log 2) − log Γ_p(n'/2)}, the
   * multivariate log-gamma function {@code log Γ_p(a) = p(p−1)/4 log π + Σ_{j=1..p} log Γ(a +
   * (1 − j)/2)}.
   *
   * @param d the dimension
   * @param wishartGamma the prior's {@code γ}
   * @param wishartM the prior's {@code m}
   * @return the constant
   */
  public static double wishartConstant(int d, double wishartGamma, double wishartM) {
    double nPrime = d + wishartM + 1;
    double a = 0.5 * nPrime;
    double logGammaP = 0.25 * d * (d - 1) * Math.log(Math.PI);
    for (int j = 1; j <= d; j++) {
      logGammaP += logGamma(a + 0.5 * (1 - j));
    }
    return nPrime * d * (Math.log(wishartGamma) - 0.5 * Math.log(2)) - logGammaP;
  }

  /**
   * {@code log Γ(z)} for {@code z > 0}, by the Lanczos approximation (g = 7, 9 terms; relative
   * error about 1e-15), with the recurrence {@code Γ(z) = Γ(z + 1) / z} below {@code z = 0.5}.
   */
  static double logGamma(double z) {
    if (z < 0.5) {
      return logGamma(z + 1) - Math.log(z);
    }
    double[] c = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
        771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
        9.9843695780195716e-6, 1.5056327351493116e-7};
    double zm = z - 1;
    double s = c[0];
    for (int i = 1; i < 9; i++) {
      s += c[i] / (zm + i);
    }
    double t = zm + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (zm + 0.5) * Math.log(t) - t + Math.log(s);
  }
}
