package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MixedFunction;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.function.Executable;

/**
 * {@code Math.clamp} and {@code StrictMath.clamp} (Java 21) in the rule table: {@code clamp(v,
 * lo, hi) = min(hi, max(v, lo))}, as the JDK computes it, differentiated as that composition
 * (each tie split as {@code min} and {@code max} split theirs). Checked against differences
 * of the user's method in each of the three pieces, forward against reverse, values bit for
 * bit, and to order 2; the ties against the halves the composition gives; the {@code float}
 * and integer overloads. Runs on JDK 21 and later (CI builds on JDK 17 and 25).
 */
@EnabledIf("onJdk21")
class ClampTest {
  static boolean onJdk21() {
    return Runtime.version().feature() >= 21;
  }

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.C",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class C {",
              "  @Differentiable(order = 2) static double f(double v, double lo, double hi) {",
              "    return Math.clamp(v * v, lo, hi) * v;",
              "  }",
              "  @Differentiable static double g(double v, double lo, double hi) {",
              "    return StrictMath.clamp(v, lo, hi);",
              "  }",
              "  @Differentiable static double unused(double v, double lo, double hi) {",
              "    double c = Math.clamp(v, lo, hi);",
              "    if (v > 10) { double d = Math.clamp(v, 1.0, 0.5); }",
              "    double e = Math.clamp(v, 0.0, 1.0);",
              "    return v * v;",
              "  }",
              "  @Differentiable static double h(double v, double w) {",
              "    float f = Math.clamp((float) v, 0.25f, 0.75f);",
              "    int k = Math.clamp((long) (w * 10), 1, 3);",
              "    return f * w + k * v;",
              "  }",
              "}")));

  @Test
  void eachPieceAgainstDifferencesAndAtOrderTwo() throws Exception {
    // v * v below lo, between, above hi
    for (double[] point : new double[][] {{0.5, 0.4, 2.0}, {1.1, 0.4, 2.0}, {1.7, 0.4, 2.0},
        {-0.3, 0.2, 0.9}}) {
      DerivativeChecks.checkAt(COMPILED.get().function("com.example.C", "f", 3), point);
      HessianChecks.checkAt(COMPILED.get().function("com.example.C", "f", 3),
          COMPILED.get().load("com.example.CGrad"), point);
      DerivativeChecks.checkAt(COMPILED.get().function("com.example.C", "g", 3), point);
    }
  }

  @Test
  void tiesAreSplitAsMinAndMaxSplitThem() {
    var g = COMPILED.get().function("com.example.C", "g", 3);
    // v == lo < hi: max gives v and lo half each, min passes it whole
    assertThat(g.gradient(1.0, 1.0, 2.0)).usingExactEquality()
        .containsExactly(0.5, 0.5, 0.0).inOrder();
    // lo < v == hi: max passes v whole, min gives v and hi half each
    assertThat(g.gradient(2.0, 1.0, 2.0)).usingExactEquality()
        .containsExactly(0.5, 0.0, 0.5).inOrder();
  }

  @Test
  void anUnusedClampThatThrowsStillThrowsInEveryMember() {
    // its value unused, the call was dropped from every member, which returned normally where
    // the user's method throws IllegalArgumentException: bounds out of order, a NaN bound,
    // and constant bounds out of order
    MixedFunction f = new MixedFunction(COMPILED.get(), "com.example.C", "unused",
        double.class, double.class, double.class);
    for (Object[] arguments : new Object[][] {{0.5, 2.0, 1.0}, {0.5, Double.NaN, 1.0},
        {0.5, 0.0, -0.0}, {11.0, 0.0, 20.0}}) {
      IllegalArgumentException expected =
          assertThrows(IllegalArgumentException.class, () -> f.value(arguments));
      List<Executable> members = List.of(() -> f.gradient(arguments),
          () -> f.valueAndGradient(arguments, new double[3]),
          () -> f.tangent(arguments, new double[] {1, 1, 1}),
          () -> f.pullback(arguments, 1.0, new double[3]));
      for (Executable member : members) {
        assertThat(assertThrows(IllegalArgumentException.class, member).getMessage())
            .isEqualTo(expected.getMessage());
      }
    }
    assertThat(f.gradient(new Object[] {0.5, 1.0, 2.0})).usingExactEquality()
        .containsExactly(1.0, 0.0, 0.0).inOrder();
  }

  @Test
  void floatAndIntegerOverloads() throws Exception {
    // the float clamp is the double one's derivative at the float values; the int one has none
    for (double[] point : new double[][] {{0.1, 0.35}, {0.5, 0.35}, {0.9, 0.05}}) {
      DerivativeChecks.checkAt(COMPILED.get().function("com.example.C", "h", 2), point);
    }
  }
}
