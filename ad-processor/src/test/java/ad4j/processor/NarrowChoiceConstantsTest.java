package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The type of a {@code switch} or {@code ?:} expression that yields a {@code char},
 * {@code short} or {@code byte} beside {@code int} constants, which decides how it prints: javac
 * makes {@code switch (k) { case 1 -> c; default -> 66; }} a {@code char} ({@code "B"}), where
 * ad4j computed an {@code int} ({@code "66"}); and {@code (m = 66)} is no constant, so that
 * {@code x < 0 ? c : (m = 66)} is an {@code int}, where ad4j computed a {@code char}. Both gave
 * silently wrong values. A {@code final int} local read beside a {@code char} is a constant in
 * Java, which ad4j computes as a value: an error. Passed to a method, such a {@code switch} is a
 * poly expression, which chooses {@code q(int)} over {@code q(char)}.
 */
@ExtendWith(TapeIsEmpty.class)
class NarrowChoiceConstantsTest {
  @Test
  void aSwitchOfCharsBesideIntConstantsIsTypedAsJavacTypesIt() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Switch", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Switch {",
            "  static final int K = 67;",
            "  @Differentiable static double f(double x, int k, char c, char d) {",
            "    String s = \"\" + switch (k) { case 1 -> c; default -> 66; }",
            "        + switch (k) { case 1 -> 'a'; default -> K; }",
            "        + switch (k) { case 1 -> c; case 2 -> d; default -> 68; }",
            "        + switch (k) { case 1 -> 'a'; case 2 -> (int) c; default -> 69; };",
            "    return x * s.length() + x * x * s.hashCode()",
            "        + q(switch (k) { case 1 -> c; default -> 66; }, x);",
            "  }",
            // passed to a method, the switch is an int: 66 converts to a char in an assignment,
            // not in a call
            "  @Differentiable static double q(int i, double x) { return x * i; }",
            "  @Differentiable static double q(char c, double x) { return -x * x * c; }",
            "}"));
    MemberAgreement agreement = MemberAgreement.of(compiled, "com.example.Switch", "f",
        true, false, false, false);
    for (int k = 0; k < 3; k++) {
      agreement.checkScalar(new Object[] {0.5, k, 'q', 'r'}, 1, 1e-6);
    }
    // k = 0: "B" + "C" + "D" + "69" (the last, with '(int) c', is an int)
    String s = "BCD69";
    assertThat((double[]) agreement.member("Gradient", new Object[] {0.5, 0, 'q', 'r'}))
        .isEqualTo(new double[] {s.length() + 2 * 0.5 * s.hashCode() + 66});
  }

  @Test
  void anAssignmentBesideACharIsNoConstant() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Assigned", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Assigned {",
            "  @Differentiable static double f(double x, int k, char c) {",
            "    int m = 0;",
            "    int n = 0;",
            "    String s = \"\" + (x < 0 ? c : (m = 66))",
            "        + switch (k) { case 1 -> c; default -> (n = 67); };",
            "    return x * s.length() + x * x * s.hashCode() + m + n;",
            "  }",
            "}"));
    MemberAgreement agreement = MemberAgreement.of(compiled, "com.example.Assigned", "f",
        true, false, false);
    for (int k = 0; k < 2; k++) {
      agreement.checkScalar(new Object[] {0.5, k, 'q'}, 1, 1e-6);
      agreement.checkScalar(new Object[] {-0.5, k, 'q'}, 1, 1e-6);
    }
    String s = "6667";
    assertThat((double[]) agreement.member("Gradient", new Object[] {0.5, 0, 'q'}))
        .isEqualTo(new double[] {s.length() + 2 * 0.5 * s.hashCode()});
  }

  @Test
  void aConditionalOfACharAndAFinalIntLocalIsAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x, char c) {",
        "    final int L = 66;",
        "    String s = \"\" + (x > 0 ? c : L + 1);",
        "    return x * s.length();",
        "  }",
        "}"),
        "this '?:' chooses between a 'char' and an 'int' constant that ad4j cannot evaluate (or"
            + " one that reads a 'final' local, which ad4j computes as an 'int' value), so it"
            + " cannot tell the type Java gives it (JLS 15.25), which chooses the method it is"
            + " passed to and how it prints: cast the operands to 'int', or to the narrower type",
        6, 28);
  }

  @Test
  void aSwitchOfACharAndAFinalIntLocalIsAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x, int k, char c) {",
        "    final int L = 66;",
        "    String s = \"\" + switch (k) { case 1 -> c; default -> L; };",
        "    return x * s.length();",
        "  }",
        "}"),
        "the type javac gives this 'switch' expression, which yields 'char', 'short' or 'byte'"
            + " values beside 'int' constants, depends on which of them are constants, which ad4j"
            + " cannot tell here (a value that reads a 'final' local, or a constant ad4j cannot"
            + " evaluate): cast the values the cases yield to 'int', or to one narrow type",
        6, 21);
  }

  /**
   * {@code case 1 -> 'a'; case 2 -> c; default -> 66}: javac (17 to 25) gives it the type
   * {@code int}, which prints {@code 66}, where JLS 5.6 and the Eclipse compiler give it
   * {@code char}, which prints {@code B}; ad4j followed javac, so under ECJ {@code fGradient}
   * and {@code fValueAndGradient} computed {@code "66".hashCode()} where the method computes
   * {@code "B".hashCode()} (2592.0 for 99.0 at x = 1.5, found while checking the ECJ route).
   * What the method computes depends on the compiler: an error.
   */
  @Test
  void aSwitchThatJavacAndTheSpecificationTypeApartIsAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x, int k, char c) {",
        "    String s = \"\" + switch (k) { case 1 -> 'a'; case 2 -> c; default -> 66; };",
        "    return x * s.hashCode();",
        "  }",
        "}"),
        "javac gives this 'switch' expression, which yields 'char', 'short' or 'byte' values"
            + " beside 'int' constants, the type 'int' and the Java Language Specification (and"
            + " the Eclipse compiler) the type 'char', so what the method computes depends on the"
            + " compiler: cast the values the cases yield to 'int', or to one narrow type",
        5, 21);
  }
}
