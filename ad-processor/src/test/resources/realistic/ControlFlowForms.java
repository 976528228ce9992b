package com.example;
import ad4j.Differentiable;

final class ControlFlowForms {
  /** A labelled block written as a loop that runs once (ad4j labels only loops). */
  @Differentiable(order = 2)
  static double labeledBlock(double x, double y) {
    double r = x;
    found: for (int once = 0; once < 1; once++) {
      if (x > y) { r = x * y; break found; }
      r = r + y * y;
      if (r > 2) break found;
      r *= 3;
    }
    return r + x;
  }

  @Differentiable(order = 2)
  static double twoCounters(double[] a, double x) {
    double s = 0;
    for (int i = 0, j = a.length - 1; i < j; i++, j--) s += a[i] * a[j] * x + (j - i) * a[i];
    for (;;) {
      s = s * 0.5 + x;
      if (s < 1 + x) break;
    }
    return s;
  }

  @Differentiable(order = 2)
  static double whileTrue(double x, double y) {
    int k = 0;
    double v = x;
    while (true) {
      v = v * y + 0.3;
      k++;
      switch (k) {
        case 3: if (v > 1) return v * x; break;
        case 5: return v + x;
        default: v += 0.01 * k;
      }
    }
  }

  @Differentiable(order = 2)
  static double varAndMisc(double x, double y) {
    var a = x * y;
    var n = 3;
    double m = Math.max(0, a - 1) + Double.max(x, 0.2) + Double.sum(x, y) + Math.min(n, y);
    x = -x;
    double c = Double.compare(x, y) > 0 ? x : y;
    assert a >= -100 : "bad";
    return m * c + Math.abs(x - y) * (Math.abs(x - y) < 1e-9 ? 0 : 1);
  }

  record Acc(double sum, double sq) {
    Acc add(double v) { return new Acc(sum + v, sq + v * v); }
  }

  @Differentiable(order = 2)
  static double localRecordUse(double[] xs, double w) {
    Acc acc = new Acc(0, 0);
    for (double v : xs) {
      if (v < 0) continue;
      acc = acc.add(v * w);
    }
    return acc.sq() - acc.sum() * acc.sum() / xs.length;
  }

  static Object[] probes() {
    boolean T = true;
    Object[][] pts = {{0.7, 1.3}, {1.9, 0.4}, {0.3, 1.2}};
    return new Object[] {
      new Object[] {"labeledBlock", 2, false, new boolean[] {T, T}, pts},
      new Object[] {"twoCounters", 2, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8, 0.1}, 0.7}}},
      new Object[] {"whileTrue", 2, false, new boolean[] {T, T}, pts},
      new Object[] {"varAndMisc", 2, false, new boolean[] {T, T}, pts},
      new Object[] {"localRecordUse", 2, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.5, 0.8, 0.1}, 0.7}}},
    };
  }
}
