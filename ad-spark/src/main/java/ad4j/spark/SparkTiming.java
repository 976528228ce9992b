package ad4j.spark;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
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
import org.apache.spark.storage.RDDInfo;
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
 *       {@code Gradient}, on the same path;
 *   <li>{@code Spark, empty job}: a job over the same cached blocks, on the same path as
 *       {@code Spark, blocks}, whose tasks only step through their partitions: Spark's own cost
 *       of a job, spread over the rows.
 * </ul>
 *
 * <p>The variants take turns, round after round, so that a machine shared with other work slows
 * them alike; each round times a few gradients of each, by the wall clock and by the CPU time of
 * the whole JVM (every thread: Spark's scheduler, the executor, the JIT and the collector), which
 * a busy machine disturbs less than the wall clock. Printed: the median and the range of each
 * over the rounds, per row, and the ratios of the medians.
 */
public final class SparkTiming {
  private SparkTiming() {}

  /**
   * Runs the measurement.
   *
   * @param args rows (default 1,000,000), partitions (default 4), rounds (default 15),
   *     gradients per variant in a round (default 3: the JVM's CPU time has a coarse grain)
   */
  public static void main(String[] args) {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    int batch = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    int blockCount = Math.max(1, rows / 10_000);
    SyntheticData.Logistic data = new SyntheticData.Logistic(2026, 20, rows / blockCount);
    double[] w = data.trueWeights();
    try (JavaSparkContext spark = LocalSpark.start(1, "ad4j SparkTiming")) {
      JavaRDD<Block> blocks = data.rdd(spark, blockCount, partitions).setName("blocks");
      JavaRDD<Tuple2<Object, Vector>> points =
          Training.labelledPoints(blocks).setName("(label, features) pairs").cache();
      long n = points.count();
      List<Block> local = new ArrayList<>();
      for (int b = 0; b < blockCount; b++) {
        local.add(data.block(b));
      }
      System.out.printf(Locale.ROOT, "%,d rows x 20 features, %d blocks, %d partitions,"
          + " local[1]; %d rounds of %d gradients per variant; %s %s%n", n, blockCount,
          partitions, rounds, batch,
          System.getProperty("java.vm.name"), System.getProperty("java.version"));

      String[] names = {"plain loop, generated pullback", "Spark, blocks, generated pullback",
          "Spark, MLlib LogisticGradient", "Spark, GeneratedLogisticGradient",
          "Spark, empty job"};
      DoubleSupplier[] variants = {
          () -> plainLoop(local, w),
          () -> DistributedGradient.sum(blocks, w, w.length, Training.logisticPullback()).loss(),
          () -> perRow(points, w, new LogisticGradient(2)),
          () -> perRow(points, w, new GeneratedLogisticGradient()),
          () -> DistributedGradient.sum(blocks, w, w.length, (p, block, adjoints) -> 0.0).loss()};
      OperatingSystemMXBean os =
          (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      double[][] nanosPerRow = new double[variants.length][rounds];
      double[][] cpuNanosPerRow = new double[variants.length][rounds];
      double[] losses = new double[variants.length];
      for (int warmup = 0; warmup < 10; warmup++) {
        for (int v = 0; v < variants.length; v++) {
          losses[v] = variants[v].getAsDouble();
        }
      }
      for (int r = 0; r < rounds; r++) {
        for (int v = 0; v < variants.length; v++) {
          long cpu = os.getProcessCpuTime();
          long start = System.nanoTime();
          for (int b = 0; b < batch; b++) {
            losses[v] = variants[v].getAsDouble();
          }
          nanosPerRow[v][r] = (System.nanoTime() - start) / ((double) n * batch);
          cpuNanosPerRow[v][r] = (os.getProcessCpuTime() - cpu) / ((double) n * batch);
        }
      }
      double[] wall = new double[variants.length];
      double[] cpu = new double[variants.length];
      System.out.printf(Locale.ROOT, "  %-36s %28s %28s  %s%n", "ns per row", "wall (min, max)",
          "JVM CPU (min, max)", "mean loss");
      for (int v = 0; v < variants.length; v++) {
        wall[v] = median(nanosPerRow[v]);
        cpu[v] = median(cpuNanosPerRow[v]);
        System.out.printf(Locale.ROOT, "  %-36s %8.1f (%6.1f, %6.1f) %11.1f (%6.1f, %6.1f)  %.10f%n",
            names[v], wall[v], min(nanosPerRow[v]), max(nanosPerRow[v]), cpu[v],
            min(cpuNanosPerRow[v]), max(cpuNanosPerRow[v]), losses[v] / n);
      }
      for (RDDInfo cached : spark.sc().getRDDStorageInfo()) {
        System.out.printf(Locale.ROOT, "cached: %s, %d of %d partitions in memory, %.0f MB%n",
            cached.name(), cached.numCachedPartitions(), cached.numPartitions(),
            cached.memSize() / 1e6);
      }
      System.out.printf(Locale.ROOT, "ratios of medians, wall (JVM CPU): Spark blocks / plain loop"
          + " %.3f (%.3f); MLlib LogisticGradient / Spark blocks %.2f (%.2f);"
          + " GeneratedLogisticGradient / MLlib LogisticGradient %.2f (%.2f);"
          + " (plain loop + empty job) / plain loop %.3f (%.3f)%n",
          wall[1] / wall[0], cpu[1] / cpu[0], wall[2] / wall[1], cpu[2] / cpu[1],
          wall[3] / wall[2], cpu[3] / cpu[2], (wall[0] + wall[4]) / wall[0],
          (cpu[0] + cpu[4]) / cpu[0]);
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int m = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
  }

  private static double min(double[] values) {
    return Arrays.stream(values).min().orElse(Double.NaN);
  }

  private static double max(double[] values) {
    return Arrays.stream(values).max().orElse(Double.NaN);
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
