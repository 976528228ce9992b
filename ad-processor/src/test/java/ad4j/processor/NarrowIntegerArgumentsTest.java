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
 * An argument of type {@code short}, {@code byte} or {@code char} chooses {@code q(short)},
 * {@code q(byte)} or {@code q(char)} over {@code q(int)} (JLS 15.12.2.5), and such arguments
 * are not only char literals: a cast {@code (short) 3}, a constant {@code static final short}
 * field ({@code Short.MAX_VALUE}), a {@code ?:} of two {@code char}s or of a {@code char} and an
 * {@code int} constant it holds ({@code b ? 'a' : 0}, JLS 15.25), a {@code switch} expression
 * whose cases all yield {@code char}s. ad4j typed them {@code int} and differentiated
 * {@code q(int)}: with {@code q(short c, double x) = 4x²} beside a {@code @Differentiable}
 * {@code q(int c, double x) = x³}, {@code f(x) = q((short) 3, x)} had the gradient 1.47 at
 * x = 0.7 where the method's derivative is 5.6, and its members returned q(int)'s value 0.343
 * where the method returns 1.96. Such arguments now have their type, so the call means
 * javac's method (an error at the call while ad4j could not differentiate a {@code short}
 * parameter; now differentiated); a {@code ?:} of that type that is not a constant, which ad4j
 * computes as an {@code int} variable, is an error at it ({@code var c = 'a'; q(c, x)} had the
 * same wrong gradient; such a local is a {@code char} now). Where Java's type is {@code int}
 * ({@code +'a'}, {@code (int) (short) 3}, {@code b ? 'a' : 70000}, {@code b ? 'a' : k}, a
 * {@code switch} yielding {@code 'a'} and {@code 0}), every member agrees with the method, whole
 * and cut into parts.
 */
@ExtendWith(TapeIsEmpty.class)
class NarrowIntegerArgumentsTest {
  /** Lines 1 to 7; a test's method starts on line 8. */
  private static List<String> source(String... method) {
    List<String> lines = new ArrayList<>(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static double q(char c, double x) { return x * x; }",
        "  static double q(short c, double x) { return 4 * x * x; }",
        "  static double q(byte c, double x) { return 5 * x * x; }",
        "  @Differentiable static double q(int c, double x) { return x * x * x; }"));
    lines.addAll(List.of(method));
    lines.add("}");
    return lines;
  }

  @Test
  void aChoiceOfACharAndAnIntConstantExpressionItDoesNotHoldIsAnInt() {
    // 2 * 40000 is 80000, past a char: the ?: is an int, and q(int) is differentiated
    List<String> lines = source(
        "  @Differentiable static double f(double x) {",
        "    return q(true ? 'a' : 2 * 40000, x) + q(false ? 'b' : 7 % 4 << 16, x);",
        "  }");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compile("com.example.F",
        String.join("\n", lines));
    ad4j.processor.testing.CompiledFunction f = compiled.function("com.example.F", "f", 1);
    ad4j.processor.testing.DerivativeChecks.checkAt(f, 0.7);
    ad4j.processor.testing.DerivativeChecks.checkAt(f, -1.3);
    // 3 << 16 = 196608, past a char too: both calls are q(int)
    org.junit.jupiter.api.Assertions.assertEquals(2 * (0.7 * 0.7 * 0.7), f.value(0.7));
  }

  @Test
  void aShortChoiceThatIsAVariableIsAnError() {
    assertSingleError(source(
        "  @Differentiable static double f(double x) {",
        "    return q(x > 0 ? (short) 1 : x > 1 ? (short) 2 : 3, x);",
        "  }"), "this '?:' has type 'short' in Java (JLS 15.25), which ad4j computes as an 'int'"
            + " here: cast its operands to 'int'", 9, 20);
  }

  @Test
  void aMutableShortFieldIsAnError() {
    assertSingleError(source(
        "  static short s = 3;",
        "  @Differentiable static double f(double x) { return q(s, x); }"),
        "field 's' is not final, and generated code cannot read it as a 'short'", 9, 56);
  }

  /**
   * Where Java's type is {@code char}, {@code short} or {@code byte}: these were errors, a
   * narrow parameter of {@code q} being none ad4j could differentiate, and a narrow local or
   * loop variable none it supported; with every {@code q} {@code @Differentiable}, ad4j now
   * keeps the narrow type, differentiates javac's overload, and agrees with the method.
   */
  private static final List<String> NARROW = source(
      "  static final byte B = 3;",
      "  static final short[] S = {1, 2, 3};",
      "  @Differentiable static double shortCast(double x) { return q((short) 3, x); }",
      "  @Differentiable static double byteField(double x) { return x * q(B, x); }",
      "  @Differentiable static double jdkShort(double x) { return q(Short.MAX_VALUE, x); }",
      "  @Differentiable static double charChoice(double x) {",
      "    return q(true ? 'a' : 0, x) + q(true ? 'a' : 1 / 1, x);",
      "  }",
      "  @Differentiable static double byteShortChoice(double x) {",
      "    return q(true ? (byte) 1 : (short) 2, x);",
      "  }",
      "  @Differentiable static double charSwitch(double x, int k) {",
      "    return q(switch (k) { case 0 -> 'a'; default -> 'b'; }, x);",
      "  }",
      // a char choice that is not a constant (an error before): w(char), as the method's call
      "  static double w(char c) { return 2; }",
      "  static double w(int c) { return 3; }",
      "  @Differentiable static double charChoiceRunAsWritten(double x, int k) {",
      "    return x * x * w(k > 0 ? 'a' : 'b');",
      "  }",
      "  @Differentiable static double charVar(double x) {",
      "    var c = 'a';",
      "    return q(c, x);",
      "  }",
      "  @Differentiable static double shortElements(double x) {",
      "    double y = 0;",
      "    for (short s : S) {",
      "      y += s * x * q(s, x);",
      "    }",
      "    for (int s : S) {",
      "      y += s * x * q(s, x);",
      "    }",
      "    return y;",
      "  }");

  @Test
  void whereJavaTypesTheArgumentNarrowEveryMemberAgreesWithTheMethod() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.F", String.join("\n", NARROW)
            .replace("  static double q(", "  @Differentiable static double q("));
    for (String name : List.of("shortCast", "byteField", "jdkShort", "charChoice",
        "byteShortChoice", "charVar", "shortElements")) {
      MemberAgreement member = MemberAgreement.of(compiled, "com.example.F", name, true);
      for (double x : new double[] {0.7, -1.3}) {
        member.checkScalar(new Object[] {x}, 1, 1e-6);
      }
    }
    for (String name : List.of("charSwitch", "charChoiceRunAsWritten")) {
      MemberAgreement member = MemberAgreement.of(compiled, "com.example.F", name, true, false);
      for (int k = 0; k < 2; k++) {
        member.checkScalar(new Object[] {0.7, k}, 1, 1e-6);
      }
    }
  }

  private static final List<String> ACCEPTED = source(
      "  static final int K = 70000;",
      "  static double w(char c) { return 2; }",
      "  static double w(int c) { return 3; }",
      "  @Differentiable static double unaryPlus(double x) {",
      "    var k = 'a' + 1;",
      "    return q(+'a', x) + q(k, x);",
      "  }",
      "  @Differentiable static double castBack(double x) {",
      "    return q((int) (short) 3, x) + q(-(short) 3, x) + q('a' + 0, x);",
      "  }",
      "  @Differentiable static double choices(double x, int k) {",
      "    return q(true ? 'a' : 70000, x) + q(x > 0 ? 'a' : k, x) + q(true ? 'a' : K, x)",
      "        + q(x > 0 ? 'a' : x > 1 ? 2 : 3, x) + q(true ? 'a' : (short) 1, x);",
      "  }",
      "  @Differentiable static double switches(double x, int k) {",
      "    return q(switch (k) { case 0 -> 'a'; default -> 0; }, x);",
      "  }",
      // run as written, where generated code's own javac chooses w(char) as the method's did
      "  @Differentiable static double runAsWritten(double x, int k) {",
      "    return x * w(true ? 'a' : 0) + x * x * w(k > 0 ? 'a' : k);",
      "  }");

  private static final CompiledOnce WHOLE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n", ACCEPTED)));

  private static final CompiledOnce PARTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=1"),
          "com.example.F", String.join("\n", ACCEPTED)));

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void whereJavaTypesTheArgumentIntEveryMemberAgreesWithTheMethod(boolean parts)
      throws Exception {
    InProcessCompiler.Compiled compiled = (parts ? PARTS : WHOLE).get();
    MemberAgreement unaryPlus = MemberAgreement.of(compiled, "com.example.F", "unaryPlus", true);
    MemberAgreement castBack = MemberAgreement.of(compiled, "com.example.F", "castBack", true);
    for (double x : new double[] {0.7, -1.3}) {
      unaryPlus.checkScalar(new Object[] {x}, 1, 1e-6);
      castBack.checkScalar(new Object[] {x}, 1, 1e-6);
    }
    for (String name : List.of("choices", "switches", "runAsWritten")) {
      MemberAgreement member = MemberAgreement.of(compiled, "com.example.F", name, true, false);
      for (int k = -1; k < 2; k++) {
        for (double x : new double[] {0.7, -1.3}) {
          member.checkScalar(new Object[] {x, k}, 1, 1e-6);
        }
      }
    }
  }
}
