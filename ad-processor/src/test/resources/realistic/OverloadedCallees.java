package com.example;
import ad4j.Differentiable;

final class OverloadedCallees {
  @Differentiable static double sc(double x) { return 2 * x; }
  @Differentiable static double sc(float x) { return 3 * x; }
  @Differentiable static double sc(double x, double y) { return x * y; }
  @Differentiable static double sc(double x, int k) { return x * k * 10; }
  @Differentiable static double sc(double x, long k) { return x * k * 100; }
  @Differentiable static double sc(double[] v) { double s = 0; for (double e : v) s += e * e; return s; }
  @Differentiable static double sv(double... v) { return -v.length; }
  static double w(long k) { return k * 1000; }
  static double w(double k) { return k; }
  static double g(int n) { return n * 0.5; }
  @Differentiable static double g(double x) { return x * x; }

  @Differentiable
  static double use(double x, float f, double y) {
    int k = 2;
    long m = 3;
    
    return sc(x) + sc(f) + sc(x, y) + sc(x, k) + sc(x, m) + sc(x, 2) + sc(x, 2.0) + sc(x, 'a')
        + sc(new double[] {x, y}) + sv(x, y, 1.0) + w(k) * x + g(k) * y + g(3) * x + g(f) + sc(f * 2) + sc(f * 2.0);
  }
  static Object[] probes() {
    boolean T = true;
    return new Object[] {
      new Object[] {"use", 1, false, new boolean[] {T, T, T}, new Object[][] {{0.7, 1.25f, 1.3}}, null, 1e-4},
    };
  }
}
