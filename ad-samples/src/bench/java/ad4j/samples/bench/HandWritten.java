package ad4j.samples.bench;

import ad4j.samples.BlackScholes;

/**
 * Hand-written value-and-gradient code, as a careful programmer writes it, to compare with the
 * generated reverse mode: same signature style as {@code mValueAndGradient} (value returned,
 * gradient written into an array, nothing allocated).
 */
final class HandWritten {
  private HandWritten() {}

  static double rosenbrock(double x, double y, double[] gradient) {
    double a = 1 - x;
    double b = y - x * x;
    gradient[0] = -2 * a - 400 * x * b;
    gradient[1] = 200 * b;
    return a * a + 100 * b * b;
  }

  /** Price and the closed-form first derivatives (delta, ∂/∂K, ∂/∂T, rho, vega). */
  static double callPrice(double s, double k, double t, double r, double sigma,
      double[] gradient) {
    double sqrtT = Math.sqrt(t);
    double volSqrtT = sigma * sqrtT;
    double d1 = (Math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / volSqrtT;
    double d2 = d1 - volSqrtT;
    double discount = Math.exp(-r * t);
    double nd1 = BlackScholes.cdf(d1);
    double nd2 = BlackScholes.cdf(d2);
    double sPhi = s * BlackScholes.pdf(d1);
    double kDiscountNd2 = k * discount * nd2;
    gradient[0] = nd1;
    gradient[1] = -discount * nd2;
    gradient[2] = sPhi * sigma / (2 * sqrtT) + r * kDiscountNd2;
    gradient[3] = t * kDiscountNd2;
    gradient[4] = sPhi * sqrtT;
    return s * nd1 - kDiscountNd2;
  }

  private static final double X0 = 1.0;
  private static final double X1 = -0.5;
  private static final double X2 = 0.25;
  private static final double X3 = 2.0;
  private static final double X4 = -1.5;
  private static final double X5 = 0.75;
  private static final double X6 = 0.1;
  private static final double X7 = -2.25;
  private static final double X8 = 1.125;
  private static final double X9 = -0.3;
  private static final double LABEL = -1.0;

  static double logisticLoss(double w0, double w1, double w2, double w3, double w4,
      double w5, double w6, double w7, double w8, double w9, double[] gradient) {
    double margin = w0 * X0 + w1 * X1 + w2 * X2 + w3 * X3 + w4 * X4
        + w5 * X5 + w6 * X6 + w7 * X7 + w8 * X8 + w9 * X9;
    double e = Math.exp(-LABEL * margin);
    double scale = -LABEL * e / (1 + e);
    gradient[0] = scale * X0;
    gradient[1] = scale * X1;
    gradient[2] = scale * X2;
    gradient[3] = scale * X3;
    gradient[4] = scale * X4;
    gradient[5] = scale * X5;
    gradient[6] = scale * X6;
    gradient[7] = scale * X7;
    gradient[8] = scale * X8;
    gradient[9] = scale * X9;
    return Math.log1p(e);
  }
}
