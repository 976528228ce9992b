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
 * A {@code for} loop whose update changes a value with a derivative: a {@code double} counter
 * ({@code for (double t = 0; t < 1; t += 0.125)}, the time of an explicit Euler step), one
 * that carries a derivative ({@code t += 0.25 * k}), beside an {@code int} counter in the same
 * update, and an {@code int} counter stepped by a value computed from one. The update ends the
 * body, as Java runs it after each iteration that ends normally; it was the error "the update
 * of a 'for' loop may change only 'int' and 'long' counters". Also: a body that always breaks
 * (the update never runs), a {@code return} inside, labelled breaks out of nested such loops, a
 * {@code @Checkpointed} method and order 2. Each against differences of the user's method,
 * forward against reverse ({@link DerivativeChecks}); the Hessians against differences of the
 * gradient ({@link HessianChecks}). A {@code continue} there is an error (DiagnosticsTest).
 */
@ExtendWith(TapeIsEmpty.class)
class DoubleLoopCountersTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Steps",
          String.join("\n",
              "package com.example;",
              "import ad4j.Checkpointed;",
              "import ad4j.Differentiable;",
              "final class Steps {",
              "  @Differentiable static double euler(double k, double y0) {",
              "    double y = y0;",
              "    for (double t = 0; t < 1.0; t += 0.125) {",
              "      y += 0.125 * (-k * y + Math.sin(t));",
              "    }",
              "    return y;",
              "  }",
              "  @Differentiable static double activeCounter(double k, double y0) {",
              "    double y = y0;",
              "    int n = 0;",
              "    for (double t = 0.1 * k; t < 2.0; t += 0.25 * k, n++) {",
              "      y = y * Math.cos(t) + t;",
              "      if (n > 40) {",
              "        break;",
              "      }",
              "    }",
              "    return y + n;",
              "  }",
              "  @Differentiable static double intSteppedByADouble(double x, double y) {",
              "    double s = y;",
              "    for (int i = 0; i < 10; i += (int) (1.5 + x * x)) {",
              "      s += x * i * s;",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable static double alwaysBreaks(double x, double y) {",
              "    double s = y;",
              "    for (double t = 0; t < 10; t += x) {",
              "      s = s * x + t;",
              "      break;",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable static double returnsInside(double x, double y) {",
              "    double s = y;",
              "    for (double t = 0; t < 10; t += x) {",
              "      s = s * x + t;",
              "      if (s > 3) {",
              "        return s * t;",
              "      }",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable static double nested(double x, double y) {",
              "    double s = y;",
              "    outer:",
              "    for (double t = 0; t < 2; t += 0.5) {",
              "      for (double u = t; u < 2; u += 0.75) {",
              "        s = s * Math.cos(x * u) + t;",
              "        if (s > 5) {",
              "          break outer;",
              "        }",
              "      }",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable @Checkpointed(snapshots = 3)",
              "  static double checkpointed(double k, double y0) {",
              "    double y = y0;",
              "    double t = 0;",
              "    for (int i = 0; i < 16; i++, t += 0.0625) {",
              "      y += 0.0625 * (-k * y + Math.sin(t));",
              "    }",
              "    return y;",
              "  }",
              "  @Differentiable(order = 2) static double second(double k, double y0) {",
              "    double y = y0;",
              "    for (double t = 0; t < 1.0; t += 0.25) {",
              "      y += 0.25 * (-k * y * y + t);",
              "    }",
              "    return y;",
              "  }",
              "}")));

  @Test
  void theUpdateEndsEachIteration() {
    DerivativeChecks.checkEachAt(COMPILED.get(), "com.example.Steps",
        List.of("euler", "activeCounter", "intSteppedByADouble", "alwaysBreaks",
            "returnsInside", "nested", "checkpointed", "second"),
        new double[] {0.8, 0.6}, new double[] {0.4, -0.3}, new double[] {1.3, 0.9},
        new double[] {0.9, 1.7});
  }

  @Test
  void theHessianOfAnEulerStepInTime() throws Exception {
    Class<?> grad = COMPILED.get().load("com.example.StepsGrad");
    for (double[] point : new double[][] {{0.8, 0.6}, {0.3, -0.4}, {1.2, 0.9}}) {
      HessianChecks.checkAt(COMPILED.get().function("com.example.Steps", "second", 2), grad,
          point);
    }
  }
}
