package ad4j.samples.bench;

import ad4j.Differentiable;

/**
 * The Gaussian-mixture log-likelihood of Microsoft's ADBench ({@code gmm} objective) for one
 * fixed data point, dimension {@code d = 2} and {@code K = 5} components, unrolled into
 * straight-line code: 30 parameters, the weight logits {@code α} (5), the means {@code μ}
 * (5×2) and the inverse-covariance factors (5×3: two log-diagonal entries {@code q} and one
 * off-diagonal entry {@code l} per component, {@code Q} lower triangular with
 * {@code exp(q)} on the diagonal). Per component, {@code main_k = α_k + Σq − ½|Q (x − μ_k)|²};
 * the result is {@code logsumexp(main) − logsumexp(α)}, both with the maximum subtracted for
 * stability. ADBench's Wishart prior and the constant {@code −d/2 log 2π} are left out.
 */
public final class GaussianMixture {
  private GaussianMixture() {}

  /** The data point, first coordinate. */
  public static final double DATA_X = 0.4;

  /** The data point, second coordinate. */
  public static final double DATA_Y = -0.7;

  /** Parameters at which the benchmarks evaluate the log-likelihood (in parameter order). */
  public static final double[] POINT = {
    0.5, -0.3, 0.1, 0.8, -1.0, -0.529, -1.047, 0.453, -1.283, 0.108,
    -0.403, -1.326, 0.022, -1.388, -0.199, -0.258, -0.246, -0.075, 0.196, -0.226,
    -0.277, 0.076, 0.269, 0.077, -0.062, 0.286, -0.453, 0.215, -0.126, -0.356
  };

  /**
   * The log-likelihood of the data point under the mixture.
   *
   * @param alpha0 weight logit of component 0
   * @param alpha1 weight logit of component 1
   * @param alpha2 weight logit of component 2
   * @param alpha3 weight logit of component 3
   * @param alpha4 weight logit of component 4
   * @param mu0x mean of component 0, coordinate x
   * @param mu0y mean of component 0, coordinate y
   * @param mu1x mean of component 1, coordinate x
   * @param mu1y mean of component 1, coordinate y
   * @param mu2x mean of component 2, coordinate x
   * @param mu2y mean of component 2, coordinate y
   * @param mu3x mean of component 3, coordinate x
   * @param mu3y mean of component 3, coordinate y
   * @param mu4x mean of component 4, coordinate x
   * @param mu4y mean of component 4, coordinate y
   * @param q0a log of diagonal entry 1 of Q, component 0
   * @param q0b log of diagonal entry 2 of Q, component 0
   * @param l0 off-diagonal entry of Q, component 0
   * @param q1a log of diagonal entry 1 of Q, component 1
   * @param q1b log of diagonal entry 2 of Q, component 1
   * @param l1 off-diagonal entry of Q, component 1
   * @param q2a log of diagonal entry 1 of Q, component 2
   * @param q2b log of diagonal entry 2 of Q, component 2
   * @param l2 off-diagonal entry of Q, component 2
   * @param q3a log of diagonal entry 1 of Q, component 3
   * @param q3b log of diagonal entry 2 of Q, component 3
   * @param l3 off-diagonal entry of Q, component 3
   * @param q4a log of diagonal entry 1 of Q, component 4
   * @param q4b log of diagonal entry 2 of Q, component 4
   * @param l4 off-diagonal entry of Q, component 4
   * @return {@code logsumexp_k(main_k) − logsumexp(α)}
   */
  @Differentiable
  public static double logLikelihood(
      double alpha0, double alpha1, double alpha2, double alpha3, double alpha4, double mu0x,
      double mu0y, double mu1x, double mu1y, double mu2x, double mu2y, double mu3x,
      double mu3y, double mu4x, double mu4y, double q0a, double q0b, double l0, double q1a,
      double q1b, double l1, double q2a, double q2b, double l2, double q3a, double q3b,
      double l3, double q4a, double q4b, double l4) {
    double xc0x = DATA_X - mu0x;
    double xc0y = DATA_Y - mu0y;
    double qxc0x = Math.exp(q0a) * xc0x;
    double qxc0y = l0 * xc0x + Math.exp(q0b) * xc0y;
    double main0 = alpha0 + (q0a + q0b) - 0.5 * (qxc0x * qxc0x + qxc0y * qxc0y);
    double xc1x = DATA_X - mu1x;
    double xc1y = DATA_Y - mu1y;
    double qxc1x = Math.exp(q1a) * xc1x;
    double qxc1y = l1 * xc1x + Math.exp(q1b) * xc1y;
    double main1 = alpha1 + (q1a + q1b) - 0.5 * (qxc1x * qxc1x + qxc1y * qxc1y);
    double xc2x = DATA_X - mu2x;
    double xc2y = DATA_Y - mu2y;
    double qxc2x = Math.exp(q2a) * xc2x;
    double qxc2y = l2 * xc2x + Math.exp(q2b) * xc2y;
    double main2 = alpha2 + (q2a + q2b) - 0.5 * (qxc2x * qxc2x + qxc2y * qxc2y);
    double xc3x = DATA_X - mu3x;
    double xc3y = DATA_Y - mu3y;
    double qxc3x = Math.exp(q3a) * xc3x;
    double qxc3y = l3 * xc3x + Math.exp(q3b) * xc3y;
    double main3 = alpha3 + (q3a + q3b) - 0.5 * (qxc3x * qxc3x + qxc3y * qxc3y);
    double xc4x = DATA_X - mu4x;
    double xc4y = DATA_Y - mu4y;
    double qxc4x = Math.exp(q4a) * xc4x;
    double qxc4y = l4 * xc4x + Math.exp(q4b) * xc4y;
    double main4 = alpha4 + (q4a + q4b) - 0.5 * (qxc4x * qxc4x + qxc4y * qxc4y);
    double mMain = Math.max(Math.max(Math.max(Math.max(main0, main1), main2), main3), main4);
    double lseMain = Math.log(Math.exp(main0 - mMain) + Math.exp(main1 - mMain)
        + Math.exp(main2 - mMain) + Math.exp(main3 - mMain) + Math.exp(main4 - mMain)) + mMain;
    double mAlpha = Math.max(Math.max(Math.max(Math.max(alpha0, alpha1), alpha2), alpha3), alpha4);
    double lseAlpha = Math.log(Math.exp(alpha0 - mAlpha) + Math.exp(alpha1 - mAlpha)
        + Math.exp(alpha2 - mAlpha) + Math.exp(alpha3 - mAlpha) + Math.exp(alpha4 - mAlpha)) + mAlpha;
    return lseMain - lseAlpha;
  }
}
