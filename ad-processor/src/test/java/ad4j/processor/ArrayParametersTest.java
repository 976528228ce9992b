package ad4j.processor;

import static ad4j.processor.testing.ArrayArguments.append;
import static ad4j.processor.testing.ArrayArguments.deepCopy;
import static ad4j.processor.testing.ArrayArguments.flatten;
import static ad4j.processor.testing.ArrayArguments.shapedLike;
import static ad4j.processor.testing.ArrayArguments.withSlot;
import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.Sources;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Array parameters ({@code double[]}, {@code double[][]}, {@code int[]}, {@code @NoDerivative}):
 * each function's gradient against fourth-order central differences of the user's own method,
 * slot by slot in the flat layout; the value bit for bit; forward against reverse mode (the
 * dot-product test); the pullback's accumulation; the same exception as the user's method from
 * every member; an empty tape after every call.
 */
@ExtendWith(TapeIsEmpty.class)
class ArrayParametersTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Arr {",
      "  @Differentiable static double logistic(double[] w, double b, @NoDerivative double[][] x,",
      "      @NoDerivative double[] y) {",
      "    double loss = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      double z = b;",
      "      for (int j = 0; j < w.length; j++) { z += w[j] * x[i][j]; }",
      "      loss += Math.log(1 + Math.exp(-y[i] * z));",
      "    }",
      "    return loss / x.length;",
      "  }",
      "  @Differentiable static double quad(double a, double[][] m, double[] v) {",
      "    double s = a * m[0][1];",
      "    double[] r = m[1];",
      "    return s + r[0] * v[1] * v[0] + r.length;",
      "  }",
      "  @Differentiable static double jagged(double[][] m, double c) {",
      "    double s = 0;",
      "    for (int i = 0; i < m.length; i++) {",
      "      double[] row = m[i];",
      "      for (int j = 0; j < row.length; j++) { s += Math.sin(row[j] * c) * (i + 1); }",
      "    }",
      "    return s * c;",
      "  }",
      "  @Differentiable static double indexed(double[] x, int[] idx, double t) {",
      "    double s = t;",
      "    for (int k = 0; k < idx.length; k++) {",
      "      s = s * x[idx[k]] + Math.exp(x[k % x.length] * t);",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double branchy(double[] x, int n) {",
      "    double s = 0;",
      "    for (int i = 0; i < n; i++) {",
      "      if (x[i] > 0) { s += x[i] * x[i]; } else { s -= Math.cos(x[i]); }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double dot(double[] a, double[] b) {",
      "    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];",
      "  }",
      "  @Differentiable static double prefix(double[] x, double c) {",
      "    double[] p = new double[x.length];",
      "    double s = 0;",
      "    for (int i = 0; i < x.length; i++) { s += x[i] * c; p[i] = Math.sin(s); }",
      "    double r = 0;",
      "    for (int i = 0; i < p.length; i++) { p[i] *= p[i]; r += p[i] * (i + 1); }",
      "    return r;",
      "  }",
      "  @Differentiable static double copy(double[] w, double t, @NoDerivative double[] d) {",
      "    double[] c = w.clone();",
      "    c[0] = t * c[1];",
      "    c[1] += c[0] * t;",
      "    double[] k = {t, 2 * t, c[2]};",
      "    double[] e = d.clone();",
      "    e[1]++;",
      "    e[0] = e[1] * t;",
      "    int[] n = new int[2];",
      "    n[1] = 3;",
      "    return c[0] + c[1] * c[2] + k[1] * k[2] * e[0] + n[1] * e[1];",
      "  }",
      "  @Differentiable static double scalarOnly(double x) {",
      "    double[] a = new double[3];",
      "    for (int i = 0; i < 3; i++) { a[i] = x * i; a[(i + 1) % 3] += Math.exp(a[i]); }",
      "    double v = (a[0] = a[1] * a[2]) + a[0];",
      "    return v + a[2]--;",
      "  }",
      "  static final double[] COEF = {1, -0.5, 0.25, 0.125};",
      "  static final double[][] GRID = {{1, 2}, {3, 4, 5}};",
      "  @Differentiable static double horner(double x, double[] shift) {",
      "    double[] c = COEF.clone();",
      "    c[0] += shift[0];",
      "    double p = 0;",
      "    for (int k = COEF.length - 1; k >= 0; k--) { p = p * x + c[k] * GRID[1][k % 3]; }",
      "    return p;",
      "  }",
      "  @Differentiable static double forEach(double[] w, @NoDerivative double[][] x,",
      "      double[][] m) {",
      "    double s = 0;",
      "    for (double[] row : x) {",
      "      double d = 0;",
      "      int j = 0;",
      "      for (double xj : row) { d += xj * w[j++]; }",
      "      s += Math.tanh(d);",
      "    }",
      "    for (double v : w) { if (v > 0) { continue; } s += v * v; }",
      "    for (var r : m) { for (double e : r) { s *= 1 + 0.1 * e; } }",
      "    return s;",
      "  }",
      "  @Differentiable static double library(double[] w, double c, int from) {",
      "    double[] a = new double[w.length + 2];",
      "    java.util.Arrays.fill(a, c * c);",
      "    System.arraycopy(w, 0, a, 1, w.length);",
      "    double[] b = new double[a.length];",
      "    System.arraycopy(a, from, b, 0, a.length - from);",
      "    java.util.Arrays.fill(b, 0, from, Math.sin(c));",
      "    double s = 0;",
      "    for (double v : b) { s = s * 0.5 + v * v; }",
      "    return s;",
      "  }",
      "  @Differentiable static double emptyOk(double[] w, double c) {",
      "    double s = c * c;",
      "    for (int i = 0; i < w.length; i++) { s += w[i] * c; }",
      "    return s;",
      "  }",
      // calls between @Differentiable methods that pass and return arrays
      "  @Differentiable static double dotN(double[] a, double[] b) {",
      "    double s = 0;",
      "    for (int i = 0; i < a.length; i++) { s += a[i] * b[i]; }",
      "    return s;",
      "  }",
      "  @Differentiable static double linear(double[] w, double b, @NoDerivative double[][] x,",
      "      @NoDerivative double[] y) {",
      "    double loss = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      double r = dotN(w, x[i]) + b - y[i];",
      "      loss += r * r;",
      "    }",
      "    return loss;",
      "  }",
      "  @Differentiable static double quadForm(double[] w, double[][] m) {",
      "    double s = 0;",
      "    for (int i = 0; i < m.length; i++) {",
      "      if (w[i] > 0) { s += w[i] * dotN(m[i], w); } else { s -= dotN(w, m[i]); }",
      "    }",
      "    return s;",
      "  }",
      "  static final double[] TABLE3 = {0.5, -1, 2};",
      "  @Differentiable static double[] scaled(double[] v, double c) {",
      "    double[] r = new double[v.length];",
      "    for (int i = 0; i < v.length; i++) { r[i] = c * Math.sin(v[i]); }",
      "    return r;",
      "  }",
      "  @Differentiable static double throughVector(double[] w, double c) {",
      "    double[] r = scaled(w, c);",
      "    double[] t = w.clone();",
      "    t[0] = dotN(r, t);",
      "    t[1] = t[0] * c;",
      "    return dotN(t, w) + dotN(TABLE3, r) * r[2];",
      "  }",
      "  @Differentiable static double squares(double[] a, int n) {",
      "    if (n == 0) { return 0; }",
      "    return a[n - 1] * a[n - 1] * n + squares(a, n - 1);",
      "  }",
      "  @Differentiable static double localInLoop(double[] w, double c) {",
      "    double[] acc = new double[w.length];",
      "    for (int k = 0; k < 5; k++) {",
      "      int j = k % w.length;",
      "      acc[j] += dotN(acc, w) * c + w[j];",
      "    }",
      "    return dotN(acc, acc);",
      "  }",
      "  @Differentiable static double frobenius(double[][] m, double[] v) {",
      "    double s = 0;",
      "    for (double[] row : m) { s += dotN(row, row) * v[0]; }",
      "    return s;",
      "  }",
      "  @Differentiable static double matrices(double[][] m, double c) {",
      "    double[] v = {c, 1};",
      "    return frobenius(m, v) + frobenius(GRID, v) * c;",
      "  }",
      "  @Differentiable static double pick(double[] w, int[] idx) {",
      "    return w[idx[0]] * w[idx[1]] + w[idx[2]];",
      "  }",
      "  @Differentiable static double shuffled(double[] w, double c) {",
      "    int[] idx = {0, 1, 2};",
      "    double s = pick(w, idx);",
      "    idx[0] = 2;",
      "    for (int k = 0; k < 4; k++) {",
      "      s += pick(w, idx) * c;",
      "      idx[k % 3] = (idx[k % 3] + 1) % w.length;",
      "    }",
      "    return s;",
      "  }",
      // arrays made inside loops: a new array in each iteration, of the same or varying lengths
      "  @Differentiable static double scratch(double[] w, int n) {",
      "    double s = 0;",
      "    for (int k = 0; k < n; k++) {",
      "      double[] t = new double[w.length];",
      "      for (int i = 0; i < w.length; i++) {",
      "        t[i] = w[i] * (k + 1) + Math.sin(w[i] * t.length);",
      "      }",
      "      for (int i = 1; i < t.length; i++) { t[i] += t[i - 1] * t[i]; }",
      "      s += t[t.length - 1] * t[0];",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double clonesInLoop(double[] w, double c) {",
      "    double s = 0;",
      "    double[] acc = w.clone();",
      "    for (int k = 0; k < 3; k++) {",
      "      double[] copy = acc.clone();",
      "      for (int i = 0; i < copy.length; i++) {",
      "        copy[i] = copy[i] * copy[i] + k * c;",
      "        acc[i] = copy[i] * 0.5 + acc[i];",
      "      }",
      "      double[] d = new double[k + 1];",
      "      for (int i = 0; i < d.length; i++) { d[i] = acc[i] * w[i]; s += d[i] * d[i]; }",
      "      if (s > 100) { double[] e = {s, c}; s = e[0] * e[1] * 0.01; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double vectorInLoop(double[] w, double c) {",
      "    double s = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      double[] r = scaled(w, c * (k + 1) + s * 0.1);",
      "      r[0] += s;",
      "      for (int i = 0; i < r.length; i++) { s += r[i] * r[i]; }",
      "      s += scaled(TABLE3, s)[k % 3];",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double callsInLoop(double[] w, double c) {",
      "    double s = 0;",
      "    for (int k = 0; k < 4; k++) {",
      "      double[] h = new double[k % 2 == 0 ? w.length : 2];",
      "      for (int i = 0; i < h.length; i++) { h[i] = Math.sin(w[i] * (k + c)); }",
      "      s += dotN(h, w) * c;",
      "      h[0] = h[0] * h[1] + s * 0.1;",
      "      s += dotN(h, h) * 0.1;",
      "      double[] r = scaled(h, c + k);",
      "      r[1] += s * 0.1;",
      "      s = s * 0.5 + dotN(r, h) * 0.1;",
      "      int[] order = {k % 2, 1 - k % 2};",
      "      s += h[order[0]] * ordered(h, order);",
      "      order[0] = 1;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double ordered(double[] v, int[] order) {",
      "    return v[order[0]] * v[order[1]];",
      "  }",
      "  @Differentiable static double matrixCalls(double[] w, double c) {",
      "    double[][] m = new double[2][w.length];",
      "    for (int i = 0; i < w.length; i++) { m[0][i] = w[i] * c; m[1][i] = Math.sin(w[i]); }",
      "    double s = total(m) + dotN(m[1], w);",
      "    m[1][0] = s * c;",
      "    s += total(m) * 0.5;",
      "    double[] row = m[0];",
      "    for (int k = 0; k < 2; k++) {",
      "      s += dotN(m[k], row) * 0.1;",
      "      m[k][1] = s * 0.2;",
      "      row[0] += s * 0.1;",
      "    }",
      "    return s + dotN(m[0], m[1]) + total(m);",
      "  }",
      "  @Differentiable static double total(double[][] a) {",
      "    double s = 0;",
      "    for (double[] r : a) { s += dotN(r, r) * r[1]; }",
      "    return s;",
      "  }",
      "  @Differentiable static double matrixInLoop(double[] w, double c) {",
      "    double s = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      double[][] m = new double[2][k == 1 ? 2 : w.length];",
      "      double[][] b = {{c, w[0] * s}, {w[1] * c, s}};",
      "      s += total(b) * 0.1 + b[1][0] * b[0][1];",
      "      for (int i = 0; i < m[0].length; i++) {",
      "        m[0][i] += w[i] * c;",
      "        m[1][0] += Math.sin(w[i] * (k + 1)) * m[0][i];",
      "      }",
      "      double[] r = m[1];",
      "      s += m[0][1] * r[0] + dotN(r, m[0]) * 0.5 + total(m) * 0.1;",
      "      r[0] = s * 0.3;",
      "      s += m[1][0] * m[0][0] + dotN(m[1], r);",
      "    }",
      "    return s;",
      "  }",
      Sources.localMatrixMethod("@Differentiable"),
      "  @Differentiable static double jaggedLocal(double[] w, double c) {",
      "    double[][] b = {{c, w[0]}, {w[1] * c}, {}};",
      "    b[1][0] *= b[0][1];",
      "    if (c > 0) { java.util.Arrays.fill(b[0], 0, 1, w[2]); }",
      "    System.arraycopy(w, 1, b[0], 1, 1);",
      "    double s = 0;",
      "    for (int i = 0; i < b.length; i++) {",
      "      for (int j = 0; j < b[i].length; j++) { s += Math.sin(b[i][j]) * (i + j + 1); }",
      "    }",
      "    return s + b[1][0] * b[0][1] + b.length;",
      "  }",
      "  @Differentiable static double rowCopies(double[][] m, double c) {",
      "    double s = 0;",
      "    for (int i = 0; i < m.length; i++) {",
      "      double[] r = m[i].clone();",
      "      java.util.Arrays.fill(r, 0, Math.min(1, r.length), c);",
      "      double[] z = new double[r.length + 1];",
      "      System.arraycopy(r, 0, z, 1, r.length);",
      "      for (int j = 0; j < z.length; j++) { s += z[j] * z[j] * c + Math.cos(m[i].length); }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double constantPart(double x, @NoDerivative double k) {",
      "    return Math.sin(x) * k;",
      "  }",
      "  @Differentiable static double withConstant(double x, double y) {",
      "    return constantPart(x * y, 2.5) + constantPart(y, x > 0 ? 1 : 2);",
      "  }",
      "}");

  private static final CompiledOnce ARR = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Arr",
          SOURCE));

  /** A call: the method, its arguments, and which of them carry derivatives. */
  record Call(String name, Object[] arguments, boolean[] active) {
    @Override
    public String toString() {
      return name + Arrays.deepToString(arguments);
    }
  }

  static Stream<Arguments> calls() {
    double[][] data = {{0.5, -1.2, 0.3}, {1.5, 0.2, -0.7}, {-0.3, 0.8, 1.1}, {0.9, -0.4, 0.2}};
    return Stream.of(
        call("logistic", new Object[] {new double[] {0.3, -0.2, 0.5}, 0.1, data,
            new double[] {1, -1, 1, -1}}, true, true, false, false),
        call("quad", new Object[] {1.5, new double[][] {{0.2, 0.7}, {-1.1, 0.4, 2.0}},
            new double[] {0.3, -0.8}}, true, true, true),
        call("jagged", new Object[] {new double[][] {{0.2, 0.7, 1.3}, {}, {-1.1}, {0.4, 0.9}},
            0.8}, true, true),
        call("indexed", new Object[] {new double[] {0.9, 1.1, -0.5}, new int[] {2, 0, 2, 1},
            0.3}, true, false, true),
        call("branchy", new Object[] {new double[] {0.9, -1.1, 0.5, -0.2}, 4}, true, false),
        call("dot", new Object[] {new double[] {0.9, -1.1, 0.5}, new double[] {2, 3, -4}},
            true, true),
        call("emptyOk", new Object[] {new double[0], 0.7}, true, true),
        call("prefix", new Object[] {new double[] {0.3, -0.2, 0.5, 0.9}, 0.7}, true, true),
        call("copy", new Object[] {new double[] {0.3, -0.2, 0.5}, 0.7,
            new double[] {1.5, -0.5}}, true, true, false),
        call("scalarOnly", new Object[] {0.45}, true),
        call("horner", new Object[] {0.8, new double[] {0.3}}, true, true),
        call("forEach", new Object[] {new double[] {0.3, -0.6, 0.9},
            new double[][] {{1, 2, -1}, {0.5, -0.5, 2}}, new double[][] {{0.2}, {0.4, -0.3}}},
            true, false, true),
        call("library", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7, 2}, true, true,
            false),
        call("linear", new Object[] {new double[] {0.3, -0.2, 0.5}, 0.1, data,
            new double[] {1, -1, 0.5, 2}}, true, true, false, false),
        call("quadForm", new Object[] {new double[] {0.3, -0.2, 0.5},
            new double[][] {{1, 2, -1}, {0.5, -0.5, 2}, {0.2, 0.4, -0.3}}}, true, true),
        call("throughVector", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("squares", new Object[] {new double[] {0.3, -0.6, 0.9, 1.2}, 4}, true, false),
        call("localInLoop", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("matrices", new Object[] {new double[][] {{0.2, 0.7, 1.3}, {}, {-1.1}}, 0.8},
            true, true),
        call("withConstant", new Object[] {0.4, 1.3}, true, true),
        call("vectorInLoop", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("callsInLoop", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("matrixCalls", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("matrixInLoop", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("matrixInLoop", new Object[] {new double[] {1.2, 0.4}, -0.5}, true, true),
        call("matrixCalls", new Object[] {new double[] {1.2, 0.4}, -0.5}, true, true),
        call("callsInLoop", new Object[] {new double[] {1.3, 0.4}, -0.4}, true, true),
        call("localMatrix", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("localMatrix", new Object[] {new double[] {1.3}, -0.4}, true, true),
        call("jaggedLocal", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("jaggedLocal", new Object[] {new double[] {0.3, -0.6, 0.9}, -0.7}, true, true),
        call("rowCopies", new Object[] {new double[][] {{0.3, -0.2}, {}, {0.5, 0.1, 0.7}},
            0.7}, true, true),
        call("scratch", new Object[] {new double[] {0.3, -0.2, 0.5, 0.1}, 3}, true, false),
        call("clonesInLoop", new Object[] {new double[] {0.3, -0.6, 0.9, 1.2}, 0.7}, true,
            true),
        call("clonesInLoop", new Object[] {new double[] {2.3, -2.6, 1.9, 2.2}, 1.7}, true,
            true),
        call("shuffled", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true));
  }

  private static Arguments call(String name, Object[] arguments, boolean... active) {
    return Arguments.of(new Call(name, arguments, active));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void gradientMatchesFiniteDifferencesOfTheUsersMethod(Call call) throws Exception {
    double[] gradient = (double[]) invoke(call.name() + "Gradient", true, call.arguments());
    double[] expected = finiteDifferences(call);

    assertThat(gradient.length).isEqualTo(expected.length);
    for (int slot = 0; slot < expected.length; slot++) {
      assertWithMessage("slot %s of %s", slot, call).that(gradient[slot])
          .isWithin(1e-7 * Math.max(1, Math.abs(expected[slot]))).of(expected[slot]);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void valueIsBitForBitAndTheGradientIsWrittenOverWhateverWasThere(Call call) throws Exception {
    double value = (double) invoke(call.name(), false, call.arguments());
    double[] gradient = (double[]) invoke(call.name() + "Gradient", true, call.arguments());
    double[] written = new double[gradient.length + 2];
    Arrays.fill(written, 42);

    double returned = (double) invoke(call.name() + "ValueAndGradient", true,
        append(call.arguments(), written));

    assertThat(Double.doubleToRawLongBits(returned))
        .isEqualTo(Double.doubleToRawLongBits(value));
    assertThat(Arrays.copyOf(written, gradient.length)).isEqualTo(gradient);
    assertThat(written[gradient.length]).isEqualTo(42); // beyond the slots: untouched
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void forwardModeAgreesWithReverseMode(Call call) throws Exception {
    double[] gradient = (double[]) invoke(call.name() + "Gradient", true, call.arguments());
    Random random = new Random(call.name().hashCode());
    List<Object> directions = new ArrayList<>();
    double expected = 0;
    int slot = 0;
    for (int i = 0; i < call.arguments().length; i++) {
      if (!call.active()[i]) {
        continue;
      }
      Object direction = shapedLike(call.arguments()[i], random);
      directions.add(direction);
      for (double d : flatten(direction)) {
        expected += gradient[slot++] * d;
      }
    }

    double tangent = (double) invoke(call.name() + "Tangent", true,
        append(call.arguments(), directions.toArray()));

    assertThat(tangent).isWithin(1e-12 * Math.max(1, Math.abs(expected))).of(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void pullbackAddsSeedTimesTheGradient(Call call) throws Exception {
    double[] gradient = (double[]) invoke(call.name() + "Gradient", true, call.arguments());
    double[] adjoints = new double[gradient.length];
    Arrays.fill(adjoints, 1.0);

    invoke(call.name() + "Pullback", true, append(call.arguments(), 2.5, adjoints));

    for (int i = 0; i < gradient.length; i++) {
      assertThat(adjoints[i]).isWithin(1e-12 * Math.max(1, Math.abs(gradient[i])))
          .of(1.0 + 2.5 * gradient[i]);
    }
  }

  @Test
  void theSameArrayPassedTwiceGetsBothPartialsInItsOwnSlots() throws Exception {
    double[] a = {0.9, -1.1, 0.5};

    double[] gradient = (double[]) invoke("dotGradient", true, a, a);

    assertThat(gradient).usingTolerance(0).containsExactly(0.9, -1.1, 0.5, 0.9, -1.1, 0.5)
        .inOrder();
  }

  @Test
  void anIndexOutOfRangeThrowsWhatTheUsersMethodThrowsFromEveryMember() throws Exception {
    double[] x = {0.9, -1.1};
    Object[] arguments = {x, 3};
    Class<? extends Throwable> thrown = thrownBy("branchy", false, arguments);
    assertThat(thrown).isEqualTo(ArrayIndexOutOfBoundsException.class);

    assertThat(thrownBy("branchyGradient", true, arguments)).isEqualTo(thrown);
    assertThat(thrownBy("branchyValueAndGradient", true, append(arguments, new double[2])))
        .isEqualTo(thrown);
    assertThat(thrownBy("branchyTangent", true, append(arguments, (Object) new double[2])))
        .isEqualTo(thrown);
    assertThat(thrownBy("branchyPullback", true, append(arguments, 1.0, new double[2])))
        .isEqualTo(thrown);
  }

  @Test
  void libraryRangeChecksThrowWhatTheLibraryThrowsFromEveryMember() throws Exception {
    for (int from : new int[] {-1, 6}) {
      Object[] arguments = {new double[] {0.3, -0.6, 0.9}, 0.7, from};
      Class<? extends Throwable> thrown = thrownBy("library", false, arguments);
      assertThat(thrown).isEqualTo(ArrayIndexOutOfBoundsException.class);
      assertThat(thrownBy("libraryGradient", true, arguments)).isEqualTo(thrown);
      assertThat(thrownBy("libraryTangent", true,
          append(arguments, new double[3], 1.0))).isEqualTo(thrown);
    }
  }

  @Test
  void aTooShortGradientNamesTheMethodAndBothLengths() {
    Object[] arguments = {new double[] {1, 2, 3}, 0.5};
    InvocationTargetException e = assertThrows(InvocationTargetException.class,
        () -> invoke("emptyOkValueAndGradient", true, append(arguments, new double[3])));

    assertThat(e.getCause()).isInstanceOf(IllegalArgumentException.class);
    assertThat(e.getCause()).hasMessageThat().isEqualTo("ArrGrad.emptyOkValueAndGradient:"
        + " 'gradient' has length 3, needs 4 (slots in order: w (one per element), then c)");
  }

  @Test
  void tangentTakesOneDirectionOfTheSameShapePerActiveParameter() {
    Class<?> grad = ARR.get().load("com.example.ArrGrad");
    Method tangent = Arrays.stream(grad.getDeclaredMethods())
        .filter(m -> m.getName().equals("logisticTangent")).findFirst().orElseThrow();

    assertThat(tangent.getParameterTypes()).asList().containsExactly(double[].class,
        double.class, double[][].class, double[].class, double[].class, double.class)
        .inOrder();
  }

  // ---- diagnostics ---------------------------------------------------------------------------

  @Test
  void aWriteIntoAnArrayParameterIsAnErrorAtTheWrite() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double[] x) {",
        "    x[0] = 2;",
        "    x[1] += 1;",
        "    return x[0];",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("write into array 'x' is not supported: a"
        + " differentiable method reads its array parameters and never writes into them; copy"
        + " it into a local array first ('x.clone()')")
        .inFile(file).onLine(5).atColumn(6); // javac's position of an array access: its '['
    assertThat(compilation).hadErrorContaining("write into array 'x'").inFile(file).onLine(6)
        .atColumn(6);
  }

  @Test
  void onlyStoresThatACallOnTheSameArrayMayPrecedeRecordTheElementTheyWriteOver()
      throws Exception {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double g(double[] t) { return t[0] * t[1]; }",
        "  @Differentiable static double f(double[] w) {",
        "    double s = 0;",
        "    for (int k = 0; k < 3; k++) {",
        "      double[] h = new double[w.length];",
        "      for (int i = 0; i < h.length; i++) { h[i] = w[i] * (k + 1); }",
        "      s += g(h);",
        "      h[0] = s;",
        "      s += g(h);",
        "    }",
        "    return s;",
        "  }",
        "}");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.F", String.join("\n", lines));
    String code = compiled.compilation().generatedSourceFile("com.example.FGrad").orElseThrow()
        .getCharContent(true).toString();
    // the member calls its body, which records on the tape
    int body = code.indexOf("static double fValueAndGradientOnTape(");
    String gradient = code.substring(body, code.indexOf("\n  }\n", body));

    // the fill on line 9 runs before any call on this iteration's array: nothing to put back;
    // the write on line 11 follows a call: the array and the element go on the tape
    String fill = gradient.substring(gradient.indexOf("// line 9: for (int i"),
        gradient.indexOf("// line 10:"));
    assertThat(fill).doesNotContain("Overwritten");
    assertThat(fill).doesNotContain("pushArray");
    assertThat(fill).doesNotContain("pushDouble");
    String write = gradient.substring(gradient.indexOf("// line 11:"),
        gradient.indexOf("// line 12:"));
    assertThat(write).contains("tape.pushArray(h);");
    assertThat(write).containsMatch("tape\\.pushDouble\\(\\w+Overwritten\\);");
    Class<?> grad = compiled.load("com.example.FGrad");
    Class<?> user = compiled.load("com.example.F");
    double[] w = {0.4, -0.7, 1.1};
    double[] gradientValues = (double[]) method(grad, "fGradient").invoke(null, (Object) w);
    Method f = method(user, "f");
    for (int slot = 0; slot < w.length; slot++) {
      double h = 1e-4;
      double[] up = w.clone();
      double[] down = w.clone();
      up[slot] += h;
      down[slot] -= h;
      double central = ((double) f.invoke(null, (Object) up) - (double) f.invoke(null,
          (Object) down)) / (2 * h);
      assertThat(gradientValues[slot]).isWithin(1e-6).of(central);
    }
  }

  private static Method method(Class<?> owner, String name) {
    for (Method method : owner.getDeclaredMethods()) {
      if (method.getName().equals(name)) {
        method.setAccessible(true);
        return method;
      }
    }
    throw new AssertionError("no method " + name + " in " + owner);
  }

  @Test
  void localMatricesWithoutSizesWithRowsAssignedOrClonedAreErrorsAtTheirTrees() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double g(double[] t) { return t[0] * t[0]; }",
        "  @Differentiable static double f(double[] x) {",
        "    double[][] m = new double[2][2];",
        "    double[][] open = new double[2][];",
        "    double s = g(m[1]);",
        "    for (int i = 0; i < 3; i++) { double[][] t = new double[1][1]; s += t[0][0]; }",
        "    m[0] = x;",
        "    double[][] copy = m.clone();",
        "    return s + m[0][1] + open.length + copy.length;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    // passing a row of a local matrix to a call (line 8) and making one in a loop (line 9) are
    // fine
    assertThat(compilation).hadErrorCount(3);
    assertThat(compilation).hadErrorContaining("matrix creation 'new double[2][]' is not"
        + " supported: give both sizes ('new double[n][m]'), or the rows ('{{a, b}, {c, d}}')")
        .inFile(file).onLine(7).atColumn(lines.get(6).indexOf("new") + 1);
    assertThat(compilation).hadErrorContaining("write into 'm[0]' is not supported: a matrix"
        + " keeps the rows it was made with; write their elements ('m[0][j] = ...')")
        .inFile(file).onLine(10).atColumn(lines.get(9).indexOf("[0]") + 1);
    assertThat(compilation).hadErrorContaining("'m.clone()' is not supported: only arrays of"
        + " one dimension can be cloned").inFile(file).onLine(11);
  }

  @Test
  void libraryWritesIntoParametersOrWithinOneArrayAreErrorsAtTheCall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.Arrays;",
        "final class F {",
        "  @Differentiable static double f(double[] x) {",
        "    Arrays.fill(x, 1.0);",
        "    double[] a = x.clone();",
        "    System.arraycopy(a, 0, a, 1, 2);",
        "    return a[0];",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("write into 'x' is not supported: only local"
        + " 'double[]' and 'int[]' arrays can be written; copy it into a local array first"
        + " ('x.clone()')").inFile(file).onLine(6).atColumn(lines.get(5).indexOf("x,") + 1);
    assertThat(compilation).hadErrorContaining("System.arraycopy within one array is not"
        + " supported: copy from a clone of it ('a.clone()')").inFile(file).onLine(8)
        .atColumn(lines.get(7).indexOf("(a") + 1);
  }

  @Test
  void doubleArraysOfAHigherRankMustBeMarkedNoDerivative() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  @Differentiable static double f(double[][][] t, @NoDerivative float[] g, double x) {",
        "    return x;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    // a @NoDerivative float[] is passed along; a double[][][] must say so
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("parameter 't' of @Differentiable method 'f' has"
        + " type 'double[][][]': ad4j differentiates 'double', 'float', 'double[]', 'float[]'"
        + " and 'double[][]' parameters; mark an array of a higher rank @NoDerivative to pass"
        + " it along without derivatives")
        .inFile(file).onLine(5).atColumn(lines.get(4).indexOf("[][][]") + 1);
  }

  @Test
  void onlyConstantArraysIsAnErrorAtTheMethod() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  @Differentiable static double f(@NoDerivative double[] x, int[] k) {",
        "    return x[k[0]];",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("@Differentiable method 'f' has no 'double',"
        + " 'float', 'double[]', 'float[]' or 'double[][]' parameter without @NoDerivative")
        .inFile(file)
        .onLine(5).atColumn(lines.get(4).indexOf("f(") + 1);
  }

  @Test
  void anArrayThatCarriesDerivativesPassedToANoDerivativeParameterIsAnErrorAtTheCall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  @Differentiable static double g(double t, @NoDerivative double[] x) { return t * x[0]; }",
        "  @Differentiable static double f(double[] x) {",
        "    return 2 * g(x[1], x);",
        "  }",
        "}");

    assertSingleError(lines, "call to 'g(...)': 'x' carries derivatives into parameter 'x' of"
        + " 'F.g', which is @NoDerivative and would drop them; remove @NoDerivative from 'x', or"
        + " pass a value that carries no derivative", 7, lines.get(6).indexOf("(x[1]") + 1);
  }

  @Test
  void returningAnArrayThatIsPassedToACallAndWrittenIsAnErrorAtTheReturn() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double g(double[] x) { return x[0] * x[1]; }",
        "  @Differentiable static double[] f(double[] x) {",
        "    double[] r = x.clone();",
        "    r[0] = g(r);",
        "    return r;",
        "  }",
        "}");

    assertSingleError(lines, "'r' is passed to a call of a @Differentiable method and written"
        + " into, and ad4j cannot return such an array yet: return a copy ('r.clone()')", 8,
        lines.get(7).indexOf("r;") + 1);
  }

  @Test
  void comparingArraysIsAnErrorAtTheOperator() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double[] x, double[] y) {",
        "    return x == y ? x[0] : y[0];",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("operator '==' cannot be applied to 'double[]'"
        + " and 'double[]'").inFile(file).onLine(5).atColumn(lines.get(4).indexOf("==") + 1);
  }

  // ---- helpers -------------------------------------------------------------------------------

  private static Object invoke(String name, boolean generated, Object... arguments)
      throws Exception {
    return ARR.get().invoke(generated ? "com.example.ArrGrad" : "com.example.Arr", name,
        arguments);
  }

  private static Class<? extends Throwable> thrownBy(String name, boolean generated,
      Object... arguments) {
    InvocationTargetException e = assertThrows(InvocationTargetException.class,
        () -> invoke(name, generated, arguments));
    return e.getCause().getClass();
  }

  /** Fourth-order central differences of the user's method, slot by slot. */
  private static double[] finiteDifferences(Call call) throws Exception {
    List<Double> result = new ArrayList<>();
    for (int i = 0; i < call.arguments().length; i++) {
      if (!call.active()[i]) {
        continue;
      }
      int count = flatten(call.arguments()[i]).length;
      for (int k = 0; k < count; k++) {
        double x = flatten(call.arguments()[i])[k];
        double h = 1e-3 * Math.max(1, Math.abs(x));
        double[] f = new double[4];
        double[] steps = {-2 * h, -h, h, 2 * h};
        for (int s = 0; s < 4; s++) {
          Object[] moved = deepCopy(call.arguments());
          moved[i] = withSlot(moved[i], k, x + steps[s]);
          f[s] = (double) invoke(call.name(), false, moved);
        }
        result.add((f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h));
      }
    }
    return result.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
