package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Assignments, compound assignments, {@code ++} and {@code --} used as expressions, in Java's
 * evaluation order: each function is checked against its own user method (values bit for bit),
 * finite differences, and forward against reverse mode.
 */
@ExtendWith(TapeIsEmpty.class)
class SideEffectExpressionsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Effects {",
      "  @Differentiable static double fixedPoint(double a) {",
      "    double x = a;",
      "    int n = 0;",
      "    while ((x = Math.cos(x) * a) > 0.1 && ++n < 20) { }",
      "    return x + n;",
      "  }",
      "  @Differentiable static double countdown(double x, int n) {",
      "    double s = 0;",
      "    int i = n;",
      "    while (--i > 0) { s += x * i; }",
      "    return s;",
      "  }",
      "  @Differentiable static double countdown5(double x) { return countdown(x, 5); }",
      "  @Differentiable static double postfixInSum(double t) {",
      "    double s = 0;",
      "    int k = 1;",
      "    for (int j = 0; j < 4; j++) { s += t * (k++); }",
      "    return s + k;",
      "  }",
      "  @Differentiable static double chained(double x) {",
      "    double a, b;",
      "    a = b = x * x;",
      "    return a * b + (a += x) * a;",
      "  }",
      "  @Differentiable static double doubleIncrements(double x) {",
      "    double y = x;",
      "    double z = y++ * 2 + ++y;",
      "    z -= (y *= x) - y--;",
      "    return z * y;",
      "  }",
      "  @Differentiable static double inCondition(double x) {",
      "    double y;",
      "    if ((y = Math.sin(x)) > 0) { return y * x; }",
      "    return y;",
      "  }",
      "  @Differentiable static double inShortCircuit(double x) {",
      "    double y;",
      "    if (x > 0 && (y = x * x) > 1) { return y * x; }",
      "    return -x;",
      "  }",
      "  @Differentiable static double inConditional(double x, double y) {",
      "    double z = 0;",
      "    double w = x > y ? (z = x * y) : (z += y);",
      "    return w + z;",
      "  }",
      // javac 20 and later warn of the narrowing in 'i += 2.7', which is the point here
      "  @SuppressWarnings(\"lossy-conversions\")",
      "  @Differentiable static double integerNarrowing(double x) {",
      "    int i = 3;",
      "    long k = 5;",
      "    double r = (i += 2.7) * x + (k *= 3) + (i++) - (--k);",
      "    return r * x + i + k;",
      "  }",
      "  @Differentiable static double doWhileCondition(double x) {",
      "    double s = x;",
      "    int i = 0;",
      "    do { if (i != 2) { s = s * x + 1; } } while ((s *= 0.9) < 50 && ++i < 6);",
      "    return s;",
      "  }",
      "  @Differentiable static double orderOfOperands(double x) {",
      "    double y = x;",
      "    return y * (y = 2 * x) + y + (y += 1) * y;",
      "  }",
      // the value of 'd = 1' is the double 1.0: the division is 0.5 and Math.min a double one
      "  @Differentiable static double widenedConstant(double x) {",
      "    double d;",
      "    double m = Math.min(1, d = 1) * x;",
      "    return (d = 1) / 2 * x + m * d;",
      "  }",
      "}");

  private static final CompiledOnce EFFECTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Effects", SOURCE));

  private static Compiled effects() {
    return EFFECTS.get();
  }

  static Stream<Arguments> functions() {
    return Stream.of(
        Arguments.of("fixedPoint", new double[][] {{0.7}, {1.3}, {0.2}}),
        Arguments.of("countdown5", new double[][] {{1.5}, {-0.3}}),
        Arguments.of("postfixInSum", new double[][] {{0.8}, {-2}}),
        Arguments.of("chained", new double[][] {{0.6}, {-1.4}}),
        Arguments.of("doubleIncrements", new double[][] {{0.6}, {-1.4}, {2}}),
        Arguments.of("inCondition", new double[][] {{0.5}, {-0.5}}),
        Arguments.of("inShortCircuit", new double[][] {{2}, {0.5}, {-1}}),
        Arguments.of("inConditional", new double[][] {{2, 1}, {0.5, 1.5}}),
        Arguments.of("integerNarrowing", new double[][] {{0.4}, {-3}}),
        Arguments.of("doWhileCondition", new double[][] {{1.1}, {0.3}, {2.5}}),
        Arguments.of("orderOfOperands", new double[][] {{0.7}, {-1.2}}),
        Arguments.of("widenedConstant", new double[][] {{0.7}, {-1.2}}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("functions")
  void derivativesMatchTheUsersMethod(String name, double[][] points) {
    CompiledFunction f = effects().function("com.example.Effects", name, points[0].length);
    for (double[] x : points) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  @Test
  void valuesFollowJavasEvaluationOrder() {
    // independent of the generated code: the user's method computes what Java says
    CompiledFunction order = effects().function("com.example.Effects", "orderOfOperands", 1);
    double x = 0.7;
    assertThat(order.value(x)).isEqualTo(x * (2 * x) + 2 * x + (2 * x + 1) * (2 * x + 1));
    assertThat(order.gradient(x)[0]).isWithin(1e-12).of(4 * x + 2 + 4 * (2 * x + 1));
    CompiledFunction narrowing = effects().function("com.example.Effects", "integerNarrowing", 1);
    // i = 5, k = 15; r = 5x + 15 + 5 - 14; then i = 6, k = 14
    assertThat(narrowing.gradient(2)[0]).isWithin(1e-12).of(2 * 5 * 2 + 6);
    CompiledFunction widened = effects().function("com.example.Effects", "widenedConstant", 1);
    assertThat(widened.value(3)).isEqualTo(0.5 * 3 + 3);
    assertThat(widened.gradient(3)[0]).isEqualTo(1.5);
  }
}
