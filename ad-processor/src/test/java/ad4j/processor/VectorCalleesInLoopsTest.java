package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A vector function called inside a loop with an argument computed before it: the argument's
 * adjoint is summed over the iterations, so it is declared before the loop's reverse. It was
 * declared inside it when the call was the argument's only use in the loop, and the generated
 * code did not compile ({@code wBar} used after the loop).
 */
@ExtendWith(TapeIsEmpty.class)
class VectorCalleesInLoopsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.V",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class V {",
              "  @Differentiable static double[] g(double w, double a, double b) {",
              "    return new double[] {w * a, Math.sin(w) + b};",
              "  }",
              "  /** w's only use in the loop is the call. */",
              "  @Differentiable static double onlyInTheCall(double x, double y) {",
              "    double w = x * y;",
              "    double s = 0;",
              "    for (int i = 0; i < 3; i++) {",
              "      double[] r = g(w, y, y);",
              "      s += r[0] * r[1] * s + x;",
              "    }",
              "    return s;",
              "  }",
              "  /** In a branch of the loop, and after it. */",
              "  @Differentiable static double inABranch(double x, double y) {",
              "    double w = x * y;",
              "    double s = 0;",
              "    for (int i = 0; i < 4; i++) {",
              "      if (i % 2 == 0) {",
              "        double[] r = g(w, x, y);",
              "        s += r[0] - r[1] * s;",
              "      }",
              "    }",
              "    return s + w;",
              "  }",
              "}")));

  @Test
  void theArgumentsAdjointIsSummedOverTheIterations() {
    for (double[] point : new double[][] {{0.7, 1.3}, {-0.4, 0.9}, {1.1, -0.6}}) {
      DerivativeChecks.checkAt(COMPILED.get().function("com.example.V", "onlyInTheCall", 2),
          point);
      DerivativeChecks.checkAt(COMPILED.get().function("com.example.V", "inABranch", 2), point);
    }
  }
}
