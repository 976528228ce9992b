package ad4j.processor.testing;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.runtime.GradientCheck;
import java.util.Arrays;
import java.util.List;

/**
 * The checks every generated derivative must pass at a point, against the user's original
 * method: values bit for bit, the gradient against finite differences, and the four generated
 * members consistent with each other (the dot-product test between forward and reverse mode).
 */
public final class DerivativeChecks {
  /** Tolerance of the gradient against {@link GradientCheck}'s extrapolated differences. */
  public static final double NUMERIC_TOLERANCE = 1e-7;

  /** Tolerance between forward and reverse mode, which differ only by rounding. */
  public static final double MODE_TOLERANCE = 1e-12;

  private DerivativeChecks() {}

  /** All checks at {@code x}. */
  public static void checkAt(CompiledFunction f, double... x) {
    checkAt(f, f, NUMERIC_TOLERANCE, x);
  }

  /**
   * All checks of each method {@code names} of {@code userClass}, as many parameters as a point
   * has, at each of {@code points}.
   */
  public static void checkEachAt(InProcessCompiler.Compiled compiled, String userClass,
      List<String> names, double[]... points) {
    for (String name : names) {
      CompiledFunction f = compiled.function(userClass, name, points[0].length);
      for (double[] point : points) {
        checkAt(f, point);
      }
    }
  }

  /**
   * All checks at {@code x}, with the gradient compared against finite differences of
   * {@code reference} instead of {@code f} itself, to {@code tolerance}: for a function in
   * {@code float} arithmetic, whose own differences are rounding noise, the same function
   * written in {@code double}.
   */
  public static void checkAt(CompiledFunction f, CompiledFunction reference, double tolerance,
      double... x) {
    String where = f + " at " + Arrays.toString(x);
    double value = f.value(x);
    double[] gradient = f.gradient(x);

    double[] written = new double[f.arity()];
    Arrays.fill(written, Double.NaN); // every element must be overwritten
    assertWithMessage("value of valueAndGradient, %s", where)
        .that(f.valueAndGradient(x, written)).isEqualTo(value);
    assertWithMessage("gradient of valueAndGradient, %s", where)
        .that(written).usingExactEquality().containsExactly(gradient).inOrder();

    GradientCheck.check(reference.asFunction(), x, gradient).assertWithin(tolerance);
    checkPullback(f, x, value, gradient, where);
    checkTangent(f, x, gradient, where);
  }

  /** mPullback returns the value and adds seed * gradient to what the array held. */
  private static void checkPullback(CompiledFunction f, double[] x, double value,
      double[] gradient, String where) {
    double seed = -1.75;
    double[] adjoints = new double[f.arity()];
    for (int i = 0; i < adjoints.length; i++) {
      adjoints[i] = 0.5 * i - 0.25;
    }
    double[] before = adjoints.clone();
    assertWithMessage("value of pullback, %s", where)
        .that(f.pullback(x, seed, adjoints)).isEqualTo(value);
    for (int i = 0; i < adjoints.length; i++) {
      double expected = before[i] + seed * gradient[i];
      assertWithMessage("pullback adjoint %s, %s", i, where)
          .that(adjoints[i]).isWithin(MODE_TOLERANCE * scale(expected, seed * gradient[i]))
          .of(expected);
    }
  }

  /** Dot-product test: the tangent along v equals gradient . v (forward = reverse mode). */
  private static void checkTangent(CompiledFunction f, double[] x, double[] gradient,
      String where) {
    double[][] directions = new double[f.arity() + 1][f.arity()];
    for (int i = 0; i < f.arity(); i++) {
      directions[i][i] = 1.0; // unit vectors: each partial in forward mode
      directions[f.arity()][i] = 0.3 - 0.7 * i; // and a mixed direction
    }
    for (double[] v : directions) {
      double dot = 0;
      double magnitude = 0;
      for (int i = 0; i < v.length; i++) {
        dot += gradient[i] * v[i];
        magnitude += Math.abs(gradient[i] * v[i]);
      }
      assertWithMessage("tangent along %s, %s", Arrays.toString(v), where)
          .that(f.tangent(x, v)).isWithin(MODE_TOLERANCE * scale(magnitude)).of(dot);
    }
  }

  private static double scale(double... magnitudes) {
    double scale = 1.0;
    for (double m : magnitudes) {
      scale = Math.max(scale, Math.abs(m));
    }
    return scale;
  }
}
