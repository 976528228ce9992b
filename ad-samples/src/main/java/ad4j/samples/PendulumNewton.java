package ad4j.samples;

import ad4j.Differentiable;
import ad4j.NoDerivative;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Fitting a pendulum to observed angles by Newton's method: the misfit integrates the motion
 * with a classical Runge-Kutta step written as a helper on an array state, returning
 * {@code double[]}, and Newton's method takes its exact gradient and Hessian from the generated
 * {@code misfitValueGradientAndHessian}. The helpers are of order 2 too: a vector function gets
 * no Hessian of its own, only the second-order code its callers' Hessians run through it.
 */
public final class PendulumNewton {
  private PendulumNewton() {}

  /** The parameters the observations were made with: initial angle, velocity, stiffness. */
  static final double[] TRUTH = {1.0, 0.3, 4.0};

  /** Where the fit starts. */
  static final double[] START = {0.6, 0.0, 3.0};

  /** The time step of the integration. */
  static final double STEP = 0.05;

  /** The gradient norm at which the fit stops. */
  static final double TOLERANCE = 1e-10;

  /**
   * The pendulum's equations of motion, {@code θ' = ω}, {@code ω' = -k sin θ}.
   *
   * @param y the state {@code {θ, ω}}
   * @param k the stiffness (gravity over length)
   * @return the state's rate of change
   */
  @Differentiable(order = 2)
  static double[] field(double[] y, double k) {
    return new double[] {y[1], -k * Math.sin(y[0])};
  }

  /**
   * One classical Runge-Kutta step of the pendulum.
   *
   * @param y the state {@code {θ, ω}}
   * @param k the stiffness
   * @param h the time step
   * @return the state after the step
   */
  @Differentiable(order = 2)
  static double[] rk4Step(double[] y, double k, @NoDerivative double h) {
    double[] k1 = field(y, k);
    double[] t = new double[2];
    for (int i = 0; i < 2; i++) {
      t[i] = y[i] + 0.5 * h * k1[i];
    }
    double[] k2 = field(t, k);
    for (int i = 0; i < 2; i++) {
      t[i] = y[i] + 0.5 * h * k2[i];
    }
    double[] k3 = field(t, k);
    for (int i = 0; i < 2; i++) {
      t[i] = y[i] + h * k3[i];
    }
    double[] k4 = field(t, k);
    double[] next = new double[2];
    for (int i = 0; i < 2; i++) {
      next[i] = y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    }
    return next;
  }

  /**
   * Half the sum of squared differences between the angles the pendulum reaches, one step of
   * {@code h} after another, and the observed ones.
   *
   * @param p the parameters {@code {θ0, ω0, k}}
   * @param observed the observed angle after each step
   * @param h the time step
   * @return the misfit
   */
  @Differentiable(order = 2)
  public static double misfit(double[] p, @NoDerivative double[] observed,
      @NoDerivative double h) {
    double[] y = {p[0], p[1]};
    double sum = 0;
    for (int i = 0; i < observed.length; i++) {
      double[] next = rk4Step(y, p[2], h);
      y[0] = next[0];
      y[1] = next[1];
      double d = y[0] - observed[i];
      sum += d * d;
    }
    return 0.5 * sum;
  }

  /**
   * The angles a pendulum of parameters {@code p} reaches after each of {@code steps} steps.
   *
   * @param p the parameters {@code {θ0, ω0, k}}
   * @param steps the number of steps
   * @param h the time step
   * @return the angles
   */
  static double[] angles(double[] p, int steps, double h) {
    double[] y = {p[0], p[1]};
    double[] angles = new double[steps];
    for (int i = 0; i < steps; i++) {
      y = rk4Step(y, p[2], h);
      angles[i] = y[0];
    }
    return angles;
  }

  /** What each iteration reports: its number, the misfit and the gradient's norm. */
  public interface Progress {
    void iteration(int k, double misfit, double gradientNorm);
  }

  /**
   * Newton's method from {@code start}: at most {@code maxIterations} steps {@code H d = -g},
   * each halved until the misfit decreases (along {@code -g} where {@code d} does not descend),
   * stopping when the gradient's norm is below {@code tolerance}. Returns the parameters reached.
   */
  public static double[] fit(double[] start, double[] observed, double h, double tolerance,
      int maxIterations, Progress progress) {
    double[] p = start.clone();
    double[] gradient = new double[3];
    double[][] hessian = new double[3][3];
    for (int k = 0; k < maxIterations; k++) {
      double f = PendulumNewtonGrad.misfitValueGradientAndHessian(p, observed, h, gradient,
          hessian);
      double norm = Math.sqrt(dot(gradient, gradient));
      if (progress != null) {
        progress.iteration(k, f, norm);
      }
      if (norm < tolerance) {
        break;
      }
      double[] d = solve(hessian, gradient);
      if (dot(d, gradient) >= 0) {
        for (int i = 0; i < 3; i++) {
          d[i] = -gradient[i];
        }
      }
      double step = 1;
      double[] trial = new double[3];
      while (true) {
        for (int i = 0; i < 3; i++) {
          trial[i] = p[i] + step * d[i];
        }
        if (step < 1e-12 || misfit(trial, observed, h) < f) {
          break;
        }
        step /= 2;
      }
      p = trial.clone();
    }
    return p;
  }

  /** The solution {@code d} of {@code a d = -b} by Gaussian elimination with pivoting. */
  static double[] solve(double[][] a, double[] b) {
    int n = b.length;
    double[][] m = new double[n][n + 1];
    for (int i = 0; i < n; i++) {
      System.arraycopy(a[i], 0, m[i], 0, n);
      m[i][n] = -b[i];
    }
    for (int c = 0; c < n; c++) {
      int pivot = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) {
          pivot = r;
        }
      }
      double[] swap = m[c];
      m[c] = m[pivot];
      m[pivot] = swap;
      for (int r = c + 1; r < n; r++) {
        double factor = m[r][c] / m[c][c];
        for (int j = c; j <= n; j++) {
          m[r][j] -= factor * m[c][j];
        }
      }
    }
    double[] x = new double[n];
    for (int i = n - 1; i >= 0; i--) {
      double s = m[i][n];
      for (int j = i + 1; j < n; j++) {
        s -= m[i][j] * x[j];
      }
      x[i] = s / m[i][i];
    }
    return x;
  }

  private static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  /**
   * Prints, on one line, the fit to 40 angles of the pendulum {@link #TRUTH} from
   * {@link #START}: the parameters found, the iterations and the last gradient norms.
   *
   * @param out where to print
   */
  static void print(PrintStream out) {
    double[] observed = angles(TRUTH, 40, STEP);
    List<Double> norms = new ArrayList<>();
    double[] p = fit(START, observed, STEP, TOLERANCE, 50, (k, f, g) -> norms.add(g));
    List<String> last = new ArrayList<>();
    for (double norm : norms.subList(Math.max(0, norms.size() - 3), norms.size())) {
      last.add(String.format(Locale.ROOT, "%.0e", norm));
    }
    out.println(String.format(Locale.ROOT, "  A pendulum fitted to 40 angles through an RK4 step"
        + " returning double[]: (theta0, omega0, k) = (%.6f, %.6f, %.6f) in %d iterations"
        + " (gradient norms %s)", p[0], p[1], p[2], norms.size() - 1, String.join(", ", last)));
  }
}
