package ad4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Training on partitions ends where training on one machine ends: gradient descent with the
 * same iterations gives the same weights, and MLlib's L-BFGS through the generated gradient
 * reaches the optimum that Newton's method with the generated Hessian finds on one machine.
 */
class TrainingTest {
  private static final SyntheticData.Logistic DATA = new SyntheticData.Logistic(2026, 20, 2_500);
  private static final int BLOCKS = 8;

  private static JavaRDD<Block> blocks;
  private static Block all;

  @BeforeAll
  static void data() {
    JavaSparkContext spark = TestSpark.context();
    blocks = DATA.rdd(spark, BLOCKS, 4);
    all = DATA.all(BLOCKS);
  }

  @AfterAll
  static void dropData() {
    blocks.unpersist(false);
  }

  @Test
  void gradientDescentOnPartitionsEndsWhereItEndsOnOneMachine() {
    double[] start = new double[DATA.features()];
    List<Double> distributedLosses = new ArrayList<>();
    List<Double> singleLosses = new ArrayList<>();
    double[] distributed = Training.gradientDescent(blocks, all.rows(), start, 2.0, 20,
        (t, loss) -> distributedLosses.add(loss));
    double[] single = Training.gradientDescent(all, start, 2.0, 20,
        (t, loss) -> singleLosses.add(loss));

    // the same to rounding: only the order in which the rows' terms are added differs
    for (int j = 0; j < start.length; j++) {
      assertEquals(single[j], distributed[j], 1e-10, "w[" + j + "]");
    }
    for (int t = 0; t < singleLosses.size(); t++) {
      assertEquals(singleLosses.get(t), distributedLosses.get(t), 1e-10, "loss " + t);
    }
    assertFalling(distributedLosses);
    assertTrue(distributedLosses.get(19) < 0.9 * Math.log(2), distributedLosses.toString());
  }

  @Test
  void lbfgsThroughTheGeneratedGradientReachesTheSingleMachineOptimum() {
    double[] start = new double[DATA.features()];
    double[] optimum = Training.newton(all, start, 8);
    double[] gradientAtOptimum = LogisticLossGrad.lossGradient(optimum, all.x(), all.y());
    assertTrue(maxAbs(gradientAtOptimum) < 1e-9 * all.rows(), "Newton converged");

    Training.Lbfgs lbfgs = Training.lbfgs(blocks, start, 10, 1e-12, 200);

    for (int j = 0; j < start.length; j++) {
      assertEquals(optimum[j], lbfgs.weights()[j], 1e-6, "w[" + j + "]");
    }
    List<Double> history = new ArrayList<>();
    for (double loss : lbfgs.lossHistory()) {
      history.add(loss);
    }
    assertFalling(history);
    double optimalLoss = LogisticLoss.loss(optimum, all.x(), all.y()) / all.rows();
    assertEquals(optimalLoss, history.get(history.size() - 1), 1e-12);
  }

  @Test
  void mixtureGradientDescentOnPartitionsEndsWhereItEndsOnOneMachine() {
    SyntheticData.Mixture data = new SyntheticData.Mixture(7, 3, 1_000);
    JavaRDD<double[][]> points = data.rdd(TestSpark.context(), 6, 3);
    MixtureParameters start = MixtureParameters.start(3);
    List<Double> distributedLosses = new ArrayList<>();
    List<Double> singleLosses = new ArrayList<>();
    MixtureParameters distributed = Training.gradientDescent(points, 6_000, start, 0.5, 15,
        (t, loss) -> distributedLosses.add(loss));
    MixtureParameters single = Training.gradientDescent(data.all(6), start, 0.5, 15,
        (t, loss) -> singleLosses.add(loss));
    points.unpersist(false);

    double[] a = single.flat();
    double[] b = distributed.flat();
    for (int j = 0; j < a.length; j++) {
      assertEquals(a[j], b[j], 1e-10, "slot " + j);
    }
    for (int t = 0; t < singleLosses.size(); t++) {
      assertEquals(singleLosses.get(t), distributedLosses.get(t), 1e-10, "objective " + t);
    }
    assertFalling(distributedLosses);
  }

  private static void assertFalling(List<Double> losses) {
    for (int t = 1; t < losses.size(); t++) {
      assertTrue(losses.get(t) <= losses.get(t - 1), "loss rises at " + t + ": " + losses);
    }
  }

  private static double maxAbs(double[] values) {
    double max = 0;
    for (double v : values) {
      max = Math.max(max, Math.abs(v));
    }
    return max;
  }
}
