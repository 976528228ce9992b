package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

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
 * {@code Double.sum}, {@code Double.max} and {@code Double.min} (and {@code Float}'s) are
 * {@code +}, {@code Math.max} and {@code Math.min} under other names: called with values that
 * carry derivatives, directly or as the operator of a stream's {@code reduce}, they are
 * differentiated as those (before, each was an error: a method without a rule that a derivative
 * flows into). Each method is checked by {@link ArrayFunctionChecks} (value bit for bit,
 * differences of the user's method, forward against reverse, the pullback); the {@code float}
 * one against its twin written with the operator and {@code Math}, gradient and value bit for
 * bit. The generated code compiles under {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class BoxMathFunctionsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.stream.DoubleStream;",
      "import java.util.stream.IntStream;",
      "final class Boxes {",
      "  @Differentiable static double sums(double[] w, double s) {",
      "    return DoubleStream.of(w).map(x -> x * s).reduce(0, Double::sum)",
      "        + Double.sum(s, s * w[0]) + Double.sum(2, s);",
      "  }",
      "  @Differentiable static double extremes(double[] w, double s) {",
      "    return DoubleStream.of(w).map(x -> x * x * s)",
      "            .reduce(Double.NEGATIVE_INFINITY, Double::max)",
      "        - IntStream.range(0, w.length).mapToDouble(i -> w[i] * s + 5 * i)",
      "            .reduce(Double.POSITIVE_INFINITY, Double::min)",
      "        + Double.max(s, w[0] * s) * Double.min(1, w[1]);",
      "  }",
      "  @Differentiable static double floats(float a, float b) {",
      "    return Float.sum(a * b, a) * Float.max(a, b) - Float.min(a, 2 * b);",
      "  }",
      "  @Differentiable static double floatsTwin(float a, float b) {",
      "    return (a * b + a) * Math.max(a, b) - Math.min(a, 2 * b);",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Boxes",
          SOURCE));

  @Test
  void sumMaxAndMinOfDoubleAreDifferentiatedAsTheOperatorAndMathFunctions() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Boxes");
    Random random = new Random(47);
    for (int trial = 0; trial < 4; trial++) {
      double[] w = new double[3 + trial];
      for (int i = 0; i < w.length; i++) {
        w[i] = 4 * random.nextDouble() - 2;
      }
      double s = random.nextDouble() + 0.2;
      checks.check(new Call("sums", new Object[] {w, s}, true, true));
      checks.check(new Call("extremes", new Object[] {w, s}, true, true));
    }
  }

  @Test
  void floatSumMaxAndMinGiveTheirTwinsValuesAndGradients() throws Exception {
    Class<?> user = COMPILED.get().load("com.example.Boxes");
    Class<?> generated = COMPILED.get().load("com.example.BoxesGrad");
    float[][] points = {{0.75f, -1.5f}, {2.25f, 0.5f}, {-0.3f, 1.7f}};
    for (float[] p : points) {
      double value = (double) ArrayFunctionChecks.invoke(user, "floats", p[0], p[1]);
      double twin = (double) ArrayFunctionChecks.invoke(user, "floatsTwin", p[0], p[1]);
      assertWithMessage("values at (%s, %s)", p[0], p[1]).that(value).isEqualTo(twin);
      double[] gradient = (double[]) ArrayFunctionChecks.invoke(generated, "floatsGradient",
          p[0], p[1]);
      double[] twinGradient = (double[]) ArrayFunctionChecks.invoke(generated,
          "floatsTwinGradient", p[0], p[1]);
      assertWithMessage("gradient at (%s, %s)", p[0], p[1]).that(gradient)
          .usingExactEquality().containsExactly(twinGradient).inOrder();
      double tangent = (double) ArrayFunctionChecks.invoke(generated, "floatsTangent", p[0],
          p[1], 0.5, -2.0);
      assertWithMessage("tangent at (%s, %s)", p[0], p[1]).that(tangent)
          .isWithin(1e-12 * (Math.abs(gradient[0]) + 2 * Math.abs(gradient[1])))
          .of(0.5 * gradient[0] - 2.0 * gradient[1]);
    }
  }
}
