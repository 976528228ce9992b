package ad4j.spark;

import java.io.PrintStream;
import java.util.Locale;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The sample: logistic regression on 10⁶ rows × 20 features, made reproducibly block by block on
 * the executors, trained on partitions with generated gradients, by gradient descent on the
 * driver and by Spark MLlib's L-BFGS through {@link GeneratedLogisticGradient}; the loss falls,
 * the accuracy is printed, and the weights are compared with the same training on one machine.
 * Then a Gaussian mixture fitted to points in partitions by gradient descent, likewise.
 *
 * <p>Run with {@code ad-spark/run.sh} after {@code mvn -q -B -DskipTests package}; arguments
 * (rows, partitions, executor threads) follow: {@code ad-spark/run.sh SparkTraining 200000 4 2}.
 */
public final class SparkTraining {
  private SparkTraining() {}

  private static final int FEATURES = 20;
  private static final int ROWS_PER_BLOCK = 10_000;
  private static final double STEP = 2.0;
  private static final int STEPS = 30;

  /**
   * Runs the sample.
   *
   * @param args rows (default 1,000,000), partitions (default 8), executor threads (default 2)
   */
  public static void main(String[] args) {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    PrintStream out = System.out;
    try (JavaSparkContext spark = LocalSpark.start(threads, "ad4j SparkTraining")) {
      logisticRegression(spark, rows, partitions, threads, out);
      gaussianMixture(spark, rows / 5, partitions, out);
    }
  }

  private static void logisticRegression(JavaSparkContext spark, int rows, int partitions,
      int threads, PrintStream out) {
    int blockCount = Math.max(1, rows / ROWS_PER_BLOCK);
    SyntheticData.Logistic data = new SyntheticData.Logistic(2026, FEATURES, rows / blockCount);
    long made = System.nanoTime();
    JavaRDD<Block> blocks = data.rdd(spark, blockCount, partitions);
    long n = blocks.map(Block::rows).reduce(Integer::sum);
    out.printf(Locale.ROOT, "Logistic regression on Spark, local[%d]: %,d rows x %d features in"
        + " %d blocks over %d partitions (made and cached in %.1f s)%n", threads, n, FEATURES,
        blockCount, blocks.getNumPartitions(), seconds(made));

    out.printf(Locale.ROOT, "%nGradient descent on partitions, step %.1f (one Spark job per"
        + " gradient: LogisticLossGrad.lossPullback per block, partitions summed on the driver):%n",
        STEP);
    double[] start = new double[FEATURES];
    long started = System.nanoTime();
    double[] w = Training.gradientDescent(blocks, n, start, STEP, STEPS,
        (t, loss) -> {
          if (t % 5 == 0 || t == STEPS - 1) {
            out.printf(Locale.ROOT, "  iteration %2d  mean loss %.6f%n", t, loss);
          }
        });
    out.printf(Locale.ROOT, "  %d iterations in %.1f s; training accuracy %.4f%n", STEPS,
        seconds(started), accuracy(blocks, w, n));

    Block all = data.all(blockCount);
    started = System.nanoTime();
    double[] single = Training.gradientDescent(all, start, STEP, STEPS, Training.SILENT);
    out.printf(Locale.ROOT, "  the same %d iterations on one machine (one block of all rows, %.1f"
        + " s): max |w_spark - w_single| = %.1e%n", STEPS, seconds(started), maxDiff(w, single));

    out.printf(Locale.ROOT, "%nSpark MLlib's L-BFGS with GeneratedLogisticGradient (its Gradient,"
        + " around the generated code):%n");
    started = System.nanoTime();
    Training.Lbfgs lbfgs = Training.lbfgs(blocks, start, 10, 1e-12, 100);
    double[] history = lbfgs.lossHistory();
    for (int t = 0; t < history.length; t++) {
      if (t % 3 == 0 || t == history.length - 1) {
        out.printf(Locale.ROOT, "  iteration %2d  mean loss %.12f%n", t, history[t]);
      }
    }
    out.printf(Locale.ROOT, "  %d iterations in %.1f s; training accuracy %.4f%n",
        history.length, seconds(started), accuracy(blocks, lbfgs.weights(), n));
    started = System.nanoTime();
    double[] optimum = Training.newton(all, start, 7);
    out.printf(Locale.ROOT, "  Newton's method on one machine (generated Hessian, 7 steps, %.1f s):"
        + " max |w_lbfgs - w_newton| = %.1e%n", seconds(started),
        maxDiff(lbfgs.weights(), optimum));
    out.printf(Locale.ROOT, "  the weights the labels were drawn with, against the fitted ones:"
        + " max |w* - w| = %.3f (sampling error of %,d rows)%n",
        maxDiff(data.trueWeights(), optimum), n);
    blocks.unpersist(false);
  }

  private static void gaussianMixture(JavaSparkContext spark, int points, int partitions,
      PrintStream out) {
    int components = 3;
    int blockCount = Math.max(1, points / ROWS_PER_BLOCK);
    SyntheticData.Mixture data =
        new SyntheticData.Mixture(7, components, points / blockCount);
    JavaRDD<double[][]> blocks = data.rdd(spark, blockCount, partitions);
    long n = blocks.map(b -> b.length).reduce(Integer::sum);
    out.printf(Locale.ROOT, "%nGaussian mixture on Spark: %,d points in the plane from %d"
        + " components, %d blocks over %d partitions; gradient descent on partitions"
        + " (GaussianMixtureGrad.negativeLogLikelihoodPullback per block):%n", n, components,
        blockCount, blocks.getNumPartitions());
    MixtureParameters start = MixtureParameters.start(components);
    int steps = 60;
    double step = 1.0;
    long started = System.nanoTime();
    MixtureParameters theta = Training.gradientDescent(blocks, n, start, step, steps,
        (t, objective) -> {
          if (t % 10 == 0 || t == steps - 1) {
            out.printf(Locale.ROOT, "  iteration %2d  objective per point %.6f%n", t, objective);
          }
        });
    out.printf(Locale.ROOT, "  %d iterations in %.1f s; fitted means:", steps, seconds(started));
    for (double[] mean : theta.means()) {
      out.printf(Locale.ROOT, " (%.2f, %.2f)", mean[0], mean[1]);
    }
    out.printf(Locale.ROOT, " (drawn around 4 (cos, sin) of 0, 120 and 240 degrees)%n");
    MixtureParameters single =
        Training.gradientDescent(data.all(blockCount), start, step, steps, Training.SILENT);
    out.printf(Locale.ROOT, "  the same %d iterations on one machine: max |theta_spark -"
        + " theta_single| = %.1e%n", steps, maxDiff(theta.flat(), single.flat()));
    blocks.unpersist(false);
  }

  /** The training accuracy, counted on the partitions. */
  private static double accuracy(JavaRDD<Block> blocks, double[] w, long rows) {
    long right = blocks.map(b -> LogisticLoss.correct(w, b.x(), b.y())).reduce(Long::sum);
    return (double) right / rows;
  }

  private static double maxDiff(double[] a, double[] b) {
    double max = 0;
    for (int i = 0; i < a.length; i++) {
      max = Math.max(max, Math.abs(a[i] - b[i]));
    }
    return max;
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }
}
