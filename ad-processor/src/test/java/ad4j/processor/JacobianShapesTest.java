package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jacobians of vector functions of many shapes, so that {@code mJacobian} and
 * {@code mValueAndJacobian} take them by rows (reverse mode, p sweeps) where results are
 * fewer than slots and by columns (forward mode, N sweeps) where they are more: the identity
 * and copies of an argument, results written and written again from each other, a result as
 * long as an empty argument, vector calls on vector results, a copy read through a second
 * name, matrices with rows of different lengths, and a loop with a branch and a vector call
 * with p from 1 to 10 beside 2 to 5 slots. Each against differences of order 8 of the user's
 * method, with the pullback and the tangent ({@link MemberAgreement#checkVector}).
 */
@ExtendWith(TapeIsEmpty.class)
class JacobianShapesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class J {",
      "  /** The identity, a copy of the argument. */",
      "  @Differentiable static double[] ident(double[] x) { return x.clone(); }",
      "  /** A copy of the argument, one element scaled. */",
      "  @Differentiable static double[] identCopy(double[] x, double a) { double[] y = x.clone(); y[0] *= a; return y; }",
      "  /** p results from a loop over the arguments, two of them mixed after it: p above and below the slots. */",
      "  @Differentiable static double[] scaled(double[] x, double a, int p) {",
      "    double[] r = new double[p];",
      "    for (int i = 0; i < p; i++) {",
      "      double s = a;",
      "      for (int j = 0; j < x.length; j++) { s += Math.sin(x[j] * (i + 1)) * x[(j + i) % x.length]; }",
      "      r[i] = s * a;",
      "    }",
      "    if (p > 1) { r[0] = r[0] * r[p - 1]; r[p - 1] = r[p - 1] + r[0]; }",
      "    return r;",
      "  }",
      "  /** The result written, then written again from its own elements. */",
      "  @Differentiable static double[] modified(double[] x, double a) {",
      "    double[] r = new double[x.length];",
      "    for (int i = 0; i < x.length; i++) { r[i] = x[i] * a; }",
      "    for (int i = 0; i < x.length; i++) { r[i] = r[i] * r[(i + 1) % x.length]; }",
      "    return r;",
      "  }",
      "  /** As long as its argument, which may be empty. */",
      "  @Differentiable static double[] zeroLength(double[] x, double a) {",
      "    double[] r = new double[x.length];",
      "    for (int i = 0; i < x.length; i++) { r[i] = x[i] * a * a; }",
      "    return r;",
      "  }",
      "  /** A vector function called twice, the second time on the first's result. */",
      "  @Differentiable static double[] twice(double[] x, double a) {",
      "    double[] r = inner(x, a);",
      "    double[] q = inner(r, a);",
      "    double[] out = new double[x.length + 1];",
      "    for (int i = 0; i < x.length; i++) { out[i] = q[i] - r[i]; }",
      "    out[x.length] = a;",
      "    return out;",
      "  }",
      "  /** Called by the others. */",
      "  @Differentiable static double[] inner(double[] x, double a) {",
      "    double[] r = new double[x.length];",
      "    for (int i = 0; i < x.length; i++) { r[i] = x[i] * x[i] * a; }",
      "    return r;",
      "  }",
      "  /** A copy of the argument through a second name, written in a branch and after it. */",
      "  @Differentiable static double[] passThrough(double[] x, double a) {",
      "    double[] r = x.clone();",
      "    double[] q = r;",
      "    if (a <= 0) { for (int i = 0; i < x.length; i++) { q[i] = x[i] * a; } }",
      "    q[0] = q[0] * r[0];",
      "    return r;",
      "  }",
      "  /** One result per row of a matrix whose rows differ in length. */",
      "  @Differentiable static double[] mat(double[][] m, double a) {",
      "    double[] r = new double[m.length];",
      "    for (int i = 0; i < m.length; i++) { for (int j = 0; j < m[i].length; j++) { r[i] += m[i][j] * m[i][j] * a; } }",
      "    return r;",
      "  }",
      "  /** A copy of a matrix's row. */",
      "  @Differentiable static double[] rowOf(double[][] m, double a) {",
      "    return m[0].clone();",
      "  }",
      "  /** p results of a loop with a branch, a vector call on them, mixed into a new result. */",
      "  @Differentiable static double[] tall(double a, double[] w, int p) {",
      "    double[] r = new double[p];",
      "    double s = a;",
      "    for (int i = 0; i < p; i++) {",
      "      s = Math.sin(s * a) + w[i % w.length] * s;",
      "      if (s > 1) { s = s * 0.5; }",
      "      r[i] = s * w[(i + 1) % w.length];",
      "    }",
      "    double[] q = inner(r, a);",
      "    double[] out = new double[p];",
      "    for (int i = 0; i < p; i++) { out[i] = q[i] + r[(i + 1) % p]; }",
      "    return out;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.J", SOURCE));

  private static MemberAgreement method(String name, boolean... active) {
    return MemberAgreement.of(COMPILED.get(), "com.example.J", name, active);
  }

  @Test
  void copiesOfTheArgument() throws Exception {
    for (int n = 1; n <= 6; n++) {
      method("ident", true).checkVector(new Object[] {point(n)});
      method("identCopy", true, true).checkVector(new Object[] {point(n), 0.8});
      method("passThrough", true, true).checkVector(new Object[] {point(n), 0.8});
      method("passThrough", true, true).checkVector(new Object[] {point(n), -0.8});
    }
  }

  @Test
  void resultsAboveAndBelowTheSlots() throws Exception {
    for (int n = 1; n <= 7; n++) {
      for (int p = 1; p <= 9; p += 2) {
        method("scaled", true, true, false).checkVector(new Object[] {point(n), 0.8, p});
      }
    }
    for (int n = 1; n <= 4; n++) {
      for (int p = 1; p <= 12; p += 3) {
        method("tall", true, true, false).checkVector(new Object[] {0.4, point(n), p});
      }
    }
  }

  @Test
  void resultsWrittenAgainAndVectorCallsOnVectorResults() throws Exception {
    for (int n = 0; n <= 6; n++) {
      if (n > 0) {
        method("modified", true, true).checkVector(new Object[] {point(n), 0.8});
      }
      method("twice", true, true).checkVector(new Object[] {point(n), 0.8});
    }
  }

  @Test
  void emptyArguments() throws Exception {
    method("zeroLength", true, true).checkVector(new Object[] {point(0), 0.8});
    method("zeroLength", true, true).checkVector(new Object[] {point(1), 0.8});
  }

  @Test
  void matrices() throws Exception {
    double[][] m = {{0.3, 0.4}, {0.5}, {0.6, 0.7, 0.8}};
    method("mat", true, true).checkVector(new Object[] {m, 0.8});
    method("mat", true, true).checkVector(new Object[] {new double[][] {{0.3, 0.4}}, 0.8});
    method("rowOf", true, true).checkVector(new Object[] {m, 0.8});
  }

  private static double[] point(int n) {
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = 0.35 + 0.13 * i + 0.01 * i * i;
    }
    return x;
  }
}
