package ad4j.samples;

import ad4j.Differentiable;
import ad4j.NoDerivative;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Multinomial logistic (softmax) regression on Fisher's iris data (150 samples, 4 features, 3
 * classes), trained by gradient descent with the gradient ad4j generates for {@link #loss}: the
 * weight matrix {@code W} (one row per class) and the biases carry derivatives, the data does
 * not. The log-sum-exp over the classes is computed in one streaming pass (the running maximum
 * and the sum of exponentials relative to it), so the method needs no local array.
 */
public final class SoftmaxRegression {
  private SoftmaxRegression() {}

  /** The gradient-descent step size. */
  public static final double STEP = 0.5;

  /** The number of gradient-descent steps. */
  public static final int STEPS = 500;

  /**
   * The mean cross-entropy {@code (1/n) Σ_i (logsumexp_k z_ik − z_{i,c_i})} of the scores
   * {@code z_ik = b_k + W_k·x_i}.
   *
   * @param W the weights, one row per class, each as long as a row of {@code x}
   * @param b the biases, one per class
   * @param x the features, one row per sample
   * @param c the class of each sample, from 0 to {@code W.length − 1}
   * @return the mean cross-entropy
   */
  @Differentiable
  public static double loss(double[][] W, double[] b, @NoDerivative double[][] x,
      @NoDerivative int[] c) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double[] row = x[i];
      double max = 0;
      double scaled = 0;
      double target = 0;
      for (int k = 0; k < W.length; k++) {
        double[] weights = W[k];
        double z = b[k];
        for (int j = 0; j < weights.length; j++) {
          z += weights[j] * row[j];
        }
        if (k == 0) {
          max = z;
          scaled = 1;
        } else if (z > max) {
          scaled = scaled * Math.exp(max - z) + 1;
          max = z;
        } else {
          scaled += Math.exp(z - max);
        }
        if (k == c[i]) {
          target = z;
        }
      }
      sum += max + Math.log(scaled) - target;
    }
    return sum / x.length;
  }

  /**
   * The same loss as {@link #loss}, written as one often writes it: an array of the scores of
   * each sample, made in the loop, and helpers for the dot product and the log-sum-exp. ad4j
   * records each sample's array for the reverse sweep of the calls that take it.
   *
   * @param W the weights, one row per class, each as long as a row of {@code x}
   * @param b the biases, one per class
   * @param x the features, one row per sample
   * @param c the class of each sample, from 0 to {@code W.length − 1}
   * @return the mean cross-entropy
   */
  @Differentiable
  public static double lossWithScores(double[][] W, double[] b, @NoDerivative double[][] x,
      @NoDerivative int[] c) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double[] z = new double[W.length];
      for (int k = 0; k < W.length; k++) {
        z[k] = b[k] + dot(W[k], x[i]);
      }
      sum += logSumExp(z) - z[c[i]];
    }
    return sum / x.length;
  }

  /**
   * The dot product.
   *
   * @param u a vector
   * @param v a vector as long as {@code u}
   * @return {@code u · v}
   */
  @Differentiable
  public static double dot(double[] u, double[] v) {
    double s = 0;
    for (int j = 0; j < u.length; j++) {
      s += u[j] * v[j];
    }
    return s;
  }

  /**
   * {@code log Σ_k exp(z_k)}, computed relative to the largest {@code z_k}.
   *
   * @param z the scores, at least one
   * @return their log-sum-exp
   */
  @Differentiable
  public static double logSumExp(double[] z) {
    double max = z[0];
    for (double v : z) {
      max = Math.max(max, v);
    }
    double sum = 0;
    for (double v : z) {
      sum += Math.exp(v - max);
    }
    return max + Math.log(sum);
  }

  /**
   * The fraction of samples whose highest score is that of their class.
   *
   * @param W the weights
   * @param b the biases
   * @param x the features
   * @param c the classes
   * @return the accuracy, between 0 and 1
   */
  public static double accuracy(double[][] W, double[] b, double[][] x, int[] c) {
    int right = 0;
    for (int i = 0; i < x.length; i++) {
      int best = 0;
      double bestScore = Double.NEGATIVE_INFINITY;
      for (int k = 0; k < W.length; k++) {
        double z = b[k];
        for (int j = 0; j < W[k].length; j++) {
          z += W[k][j] * x[i][j];
        }
        if (z > bestScore) {
          bestScore = z;
          best = k;
        }
      }
      if (best == c[i]) {
        right++;
      }
    }
    return (double) right / x.length;
  }

  /**
   * Trains by gradient descent from zero: the gradient's slots are {@code W} row by row, then
   * {@code b}.
   *
   * @param x the features
   * @param c the classes
   * @param classes the number of classes
   * @param steps the number of steps
   * @param progress told the loss before each step and at the end; may be null
   * @return the weights {@code W} (one row per class) followed by one row of biases
   */
  public static double[][] train(double[][] x, int[] c, int classes, int steps,
      LogisticRegression.Progress progress) {
    int d = x[0].length;
    double[][] w = new double[classes][d];
    double[] b = new double[classes];
    double[] gradient = new double[classes * d + classes];
    for (int step = 0; ; step++) {
      double value = SoftmaxRegressionGrad.lossValueAndGradient(w, b, x, c, gradient);
      if (progress != null) {
        progress.at(step, value);
      }
      if (step == steps) {
        break;
      }
      for (int k = 0; k < classes; k++) {
        for (int j = 0; j < d; j++) {
          w[k][j] -= STEP * gradient[k * d + j];
        }
        b[k] -= STEP * gradient[classes * d + k];
      }
    }
    double[][] result = new double[classes + 1][];
    System.arraycopy(w, 0, result, 0, classes);
    result[classes] = b;
    return result;
  }

  /**
   * Trains on the iris data and prints the loss falling and the training accuracy.
   *
   * @param out where to print
   */
  public static void print(PrintStream out) {
    Dataset data = Dataset.iris();
    double[][] x = data.standardized();
    int classes = data.classNames().length;
    out.println("Softmax regression, loss(double[][] W, double[] b, @NoDerivative double[][] x,"
        + " @NoDerivative int[] c)");
    out.println("  data: Fisher's iris, " + x.length + " samples, " + x[0].length
        + " features (standardised), " + classes + " classes "
        + String.join("/", data.classNames()));
    out.println("  plain gradient descent, step " + Fmt.num(STEP) + ", gradient from"
        + " SoftmaxRegressionGrad.lossValueAndGradient (" + (classes * x[0].length + classes)
        + " slots: W row by row, then b)");
    StringBuilder losses = new StringBuilder();
    double[][] trained = train(x, data.classes(), classes, STEPS, (step, loss) -> {
      if (step == 0 || step == 1 || step == 10 || step == 100 || step == STEPS) {
        losses.append(String.format(java.util.Locale.ROOT, "%s%d: %.6f", step == 0 ? "" : ", ",
            step, loss));
      }
    });
    double[][] w = java.util.Arrays.copyOf(trained, classes);
    out.println(String.format(Locale.ROOT, "  loss after n steps: %s; training accuracy %.1f %%", losses,
        100 * accuracy(w, trained[classes], x, data.classes())));
  }
}
