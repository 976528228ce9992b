package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code ?:} or a {@code switch} expression that chooses between an {@code int} or
 * {@code long} and a {@code float} has the type {@code float} (JLS 15.25, 15.28.1), but
 * compilers do not agree on its value: javac, where the choice is assigned, passed or returned
 * as a {@code double}, widens the integer straight to {@code double} (so {@code double r = p ?
 * n : f} is 16777217.0 for {@code n = 16777217}), ecj rounds it to {@code float} first
 * (16777216.0), and for a {@code switch} expression they differ again by context. ad4j rounded
 * as JLS says, so under javac every member's value differed from the method's, and where that
 * value decided a branch the derivative was silently wrong: {@code double r = p ? n : f; if (r
 * == n) return x; return x * x;} returned 0.1369 with gradient 0.74 at x = 0.37, where the
 * method returns 0.37 with derivative 1. Such a choice is now an error at it that says to cast
 * the integer; with the cast (or an integer constant a {@code float} holds exactly) every member
 * agrees with the method bit for bit, and with differences of order 8, whole and cut into parts.
 */
@ExtendWith(TapeIsEmpty.class)
class IntegerBesideFloatChoicesTest {
  /** Lines 1 to 3; a test's method starts on line 4. */
  private static List<String> source(String... method) {
    List<String> lines = new ArrayList<>(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {"));
    lines.addAll(List.of(method));
    lines.add("}");
    return lines;
  }

  private static final String MESSAGE = "chooses between an 'int' or 'long' and a 'float': Java"
      + " compilers differ in whether that integer is rounded to 'float'";

  @Test
  void anIntAndAFloatChosenIntoADoubleIsAnErrorAtTheChoice() {
    assertSingleError(source(
        "  @Differentiable static double f(double x, boolean p) {",
        "    int n = 16777217;",
        "    float f = (float) x;",
        "    double r = p ? n : f;",
        "    if (r == n) { return x; }",
        "    return x * x;",
        "  }"), "'?:' " + MESSAGE, 7, 18);
  }

  @Test
  void aLongReturnedBesideAFloatIsAnError() {
    assertSingleError(source(
        "  @Differentiable static double f(double x, float g, long k) {",
        "    return x > 0 ? k : g * 2;",
        "  }"), "'?:' " + MESSAGE, 5, 18);
  }

  @Test
  void anIntegerLevelInsideAFloatChainIsAnError() {
    assertSingleError(source(
        "  @Differentiable static double f(double x, int n) {",
        "    return x < 0 ? x * x : x < 1 ? 0.5f : x < 2 ? n + 1 : n * 3L;",
        "  }"), "'?:' " + MESSAGE, 5, 34);
  }

  @Test
  void aConstantThatAFloatDoesNotHoldIsAnError() {
    assertSingleError(source(
        "  @Differentiable static double f(double x, float g) {",
        "    return g(x > 0 ? 16777217 : g) * x;",
        "  }",
        "  @Differentiable static double g(double v) { return v * 3; }"),
        "'?:' " + MESSAGE, 5, 20);
  }

  @Test
  void aSwitchYieldingAnIntAndAFloatIsAnError() {
    assertSingleError(source(
        "  @Differentiable static double f(double x, float g, int k) {",
        "    int n = 16777217 + k;",
        "    double r = switch (k) {",
        "      case 0 -> n;",
        "      default -> { float h = g * 2; yield h; }",
        "    };",
        "    return r * x;",
        "  }"), "'switch' " + MESSAGE, 6, 16);
  }

  private static final List<String> ACCEPTED = source(
      // the integer cast to the type meant: each compiler computes the same
      "  @Differentiable static double widened(double x, boolean p) {",
      "    int n = 16777217;",
      "    float f = (float) x;",
      "    double r = p ? (double) n : f;",
      "    if (r == n) { return x * 3; }",
      "    return x * x;",
      "  }",
      "  @Differentiable static double rounded(double x, boolean p) {",
      "    int n = 16777217;",
      "    float f = (float) x;",
      "    double r = p ? (float) n : f;",
      "    if (r == n) { return x * 3; }",
      "    return r * x;",
      "  }",
      // integer constants a float holds exactly, and a switch cast the same way
      "  @Differentiable static double constants(double x, float g, int k) {",
      "    float f = x > 0 ? 1 : g;",
      "    double r = switch (k) {",
      "      case 0 -> (double) (16777217 + k);",
      "      case 1 -> -16777216;",
      "      default -> g * f;",
      "    };",
      "    return r * x + f * g + (k > 1 ? 0 : g);",
      "  }");

  private static final CompiledOnce WHOLE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n", ACCEPTED)));

  private static final CompiledOnce PARTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=1"),
          "com.example.F", String.join("\n", ACCEPTED)));

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void withTheIntegerCastEveryMemberIsTheMethodsBitForBit(boolean parts) throws Exception {
    InProcessCompiler.Compiled compiled = (parts ? PARTS : WHOLE).get();
    for (String name : List.of("widened", "rounded")) {
      MemberAgreement member = MemberAgreement.of(compiled, "com.example.F", name, true, false);
      for (boolean p : new boolean[] {true, false}) {
        for (double x : new double[] {0.37, -1.6}) {
          member.checkScalar(new Object[] {x, p}, 1, 1e-5); // f rounds x to float
        }
      }
    }
    MemberAgreement constants = MemberAgreement.of(compiled, "com.example.F", "constants", true,
        true, false);
    for (int k = 0; k < 3; k++) {
      for (double x : new double[] {0.37, -1.6}) {
        constants.checkScalar(new Object[] {x, 1.25f, k}, 1, 1e-3);
      }
    }
  }
}
