package ad4j.processor.testing;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.runtime.GradientCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.ToDoubleFunction;

/**
 * Compares a gradient with finite differences of a random program, telling apart a wrong
 * gradient from a point where finite differences cannot judge: where the stencil crosses a
 * branch, kink or jump of the program, or where the estimates do not converge.
 */
public final class FiniteDifferenceComparison {
  /** How a comparison ended, when it did not fail. */
  public enum Outcome {
    /** Agreement with GradientCheck's estimate. */
    FULLY_CHECKED,
    /** Agreement with an estimate from smaller steps. */
    REFINED,
    /** The stencil crossed a point where the program is not smooth: not judged. */
    STRADDLES,
    /** The estimates at the three step sizes disagree with each other: not judged. */
    NOT_CONVERGED
  }

  /** Step scales of the finer estimates: 16 and 256 times smaller steps. */
  private static final double[] FINER_SCALES = {1.0 / 16, 1.0 / 256};

  private FiniteDifferenceComparison() {}

  /**
   * Compares {@code gradient} at {@code x} with finite differences of {@code watched}, which
   * raises {@code straddled} when an evaluation takes another path than {@code x}'s. Fails
   * (with {@code where} in the message) when the estimates agree with each other and not with
   * the gradient.
   */
  public static Outcome compare(ToDoubleFunction<double[]> watched, BooleanSupplier straddled,
      double[] x, double[] gradient, double tolerance, String where) {
    GradientCheck.Result result = GradientCheck.check(watched, x, gradient);
    if (straddled.getAsBoolean()) {
      return Outcome.STRADDLES;
    }
    if (result.worstError() <= tolerance) {
      return Outcome.FULLY_CHECKED;
    }
    // GradientCheck's steps reach 3% of max(1, |x_i|); a function that varies faster than that
    // (sin(97 x)) needs smaller ones. Estimate again with the coordinates scaled down 16 and 256
    // times (steps 16 and 256 times smaller).
    List<double[]> estimates = new ArrayList<>();
    estimates.add(result.numeric());
    for (double s : FINER_SCALES) {
      ToDoubleFunction<double[]> scaled = p -> {
        double[] q = new double[p.length];
        for (int i = 0; i < p.length; i++) {
          q[i] = x[i] + s * (p[i] - x[i]);
        }
        return watched.applyAsDouble(q);
      };
      double[] numeric = GradientCheck.numericGradient(scaled, x);
      for (int i = 0; i < numeric.length; i++) {
        numeric[i] /= s;
      }
      if (straddled.getAsBoolean()) {
        break;
      }
      estimates.add(numeric);
      if (worstError(gradient, numeric) <= tolerance) {
        return Outcome.REFINED;
      }
    }
    if (straddled.getAsBoolean() || !consistent(estimates, tolerance)) {
      return Outcome.NOT_CONVERGED;
    }
    assertWithMessage("gradient vs finite differences %s\n%s\nfiner estimates: %s", where, result,
        estimates.stream().map(Arrays::toString).toList())
        .that(result.worstError()).isAtMost(tolerance);
    throw new AssertionError("unreachable: the assertion above fails");
  }

  private static double worstError(double[] claimed, double[] numeric) {
    double worst = 0;
    for (int i = 0; i < claimed.length; i++) {
      worst = Math.max(worst, GradientCheck.relativeError(claimed[i], numeric[i]));
    }
    return worst;
  }

  /** Whether the finite-difference estimates at the three scales agree with each other. */
  private static boolean consistent(List<double[]> estimates, double tolerance) {
    for (double[] a : estimates) {
      for (double[] b : estimates) {
        if (worstError(a, b) > tolerance) {
          return false;
        }
      }
    }
    return true;
  }
}
