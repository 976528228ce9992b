package com.example;
import ad4j.Differentiable;
import ad4j.DerivativeOf;
import ad4j.NoDerivative;
import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.IntStream;

final class ModelsAndRules {
  /** A small GLM model: instance fields carry no derivative. */
  static final class Glm {
    final double[][] features;
    final double[] targets;
    final double l2;
    Glm(double[][] features, double[] targets, double l2) { this.features = features; this.targets = targets; this.l2 = l2; }

    @Differentiable(order = 2)
    double loss(double[] beta, double bias) {
      double total = 0;
      for (int i = 0; i < targets.length; i++) {
        double eta = bias;
        for (int j = 0; j < beta.length; j++) eta += features[i][j] * beta[j];
        total += logLoss(eta, targets[i]);
      }
      double reg = 0;
      for (double b : beta) reg += b * b;
      return total / targets.length + 0.5 * l2 * reg;
    }

    @Differentiable(order = 2)
    double logLoss(double eta, double y) {
      // log(1 + exp(eta)) - y * eta, stable
      double sp = eta > 0 ? eta + Math.log1p(Math.exp(-eta)) : Math.log1p(Math.exp(eta));
      return sp - y * eta;
    }
  }

  static double phi(double x) { return 0.5 * (1 + erfLib(x / Math.sqrt(2))); }
  static double erfLib(double x) {
    double t = 1 / (1 + 0.5 * Math.abs(x));
    double y = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
    return x >= 0 ? 1 - y : y - 1;
  }
  @DerivativeOf("phi")
  static double phiPrime(double x) { return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI); }

  /** Bachelier price with a user-supplied derivative of the normal cdf. */
  @Differentiable
  static double bachelier(double f, double k, double vol, double t) {
    double sd = vol * Math.sqrt(t);
    double d = (f - k) / sd;
    return (f - k) * phi(d) + sd * Math.exp(-0.5 * d * d) / Math.sqrt(2 * Math.PI);
  }

  /** Anonymous class and static final lambda as integrands. */
  static final DoubleUnaryOperator BUMP = t -> Math.exp(-t * t);

  @Differentiable
  static double integrate(DoubleUnaryOperator g, double a, double b) {
    int n = 32;
    double h = (b - a) / n;
    double s = 0.5 * (g.applyAsDouble(a) + g.applyAsDouble(b));
    for (int i = 1; i < n; i++) s += g.applyAsDouble(a + i * h);
    return s * h;
  }

  @Differentiable
  static double twoIntegrals(double w, double b) {
    DoubleUnaryOperator osc = new DoubleUnaryOperator() {
      @Override public double applyAsDouble(double t) { return Math.cos(w * t) * t; }
    };
    return integrate(osc, 0, b) + integrate(BUMP, -b, w) + integrate(t -> w * BUMP.applyAsDouble(t * w), 0, 1);
  }

  @Differentiable(order = 2)
  static double streams(double[] x, double w) {
    double mean = Arrays.stream(x).average().orElse(0);
    double var = IntStream.range(0, x.length).mapToDouble(i -> (x[i] - mean) * (x[i] - mean)).sum() / x.length;
    double mx = Arrays.stream(x).map(v -> v * w).max().getAsDouble();
    return var * w + mx + Arrays.stream(x).filter(v -> v > 0).map(v -> Math.log(v)).sum();
  }

  /** The parameter clamped in place, then used in a loop; an alias of the array parameter. */
  @Differentiable(order = 2)
  static double clampedParam(double x, double[] c, double y) {
    x = Math.max(x, 1e-3);
    y = Math.min(y, 5);
    double[] cc = c;
    double acc = 0;
    for (int i = 0; i < cc.length; i++) {
      acc += cc[i] * Math.log(x + i) * y;
      if (acc > 100) return acc;
    }
    x *= y;
    return acc + x;
  }

  /** Order 2: active-dependent trip count, break, early return, nested arrays. */
  @Differentiable(order = 2)
  static double tripCount(double x, double[] a) {
    double s = 0;
    int k = 0;
    while (s < 3 * x) {
      s += a[k % a.length] * a[k % a.length] + 0.1;
      k++;
      if (k > 50) break;
    }
    double[] local = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      local[i] = a[i] * s;
      if (local[i] > 10 * x) return local[i] * x;
    }
    return s * x + local[0];
  }

  @Differentiable(order = 2)
  static double[] rk4Vec(double[] y0, double k) {
    double[] y = y0.clone();
    double h = 0.05;
    for (int step = 0; step < 20; step++) {
      double[] k1 = rhs(y, k);
      double[] t = new double[2];
      for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k1[i];
      double[] k2 = rhs(t, k);
      for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k2[i];
      double[] k3 = rhs(t, k);
      for (int i = 0; i < 2; i++) t[i] = y[i] + h * k3[i];
      double[] k4 = rhs(t, k);
      for (int i = 0; i < 2; i++) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    return y.clone();
  }

  @Differentiable(order = 2)
  static double[] rhs(double[] y, double k) {
    return new double[] {y[1], -k * Math.sin(y[0]) - 0.1 * y[1]};
  }

  @Differentiable(order = 2)
  static double pendulumEnergy(double th, double om, double k) {
    double[] y = rk4Vec(new double[] {th, om}, k);
    return 0.5 * y[1] * y[1] + k * (1 - Math.cos(y[0]));
  }

  static Object[] probes() {
    boolean T = true, N = false;
    Glm glm = new Glm(new double[][] {{1, 0.5}, {-0.3, 2}, {0.7, -1.2}}, new double[] {1, 0, 1}, 0.1);
    return new Object[] {
      new Object[] {"loss", 2, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, -0.2}, 0.1}}, glm, 1e-6, new String[] {"com.example.ModelsAndRules$Glm", "com.example.ModelsAndRules_GlmGrad"}},
      new Object[] {"bachelier", 1, false, new boolean[] {T, T, T, T}, new Object[][] {{100.0, 101.0, 8.0, 0.5}, {1.0, 0.9, 0.2, 2.0}}},
      new Object[] {"twoIntegrals", 1, false, new boolean[] {T, T}, new Object[][] {{0.7, 1.3}, {1.9, 0.4}}},
      new Object[] {"streams", 2, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8}, 0.7}}},
      new Object[] {"clampedParam", 2, false, new boolean[] {T, T, T}, new Object[][] {{0.7, new double[] {0.3, 1.2, -0.5}, 1.3}, {0.2, new double[] {30.0, 40.0, 50.0}, 2.3}}},
      new Object[] {"tripCount", 2, false, new boolean[] {T, T}, new Object[][] {{1.1, new double[] {0.3, 1.2, -0.5}}}},
      new Object[] {"rk4Vec", 1, true, new boolean[] {T, T}, new Object[][] {{new double[] {0.5, 0.1}, 1.3}}},
      new Object[] {"pendulumEnergy", 2, false, new boolean[] {T, T, T}, new Object[][] {{0.5, 0.1, 1.3}}},
    };
  }
}
