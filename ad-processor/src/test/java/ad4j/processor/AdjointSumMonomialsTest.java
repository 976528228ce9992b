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
 * An adjoint that is a sum, read once, expanded into its monomials where another sum reads it
 * ({@code optimize/CommonFactors}): Beale's {@code y2Bar = bBar * x + y3Bar * y}, read by
 * {@code yBar}'s term {@code y2Bar * y * 2.0}, is the monomials {@code bBar · x · y · 2} and
 * {@code y3Bar · y · y · 2}, and the latter, through {@code y3Bar = cBar * x}, meets
 * {@code yBar}'s term {@code y3Bar * y2} as a like term ({@code optimize/LikeTerms}): {@code
 * cBar · x · y2 · 3}. Every monomial of {@code yBar} then has the factor {@code x}, which the
 * sum multiplies once: {@code x * (aBar + cBar * (y2 * 3.0) + bBar * (y * 2.0))}, the
 * hand-written {@code 2x (a + 2by + 3cy²)}. The gradients stay those of the user's method (extrapolated finite
 * differences, forward mode against reverse mode, values bit for bit).
 */
class AdjointSumMonomialsTest {
  private static final String SOURCE = """
      package com.example;

      import ad4j.Differentiable;

      final class Expanded {
        /** Beale's function: y's adjoint reads y2's, a sum. */
        @Differentiable
        static double beale(double x, double y) {
          double y2 = y * y;
          double y3 = y2 * y;
          double a = 1.5 - x + x * y;
          double b = 2.25 - x + x * y2;
          double c = 2.625 - x + x * y3;
          return a * a + b * b + c * c;
        }

        /** A difference read once, times a factor computed where it is read. */
        @Differentiable
        static double difference(double x, double y) {
          double u = x * y;
          double v = u - Math.sin(y) * x;
          double w = u * Math.exp(x) + v * v;
          return w * (1 + y);
        }
      }
      """;

  private static final List<String> FUNCTIONS = List.of("beale", "difference");

  private static InProcessCompiler.Compiled compiled;
  private static String generated;

  @BeforeAll
  static void compile() {
    // warnings fail the compilation: the expanded sums must not bring any
    compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Expanded", SOURCE);
    generated = GeneratedText.of(compiled, "com.example.ExpandedGrad");
  }

  @Test
  void gradientsMatchFiniteDifferencesAndForwardMode() {
    double[][] points = {{0.7, 1.3}, {1.6, 0.4}, {-0.8, 2.1}, {3, 0.5}, {0, -1}};
    DerivativeChecks.checkEachAt(compiled, "com.example.Expanded", FUNCTIONS, points);
  }

  /**
   * Beale: {@code yBar} was {@code aBar * x + y3Bar * y2 + y2Bar * y * 2.0} after {@code y2Bar =
   * bBar * x + y3Bar * y} and {@code y3Bar = cBar * x}; now each of {@code cBar}, {@code bBar},
   * {@code aBar} times its partial, {@code y3Bar} and {@code y2Bar} gone.
   */
  @Test
  void anAdjointThatIsASumIsExpandedWhereItIsRead() {
    String beale = method("bealeValueAndGradient");
    assertThat(line("yBar", beale)).isEqualTo(
        "double yBar = x * (aBar + cBar * (y2 * 3.0) + bBar * (y * 2.0));");
    assertThat(beale).doesNotContain("y2Bar");
    assertThat(beale).doesNotContain("y3Bar");
  }

  /**
   * A difference whose terms are read once: {@code t6Bar}'s monomial of one, with no factor, is
   * {@code t6Bar} itself.
   */
  @Test
  void aMonomialWithoutFactorsIsItsAdjoint() {
    assertThat(line("yBar", method("differenceValueAndGradient")))
        .startsWith("double yBar = t3Bar + wBar * (");
  }

  /** The body of the generated method {@code name}. */
  private static String method(String name) {
    return GeneratedText.method(generated, name);
  }
}
