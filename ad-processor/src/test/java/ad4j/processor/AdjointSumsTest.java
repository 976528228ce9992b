package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.GeneratedText;
import ad4j.processor.testing.InProcessCompiler;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Adjoint accumulation ({@code transform/AdjointSums}): the contributions to one adjoint are
 * summed once, as a balanced sum, and equal ones are one term times their count. The gradients
 * stay those of the user's method (finite differences, forward mode against reverse mode), and
 * the generated code shows the sums.
 */
class AdjointSumsTest {
  private static final String SOURCE = """
      package com.example;

      import ad4j.Differentiable;

      final class Sums {
        /** x * x: the same contribution twice. */
        @Differentiable
        static double square(double x, double y) {
          return x * x * y;
        }

        /** Four independent contributions to x. */
        @Differentiable
        static double four(double x, double y) {
          double a = Math.sin(y);
          double b = Math.cos(y);
          double c = Math.exp(y);
          double d = Math.sqrt(y);
          return x * a + x * b + x * c + x * d;
        }

        /** Beale's function: many contributions of both signs to both inputs. */
        @Differentiable
        static double beale(double x, double y) {
          double y2 = y * y;
          double y3 = y2 * y;
          double a = 1.5 - x + x * y;
          double b = 2.25 - x + x * y2;
          double c = 2.625 - x + x * y3;
          return a * a + b * b + c * c;
        }

        /**
         * The Goldstein–Price function: polynomials whose partials in x and y collect many
         * multiples of one adjoint.
         */
        @Differentiable
        static double goldsteinPrice(double x, double y) {
          double s = x + y + 1;
          double p = 19 - 14 * x + 3 * x * x - 14 * y + 6 * x * y + 3 * y * y;
          double d = 2 * x - 3 * y;
          double q = 18 - 32 * x + 12 * x * x + 48 * y - 36 * x * y + 27 * y * y;
          return (1 + s * s * p) * (30 + d * d * q);
        }

        /** Subtracted and repeated contributions, some cancelling. */
        @Differentiable
        static double signs(double x, double y) {
          double a = x - y * x;
          double b = y - x * x;
          double c = -x - x;
          return a * b - c * a + x * y - x * y + b * b;
        }

        /** Contributions inside a loop body, to values and variables outside it. */
        @Differentiable
        static double loop(double x, double y) {
          double s = x;
          for (int i = 0; i < 4; i++) {
            s = s * y + x * x - Math.sin(x * y) + x;
          }
          return s * x;
        }

        /**
         * A sum carried by an inner loop (one row of ADBench's GMM): each iteration of the
         * reverse inner loop reads the row's adjoint and leaves it as it was.
         */
        @Differentiable
        static double rows(double x, double y) {
          double sq = 0;
          for (int r = 0; r < 3; r++) {
            double row = x * r;
            for (int j = 0; j < r; j++) {
              row += y * j;
            }
            sq += row * row;
          }
          return sq;
        }

        /** Contributions in branches and after them. */
        @Differentiable
        static double branch(double x, double y) {
          double r;
          if (x > y) {
            r = x * x + x * y + y;
          } else {
            r = x * y * y - x;
          }
          return r * x + r * y + x * y;
        }
      }
      """;

  private static final List<String> FUNCTIONS =
      List.of("square", "four", "beale", "goldsteinPrice", "signs", "loop", "rows", "branch");

  private static InProcessCompiler.Compiled compiled;
  private static String generated;

  @BeforeAll
  static void compile() {
    // warnings fail the compilation: the sums must not bring any
    compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Sums", SOURCE);
    generated = GeneratedText.of(compiled, "com.example.SumsGrad");
  }

  @Test
  void gradientsMatchFiniteDifferencesAndForwardMode() {
    double[][] points = {{0.7, 1.3}, {1.6, 0.4}, {-0.8, 2.1}, {3, 0.5}};
    DerivativeChecks.checkEachAt(compiled, "com.example.Sums", FUNCTIONS, points);
  }

  /** {@code x * x}: {@code xBar = t1Bar * x; xBar += t1Bar * x} became one term, times 2. */
  @Test
  void aRepeatedContributionIsOneTermTimesItsCount() {
    String body = method("squareValueAndGradient");
    assertThat(body).contains("double xBar = t1Bar * x * 2.0;\n");
    assertThat(assignmentsOf("xBar", body)).isEqualTo(1);
    // c = -x - x: the two subtracted contributions are one term as well
    assertThat(method("signsValueAndGradient")).contains(" - cBar * 2.0");
  }

  /**
   * Four independent contributions are summed once, pairwise: {@code (d + c) + (b + a)}, two
   * additions deep, where the reverse sweep added them one after another (three deep).
   */
  @Test
  void independentContributionsFormABalancedSum() {
    String body = method("fourValueAndGradient");
    assertThat(body).contains("double xBar = d + c + (b + a);\n");
    assertThat(assignmentsOf("xBar", body)).isEqualTo(1);
    String beale = method("bealeValueAndGradient");
    assertThat(assignmentsOf("xBar", beale)).isEqualTo(1);
    assertThat(assignmentsOf("yBar", beale)).isEqualTo(1);
  }

  /**
   * The contributions that are multiples of one adjoint are summed before one multiplication by
   * it: Beale's {@code xBar} was {@code cBar * y3 - cBar + bBar * y2 + ...}, six products and
   * sums on the adjoints; now the partials {@code y3 - 1.0} read the forward sweep only.
   */
  @Test
  void multiplesOfOneAdjointAreFactored() {
    assertThat(method("bealeValueAndGradient")).contains(
        "double xBar = cBar * (y3 - 1.0) + bBar * (y2 - 1.0) + aBar * (y - 1.0);\n");
    // Goldstein–Price: p's and q's partials in x and in y, each read through the adjoints of
    // the polynomials' terms (qBar * x, -qBar, ...), which are gone; qBar = t6Bar * t5 is read
    // by both sums and multiplied out in each (SharedAdjointFactorsTest): the only adjoints
    // declared are the two factors' and the gradient's
    String gp = method("goldsteinPriceValueAndGradient");
    String xBar = gp.substring(gp.indexOf("double xBar = "));
    xBar = xBar.substring(0, xBar.indexOf('\n'));
    // like terms collected (LikeTermsTest): t4 + x * 12.0, t4 being 12 * x, is x * 24.0
    assertThat(xBar).contains("t5 * (x * 24.0 - (32.0 + y * 36.0))");
    assertThat(xBar).contains("t3 * (y * 6.0 - 14.0 + x * 6.0)");
    List<String> declared = new java.util.ArrayList<>();
    Matcher adjoint = Pattern.compile("double (\\w+Bar) = ").matcher(gp);
    while (adjoint.find()) {
      declared.add(adjoint.group(1));
    }
    assertThat(declared).containsExactly("t4Bar", "t6Bar", "xBar", "yBar");
  }

  /**
   * In a loop body, the contributions of one iteration to an adjoint summed across iterations
   * are added to it in one statement: one addition per iteration on the loop-carried chain.
   * They are all multiples of the carried {@code sBar} (through {@code t7Bar = sBar}, which
   * {@code yBar}'s sum reads too), so the statement multiplies it once.
   */
  @Test
  void aLoopBodyAddsItsContributionsOnce() {
    String body = method("loopValueAndGradient");
    String reverseLoop = body.substring(body.indexOf("for (int iteration1"));
    assertThat(reverseLoop).containsMatch("xBar \\+= sBar \\* \\(1\\.0 - t\\d+ \\* y \\+ x \\* 2\\.0\\);\n");
    assertThat(assignmentsOf("xBar", reverseLoop)).isEqualTo(2); // and once after the loop
  }

  /**
   * An adjoint the reverse sweep zeroes and then gives one contribution is assigned that
   * contribution ({@code xBar = 0.0; ... xBar += c} was a chain through {@code 0.0 + c}, carried
   * around a loop), and an iteration that leaves a loop-carried adjoint as it found it does not
   * store it again.
   */
  @Test
  void aZeroedAdjointIsAssignedItsOneContribution() {
    String body = method("rowsValueAndGradient");
    String reverse = body.substring(body.indexOf("// reverse sweep"));
    assertThat(reverse).doesNotContain("Bar = 0.0;\n      ");
    assertThat(reverse).doesNotContain("rowBar +=");
    assertThat(reverse).containsMatch("double rowBar = t\\d+Bar \\* row2 \\* 2\\.0;\n");
    String inner = reverse.substring(reverse.indexOf("for (int iteration2"));
    inner = inner.substring(0, inner.indexOf("\n      }\n"));
    assertThat(assignmentsOf("rowBar", inner)).isEqualTo(0);
    assertThat(assignmentsOf("sqBar", reverse)).isEqualTo(1); // declared once, never reassigned
  }

  private static final String ELEMENTS = """
      package com.example;

      import ad4j.Differentiable;

      final class Elements {
        /** The extended Rosenbrock function: three contributions to x[i] per iteration. */
        @Differentiable
        static double rosenbrock(double[] x) {
          double s = 0;
          for (int i = 0; i + 1 < x.length; i++) {
            double a = 1 - x[i];
            double b = x[i + 1] - x[i] * x[i];
            s += 100 * b * b + a * a;
          }
          return s;
        }

        /** Contributions to w[k] on both sides of a read of the same array, and to w[k + 1]. */
        @Differentiable
        static double interleaved(double[] w, double y) {
          double s = 0;
          for (int k = 0; k + 1 < w.length; k++) {
            double p = w[k] * y;
            double q = Math.sin(w[k]) * w[k + 1];
            s += p * q + w[k] * w[k];
          }
          return s;
        }

        /** The adjoint of mu[j] in x[j] - mu[j] is minus that of the difference. */
        @Differentiable
        static double differences(double[] x, double[] mu) {
          double s = 0;
          for (int j = 0; j < x.length; j++) {
            double d = x[j] - mu[j];
            s += d * d * x[j];
          }
          return s;
        }
      }
      """;

  /**
   * The additions into one element of the gradient in one block become one addition of their
   * sum: one read-modify-write of {@code gradient[i]} per iteration instead of three.
   */
  @Test
  void additionsIntoOneElementAreOneAddition() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(ELEMENTS_CLASS.get(),
        "com.example.Elements");
    checks.check(new ArrayFunctionChecks.Call("rosenbrock",
        new Object[] {new double[] {0.3, -1.2, 0.8, 1.1}}, true));
    checks.check(new ArrayFunctionChecks.Call("interleaved",
        new Object[] {new double[] {0.3, -1.2, 0.8}, 0.7}, true, true));
    String reverseLoop = elementsReverseLoop("rosenbrockValueAndGradient");
    Matcher additions = Pattern.compile("gradient\\[\\w+\\] \\+= ").matcher(reverseLoop);
    int count = 0;
    while (additions.find()) {
      count++;
    }
    assertThat(count).isEqualTo(2); // x[i] once, x[i + 1] once
  }

  /**
   * An adjoint that is the negation of another and goes into an element only is subtracted from
   * the element ({@code gradient[k] -= dBar}), not declared as {@code muBar = -dBar} and added,
   * as one would write it by hand. The gradient is the user's method's.
   */
  @Test
  void aNegatedAdjointIsSubtractedFromItsElement() throws Exception {
    ArrayFunctionChecks.of(ELEMENTS_CLASS.get(), "com.example.Elements").check(
        new ArrayFunctionChecks.Call("differences", new Object[] {
            new double[] {0.3, -1.2, 0.8}, new double[] {1.1, 0.4, -0.6}}, true, true));
    String reverseLoop = elementsReverseLoop("differencesValueAndGradient");
    assertThat(reverseLoop).containsMatch("gradient\\[[\\w +]+\\] -= dBar;");
    assertThat(reverseLoop).doesNotContainMatch("= -dBar;");
  }

  private static final CompiledOnce ELEMENTS_CLASS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Elements",
          ELEMENTS));

  /** The reverse loop of the generated method {@code name} of {@code ElementsGrad}. */
  private static String elementsReverseLoop(String name) {
    String body = GeneratedText.method(
        GeneratedText.of(ELEMENTS_CLASS.get(), "com.example.ElementsGrad"), name);
    return body.substring(body.indexOf("for (int iteration1"));
  }

  /** How many statements of {@code code} assign or add to {@code variable}. */
  private static int assignmentsOf(String variable, String code) {
    Matcher matcher = Pattern.compile("\\b" + variable + " [-+]?= ").matcher(code);
    int count = 0;
    while (matcher.find()) {
      count++;
    }
    return count;
  }

  /**
   * The body of the generated method {@code name}: its own, or, for a member that records on
   * the tape, that of {@code nameOnTape}, which it calls.
   */
  private static String method(String name) {
    return GeneratedText.method(generated,
        generated.contains("static double " + name + "OnTape(") ? name + "OnTape" : name);
  }
}
