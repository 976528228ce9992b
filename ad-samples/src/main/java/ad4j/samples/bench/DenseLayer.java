package ad4j.samples.bench;

import ad4j.Differentiable;

/**
 * A dense neural-network layer as a vector function, {@code y = tanh(W x + b)}: its Jacobian with
 * respect to the weights, the biases and the input (p = 16 outputs, N = 16 × 32 + 16 + 32 = 560
 * slots) is 16 reverse sweeps over loops, which record on the tape.
 */
public final class DenseLayer {
  private DenseLayer() {}

  /** Outputs of the benchmarked layer. */
  public static final int OUTPUTS = 16;

  /** Inputs of the benchmarked layer. */
  public static final int INPUTS = 32;

  /**
   * The layer's output.
   *
   * @param w the weights, one row per output
   * @param b the biases, one per output
   * @param x the input
   * @return {@code tanh(W x + b)}, a new array
   */
  @Differentiable
  public static double[] layer(double[][] w, double[] b, double[] x) {
    double[] y = new double[b.length];
    for (int i = 0; i < b.length; i++) {
      double[] row = w[i];
      double s = b[i];
      for (int j = 0; j < x.length; j++) {
        s += row[j] * x[j];
      }
      y[i] = Math.tanh(s);
    }
    return y;
  }
}
