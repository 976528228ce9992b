package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Calls of {@code @Differentiable} methods with a {@code @NoDerivative double} parameter, at
 * order 1 (order 2 is in {@link SecondOrderTest}): the caller passes no tangent for it to the
 * callee's {@code mTangent} and takes back no adjoint for it from the callee's
 * {@code mPullback}. The generated code compiles without warnings; gradients agree with
 * differences of the user's method and forward mode with reverse mode.
 */
@ExtendWith(TapeIsEmpty.class)
class NoDerivativeCallsTest {
  private static final CompiledOnce CALLS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Calls",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "class Calls {",
              "  @Differentiable static double scaled(double x, @NoDerivative double c,"
                  + " double y) {",
              "    return Math.exp(c * x) * y + c * x * y;",
              "  }",
              "  @Differentiable static double constants(double x, double y) {",
              "    return scaled(x * y, 0.5, y) + scaled(y, -1.5, x * x) * x;",
              "  }",
              "  @Differentiable static double inLoop(double x, double y) {",
              "    double s = 0;",
              "    for (int i = 1; i <= 3; i++) { s += scaled(s + x, 0.25 * i, y) * x; }",
              "    return s;",
              "  }",
              "  @Differentiable(order = 2) static double loss(double[] w,"
                  + " @NoDerivative double[][] x, @NoDerivative double[] y) {",
              "    double l = 0;",
              "    for (int i = 0; i < x.length; i++) {",
              "      double z = 0;",
              "      for (int j = 0; j < w.length; j++) { z += w[j] * x[i][j]; }",
              "      l += Math.log1p(Math.exp(-y[i] * z));",
              "    }",
              "    return l / x.length;",
              "  }",
              "  @Differentiable(order = 2) static double data(double a, double b) {",
              "    return loss(new double[] {a, b}, new double[][] {{1, 2}, {0.5, -1}, {-1, 0.3}},",
              "        new double[] {1, -1, 1});",
              "  }",
              "  @Differentiable(order = 2) static double quadratic(double[][] m, double x) {",
              "    return m[0][0] * x + m[1][1] * x * x + m[0][1];",
              "  }",
              "  @Differentiable(order = 2) static double someActive(double a, double b) {",
              "    return quadratic(new double[][] {{1, 2}, {3, a * b}}, a)",
              "        + quadratic(new double[][] {{1, 2.5}, {3, 4}}, b) * a;",
              "  }",
              "}")));

  /**
   * A matrix of constants written as an argument is data: it may meet a {@code @NoDerivative}
   * parameter, and for an active one it adds no derivative. Before, it was "carries derivatives
   * into parameter 'x' ... which is @NoDerivative and would drop them".
   */
  @Test
  void aMatrixOfConstantsWrittenAsAnArgumentIsData() throws Exception {
    Class<?> grad = CALLS.get().load("com.example.CallsGrad");
    for (double[] x : new double[][] {{0.4, 0.7}, {-1.1, 0.3}, {0.9, -1.6}}) {
      HessianChecks.checkAt(CALLS.get().function("com.example.Calls", "data", 2), grad, x);
      HessianChecks.checkAt(CALLS.get().function("com.example.Calls", "someActive", 2), grad,
          x);
    }
  }

  @Test
  void callsWithConstantArgumentsForTheNoDerivativeParameter() {
    for (double[] x : new double[][] {{0.4, 0.7}, {-1.1, 0.3}, {0.9, -1.6}}) {
      DerivativeChecks.checkAt(CALLS.get().function("com.example.Calls", "constants", 2), x);
    }
  }

  @Test
  void callsInALoopWithComputedArgumentsForTheNoDerivativeParameter() {
    for (double[] x : new double[][] {{0.4, 0.7}, {-1.1, 0.3}, {0.2, -0.6}}) {
      DerivativeChecks.checkAt(CALLS.get().function("com.example.Calls", "inLoop", 2), x);
    }
  }
}
