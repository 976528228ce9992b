package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MemberAgreement;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Calls of Hipparchus' and Commons Math 3's {@code FastMath} are differentiated like their
 * {@code Math} counterparts when the class is on the compile class path, and generated code
 * still calls {@code FastMath}. The processor does not depend on either library: small stand-in
 * {@code FastMath} classes are compiled beside the user's source. Each stand-in function differs
 * from {@code Math}'s by a factor, with a consistent derivative formula (its {@code cos} is the
 * derivative of its {@code sin}), so that a derivative computed with {@code Math} would fail.
 */
class FastMathTest {
  private static final double C = 1.25;

  /** Hipparchus' FastMath as far as the test's functions and their derivative formulas need. */
  private static final String HIPPARCHUS = String.join("\n",
      "package org.hipparchus.util;",
      "public final class FastMath {",
      "  private FastMath() {}",
      "  public static final double PI = 105414357.0 / 33554432.0 + 1.984187159361080883e-9;",
      "  public static double sin(double x) { return " + C + " * StrictMath.sin(x); }",
      "  public static double cos(double x) { return " + C + " * StrictMath.cos(x); }",
      "  public static double pow(double x, double y) { return StrictMath.pow(x, y); }",
      "  public static double pow(double x, int y) { return StrictMath.pow(x, y); }",
      "  public static double sqrt(double x) { return StrictMath.sqrt(x); }",
      "  public static double hypot(double x, double y) { return StrictMath.hypot(x, y); }",
      "  public static double atan2(double y, double x) { return StrictMath.atan2(y, x); }",
      "  public static double max(double a, double b) { return StrictMath.max(a, b); }",
      "  public static double signum(double x) { return StrictMath.signum(x); }",
      "  public static double abs(double x) { return StrictMath.abs(x); }",
      "  public static double log(double base, double x) { return StrictMath.log(x) / StrictMath.log(base); }",
      "  public static double asinh(double x) {",
      "    return StrictMath.log(x + StrictMath.sqrt(x * x + 1));",
      "  }",
      "  public static double acosh(double x) {",
      "    return StrictMath.log(x + StrictMath.sqrt(x * x - 1));",
      "  }",
      "  public static double atanh(double x) { return 0.5 * StrictMath.log((1 + x) / (1 - x)); }",
      "}");

  private static final String COMMONS = String.join("\n",
      "package org.apache.commons.math3.util;",
      "public final class FastMath {",
      "  private FastMath() {}",
      "  public static double exp(double x) { return StrictMath.exp(x); }",
      "}");

  private static final String USER = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import org.hipparchus.util.FastMath;",
      "import static org.apache.commons.math3.util.FastMath.exp;",
      "final class Library {",
      "  @Differentiable static double f(double x, double y) {",
      "    double s = FastMath.sin(x * y) + FastMath.pow(x, 3) + FastMath.abs(y);",
      "    return s * FastMath.sqrt(FastMath.hypot(x, y)) + FastMath.PI * FastMath.atan2(y, x)",
      "        + exp(-x) + FastMath.max(x, y);",
      "  }",
      "}");

  @Test
  void fastMathCallsAreDifferentiatedAndStayFastMath() throws IOException {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "org.hipparchus.util.FastMath", HIPPARCHUS,
        "org.apache.commons.math3.util.FastMath", COMMONS,
        "com.example.Library", USER);
    CompiledFunction f = compiled.function("com.example.Library", "f", 2);
    DerivativeChecks.checkAt(f, 0.7, 1.3);
    DerivativeChecks.checkAt(f, -0.4, 0.9);
    // d/dx of sin(x*y) is C cos(x y) y in the stand-in: the formula called FastMath.cos
    double x = 0.7;
    double y = 1.3;
    double r = Math.hypot(x, y);
    double s = C * Math.sin(x * y) + x * x * x + y;
    double ds = C * Math.cos(x * y) * y + 3 * x * x;
    double expected = ds * Math.sqrt(r) + s * 0.5 / Math.sqrt(r) * x / r
        + Math.PI * -y / (x * x + y * y) - Math.exp(-x);
    assertThat(f.gradient(x, y)[0]).isWithin(1e-12).of(expected);

    String generated = compiled.compilation().generatedSourceFile("com.example.LibraryGrad")
        .orElseThrow().getCharContent(true).toString();
    assertThat(generated).contains("org.hipparchus.util.FastMath.sin(");
    assertThat(generated).contains("org.hipparchus.util.FastMath.cos(");
    assertThat(generated).contains("org.apache.commons.math3.util.FastMath.exp(");
    assertThat(generated).doesNotContainMatch("(?<!Fast)Math\\.(sin|cos|exp)\\(");
  }

  @Test
  void fastMathOnlyFunctionsHaveRules() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "org.hipparchus.util.FastMath", HIPPARCHUS, "com.example.Only", String.join("\n",
            "package com.example;",
            "import org.hipparchus.util.FastMath;",
            "final class Only {",
            "  @ad4j.Differentiable static double f(double x, double y) {",
            "    return FastMath.asinh(x * y) + FastMath.acosh(1.5 + y * y)",
            "        + FastMath.atanh(x / 3);",
            "  }",
            "}"));
    CompiledFunction f = compiled.function("com.example.Only", "f", 2);
    DerivativeChecks.checkAt(f, 0.7, 1.3);
    DerivativeChecks.checkAt(f, -0.4, 0.2);
    double x = 0.7;
    double y = 1.3;
    double expectedX = y / Math.sqrt(x * x * y * y + 1) + (1.0 / 3) / (1 - x * x / 9);
    double expectedY = x / Math.sqrt(x * x * y * y + 1) + 2 * y / Math.sqrt(
        (1.5 + y * y) * (1.5 + y * y) - 1);
    assertThat(f.gradient(x, y)[0]).isWithin(1e-12).of(expectedX);
    assertThat(f.gradient(x, y)[1]).isWithin(1e-12).of(expectedY);
  }

  /**
   * asinh' = 1 / sqrt(x² + 1) and acosh' = 1 / sqrt(x² - 1) squared x, which overflows past
   * 1.3e154: at x = 1e200 every member gave 0 where the partial is 1e-200 (and the second
   * derivatives, 0 there, came from the same formula). Both members and orders agree with the
   * analytic partials at large and at ordinary arguments; at ordinary ones also with
   * differences of the stand-ins.
   */
  @Test
  void inverseHyperbolicPartialsAreNumbersAtLargeArguments() throws Exception {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "org.hipparchus.util.FastMath", HIPPARCHUS, "com.example.Large", String.join("\n",
            "package com.example;",
            "import org.hipparchus.util.FastMath;",
            "final class Large {",
            "  @ad4j.Differentiable(order = 2) static double f(double x, double y) {",
            "    return FastMath.asinh(x) + FastMath.acosh(y);",
            "  }",
            "}"));
    MemberAgreement members = MemberAgreement.of(compiled, "com.example.Large", "f", true, true);
    members.checkScalarAt(new double[][] {{0.7, 1.3}, {-3.5, 4.5}, {12, 1.5}}, 2, 1e-6);
    for (double[] point : new double[][] {{1e200, 1e200}, {-1e200, 1e155}, {3e160, 2e154},
        {0.7, 1.3}, {-4.5, 2.5}}) {
      double x = point[0];
      double y = point[1];
      // 1 / sqrt(x² + 1) and 1 / sqrt(y² - 1), with x² and y² taken out of the roots
      double expectedX = Math.abs(x) > 1 ? 1 / (Math.abs(x) * Math.sqrt(1 + 1 / (x * x)))
          : 1 / Math.sqrt(x * x + 1);
      double expectedY = 1 / (y * Math.sqrt(1 - 1 / (y * y)));
      double[] gradient = (double[]) members.member("Gradient", new Object[] {x, y});
      assertThat(gradient[0]).isWithin(1e-15 * expectedX).of(expectedX);
      assertThat(gradient[1]).isWithin(1e-15 * expectedY).of(expectedY);
      double[] adjoints = new double[2];
      members.member("Pullback", new Object[] {x, y}, 2.0, adjoints);
      assertThat(adjoints[0]).isWithin(1e-15 * expectedX).of(2 * expectedX);
      assertThat(adjoints[1]).isWithin(1e-15 * expectedY).of(2 * expectedY);
      double tangent = (double) members.member("Tangent", new Object[] {x, y}, 1.0, -1.0);
      assertThat(tangent).isWithin(1e-15 * (expectedX + expectedY)).of(expectedX - expectedY);
      double[][] hessian = (double[][]) members.member("Hessian", new Object[] {x, y});
      double expectedXx = -x * expectedX * expectedX * expectedX;
      double expectedYy = -y * expectedY * expectedY * expectedY;
      assertThat(hessian[0][0]).isWithin(1e-14 * Math.abs(expectedXx) + 1e-300).of(expectedXx);
      assertThat(hessian[1][1]).isWithin(1e-14 * Math.abs(expectedYy) + 1e-300).of(expectedYy);
    }
  }

  /**
   * atanh' = 1 / (1 - x²) keeps its digits near |x| = 1: it was {@code 1 / (1 - x * x)}, whose
   * {@code x * x} rounds away what the difference is made of, so at x = 1 - 2^-27 every member
   * gave 67108864.0 where the partial is 67108864.25 (1 - x² is 2^-26 - 2^-54 there, a double).
   */
  @Test
  void inverseHyperbolicTangentNearOneKeepsItsDigits() throws Exception {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "org.hipparchus.util.FastMath", HIPPARCHUS, "com.example.NearOne", String.join("\n",
            "package com.example;",
            "import org.hipparchus.util.FastMath;",
            "final class NearOne {",
            "  @ad4j.Differentiable(order = 2) static double f(double x) {",
            "    return FastMath.atanh(x);",
            "  }",
            "}"));
    MemberAgreement members = MemberAgreement.of(compiled, "com.example.NearOne", "f", true, true);
    for (double x : new double[] {1 - 0x1p-27, -(1 - 0x1p-27)}) {
      double expected = 1 / (0x1p-26 - 0x1p-54);
      double[] gradient = (double[]) members.member("Gradient", new Object[] {x});
      assertThat(gradient[0]).isEqualTo(expected);
      double tangent = (double) members.member("Tangent", new Object[] {x}, 1.0);
      assertThat(tangent).isEqualTo(expected);
      // (1 - x²)^-2 * 2x
      double[][] hessian = (double[][]) members.member("Hessian", new Object[] {x});
      assertThat(hessian[0][0]).isWithin(1e-14 * expected * expected)
          .of(2 * x * expected * expected);
    }
  }

  @Test
  void aFastMathFunctionWithoutARuleIsReportedAtTheCall() {
    JavaFileObject user = JavaFileObjects.forSourceString("com.example.Log", String.join("\n",
        "package com.example;",
        "import org.hipparchus.util.FastMath;",
        "final class Log {",
        "  @ad4j.Differentiable static double f(double x) { return FastMath.log(2, x); }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("org.hipparchus.util.FastMath", HIPPARCHUS), user);
    assertThat(compilation).hadErrorContaining("call to 'FastMath.log(...)' is not"
        + " differentiable: ad4j has no derivative rule for FastMath.log; differentiable"
        + " functions of FastMath are abs, acosh, asinh, atan2, atanh, cos, hypot, max, pow,"
        + " signum, sin, sqrt").inFile(user).onLine(4).atColumn(71);
  }
}
