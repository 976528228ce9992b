package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
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
              "}")));

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
