package ad4j.processor;

import static ad4j.processor.testing.GeneratedClassChecks.methodText;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A sweep with two large loop nests puts each in a private method of its own
 * ({@code LongBlocks.loopNestsOf}): the member calls {@code mValueAndGradientNest1}, ...,
 * which take what they read and hand back on the tape what they carry. Derivatives stay those
 * of the method (finite differences, forward against reverse), at points where the loops run
 * different numbers of times; small nests stay where they are.
 */
@ExtendWith(TapeIsEmpty.class)
class LoopNestsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Nests {",
      "  @Differentiable static double large(double[] w, double x) {",
      "    double s = 0;",
      "    int n = (int) Math.floor(x * 2) + 3;",
      "    for (int i = 0; i < n; i++) {",
      "      double row = 0;",
      "      for (int j = 0; j < w.length; j++) {",
      "        double a = Math.sin(w[j] * x + i) * Math.exp(-0.1 * j);",
      "        double b = a * a + Math.cos(a * w[j]);",
      "        double c = Math.log(1 + b * b) + a * w[(j + i) % w.length];",
      "        row += c * Math.tanh(a + b) - Math.sqrt(1 + c * c) / (2 + b);",
      "        if (row > 4) { row = 4 + Math.log(row - 3); }",
      "      }",
      "      s += row * row * 0.5 + Math.atan(row * x);",
      "    }",
      "    double t = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      for (int j = 0; j < w.length; j++) {",
      "        double a = Math.exp(w[j] * 0.3 - k) + Math.sinh(x * 0.2 * j);",
      "        double b = a * Math.cos(s * 0.01 + j) + Math.hypot(a, w[j]);",
      "        double c = Math.pow(1 + b * b, 0.25) - Math.expm1(-a * a);",
      "        t += c * b + Math.cbrt(a + 2) * Math.sin(c);",
      "        t = t * 0.99 + Math.log1p(c * c) / (1 + a * a);",
      "      }",
      "    }",
      "    return s + t;",
      "  }",
      "  @Differentiable static double small(double[] w, double x) {",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      for (int j = 0; j < w.length; j++) { s += Math.sin(w[j] * x + i * s); }",
      "    }",
      "    for (int i = 0; i < 2; i++) {",
      "      for (int j = 0; j < w.length; j++) { s = s * 0.9 + 0.1 * Math.cos(w[j] * s) * x; }",
      "    }",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce NESTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Nests",
          SOURCE));

  @Test
  void largeNestsAreMethodsOfTheirOwnAndSmallOnesStay() throws Exception {
    String generated = NESTS.get().compilation().generatedSourceFile("com.example.NestsGrad")
        .orElseThrow().getCharContent(true).toString();
    String body = methodText(generated, "private static double largeValueAndGradientOnTape(");
    // the two forward nests, then the two reverse nests
    for (int nest = 1; nest <= 4; nest++) {
      assertWithMessage("nest %s", nest).that(body)
          .contains("largeValueAndGradientNest" + nest + "(tape, ");
      String part = methodText(generated,
          "private static void largeValueAndGradientNest" + nest + "(Tape tape, ");
      assertWithMessage("nest %s", nest).that(part).contains("for (int ");
    }
    assertThat(body).doesNotContain("for (");
    assertThat(generated).contains("largePullbackNest1(tape, ");
    assertThat(generated).doesNotContain("smallValueAndGradientNest");
    assertThat(methodText(generated, "private static double smallValueAndGradientOnTape("))
        .contains("for (");
  }

  @Test
  void derivativesThroughTheNestsMatchDifferencesOfTheMethod() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(NESTS.get(), "com.example.Nests");
    for (String name : List.of("large", "small")) {
      // x sets the trip count of large's first nest: 3, 5 and 2 (away from its jumps)
      for (double[] point : new double[][] {
          {0.3, -0.4, 0.8, 0.2}, {1.1, 0.5, -0.7, 0.9}, {-0.2, 0.6, 0.1, -0.3}}) {
        double[] w = java.util.Arrays.copyOf(point, 3);
        checks.check(new ArrayFunctionChecks.Call(name, new Object[] {w, point[3] + 0.13},
            true, true));
      }
    }
  }
}
