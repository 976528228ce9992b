package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.FlatHessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tangents known to be zero are left out of second-order code ({@code derive/forward/
 * ZeroTangents}): the reverse sweep's constant seed, read in every iteration of a lane sweep,
 * has no tangent, and no product rule multiplies by it. Each method is checked whole and cut
 * into parts of one statement: the Hessian against differences of the gradient and second
 * differences of the method, exact symmetry, {@code mHessianVector} and {@code
 * mValueGradientAndHessian} ({@link FlatHessianChecks}), and each column against {@code
 * mHessianVector}. The methods cover a seed read in a loop, an adjoint variable that the
 * sweep records on its tape (it keeps its tangent), a partial that is zero ({@code
 * Math.floor}) beside one that is not, a branch on the data, and a helper called in a loop.
 */
@ExtendWith(TapeIsEmpty.class)
class ZeroTangentsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Z {",
      "  @Differentiable(order = 2) static double rosenbrock(double[] x) {",
      "    double sum = 0;",
      "    for (int i = 0; i + 1 < x.length; i++) {",
      "      double a = 1 - x[i];",
      "      double b = x[i + 1] - x[i] * x[i];",
      "      sum += 100 * b * b + a * a;",
      "    }",
      "    return sum;",
      "  }",
      "  @Differentiable(order = 2) static double scaledInLoop(double[] x, double s) {",
      "    double acc = 0;",
      "    double k = s;",
      "    for (int i = 0; i < x.length; i++) {",
      "      if (x[i] > 0.9) {",
      "        k = k * x[i];",
      "      }",
      "      acc += Math.floor(3 * s) * x[i] * x[i] + k * Math.sin(x[i] * s);",
      "    }",
      "    return acc * s;",
      "  }",
      "  @Differentiable(order = 2) static double helperInLoop(double[] x, double c) {",
      "    double total = c * c;",
      "    for (int i = 0; i < x.length; i++) {",
      "      total += term(x[i], c) * (i + 1);",
      "    }",
      "    return total;",
      "  }",
      "  @Differentiable(order = 2) static double term(double u, double c) {",
      "    return Math.exp(u * c) / (1 + u * u);",
      "  }",
      "}");

  private static final List<CompiledOnce> WHOLE_AND_PARTS_OF_ONE =
      CompiledOnce.wholeAndInParts("com.example.Z", SOURCE, 1);
  private static final CompiledOnce COMPILED = WHOLE_AND_PARTS_OF_ONE.get(0);
  private static final CompiledOnce PARTS_OF_ONE = WHOLE_AND_PARTS_OF_ONE.get(1);

  static Stream<Call> calls() {
    return Stream.of(
        new Call("rosenbrock", new Object[] {point(7, 1)}, true),
        new Call("rosenbrock", new Object[] {point(2, 2)}, true),
        new Call("scaledInLoop", new Object[] {point(6, 3), 0.7}, true, true),
        new Call("scaledInLoop", new Object[] {point(3, 4), 1.45}, true, true),
        new Call("helperInLoop", new Object[] {point(5, 5), -0.6}, true, true));
  }

  private static double[] point(int n, long seed) {
    Random random = new Random(seed);
    return random.doubles(n, 0.3, 1.6).toArray();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansAreExact(Call call) throws Exception {
    FlatHessianChecks.of(COMPILED.get(), "com.example.Z").check(call);
    FlatHessianChecks.of(COMPILED.get(), "com.example.Z").checkColumnsOfHessianVector(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansAreExactInPartsOfOneStatement(Call call) throws Exception {
    FlatHessianChecks.of(PARTS_OF_ONE.get(), "com.example.Z").check(call);
    FlatHessianChecks.of(PARTS_OF_ONE.get(), "com.example.Z").checkColumnsOfHessianVector(call);
  }

  /** The seed {@code sumBar = 1.0} has no tangent, nor have its copies in the loop. */
  @Test
  void theLaneSweepCarriesNoTangentOfTheSeed() throws Exception {
    String source = InProcessCompiler.gradSource(COMPILED.get().compilation())
        .getCharContent(true).toString();
    String lanes = source.substring(source.indexOf("static void rosenbrockHessianLanes("));
    lanes = lanes.substring(0, lanes.indexOf("\n  }\n"));
    assertThat(lanes).contains("double sumBar = 1.0;");
    assertThat(lanes).doesNotContain("sumBarDot");
  }
}
