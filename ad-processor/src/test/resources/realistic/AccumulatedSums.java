package com.example;
import ad4j.Differentiable;

final class AccumulatedSums {
  @Differentiable
  static double f1(double[] x, double k) {
    double c = k * k;
    double s = 0, t = 1;
    for (int i = 0; i < x.length; i++) {
      if (x[i] > 0) s += c * x[i] * x[i]; else t -= x[i] * k;
    }
    return c * s - 2 * t / x.length;
  }
  @Differentiable
  static double f2(double[] x, double k) {
    double c = 1;
    double s = 0;
    for (int i = 0; i < x.length; i++) s += c * x[i] * k;
    c = 5 * k;
    return s * c;
  }
  @Differentiable
  static double f3(double s, double[] x) {
    for (int i = 0; i < x.length; i++) s += x[i] * x[i] * s0(x[i]);
    return s;
  }
  @Differentiable
  static double s0(double v) { return Math.sin(v); }
  @Differentiable
  static double f4(double[] x, double k) {
    double s = k;
    for (int i = 0; i < x.length; i++) s += x[i] * k;
    for (int i = 0; i < x.length; i++) s -= x[i] * x[i];
    double t = s;
    return t * k;
  }
  @Differentiable
  static double f5(double[] x, double k) {
    double s = 0;
    s = k * 2;
    double c = k;
    for (long i = 0; i < x.length; i++) s += x[(int) i] / c;
    if (k > 0) c = c + 1;
    return s * c;
  }
  @Differentiable
  static double f6(double[] x, double k) {
    float s = 0;
    double d = 0;
    for (int i = 0; i < x.length; i++) {
      s += (float) (x[i] * k);
      d += x[i];
    }
    return s + d * d;
  }
  @Differentiable
  static double f7(double[] x, double k) {
    double s = 0, q = 0;
    double c = k;
    for (int i = 0; i < x.length; i++) {
      s += x[i] * c;
      q += s;
    }
    return q + s;
  }
  @Differentiable
  static double f8(double[] x, double k) {
    double s = 0;
    double[] w = {k, 2 * k, 3 * k};
    for (int i = 0; i < x.length; i++) s += x[i] * w[i % 3];
    w[0] = 7;
    return s * w[0] + w[1];
  }
  @Differentiable
  static double f9(double[] x, double k) {
    double s = 0;
    double c = k;
    for (int i = 0; i < x.length; i++) s += x[i] * c;
    double r = s * c;
    c = c * 3;
    return r + c;
  }
  @Differentiable
  static double f10(double[] x, double k) {
    double s = 0;
    double c = k * 2;
    for (int i = 0; i < x.length; i++) { s += x[i] * c; s -= k; }
    return -(s - c) * c + s / x.length;
  }
  static Object[] probes() {
    boolean T = true;
    Object[][] pts = {{new double[] {0.3, 1.2, -0.5, 0.8, 0.1}, 0.7}, {new double[] {-0.3, 2.2, 0.5}, -1.3}};
    Object[] r = new Object[10];
    for (int i = 0; i < 10; i++) r[i] = new Object[] {"f" + (i + 1), 1, false, new boolean[] {T, T}, pts};
    r[2] = new Object[] {"f3", 1, false, new boolean[] {T, T}, new Object[][] {{0.7, new double[] {0.3, 1.2, -0.5, 0.8, 0.1}}}};
    r[5] = new Object[] {"f6", 1, false, new boolean[] {T, T}, pts, null, 1e-4};
    return r;
  }
}
