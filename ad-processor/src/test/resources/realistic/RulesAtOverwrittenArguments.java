package com.example;
import ad4j.Differentiable;
import ad4j.DerivativeOf;

final class RulesAtOverwrittenArguments {
  static double cube(double x) { return x * x * x; }
  @DerivativeOf("cube") @Differentiable static double cubeD(double x) { return 3 * x * x; }

  static double wsum(double[] w, double t) { double s = 0; for (int i = 0; i < w.length; i++) s += w[i] * Math.pow(t, i); return s; }
  @DerivativeOf(value = "wsum", wrt = "w") static double[] wsumW(double[] w, double t) { double[] g = new double[w.length]; for (int i = 0; i < w.length; i++) g[i] = Math.pow(t, i); return g; }
  @DerivativeOf(value = "wsum", wrt = "t") static double wsumT(double[] w, double t) { double s = 0; for (int i = 1; i < w.length; i++) s += i * w[i] * Math.pow(t, i - 1); return s; }

  static double floorish(double x) { return Math.floor(x); }

  @Differentiable(order = 2)
  static double overwritten(double x, double y) {
    double a = x;
    double acc = 0;
    for (int i = 0; i < 4; i++) {
      double r = cube(a);
      a = a * 0.5 + y;
      acc += r * a;
      a = cube(a) * 0.1 + a;
    }
    return acc;
  }

  @Differentiable
  static double arrays(double[] w, double t) {
    double[] v = w.clone();
    double acc = 0;
    for (int k = 0; k < 3; k++) {
      acc += wsum(v, t * (k + 1));
      for (int i = 0; i < v.length; i++) v[i] = v[i] * t + 0.1;
      t = t * 0.9;
    }
    return acc;
  }

  static Object[] probes() {
    boolean T = true;
    return new Object[] {
      new Object[] {"overwritten", 2, false, new boolean[] {T, T}, new Object[][] {{0.7, 0.3}, {-0.4, 0.5}}},
      new Object[] {"arrays", 1, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, -1.2, 0.5}, 0.7}}},
    };
  }
}
