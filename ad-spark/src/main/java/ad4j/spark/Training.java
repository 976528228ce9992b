package ad4j.spark;

import ad4j.spark.DistributedGradient.LossAndGradient;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.mllib.linalg.Vector;
import org.apache.spark.mllib.linalg.Vectors;
import org.apache.spark.mllib.optimization.LBFGS;
import org.apache.spark.mllib.optimization.SimpleUpdater;
import scala.Tuple2;

/**
 * Training on partitions with generated gradients, and the same training on one machine to
 * check it against: gradient descent on the driver for logistic regression and for a Gaussian
 * mixture, Spark MLlib's L-BFGS through {@link GeneratedLogisticGradient}, and Newton's method
 * with the generated Hessian for the single-machine optimum.
 */
public final class Training {
  private Training() {}

  /** What an optimiser reports at each iteration. */
  @FunctionalInterface
  public interface Progress {
    /**
     * Called once per iteration, before the step.
     *
     * @param iteration the iteration, from 0
     * @param meanLoss the mean loss per row at the weights of this iteration
     */
    void iteration(int iteration, double meanLoss);
  }

  /** Reports nothing. */
  public static final Progress SILENT = (iteration, meanLoss) -> { };

  /**
   * The generated pullback of the logistic loss of one block: what a partition runs.
   *
   * @return {@code LogisticLossGrad.lossPullback} with seed 1
   */
  public static DistributedGradient.BlockPullback<double[], Block> logisticPullback() {
    return (w, block, adjoints) ->
        LogisticLossGrad.lossPullback(w, block.x(), block.y(), 1.0, adjoints);
  }

  /**
   * Gradient descent on the mean logistic loss over partitions: each iteration is one Spark job
   * ({@link DistributedGradient#sum}), the step is taken on the driver.
   *
   * @param blocks the data, cached
   * @param rows the number of rows in {@code blocks}
   * @param start the weights to start from (not changed)
   * @param step the step size
   * @param iterations the number of steps
   * @param progress told the loss of each iteration
   * @return the weights after {@code iterations} steps
   */
  public static double[] gradientDescent(JavaRDD<Block> blocks, long rows, double[] start,
      double step, int iterations, Progress progress) {
    double[] w = start.clone();
    for (int t = 0; t < iterations; t++) {
      LossAndGradient sum = DistributedGradient.sum(blocks, w, w.length, logisticPullback());
      progress.iteration(t, sum.loss() / rows);
      descend(w, sum.gradient(), step / rows);
    }
    return w;
  }

  /**
   * The same gradient descent on one machine, over all rows as one block.
   *
   * @param all every row
   * @param start the weights to start from (not changed)
   * @param step the step size
   * @param iterations the number of steps
   * @param progress told the loss of each iteration
   * @return the weights after {@code iterations} steps
   */
  public static double[] gradientDescent(Block all, double[] start, double step, int iterations,
      Progress progress) {
    double[] w = start.clone();
    double[] gradient = new double[w.length];
    for (int t = 0; t < iterations; t++) {
      double loss = LogisticLossGrad.lossValueAndGradient(w, all.x(), all.y(), gradient);
      progress.iteration(t, loss / all.rows());
      descend(w, gradient, step / all.rows());
    }
    return w;
  }

  /**
   * Spark MLlib's L-BFGS on the mean logistic loss, with the generated gradient as its
   * {@code Gradient} ({@link GeneratedLogisticGradient}) and no regularisation.
   *
   * @param blocks the data, cached
   * @param start the weights to start from
   * @param corrections the number of corrections L-BFGS keeps (MLlib's default is 10)
   * @param tolerance L-BFGS' convergence tolerance
   * @param maxIterations at most this many iterations
   * @return the weights and the mean loss of each iteration
   */
  public static Lbfgs lbfgs(JavaRDD<Block> blocks, double[] start, int corrections,
      double tolerance, int maxIterations) {
    JavaRDD<Tuple2<Object, Vector>> points = labelledPoints(blocks).cache();
    try {
      Tuple2<Vector, double[]> result = LBFGS.runLBFGS(points.rdd(),
          new GeneratedLogisticGradient(), new SimpleUpdater(), corrections, tolerance,
          maxIterations, 0.0, Vectors.dense(start.clone()));
      return new Lbfgs(result._1().toArray(), result._2());
    } finally {
      points.unpersist(false);
    }
  }

  /**
   * L-BFGS' result.
   *
   * @param weights the weights it ends at
   * @param lossHistory the mean loss at each iteration, as MLlib reports it
   */
  public record Lbfgs(double[] weights, double[] lossHistory) {}

  /**
   * The rows of {@code blocks} as MLlib's optimisers take them, {@code (label, features)}, the
   * features a dense vector over the block's own row (nothing is copied).
   *
   * @param blocks the data
   * @return one pair per row
   */
  public static JavaRDD<Tuple2<Object, Vector>> labelledPoints(JavaRDD<Block> blocks) {
    return blocks.flatMap(block -> {
      List<Tuple2<Object, Vector>> points = new ArrayList<>(block.rows());
      for (int i = 0; i < block.rows(); i++) {
        points.add(new Tuple2<>(block.y()[i], Vectors.dense(block.x()[i])));
      }
      return points.iterator();
    });
  }

  /**
   * Newton's method on the mean logistic loss on one machine, with the generated gradient and
   * Hessian: the optimum that the distributed optimisers are checked against (it converges
   * quadratically, to rounding).
   *
   * @param all every row
   * @param start the weights to start from (not changed)
   * @param iterations the number of Newton steps
   * @return the weights
   */
  public static double[] newton(Block all, double[] start, int iterations) {
    double[] w = start.clone();
    int n = w.length;
    double[] gradient = new double[n];
    double[][] hessian = new double[n][n];
    for (int t = 0; t < iterations; t++) {
      LogisticLossGrad.lossValueGradientAndHessian(w, all.x(), all.y(), gradient, hessian);
      double[] step = solve(hessian, gradient);
      for (int j = 0; j < n; j++) {
        w[j] -= step[j];
      }
    }
    return w;
  }

  /**
   * Gradient descent on a Gaussian mixture's mean negative log-likelihood plus its prior over
   * partitions ({@link GaussianMixture}).
   *
   * @param points the points, in blocks, cached
   * @param count the number of points
   * @param start the parameters to start from
   * @param step the step size
   * @param iterations the number of steps
   * @param progress told the objective (per point) of each iteration
   * @return the parameters after {@code iterations} steps
   */
  public static MixtureParameters gradientDescent(JavaRDD<double[][]> points, long count,
      MixtureParameters start, double step, int iterations, Progress progress) {
    MixtureParameters theta = start;
    for (int t = 0; t < iterations; t++) {
      LossAndGradient sum = DistributedGradient.sum(points, theta, theta.slots(),
          mixturePullback());
      double objective = addPrior(theta, sum.loss(), sum.gradient());
      progress.iteration(t, objective / count);
      theta = theta.minus(step / count, sum.gradient());
    }
    return theta;
  }

  /**
   * The same gradient descent on one machine, over all points as one block.
   *
   * @param points every point
   * @param start the parameters to start from
   * @param step the step size
   * @param iterations the number of steps
   * @param progress told the objective (per point) of each iteration
   * @return the parameters after {@code iterations} steps
   */
  public static MixtureParameters gradientDescent(double[][] points, MixtureParameters start,
      double step, int iterations, Progress progress) {
    MixtureParameters theta = start;
    for (int t = 0; t < iterations; t++) {
      double[] gradient = new double[theta.slots()];
      double loss = GaussianMixtureGrad.negativeLogLikelihoodValueAndGradient(theta.alphas(),
          theta.means(), theta.icf(), points, gradient);
      double objective = addPrior(theta, loss, gradient);
      progress.iteration(t, objective / points.length);
      theta = theta.minus(step / points.length, gradient);
    }
    return theta;
  }

  /**
   * The generated pullback of a Gaussian mixture's negative log-likelihood over one block.
   *
   * @return {@code GaussianMixtureGrad.negativeLogLikelihoodPullback} with seed 1
   */
  public static DistributedGradient.BlockPullback<MixtureParameters, double[][]>
      mixturePullback() {
    return (theta, block, adjoints) -> GaussianMixtureGrad.negativeLogLikelihoodPullback(
        theta.alphas(), theta.means(), theta.icf(), block, 1.0, adjoints);
  }

  /**
   * Adds the prior, a term of the parameters alone, once, on the driver: its value to
   * {@code loss}, its gradient into the {@code icf} slots of {@code gradient}.
   *
   * @return the objective
   */
  private static double addPrior(MixtureParameters theta, double loss, double[] gradient) {
    int icfSlots = 0;
    for (double[] factor : theta.icf()) {
      icfSlots += factor.length;
    }
    double[] prior = new double[icfSlots];
    double value = GaussianMixtureGrad.priorValueAndGradient(theta.icf(), theta.dimension(),
        prior);
    int icfStart = theta.slots() - icfSlots;
    for (int s = 0; s < icfSlots; s++) {
      gradient[icfStart + s] += prior[s];
    }
    return loss + value;
  }

  private static void descend(double[] w, double[] gradient, double scale) {
    for (int j = 0; j < w.length; j++) {
      w[j] -= scale * gradient[j];
    }
  }

  /** Solves {@code a x = b} by Gaussian elimination with partial pivoting (copies both). */
  static double[] solve(double[][] a, double[] b) {
    int n = b.length;
    double[][] m = new double[n][];
    for (int i = 0; i < n; i++) {
      m[i] = java.util.Arrays.copyOf(a[i], n + 1);
      m[i][n] = b[i];
    }
    for (int col = 0; col < n; col++) {
      int pivot = col;
      for (int r = col + 1; r < n; r++) {
        if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) {
          pivot = r;
        }
      }
      double[] swap = m[col];
      m[col] = m[pivot];
      m[pivot] = swap;
      for (int r = col + 1; r < n; r++) {
        double f = m[r][col] / m[col][col];
        for (int c = col; c <= n; c++) {
          m[r][c] -= f * m[col][c];
        }
      }
    }
    double[] x = new double[n];
    for (int r = n - 1; r >= 0; r--) {
      double s = m[r][n];
      for (int c = r + 1; c < n; c++) {
        s -= m[r][c] * x[c];
      }
      x[r] = s / m[r][r];
    }
    return x;
  }
}
