package ad4j.samples;

import ad4j.Differentiable;
import java.io.PrintStream;

/**
 * The logistic loss of a linear classifier with ten weights on one fixed, labelled sample:
 * {@code loss(w) = log(1 + exp(-y w·x))}, written with {@code log1p} and {@code exp}. Its
 * gradient is {@code -y x σ(-y w·x)} with the logistic function {@code σ(z) = 1/(1 + e^-z)}.
 */
public final class LogisticLoss {
  private LogisticLoss() {}

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
  /** The label, {@code -1} or {@code +1}. */
  private static final double LABEL = -1.0;

  /** The features of the sample, as an array (the same values as the constants). */
  private static final double[] FEATURES = {X0, X1, X2, X3, X4, X5, X6, X7, X8, X9};

  /** Weights at which {@link #print} evaluates the loss. */
  public static final double[] WEIGHTS = {0.3, -0.2, 0.1, 0.4, -0.5, 0.05, 0.9, -0.1, 0.2, 0.6};

  /**
   * The logistic loss of the weights on the fixed sample.
   *
   * @param w0 weight 0
   * @param w1 weight 1
   * @param w2 weight 2
   * @param w3 weight 3
   * @param w4 weight 4
   * @param w5 weight 5
   * @param w6 weight 6
   * @param w7 weight 7
   * @param w8 weight 8
   * @param w9 weight 9
   * @return {@code log(1 + exp(-y w·x))}
   */
  @Differentiable
  public static double loss(
      double w0, double w1, double w2, double w3, double w4,
      double w5, double w6, double w7, double w8, double w9) {
    double margin = w0 * X0 + w1 * X1 + w2 * X2 + w3 * X3 + w4 * X4
        + w5 * X5 + w6 * X6 + w7 * X7 + w8 * X8 + w9 * X9;
    return Math.log1p(Math.exp(-LABEL * margin));
  }

  /**
   * The same loss with the weights as one array parameter: ad4j differentiates it with respect
   * to every element ({@code LogisticLossGrad.lossGradient(double[])}), so a sample of ten
   * weights needs no ten parameters. The ten-parameter form above is kept as the straight-line
   * benchmark ({@code LogisticLossBench}).
   *
   * @param w ten weights
   * @return the loss, bit for bit that of the ten-parameter form
   */
  @Differentiable
  public static double loss(double[] w) {
    double margin = w[0] * X0 + w[1] * X1 + w[2] * X2 + w[3] * X3 + w[4] * X4
        + w[5] * X5 + w[6] * X6 + w[7] * X7 + w[8] * X8 + w[9] * X9;
    return Math.log1p(Math.exp(-LABEL * margin));
  }

  /**
   * The analytic gradient {@code -y x σ(-y w·x)}.
   *
   * @param w ten weights
   * @return the gradient with respect to the weights
   */
  public static double[] analyticGradient(double[] w) {
    double margin = 0;
    for (int i = 0; i < FEATURES.length; i++) {
      margin += w[i] * FEATURES[i];
    }
    double sigma = 1 / (1 + Math.exp(LABEL * margin));
    double[] gradient = new double[FEATURES.length];
    for (int i = 0; i < FEATURES.length; i++) {
      gradient[i] = -LABEL * FEATURES[i] * sigma;
    }
    return gradient;
  }

  /**
   * The gradient from the generated reverse mode of the ten-parameter form.
   *
   * @param w ten weights
   * @return the gradient with respect to the weights
   */
  public static double[] adGradient(double[] w) {
    return LogisticLossGrad.lossGradient(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9]);
  }

  /**
   * Prints the loss, its ad4j gradient and the analytic one.
   *
   * @param out where to print
   */
  public static void print(PrintStream out) {
    double[] ad = LogisticLossGrad.lossGradient(WEIGHTS);
    double[] analytic = analyticGradient(WEIGHTS);
    double worst = 0;
    for (int i = 0; i < ad.length; i++) {
      worst = Math.max(worst, Math.abs(ad[i] - analytic[i]));
    }
    out.println("Logistic loss log1p(exp(-y w.x)), 10 weights, label y = " + Fmt.num(LABEL));
    out.println("  loss     " + Fmt.num(loss(WEIGHTS)));
    out.println("  ad4j     " + vec6(ad) + "   (lossGradient(double[] w))");
    out.println("  analytic " + vec6(analytic) + "   (-y x sigma(-y w.x))");
    out.println("  largest difference " + Fmt.err(worst));
  }

  private static String vec6(double[] values) {
    StringBuilder s = new StringBuilder();
    for (double v : values) {
      s.append(String.format(java.util.Locale.ROOT, "%9.5f", v));
    }
    return s.toString();
  }
}
