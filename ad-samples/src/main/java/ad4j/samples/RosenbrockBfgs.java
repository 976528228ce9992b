package ad4j.samples;

import java.io.PrintStream;

/**
 * Minimises {@link Rosenbrock#value} with {@link Bfgs} from the classic start {@code (-1.2, 1)},
 * using the generated {@code RosenbrockGrad.valueValueAndGradient} for value and gradient in one
 * call.
 */
public final class RosenbrockBfgs {
  /** The classic starting point. */
  public static final double[] START = {-1.2, 1};

  /** The gradient norm at which the minimisation stops. */
  public static final double TOLERANCE = 1e-10;

  private RosenbrockBfgs() {}

  /** Rosenbrock's function and gradient, as one {@link Bfgs.Objective}. */
  public static final Bfgs.Objective OBJECTIVE =
      (x, gradient) -> RosenbrockGrad.valueValueAndGradient(x[0], x[1], gradient);

  /**
   * Runs the minimisation.
   *
   * @param listener told about every iteration; may be null
   * @return the result
   */
  public static Bfgs.Result run(Bfgs.Listener listener) {
    return Bfgs.minimize(OBJECTIVE, START, TOLERANCE, 200, listener);
  }

  /**
   * Prints the progress every five iterations and the final point.
   *
   * @param out where to print
   */
  public static void print(PrintStream out) {
    out.println("Rosenbrock (1-x)^2 + 100(y-x^2)^2 by BFGS + Armijo backtracking from (-1.2, 1)");
    out.println("   iter  f                       |grad|");
    Bfgs.Result result = run((k, f, gNorm, x) -> {
      if (k % 5 == 0) {
        out.printf(java.util.Locale.ROOT, "  %5d  %-22s  %s%n", k, Fmt.num(f), Fmt.err(gNorm));
      }
    });
    double[] x = result.x();
    out.printf(java.util.Locale.ROOT,
        "  final  %-22s  %s   after %d iterations, %d evaluations, converged: %b%n",
        Fmt.num(result.value()), Fmt.err(result.gradientNorm()), result.iterations(),
        result.evaluations(), result.converged());
    out.println("  x* = " + String.format(java.util.Locale.ROOT, "(%.15f, %.15f)", x[0], x[1])
        + ", distance to (1, 1) = " + Fmt.err(Math.hypot(x[0] - 1, x[1] - 1)));
  }
}
