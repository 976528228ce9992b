package ad4j.processor;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An index found by {@code Arrays.binarySearch} over numbers carries no derivative, as
 * {@code (int) Math.floor(x)} does: it is a step function of the key and of the elements, so the
 * derivative of what the index chooses is exact away from the knots. Before, the search was a
 * call run as written that might have kept the key anywhere, and the read of the table it
 * searched was the error "'KNOTS[i]' depends on 'v' through 'Arrays.binarySearch', which
 * carries no derivative". Checked by {@link ArrayFunctionChecks} (value bit for bit, differences
 * of the user's method, forward against reverse, the pullback) at points between the knots; the
 * generated code compiles under {@code -Xlint:all -Werror}, so the search gets no warning.
 */
@ExtendWith(TapeIsEmpty.class)
class SearchedIndicesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.Arrays;",
      "final class Tables {",
      "  private static final double[] KNOTS = {0, 1, 2.5, 3, 4};",
      "  /** Piecewise-linear interpolation of values given at KNOTS. */",
      "  @Differentiable static double interpolate(double[] values, double v) {",
      "    int i = Arrays.binarySearch(KNOTS, v);",
      "    if (i < 0) {",
      "      i = -i - 2;",
      "    }",
      "    i = Math.max(0, Math.min(i, KNOTS.length - 2));",
      "    double t = (v - KNOTS[i]) / (KNOTS[i + 1] - KNOTS[i]);",
      "    return values[i] + t * (values[i + 1] - values[i]);",
      "  }",
      "  /** Knots that carry derivatives: the running sums of the squared widths. */",
      "  @Differentiable static double movingKnots(double[] widths, double v) {",
      "    double[] knots = new double[widths.length + 1];",
      "    for (int k = 0; k < widths.length; k++) {",
      "      knots[k + 1] = knots[k] + widths[k] * widths[k];",
      "    }",
      "    int i = Arrays.binarySearch(knots, 0, knots.length, v);",
      "    i = i < 0 ? -i - 2 : i;",
      "    i = Math.max(0, Math.min(i, widths.length - 1));",
      "    return (v - knots[i]) / (knots[i + 1] - knots[i]) + Math.sin(knots[i] * v);",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Tables",
          SOURCE));

  @Test
  void interpolationBetweenSearchedKnotsHasExactDerivatives() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Tables");
    Random random = new Random(61);
    // between the knots 0, 1, 2.5, 3, 4 (differences stay on one piece), and outside them
    for (double v : new double[] {0.3, 1.7, 2.2, 2.8, 3.6, -0.4, 4.5}) {
      double[] values = new double[5];
      for (int i = 0; i < values.length; i++) {
        values[i] = 4 * random.nextDouble() - 2;
      }
      checks.check(new Call("interpolate", new Object[] {values, v}, true, true));
    }
  }

  @Test
  void aSearchOfKnotsThatCarryDerivativesHasExactDerivatives() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Tables");
    double[] widths = {0.9, 1.2, 0.7, 1.1};
    // knots 0, 0.81, 2.25, 2.74, 3.95: points between them
    for (double v : new double[] {0.4, 1.5, 2.5, 3.3, 4.4}) {
      checks.check(new Call("movingKnots", new Object[] {widths.clone(), v}, true, true));
    }
  }
}
