package ad4j.samples.bench;

import ad4j.Differentiable;
import ad4j.NoDerivative;

/**
 * Losses of a two-layer perceptron (one hidden layer of {@code tanh} units) over a batch, with
 * the hidden layer fused into scalars: each hidden unit's activation is computed once per
 * sample and added straight into the output score(s), so the methods need no local array.
 *
 * <ul>
 *   <li>{@link #binaryLoss}: one output, the mean logistic loss with labels {@code ±1};
 *   <li>{@link #softmaxLoss}: three outputs, the mean softmax cross-entropy (three scalars
 *       hold the scores; a streaming log-sum-exp over them).
 * </ul>
 */
public final class Mlp {
  private Mlp() {}

  /**
   * The mean logistic loss of a network with one output {@code z = b2 + Σ_h v_h tanh(b1_h +
   * W1_h·x)}.
   *
   * @param w1 the hidden layer's weights, {@code H × d}
   * @param b1 the hidden layer's biases, {@code H}
   * @param v the output weights, {@code H}
   * @param b2 the output bias
   * @param x the data, {@code n × d}
   * @param y the labels, {@code ±1}
   * @return {@code (1/n) Σ log(1 + exp(−y_i z_i))}
   */
  @Differentiable
  public static double binaryLoss(double[][] w1, double[] b1, double[] v, double b2,
      @NoDerivative double[][] x, @NoDerivative double[] y) {
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double[] row = x[i];
      double z = b2;
      for (int h = 0; h < w1.length; h++) {
        double[] weights = w1[h];
        double a = b1[h];
        for (int j = 0; j < weights.length; j++) {
          a += weights[j] * row[j];
        }
        z += v[h] * Math.tanh(a);
      }
      double margin = y[i] * z;
      if (margin >= 0) {
        sum += Math.log1p(Math.exp(-margin));
      } else {
        sum += Math.log1p(Math.exp(margin)) - margin;
      }
    }
    return sum / x.length;
  }

  /**
   * The mean softmax cross-entropy of a network with three outputs {@code z_k = b2_k + Σ_h
   * W2_kh tanh(b1_h + W1_h·x)}.
   *
   * @param w1 the hidden layer's weights, {@code H × d}
   * @param b1 the hidden layer's biases, {@code H}
   * @param w2 the output weights, {@code 3 × H}
   * @param b2 the output biases, {@code 3}
   * @param x the data, {@code n × d}
   * @param c the class of each sample, 0, 1 or 2
   * @return {@code (1/n) Σ (logsumexp_k z_ik − z_{i,c_i})}
   */
  @Differentiable
  public static double softmaxLoss(double[][] w1, double[] b1, double[][] w2, double[] b2,
      @NoDerivative double[][] x, @NoDerivative int[] c) {
    double[] out0 = w2[0];
    double[] out1 = w2[1];
    double[] out2 = w2[2];
    double sum = 0;
    for (int i = 0; i < x.length; i++) {
      double[] row = x[i];
      double z0 = b2[0];
      double z1 = b2[1];
      double z2 = b2[2];
      for (int h = 0; h < w1.length; h++) {
        double[] weights = w1[h];
        double a = b1[h];
        for (int j = 0; j < weights.length; j++) {
          a += weights[j] * row[j];
        }
        double t = Math.tanh(a);
        z0 += out0[h] * t;
        z1 += out1[h] * t;
        z2 += out2[h] * t;
      }
      double max = Math.max(z0, Math.max(z1, z2));
      double lse = max + Math.log(Math.exp(z0 - max) + Math.exp(z1 - max) + Math.exp(z2 - max));
      double target = c[i] == 0 ? z0 : c[i] == 1 ? z1 : z2;
      sum += lse - target;
    }
    return sum / x.length;
  }
}
