package ad4j.samples.bench;

import java.util.Random;
import org.hipparchus.analysis.differentiation.Gradient;

/**
 * Peers of the array-parameter benchmarks: the hand-written gradient of the logistic
 * regression, the Hipparchus ({@link Gradient}) versions of the logistic regression and the
 * ADBench GMM objective (operation for operation as the {@code @Differentiable} methods), central
 * finite differences over flat slots, and the seeded data.
 */
final class ArrayFunctions {
  private ArrayFunctions() {}

  /** Central-difference step, relative: about the cube root of the machine epsilon. */
  static final double H = 6.0e-6;

  /** An {@code n × d} matrix of standard normal numbers. */
  static double[][] gaussian(Random random, int n, int d, double scale) {
    double[][] m = new double[n][d];
    for (double[] row : m) {
      for (int j = 0; j < d; j++) {
        row[j] = scale * random.nextGaussian();
      }
    }
    return m;
  }

  /** Labels {@code ±1} of a noisy linear rule with random true weights. */
  static double[] labels(Random random, double[][] x) {
    int d = x[0].length;
    double[] truth = new double[d];
    for (int j = 0; j < d; j++) {
      truth[j] = random.nextGaussian() / Math.sqrt(d);
    }
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double z = 0.5 * random.nextGaussian();
      for (int j = 0; j < d; j++) {
        z += truth[j] * x[i][j];
      }
      y[i] = z >= 0 ? 1 : -1;
    }
    return y;
  }

  /**
   * The mean logistic loss and its gradient (slots {@code w}, then {@code b}), hand-written:
   * one pass, {@code σ(−m)} from the same exponential as the loss.
   */
  static double logisticRegression(double[] w, double b, double[][] x, double[] y,
      double[] gradient) {
    int d = w.length;
    java.util.Arrays.fill(gradient, 0, d + 1, 0);
    double sum = 0;
    double scale = 1.0 / x.length;
    for (int i = 0; i < x.length; i++) {
      double[] row = x[i];
      double z = b;
      for (int j = 0; j < d; j++) {
        z += w[j] * row[j];
      }
      double margin = y[i] * z;
      double sigma;
      if (margin >= 0) {
        double e = Math.exp(-margin);
        sum += Math.log1p(e);
        sigma = e / (1 + e);
      } else {
        double e = Math.exp(margin);
        sum += Math.log1p(e) - margin;
        sigma = 1 / (1 + e);
      }
      double coefficient = -y[i] * sigma * scale;
      for (int j = 0; j < d; j++) {
        gradient[j] += coefficient * row[j];
      }
      gradient[d] += coefficient;
    }
    return sum / x.length;
  }

  /** {@link ad4j.samples.LogisticRegression#loss} with Hipparchus' {@code Gradient}. */
  static Gradient logisticRegression(Gradient[] w, Gradient b, double[][] x, double[] y) {
    Gradient sum = b.getField().getZero();
    for (int i = 0; i < x.length; i++) {
      double[] row = x[i];
      Gradient z = b;
      for (int j = 0; j < w.length; j++) {
        z = z.add(w[j].multiply(row[j]));
      }
      Gradient margin = z.multiply(y[i]);
      if (margin.getValue() >= 0) {
        sum = sum.add(margin.negate().exp().log1p());
      } else {
        sum = sum.add(margin.exp().log1p().subtract(margin));
      }
    }
    return sum.divide(x.length);
  }

  /** {@link GaussianMixtureArrays#objective} with Hipparchus' {@code Gradient}. */
  static Gradient gmm(Gradient[] alphas, Gradient[][] means, Gradient[][] icf, double[][] x,
      double wishartGamma, double wishartM, double wishartConstant) {
    int n = x.length;
    int k = alphas.length;
    int d = means[0].length;
    Gradient zero = alphas[0].getField().getZero();
    Gradient slse = zero;
    for (int i = 0; i < n; i++) {
      double[] xi = x[i];
      Gradient max = zero;
      Gradient scaled = zero;
      for (int c = 0; c < k; c++) {
        Gradient[] mu = means[c];
        Gradient[] f = icf[c];
        Gradient sumQ = zero;
        Gradient sq = zero;
        for (int r = 0; r < d; r++) {
          sumQ = sumQ.add(f[r]);
          Gradient row = f[r].exp().multiply(mu[r].negate().add(xi[r]));
          for (int j = 0; j < r; j++) {
            row = row.add(f[d + j * (2 * d - j - 1) / 2 + (r - j - 1)]
                .multiply(mu[j].negate().add(xi[j])));
          }
          sq = sq.add(row.multiply(row));
        }
        Gradient main = alphas[c].add(sumQ).subtract(sq.multiply(0.5));
        if (c == 0) {
          max = main;
          scaled = zero.add(1);
        } else if (main.getValue() > max.getValue()) {
          scaled = scaled.multiply(max.subtract(main).exp()).add(1);
          max = main;
        } else {
          scaled = scaled.add(main.subtract(max).exp());
        }
      }
      slse = slse.add(max.add(scaled.log()));
    }
    Gradient maxAlpha = alphas[0];
    for (int c = 1; c < k; c++) {
      maxAlpha = maxAlpha.getValue() >= alphas[c].getValue() ? maxAlpha : alphas[c];
    }
    Gradient sumAlpha = zero;
    for (int c = 0; c < k; c++) {
      sumAlpha = sumAlpha.add(alphas[c].subtract(maxAlpha).exp());
    }
    Gradient lseAlphas = sumAlpha.log().add(maxAlpha);
    Gradient prior = zero;
    for (int c = 0; c < k; c++) {
      Gradient[] f = icf[c];
      Gradient frobenius = zero;
      Gradient sumQ = zero;
      for (int r = 0; r < d; r++) {
        Gradient diag = f[r].exp();
        frobenius = frobenius.add(diag.multiply(diag));
        sumQ = sumQ.add(f[r]);
      }
      for (int t = d; t < f.length; t++) {
        frobenius = frobenius.add(f[t].multiply(f[t]));
      }
      prior = prior.add(frobenius.multiply(0.5 * wishartGamma * wishartGamma))
          .subtract(sumQ.multiply(wishartM));
    }
    double constant = -n * d * 0.5 * Math.log(2 * Math.PI);
    return slse.add(constant).subtract(lseAlphas.multiply(n)).add(prior)
        .subtract(k * wishartConstant);
  }

  /** Number of flat slots of the given arrays. */
  static int slots(double[]... rows) {
    int n = 0;
    for (double[] r : rows) {
      n += r.length;
    }
    return n;
  }

  /** Hipparchus variables for the flat slots from {@code first} on, shaped like {@code m}. */
  static Gradient[][] variables(double[][] m, int first, int total) {
    Gradient[][] v = new Gradient[m.length][];
    int slot = first;
    for (int r = 0; r < m.length; r++) {
      v[r] = new Gradient[m[r].length];
      for (int j = 0; j < m[r].length; j++) {
        v[r][j] = Gradient.variable(total, slot++, m[r][j]);
      }
    }
    return v;
  }

  /** A function of the arrays the benchmark perturbs in place. */
  interface Objective {
    double value();
  }

  /**
   * Central finite differences over every slot of {@code rows} (each perturbed in place and
   * restored), written into {@code gradient} in the rows' order.
   */
  static double[] finiteDifferences(Objective f, double[] gradient, double[]... rows) {
    int slot = 0;
    for (double[] row : rows) {
      for (int j = 0; j < row.length; j++) {
        double v = row[j];
        double h = H * Math.max(1, Math.abs(v));
        row[j] = v + h;
        double plus = f.value();
        row[j] = v - h;
        double minus = f.value();
        row[j] = v;
        gradient[slot++] = (plus - minus) / (2 * h);
      }
    }
    return gradient;
  }
}
