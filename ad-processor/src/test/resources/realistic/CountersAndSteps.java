package com.example;
import ad4j.Differentiable;

final class CountersAndSteps {
  @Differentiable(order = 2)
  static double skipInBody(double[] a, double x) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s = s * x + a[i];
      if (a[i] > 0.5) i++;
    }
    return s;
  }
  @Differentiable(order = 2)
  static double boundInBody(double[] a, double x) {
    double s = 0;
    int n = a.length;
    for (int i = 0; i < n; i++) {
      s += a[i] * Math.pow(x, i);
      if (s > 1.5) n--;
    }
    return s;
  }
  @Differentiable(order = 2)
  static double longStep(double x, double y) {
    double s = 0;
    long n = 17;
    for (long i = 1; i < n; i += 3) {
      s += Math.sin(x * i) * y;
      if (i % 2 == 0) continue;
      s *= 0.9;
    }
    return s;
  }
  @Differentiable(order = 2)
  static double eulerDoubleTime(double k, double tEnd) {
    double h = tEnd / 20;
    double y = 1;
    double t = 0;
    while (t < tEnd - 1e-12) {
      y += h * (-k * y + Math.cos(t));
      t += h;
    }
    return y;
  }
  @Differentiable
  static double eulerFloatTime(double k, double tEnd) {
    double y = 1;
    float h = (float) (tEnd / 16);
    float t = 0;
    while (t < tEnd - 1e-6) {
      y += h * (-k * y + Math.cos(t));
      t += h;
    }
    return y;
  }
  @Differentiable(order = 2)
  static double nestedVariable(double x, double[] a) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      for (int j = i; j < a.length; j += 1 + i) {
        if (a[j] < -0.4) break;
        s += a[i] * a[j] * Math.exp(-x * (j - i));
      }
    }
    return s;
  }
  @Differentiable(order = 2)
  static double countDown(double x, double y) {
    double s = 1;
    for (int i = 10; i > 0; i -= 3) s = s * x + i * y;
    long j = 5;
    while (--j > 0) s += j * x * y;
    int k = 0;
    do s -= 0.1 * s * y; while (k++ < 3);
    return s;
  }
  static Object[] probes() {
    boolean T = true;
    return new Object[] {
      new Object[] {"skipInBody", 2, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8, 0.1, 0.9, 0.2}, 0.7}}},
      new Object[] {"boundInBody", 2, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8, 0.1, 0.9, 0.2}, 0.7}}},
      new Object[] {"longStep", 2, false, new boolean[] {T, T}, new Object[][] {{0.3, 1.2}}},
      new Object[] {"eulerDoubleTime", 2, false, new boolean[] {T, T}, new Object[][] {{0.3, 1.2}, {1.1, 2.3}}},
      new Object[] {"eulerFloatTime", 1, false, new boolean[] {T, T}, new Object[][] {{0.3, 1.2}, {1.1, 2.3}}, null, 1e-4},
      new Object[] {"nestedVariable", 2, false, new boolean[] {T, T}, new Object[][] {{0.3, new double[] {0.3, 1.2, -0.3, 0.8, 0.1, 0.9, 0.2}}}},
      new Object[] {"countDown", 2, false, new boolean[] {T, T}, new Object[][] {{0.3, 1.2}, {1.1, 2.3}}},
    };
  }
}
