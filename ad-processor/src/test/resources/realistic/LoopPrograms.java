package com.example;
import ad4j.Differentiable;
import ad4j.NoDerivative;

final class LoopPrograms {
  /** Soft-DTW with soft-min by a max-shifted log-sum-exp. */
  @Differentiable
  static double softDtw(double[] a, double[] b, double gamma) {
    int n = a.length, m = b.length;
    double[][] r = new double[n + 1][m + 1];
    for (int i = 0; i <= n; i++) for (int j = 0; j <= m; j++) r[i][j] = 1e10;
    r[0][0] = 0;
    for (int i = 1; i <= n; i++) {
      for (int j = 1; j <= m; j++) {
        double d = (a[i - 1] - b[j - 1]) * (a[i - 1] - b[j - 1]);
        double x = -r[i - 1][j - 1] / gamma, y = -r[i - 1][j] / gamma, z = -r[i][j - 1] / gamma;
        double mx = Math.max(x, Math.max(y, z));
        double s = 0;
        s += Math.exp(x - mx) + Math.exp(y - mx);
        s += Math.exp(z - mx);
        r[i][j] = d - gamma * (Math.log(s) + mx);
      }
    }
    return r[n][m];
  }

  /** Trimmed mean: insertion sort of a copy, then the middle values. */
  @Differentiable
  static double trimmedMean(double[] x, int cut) {
    double[] s = x.clone();
    for (int i = 1; i < s.length; i++) {
      double key = s[i];
      int j = i - 1;
      while (j >= 0 && s[j] > key) {
        s[j + 1] = s[j];
        j--;
      }
      s[j + 1] = key;
    }
    double sum = 0;
    for (int i = cut; i < s.length - cut; i++) sum += s[i];
    return sum / (s.length - 2 * cut);
  }

  @Differentiable
  static double simpsonRule(double a, double b, double k) {
    double c = 0.5 * (a + b);
    return (b - a) / 6 * (f(a, k) + 4 * f(c, k) + f(b, k));
  }

  @Differentiable
  static double f(double t, double k) { return Math.sin(k * t) / (1 + t * t); }

  /** Adaptive Simpson, recursive with a depth limit. */
  @Differentiable
  static double adaptive(double a, double b, double k, double whole, int depth) {
    double c = 0.5 * (a + b);
    double left = simpsonRule(a, c, k), right = simpsonRule(c, b, k);
    double delta = left + right - whole;
    if (depth <= 0 || Math.abs(delta) <= 1e-9) return left + right + delta / 15;
    return adaptive(a, c, k, left, depth - 1) + adaptive(c, b, k, right, depth - 1);
  }

  @Differentiable
  static double integral(double b, double k) {
    return adaptive(0, b, k, simpsonRule(0, b, k), 6);
  }

  /** Power series with local active coefficient array, enhanced for, double ++. */
  @Differentiable(order = 2)
  static double series(double x, double y) {
    final double[] c = {x, y, x * y, 0.5};
    double u = 0;
    for (double ci : c) u = u * x + ci;
    double t = y;
    t++;
    t *= 2;
    double w = x > 0 ? 1 : t;
    int count = 0;
    double z = 3.5 + x;
    while (z-- > x) count++;
    return u * w + t + count * x;
  }

  /** Old-style switch with fall-through and compound ops. */
  @SuppressWarnings("fallthrough")
  @Differentiable(order = 2)
  static double fallThrough(double x, double y, int mode) {
    double acc = 1;
    switch (mode) {
      case 0:
        acc *= x;
      case 1:
        acc += y * y;
        break;
      case 2:
        acc -= Math.sqrt(x * x + y);
      default:
        acc /= (1 + x * x);
    }
    return acc * y;
  }

  enum Kind { GAUSS, LAPLACE, CAUCHY }

  @Differentiable(order = 2)
  static double nll(double r, double scale, Kind kind) {
    double z = r / scale;
    return switch (kind) {
      case GAUSS -> 0.5 * z * z + Math.log(scale);
      case LAPLACE -> Math.abs(z) + Math.log(2 * scale);
      case CAUCHY -> Math.log1p(z * z) + Math.log(Math.PI * scale);
    };
  }

  /** Array-element compound assignments with index side effects. */
  @Differentiable
  static double elements(double[] x, double y) {
    double[] a = new double[5];
    int i = 0;
    a[i++] += x[0] * y;
    a[i++] -= x[1];
    a[i] *= y;
    a[i++] += x[2] / y;
    a[i + 1] = a[i - 3] * a[i - 1];
    a[2 * i - 6 + 1] /= 1 + y * y;
    double s = 0;
    for (int k = 0; k < a.length; k++) s += a[k] * (k + 1);
    return s;
  }

  static int idx(int i, int n) { return (i * 3) % n; }

  @Differentiable
  static double permuted(double[] x, double y) {
    int n = x.length;
    double[] p = new double[n];
    for (int i = 0; i < n; i++) p[idx(i, n)] += x[i] * (i + y);
    double acc = 0;
    for (int i = 0; i < n; i++) acc += p[i] * p[(i + 1) % n];
    return acc;
  }

  /** do-while with continue and break. */
  @Differentiable
  static double doLoop(double x, double y) {
    double s = 0;
    int k = 0;
    do {
      k++;
      if (k % 3 == 0) continue;
      s += Math.pow(x, k) / k * y;
      if (s > 50) break;
    } while (k < 10);
    return s;
  }

  @Differentiable
  static double varargs(double scale, double... w) {
    double s = 0;
    for (int i = 0; i < w.length; i++) s += scale * w[i] * w[i];
    return Math.sqrt(s);
  }

  @Differentiable
  static double callsVarargs(double x, double y) {
    return varargs(x, y, x * y, 2) + varargs(y, x);
  }

  /** float arrays and float Math. */
  @Differentiable
  static double floats(float[] w, float b, double x) {
    float acc = b;
    for (int i = 0; i < w.length; i++) {
      acc += w[i] * (float) Math.pow(x, i);
      acc = Math.max(acc, -3f);
    }
    float q = Math.abs(acc) * Math.signum(b) + Math.copySign(1.5f, acc);
    return q * x + (float) Math.sqrt(Math.abs(q));
  }

  static Object[] probes() {
    boolean T = true, N = false;
    return new Object[] {
      new Object[] {"softDtw", 1, false, new boolean[] {T, T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8}, new double[] {0.1, 1.0, 0.2}, 0.7}}},
      new Object[] {"trimmedMean", 1, false, new boolean[] {T, N}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8, 2.5, -1.1}, 1}}},
      new Object[] {"integral", 1, false, new boolean[] {T, T}, new Object[][] {{2.3, 1.7}, {1.1, 0.4}}},
      new Object[] {"series", 2, false, new boolean[] {T, T}, new Object[][] {{0.7, 1.3}, {-0.4, 0.9}}},
      new Object[] {"fallThrough", 2, false, new boolean[] {T, T, N}, new Object[][] {{0.7, 1.3, 0}, {-0.4, 0.9, 1}, {0.4, 0.9, 2}, {0.4, 0.9, 3}}},
      new Object[] {"nll", 2, false, new boolean[] {T, T, N}, new Object[][] {{0.7, 1.3, Kind.GAUSS}, {-0.4, 0.9, Kind.LAPLACE}, {0.4, 0.9, Kind.CAUCHY}}},
      new Object[] {"elements", 1, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5}, 0.7}}},
      new Object[] {"permuted", 1, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8}, 0.7}}},
      new Object[] {"doLoop", 1, false, new boolean[] {T, T}, new Object[][] {{0.7, 1.3}, {1.9, 0.2}}},
      new Object[] {"callsVarargs", 1, false, new boolean[] {T, T}, new Object[][] {{0.7, 1.3}}},
      new Object[] {"floats", 1, false, new boolean[] {T, T, T}, new Object[][] {{new float[] {0.5f, -1.25f, 2f}, 0.75f, 0.8}}, null, 1e-4},
    };
  }
}
