package com.example;
import ad4j.Differentiable;
import ad4j.NoDerivative;

final class Solvers {
  /** Natural cubic spline through (xs, ys) by the Thomas algorithm, evaluated at t. */
  @Differentiable
  static double naturalSpline(@NoDerivative double[] xs, double[] ys, double t) {
    int n = xs.length - 1;
    double[] h = new double[n];
    for (int i = 0; i < n; i++) h[i] = xs[i + 1] - xs[i];
    double[] alpha = new double[n + 1];
    for (int i = 1; i < n; i++) alpha[i] = 3 / h[i] * (ys[i + 1] - ys[i]) - 3 / h[i - 1] * (ys[i] - ys[i - 1]);
    double[] l = new double[n + 1], mu = new double[n + 1], z = new double[n + 1];
    l[0] = 1;
    for (int i = 1; i < n; i++) {
      l[i] = 2 * (xs[i + 1] - xs[i - 1]) - h[i - 1] * mu[i - 1];
      mu[i] = h[i] / l[i];
      z[i] = (alpha[i] - h[i - 1] * z[i - 1]) / l[i];
    }
    l[n] = 1;
    double[] c = new double[n + 1], b = new double[n], d = new double[n];
    for (int j = n - 1; j >= 0; j--) {
      c[j] = z[j] - mu[j] * c[j + 1];
      b[j] = (ys[j + 1] - ys[j]) / h[j] - h[j] * (c[j + 1] + 2 * c[j]) / 3;
      d[j] = (c[j + 1] - c[j]) / (3 * h[j]);
    }
    int lo = 0, hi = n;
    while (hi - lo > 1) {
      int mid = (lo + hi) / 2;
      if (xs[mid] <= t) lo = mid; else hi = mid;
    }
    double dx = t - xs[lo];
    return ys[lo] + dx * (b[lo] + dx * (c[lo] + dx * d[lo]));
  }

  /** Explicit heat equation with a double-buffer swap. */
  @Differentiable
  static double heat(double[] u0, double kappa) {
    double[] u = new double[u0.length];
    for (int i = 0; i < u.length; i++) u[i] = u0[i];
    double[] v = new double[u0.length];
    for (int step = 0; step < 15; step++) {
      v[0] = u[0];
      v[u.length - 1] = u[u.length - 1];
      for (int i = 1; i < u.length - 1; i++) v[i] = u[i] + kappa * (u[i - 1] - 2 * u[i] + u[i + 1]);
      double[] tmp = u;
      u = v;
      v = tmp;
    }
    double s = 0;
    for (int i = 0; i < u.length; i++) s += u[i] * u[i] * (i + 1);
    return s;
  }

  /** Gauss-Seidel in place: reads values updated in the same sweep. */
  @Differentiable
  static double gaussSeidel(double[] diag, double[] rhs, double off) {
    int n = rhs.length;
    double[] x = new double[n];
    for (int sweep = 0; sweep < 25; sweep++) {
      for (int i = 0; i < n; i++) {
        double s = rhs[i];
        if (i > 0) s -= off * x[i - 1];
        if (i < n - 1) s -= off * x[i + 1];
        x[i] = s / diag[i];
      }
    }
    double r = 0;
    for (int i = 0; i < n; i++) r += x[i] * (i + 1.5);
    return r;
  }

  /** Bubble sort with conditional swaps, then a weighted sum of order statistics. */
  @Differentiable
  static double sortedWeights(double[] x, double p) {
    double[] a = x.clone();
    boolean swapped;
    int pass = 0;
    do {
      swapped = false;
      for (int i = 0; i + 1 < a.length - pass; i++) {
        if (a[i] > a[i + 1]) {
          double t = a[i];
          a[i] = a[i + 1];
          a[i + 1] = t;
          swapped = true;
        }
      }
      pass++;
    } while (swapped);
    double s = 0;
    for (int i = 0; i < a.length; i++) s += Math.pow(i + 1, p) * a[i];
    return s;
  }

  /** Doolittle LU in place on a 2D local, log |det|. */
  @Differentiable(order = 2)
  static double logAbsDet(double[][] m) {
    int n = m.length;
    double[][] a = new double[n][n];
    for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i][j] = m[i][j];
    double ld = 0;
    for (int k = 0; k < n; k++) {
      for (int i = k + 1; i < n; i++) {
        a[i][k] /= a[k][k];
        for (int j = k + 1; j < n; j++) a[i][j] -= a[i][k] * a[k][j];
      }
      ld += Math.log(Math.abs(a[k][k]));
    }
    return ld;
  }

  /** Prefix products in place, cumulative, with an early exit. */
  @Differentiable(order = 2)
  static double prefix(double[] x, double y) {
    double[] p = new double[x.length];
    p[0] = x[0];
    for (int i = 1; i < x.length; i++) {
      p[i] = p[i - 1] * (x[i] + y);
      if (Math.abs(p[i]) > 1e3) return p[i];
    }
    for (int i = p.length - 1; i > 0; i--) p[i - 1] += 0.5 * p[i];
    return p[0] + p[p.length - 1];
  }

  /** Recursion with an array: a Horner evaluated recursively. */
  @Differentiable
  static double hornerRec(double[] c, int i, double x) {
    if (i == c.length - 1) return c[i];
    return c[i] + x * hornerRec(c, i + 1, x);
  }

  @Differentiable
  static double hornerUse(double[] c, double x) {
    double s = 0;
    for (int k = 0; k < 3; k++) s += hornerRec(c, k, x * (k + 1));
    return s;
  }

  static Object[] probes() {
    boolean T = true, F = false;
    return new Object[] {
      new Object[] {"naturalSpline", 1, false, new boolean[] {F, T, T}, new Object[][] {{new double[] {0, 1, 2.5, 3, 4.5}, new double[] {0.3, 1.2, -0.5, 0.8, 0.1}, 2.2}, {new double[] {0, 1, 2.5, 3, 4.5}, new double[] {0.3, 1.2, -0.5, 0.8, 0.1}, 0.4}}},
      new Object[] {"heat", 1, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8, 0.1}, 0.2}}},
      new Object[] {"gaussSeidel", 1, false, new boolean[] {T, T, T}, new Object[][] {{new double[] {4, 5, 3, 6}, new double[] {1, -1, 2, 0.5}, 0.7}}},
      new Object[] {"sortedWeights", 1, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8, 0.1}, 0.7}}},
      new Object[] {"logAbsDet", 2, false, new boolean[] {T}, new Object[][] {{new double[][] {{4, 1, 0.5}, {1, -3, 0.2}, {0.5, 0.2, 2}}}}},
      new Object[] {"prefix", 2, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8}, 0.7}, {new double[] {30, 12, -5, 8}, 0.7}}},
      new Object[] {"hornerUse", 1, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8}, 0.7}}},
    };
  }
}
