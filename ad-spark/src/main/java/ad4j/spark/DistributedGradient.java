package ad4j.spark;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import scala.collection.Iterator;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction2;

/**
 * The loss and gradient of a data set held in an RDD of blocks: each partition runs the generated
 * pullback of a loss over each of its blocks, adding the block's gradient into one accumulator of
 * its own, and the driver adds the partitions' accumulators up. Nothing is allocated per row,
 * nor per block: a partition's task makes its accumulator once, and the generated pullback adds
 * into it in place.
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
   * @param <P> the parameters, serializable: each task takes a copy
   * @param <B> a block
   * @return the summed loss and gradient
   */
  public static <P extends Serializable, B> LossAndGradient sum(JavaRDD<B> blocks, P parameters,
      int slots, BlockPullback<P, B> pullback) {
    // One job, one task per partition, each returning its sums; the driver adds them up.
    // SparkContext.runJob is called with a function object of our own rather than through
    // treeAggregate, because every RDD combinator hands Spark's closure cleaner a lambda of
    // Spark's own, which it checks by reading the bytecode of the class that declares it
    // (RDD, over 100 kB) on every call: about three quarters of the driver's samples per job when
    // profiled
    // (BENCHMARKS.md, "Running on Spark"). The cleaner leaves a named class alone.
    Object perPartition = blocks.context().runJob(blocks.rdd(),
        new PartitionSum<>(parameters, slots, pullback), ClassTag$.MODULE$.apply(double[].class));
    double[] total = new double[slots + 1];
    for (Object sums : (Object[]) perPartition) {
      double[] partition = (double[]) sums;
      for (int i = 0; i < total.length; i++) {
        total[i] += partition[i];
      }
    }
    return new LossAndGradient(total[slots], Arrays.copyOf(total, slots));
  }

  /**
   * The task of one partition: the sums of its blocks' gradients (slots {@code [0, slots)}) and
   * losses (the last place), in one array that the generated pullback adds into in place.
   */
  private static final class PartitionSum<P extends Serializable, B>
      extends AbstractFunction2<TaskContext, Iterator<B>, double[]> implements Serializable {
    private static final long serialVersionUID = 1L;
    private final P parameters;
    private final int slots;
    private final BlockPullback<P, B> pullback;

    PartitionSum(P parameters, int slots, BlockPullback<P, B> pullback) {
      this.parameters = parameters;
      this.slots = slots;
      this.pullback = pullback;
    }

    @Override
    public double[] apply(TaskContext task, Iterator<B> blocks) {
      double[] sums = new double[slots + 1];
      while (blocks.hasNext()) {
        sums[slots] += pullback.pullback(parameters, blocks.next(), sums);
      }
      return sums;
    }
  }
}
