package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.LargeStack;
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
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code @Differentiable(order = 2)}: the Hessian against analytic second derivatives
 * (Rosenbrock) and, for every function, against central differences of the generated gradient,
 * slot by slot in the flat layout; exact symmetry; the Hessian-vector product against the
 * Hessian times the vector; the value bit for bit and the gradient as {@code mValueAndGradient}
 * writes it; length checks; an empty tape after every call. The functions cover straight-line
 * code, loops and branches (values and decisions on the tape), array parameters,
 * {@code @NoDerivative}, local arrays and their copies, and calls between order-2 methods
 * (through loops, with constant arguments, recursive, from a method with array parameters),
 * also calls that pass arrays (parameters, rows, local arrays, {@code @NoDerivative} data and
 * tables, in loops and branches, recursive, and on from one callee to the next).
 */
@ExtendWith(TapeIsEmpty.class)
class SecondOrderTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Second {",
      "  @Differentiable(order = 2) static double rosenbrock(double x, double y) {",
      "    double a = 1 - x;",
      "    double b = y - x * x;",
      "    return a * a + 100 * b * b;",
      "  }",
      "  @Differentiable(order = 2) static double smooth(double x, double y, double z) {",
      "    double s = Math.sin(x * y) / z;",
      "    double e = Math.exp(y - z) * Math.log(x * x + 1);",
      "    return s + e * Math.sqrt(z * z + x) - Math.atan2(y, x) + Math.pow(x, 3) * z;",
      "  }",
      "  @Differentiable(order = 2) static double loop(double x, double y, int n) {",
      "    double p = 0;",
      "    for (int k = 0; k < n; k++) {",
      "      if (p > 1) {",
      "        p = p * x - Math.sin(y * k);",
      "      } else {",
      "        p = p * y + x * x;",
      "      }",
      "    }",
      "    double q = 1;",
      "    int k = 0;",
      "    while (q < 20) { q = q * (1 + x * x) + Math.exp(y); k++; }",
      "    return p * x + q / (k + 1);",
      "  }",
      "  @Differentiable(order = 2) static double logistic(double[] w, double b,",
      "      @NoDerivative double[][] x, @NoDerivative double[] y) {",
      "    double loss = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      double z = b;",
      "      for (int j = 0; j < w.length; j++) { z += w[j] * x[i][j]; }",
      "      loss += Math.log(1 + Math.exp(-y[i] * z));",
      "    }",
      "    return loss / x.length + 0.01 * b * b;",
      "  }",
      "  @Differentiable(order = 2) static double quad(double a, double[][] m, double[] v) {",
      "    double s = a * m[0][1] * m[0][0];",
      "    double[] r = m[1];",
      "    return s + r[0] * v[1] * v[0] * a + r[2] * r[2] * r[1] + Math.cos(v[0] * a);",
      "  }",
      "  @Differentiable(order = 2) static double prefix(double[] x, double c) {",
      "    double[] p = new double[x.length];",
      "    double s = 0;",
      "    for (int i = 0; i < x.length; i++) { s += x[i] * c; p[i] = Math.sin(s); }",
      "    double r = 0;",
      "    for (int i = 0; i < p.length; i++) { p[i] *= p[i]; r += p[i] * (i + 1); }",
      "    return r;",
      "  }",
      "  @Differentiable(order = 2) static double copy(double[] w, double t,",
      "      @NoDerivative double[] d) {",
      "    double[] c = w.clone();",
      "    c[0] = t * c[1];",
      "    c[1] += c[0] * t;",
      "    double[] k = {t, 2 * t, c[2]};",
      "    double[] e = d.clone();",
      "    e[0] = e[1] * t;",
      "    return c[0] + c[1] * c[2] + k[1] * k[2] * e[0] + w[2] * w[2] * w[0];",
      "  }",
      "  @Differentiable(order = 2) static double scalarOnly(double x, double y,",
      "      @NoDerivative double c) {",
      "    double[] a = new double[3];",
      "    for (int i = 0; i < 3; i++) {",
      "      a[i] = x * i * c + y * y;",
      "      a[(i + 1) % 3] += Math.exp(a[i] * y);",
      "    }",
      "    double v = (a[0] = a[1] * a[2]) + a[0];",
      "    return v + a[2]--;",
      "  }",
      "  @Differentiable(order = 2) static double filled(double[] w, double t) {",
      "    double[] a = new double[w.length + 2];",
      "    java.util.Arrays.fill(a, t * t);",
      "    System.arraycopy(w, 0, a, 1, w.length);",
      "    java.util.Arrays.fill(a, 0, 1, Math.exp(t * w[0]));",
      "    double s = 0;",
      "    for (int i = 0; i < a.length; i++) { s += a[i] * a[(i + 1) % a.length] * (i + 1); }",
      "    return s;",
      "  }",
      Sources.localMatrixMethod("@Differentiable(order = 2)"),
      "  @Differentiable(order = 2) static double inner(double a, int n, double b) {",
      "    double s = a;",
      "    for (int i = 0; i < n; i++) { s = s * b + Math.sin(a * i); }",
      "    return s * a;",
      "  }",
      "  @Differentiable(order = 2) static double middle(double u, double v) {",
      "    return Math.exp(u * 0.3) * inner(u, 3, v) + inner(v * v, 2, 0.5);",
      "  }",
      "  @Differentiable(order = 2) static double outer(double x, double y) {",
      "    double t = middle(x, y) + x * y;",
      "    for (int k = 0; k < 2; k++) { t = t + middle(t * 0.1, x); }",
      "    return t;",
      "  }",
      "  @Differentiable(order = 2) static double recursive(double x, double y, int n) {",
      "    if (n == 0) { return x * y; }",
      "    return Math.sin(recursive(x * 0.9, y + x, n - 1)) * x;",
      "  }",
      "  @Differentiable(order = 2) static double callsWithArrays(double[] w, double c) {",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) { s += inner(w[i], 2, c) * w[(i + 1) % w.length]; }",
      "    return s;",
      "  }",
      // calls of an order-2 method with a @NoDerivative double parameter, with constants and
      // with values that carry no derivative
      "  @Differentiable(order = 2) static double callsNoDerivative(double x, double y, int n) {",
      "    double c = 0.5 * n;",
      "    return scalarOnly(x * y, y, c) + scalarOnly(y, x * x, n > 2 ? 1.5 : -0.5) * x",
      "        + inactiveFirst(0.25, x, y);",
      "  }",
      "  @Differentiable(order = 2) static double inactiveFirst(@NoDerivative double a,",
      "      double x, double y) {",
      "    return Math.exp(a * x) * y * y + a * x * y;",
      "  }",
      // calls that pass arrays: parameters, rows, local arrays, @NoDerivative data, a table,
      // an array that carries no derivative for a parameter that does, the same array twice,
      // a callee that passes its arrays on, recursion
      "  static final double[] TABLE = {0.5, -1.5, 2.0};",
      "  @Differentiable(order = 2) static double dot(double[] a, double[] b) {",
      "    double s = 0;",
      "    for (int i = 0; i < a.length; i++) { s += a[i] * b[i]; }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double expSquare(double[] x) {",
      "    return Math.exp(dot(x, x));",
      "  }",
      "  @Differentiable(order = 2) static double weighted(double[] v, @NoDerivative double[] d,",
      "      double s) {",
      "    double t = 0;",
      "    for (int i = 0; i < v.length; i++) { t += Math.sin(v[i] * s) * d[i] + v[i] * v[i]; }",
      "    return t * s;",
      "  }",
      "  @Differentiable(order = 2) static double entries(double[][] a, double k) {",
      "    double s = 0;",
      "    for (int i = 0; i < a.length; i++) {",
      "      for (int j = 0; j < a[i].length; j++) { s += Math.exp(k * a[i][j]) * a[i][j]; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double passesOn(double[] v, double s) {",
      "    double[] w = {v[1] * s, v[0] + s, v[2]};",
      "    return weighted(v, TABLE, s) * dot(w, v) + weighted(w, TABLE, v[0]);",
      "  }",
      "  @Differentiable(order = 2) static double arrayCalls(double[] x, double[][] m, double c,",
      "      @NoDerivative double[] d) {",
      "    double s = weighted(x, d, c) + entries(m, c * 0.3);",
      "    for (int i = 0; i < m.length; i++) { s += weighted(m[i], TABLE, x[i]) * c; }",
      "    double[] local = new double[x.length];",
      "    for (int i = 0; i < x.length; i++) { local[i] = x[i] * m[0][i] + c; }",
      "    s += weighted(local, d, c * c) * dot(local, x) + weighted(d, TABLE, x[1]);",
      "    double[] row = m[1];",
      "    return s + passesOn(row, x[2]) * Math.cos(dot(m[0], TABLE));",
      "  }",
      // arrays made in a loop passed to calls, then written over: each iteration's array
      // and its tangent come back from the tape for the calls' second-order pullbacks
      "  @Differentiable(order = 2) static double callsInLoop(double[] w, double c) {",
      "    double s = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      double[] h = new double[k == 1 ? 2 : w.length];",
      "      for (int i = 0; i < h.length; i++) { h[i] = Math.sin(w[i] * (k + c)); }",
      "      s += dot(h, w) * c;",
      "      h[0] = h[0] * h[1] + s * 0.1;",
      "      s += weighted(h, TABLE, c) * 0.1 + expSquare(h) * 0.01;",
      "      h[1] *= s;",
      "    }",
      "    return s;",
      "  }",
      // a local matrix and its rows passed to calls, then written through other rows
      "  @Differentiable(order = 2) static double matrixCalls(double[] w, double c) {",
      "    double[][] m = new double[2][w.length];",
      "    for (int i = 0; i < w.length; i++) { m[0][i] = w[i] * c; m[1][i] = Math.sin(w[i]); }",
      "    double s = entries(m, c * 0.5) + dot(m[1], w);",
      "    m[1][0] = s * c;",
      "    for (int k = 0; k < 2; k++) { s += dot(m[k], w) * 0.1; m[k][1] = s * 0.2; }",
      "    return s + entries(m, 0.3) * 0.1;",
      "  }",
      // local matrices made in a loop, passed to calls, written through a row after them
      "  @Differentiable(order = 2) static double matrixInLoop(double[] w, double c) {",
      "    double s = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      double[][] m = new double[2][k == 1 ? 2 : w.length];",
      "      for (int i = 0; i < m[0].length; i++) {",
      "        m[0][i] += w[i] * c;",
      "        m[1][0] += Math.sin(w[i] * (k + 1)) * m[0][i];",
      "      }",
      "      double[] r = m[1];",
      "      s += m[0][1] * r[0] + dot(r, m[0]) * 0.5 + entries(m, 0.2) * 0.1;",
      "      r[0] = s * 0.3;",
      "      s += m[1][0] * m[0][0] + dot(m[1], r) * 0.1;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double rowsOfData(double[] w,",
      "      @NoDerivative double[][] data, double c) {",
      "    double s = 0;",
      "    for (int i = 0; i < data.length; i++) {",
      "      double z = dot(data[i], w) * c;",
      "      if (z > 0) {",
      "        s += Math.log1p(Math.exp(-z)) + z;",
      "      } else {",
      "        s += Math.log1p(Math.exp(z));",
      "      }",
      "      s += weighted(data[i], data[i], c * w[i % w.length]) * 0.1;",
      "    }",
      "    return s + entries(data, c * w[0]) * 0.01;",
      "  }",
      "  @Differentiable(order = 2) static double recursiveArrays(double[] x, int n) {",
      "    if (n == 0) { return x[0] * x[1]; }",
      "    return Math.sin(recursiveArrays(x, n - 1)) * x[n % x.length] + dot(x, TABLE);",
      "  }",
      "  @Differentiable static double firstOrderOnly(double x) { return x * x * x; }",
      // long enough that its first-order members are split into segments
      longMethod("longOne", 60),
      "}");

  /** A straight-line order-2 method of {@code lines} statements. */
  private static String longMethod(String name, int lines) {
    StringBuilder method = new StringBuilder("  @Differentiable(order = 2) static double ")
        .append(name).append("(double x, double y) {\n    double s = x;\n");
    for (int i = 0; i < lines; i++) {
      method.append("    s = s * 0.5 + Math.sin(y * s + ").append(i % 7).append(") * x;\n");
    }
    return method.append("    return s * y;\n  }").toString();
  }

  private static final CompiledOnce SECOND = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Second",
          SOURCE));

  /** A call: the method, its arguments, and which of them carry derivatives. */
  record Call(String name, Object[] arguments, boolean[] active) {
    @Override
    public String toString() {
      return name + Arrays.deepToString(arguments);
    }
  }

  static Stream<Call> calls() {
    double[][] data = {{0.5, -1.2, 0.3}, {1.5, 0.2, -0.7}, {-0.3, 0.8, 1.1}, {0.9, -0.4, 0.2}};
    return Stream.of(
        call("rosenbrock", new Object[] {-1.2, 1.0}, true, true),
        call("rosenbrock", new Object[] {0.7, 0.3}, true, true),
        call("smooth", new Object[] {0.7, 1.3, 0.9}, true, true, true),
        call("loop", new Object[] {0.9, 1.2, 4}, true, true, false),
        call("loop", new Object[] {0.3, 0.6, 6}, true, true, false),
        call("logistic", new Object[] {new double[] {0.3, -0.2, 0.5}, 0.1, data,
            new double[] {1, -1, 1, -1}}, true, true, false, false),
        call("quad", new Object[] {1.5, new double[][] {{0.2, 0.7}, {-1.1, 0.4, 2.0}},
            new double[] {0.3, -0.8}}, true, true, true),
        call("prefix", new Object[] {new double[] {0.3, -0.2, 0.5, 0.9}, 0.7}, true, true),
        call("copy", new Object[] {new double[] {0.3, -0.2, 0.5}, 0.7,
            new double[] {1.5, -0.5}}, true, true, false),
        call("scalarOnly", new Object[] {0.45, 0.3, 0.8}, true, true, false),
        call("longOne", new Object[] {0.6, 1.1}, true, true),
        call("filled", new Object[] {new double[] {0.4, -0.7, 1.2}, 0.8}, true, true),
        call("localMatrix", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("inner", new Object[] {0.7, 3, 1.1}, true, false, true),
        call("middle", new Object[] {0.4, 0.9}, true, true),
        call("outer", new Object[] {0.5, -0.3}, true, true),
        call("recursive", new Object[] {0.8, 0.3, 4}, true, true, false),
        call("callsWithArrays", new Object[] {new double[] {0.4, -0.7, 1.2}, 0.6}, true, true),
        call("callsNoDerivative", new Object[] {0.45, 0.3, 3}, true, true, false),
        call("callsNoDerivative", new Object[] {-0.6, 0.8, 1}, true, true, false),
        call("inactiveFirst", new Object[] {0.7, 0.45, -0.3}, false, true, true),
        call("expSquare", new Object[] {new double[] {0.3, -0.5, 0.4}}, true),
        call("weighted", new Object[] {new double[] {0.3, -0.5, 0.4}, new double[] {1, 2, -1},
            0.8}, true, false, true),
        call("passesOn", new Object[] {new double[] {0.3, -0.5, 0.4}, 0.7}, true, true),
        call("arrayCalls", new Object[] {new double[] {0.3, -0.5, 0.4}, new double[][] {
            {0.2, 0.7, -0.4}, {-1.1, 0.4, 0.6}}, 0.9, new double[] {1, 0.5, -2}},
            true, true, true, false),
        call("recursiveArrays", new Object[] {new double[] {0.6, -0.4, 0.8}, 4}, true, false),
        call("callsInLoop", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("matrixCalls", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("matrixInLoop", new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, true, true),
        call("rowsOfData", new Object[] {new double[] {0.6, 0.9, -0.8}, data, 0.7},
            true, false, true));
  }

  private static Call call(String name, Object[] arguments, boolean... active) {
    return new Call(name, arguments, active);
  }

  @Test
  void rosenbrockHessianIsTheAnalyticOne() throws Exception {
    Random random = new Random(12);
    for (int trial = 0; trial < 20; trial++) {
      double x = random.nextDouble() * 4 - 2;
      double y = random.nextDouble() * 4 - 1;
      double[][] hessian = (double[][]) invoke("rosenbrockHessian", true, x, y);
      double[][] expected = {
          {1200 * x * x - 400 * y + 2, -400 * x},
          {-400 * x, 200}};
      assertThat(hessian.length).isEqualTo(2);
      for (int i = 0; i < 2; i++) {
        assertThat(hessian[i].length).isEqualTo(2);
        for (int j = 0; j < 2; j++) {
          assertWithMessage("H[%s][%s] at (%s, %s)", i, j, x, y).that(hessian[i][j])
              .isWithin(1e-10 * Math.max(1, Math.abs(expected[i][j]))).of(expected[i][j]);
        }
      }
    }
  }

  @Test
  void aCalleeGivesItsArrayArgumentsSecondDerivativesAnalytically() throws Exception {
    // expSquare(x) = exp(dot(x, x)): H = exp(|x|^2) (2 I + 4 x x^T)
    Random random = new Random(17);
    for (int trial = 0; trial < 10; trial++) {
      double[] x = new double[1 + trial % 4];
      for (int i = 0; i < x.length; i++) {
        x[i] = random.nextDouble() - 0.5;
      }
      double e = Math.exp(Arrays.stream(x).map(t -> t * t).sum());
      double[][] hessian = (double[][]) invoke("expSquareHessian", true, (Object) x);
      assertThat(hessian.length).isEqualTo(x.length);
      for (int i = 0; i < x.length; i++) {
        for (int j = 0; j < x.length; j++) {
          double expected = e * ((i == j ? 2 : 0) + 4 * x[i] * x[j]);
          assertWithMessage("H[%s][%s] at %s", i, j, Arrays.toString(x)).that(hessian[i][j])
              .isWithin(1e-12 * Math.max(1, Math.abs(expected))).of(expected);
        }
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessianMatchesCentralDifferencesOfTheGeneratedGradient(Call call) throws Exception {
    double[][] hessian = (double[][]) invoke(call.name() + "Hessian", true, call.arguments());
    double[][] expected = gradientDifferences(call);

    assertThat(hessian.length).isEqualTo(expected.length);
    assertThat(expected.length).isGreaterThan(1);
    for (int i = 0; i < expected.length; i++) {
      assertThat(hessian[i].length).isEqualTo(expected.length);
      for (int j = 0; j < expected.length; j++) {
        // the difference quotient of column j, symmetrised as the Hessian is
        double reference = (expected[i][j] + expected[j][i]) / 2;
        assertWithMessage("H[%s][%s] of %s", i, j, call).that(hessian[i][j])
            .isWithin(1e-6 * Math.max(1, Math.abs(reference))).of(reference);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessianIsExactlySymmetric(Call call) throws Exception {
    double[][] hessian = (double[][]) invoke(call.name() + "Hessian", true, call.arguments());
    boolean offDiagonal = false;
    for (int i = 0; i < hessian.length; i++) {
      for (int j = 0; j < i; j++) {
        assertWithMessage("H[%s][%s] and H[%s][%s] of %s", i, j, j, i, call)
            .that(Double.doubleToRawLongBits(hessian[i][j]))
            .isEqualTo(Double.doubleToRawLongBits(hessian[j][i]));
        offDiagonal |= hessian[i][j] != 0;
      }
    }
    assertWithMessage("some second derivative across slots of %s", call).that(offDiagonal)
        .isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessianVectorIsTheHessianTimesTheVector(Call call) throws Exception {
    double[][] hessian = (double[][]) invoke(call.name() + "Hessian", true, call.arguments());
    Random random = new Random(call.name().hashCode());
    for (int trial = 0; trial < 3; trial++) {
      double[] v = new double[hessian.length];
      for (int i = 0; i < v.length; i++) {
        v[i] = random.nextDouble() * 2 - 1;
      }
      double[] vCopy = v.clone();
      double[] product = (double[]) invoke(call.name() + "HessianVector", true,
          append(call.arguments(), v));
      assertThat(v).isEqualTo(vCopy);
      assertThat(product.length).isEqualTo(v.length);
      for (int i = 0; i < v.length; i++) {
        double expected = 0;
        double scale = 0;
        for (int j = 0; j < v.length; j++) {
          expected += hessian[i][j] * v[j];
          scale += Math.abs(hessian[i][j] * v[j]);
        }
        assertWithMessage("(H v)[%s] of %s", i, call).that(product[i])
            .isWithin(1e-12 * Math.max(1, scale)).of(expected);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void valueGradientAndHessianAreThoseOfTheOtherMembers(Call call) throws Exception {
    double value = (double) invoke(call.name(), false, call.arguments());
    double[] gradient = (double[]) invoke(call.name() + "Gradient", true, call.arguments());
    double[][] hessian = (double[][]) invoke(call.name() + "Hessian", true, call.arguments());
    int n = gradient.length;
    double[] writtenGradient = new double[n + 1];
    Arrays.fill(writtenGradient, 42);
    double[][] writtenHessian = new double[n + 1][n + 2];
    for (double[] row : writtenHessian) {
      Arrays.fill(row, 42);
    }

    double returned = (double) invoke(call.name() + "ValueGradientAndHessian", true,
        append(append(call.arguments(), writtenGradient), writtenHessian));

    assertThat(Double.doubleToRawLongBits(returned))
        .isEqualTo(Double.doubleToRawLongBits(value));
    assertThat(Arrays.copyOf(writtenGradient, n)).isEqualTo(gradient);
    assertThat(writtenGradient[n]).isEqualTo(42.0);
    for (int i = 0; i < n; i++) {
      assertThat(Arrays.copyOf(writtenHessian[i], n)).isEqualTo(hessian[i]);
      assertThat(writtenHessian[i][n]).isEqualTo(42.0);
    }
    assertThat(writtenHessian[n][0]).isEqualTo(42.0);
  }

  @Test
  void shortArraysAreRejectedNamingTheMethodAndBothSizes() {
    double[][] data = {{0.5, -1.2, 0.3}, {1.5, 0.2, -0.7}};
    Object[] arguments = {new double[] {0.3, -0.2, 0.5}, 0.1, data, new double[] {1, -1}};
    assertThat(rejection("logisticHessianVector", append(arguments, new double[3])))
        .isEqualTo("SecondGrad.logisticHessianVector: 'v' has length 3, needs 4 (slots in"
            + " order: w (one per element), then b)");
    assertThat(rejection("rosenbrockHessianVector", 1.0, 2.0, new double[3]))
        .isEqualTo("SecondGrad.rosenbrockHessianVector: 'v' has length 3, needs 2 (slots in"
            + " order: x, y)");
    assertThat(rejection("rosenbrockValueGradientAndHessian", 1.0, 2.0, new double[1],
        new double[2][2]))
        .isEqualTo("SecondGrad.rosenbrockValueGradientAndHessian: 'gradient' has length 1,"
            + " needs 2 (slots in order: x, y)");
    assertThat(rejection("rosenbrockValueGradientAndHessian", 1.0, 2.0, new double[2],
        new double[1][2]))
        .isEqualTo("SecondGrad.rosenbrockValueGradientAndHessian: 'hessian' has 1 rows, needs 2"
            + " (slots in order: x, y)");
    assertThat(rejection("logisticValueGradientAndHessian",
        append(append(arguments, new double[4]), new double[][] {new double[4], new double[4],
            new double[3], new double[4]})))
        .isEqualTo("SecondGrad.logisticValueGradientAndHessian: row 2 of 'hessian' has length"
            + " 3, needs 4 (slots in order: w (one per element), then b)");
  }

  @Test
  void onlyOrderTwoMethodsGetHessianMembers() throws Exception {
    List<String> names = new ArrayList<>();
    for (Method method : SECOND.get().load("com.example.SecondGrad").getDeclaredMethods()) {
      names.add(method.getName());
    }
    assertThat(names).containsAtLeast("rosenbrockHessian", "rosenbrockHessianVector",
        "rosenbrockValueGradientAndHessian", "firstOrderOnlyGradient");
    assertThat(names.stream().filter(n -> n.startsWith("firstOrderOnlyHessian")).toList())
        .isEmpty();
  }

  @Test
  void longMethodsAreSplitAtFirstAndSecondOrder() {
    List<String> names = new ArrayList<>();
    for (Method method : SECOND.get().load("com.example.SecondGrad").getDeclaredMethods()) {
      names.add(method.getName());
    }
    assertThat(names).containsAtLeast("longOneForward1", "longOneReverse1", "longOneHessianSweep",
        "longOneHessianForward1", "longOneHessianReverse1");
  }

  /**
   * Segments cut straight-line methods, parts cut loop bodies and branches at any depth, and
   * the levels of a long chain (300 pieces {@code x * y + i}: {@code ConditionalChainTest};
   * pieces that make values their reverse reads, branch, loop or return: {@code
   * LongChainPiecesTest}). A sweep that would still pass the JVM's limit is an error at the
   * method; no program known to the tests stays so long once cut, so this one lowers the limit
   * ({@code -Aad4j.methodLimit}). A long branch nested in another (250 statements in {@code if (y > 0) { if (x > 0)
   * { ... } }}), an error before branches inside branches were cut, compiles, with its Hessian
   * ({@code NestedLongBranchesTest}).
   */
  @Test
  void aMethodTooLongForOneSweepIsACompileErrorAtTheMethod() {
    StringBuilder chain = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      chain.append("x < ").append(i).append(" ? Math.exp(x * y) + ").append(i).append(" : ");
    }
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Long", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Long {",
        "  @Differentiable(order = 2) static double huge(double x, double y) {",
        "    return " + chain + "Math.sin(y);",
        "  }",
        "}"));

    Compilation compilation = LargeStack.run(() ->
        InProcessCompiler.javac("-Aad4j.methodLimit=500").compile(file));

    assertThat(compilation).hadErrorContaining("ad4j: @Differentiable(order = 2) method 'huge'"
        + " is too long for second derivatives: its forward-over-reverse sweep, which is not"
        + " split into segments, would take about ").inFile(file).onLine(4);
    assertThat(compilation).hadErrorContaining("bytes of bytecode, past the JVM's limit of"
        + " 65535 for one method; shorten the method, or use order 1");
    assertThat(compilation.errors()).hasSize(1);
  }

  private static String rejection(String name, Object... arguments) {
    InvocationTargetException e = assertThrows(InvocationTargetException.class,
        () -> invoke(name, true, arguments));
    assertThat(e.getCause()).isInstanceOf(IllegalArgumentException.class);
    return e.getCause().getMessage();
  }

  /**
   * Column j of the Hessian by central differences of the generated gradient along slot j
   * (fourth order), for each slot in the flat layout.
   */
  private static double[][] gradientDifferences(Call call) throws Exception {
    List<double[]> columns = new ArrayList<>();
    Object[] arguments = call.arguments();
    for (int p = 0; p < arguments.length; p++) {
      if (!call.active()[p]) {
        continue;
      }
      if (arguments[p] instanceof Double) {
        columns.add(gradientDifference(call, p, -1, -1));
      } else if (arguments[p] instanceof double[] array) {
        for (int e = 0; e < array.length; e++) {
          columns.add(gradientDifference(call, p, -1, e));
        }
      } else {
        double[][] matrix = (double[][]) arguments[p];
        for (int r = 0; r < matrix.length; r++) {
          for (int e = 0; e < matrix[r].length; e++) {
            columns.add(gradientDifference(call, p, r, e));
          }
        }
      }
    }
    double[][] result = new double[columns.size()][];
    for (int j = 0; j < result.length; j++) {
      result[j] = columns.get(j);
    }
    // result[j][i] is d gradient_i / d slot_j; the Hessian's [i][j]
    double[][] transposed = new double[result.length][result.length];
    for (int i = 0; i < result.length; i++) {
      for (int j = 0; j < result.length; j++) {
        transposed[i][j] = result[j][i];
      }
    }
    return transposed;
  }

  private static double[] gradientDifference(Call call, int parameter, int row, int element)
      throws Exception {
    double h = 1e-4;
    double[] m2 = gradientAt(call, parameter, row, element, -2 * h);
    double[] m1 = gradientAt(call, parameter, row, element, -h);
    double[] p1 = gradientAt(call, parameter, row, element, h);
    double[] p2 = gradientAt(call, parameter, row, element, 2 * h);
    double[] column = new double[m1.length];
    for (int i = 0; i < column.length; i++) {
      column[i] = (m2[i] - 8 * m1[i] + 8 * p1[i] - p2[i]) / (12 * h);
    }
    return column;
  }

  private static double[] gradientAt(Call call, int parameter, int row, int element,
      double step) throws Exception {
    Object[] arguments = deepCopy(call.arguments());
    if (row >= 0) {
      ((double[][]) arguments[parameter])[row][element] += step;
    } else if (element >= 0) {
      ((double[]) arguments[parameter])[element] += step;
    } else {
      arguments[parameter] = (Double) arguments[parameter] + step;
    }
    return (double[]) invoke(call.name() + "Gradient", true, arguments);
  }

  private static Object[] deepCopy(Object[] arguments) {
    Object[] copy = arguments.clone();
    for (int i = 0; i < copy.length; i++) {
      if (copy[i] instanceof double[] array) {
        copy[i] = array.clone();
      } else if (copy[i] instanceof double[][] matrix) {
        double[][] rows = matrix.clone();
        for (int r = 0; r < rows.length; r++) {
          rows[r] = rows[r].clone();
        }
        copy[i] = rows;
      }
    }
    return copy;
  }

  private static Object[] append(Object[] arguments, Object last) {
    Object[] result = Arrays.copyOf(arguments, arguments.length + 1);
    result[arguments.length] = last;
    return result;
  }

  private static Object invoke(String name, boolean generated, Object... arguments)
      throws Exception {
    return SECOND.get().invoke(generated ? "com.example.SecondGrad" : "com.example.Second",
        name, arguments);
  }
}
