package com.example;
import ad4j.Differentiable;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;

final class NestedFunctionValues {
  record P(double a, double b) {}
  @Differentiable
  static double[] map(DoubleUnaryOperator f, double[] xs) {
    double[] out = new double[xs.length];
    for (int i = 0; i < xs.length; i++) out[i] = f.applyAsDouble(xs[i]);
    return out;
  }
  @Differentiable
  static P iterate(DoubleUnaryOperator f, P p, int n) {
    P q = p;
    for (int i = 0; i < n; i++) q = new P(f.applyAsDouble(q.a()), q.b() + q.a());
    return q;
  }
  @Differentiable
  static double sum(double[] v) { double s = 0; for (double e : v) s += e; return s; }
  @Differentiable
  static double use(double[] xs, double k) {
    double[] a = map(x -> sum(map(y -> Math.sin(k * x * y), xs)) + x, xs);
    P p = iterate(t -> iterate(u -> u * k + 0.1, new P(t, k), 2).b() * 0.5, new P(k, 1), 3);
    return sum(a) + p.a() * p.b();
  }
  static Object[] probes() {
    boolean T = true;
    return new Object[] {
      new Object[] {"use", 1, false, new boolean[] {T, T}, new Object[][] {{new double[] {0.3, -1.2, 0.5}, 0.7}}},
    };
  }
}
