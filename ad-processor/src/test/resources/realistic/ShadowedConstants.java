package com.example;
import ad4j.Differentiable;
import java.util.function.DoubleUnaryOperator;

final class ShadowedConstants {
  static final double SCALE = 2;
  static final double[] W = {1, 2, 3};
  static final DoubleUnaryOperator SQ = t -> t * SCALE;
  record R(double a) {
    double f(double t) { return a * t * SCALE + W[1]; }
  }
  @Differentiable
  static double tmpl(DoubleUnaryOperator g, double t) {
    double s = 0;
    for (int i = 0; i < W.length; i++) s += g.applyAsDouble(t * W[i]) * SCALE;
    return s;
  }
  @Differentiable
  static double helper(double t) { return t * SCALE + W[0]; }

  @Differentiable
  static double shadow(double x, double y) {
    double SCALE = x * 10;
    double[] W = {y, y, y, y};
    double r = new R(y).f(x) + tmpl(u -> u * u, y) + helper(x) + SQ.applyAsDouble(y);
    return r + SCALE + W[3];
  }
  @Differentiable
  static double shadowLoop(double x, double y) {
    double SCALE = x;
    double acc = 0;
    for (int i = 0; i < 3; i++) {
      double sc = SCALE;
      acc += new R(y).f(x) + tmpl(u -> u * sc, y) + SQ.applyAsDouble(acc * 0.1);
      SCALE += y;
    }
    return acc;
  }
  static Object[] probes() {
    boolean T = true;
    Object[][] pts = {{0.7, 1.3}, {-0.4, 0.9}};
    return new Object[] {
      new Object[] {"shadow", 1, false, new boolean[] {T, T}, pts},
      new Object[] {"shadowLoop", 1, false, new boolean[] {T, T}, pts},
    };
  }
}
