package ad4j.samples;

import ad4j.Differentiable;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Newton's method on the Rosenbrock function with the generated gradient and Hessian
 * ({@code @Differentiable(order = 2)}): from the classic start (-1.2, 1) a damped Newton step,
 * halved until the value decreases, reaches the minimum (1, 1) in a few dozen iterations and
 * converges quadratically at the end, in fewer iterations than BFGS with the gradient alone
 * ({@link RosenbrockBfgs}).
 */
public final class NewtonRosenbrock {
  private NewtonRosenbrock() {}

  /** The gradient norm at which the printed run stops: BFGS's, for a fair count. */
  static final double TOLERANCE = RosenbrockBfgs.TOLERANCE;

  /** {@code (1 - x)² + 100 (y - x²)²}, with its Hessian generated too. */
  @Differentiable(order = 2)
  public static double value(double x, double y) {
    double a = 1 - x;
    double b = y - x * x;
    return a * a + 100 * b * b;
  }

  /** What each iteration reports: its number, the value and the gradient's norm. */
  public interface Progress {
    void iteration(int k, double value, double gradientNorm);
  }

  /**
   * Minimises from {@code (x, y)}: at most {@code maxIterations} Newton steps, stopping when the
   * gradient's norm is below {@code tolerance}. Returns the point reached.
   */
  public static double[] minimize(double x, double y, double tolerance, int maxIterations,
      Progress progress) {
    double[] gradient = new double[2];
    double[][] hessian = new double[2][2];
    for (int k = 0; k < maxIterations; k++) {
      double f = NewtonRosenbrockGrad.valueValueGradientAndHessian(x, y, gradient, hessian);
      double norm = Math.hypot(gradient[0], gradient[1]);
      if (progress != null) {
        progress.iteration(k, f, norm);
      }
      if (norm < tolerance) {
        break;
      }
      // solve H d = -g (2 x 2, by Cramer's rule)
      double det = hessian[0][0] * hessian[1][1] - hessian[0][1] * hessian[1][0];
      double dx = (-gradient[0] * hessian[1][1] + gradient[1] * hessian[0][1]) / det;
      double dy = (-gradient[1] * hessian[0][0] + gradient[0] * hessian[1][0]) / det;
      double step = 1;
      while (step > 1e-12 && value(x + step * dx, y + step * dy) >= f) {
        step /= 2;
      }
      x += step * dx;
      y += step * dy;
    }
    return new double[] {x, y};
  }

  /**
   * Prints the minimisation from (-1.2, 1): where it ends, after how many iterations, and the
   * gradient's norm over the last iterations, which falls quadratically; then how many
   * iterations BFGS ({@link RosenbrockBfgs}, gradient only) takes on the same problem.
   *
   * @param out where to print
   */
  public static void print(PrintStream out) {
    List<Double> norms = new ArrayList<>();
    double[] minimum = minimize(-1.2, 1, TOLERANCE, 100, (k, value, norm) -> norms.add(norm));
    List<String> last = new ArrayList<>();
    for (double norm : norms.subList(Math.max(0, norms.size() - 4), norms.size())) {
      last.add(String.format(Locale.ROOT, "%.1e", norm));
    }
    out.println("Newton's method on Rosenbrock with the generated Hessian"
        + " (@Differentiable(order = 2)), from (-1.2, 1)");
    out.println(String.format(Locale.ROOT, "  (%.6f, %.6f) in %d iterations; gradient norms of"
        + " the last ones: %s", minimum[0], minimum[1], norms.size() - 1,
        String.join(", ", last)));
    Bfgs.Result bfgs = RosenbrockBfgs.run(null);
    out.println(String.format(Locale.ROOT, "  BFGS on the same function from the same start, to the"
        + " same gradient norm %.0e: %d iterations", TOLERANCE, bfgs.iterations()));
  }
}
