package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Order-2 methods written with statement forms that the sweeps lower apart: a labelled
 * {@code continue} and {@code break} out of a nested loop, {@code d++} and {@code --d} on a
 * {@code double} inside an expression, a {@code float} local under {@code +=} and {@code *=}
 * of doubles (narrowed each time), colon cases falling through in a loop, an {@code int}
 * from {@code Math.round} and {@code char} constants, and a name declared in a loop's body
 * and again after it for a do-while. Each against differences of order 8 of the method, at
 * points away from the jumps, with the Hessian, {@code mHessianVector} and
 * {@code mValueGradientAndHessian} ({@link MemberAgreement}).
 */
@ExtendWith(TapeIsEmpty.class)
class OrderTwoStatementFormsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class S {",
      "  @Differentiable(order = 2) static double labeled(double x, double y) {",
      "    double s = x;",
      "    outer:",
      "    for (int i = 0; i < 5; i++) {",
      "      for (int j = 0; j < 4; j++) {",
      "        s = s * 0.8 + Math.sin(y * s) * x;",
      "        if (s * j > 2.7) { continue outer; }",
      "        if (s + i > 5.4) { break outer; }",
      "      }",
      "      s += y * y;",
      "    }",
      "    return s * y;",
      "  }",
      "  @Differentiable(order = 2) static double postInc(double x, double y) {",
      "    double d = x;",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) { s += d++ * y + --d * x; d += y; }",
      "    return s * d;",
      "  }",
      // JDK 20+ javac warns of the narrowing compound assignments the method is about
      "  @SuppressWarnings(\"lossy-conversions\")",
      "  @Differentiable(order = 2) static double narrowing(double x, double y) {",
      "    float f = 1f;",
      "    for (int i = 0; i < 3; i++) { f += x * y; f *= y; }",
      "    return f * x;",
      "  }",
      "  @Differentiable(order = 2) static double fallthrough(double x, double y) {",
      "    double s = x;",
      "    for (int i = 0; i < 4; i++) {",
      "      switch (i % 3) {",
      "        case 0: s = s * y;",
      "        case 1: s = s + x * y; break;",
      "        default: s = Math.exp(0.1 * s) * x;",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double rounding(double x, double y) {",
      "    long r = Math.round(x * 4);",
      "    int c = 'a';",
      "    c += (int) r;",
      "    return (c - 'a') * x * y + r * y * y + (x * y) / (r + 1);",
      "  }",
      "  @Differentiable(order = 2) static double shadowy(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      double t = s;",
      "      for (int j = 0; j < 2; j++) { t = t * x + y; }",
      "      s = t;",
      "    }",
      "    double t = s;",
      "    int i = 0;",
      "    do { t = t * y + x; i++; } while (i < 2);",
      "    return t;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all,-fallthrough", "-Werror"), "com.example.S", SOURCE));

  @ParameterizedTest
  @ValueSource(strings = {"labeled", "postInc", "fallthrough", "rounding", "shadowy"})
  void hessians(String name) throws Exception {
    MemberAgreement.of(COMPILED.get(), "com.example.S", name, true, true)
        .checkScalarAt(new double[][] {{0.61, 0.83}, {1.27, -0.52}, {0.52, 0.64}}, 2, 1e-6);
  }

  /** Values in float: the gradient only, differences of a float method being coarse. */
  @ParameterizedTest
  @ValueSource(strings = {"narrowing"})
  void floats(String name) throws Exception {
    MemberAgreement.of(COMPILED.get(), "com.example.S", name, true, true)
        .checkScalarAt(new double[][] {{0.61, 0.83}, {1.37, -0.52}}, 1, 1e-4);
  }
}
