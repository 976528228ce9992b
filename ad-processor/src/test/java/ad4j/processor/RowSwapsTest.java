package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.CompilationSubject;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.Method;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The row exchange of Gaussian elimination with partial pivoting, {@code double[] t = m[k];
 * m[k] = m[p]; m[p] = t;}, on a matrix the method makes: lowered as an exchange of the two
 * rows' elements ({@link RowSwaps}), where it was the error "write into 'm[k]' is not supported:
 * a matrix keeps the rows it was made with". A determinant by elimination (the swap in an
 * {@code if}, flipping the sign), a linear solve returning {@code double[]} (its Jacobian and
 * tangent against differences of the user's method, its pullback against the Jacobian) and an
 * order-2 method swapping literal rows of a matrix in braces. Where exchanging elements would
 * not compute what Java computes — a row bound to another variable, rows of different lengths —
 * the swap is an error that says why.
 */
@ExtendWith(TapeIsEmpty.class)
class RowSwapsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Pivots",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Pivots {",
              "  @Differentiable static double det(double[] b, double a) {",
              "    int n = b.length;",
              "    double[][] m = new double[n][n];",
              "    for (int i = 0; i < n; i++) {",
              "      for (int j = 0; j < n; j++) {",
              "        m[i][j] = (i == j ? a : 1.0 / (1 + i + j)) * b[j]",
              "            + (i == n - 1 - j ? 2 * b[i] : 0);",
              "      }",
              "    }",
              "    double d = 1;",
              "    for (int k = 0; k < n; k++) {",
              "      int p = k;",
              "      for (int i = k + 1; i < n; i++) {",
              "        if (Math.abs(m[i][k]) > Math.abs(m[p][k])) {",
              "          p = i;",
              "        }",
              "      }",
              "      if (p != k) {",
              "        double[] t = m[k]; m[k] = m[p]; m[p] = t;",
              "        d = -d;",
              "      }",
              "      for (int i = k + 1; i < n; i++) {",
              "        double f = m[i][k] / m[k][k];",
              "        for (int j = k; j < n; j++) {",
              "          m[i][j] -= f * m[k][j];",
              "        }",
              "      }",
              "    }",
              "    for (int i = 0; i < n; i++) {",
              "      d *= m[i][i];",
              "    }",
              "    return d;",
              "  }",
              "  @Differentiable static double[] solve(double[] b, double a) {",
              "    int n = b.length;",
              "    double[][] m = new double[n][n + 1];",
              "    for (int i = 0; i < n; i++) {",
              "      for (int j = 0; j < n; j++) {",
              "        m[i][j] = (i == j ? a * 0.1 : 1.0 / (1 + i + j)) + (i == n - 1 - j ? 1 : 0);",
              "      }",
              "      m[i][n] = b[i];",
              "    }",
              "    for (int k = 0; k < n; k++) {",
              "      int p = k;",
              "      for (int i = k + 1; i < n; i++) {",
              "        if (Math.abs(m[i][k]) > Math.abs(m[p][k])) {",
              "          p = i;",
              "        }",
              "      }",
              "      double[] t = m[k];",
              "      m[k] = m[p];",
              "      m[p] = t;",
              "      for (int i = k + 1; i < n; i++) {",
              "        double f = m[i][k] / m[k][k];",
              "        for (int j = k; j <= n; j++) {",
              "          m[i][j] -= f * m[k][j];",
              "        }",
              "      }",
              "    }",
              "    double[] x = new double[n];",
              "    for (int i = n - 1; i >= 0; i--) {",
              "      double s = m[i][n];",
              "      for (int j = i + 1; j < n; j++) {",
              "        s -= m[i][j] * x[j];",
              "      }",
              "      x[i] = s / m[i][i];",
              "    }",
              "    return x;",
              "  }",
              "  @Differentiable(order = 2) static double literal(double a, double b) {",
              "    double[][] m = {{a, b}, {b * b, a * 3}};",
              "    double[] t = m[0]; m[0] = m[1]; m[1] = t;",
              "    return m[0][0] * m[1][1] - m[0][1] * Math.sin(m[1][0]);",
              "  }",
              "}")));

  @Test
  void aDeterminantByEliminationWithPivoting() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Pivots");
    for (double a : new double[] {0.05, -0.7, 1.9}) {
      checks.check(new Call("det", new Object[] {new double[] {0.3, -1.2, 0.8, 2.1}, a},
          true, true));
      checks.check(new Call("det", new Object[] {new double[] {1.5, 0.25, -0.6}, a},
          true, true));
    }
  }

  @Test
  void aLinearSolveWithPivoting() throws Exception {
    Class<?> user = COMPILED.get().load("com.example.Pivots");
    Class<?> grad = COMPILED.get().load("com.example.PivotsGrad");
    Method solve = user.getDeclaredMethod("solve", double[].class, double.class);
    Method jacobianOf = grad.getDeclaredMethod("solveJacobian", double[].class, double.class);
    Method tangentOf = grad.getDeclaredMethod("solveTangent", double[].class, double.class,
        double[].class, double.class);
    Method pullbackOf = grad.getDeclaredMethod("solvePullback", double[].class, double.class,
        double[].class, double[].class);
    for (Method m : List.of(solve, jacobianOf, tangentOf, pullbackOf)) {
      m.setAccessible(true);
    }
    double[] b = {0.3, -1.2, 0.8, 2.1};
    for (double a : new double[] {0.05, 2.5}) {
      double[][] jacobian = (double[][]) jacobianOf.invoke(null, b, a);
      for (int slot = 0; slot <= b.length; slot++) {
        int s = slot;
        for (int row = 0; row < b.length; row++) {
          int r = row;
          double expected = differences(v -> {
            double[] c = b.clone();
            double at = a;
            if (s < b.length) {
              c[s] = v;
            } else {
              at = v;
            }
            return ((double[]) solve.invoke(null, c, at))[r];
          }, s < b.length ? b[s] : a);
          assertWithMessage("d x[%s] / d slot %s at a = %s", row, slot, a)
              .that(jacobian[row][slot]).isWithin(1e-7 * Math.max(1, Math.abs(expected)))
              .of(expected);
        }
      }
      double[] bDot = {0.4, -0.3, 1.1, 0.2};
      double aDot = -0.6;
      double[] tangent = (double[]) tangentOf.invoke(null, b, a, bDot, aDot);
      double[] seed = {0.7, -1.3, 0.25, 0.9};
      double[] adjoints = new double[b.length + 1];
      pullbackOf.invoke(null, b, a, seed, adjoints);
      for (int row = 0; row < b.length; row++) {
        double fromJacobian = jacobian[row][b.length] * aDot;
        for (int i = 0; i < b.length; i++) {
          fromJacobian += jacobian[row][i] * bDot[i];
        }
        assertThat(tangent[row]).isWithin(1e-12 * Math.max(1, Math.abs(fromJacobian)))
            .of(fromJacobian);
      }
      for (int slot = 0; slot <= b.length; slot++) {
        double fromJacobian = 0;
        for (int row = 0; row < b.length; row++) {
          fromJacobian += seed[row] * jacobian[row][slot];
        }
        assertThat(adjoints[slot]).isWithin(1e-12 * Math.max(1, Math.abs(fromJacobian)))
            .of(fromJacobian);
      }
    }
  }

  @Test
  void literalRowsSwappedInAnOrderTwoMethod() throws Exception {
    Class<?> grad = COMPILED.get().load("com.example.PivotsGrad");
    for (double[] point : new double[][] {{0.7, -0.4}, {-1.1, 0.9}}) {
      HessianChecks.checkAt(COMPILED.get().function("com.example.Pivots", "literal", 2), grad,
          point);
    }
  }

  @Test
  void aSwapThatExchangingElementsWouldNotMatchIsAnError() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double alias(double a) {",
        "    double[][] m = new double[2][2];",
        "    m[0][0] = a;",
        "    double[] r = m[0];",
        "    double[] t = m[0]; m[0] = m[1]; m[1] = t;",
        "    return r[0] + m[0][1];",
        "  }",
        "  @Differentiable static double ragged(double a) {",
        "    double[][] m = {{a, 1}, {a * a}};",
        "    double[] t = m[0]; m[0] = m[1]; m[1] = t;",
        "    return m[0][0] + m[1][1];",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    CompilationSubject.assertThat(compilation).hadErrorCount(2);
    CompilationSubject.assertThat(compilation).hadErrorContaining("the swap of rows of 'm' is"
        + " not supported here: ad4j exchanges the rows' elements instead, so 'm' may only be"
        + " indexed twice ('m[i][j]'), have its lengths read and its rows swapped; here it is"
        + " also used otherwise (a row bound to a variable or iterated, the matrix passed to a"
        + " method or returned), which could name a row itself").inFile(file).onLine(8)
        .atColumn(lines.get(7).indexOf("m[0] =") + 1);
    CompilationSubject.assertThat(compilation).hadErrorContaining("the swap of rows of 'm' is"
        + " not supported here: ad4j exchanges the rows' elements instead, so the method must"
        + " make the matrix with rows of one length ('new double[n][m]', or rows in braces with"
        + " as many elements each)").inFile(file).onLine(13)
        .atColumn(lines.get(12).indexOf("m[0] =") + 1);
  }

  /** Fourth-order central differences of {@code f} at {@code x}. */
  private static double differences(ThrowingFunction f, double x) throws Exception {
    double h = 1e-4;
    return (-f.at(x + 2 * h) + 8 * f.at(x + h) - 8 * f.at(x - h) + f.at(x - 2 * h)) / (12 * h);
  }

  /** A function of one number that may throw, as a reflective call does. */
  private interface ThrowingFunction {
    double at(double x) throws Exception;
  }
}
