package ad4j.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ad4j.runtime.internal.Tape;
import ad4j.spark.DistributedGradient.BlockPullback;
import ad4j.spark.DistributedGradient.LossAndGradient;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/**
 * A partition with a bad row fails the job with the user's own exception, thrown by the loss as
 * written, and leaves the tape of the executor thread that ran it as it found it: empty, so that
 * the next job on that thread computes the right gradient.
 */
class FailingPartitionTest {
  /**
   * The tape sizes seen on executor threads right after the generated code threw. Local mode
   * runs the executors in this JVM, so a static collection reaches them.
   */
  private static final Queue<Integer> TAPE_SIZES_AFTER_THROW = new ConcurrentLinkedQueue<>();

  @Test
  void aBadRowFailsTheJobWithTheUsersExceptionAndLeavesTheTapeEmpty() {
    JavaSparkContext spark = TestSpark.context();
    SyntheticData.Logistic data = new SyntheticData.Logistic(3, 5, 500);
    JavaRDD<Block> withBadRow = spark.parallelize(List.of(0, 1, 2, 3), 4).map(b -> {
      Block block = data.block(b);
      if (b == 2) {
        block.y()[317] = 0.5;
      }
      return block;
    });
    BlockPullback<double[], Block> generated = Training.logisticPullback();
    BlockPullback<double[], Block> watched = (w, block, adjoints) -> {
      try {
        return generated.pullback(w, block, adjoints);
      } catch (RuntimeException e) {
        TAPE_SIZES_AFTER_THROW.add(Tape.current().size());
        throw e;
      }
    };
    double[] w = data.trueWeights();

    SparkException failure = assertThrows(SparkException.class,
        () -> DistributedGradient.sum(withBadRow, w, w.length, watched));

    Throwable cause = failure.getCause();
    assertTrue(cause instanceof IllegalArgumentException, String.valueOf(cause));
    assertEquals("row 317 of the block: label 0.5 is neither 0 nor 1", cause.getMessage());
    assertEquals(List.of(0), List.copyOf(TAPE_SIZES_AFTER_THROW));

    // the executor threads go on: every tape is empty, and the gradient of good data is right
    List<Integer> tapeSizes = spark.parallelize(List.of(0, 1, 2, 3, 4, 5, 6, 7), 8)
        .map(i -> Tape.current().size()).collect();
    assertEquals(List.of(0, 0, 0, 0, 0, 0, 0, 0), tapeSizes);
    JavaRDD<Block> good = data.rdd(spark, 4, 4);
    LossAndGradient sum = DistributedGradient.sum(good, w, w.length, watched);
    good.unpersist(false);
    Block all = data.all(4);
    double[] single = LogisticLossGrad.lossGradient(w, all.x(), all.y());
    for (int j = 0; j < w.length; j++) {
      assertEquals(single[j], sum.gradient()[j], 1e-12 * all.rows(), "slot " + j);
    }
    assertEquals(List.of(0), List.copyOf(TAPE_SIZES_AFTER_THROW), "nothing threw");
  }
}
