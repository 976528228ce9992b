package ad4j.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleSupplier;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.mllib.linalg.Vector;
import org.apache.spark.mllib.linalg.Vectors;
import org.apache.spark.mllib.optimization.Gradient;
import org.apache.spark.mllib.optimization.LogisticGradient;
import scala.Tuple2;

/**
 * The measurement of BENCHMARKS.md ("Running on Spark"): the time per row of one full gradient
 * of the logistic loss over 10⁶ rows × 20 features, cached, in one executor thread
 * ({@code local[1]}) against one thread of a plain Java loop:
 *
 * <ul>
 *   <li>{@code plain loop}: the generated {@code lossPullback} over each block, in a loop on the
 *       driver's arrays, no Spark;
 *   <li>{@code Spark, blocks}: the same pullback per block inside Spark
 *       ({@link DistributedGradient#sum});
 *   <li>{@code Spark, MLlib LogisticGradient}: Spark MLlib's own hand-written gradient, row by
 *       row over {@code (label, features)} pairs, summed by {@code treeAggregate} as MLlib's
 *       L-BFGS sums it;
 *   <li>{@code Spark, GeneratedLogisticGradient}: the generated code through MLlib's
 *       {@code Gradient}, on the same path.
 * </ul>
 *
 * <p>The variants take turns, round after round, so that a machine shared with other work slows
 * them alike; each round times one gradient of each. Printed: the median and the range of the
 * time per row over the rounds, and the ratios of the medians.
 */
public final class SparkTiming {
  private SparkTiming() {}

  /**
   * Runs the measurement.
   *
   * @param args rows (default 1,000,000), partitions (default 4), rounds (default 15)
   */
  public static void main(String[] args) {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    int blockCount = Math.max(1, rows / 10_000);
    SyntheticData.Logistic data = new SyntheticData.Logistic(2026, 20, rows / blockCount);
    double[] w = data.trueWeights();
    try (JavaSparkContext spark = LocalSpark.start(1, "ad4j SparkTiming")) {
      JavaRDD<Block> blocks = data.rdd(spark, blockCount, partitions);
      JavaRDD<Tuple2<Object, Vector>> points = Training.labelledPoints(blocks).cache();
      long n = points.count();
      List<Block> local = new ArrayList<>();
      for (int b = 0; b < blockCount; b++) {
        local.add(data.block(b));
      }
      System.out.printf(Locale.ROOT, "%,d rows x 20 features, %d blocks, %d partitions,"
          + " local[1]; %d rounds; %s %s%n", n, blockCount, partitions, rounds,
          System.getProperty("java.vm.name"), System.getProperty("java.version"));

      String[] names = {"plain loop, generated pullback", "Spark, blocks, generated pullback",
          "Spark, MLlib LogisticGradient", "Spark, GeneratedLogisticGradient"};
      DoubleSupplier[] variants = {
          () -> plainLoop(local, w),
          () -> DistributedGradient.sum(blocks, w, w.length, Training.logisticPullback()).loss(),
          () -> perRow(points, w, new LogisticGradient(2)),
          () -> perRow(points, w, new GeneratedLogisticGradient())};
      double[][] nanosPerRow = new double[variants.length][rounds];
      double[] losses = new double[variants.length];
      for (int warmup = 0; warmup < 5; warmup++) {
        for (int v = 0; v < variants.length; v++) {
          losses[v] = variants[v].getAsDouble();
        }
      }
      for (int r = 0; r < rounds; r++) {
        for (int v = 0; v < variants.length; v++) {
          long start = System.nanoTime();
          losses[v] = variants[v].getAsDouble();
          nanosPerRow[v][r] = (System.nanoTime() - start) / (double) n;
        }
      }
      double[] medians = new double[variants.length];
      for (int v = 0; v < variants.length; v++) {
        double[] sorted = nanosPerRow[v].clone();
        Arrays.sort(sorted);
        medians[v] = sorted[rounds / 2];
        System.out.printf(Locale.ROOT, "  %-36s %6.1f ns/row (min %.1f, max %.1f)   loss %.10f%n",
            names[v], medians[v], sorted[0], sorted[rounds - 1], losses[v] / n);
      }
      System.out.printf(Locale.ROOT, "Spark blocks / plain loop: %.3f; MLlib LogisticGradient /"
          + " Spark blocks: %.2f; GeneratedLogisticGradient / MLlib LogisticGradient: %.2f%n",
          medians[1] / medians[0], medians[2] / medians[1], medians[3] / medians[2]);
    }
  }

  private static double plainLoop(List<Block> blocks, double[] w) {
    double[] sums = new double[w.length + 1];
    for (Block block : blocks) {
      sums[w.length] += LogisticLossGrad.lossPullback(w, block.x(), block.y(), 1.0, sums);
    }
    return sums[w.length];
  }

  /** A gradient summed row by row as MLlib's L-BFGS sums it (its CostFun), loss returned. */
  private static double perRow(JavaRDD<Tuple2<Object, Vector>> points, double[] w,
      Gradient gradient) {
    Vector weights = Vectors.dense(w);
    Tuple2<double[], Double> zero = new Tuple2<>(new double[w.length], 0.0);
    Tuple2<double[], Double> sum = points.treeAggregate(zero,
        (acc, point) -> {
          double loss = gradient.compute(point._2(), (Double) point._1(), weights,
              Vectors.dense(acc._1()));
          return new Tuple2<>(acc._1(), acc._2() + loss);
        },
        (a, b) -> {
          for (int j = 0; j < a._1().length; j++) {
            a._1()[j] += b._1()[j];
          }
          return new Tuple2<>(a._1(), a._2() + b._2());
        },
        2);
    return sum._2();
  }
}
