package ad4j.spark;

import org.apache.spark.mllib.linalg.DenseVector;
import org.apache.spark.mllib.linalg.Vector;
import org.apache.spark.mllib.linalg.Vectors;
import org.apache.spark.mllib.optimization.Gradient;
import scala.Tuple2;

/**
 * Spark MLlib's {@link Gradient} extension point, filled by the generated gradient of
 * {@link LogisticLoss#loss}: MLlib's optimisers ({@code LBFGS}, {@code GradientDescent}) call it
 * once per row, with the row's label and features, and it hands the row to the generated
 * {@code LogisticLossGrad.lossPullback} as a block of one row, adding the row's gradient into
 * MLlib's running sum in place.
 *
 * <p>It allocates nothing per row for dense vectors: the block of one row is a pair of arrays of
 * the calling thread, re-pointed at each row's features, and the weights and the running sum are
 * the vectors' own arrays. Labels are 0 or 1, as for MLlib's {@code LogisticGradient}; the two
 * compute the same loss and gradient.
 */
public final class GeneratedLogisticGradient extends Gradient {
  private static final long serialVersionUID = 1L;

  /** The block of one row handed to the generated code, one per thread (executor threads). */
  private static final ThreadLocal<Block> ONE_ROW =
      ThreadLocal.withInitial(() -> new Block(new double[1][], new double[1]));

  @Override
  public double compute(Vector data, double label, Vector weights, Vector cumGradient) {
    if (!(cumGradient instanceof DenseVector sum)) {
      throw new IllegalArgumentException("cumGradient must be dense, is "
          + cumGradient.getClass().getSimpleName());
    }
    Block row = ONE_ROW.get();
    // toArray() is the vector's own array for a dense vector, a new one for a sparse vector
    row.x()[0] = data.toArray();
    row.y()[0] = label;
    try {
      return LogisticLossGrad.lossPullback(weights.toArray(), row.x(), row.y(), 1.0,
          sum.values());
    } finally {
      row.x()[0] = null;
    }
  }

  @Override
  public Tuple2<Vector, Object> compute(Vector data, double label, Vector weights) {
    double[] gradient = new double[weights.size()];
    double loss = compute(data, label, weights, Vectors.dense(gradient));
    return new Tuple2<>(Vectors.dense(gradient), loss);
  }
}
