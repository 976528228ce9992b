package ad4j.samples;

import ad4j.Differentiable;
import ad4j.NoDerivative;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * Binary logistic regression on a real data set (Breast Cancer Wisconsin, 569 samples, 30
 * features), trained by plain gradient descent with the gradient that ad4j generates for
 * {@link #loss}: the weights {@code w} and the bias {@code b} carry derivatives, the data
 * ({@code @NoDerivative}) does not.
 */
public final class LogisticRegression {
  private LogisticRegression() {}

  /** The gradient-descent step size (the loss is a mean, so its curvature is about 1). */
  public static final double STEP = 0.5;

  /** The number of gradient-descent steps. */
  public static final int STEPS = 300;

  /**
   * The mean logistic loss {@code (1/n) Σ log(1 + exp(-y_i (w·x_i + b)))} with labels
   * {@code y_i = ±1}, written so that it never overflows: {@code log(1 + e^-m)} is
   * {@code log1p(exp(-m))} for a margin {@code m ≥ 0} and {@code -m + log1p(exp(m))} below.
   *
   * @param w the weights, one per feature
   * @param b the bias
   * @param x the features, one row per sample, each row as long as {@code w}
   * @param y the labels, {@code -1} or {@code +1}
   * @return the mean loss
   */
  @Differentiable(order = 2)
  public static double loss(double[] w, double b, @NoDerivative double[][] x,
      @NoDerivative double[] y) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double[] row = x[i];
      double z = b;
      for (int j = 0; j < w.length; j++) {
        z += w[j] * row[j];
      }
      double margin = y[i] * z;
      if (margin >= 0) {
        sum += Math.log1p(Math.exp(-margin));
      } else {
        sum += Math.log1p(Math.exp(margin)) - margin;
      }
    }
    return sum / x.length;
  }

  /**
   * The fraction of samples whose label has the sign of {@code w·x + b}.
   *
   * @param w the weights
   * @param b the bias
   * @param x the features
   * @param y the labels, {@code ±1}
   * @return the accuracy, between 0 and 1
   */
  public static double accuracy(double[] w, double b, double[][] x, double[] y) {
    int right = 0;
    for (int i = 0; i < x.length; i++) {
      double z = b;
      for (int j = 0; j < w.length; j++) {
        z += w[j] * x[i][j];
      }
      if ((z >= 0 ? 1 : -1) == y[i]) {
        right++;
      }
    }
    return (double) right / x.length;
  }

  /** Receives the loss after each step of {@link #train}. */
  @FunctionalInterface
  public interface Progress {
    /**
     * Called before each step and once after the last.
     *
     * @param step the number of steps taken so far
     * @param loss the loss at the current weights
     */
    void at(int step, double loss);
  }

  /**
   * Trains by gradient descent from zero weights: {@code θ ← θ − STEP · ∇loss(θ)}, with the
   * gradient from {@code LogisticRegressionGrad.lossValueAndGradient} (slots {@code w[0..d-1]},
   * then {@code b}).
   *
   * @param x the features
   * @param y the labels, {@code ±1}
   * @param steps the number of steps
   * @param progress told the loss before each step and at the end; may be null
   * @return the weights followed by the bias
   */
  public static double[] train(double[][] x, double[] y, int steps, Progress progress) {
    int d = x[0].length;
    double[] w = new double[d];
    double b = 0;
    double[] gradient = new double[d + 1];
    for (int step = 0; ; step++) {
      double value = LogisticRegressionGrad.lossValueAndGradient(w, b, x, y, gradient);
      if (progress != null) {
        progress.at(step, value);
      }
      if (step == steps) {
        break;
      }
      for (int j = 0; j < d; j++) {
        w[j] -= STEP * gradient[j];
      }
      b -= STEP * gradient[d];
    }
    double[] theta = Arrays.copyOf(w, d + 1);
    theta[d] = b;
    return theta;
  }

  /**
   * Trains on the breast-cancer data and prints the loss falling and the training accuracy.
   *
   * @param out where to print
   */
  public static void print(PrintStream out) {
    Dataset data = Dataset.breastCancer();
    double[][] x = data.standardized();
    double[] y = data.signLabels();
    int d = x[0].length;
    out.println("Logistic regression, loss(double[] w, double b, @NoDerivative double[][] x,"
        + " @NoDerivative double[] y)");
    out.println("  data: Breast Cancer Wisconsin (Diagnostic), " + x.length + " samples, " + d
        + " features (standardised), " + data.classNames()[0] + " = -1, "
        + data.classNames()[1] + " = +1 (ad-samples/src/main/resources/ad4j/samples/data)");
    out.println("  plain gradient descent, step " + Fmt.num(STEP) + ", gradient from"
        + " LogisticRegressionGrad.lossValueAndGradient (" + (d + 1) + " slots)");
    StringBuilder losses = new StringBuilder();
    double[] theta = train(x, y, STEPS, (step, loss) -> {
      if (step == 0 || step == 1 || step == 10 || step == 100 || step == STEPS) {
        losses.append(String.format(java.util.Locale.ROOT, "%s%d: %.6f", step == 0 ? "" : ", ",
            step, loss));
      }
    });
    double[] w = Arrays.copyOf(theta, d);
    out.println(String.format(java.util.Locale.ROOT, "  loss after n steps: %s; training accuracy %.1f %%", losses,
        100 * accuracy(w, theta[d], x, y)));
  }
}
