package com.example;
import ad4j.Differentiable;
import java.util.function.DoubleUnaryOperator;

final class ModelsWithLoopsInMethods {
  record Osc(double x, double v) {
    @Differentiable(order = 2)
    Osc step(double dt, double k) {
      double xs = x, vs = v;
      for (int i = 0; i < 4; i++) {
        vs -= 0.25 * dt * k * Math.sin(xs);
        xs += 0.25 * dt * vs;
      }
      return new Osc(xs, vs);
    }
    @Differentiable(order = 2)
    double energy(double k) { return 0.5 * v * v + k * (1 - Math.cos(x)); }
  }
  static final class Model {
    final double[] xs, ys;
    Model(double[] xs, double[] ys) { this.xs = xs; this.ys = ys; }
    @Differentiable(order = 2)
    double predict(double a, double b, double x) { return a * Math.tanh(b * x); }
    @Differentiable(order = 2)
    double loss(double a, double b) {
      double s = 0;
      for (int i = 0; i < xs.length; i++) {
        double r = predict(a, b, xs[i]) - ys[i];
        s += r * r;
      }
      return s + integrate(t -> predict(a, b, t) * predict(a, b, t), 0, 1);
    }
    @Differentiable(order = 2)
    double integrate(DoubleUnaryOperator f, double lo, double hi) {
      double h = (hi - lo) / 8, s = 0;
      for (int i = 0; i < 8; i++) s += f.applyAsDouble(lo + (i + 0.5) * h);
      return s * h;
    }
  }
  @Differentiable(order = 2)
  static double simulate(double x0, double v0, double k) {
    Osc s = new Osc(x0, v0);
    double e = 0;
    for (int n = 0; n < 5; n++) {
      s = s.step(0.1, k);
      e += s.energy(k) * n;
    }
    return e + s.x();
  }
  static Object[] probes() {
    boolean T = true;
    Model m = new Model(new double[] {0.1, 0.5, -0.3}, new double[] {0.2, 0.4, -0.1});
    return new Object[] {
      new Object[] {"simulate", 2, false, new boolean[] {T, T, T}, new Object[][] {{0.7, 0.3, 1.3}}},
      new Object[] {"loss", 2, false, new boolean[] {T, T}, new Object[][] {{0.7, 1.3}}, m, 1e-6, new String[] {"com.example.ModelsWithLoopsInMethods$Model", "com.example.ModelsWithLoopsInMethods_ModelGrad"}},
    };
  }
}
