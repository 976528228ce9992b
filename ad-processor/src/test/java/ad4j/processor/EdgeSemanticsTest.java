package ad4j.processor;

import static ad4j.processor.testing.Sources.unit;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The generated derivatives at non-finite inputs, signed zeros, extreme magnitudes, the edges of
 * domains and the documented kinks (README, "Derivatives at awkward points"), extending
 * {@code LanguageTest.derivativesAtKinksAndSingularities} without repeating it.
 *
 * <p><b>Non-finite values, defined precisely.</b> ad4j evaluates each rule's formula in IEEE
 * arithmetic on the primal's own intermediates; it never tests for NaN. So (a) the value
 * returned by every generated member is the primal's, bit for bit, NaN and infinities included;
 * (b) a gradient entry is NaN exactly when the chain-rule product for it is NaN in IEEE
 * arithmetic. Consequently, where the primal value is NaN because an input is NaN, the gradient
 * entry of that input is NaN whenever the input reaches the result through an operation whose
 * partial depends on its argument (sin, *, exp, ...), but <em>not</em> through operations whose
 * partials are constants: {@code x + y}, {@code x - y}, {@code -x}, {@code x % c}; those cases are
 * listed below ({@link #nanThroughLinearOperations}) as documented exceptions. {@code min} and
 * {@code max}, whose partials are chosen by comparison, give NaN partials for a NaN argument
 * ({@link #nanThroughMinAndMax}). (c) forward mode gives the same
 * non-finite entries as reverse mode, except that along a unit vector e_i forward mode may give
 * NaN where reverse mode gives a number, if another partial is NaN or infinite: the tangent sums
 * {@code partial_j * 0}, and 0 * NaN and 0 * infinity are NaN (e.g. {@code x * y} at (NaN, 2)
 * has gradient {2, NaN} but tangent NaN along (1, 0)). Where all partials are finite, forward
 * and reverse agree entry by entry. The asserted rule: the tangent along e_i equals g_i, or is
 * NaN and some g_j is not finite. Reverse
 * mode is the one to use for per-input derivatives at such points.
 */
class EdgeSemanticsTest {
  private static final String CLASS = "com.example.Edge";
  private static Compiled compiled;

  @BeforeAll
  static void compile() {
    compiled = InProcessCompiler.compile(CLASS, unit("final class Edge", String.join("\n",
        "  @Differentiable static double add(double x, double y) { return x + y; }",
        "  @Differentiable static double sub(double x, double y) { return x - y; }",
        "  @Differentiable static double mul(double x, double y) { return x * y; }",
        "  @Differentiable static double div(double x, double y) { return x / y; }",
        "  @Differentiable static double rem(double x, double y) { return x % y; }",
        "  @Differentiable static double neg(double x) { return -x; }",
        "  @Differentiable static double id(double x) { return x; }",
        "  @Differentiable static double square(double x) { return x * x; }",
        "  @Differentiable static double cancel(double x) { return x - x; }",
        "  @Differentiable static double sin(double x) { return Math.sin(x); }",
        "  @Differentiable static double exp(double x) { return Math.exp(x); }",
        "  @Differentiable static double expm1(double x) { return Math.expm1(x); }",
        "  @Differentiable static double tanh(double x) { return Math.tanh(x); }",
        "  @Differentiable static double atan(double x) { return Math.atan(x); }",
        "  @Differentiable static double sqrt(double x) { return Math.sqrt(x); }",
        "  @Differentiable static double cbrt(double x) { return Math.cbrt(x); }",
        "  @Differentiable static double log(double x) { return Math.log(x); }",
        "  @Differentiable static double log10(double x) { return Math.log10(x); }",
        "  @Differentiable static double log1p(double x) { return Math.log1p(x); }",
        "  @Differentiable static double asin(double x) { return Math.asin(x); }",
        "  @Differentiable static double acos(double x) { return Math.acos(x); }",
        "  @Differentiable static double abs(double x) { return Math.abs(x); }",
        "  @Differentiable static double min(double x, double y) { return Math.min(x, y); }",
        "  @Differentiable static double max(double x, double y) { return Math.max(x, y); }",
        "  @Differentiable static double hypot(double x, double y) { return Math.hypot(x, y); }",
        "  @Differentiable static double atan2(double x, double y) { return Math.atan2(x, y); }",
        "  @Differentiable static double copySign(double x, double y) {"
            + " return Math.copySign(x, y); }",
        "  @Differentiable static double ieee(double x, double y) {"
            + " return Math.IEEEremainder(x, y); }",
        "  @Differentiable static double pow(double x, double y) { return Math.pow(x, y); }",
        "  @Differentiable static double powHalf(double x) { return Math.pow(x, 0.5); }",
        "  @Differentiable static double powSquare(double x) { return Math.pow(x, 2); }",
        "  @Differentiable static double powZero(double x) { return Math.pow(x, 0); }",
        "  @Differentiable static double powMinusOne(double x) { return Math.pow(x, -1); }",
        "  @Differentiable static double powThreeHalves(double x) { return Math.pow(x, 1.5); }",
        "  @Differentiable static double powOfTwo(double x) { return Math.pow(2, x); }",
        "  @Differentiable static double powOfZero(double x) { return Math.pow(0, x); }",
        "  @Differentiable static double half(double x) { return x * 0.5; }",
        "  @Differentiable static double fma(double x, double y, double z) {"
            + " return Math.fma(x, y, z); }",
        "  @Differentiable static double scalb(double x) { return Math.scalb(x, 1000); }",
        "  @Differentiable static double negatedIntMin(double x) {"
            + " return x * -Integer.MIN_VALUE; }",
        "  @Differentiable static double negatedLongMin(double x) {"
            + " return x * -Long.MIN_VALUE; }",
        "  @Differentiable static double negatedIntMax(double x) {"
            + " return x * -Integer.MAX_VALUE; }",
        "  @Differentiable static double negatedIntZero(double x) { return x * -0; }",
        "  @Differentiable static double chain(double x, double y) {"
            + " double a = Math.sin(x) * y; return Math.exp(a) + x; }")));
  }

  private static final double NAN = Double.NaN;
  private static final double INF = Double.POSITIVE_INFINITY;

  private static CompiledFunction f(String name, int arity) {
    return compiled.function(CLASS, name, arity);
  }

  /**
   * The value of every member equals the primal's bit for bit, the gradient is
   * {@code expected} (NaN, infinities and the sign of zero compared exactly), and forward mode
   * agrees with it entry by entry.
   */
  private static void assertAt(String name, double[] x, double expectedValue,
      double... expected) {
    CompiledFunction f = f(name, x.length);
    String where = name + " at " + Arrays.toString(x);
    double value = f.value(x);
    assertWithMessage("primal %s", where).that(value).isEqualTo(expectedValue);
    double[] out = new double[x.length];
    assertWithMessage("ValueAndGradient value %s", where)
        .that(f.valueAndGradient(x, out)).isEqualTo(value);
    double[] adjoints = new double[x.length];
    assertWithMessage("Pullback value %s", where)
        .that(f.pullback(x, 1.0, adjoints)).isEqualTo(value);
    double[] gradient = f.gradient(x);
    assertWithMessage("gradient %s", where).that(gradient).usingExactEquality()
        .containsExactly(expected).inOrder();
    assertWithMessage("ValueAndGradient gradient %s", where).that(out).usingExactEquality()
        .containsExactly(expected).inOrder();
    for (int i = 0; i < x.length; i++) {
      double[] unit = new double[x.length];
      unit[i] = 1.0;
      boolean someNonFinite = Arrays.stream(expected).anyMatch(g -> !Double.isFinite(g));
      double tangent = f.tangent(x, unit);
      assertWithMessage("tangent %s along %s, %s", tangent, i, where)
          .that(sameKind(tangent, expected[i]) || someNonFinite && Double.isNaN(tangent))
          .isTrue();
      assertWithMessage("pullback adjoint %s, %s", i, where)
          .that(sameKind(adjoints[i], expected[i])).isTrue();
    }
  }

  /** Equal as doubles, or both NaN (forward mode may differ from reverse in the sign of 0). */
  private static boolean sameKind(double a, double b) {
    return Double.isNaN(a) ? Double.isNaN(b) : a == b;
  }

  private static double[] at(double... x) {
    return x;
  }

  // ---- NaN and infinities --------------------------------------------------------------------

  @Test
  void nanPropagatesThroughOperationsWhosePartialDependsOnTheArgument() {
    assertAt("mul", at(NAN, 2), NAN, 2, NAN); // d/dx = y = 2; d/dy = x = NaN
    assertAt("div", at(NAN, 2), NAN, 0.5, NAN);
    assertAt("sin", at(NAN), NAN, NAN);
    assertAt("exp", at(NAN), NAN, NAN);
    assertAt("square", at(NAN), NAN, NAN);
    assertAt("sqrt", at(NAN), NAN, NAN);
    assertAt("chain", at(NAN, 1.5), NAN, NAN, NAN);
    assertAt("chain", at(0.5, NAN), NAN, NAN, NAN);
    assertAt("pow", at(NAN, 2), NAN, NAN, NAN);
    assertAt("hypot", at(NAN, 1), NAN, NAN, NAN);
    assertAt("atan2", at(NAN, 1), NAN, NAN, NAN);
    assertAt("fma", at(NAN, 2, 3), NAN, 2, NAN, 1);
  }

  /**
   * Documented exception: the partials of + - unary-minus and % by a constant-divisor argument
   * are constants (1, -1), so a NaN input gives a NaN value but finite gradient entries. This is
   * also what JAX and PyTorch give (d(x + y)/dx = 1 at x = NaN).
   */
  @Test
  void nanThroughLinearOperations() {
    assertAt("add", at(NAN, 1), NAN, 1, 1);
    assertAt("sub", at(1, NAN), NAN, 1, -1);
    assertAt("neg", at(NAN), NAN, -1);
    assertAt("id", at(NAN), NAN, 1);
    // x % y: d/dx = 1, d/dy = -rint((x - r) / y) = NaN.
    assertAt("rem", at(NAN, 2), NAN, 1, NAN);
  }

  /**
   * min and max choose their partials by comparison; with a NaN argument no argument wins, loses
   * or ties, and both partials are NaN, as the value is.
   */
  @Test
  void nanThroughMinAndMax() {
    assertAt("min", at(NAN, 1), NAN, NAN, NAN);
    assertAt("max", at(1, NAN), NAN, NAN, NAN);
    assertAt("min", at(NAN, NAN), NAN, NAN, NAN);
  }

  @Test
  void infinities() {
    assertAt("exp", at(INF), INF, INF);
    assertAt("exp", at(-INF), 0, 0);
    assertAt("square", at(INF), INF, INF);
    assertAt("square", at(-INF), INF, -INF);
    assertAt("tanh", at(INF), 1, 0); // 1 - tanh² = 0: the true limit
    assertAt("atan", at(-INF), -Math.PI / 2, 0);
    assertAt("sqrt", at(INF), INF, 0);
    assertAt("log", at(INF), INF, 0);
    assertAt("sin", at(INF), NAN, NAN);
    // inf - inf is NaN, but d(x - x)/dx = 1 - 1 = 0: a linear operation (see above).
    assertAt("cancel", at(INF), NAN, 0);
    assertAt("add", at(INF, -INF), NAN, 1, 1);
    assertAt("mul", at(INF, 0), NAN, 0, INF);
    assertAt("div", at(1, INF), 0, 0, -0.0);
  }

  // ---- signed zeros --------------------------------------------------------------------------

  @Test
  void negativeZero() {
    assertAt("id", at(-0.0), -0.0, 1);
    assertAt("neg", at(0.0), -0.0, -1);
    assertAt("mul", at(-0.0, 3), -0.0, 3, -0.0);
    assertAt("abs", at(-0.0), 0.0, -0.0); // signum(-0.0): the documented 0, with its sign
    assertAt("sqrt", at(0.0), 0.0, INF); // README: +infinity at 0
    assertAt("sqrt", at(-0.0), -0.0, -INF); // 1 / (2 * -0.0): the sign follows the primal's
    assertAt("cbrt", at(-0.0), -0.0, INF);
    assertAt("min", at(-0.0, 0.0), -0.0, 0.5, 0.5); // -0.0 == 0.0: a tie
    assertAt("max", at(0.0, -0.0), 0.0, 0.5, 0.5);
    assertAt("hypot", at(-0.0, 0.0), 0.0, 0, 0);
    assertAt("div", at(1, -0.0), -INF, -INF, -INF);
    assertAt("copySign", at(2, -0.0), -2, -1, 0);
  }

  // ---- magnitudes ----------------------------------------------------------------------------

  @Test
  void veryLargeAndVerySmallMagnitudes() {
    assertAt("square", at(1e200), INF, 2e200); // the value overflows, the derivative does not
    assertAt("mul", at(1e-300, 1e-300), 0, 1e-300, 1e-300); // the value underflows
    assertAt("half", at(Double.MIN_VALUE), 0, 0.5); // a subnormal halved rounds to 0
    assertAt("hypot", at(3e300, 4e300), 5e300, 0.6, 0.8); // hypot does not overflow, nor do its
    assertAt("hypot", at(3e-320, 4e-320), 5e-320, 0.6, 0.8); // partials, also for subnormals
    assertAt("exp", at(709), Math.exp(709), Math.exp(709));
    assertAt("exp", at(710), INF, INF);
    assertAt("log", at(Double.MIN_VALUE), Math.log(Double.MIN_VALUE), INF); // 1 / 4.9e-324
    assertAt("scalb", at(1e-300), Math.scalb(1e-300, 1000), Math.scalb(1.0, 1000));
    assertAt("atan", at(1e300), Math.atan(1e300), 0);
    assertAt("div", at(1, 1e-200), 1e200, 1e200, -INF); // -(1e200) / 1e-200 overflows
  }

  /**
   * {@code expm1'(x) = exp(x)}, a number far below zero, where {@code expm1(x)} is -1 or a few
   * units of the last place above: the partial was {@code expm1(x) + 1}, which cancels, so every
   * member gave 0 at -40 (the partial is 4.2e-18) and 1.1e-16 at -37 (8.5e-17).
   */
  @Test
  void expm1FarBelowZeroKeepsItsPartial() {
    for (double x : new double[] {-1, -10, -30, -37, -40, -700}) {
      assertAt("expm1", at(x), Math.expm1(x), Math.exp(x));
    }
  }

  /**
   * Negating the least {@code int} or {@code long} gives it back (JLS 15.15.4): {@code x *
   * -Integer.MIN_VALUE} is {@code x * -2147483648}. The partial derivative, which reads the
   * constant's number, took the negation in {@code double}: +2147483648, the opposite sign in
   * every member, with no error.
   */
  @Test
  void negatingTheLeastIntOrLongGivesItBackAsInJava() {
    assertAt("negatedIntMin", at(0.75), 0.75 * Integer.MIN_VALUE, Integer.MIN_VALUE);
    assertAt("negatedLongMin", at(0.75), 0.75 * Long.MIN_VALUE, Long.MIN_VALUE);
    assertAt("negatedIntMax", at(0.75), 0.75 * -Integer.MAX_VALUE, -Integer.MAX_VALUE);
    // an int's -0 is 0: the partial of x * -0 is +0.0, not -0.0
    assertAt("negatedIntZero", at(0.75), 0.0, 0.0);
  }

  // ---- domain edges --------------------------------------------------------------------------

  @Test
  void domainEdgesOfLogarithmsAndRoots() {
    assertAt("log", at(0.0), -INF, INF);
    assertAt("log", at(-1), NAN, -1); // 1/x is defined for x < 0 though log is not
    assertAt("log10", at(0.0), -INF, INF);
    assertAt("log1p", at(-1), -INF, INF);
    assertAt("sqrt", at(-1), NAN, NAN);
  }

  /**
   * Near |x| = 1 the partials of asin and acos, 1 / sqrt(1 - x²), keep their digits: 1 - x²
   * was {@code 1 - x * x}, whose {@code x * x} rounds away what the difference is made of, so
   * at x = 1 - 2^-27 every member gave 8192.0 where the partial is 8192.0000153 (1 - x² is
   * 2^-26 - 2^-54 there, a double: the expected numbers are exact).
   */
  @Test
  void arcSineAndArcCosineNearOneKeepTheirDigits() {
    for (double x : new double[] {1 - 0x1p-27, -(1 - 0x1p-27)}) {
      double partial = 1 / Math.sqrt(0x1p-26 - 0x1p-54);
      assertAt("asin", at(x), Math.asin(x), partial);
      assertAt("acos", at(x), Math.acos(x), -partial);
    }
    double x = 1 - 0x1p-40; // 1 - x² = 2^-39 - 2^-80, a double too
    assertAt("asin", at(x), Math.asin(x), 1 / Math.sqrt(0x1p-39 - 0x1p-80));
  }

  @Test
  void domainEdgesOfArcSineAndArcCosine() {
    assertAt("asin", at(1), Math.PI / 2, INF);
    assertAt("asin", at(-1), -Math.PI / 2, INF);
    assertAt("acos", at(1), 0, -INF);
    assertAt("acos", at(-1), Math.PI, -INF);
    assertAt("asin", at(1.5), NAN, NAN);
    assertAt("acos", at(-1.5), NAN, NAN);
  }

  @Test
  void powerWithAConstantExponent() {
    assertAt("powHalf", at(0.0), 0, INF); // 0.5 * 0^-0.5
    assertAt("powSquare", at(-3), 9, -6);
    assertAt("powZero", at(0.0), 1, 0); // README: c = 0 gives 0, not 0 * 0^-1
    assertAt("powMinusOne", at(0.0), INF, -INF);
    assertAt("powThreeHalves", at(-1), NAN, NAN); // 1.5 * (-1)^0.5
    assertAt("powOfTwo", at(3), 8, 8 * Math.log(2));
    assertAt("powOfZero", at(2), 0, 0); // README: pow(0, b) has d/db = 0
  }

  @Test
  void powerWithAVariableExponent() {
    assertAt("pow", at(0.0, 2), 0, 0, 0); // d/da = 2 * 0; d/db = 0 at a = 0 (README)
    assertAt("pow", at(0.0, 0.5), 0, INF, 0);
    assertAt("pow", at(0.0, 0), 1, 0, 0); // exponent 0: d/da = 0
    assertAt("pow", at(-2, 3), -8, 12, NAN); // a < 0: d/db = NaN (README)
    assertAt("pow", at(2, 0.5), Math.sqrt(2), 0.5 * Math.pow(2, -0.5), Math.sqrt(2) * Math.log(2));
  }

  // ---- kinks, extending LanguageTest -----------------------------------------------------------

  @Test
  void atan2AtTheOriginIsNaN() {
    assertAt("atan2", at(0.0, 0.0), 0, NAN, NAN); // README: atan2 jumps there
  }

  /**
   * atan2's partials, b / (a² + b²) and -a / (a² + b²), computed as written, square arguments
   * that underflow or overflow where the partials are numbers: at (0, 1e-170) the gradient was
   * {Infinity, NaN} for {1e170, 0}, at (3e-170, 4e-170) {Infinity, -Infinity}, at (0, 1e200)
   * {0.0, ...} for {1e-200, 0}. They are computed on the arguments scaled by max(|a|, |b|).
   */
  @Test
  void atan2AtExtremeMagnitudes() {
    assertNear("atan2", at(0.0, 1e-170), 1e170, 0);
    assertNear("atan2", at(3e-170, 4e-170), 1.6e169, -1.2e169);
    assertNear("atan2", at(-3e-160, 4e-160), 1.6e159, 1.2e159); // a² + b² is subnormal
    assertNear("atan2", at(0.0, 1e200), 1e-200, 0);
    assertNear("atan2", at(3e300, -4e300), -1.6e-301, -1.2e-301);
    assertNear("atan2", at(1e-300, 1e300), 1e-300, 0); // -1e-300 / 1e600 underflows: 0
  }

  /**
   * Every member's value is the primal's and its gradient within 4 ulps of {@code expected}
   * (exactly 0 where that is 0), reverse and forward mode alike.
   */
  private static void assertNear(String name, double[] x, double... expected) {
    CompiledFunction f = f(name, x.length);
    String where = name + " at " + Arrays.toString(x);
    double value = f.value(x);
    double[] out = new double[x.length];
    assertWithMessage("ValueAndGradient value %s", where)
        .that(f.valueAndGradient(x, out)).isEqualTo(value);
    double[] adjoints = new double[x.length];
    f.pullback(x, 1.0, adjoints);
    double[] gradient = f.gradient(x);
    for (int i = 0; i < x.length; i++) {
      double[] unit = new double[x.length];
      unit[i] = 1.0;
      double tolerance = 4 * Math.ulp(expected[i]);
      for (double actual : new double[] {gradient[i], out[i], adjoints[i], f.tangent(x, unit)}) {
        assertWithMessage("slot %s of %s in every member", i, where).that(actual)
            .isWithin(tolerance).of(expected[i]);
      }
    }
  }

  @Test
  void copySignAtZero() {
    assertAt("copySign", at(0.0, 3), 0, 0, 0);
    assertAt("copySign", at(-2, 3), 2, -1, 0);
  }

  @Test
  void remaindersAwayFromTheirJumps() {
    assertAt("rem", at(7.5, 2), 1.5, 1, -3);
    assertAt("rem", at(-7.5, 2), -1.5, 1, 3);
    assertAt("ieee", at(7.5, 2), -0.5, 1, -4);
    assertAt("ieee", at(7, 2), -1, 1, -4); // a tie: rint rounds the quotient 3.5 to even
  }
}
