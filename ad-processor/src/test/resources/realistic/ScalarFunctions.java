package com.example;
import ad4j.Differentiable;
import ad4j.NoDerivative;
import java.util.function.DoubleUnaryOperator;

final class ScalarFunctions {
  static final double[] LANCZOS = {0.99999999999980993, 676.5203681218851, -1259.1392167224028,
      771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
      9.9843695780195716e-6, 1.5056327351493116e-7};
  static final double[] CHEB = {1.2661, 1.1303, 0.2715, 0.0443, 0.00547, 0.000543};

  /** Abramowitz-Stegun 7.1.26. */
  @Differentiable(order = 2)
  static double erf(double x) {
    double sign = 1;
    if (x < 0) { sign = -1; x = -x; }
    final double a1 = 0.254829592, a2 = -0.284496736, a3 = 1.421413741, a4 = -1.453152027, a5 = 1.061405429, p = 0.3275911;
    double t = 1.0 / (1.0 + p * x);
    double y = 1.0 - (((((a5 * t + a4) * t) + a3) * t + a2) * t + a1) * t * Math.exp(-x * x);
    return sign * y;
  }

  @Differentiable(order = 2)
  static double normCdf(double x) { return 0.5 * (1 + erf(x / Math.sqrt(2))); }

  @Differentiable(order = 2)
  static double bsCall(double s, double k, double t, double r, double sigma) {
    if (t <= 0) return Math.max(s - k, 0);
    double sq = sigma * Math.sqrt(t);
    double d1 = (Math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / sq;
    double d2 = d1 - sq;
    return s * normCdf(d1) - k * Math.exp(-r * t) * normCdf(d2);
  }

  @Differentiable(order = 2)
  static double logGamma(double x) {
    if (x < 0.5) {
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
    }
    x -= 1;
    double a = LANCZOS[0];
    double t = x + 7.5;
    for (int i = 1; i < 9; i++) {
      a += LANCZOS[i] / (x + i);
    }
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
  }

  @Differentiable
  static double logSumExp(double[] x) {
    double m = Double.NEGATIVE_INFINITY;
    for (double v : x) m = Math.max(m, v);
    if (m == Double.NEGATIVE_INFINITY) return m;
    double s = 0;
    for (int i = 0; i < x.length; i++) {
      if (x[i] == Double.NEGATIVE_INFINITY) continue;
      s += Math.exp(x[i] - m);
    }
    return m + Math.log(s);
  }

  @Differentiable(order = 2)
  static double softplus(double x, double beta) {
    double z = beta * x;
    if (z > 20) return x;
    else if (z < -20) return Math.exp(z) / beta;
    return Math.log1p(Math.exp(z)) / beta;
  }

  @Differentiable(order = 2)
  static double logistic(double x) {
    if (x >= 0) {
      double e = Math.exp(-x);
      return 1 / (1 + e);
    }
    double e = Math.exp(x);
    return e / (1 + e);
  }

  /** Newton for the cube root, with tolerance and break. */
  @Differentiable(order = 2)
  static double cbrtNewton(double a) {
    double y = a > 1 ? a / 3 : 1;
    int iter = 0;
    while (true) {
      double next = y - (y * y * y - a) / (3 * y * y);
      if (Math.abs(next - y) < 1e-15 * Math.abs(y)) { y = next; break; }
      y = next;
      if (++iter > 100) break;
    }
    return y;
  }

  /** Bisection to bracket, then two Newton steps that carry the derivative. */
  @Differentiable
  static double impliedRoot(double c) {
    double lo = 0, hi = 10;
    while (hi - lo > 1e-6) {
      double mid = 0.5 * (lo + hi);
      if (mid * mid * mid + mid - c > 0) hi = mid; else lo = mid;
    }
    double x = 0.5 * (lo + hi);
    for (int k = 0; k < 3; k++) x -= (x * x * x + x - c) / (3 * x * x + 1);
    return x;
  }

  /** Clenshaw for a Chebyshev series on [lo, hi]. */
  @Differentiable(order = 2)
  static double chebyshev(double x, double lo, double hi) {
    double u = (2 * x - lo - hi) / (hi - lo);
    double b1 = 0, b2 = 0;
    for (int j = CHEB.length - 1; j >= 1; j--) {
      double tmp = b1;
      b1 = 2 * u * b1 - b2 + CHEB[j];
      b2 = tmp;
    }
    return u * b1 - b2 + 0.5 * CHEB[0];
  }

  @Differentiable
  static double simpson(DoubleUnaryOperator f, double a, double b, int n) {
    double h = (b - a) / n;
    double s = f.applyAsDouble(a) + f.applyAsDouble(b);
    for (int i = 1; i < n; i++) {
      s += (i % 2 == 0 ? 2 : 4) * f.applyAsDouble(a + i * h);
    }
    return s * h / 3;
  }

  @Differentiable
  static double gaussArea(double x, double k) {
    return simpson(t -> Math.exp(-k * t * t), 0, x, 20);
  }

  @Differentiable(order = 2)
  static double trapezoid(double k, double w) {
    int n = 16;
    double h = 1.0 / n, s = 0;
    for (int i = 0; i <= n; i++) {
      double t = i * h;
      double f = Math.cos(w * t) * Math.exp(-k * t);
      s += (i == 0 || i == n) ? 0.5 * f : f;
    }
    return s * h;
  }

  /** RK4 for y' = -k y + sin(t), long step count. */
  @Differentiable(order = 2)
  static double rk4(double k, double y0) {
    long steps = 40L;
    double h = 2.0 / steps;
    double y = y0, t = 0;
    for (long i = 0; i < steps; i++) {
      double k1 = -k * y + Math.sin(t);
      double k2 = -k * (y + 0.5 * h * k1) + Math.sin(t + 0.5 * h);
      double k3 = -k * (y + 0.5 * h * k2) + Math.sin(t + 0.5 * h);
      double k4 = -k * (y + h * k3) + Math.sin(t + h);
      y += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
      t += h;
    }
    return y;
  }

  @Differentiable
  static double kahan(double[] x, double w) {
    double sum = 0, c = 0;
    for (double v : x) {
      double y = v * w - c;
      double t = sum + y;
      c = (t - sum) - y;
      sum = t;
    }
    return sum;
  }

  @Differentiable
  static double spline(@NoDerivative double[] knots, double[] values, double x) {
    int lo = 0, hi = knots.length - 1;
    if (x <= knots[0]) return values[0];
    if (x >= knots[hi]) return values[hi];
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      if (knots[mid] > x) hi = mid; else lo = mid;
    }
    double t = (x - knots[lo]) / (knots[hi] - knots[lo]);
    double h00 = 2 * t * t * t - 3 * t * t + 1, h01 = -2 * t * t * t + 3 * t * t;
    return h00 * values[lo] + h01 * values[hi];
  }

  @Differentiable(order = 2)
  static double loss(double r, double delta, int mode) {
    return switch (mode) {
      case 0 -> 0.5 * r * r;
      case 1 -> Math.abs(r);
      case 2 -> {
        double a = Math.abs(r);
        yield a <= delta ? 0.5 * a * a : delta * (a - 0.5 * delta);
      }
      default -> Math.log(Math.cosh(r / delta)) * delta;
    };
  }

  @Differentiable
  static double geometry(double x, double y, double z) {
    double h = Math.hypot(x, y);
    double s = Math.copySign(h, z) + Math.signum(x) * 0.1;
    double c = Math.min(Math.max(s, -2.0), 2.0);
    return c * Math.atan2(y, x) + Math.cbrt(z) * Math.expm1(y);
  }

  @Differentiable
  static double labelled(double[] a, double x) {
    double acc = 0;
    outer:
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < a.length; j++) {
        if (j > i + 1) continue outer;
        if (i * j == 6) break outer;
        acc += a[j] * Math.pow(x, i) / (j + 1);
      }
    }
    return acc;
  }

  @Differentiable(order = 2)
  static double doWhile(double x, double y) {
    double s = 0, term = 1;
    int n = 0;
    do {
      term *= x / ++n;
      s += term * y;
    } while (n < 12);
    return s;
  }

  @Differentiable
  static double mixes(double x, float f, double y) {
    int n = 3;
    long m = 5L;
    double a = x;
    a *= n;
    a += m;
    a /= 2;
    float g = f;
    g *= 1.5f;
    g += n;
    a -= g * y;
    a *= f;
    double q = x;
    q /= m;
    q += f / 3;
    return a + q;
  }

  @Differentiable
  static float sigmoidF(float x, float w) {
    float z = w * x;
    if (z < 0) { float e = (float) Math.exp(z); return e / (1f + e); }
    return 1f / (1f + (float) Math.exp(-z));
  }

  @Differentiable
  static double[] softmax(double[] x, double temp) {
    double m = x[0];
    for (int i = 1; i < x.length; i++) if (x[i] > m) m = x[i];
    double[] out = new double[x.length];
    double z = 0;
    for (int i = 0; i < x.length; i++) { out[i] = Math.exp((x[i] - m) / temp); z += out[i]; }
    for (int i = 0; i < out.length; i++) out[i] /= z;
    return out;
  }

  @Differentiable
  static double[] polar(double r, double theta, double phi) {
    double st = Math.sin(theta);
    return new double[] {r * st * Math.cos(phi), r * st * Math.sin(phi), r * Math.cos(theta)};
  }

  static Object[] probes() {
    boolean T = true, N = false;
    return new Object[] {
      new Object[] {"erf", 2, false, new boolean[] {T}, new Object[][] {{0.3}, {-0.8}, {1.7}}},
      new Object[] {"bsCall", 2, false, new boolean[] {T, T, T, T, T}, new Object[][] {{100.0, 95.0, 0.5, 0.03, 0.25}, {80.0, 100.0, 1.2, 0.01, 0.4}}},
      new Object[] {"logGamma", 2, false, new boolean[] {T}, new Object[][] {{2.7}, {0.3}, {-1.4}, {11.2}}},
      new Object[] {"logSumExp", 1, false, new boolean[] {T}, new Object[][] {{new double[] {1.0, -2.0, 3.5, 0.7}}, {new double[] {30.0, 29.5, -1.0}}}},
      new Object[] {"softplus", 2, false, new boolean[] {T, T}, new Object[][] {{0.7, 1.3}, {-9.0, 3.0}, {12.0, 2.5}}},
      new Object[] {"logistic", 2, false, new boolean[] {T}, new Object[][] {{0.7}, {-3.1}}},
      new Object[] {"cbrtNewton", 2, false, new boolean[] {T}, new Object[][] {{5.0}, {0.4}, {27.5}}},
      new Object[] {"impliedRoot", 1, false, new boolean[] {T}, new Object[][] {{5.0}, {0.4}, {27.5}}},
      new Object[] {"chebyshev", 2, false, new boolean[] {T, T, T}, new Object[][] {{0.3, -1.0, 2.0}, {1.7, 0.5, 3.0}}},
      new Object[] {"gaussArea", 1, false, new boolean[] {T, T}, new Object[][] {{1.3, 0.8}, {0.4, 2.0}}},
      new Object[] {"trapezoid", 2, false, new boolean[] {T, T}, new Object[][] {{1.3, 0.8}, {0.4, 2.0}}},
      new Object[] {"rk4", 2, false, new boolean[] {T, T}, new Object[][] {{1.3, 0.8}, {0.4, 2.0}}},
      new Object[] {"kahan", 1, false, new boolean[] {T, T}, new Object[][] {{new double[] {1e3, 1.0, -1e3, 0.3}, 1.1}}},
      new Object[] {"spline", 1, false, new boolean[] {N, T, T}, new Object[][] {{new double[] {0, 1, 2.5, 4}, new double[] {1.0, 3.0, -1.0, 2.0}, 1.7}, {new double[] {0, 1, 2.5, 4}, new double[] {1.0, 3.0, -1.0, 2.0}, 3.1}}},
      new Object[] {"loss", 2, false, new boolean[] {T, T, N}, new Object[][] {{0.7, 1.2, 0}, {-0.7, 1.2, 1}, {0.7, 1.2, 2}, {2.7, 1.2, 2}, {0.7, 1.2, 3}}},
      new Object[] {"geometry", 1, false, new boolean[] {T, T, T}, new Object[][] {{0.7, 1.2, 0.3}, {-0.7, 0.4, -0.5}, {2.7, 1.9, 2.2}}},
      new Object[] {"labelled", 1, false, new boolean[] {T, T}, new Object[][] {{new double[] {1, 2, 3, 4, 5}, 1.3}}},
      new Object[] {"doWhile", 2, false, new boolean[] {T, T}, new Object[][] {{0.7, 1.2}, {-2.0, 0.4}}},
      new Object[] {"mixes", 1, false, new boolean[] {T, T, T}, new Object[][] {{0.7, 1.25f, 1.2}, {-2.0, -0.5f, 0.4}}, null, 1e-4},
      new Object[] {"sigmoidF", 1, false, new boolean[] {T, T}, new Object[][] {{0.7f, 1.25f}, {-2.0f, 0.5f}}, null, 1e-4},
      new Object[] {"softmax", 1, true, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, 1.2, -0.4}, 0.8}}},
      new Object[] {"polar", 1, true, new boolean[] {T, T, T}, new Object[][] {{1.3, 0.4, 2.1}}},
    };
  }
}
