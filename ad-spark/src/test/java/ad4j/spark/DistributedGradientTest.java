package ad4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ad4j.runtime.GradientCheck;
import ad4j.spark.DistributedGradient.LossAndGradient;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.mllib.linalg.Vector;
import org.apache.spark.mllib.linalg.Vectors;
import org.apache.spark.mllib.optimization.LogisticGradient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Tuple2;

/**
 * The gradient summed over partitions is the single-machine generated gradient of all rows, to
 * rounding, and both are Spark MLlib's own {@code LogisticGradient} summed over the rows (an
 * independent, hand-written reference); the same for a Gaussian mixture, whose single-machine
 * gradient is checked against finite differences.
 */
class DistributedGradientTest {
  /** 20,000 rows of 20 features in 8 blocks over 4 partitions. */
  private static final SyntheticData.Logistic DATA = new SyntheticData.Logistic(37, 20, 2_500);
  private static final int BLOCKS = 8;
  private static final int PARTITIONS = 4;

  private static JavaSparkContext spark;
  private static JavaRDD<Block> blocks;
  private static Block all;

  @BeforeAll
  static void start() {
    spark = TestSpark.context();
    blocks = DATA.rdd(spark, BLOCKS, PARTITIONS);
    all = DATA.all(BLOCKS);
  }

  @AfterAll
  static void dropData() {
    blocks.unpersist(false);
  }

  @Test
  void logisticGradientOverPartitionsIsTheSingleMachineGradient() {
    assertEquals(PARTITIONS, blocks.getNumPartitions());
    assertEquals(BLOCKS * DATA.rowsPerBlock(), blocks.map(Block::rows).reduce(Integer::sum));
    for (double[] w : List.of(new double[DATA.features()], DATA.trueWeights(), skewed())) {
      LossAndGradient distributed =
          DistributedGradient.sum(blocks, w, w.length, Training.logisticPullback());
      double[] single = new double[w.length];
      double loss = LogisticLossGrad.lossValueAndGradient(w, all.x(), all.y(), single);

      assertClose(loss, distributed.loss(), 1e-12, "loss");
      for (int j = 0; j < w.length; j++) {
        assertClose(single[j], distributed.gradient()[j], 1e-12, "gradient[" + j + "]");
      }
    }
  }

  @Test
  void logisticGradientIsMllibsLogisticGradient() {
    double[] w = skewed();
    LogisticGradient mllib = new LogisticGradient(2);
    double[] reference = new double[w.length];
    double referenceLoss = 0;
    Vector weights = Vectors.dense(w);
    Vector sum = Vectors.dense(reference);
    for (int i = 0; i < all.rows(); i++) {
      referenceLoss += mllib.compute(Vectors.dense(all.x()[i]), all.y()[i], weights, sum);
    }
    LossAndGradient distributed =
        DistributedGradient.sum(blocks, w, w.length, Training.logisticPullback());

    double scale = maxAbs(reference);
    assertClose(referenceLoss, distributed.loss(), 1e-12, "loss");
    for (int j = 0; j < w.length; j++) {
      assertEquals(reference[j], distributed.gradient()[j], 1e-12 * scale, "gradient[" + j + "]");
    }
  }

  @Test
  void theMllibAdapterIsMllibsLogisticGradientRowByRow() {
    double[] w = skewed();
    GeneratedLogisticGradient generated = new GeneratedLogisticGradient();
    LogisticGradient mllib = new LogisticGradient(2);
    for (int i = 0; i < 50; i++) {
      Vector row = Vectors.dense(all.x()[i]);
      Tuple2<Vector, Object> ours = generated.compute(row, all.y()[i], Vectors.dense(w));
      Tuple2<Vector, Object> theirs = mllib.compute(row, all.y()[i], Vectors.dense(w));
      assertClose((Double) theirs._2(), (Double) ours._2(), 1e-14, "loss of row " + i);
      double[] a = ours._1().toArray();
      double[] b = theirs._1().toArray();
      for (int j = 0; j < w.length; j++) {
        assertEquals(b[j], a[j], 1e-14 * (1 + Math.abs(b[j])), "row " + i + ", slot " + j);
      }
    }
  }

  @Test
  void mixtureGradientOverPartitionsIsTheSingleMachineGradient() {
    SyntheticData.Mixture data = new SyntheticData.Mixture(11, 3, 1_000);
    JavaRDD<double[][]> points = data.rdd(spark, 6, PARTITIONS);
    double[][] everyPoint = data.all(6);
    MixtureParameters theta = MixtureParameters.start(3);
    theta = theta.minus(0.1, ramp(theta.slots())); // away from the symmetric start

    LossAndGradient distributed =
        DistributedGradient.sum(points, theta, theta.slots(), Training.mixturePullback());
    double[] single = new double[theta.slots()];
    double loss = GaussianMixtureGrad.negativeLogLikelihoodValueAndGradient(theta.alphas(),
        theta.means(), theta.icf(), everyPoint, single);

    assertClose(loss, distributed.loss(), 1e-12, "loss");
    double scale = maxAbs(single);
    for (int j = 0; j < single.length; j++) {
      assertEquals(single[j], distributed.gradient()[j], 1e-12 * scale, "gradient[" + j + "]");
    }
    points.unpersist(false);
  }

  @Test
  void mixtureGradientAgreesWithFiniteDifferences() {
    double[][] somePoints = new SyntheticData.Mixture(5, 3, 200).block(0);
    MixtureParameters theta = MixtureParameters.start(3);
    theta = theta.minus(0.1, ramp(theta.slots()));
    double[] gradient = GaussianMixtureGrad.negativeLogLikelihoodGradient(theta.alphas(),
        theta.means(), theta.icf(), somePoints);
    MixtureParameters shape = theta;
    GradientCheck.Result check = GradientCheck.check(p -> {
      MixtureParameters at = shape.withSlots(p);
      return GaussianMixture.negativeLogLikelihood(at.alphas(), at.means(), at.icf(), somePoints);
    }, theta.flat(), gradient);
    assertTrue(check.passes(1e-7), check.toString());
  }

  /** Weights away from the data's own: large, of both signs (margins far from 0 both ways). */
  private static double[] skewed() {
    double[] w = new double[DATA.features()];
    for (int j = 0; j < w.length; j++) {
      w[j] = (j % 3 - 1) * 1.7 + 0.05 * j;
    }
    return w;
  }

  private static double[] ramp(int n) {
    double[] r = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = Math.sin(i + 1.0);
    }
    return r;
  }

  private static double maxAbs(double[] values) {
    double max = 0;
    for (double v : values) {
      max = Math.max(max, Math.abs(v));
    }
    return max;
  }

  private static void assertClose(double expected, double actual, double relative, String what) {
    assertEquals(expected, actual, relative * Math.max(1, Math.abs(expected)), what);
  }
}
