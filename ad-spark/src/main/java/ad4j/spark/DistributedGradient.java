package ad4j.spark;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.spark.api.java.JavaRDD;

/**
 * The loss and gradient of a data set held in an RDD of blocks: each partition runs the generated
 * pullback of a loss over each of its blocks, adding the block's gradient into one accumulator of
 * its own, and {@code treeAggregate} adds the partitions' accumulators up. Nothing is allocated
 * per row, nor per block: a partition's accumulator is the copy of the zero value that its task
 * brings along, and the generated pullback adds into it in place.
 */
public final class DistributedGradient {
  private DistributedGradient() {}

  /**
   * One block's loss and gradient: a generated {@code mPullback} with seed 1, which returns the
   * loss and adds its gradient into {@code adjoints}, slot by slot in ad4j's flat layout. A
   * lambda or method reference to the generated code, made serializable by this interface so
   * that Spark can ship it to the executors.
   *
   * @param <P> the parameters (a {@code double[]}, or a serializable record of arrays)
   * @param <B> a block of data
   */
  @FunctionalInterface
  public interface BlockPullback<P, B> extends Serializable {
    /**
     * Returns the block's loss and adds its gradient into {@code adjoints}.
     *
     * @param parameters where to take the gradient
     * @param block the data
     * @param adjoints where the gradient is added, at least as long as the parameters' slots
     * @return the loss of the block
     */
    double pullback(P parameters, B block, double[] adjoints);
  }

  /**
   * A loss and its gradient.
   *
   * @param loss the loss
   * @param gradient its gradient, one entry per slot of the parameters
   */
  public record LossAndGradient(double loss, double[] gradient) {}

  /**
   * The sum over all blocks of their losses and of their gradients.
   *
   * @param blocks the data, best cached
   * @param parameters where to take the gradient; shipped to every task
   * @param slots the number of slots of the parameters (the gradient's length)
   * @param pullback the generated pullback of the loss of one block
   * @param <P> the parameters
   * @param <B> a block
   * @return the summed loss and gradient
   */
  public static <P, B> LossAndGradient sum(JavaRDD<B> blocks, P parameters, int slots,
      BlockPullback<P, B> pullback) {
    // One array per partition: the gradient in slots [0, slots), the loss in the last place.
    double[] total = blocks.treeAggregate(new double[slots + 1],
        (sums, block) -> {
          sums[slots] += pullback.pullback(parameters, block, sums);
          return sums;
        },
        (sums, other) -> {
          for (int i = 0; i < sums.length; i++) {
            sums[i] += other[i];
          }
          return sums;
        },
        2);
    return new LossAndGradient(total[slots], Arrays.copyOf(total, slots));
  }
}
