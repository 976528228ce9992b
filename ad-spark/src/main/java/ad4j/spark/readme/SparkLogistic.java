package ad4j.spark.readme;

import ad4j.Differentiable;
import ad4j.NoDerivative;
import java.io.Serializable;
import org.apache.spark.api.java.JavaRDD;

/** Logistic regression on Spark with a generated gradient, as the user guide shows it. */
public final class SparkLogistic {
  private SparkLogistic() {}

  /** A block of rows: features, and labels 0 or 1. */
  public record Rows(double[][] x, double[] y) implements Serializable {}

  /** The logistic loss of a block, summed over its rows, so that blocks add up. */
  @Differentiable
  public static double loss(double[] w, @NoDerivative double[][] x, @NoDerivative double[] y) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double z = 0;
      for (int j = 0; j < w.length; j++) {
        z += w[j] * x[i][j];
      }
      sum += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - y[i] * z;
    }
    return sum;
  }

  /** Gradient descent on the mean loss: one Spark job per step, each step on the driver. */
  public static double[] train(JavaRDD<Rows> blocks, long rows, double step, int steps) {
    int n = blocks.first().x()[0].length;
    double[] w = new double[n];
    for (int t = 0; t < steps; t++) {
      double[] sums = blocks.treeAggregate(new double[n + 1], // gradient, then loss
          (acc, b) -> { // a block: the generated pullback adds its gradient into acc
            acc[n] += SparkLogisticGrad.lossPullback(w, b.x(), b.y(), 1.0, acc);
            return acc;
          },
          (acc, other) -> { // two partitions' sums
            for (int i = 0; i <= n; i++) {
              acc[i] += other[i];
            }
            return acc;
          });
      for (int j = 0; j < n; j++) {
        w[j] -= step * sums[j] / rows;
      }
    }
    return w;
  }
}
