package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code for} loop whose update gives the counter the result of an operation of one operand:
 * a call ({@code i = twice(i)}) or a negation ({@code i = -i}). Such an update
 * is no counter's constant step; reading it as one took the step's second operand, which it
 * does not have, and the compile failed with an internal error (an IndexOutOfBoundsException).
 * Every member against the method, at points where the loops stop at different iterations.
 */
@ExtendWith(TapeIsEmpty.class)
class CounterUpdatesByCallsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Updates",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Updates {",
              "  static int twice(int i) {",
              "    return 2 * i + 1;",
              "  }",
              "  @Differentiable static double doubling(double x, double y) {",
              "    double s = y;",
              "    for (int i = 0; i < 40; i = twice(i)) {",
              "      s = s * x + i;",
              "      if (s > 30) {",
              "        break;",
              "      }",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable(order = 2) static double alternating(double x, double y) {",
              "    double s = y;",
              "    int k = 0;",
              "    for (int i = 3; k < 5; i = -i) {",
              "      s = s * x + Math.sin(i * y);",
              "      k++;",
              "    }",
              "    return s;",
              "  }",
              "}")));

  @Test
  void everyMemberAgreesWithTheMethod() throws Exception {
    double[][] points = {{0.8, 0.6}, {1.7, 2.1}, {-0.4, 1.3}};
    MemberAgreement.of(COMPILED.get(), "com.example.Updates", "doubling", true, true)
        .checkScalarAt(points, 1, 1e-6);
    MemberAgreement.of(COMPILED.get(), "com.example.Updates", "alternating", true, true)
        .checkScalarAt(points, 2, 1e-6);
  }
}
