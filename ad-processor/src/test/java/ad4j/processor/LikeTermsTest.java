package ad4j.processor;

import static ad4j.processor.testing.GeneratedText.line;
import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.GeneratedText;
import ad4j.processor.testing.InProcessCompiler;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Like terms of an adjoint's partial collected ({@code optimize/LikeTerms}): monomials that are
 * the same product up to a constant factor become one term with the summed coefficient, seen
 * through the forward sweep's products ({@code t18 = 12 * x}, {@code t1 = y * y}), and each
 * monomial's constants are folded into one. Where the constants' sum is not a {@code double}
 * exactly, the terms stay as they were. The gradients stay those of the user's method
 * (extrapolated finite differences, forward mode against reverse mode, values bit for bit).
 */
class LikeTermsTest {
  private static final String SOURCE = """
      package com.example;

      import ad4j.Differentiable;

      final class Like {
        /** 12 * x * x: the partial t18 + x * 12.0, where t18 = 12 * x. */
        @Differentiable
        static double goldsteinPrice(double x, double y) {
          double s = x + y + 1;
          double p = 19 - 14 * x + 3 * x * x - 14 * y + 6 * x * y + 3 * y * y;
          double d = 2 * x - 3 * y;
          double q = 18 - 32 * x + 12 * x * x + 48 * y - 36 * x * y + 27 * y * y;
          return (1 + s * s * p) * (30 + d * d * q);
        }

        /** y * y * y: the partial t1 + y * y * 2.0, where t1 = y * y. */
        @Differentiable
        static double cube(double x, double y) {
          double q = 2 * y * y * y + x * y;
          return (3 + q) * (2 + x * q);
        }

        /** 0.1 + 0.1 + 0.3 + 0.3 is no double: the terms stay. */
        @Differentiable
        static double inexact(double x, double y) {
          double q = 0.1 * x * x + 0.3 * x * x + y;
          return (1 + q) * (2 + y * q);
        }
      }
      """;

  private static final List<String> FUNCTIONS = List.of("goldsteinPrice", "cube", "inexact");

  private static InProcessCompiler.Compiled compiled;
  private static String generated;

  @BeforeAll
  static void compile() {
    // warnings fail the compilation: the collected sums must not bring any
    compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Like", SOURCE);
    generated = GeneratedText.of(compiled, "com.example.LikeGrad");
  }

  @Test
  void gradientsMatchFiniteDifferencesAndForwardMode() {
    double[][] points = {{0.7, 1.3}, {1.6, 0.4}, {-0.8, 2.1}, {3, 0.5}, {0, -1}};
    DerivativeChecks.checkEachAt(compiled, "com.example.Like", FUNCTIONS, points);
  }

  /**
   * Goldstein–Price: q's partial in x, {@code 12 * x * x}'s two terms and {@code 36 * x * y}'s
   * and {@code 32 * x}'s, is {@code x * 24.0 - (32.0 + y * 36.0)}, as a person writes it, not
   * {@code t18 - y * 36.0 + (x * 12.0 - 32.0)}; {@code d * d}'s partial times {@code 2 * x}'s is
   * {@code d * 4.0}, not {@code d * (2.0 * 2.0)}.
   */
  @Test
  void termsOfOneProductAreCollected() {
    assertThat(line("xBar", method("goldsteinPriceValueAndGradient"))).isEqualTo(
        "double xBar = t6Bar * (t5 * (x * 24.0 - (32.0 + y * 36.0)) + q * (d * 4.0))"
            + " + t4Bar * (t3 * (y * 6.0 - 14.0 + x * 6.0) + p * (s * 2.0));");
  }

  /**
   * {@code 2 * y * y * y}'s partial, {@code t2 + y * t1 + y * y * 2.0} (with {@code t1 = 2 *
   * y}, {@code t2 = t1 * y}), is {@code 6 y²}, written with the fewest factors: {@code t2 *
   * 3.0}.
   */
  @Test
  void productsOfTheForwardSweepAreSeenThrough() {
    assertThat(line("yBar", method("cubeValueAndGradient")))
        .isEqualTo("double yBar = qBar * (x + t1 * 3.0);");
  }

  /**
   * 0.1 and 0.3 (as doubles) sum to no double: {@code t1 = 0.1 * x} and {@code t3 = 0.3 * x}
   * stay terms of their own.
   */
  @Test
  void aCoefficientThatIsNoDoubleLeavesTheTerms() {
    assertThat(line("xBar", method("inexactValueAndGradient")))
        .isEqualTo("double xBar = qBar * (t2 + x * (0.3 + 0.1) + t1);");
  }

  /** The body of the generated method {@code name}. */
  private static String method(String name) {
    return GeneratedText.method(generated, name);
  }
}
