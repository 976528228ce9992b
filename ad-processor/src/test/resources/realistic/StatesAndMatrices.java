package com.example;
import ad4j.Differentiable;
import ad4j.NoDerivative;
import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

final class StatesAndMatrices {
  record Vec2(double x, double y) {
    Vec2 plus(Vec2 o) { return new Vec2(x + o.x, y + o.y); }
    Vec2 times(double s) { return new Vec2(x * s, y * s); }
    double norm() { return Math.hypot(x, y); }
  }
  record State(Vec2 q, Vec2 p) {}
  record Angle(double rad) {
    Angle {
      if (rad > Math.PI) rad -= 2 * Math.PI;
    }
  }

  static final class Complex {
    final double re, im;
    Complex(double re, double im) { this.re = re; this.im = im; }
    double re() { return re; }
    double im() { return im; }
    Complex times(Complex o) { return new Complex(re * o.re - im * o.im, re * o.im + im * o.re); }
    Complex plus(Complex o) { return new Complex(re + o.re, im + o.im); }
    Complex scale(double s) { return new Complex(re * s, im * s); }
    Complex exp() { double e = Math.exp(re); return new Complex(e * Math.cos(im), e * Math.sin(im)); }
    Complex div(Complex o) { double d = o.re * o.re + o.im * o.im; return new Complex((re * o.re + im * o.im) / d, (im * o.re - re * o.im) / d); }
    Complex sqrt() { double m = Math.hypot(re, im); double r = Math.sqrt(0.5 * (m + re)); double i = Math.copySign(Math.sqrt(0.5 * (m - re)), im); return new Complex(r, i); }
    Complex log() { return new Complex(Math.log(Math.hypot(re, im)), Math.atan2(im, re)); }
  }

  /** Kepler force, leapfrog, int steps, record state. */
  @Differentiable
  static State leapfrog(State s0, double dt) {
    State s = s0;
    for (int i = 0; i < 25; i++) {
      Vec2 q = s.q();
      double r = q.norm();
      Vec2 a = q.times(-1 / (r * r * r));
      Vec2 p = s.p().plus(a.times(0.5 * dt));
      Vec2 q2 = q.plus(p.times(dt));
      double r2 = q2.norm();
      p = p.plus(q2.times(-0.5 * dt / (r2 * r2 * r2)));
      s = new State(q2, p);
    }
    return s;
  }

  @Differentiable
  static double[] leapfrogFlat(State s0, double dt) {
    State s = leapfrog(s0, dt);
    return new double[] {s.q().x(), s.q().y(), s.p().x(), s.p().y()};
  }

  @Differentiable(order = 2)
  static double energyAfter(State s0, double dt) {
    State s = leapfrog2(s0, dt);
    Vec2 p = s.p();
    return 0.5 * (p.x() * p.x() + p.y() * p.y()) - 1 / s.q().norm();
  }

  @Differentiable(order = 2)
  static State leapfrog2(State s0, double dt) {
    State s = s0;
    int i = 0;
    while (i++ < 10) {
      Vec2 q = s.q();
      double r = q.norm();
      Vec2 p = s.p().plus(q.times(-0.5 * dt / (r * r * r)));
      Vec2 q2 = q.plus(p.times(dt));
      double r2 = q2.norm();
      s = new State(q2, p.plus(q2.times(-0.5 * dt / (r2 * r2 * r2))));
    }
    return s;
  }

  @Differentiable(order = 2)
  static double wrapped(double a, double b) {
    Angle t = new Angle(a + b);
    return Math.sin(t.rad()) * t.rad() + a * b;
  }

  /** A Heston-like characteristic-function integral, complex value class. */
  @Differentiable
  static double hestonLike(double kappa, double theta, double sigma, double v0, double t) {
    double sum = 0;
    int n = 24;
    double du = 0.5;
    for (int j = 1; j <= n; j++) {
      double u = (j - 0.5) * du;
      Complex iu = new Complex(0, u);
      Complex d = new Complex(kappa * kappa, 0).plus(new Complex(sigma * sigma * u * u, sigma * sigma * u)).sqrt();
      Complex g = new Complex(kappa, 0).plus(d.scale(-1)).div(new Complex(kappa, 0).plus(d));
      Complex edt = d.scale(-t).exp();
      Complex one = new Complex(1, 0);
      Complex c = new Complex(kappa - d.re(), -d.im()).scale(t).plus(one.plus(g.times(edt).scale(-1)).div(one.plus(g.scale(-1))).log().scale(-2)).scale(kappa * theta / (sigma * sigma));
      Complex dd = new Complex(kappa - d.re(), -d.im()).scale(1 / (sigma * sigma)).times(one.plus(edt.scale(-1)).div(one.plus(g.times(edt).scale(-1))));
      Complex phi = c.plus(dd.scale(v0)).plus(iu.scale(0.01)).exp();
      sum += phi.re() * du / (1 + u * u);
    }
    return sum;
  }

  /** Gaussian elimination with partial pivoting by row swaps; returns x of A x = b. */
  @Differentiable
  static double[] solve(double[][] a0, double[] b0) {
    int n = b0.length;
    double[][] a = new double[n][n];
    for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i][j] = a0[i][j];
    double[] b = b0.clone();
    for (int k = 0; k < n; k++) {
      int p = k;
      for (int i = k + 1; i < n; i++) if (Math.abs(a[i][k]) > Math.abs(a[p][k])) p = i;
      if (p != k) {
        for (int j = 0; j < n; j++) { double tmp = a[k][j]; a[k][j] = a[p][j]; a[p][j] = tmp; }
        double tb = b[k]; b[k] = b[p]; b[p] = tb;
      }
      for (int i = k + 1; i < n; i++) {
        double f = a[i][k] / a[k][k];
        for (int j = k; j < n; j++) a[i][j] -= f * a[k][j];
        b[i] -= f * b[k];
      }
    }
    double[] x = new double[n];
    for (int i = n - 1; i >= 0; i--) {
      double s = b[i];
      for (int j = i + 1; j < n; j++) s -= a[i][j] * x[j];
      x[i] = s / a[i][i];
    }
    return x;
  }

  @Differentiable(order = 2)
  static double logDetCholesky(double[][] m) {
    int n = m.length;
    double[][] l = new double[n][n];
    double logDet = 0;
    for (int j = 0; j < n; j++) {
      double s = m[j][j];
      for (int k = 0; k < j; k++) s -= l[j][k] * l[j][k];
      l[j][j] = Math.sqrt(s);
      logDet += 2 * Math.log(l[j][j]);
      for (int i = j + 1; i < n; i++) {
        double t = m[i][j];
        for (int k = 0; k < j; k++) t -= l[i][k] * l[j][k];
        l[i][j] = t / l[j][j];
      }
    }
    return logDet;
  }

  @Differentiable
  static double[] mv(double[][] m, double[] v) {
    double[] r = new double[v.length];
    for (int i = 0; i < m.length; i++) {
      double s = 0;
      double[] row = m[i];
      for (int j = 0; j < row.length; j++) s += row[j] * v[j];
      r[i] = s;
    }
    return r;
  }

  /** Power iteration: Rayleigh quotient after normalised steps. */
  @Differentiable
  static double rayleigh(double[][] m) {
    double[] v = new double[m.length];
    Arrays.fill(v, 1.0);
    for (int it = 0; it < 30; it++) {
      double[] w = mv(m, v);
      double norm = 0;
      for (double e : w) norm += e * e;
      norm = Math.sqrt(norm);
      for (int i = 0; i < w.length; i++) v[i] = w[i] / norm;
    }
    double[] w = mv(m, v);
    double num = 0, den = 0;
    for (int i = 0; i < v.length; i++) { num += v[i] * w[i]; den += v[i] * v[i]; }
    return num / den;
  }

  /** Early return inside a nested loop of a helper called in a loop. */
  @Differentiable
  static double firstAbove(double[] xs, double level, double scale) {
    for (int i = 0; i < xs.length; i++) {
      for (int j = 0; j < 2; j++) {
        double v = xs[i] * scale + j;
        if (v > level) return v * v;
      }
    }
    return -level;
  }

  @Differentiable
  static double sumFirsts(double[] xs, double scale) {
    double s = 0;
    for (int k = 0; k < 3; k++) s += firstAbove(xs, k * 1.5, scale) * (k + 1);
    return s;
  }

  // JDK 20 and later warn of each compound assignment below, whose narrowing is the point
  @SuppressWarnings("lossy-conversions")
  @Differentiable
  static double narrowing(double x, double y) {
    float g = 1.5f;
    g += x;          // (float)(g + x)
    g *= y;
    int n = 2;
    n += x;          // (int)(n + x): no derivative
    long m = 7;
    m *= y;          // inactive
    double a = x;
    a = a * n + m;
    double b = y;
    b %= 0.75;
    double c = x = y * 2;
    return g + a + b * x + c * Math.IEEEremainder(x, 0.3) + Math.fma(x, y, a);
  }

  @Differentiable
  static double chained(double x, double y) {
    double a, b, c;
    a = b = c = x * y;
    a += b *= c -= y;
    double[] arr = new double[4];
    int i = 0;
    arr[i++] = a;
    arr[i++] = b;
    arr[i] = arr[i - 1] * c;
    arr[++i] = i * x;
    return arr[0] + 2 * arr[1] + 3 * arr[2] + 5 * arr[3];
  }

  static Object[] probes() {
    boolean T = true, N = false;
    State s0 = new State(new Vec2(1.0, 0.1), new Vec2(0.05, 0.9));
    return new Object[] {
      new Object[] {"leapfrogFlat", 1, true, new boolean[] {T, T}, new Object[][] {{s0, 0.05}}},
      new Object[] {"energyAfter", 2, false, new boolean[] {T, T}, new Object[][] {{s0, 0.05}}},
      new Object[] {"wrapped", 2, false, new boolean[] {T, T}, new Object[][] {{1.0, 0.7}, {2.5, 1.9}}},
      new Object[] {"hestonLike", 1, false, new boolean[] {T, T, T, T, T}, new Object[][] {{1.5, 0.04, 0.3, 0.05, 0.8}}},
      new Object[] {"solve", 1, true, new boolean[] {T, T}, new Object[][] {{new double[][] {{1, 2, 0.5}, {3, 1, 1}, {0.2, 4, 2}}, new double[] {1, -1, 2}}}},
      new Object[] {"logDetCholesky", 2, false, new boolean[] {T}, new Object[][] {{new double[][] {{4, 1, 0.5}, {1, 3, 0.2}, {0.5, 0.2, 2}}}}},
      new Object[] {"rayleigh", 1, false, new boolean[] {T}, new Object[][] {{new double[][] {{4, 1, 0.5}, {1, 3, 0.2}, {0.5, 0.2, 2}}}}},
      new Object[] {"sumFirsts", 1, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.1, 2.6, 4.2}, 1.1}}},
      new Object[] {"narrowing", 1, false, new boolean[] {T, T}, new Object[][] {{0.3, 1.1}, {1.7, 1.93}}, null, 1e-4},
      new Object[] {"chained", 1, false, new boolean[] {T, T}, new Object[][] {{0.3, 1.1}, {1.7, 2.05}}},
    };
  }
}
