package com.example;
import ad4j.Differentiable;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

final class NewtonInsideQuadrature {
  @Differentiable(order = 2)
  static double newton(DoubleUnaryOperator f, DoubleUnaryOperator df, double x0) {
    double x = x0;
    int it = 0;
    while (it < 50) {
      double step = f.applyAsDouble(x) / df.applyAsDouble(x);
      x -= step;
      if (Math.abs(step) < 1e-14 * (1 + Math.abs(x))) break;
      it++;
    }
    return x;
  }

  @Differentiable(order = 2)
  static double integrate(DoubleUnaryOperator f, double a, double b, int n) {
    double h = (b - a) / n, s = 0;
    for (int i = 0; i < n; i++) s += f.applyAsDouble(a + (i + 0.5) * h);
    return s * h;
  }

  @Differentiable(order = 2)
  static double nested(DoubleBinaryOperator g, double a, double b) {
    return integrate(t -> integrate(u -> g.applyAsDouble(t, u), 0, t, 6), a, b, 6);
  }

  /** Implied quantity: solve x^3 + k x = c for each c, sum. */
  @Differentiable(order = 2)
  static double roots(double k, double c) {
    double s = 0;
    double guess = 1;
    for (int j = 1; j <= 3; j++) {
      double cj = c * j;
      double r = newton(x -> x * x * x + k * x - cj, x -> 3 * x * x + k, guess);
      s += r * j;
      guess = r;
    }
    return s;
  }

  @Differentiable(order = 2)
  static double doubleIntegral(double p, double q) {
    return nested((t, u) -> Math.exp(-p * t * u) * Math.cos(q * u), 0.2, 1.1);
  }

  @Differentiable(order = 2)
  static double weightedArray(double[] w, double z) {
    return integrate(t -> poly(w, t) * Math.exp(-z * t), 0, 1, 10);
  }

  @Differentiable(order = 2)
  static double poly(double[] w, double t) {
    double u = 0;
    for (int i = w.length - 1; i >= 0; i--) u = u * t + w[i];
    return u;
  }

  static Object[] probes() {
    boolean T = true;
    return new Object[] {
      new Object[] {"roots", 2, false, new boolean[] {T, T}, new Object[][] {{1.3, 0.7}, {2.0, 3.1}}},
      new Object[] {"doubleIntegral", 2, false, new boolean[] {T, T}, new Object[][] {{1.3, 0.7}, {0.4, 2.1}}},
      new Object[] {"weightedArray", 2, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, -1.2, 0.5}, 0.7}}},
    };
  }
}
