package ad4j.spark;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The parameters of a Gaussian mixture ({@link GaussianMixture}), shipped to the executors as
 * one serializable record; their gradient is flat, in ad4j's slot order: {@code alphas}, then
 * {@code means} row by row, then {@code icf} row by row.
 *
 * @param alphas the weight logits, {@code K}
 * @param means the means, {@code K × d}
 * @param icf the inverse-covariance factors, {@code K × (d + d(d−1)/2)}
 */
public record MixtureParameters(double[] alphas, double[][] means, double[][] icf)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * A start for {@code components} components in the plane: equal weights, unit covariances,
   * means on the circle of radius 3 at angles {@code 2π c / K + 0.5} (a fixed pattern, so that
   * runs repeat; near, not at, the directions of {@link SyntheticData.Mixture}'s components).
   *
   * @param components {@code K}
   * @return the parameters
   */
  public static MixtureParameters start(int components) {
    double[] alphas = new double[components];
    double[][] means = new double[components][];
    double[][] icf = new double[components][3];
    for (int c = 0; c < components; c++) {
      double angle = 2 * Math.PI * c / components + 0.5;
      means[c] = new double[] {3 * Math.cos(angle), 3 * Math.sin(angle)};
    }
    return new MixtureParameters(alphas, means, icf);
  }

  /**
   * The number of slots: the length of the gradient.
   *
   * @return {@code K + K d + K (d + d(d−1)/2)}
   */
  public int slots() {
    int slots = alphas.length;
    for (double[] mean : means) {
      slots += mean.length;
    }
    for (double[] factor : icf) {
      slots += factor.length;
    }
    return slots;
  }

  /**
   * The dimension {@code d} of the points.
   *
   * @return {@code means[0].length}
   */
  public int dimension() {
    return means[0].length;
  }

  /**
   * The parameters as one array in slot order, the layout of their gradient.
   *
   * @return a new array of {@link #slots()} values
   */
  public double[] flat() {
    double[] flat = new double[slots()];
    int at = 0;
    System.arraycopy(alphas, 0, flat, at, alphas.length);
    at += alphas.length;
    for (double[][] rows : new double[][][] {means, icf}) {
      for (double[] row : rows) {
        System.arraycopy(row, 0, flat, at, row.length);
        at += row.length;
      }
    }
    return flat;
  }

  /**
   * Parameters of this shape with the values of {@code flat}, in slot order.
   *
   * @param flat one value per slot
   * @return new parameters
   */
  public MixtureParameters withSlots(double[] flat) {
    double[] newAlphas = Arrays.copyOfRange(flat, 0, alphas.length);
    int at = alphas.length;
    double[][] newMeans = new double[means.length][];
    for (int c = 0; c < means.length; c++) {
      newMeans[c] = Arrays.copyOfRange(flat, at, at + means[c].length);
      at += means[c].length;
    }
    double[][] newIcf = new double[icf.length][];
    for (int c = 0; c < icf.length; c++) {
      newIcf[c] = Arrays.copyOfRange(flat, at, at + icf[c].length);
      at += icf[c].length;
    }
    return new MixtureParameters(newAlphas, newMeans, newIcf);
  }

  /**
   * A gradient-descent step: new parameters {@code θ − step · gradient}.
   *
   * @param step the step size
   * @param gradient the gradient, one entry per slot
   * @return the new parameters (these are not changed)
   */
  public MixtureParameters minus(double step, double[] gradient) {
    int at = 0;
    double[] newAlphas = alphas.clone();
    for (int c = 0; c < newAlphas.length; c++) {
      newAlphas[c] -= step * gradient[at++];
    }
    double[][] newMeans = new double[means.length][];
    for (int c = 0; c < means.length; c++) {
      newMeans[c] = means[c].clone();
      for (int j = 0; j < newMeans[c].length; j++) {
        newMeans[c][j] -= step * gradient[at++];
      }
    }
    double[][] newIcf = new double[icf.length][];
    for (int c = 0; c < icf.length; c++) {
      newIcf[c] = icf[c].clone();
      for (int j = 0; j < newIcf[c].length; j++) {
        newIcf[c][j] -= step * gradient[at++];
      }
    }
    return new MixtureParameters(newAlphas, newMeans, newIcf);
  }
}
