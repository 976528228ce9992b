package ad4j.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Reproducible data sets made block by block: block {@code b} is a function of the seed and
 * {@code b} alone, so Spark's executors make each block where it will live (no data set travels
 * from the driver), and a single machine makes exactly the same rows by asking for every block
 * in turn.
 */
public final class SyntheticData {
  private SyntheticData() {}

  /**
   * Logistic-regression data: rows of {@code features} numbers, the first 1 (the intercept's
   * feature) and the others standard normal; the label of a row is 1 with probability
   * {@code 1 / (1 + exp(−w*·x))} for weights {@code w*} drawn from the seed.
   *
   * @param seed the seed of the data set
   * @param features the number of features, the constant one included
   * @param rowsPerBlock the rows of each block
   */
  public record Logistic(long seed, int features, int rowsPerBlock)
      implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The weights that the labels are drawn with.
     *
     * @return {@code w*}, as long as a row
     */
    public double[] trueWeights() {
      SplittableRandom random = new SplittableRandom(seed);
      double[] w = new double[features];
      for (int j = 0; j < features; j++) {
        w[j] = random.nextDouble(-1, 1);
      }
      return w;
    }

    /**
     * Block {@code index}.
     *
     * @param index which block
     * @return its rows
     */
    public Block block(int index) {
      double[] w = trueWeights();
      SplittableRandom random = blockRandom(seed, index);
      double[][] x = new double[rowsPerBlock][features];
      double[] y = new double[rowsPerBlock];
      for (int i = 0; i < rowsPerBlock; i++) {
        double[] row = x[i];
        row[0] = 1;
        double z = w[0];
        for (int j = 1; j < features; j++) {
          row[j] = normal(random);
          z += w[j] * row[j];
        }
        y[i] = random.nextDouble() < 1 / (1 + Math.exp(-z)) ? 1 : 0;
      }
      return new Block(x, y);
    }

    /**
     * Blocks {@code 0 .. blocks − 1} as one block, in order: the whole data set on one machine.
     *
     * @param blocks the number of blocks
     * @return all their rows
     */
    public Block all(int blocks) {
      double[][] x = new double[blocks * rowsPerBlock][];
      double[] y = new double[blocks * rowsPerBlock];
      for (int b = 0; b < blocks; b++) {
        Block block = block(b);
        System.arraycopy(block.x(), 0, x, b * rowsPerBlock, rowsPerBlock);
        System.arraycopy(block.y(), 0, y, b * rowsPerBlock, rowsPerBlock);
      }
      return new Block(x, y);
    }

    /**
     * Blocks {@code 0 .. blocks − 1}, made on the executors and cached there.
     *
     * @param spark the context
     * @param blocks the number of blocks
     * @param partitions the number of partitions they are spread over, in order
     * @return the cached RDD
     */
    public JavaRDD<Block> rdd(JavaSparkContext spark, int blocks, int partitions) {
      return spark.parallelize(indices(blocks), partitions).map(this::block).cache();
    }
  }

  /**
   * Points drawn from a mixture of {@code components} Gaussians in the plane, of equal weights,
   * with means on a circle of radius 4 and unit covariance.
   *
   * @param seed the seed of the data set
   * @param components the number of components
   * @param pointsPerBlock the points of each block
   */
  public record Mixture(long seed, int components, int pointsPerBlock)
      implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * Block {@code index} of points.
     *
     * @param index which block
     * @return its points, {@code pointsPerBlock × 2}
     */
    public double[][] block(int index) {
      SplittableRandom random = blockRandom(seed, index);
      double[][] x = new double[pointsPerBlock][];
      for (int i = 0; i < pointsPerBlock; i++) {
        double angle = 2 * Math.PI * random.nextInt(components) / components;
        x[i] = new double[] {4 * Math.cos(angle) + normal(random),
            4 * Math.sin(angle) + normal(random)};
      }
      return x;
    }

    /**
     * Blocks {@code 0 .. blocks − 1} as one block, in order.
     *
     * @param blocks the number of blocks
     * @return all their points
     */
    public double[][] all(int blocks) {
      double[][] x = new double[blocks * pointsPerBlock][];
      for (int b = 0; b < blocks; b++) {
        System.arraycopy(block(b), 0, x, b * pointsPerBlock, pointsPerBlock);
      }
      return x;
    }

    /**
     * Blocks {@code 0 .. blocks − 1}, made on the executors and cached there.
     *
     * @param spark the context
     * @param blocks the number of blocks
     * @param partitions the number of partitions
     * @return the cached RDD
     */
    public JavaRDD<double[][]> rdd(JavaSparkContext spark, int blocks, int partitions) {
      return spark.parallelize(indices(blocks), partitions).map(this::block).cache();
    }
  }

  private static List<Integer> indices(int count) {
    List<Integer> indices = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      indices.add(i);
    }
    return indices;
  }

  /** The generator of block {@code index}: seeds of different blocks differ in many bits. */
  private static SplittableRandom blockRandom(long seed, int index) {
    return new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L * (index + 1L));
  }

  /** A standard normal number (Box–Muller; one of the pair is enough here). */
  private static double normal(SplittableRandom random) {
    double u = 1 - random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
  }
}
