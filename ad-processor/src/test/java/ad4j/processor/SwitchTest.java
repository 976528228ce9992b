package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MixedFunction;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code switch} statements and expressions on {@code int} values, arrow and colon forms, with
 * fallthrough, {@code default} anywhere, {@code yield}, jumps out of loops, and {@code break}s
 * that leave a case before its end (an error before: "'break' inside a 'switch' is supported
 * only as the last statement of a case"): each checked
 * against the user's own method (values bit for bit), finite differences, and forward against
 * reverse mode. Each wrapper weighs every case differently, so that a wrong case shows.
 */
@ExtendWith(TapeIsEmpty.class)
class SwitchTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Switches {",
      "  @SuppressWarnings(\"fallthrough\")",
      "  @Differentiable static double colon(double x, int k) {",
      "    double r = x;",
      "    switch (k) {",
      "      case 0: r = x * x; break;",
      "      case 1: r = Math.sin(x);",
      "      case 2: case 3: r += x * 2; break;",
      "      default: r = -x;",
      "      case 9: r *= 3;",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable static double colonCases(double x) {",
      "    return colon(x, 0) + 2 * colon(x, 1) + 3 * colon(x, 2) + 5 * colon(x, 5)",
      "        + 7 * colon(x, 9);",
      "  }",
      "  @Differentiable static double arrow(double x, int k) {",
      "    double r;",
      "    switch (k % 4) {",
      "      case 0, 1 -> r = Math.exp(x);",
      "      case 2 -> { double t = x * x; r = t * x; }",
      "      default -> r = x;",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable static double arrowCases(double x) {",
      "    return arrow(x, 0) + 2 * arrow(x, 5) + 3 * arrow(x, 2) + 5 * arrow(x, 7);",
      "  }",
      "  @Differentiable static double expression(double x, int k) {",
      "    double y = switch (k) {",
      "      case 0 -> x * 2;",
      "      case 1 -> { double t = Math.cos(x); yield t * t; }",
      "      case 'a' -> 1;",
      "      default -> { if (x > 100) { throw new IllegalArgumentException(\"big\"); } yield x; }",
      "    };",
      "    int m = switch (k) { case 0: case 1: yield 3; default: yield k * 2; };",
      "    return y * m + switch (m) { case 6 -> x; default -> 0; };",
      "  }",
      "  @Differentiable static double expressionCases(double x) {",
      "    return expression(x, 0) + 2 * expression(x, 1) + 3 * expression(x, 97)",
      "        + 5 * expression(x, 3);",
      "  }",
      "  @Differentiable static double inLoop(double x, int n) {",
      "    double s = 0;",
      "    for (int i = 0; i < n; i++) {",
      "      switch (i % 3) {",
      "        case 0: s += x; continue;",
      "        case 1: s *= x; break;",
      "        default: if (s > 10) { return s; }",
      "      }",
      "      s += 0.5;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double inLoopCases(double x) { return inLoop(x, 8); }",
      "  @SuppressWarnings(\"fallthrough\")",
      "  @Differentiable static double earlyBreaks(double x, int k) {",
      "    double r = x;",
      "    switch (k % 5) {",
      "      case 0:",
      "        r = x * x;",
      "        if (k > 20) break;",
      "        r += Math.sin(x);",
      "        if (k > 10) { if (k > 15) break; r *= 2; }",
      "        { if (k < 5) break; r -= x; }",
      "        r += 0.5;",
      "        break;",
      "      case 1:",
      "        r = Math.exp(x);",
      "        if (k > 30) { r *= 2; break; } else if (k < 0) { break; }",
      "        r -= x;",
      "      case 2:",
      "        r *= 3;",
      "        for (int i = 0; i < 3; i++) { if (i == k % 3) break; r += x * i; }",
      "        switch (k % 2) { case 0: if (k > 10) break; r += 1; break; default: r -= x; }",
      "        if (k % 7 == 0) break;",
      "      default:",
      "        r = r * x + 1;",
      "    }",
      "    switch (k % 3) {",
      "      case 0 -> { r += x; if (k > 50) break; r *= x; }",
      "      default -> r -= 1;",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable static double earlyBreaksCases(double x) {",
      "    return earlyBreaks(x, 0) + 2 * earlyBreaks(x, 25) + 3 * earlyBreaks(x, 1)",
      "        + 29 * earlyBreaks(x, 10) + 31 * earlyBreaks(x, 15) + 37 * earlyBreaks(x, 20)",
      "        + 5 * earlyBreaks(x, 31) + 7 * earlyBreaks(x, -4) + 11 * earlyBreaks(x, 7)",
      "        + 13 * earlyBreaks(x, 12) + 17 * earlyBreaks(x, 13) + 19 * earlyBreaks(x, 54)",
      "        + 23 * earlyBreaks(x, 3);",
      "  }",
      "  @Differentiable static double straight(double x) {",
      "    int c = 'b';",
      "    switch (c) { case 'a': return x; case 'b': return x * x; default: return -x; }",
      "  }",
      "}");

  private static final CompiledOnce SWITCHES = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Switches", SOURCE));

  private static Compiled switches() {
    return SWITCHES.get();
  }

  static Stream<Arguments> functions() {
    return Stream.of(
        Arguments.of("colonCases", new double[][] {{0.7}, {-1.3}}),
        Arguments.of("arrowCases", new double[][] {{0.7}, {-1.3}}),
        Arguments.of("expressionCases", new double[][] {{0.7}, {-1.3}}),
        Arguments.of("inLoopCases", new double[][] {{0.9}, {1.6}, {-0.4}}),
        Arguments.of("earlyBreaksCases", new double[][] {{0.7}, {-1.3}, {0.2}}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("functions")
  void derivativesMatchTheUsersMethod(String name, double[][] points) {
    CompiledFunction f = switches().function("com.example.Switches", name, 1);
    for (double[] x : points) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  @Test
  void eachCaseHasItsOwnAnalyticDerivative() {
    double x = 0.7;
    // colon: k=0 x², k=1 sin x + 2x (falls through), k=2 3x, k=5 -3x (default falls into 9), k=9 3x
    double colon = 2 * x + 2 * (Math.cos(x) + 2) + 3 * 3 + 5 * -3 + 7 * 3;
    assertThat(switches().function("com.example.Switches", "colonCases", 1).gradient(x)[0])
        .isWithin(1e-12).of(colon);
    // expression: k=0 2x*3, k=1 cos²x*3, k=97 ('a') 1*194 + 0, k=3 x*6 + x
    double expression = 6 + 2 * 3 * -2 * Math.cos(x) * Math.sin(x) + 3 * 0 + 5 * 7;
    assertThat(switches().function("com.example.Switches", "expressionCases", 1).gradient(x)[0])
        .isWithin(1e-12).of(expression);
  }

  @Test
  void valuesAreBitForBitForEverySelector() {
    for (String name : List.of("colon", "arrow", "expression", "inLoop", "earlyBreaks")) {
      MixedFunction f = new MixedFunction(switches(), "com.example.Switches", name, double.class,
          int.class);
      for (int k = -2; k <= 100; k++) {
        Object[] arguments = {0.3 + k / 64.0, k};
        double[] gradient = new double[1];
        assertThat(f.valueAndGradient(arguments, gradient)).isEqualTo(f.value(arguments));
        assertThat(f.pullback(arguments, 2.0, new double[1])).isEqualTo(f.value(arguments));
        assertThat(f.tangent(arguments, new double[] {1})).isWithin(1e-12).of(gradient[0]);
      }
    }
  }

  @Test
  void aMethodWhoseSwitchReturnsInEveryCaseIsStraightLineEnough() {
    CompiledFunction straight = switches().function("com.example.Switches", "straight", 1);
    assertThat(straight.gradient(1.5)[0]).isEqualTo(3.0);
    DerivativeChecks.checkAt(straight, 1.5);
  }
}
