package ad4j.spark;

import ad4j.Differentiable;
import ad4j.NoDerivative;

/**
 * The logistic-regression loss, written once over a block of rows; ad4j generates its gradient
 * ({@code LogisticLossGrad}). The loss of a block is a sum over its rows, so the loss of the
 * whole data set is the sum of the losses of its blocks, wherever they are, and so is the
 * gradient: what a partition computes adds up on the driver. Its Hessian ({@code order = 2})
 * gives the single-machine optimum that the distributed optimisers are checked against, by
 * Newton's method.
 */
public final class LogisticLoss {
  private LogisticLoss() {}

  /**
   * The summed logistic loss {@code Σ log(1 + exp(w·x_i)) − y_i w·x_i} of a block of rows with
   * labels {@code y_i ∈ {0, 1}}, as Spark MLlib's {@code LogisticGradient} defines it, written so
   * that it never overflows: {@code log(1 + e^z)} is {@code z + log1p(exp(−z))} for {@code z > 0}
   * and {@code log1p(exp(z))} otherwise. A label that is neither 0 nor 1 is a bad row: the method
   * throws, naming the row, and so fails the Spark job that meets it.
   *
   * @param w the weights, one per feature (a constant feature 1 makes the first an intercept)
   * @param x the features, one row per sample, each row as long as {@code w}
   * @param y the labels, 0 or 1
   * @return the loss summed over the rows
   */
  @Differentiable(order = 2)
  public static double loss(double[] w, @NoDerivative double[][] x, @NoDerivative double[] y) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double label = y[i];
      if (label != 0 && label != 1) {
        throw new IllegalArgumentException("row " + i + " of the block: label " + label
            + " is neither 0 nor 1");
      }
      double[] row = x[i];
      double z = 0;
      for (int j = 0; j < w.length; j++) {
        z += w[j] * row[j];
      }
      if (z > 0) {
        sum += z + Math.log1p(Math.exp(-z)) - label * z;
      } else {
        sum += Math.log1p(Math.exp(z)) - label * z;
      }
    }
    return sum;
  }

  /**
   * The number of rows whose label is 1 exactly where {@code w·x > 0}: rows classified right.
   *
   * @param w the weights
   * @param x the features
   * @param y the labels, 0 or 1
   * @return that number (a count, so that the counts of blocks add up)
   */
  public static long correct(double[] w, double[][] x, double[] y) {
    long right = 0;
    for (int i = 0; i < x.length; i++) {
      double z = 0;
      for (int j = 0; j < w.length; j++) {
        z += w[j] * x[i][j];
      }
      if ((z > 0) == (y[i] == 1)) {
        right++;
      }
    }
    return right;
  }
}
