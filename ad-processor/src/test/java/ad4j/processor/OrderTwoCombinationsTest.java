package ad4j.processor;

import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.FlatHessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hessians of order-2 methods that combine what {@code mHessian}'s lanes and sweeps must carry
 * together: numbers of slots from 2 to 39, not multiples of the lanes, scalars and arrays
 * mixed; locals reused across iterations; return, break and continue in loops; indices from
 * integers made of active values; parameters assigned; local arrays written in place,
 * overwritten on each pass, at indices that coincide, swapped, copied; nested loops;
 * an inactive array between active ones, a variable-arity array; recursion; a vector function of order 2 (an RK4 step) called in loops, its results written
 * into arrays and read. Each against differences of the generated gradient and second
 * differences of the method, exact symmetry, {@code mHessianVector} and
 * {@code mValueGradientAndHessian} ({@link FlatHessianChecks}), whole and with the sweeps cut
 * into parts. Points are drawn away from the kinks (a stencil across a branch's or an
 * index's jump is not a derivative).
 */
@ExtendWith(TapeIsEmpty.class)
class OrderTwoCombinationsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "import java.util.Arrays;",
      "final class P {",
      "  /** Scalars and arrays mixed: a lane's slot in either array or scalar. */",
      "  @Differentiable(order = 2) static double mixed(double a, double[] x, double b, double[] y) {",
      "    double s = a * b;",
      "    for (int i = 0; i < x.length; i++) {",
      "      s += Math.sin(x[i] * a) * y[i % y.length] + x[i] * x[(i + 3) % x.length] * b;",
      "    }",
      "    for (int j = 0; j < y.length; j++) {",
      "      s += y[j] * y[j] * y[(j + 1) % y.length] * a;",
      "    }",
      "    return s;",
      "  }",
      "  /** Locals declared in the loop's body and assigned again there, a scalar carried across iterations. */",
      "  @Differentiable(order = 2) static double reuse(double[] x, double c) {",
      "    double s = 0;",
      "    double t = c;",
      "    for (int i = 0; i < x.length; i++) {",
      "      double u = x[i] * t;",
      "      t = u + Math.cos(t) * x[i];",
      "      u = u * u - t;",
      "      s += u * c;",
      "    }",
      "    return s + t * t;",
      "  }",
      "  /** A return, a continue and a break inside the loop, on values whose tangents matter. */",
      "  @Differentiable(order = 2) static double early(double[] x, double c) {",
      "    double s = c;",
      "    for (int i = 0; i < x.length; i++) {",
      "      if (x[i] * s > 2.5) { return s * x[i] * c; }",
      "      if (x[i] < 0.4) { continue; }",
      "      if (s > 40) { break; }",
      "      s = s * x[i] + c * x[i] * x[i];",
      "    }",
      "    return s * s;",
      "  }",
      "  /** Indices from (int) and Math.floor of active values. */",
      "  @Differentiable(order = 2) static double indices(double[] x, double c) {",
      "    int k = (int) Math.floor(c * 3);",
      "    double s = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      int j = ((int) (x[i] * 10) + k) % x.length;",
      "      s += x[i] * x[j] * c;",
      "    }",
      "    return s;",
      "  }",
      "  /** Parameters assigned in the body: a scalar before the array, one after it in the loop. */",
      "  @Differentiable(order = 2) static double assigned(double a, double[] x, double b) {",
      "    a = a * b;",
      "    double s = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      b = b + x[i] * a;",
      "      s += b * x[i];",
      "    }",
      "    return s * a;",
      "  }",
      "  /** A local copy of the array written in place. */",
      "  @Differentiable(order = 2) static double localArray(double[] x, double c) {",
      "    double[] z = x.clone();",
      "    for (int i = 1; i < z.length; i++) {",
      "      z[i] = z[i] * z[i - 1] + c;",
      "    }",
      "    double s = 0;",
      "    for (int i = 0; i < z.length; i++) { s += z[i] * z[i]; }",
      "    return s;",
      "  }",
      "  /** Elements of a local array overwritten on each pass of a loop around the loop. */",
      "  @Differentiable(order = 2) static double overwrite(double[] x, double c) {",
      "    double[] z = x.clone();",
      "    int n = z.length;",
      "    for (int k = 0; k < 3; k++) {",
      "      for (int i = 0; i < n; i++) { z[i] = Math.sin(z[i]) * z[(i + 1) % n] + c * z[i]; }",
      "    }",
      "    double s = 0;",
      "    for (int i = 0; i < n; i++) { s += z[i] * x[i]; }",
      "    return s;",
      "  }",
      "  /** Elements written at indices that coincide at run time (z[i] and z[j] with i == j). */",
      "  @Differentiable(order = 2) static double aliasIdx(double[] x, double c, int[] p) {",
      "    double[] z = x.clone();",
      "    for (int k = 0; k < p.length; k++) {",
      "      int i = p[k] % z.length; int j = (p[k] / 2) % z.length;",
      "      z[i] += Math.sin(z[j] * z[i]) * c;",
      "      z[j] *= 0.5 + 0.3 * Math.tanh(z[i] + c);",
      "    }",
      "    double s = 0;",
      "    for (int i = 0; i < z.length; i++) { s += z[i] * z[(i + 1) % z.length]; }",
      "    return s;",
      "  }",
      "  /** A double-buffer swap of two local arrays in a loop. */",
      "  @Differentiable(order = 2) static double swaps(double[] x, double c) {",
      "    int n = x.length;",
      "    double[] cur = new double[n];",
      "    for (int i = 0; i < n; i++) { cur[i] = x[i]; }",
      "    double[] next = new double[n];",
      "    for (int k = 0; k < 4; k++) {",
      "      for (int i = 0; i < n; i++) { next[i] = cur[i] + c * (cur[(i + 1) % n] - cur[i]) * cur[i]; }",
      "      double[] tmp = cur; cur = next; next = tmp;",
      "    }",
      "    double s = 0;",
      "    for (int i = 0; i < n; i++) { s += cur[i] * cur[i] * x[i]; }",
      "    return s;",
      "  }",
      "  /** Arrays.copyOf and System.arraycopy between local arrays in a loop. */",
      "  @Differentiable(order = 2) static double copies(double[] x, double c) {",
      "    int n = x.length;",
      "    double[] a = Arrays.copyOf(x, n + 2);",
      "    a[n] = c; a[n + 1] = c * c;",
      "    double[] b = new double[n + 2];",
      "    for (int k = 0; k < 3; k++) {",
      "      System.arraycopy(a, 1, b, 0, n + 1);",
      "      b[n + 1] = a[0] * c;",
      "      for (int i = 0; i < n + 2; i++) { a[i] = b[i] * a[i]; }",
      "    }",
      "    double s = 0;",
      "    for (int i = 0; i < n + 2; i++) { s += a[i]; }",
      "    return s;",
      "  }",
      "  /** A nested loop whose inner bound is the outer counter, a branch on a value in it. */",
      "  @Differentiable(order = 2) static double nested(double[] x, double c) {",
      "    double s = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      double u = x[i];",
      "      for (int j = 0; j <= i; j++) {",
      "        u = u * x[j] + c * Math.cos(u);",
      "        if (u > 3) { u = Math.log(u); }",
      "      }",
      "      s += u * u;",
      "    }",
      "    return s;",
      "  }",
      "  /** Recursion. */",
      "  @Differentiable(order = 2) static double rec(double x, double y, int n) {",
      "    if (n == 0) { return x * y; }",
      "    return Math.sin(rec(x * y, y + x, n - 1)) + x;",
      "  }",
      "  /** A vector function of order 2, called below. */",
      "  @Differentiable(order = 2) static double[] step(double[] s, double h) {",
      "    double[] d = new double[s.length];",
      "    for (int i = 0; i < s.length; i++) { d[i] = -s[(i + 1) % s.length] * s[i] * h; }",
      "    return d;",
      "  }",
      "  /** An RK4 step calling the vector function four times, stages in a reused local array. */",
      "  @Differentiable(order = 2) static double[] rk4(double[] s, double h) {",
      "    double[] k1 = step(s, h);",
      "    double[] t = new double[s.length];",
      "    for (int i = 0; i < s.length; i++) { t[i] = s[i] + 0.5 * k1[i]; }",
      "    double[] k2 = step(t, h);",
      "    for (int i = 0; i < s.length; i++) { t[i] = s[i] + 0.5 * k2[i]; }",
      "    double[] k3 = step(t, h);",
      "    for (int i = 0; i < s.length; i++) { t[i] = s[i] + k3[i]; }",
      "    double[] k4 = step(t, h);",
      "    double[] out = new double[s.length];",
      "    for (int i = 0; i < s.length; i++) { out[i] = s[i] + (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) / 6; }",
      "    return out;",
      "  }",
      "  /** The RK4 step called in a loop, its results copied into a state and a matrix and read. */",
      "  @Differentiable(order = 2) static double rk4Loop(double[] s, double h) {",
      "    double[] state = s.clone();",
      "    double[][] keep = new double[3][s.length];",
      "    for (int k = 0; k < 3; k++) {",
      "      double[] next = rk4(state, h);",
      "      for (int i = 0; i < s.length; i++) { state[i] = next[i]; keep[k][i] = next[i]; }",
      "    }",
      "    double e = 0;",
      "    for (int i = 0; i < state.length; i++) { e += state[i] * state[i] + keep[0][i] * keep[1][i]; }",
      "    return e;",
      "  }",
      "  /** A vector function called in a loop, its results accumulated into an array, one element rescaled. */",
      "  @Differentiable(order = 2) static double vecInto(double[] s, double h) {",
      "    double[] acc = new double[s.length];",
      "    for (int k = 0; k < 2; k++) {",
      "      double[] d = step(s, h * (k + 1));",
      "      for (int i = 0; i < s.length; i++) { acc[i] += d[i] * s[i]; }",
      "    }",
      "    acc[0] = acc[0] * h;",
      "    double e = 0;",
      "    for (int i = 0; i < s.length; i++) { e += acc[i] * acc[(i + 1) % s.length]; }",
      "    return e;",
      "  }",
      "  /** An inactive array between active ones, an int[] of indices. */",
      "  @Differentiable(order = 2) static double gaps(double[] a, @NoDerivative double[] w, double c, int[] idx, double[] b) {",
      "    double s = c;",
      "    for (int i = 0; i < a.length; i++) { s += a[i] * w[i % w.length] * b[idx[i] % b.length] * c; }",
      "    for (int j = 0; j < b.length; j++) { s += b[j] * b[j] * a[j % a.length]; }",
      "    return s;",
      "  }",
      "  /** A variable-arity array after a scalar. */",
      "  @Differentiable(order = 2) static double va(double c, double... xs) {",
      "    double s = 0;",
      "    for (int i = 0; i < xs.length; i++) { s += xs[i] * xs[(i + 1) % xs.length] * c; }",
      "    return s * c;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.P", SOURCE));

  private static final CompiledOnce IN_PARTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=4"),
          "com.example.P", SOURCE));

  private static double[] point(int n, long seed) {
    return new Random(seed).doubles(n, 0.3, 1.2).toArray();
  }

  static Stream<Call> calls() {
    List<Call> calls = new ArrayList<>();
    for (int n : new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 17, 23, 31, 38}) {
      calls.add(new Call("mixed", new Object[] {0.7, point(n, n), -0.4,
          point(1 + n % 5, 100 + n)}, true, true, true, true));
    }
    for (int n = 1; n <= 9; n++) {
      calls.add(new Call("reuse", new Object[] {point(n, 7 * n), 0.6}, true, true));
      calls.add(new Call("assigned", new Object[] {0.5, point(n, 13 * n), 0.8}, true, true,
          true));
    }
    for (int n = 2; n <= 7; n++) {
      calls.add(new Call("localArray", new Object[] {point(n, 3 * n), 0.3}, true, true));
      calls.add(new Call("swaps", new Object[] {point(n, 3 * n), 0.6}, true, true));
    }
    for (int n = 1; n <= 7; n++) {
      calls.add(new Call("overwrite", new Object[] {point(n, n), 0.6}, true, true));
      calls.add(new Call("aliasIdx", new Object[] {point(n, 2 * n), 0.6,
          new int[] {0, 1, 3, 3, 5, 2, 7}}, true, true, false));
      calls.add(new Call("copies", new Object[] {point(n, 4 * n), 0.6}, true, true));
      calls.add(new Call("nested", new Object[] {point(n, 6 * n), 0.6}, true, true));
    }
    for (int n : new int[] {1, 2, 3, 4, 5, 6, 7}) {
      calls.add(new Call("early", new Object[] {point(n, 9 * n), 0.9}, true, true));
    }
    for (int n : new int[] {1, 2, 3, 4, 5}) {
      calls.add(new Call("indices", new Object[] {point(n, 11 * n), 0.77}, true, true));
    }
    for (int n = 0; n <= 3; n++) {
      calls.add(new Call("rec", new Object[] {0.6, 0.5, n}, true, true, false));
    }
    for (int n = 1; n <= 5; n++) {
      calls.add(new Call("rk4Loop", new Object[] {point(n, 5 * n), 0.1}, true, true));
      calls.add(new Call("vecInto", new Object[] {point(n, 6 * n), 0.3}, true, true));
    }
    for (int n = 1; n <= 6; n++) {
      calls.add(new Call("gaps", new Object[] {point(n, 17 * n), point(n + 2, 19 * n), 0.7,
          new int[] {3, 1, 4, 1, 5, 9}, point(7 - n, 23 * n)}, true, false, true, false, true));
      calls.add(new Call("va", new Object[] {0.7, point(n, 29 * n)}, true, true));
    }
    return calls.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansOfCombinedConstructs(Call call) throws Exception {
    FlatHessianChecks.of(COMPILED.get(), "com.example.P").check(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansOfCombinedConstructsWithTheSweepsInParts(Call call) throws Exception {
    FlatHessianChecks.of(IN_PARTS.get(), "com.example.P").check(call);
  }
}
