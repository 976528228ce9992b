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
 * Adjoints that several sums read, multiplied out ({@code optimize/CommonFactors}, {@code
 * UnreadAdjoints}): an adjoint such as Goldstein–Price's {@code qBar = t10Bar * t9}, read by
 * the sums of {@code xBar} and {@code yBar}, is a multiple of {@code t10Bar} in each, so that
 * each sum multiplies {@code t10Bar} once by the partial of the second factor, the product
 * rule as a person writes it; a run that reads an adjoint another run sums waits for it. The
 * rewrite happens there, not where the adjoint is still read elsewhere (its declaration
 * stays), and the gradients stay those of the user's method (extrapolated finite differences,
 * forward mode against reverse mode, values bit for bit).
 */
class SharedAdjointFactorsTest {
  private static final String SOURCE = """
      package com.example;

      import ad4j.Differentiable;

      final class Shared {
        /** Two polynomials times squares, multiplied: the product rule twice. */
        @Differentiable
        static double goldsteinPrice(double x, double y) {
          double s = x + y + 1;
          double p = 19 - 14 * x + 3 * x * x - 14 * y + 6 * x * y + 3 * y * y;
          double d = 2 * x - 3 * y;
          double q = 18 - 32 * x + 12 * x * x + 48 * y - 36 * x * y + 27 * y * y;
          return (1 + s * s * p) * (30 + d * d * q);
        }

        /** r's adjoint is read in a branch too, and d's by a sum that a branch cuts. */
        @Differentiable
        static double readInBranch(double x, double y) {
          double d = x - 2 * y;
          double q = x * x + 3 * x * y;
          double r = 1 + d * d * q;
          if (x > y) {
            r = r + q * y;
          }
          return r * (2 + x);
        }

        /** In a loop body, with the carried adjoint assigned between its reads. */
        @Differentiable
        static double inLoop(double x, double y) {
          double s = 0;
          for (int i = 0; i < 3; i++) {
            double d = x - y * i;
            double q = x * x + 5 * x * y;
            s += (1 + d * d * q) * (2 + s * y);
          }
          return s;
        }

        /** A factor popped from the tape of a helper's call, and a helper's pullback. */
        @Differentiable
        static double withCall(double x, double y) {
          double d = x - helper(x, y);
          double q = x * helper(y, x);
          return (1 + d * d * q) * (3 + d * q);
        }

        @Differentiable
        static double helper(double a, double b) {
          return a * b + Math.sin(a);
        }
      }
      """;

  private static final List<String> FUNCTIONS =
      List.of("goldsteinPrice", "readInBranch", "inLoop", "withCall");

  private static InProcessCompiler.Compiled compiled;
  private static String generated;

  @BeforeAll
  static void compile() {
    // warnings fail the compilation: the rewritten sums must not bring any
    compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Shared", SOURCE);
    generated = GeneratedText.of(compiled, "com.example.SharedGrad");
  }

  @Test
  void gradientsMatchFiniteDifferencesAndForwardMode() {
    double[][] points = {{0.7, 1.3}, {1.6, 0.4}, {-0.8, 2.1}, {3, 0.5}, {0, -1}};
    DerivativeChecks.checkEachAt(compiled, "com.example.Shared", FUNCTIONS, points);
  }

  /**
   * Goldstein–Price: each gradient element is {@code t6Bar} (the first factor's value) times
   * the second factor's partial plus {@code t4Bar} times the first's, the partials read only
   * the forward sweep; the adjoints of the polynomials and squares, read by both sums, are
   * gone.
   */
  @Test
  void anAdjointReadByBothSumsIsMultipliedOutInEach() {
    String gp = method("goldsteinPriceValueAndGradient");
    // like terms collected (LikeTermsTest): t4 + x * 12.0 is x * 24.0, t1 + x * 3.0 is x * 6.0
    assertThat(line("xBar", gp)).isEqualTo("double xBar = t6Bar * (t5 * (x * 24.0"
        + " - (32.0 + y * 36.0)) + q * (d * 4.0)) + t4Bar * (t3 * (y * 6.0 - 14.0 + x * 6.0)"
        + " + p * (s * 2.0));");
    assertThat(line("yBar", gp)).startsWith("double yBar = t6Bar * (t5 * (");
    for (String gone : List.of("qBar", "pBar", "dBar", "sBar", "t5Bar", "t3Bar")) {
      assertThat(gp).doesNotContain(gone);
    }
  }

  /**
   * {@code rBar} is read in the branch as well: it stays, and {@code xBar}'s sum, which
   * multiplies it out, reads its own factor {@code t5Bar}. {@code dBar} is read by {@code
   * t9Bar}, whose sum into {@code yBar} the branch cuts off and which stays: so does {@code
   * dBar}.
   */
  @Test
  void anAdjointReadElsewhereStays() {
    String body = method("readInBranchValueAndGradient");
    assertThat(body).containsMatch("if \\(t3\\) \\{[^}]*double t\\d+Bar = rBar;");
    assertThat(body).contains("double rBar = t5Bar * t4;\n");
    assertThat(body).contains("double dBar = t2Bar * d * 2.0;\n");
    assertThat(body).contains("double t9Bar = -dBar;\n");
    assertThat(line("xBar", body)).isEqualTo(
        "double xBar = t5Bar * (r + t4 * (q * (d * 2.0))) + qBar * (y * 3.0 + x * 2.0);");
  }

  /** The body of the generated method {@code name}. */
  private static String method(String name) {
    return GeneratedText.method(generated, name);
  }
}
