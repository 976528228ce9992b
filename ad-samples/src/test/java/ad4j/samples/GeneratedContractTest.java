package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ad4j.runtime.GradientCheck;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract of the four generated members (see DESIGN.md), checked on every sample method at
 * several seeded random points: gradient against the hand-derived one and against finite
 * differences of the user's own method, forward against reverse mode, bit-for-bit values,
 * accumulation in the pullback, and the array-length checks.
 */
class GeneratedContractTest {
  private static final int POINTS = 6;

  static Stream<SampleCase> cases() {
    return SampleCase.all().stream();
  }

  private static double[][] points(SampleCase c) {
    Random random = new Random(c.toString().hashCode());
    double[][] points = new double[POINTS][];
    for (int k = 0; k < POINTS; k++) {
      points[k] = c.points().apply(random);
    }
    return points;
  }

  private static double[] direction(Random random, int n) {
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = 2 * random.nextDouble() - 1;
    }
    return d;
  }

  private static String at(double[] x) {
    return " at " + Arrays.toString(x);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void gradientMatchesAnalyticDerivatives(SampleCase c) {
    for (double[] x : points(c)) {
      double[] ad = c.gradient().apply(x);
      double[] analytic = c.analytic().apply(x);
      assertEquals(c.arity(), ad.length);
      for (int i = 0; i < ad.length; i++) {
        double error = GradientCheck.relativeError(ad[i], analytic[i]);
        assertTrue(error <= 1e-12, c + " d/dp" + i + at(x) + ": ad4j " + ad[i]
            + " vs analytic " + analytic[i] + " (error " + error + ")");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void gradientMatchesFiniteDifferencesOfTheUsersMethod(SampleCase c) {
    for (double[] x : points(c)) {
      GradientCheck.check(c.user(), x, c.gradient().apply(x)).assertWithin(1e-8);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void tangentMatchesFiniteDifferencesOfTheUsersMethod(SampleCase c) {
    Random random = new Random(7);
    for (double[] x : points(c)) {
      double[] d = direction(random, c.arity());
      GradientCheck.checkDirectional(c.user(), x, d, c.tangent().apply(x, d)).assertWithin(1e-8);
    }
  }

  /** The dot-product test: ȳ · (J ẋ) = (Jᵀ ȳ) · ẋ, forward mode against reverse mode. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void forwardAndReverseModeAgree(SampleCase c) {
    Random random = new Random(11);
    for (double[] x : points(c)) {
      double[] xDot = direction(random, c.arity());
      double yBar = 2 * random.nextDouble() - 1;
      double forward = yBar * c.tangent().apply(x, xDot);
      double[] xBar = new double[c.arity()];
      c.pullback().apply(x, yBar, xBar);
      double reverse = 0;
      double scale = 0;
      for (int i = 0; i < xBar.length; i++) {
        reverse += xBar[i] * xDot[i];
        scale += Math.abs(xBar[i] * xDot[i]);
      }
      assertEquals(reverse, forward, 1e-12 * scale + Double.MIN_NORMAL,
          c + at(x) + " along " + Arrays.toString(xDot));
      // Also against the gradient array (tangent = gradient . direction).
      double[] gradient = c.gradient().apply(x);
      double dot = 0;
      for (int i = 0; i < gradient.length; i++) {
        dot += gradient[i] * xDot[i];
      }
      assertEquals(dot, c.tangent().apply(x, xDot), 1e-12 * (scale / Math.abs(yBar)) + Double.MIN_NORMAL);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void valuesAreBitForBitTheUsersValue(SampleCase c) {
    for (double[] x : points(c)) {
      long expected = Double.doubleToRawLongBits(c.user().applyAsDouble(x));
      double[] g = new double[c.arity()];
      assertEquals(expected, Double.doubleToRawLongBits(c.valueAndGradient().apply(x, g)),
          c + " valueAndGradient" + at(x));
      double[] adjoints = new double[c.arity()];
      assertEquals(expected, Double.doubleToRawLongBits(c.pullback().apply(x, 0.5, adjoints)),
          c + " pullback" + at(x));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theThreeReverseEntryPointsGiveTheSameGradient(SampleCase c) {
    for (double[] x : points(c)) {
      double[] fromGradient = c.gradient().apply(x);
      double[] fromValueAndGradient = new double[c.arity()];
      c.valueAndGradient().apply(x, fromValueAndGradient);
      double[] fromPullback = new double[c.arity()];
      c.pullback().apply(x, 1.0, fromPullback);
      assertArrayEquals(fromGradient, fromValueAndGradient, 0.0, c + at(x));
      assertArrayEquals(fromGradient, fromPullback, 0.0, c + at(x));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void pullbackAccumulates(SampleCase c) {
    Random random = new Random(13);
    for (double[] x : points(c)) {
      double[] gradient = c.gradient().apply(x);
      double[] prefilled = direction(random, c.arity());
      double[] adjoints = prefilled.clone();
      c.pullback().apply(x, 2.0, adjoints);
      c.pullback().apply(x, 3.0, adjoints);
      for (int i = 0; i < adjoints.length; i++) {
        double expected = prefilled[i] + 5 * gradient[i];
        double scale = Math.abs(prefilled[i]) + 5 * Math.abs(gradient[i]);
        assertEquals(expected, adjoints[i], 1e-14 * scale + Double.MIN_NORMAL,
            c + " adjoints[" + i + "]" + at(x));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void longerArraysAreAcceptedAndTheirTailIsLeftAlone(SampleCase c) {
    double[] x = points(c)[0];
    double[] gradient = new double[c.arity() + 2];
    gradient[c.arity()] = 42;
    gradient[c.arity() + 1] = -42;
    c.valueAndGradient().apply(x, gradient);
    assertArrayEquals(c.gradient().apply(x), Arrays.copyOf(gradient, c.arity()), 0.0);
    assertEquals(42, gradient[c.arity()]);
    assertEquals(-42, gradient[c.arity() + 1]);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void tooShortArraysAreRejectedWithAMessageNamingMethodAndLengths(SampleCase c) {
    double[] x = points(c)[0];
    for (int length : new int[] {0, c.arity() - 1}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> c.valueAndGradient().apply(x, new double[length]));
      assertMessage(e, c.gradClass() + "." + c.method() + "ValueAndGradient", length, c.arity());
      double[] adjoints = new double[length];
      e = assertThrows(IllegalArgumentException.class,
          () -> c.pullback().apply(x, 1.0, adjoints));
      assertMessage(e, c.gradClass() + "." + c.method() + "Pullback", length, c.arity());
    }
  }

  private static void assertMessage(Exception e, String method, int length, int needed) {
    String message = e.getMessage();
    assertTrue(message.contains(method), "should name " + method + ": " + message);
    assertTrue(message.contains("length " + length), "should give length " + length + ": " + message);
    assertTrue(java.util.regex.Pattern.compile("\\b" + needed + "\\b").matcher(message).find(),
        "should give the needed length " + needed + ": " + message);
  }
}
