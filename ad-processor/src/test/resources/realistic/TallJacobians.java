package com.example;
import ad4j.Differentiable;

final class TallJacobians {
  record P2(double x, double y) {}
  record Curve(P2 a, P2 b, P2 c, P2 d, double len) {}
  /** A trajectory sampled at 12 times: p = 24 >> N = 3. */
  @Differentiable
  static double[] trajectory(double v0, double angle, double drag) {
    double[] out = new double[24];
    double x = 0, y = 0, vx = v0 * Math.cos(angle), vy = v0 * Math.sin(angle);
    double h = 0.05;
    for (int i = 0; i < 12; i++) {
      for (int k = 0; k < 3; k++) {
        double sp = Math.hypot(vx, vy);
        vx -= h * drag * sp * vx;
        vy -= h * (9.81 + drag * sp * vy);
        x += h * vx;
        y += h * vy;
      }
      out[2 * i] = x;
      out[2 * i + 1] = Math.max(y, -0.5 + 0.1 * y);
    }
    return out;
  }
  /** Bezier control points from two scalars, record result with p = 9 > N = 2. */
  @Differentiable
  static Curve bezier(double t, double s) {
    P2 a = new P2(0, 0), d = new P2(1, s);
    P2 b = new P2(t, s * t), c = new P2(1 - t, s + t * t);
    double len = 0;
    P2 prev = a;
    for (int i = 1; i <= 10; i++) {
      double u = i / 10.0, w = 1 - u;
      P2 q = new P2(w * w * w * a.x() + 3 * w * w * u * b.x() + 3 * w * u * u * c.x() + u * u * u * d.x(),
          w * w * w * a.y() + 3 * w * w * u * b.y() + 3 * w * u * u * c.y() + u * u * u * d.y());
      len += Math.hypot(q.x() - prev.x(), q.y() - prev.y());
      prev = q;
    }
    return new Curve(a, b, c, d, len);
  }
  /** Chebyshev values T_0..T_9 at x with early zero tail: p = 10 > N = 1. */
  @Differentiable(order = 2)
  static double[] chebValues(double x) {
    double[] t = new double[10];
    t[0] = 1;
    t[1] = x;
    for (int k = 2; k < 10; k++) {
      t[k] = 2 * x * t[k - 1] - t[k - 2];
      if (Math.abs(t[k]) > 50) break;
    }
    return t;
  }
  @Differentiable(order = 2)
  static double useCheb(double x, double y) {
    double[] t = chebValues(x * y);
    double s = 0;
    for (int k = 0; k < t.length; k++) s += t[k] / (k + 1);
    return s;
  }
  static Object[] probes() {
    boolean T = true;
    return new Object[] {
      new Object[] {"trajectory", 1, true, new boolean[] {T, T, T}, new Object[][] {{4.0, 0.9, 0.1}}},
      new Object[] {"bezier", 1, true, new boolean[] {T, T}, new Object[][] {{0.3, 0.7}}},
      new Object[] {"chebValues", 1, true, new boolean[] {T}, new Object[][] {{0.3}, {2.7}}},
      new Object[] {"useCheb", 2, false, new boolean[] {T, T}, new Object[][] {{0.3, 0.7}, {1.9, 1.4}}},
    };
  }
}
