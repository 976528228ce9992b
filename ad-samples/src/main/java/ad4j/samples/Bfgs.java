package ad4j.samples;

import java.util.Arrays;
import java.util.Objects;

/**
 * A small, plain BFGS minimiser with a backtracking (Armijo) line search, working on any
 * {@link Objective} that computes a value and its gradient, such as an ad4j-generated
 * {@code mValueAndGradient}. It keeps the dense inverse-Hessian approximation, so it suits the
 * few-variable problems of the samples (Nocedal and Wright, <i>Numerical Optimization</i>,
 * algorithm 6.1, with the initial scaling of their equation 6.20).
 */
public final class Bfgs {
  /** Armijo sufficient-decrease constant {@code c1}. */
  private static final double ARMIJO = 1e-4;

  private Bfgs() {}

  /** A function of a vector that also computes its gradient. */
  @FunctionalInterface
  public interface Objective {
    /**
     * Evaluates the function.
     *
     * @param x the point; must not be modified
     * @param gradient receives the gradient at {@code x}, of the length of {@code x}
     * @return the value at {@code x}
     */
    double valueAndGradient(double[] x, double[] gradient);
  }

  /** Receives the state at the start of each iteration. */
  @FunctionalInterface
  public interface Listener {
    /**
     * Called once per iteration, before the convergence test.
     *
     * @param iteration the iteration number, from 0
     * @param value the function value at the current point
     * @param gradientNorm the Euclidean norm of the gradient there
     * @param x the current point (a copy)
     */
    void iteration(int iteration, double value, double gradientNorm, double[] x);
  }

  /**
   * The outcome of a minimisation.
   *
   * @param x the final point
   * @param value the function value at {@code x}
   * @param gradientNorm the gradient norm at {@code x}
   * @param iterations the number of BFGS steps taken
   * @param evaluations the number of function-and-gradient evaluations
   * @param converged whether the gradient norm fell below the tolerance
   */
  public record Result(
      double[] x, double value, double gradientNorm, int iterations, int evaluations,
      boolean converged) {
    /** Copies {@code x}, so that a result is not changed by its creator. */
    public Result {
      x = x.clone();
    }

    /**
     * Returns the final point.
     *
     * @return a copy of the final point
     */
    @Override
    public double[] x() {
      return x.clone();
    }
  }

  /**
   * Minimises {@code f} from {@code start} until the gradient norm is at most
   * {@code gradientTolerance} or {@code maxIterations} steps have been taken.
   *
   * @param f the objective
   * @param start the starting point; not modified
   * @param gradientTolerance the gradient norm at which to stop
   * @param maxIterations the largest number of steps
   * @param listener told about every iteration; may be null
   * @return the final point and statistics
   */
  public static Result minimize(
      Objective f, double[] start, double gradientTolerance, int maxIterations,
      Listener listener) {
    Objects.requireNonNull(f, "f");
    int n = start.length;
    double[] x = start.clone();
    double[] g = new double[n];
    double fx = f.valueAndGradient(x, g);
    int evaluations = 1;
    double[][] h = identity(n);
    double[] xNew = new double[n];
    double[] gNew = new double[n];
    double[] p = new double[n];
    double[] s = new double[n];
    double[] y = new double[n];
    for (int k = 0; ; k++) {
      double gNorm = norm(g);
      if (listener != null) {
        listener.iteration(k, fx, gNorm, x.clone());
      }
      if (gNorm <= gradientTolerance || k == maxIterations) {
        return new Result(x, fx, gNorm, k, evaluations, gNorm <= gradientTolerance);
      }
      // Search direction p = -H g; fall back to steepest descent if it is not downhill.
      multiply(h, g, p);
      negate(p);
      double slope = dot(g, p);
      if (!(slope < 0)) {
        h = identity(n);
        System.arraycopy(g, 0, p, 0, n);
        negate(p);
        slope = -gNorm * gNorm;
      }
      // Backtracking line search with the Armijo condition, halving the step.
      double alpha = 1;
      double fNew;
      while (true) {
        for (int i = 0; i < n; i++) {
          xNew[i] = x[i] + alpha * p[i];
        }
        fNew = f.valueAndGradient(xNew, gNew);
        evaluations++;
        if (fNew <= fx + ARMIJO * alpha * slope) {
          break;
        }
        alpha *= 0.5;
        if (alpha < 1e-20) {
          return new Result(x, fx, gNorm, k, evaluations, false);
        }
      }
      for (int i = 0; i < n; i++) {
        s[i] = xNew[i] - x[i];
        y[i] = gNew[i] - g[i];
      }
      double sy = dot(s, y);
      // Update only when the curvature condition holds, which keeps H positive definite.
      if (sy > 1e-12 * norm(s) * norm(y)) {
        if (k == 0) {
          double scale = sy / dot(y, y);
          for (double[] row : h) {
            Arrays.fill(row, 0);
          }
          for (int i = 0; i < n; i++) {
            h[i][i] = scale;
          }
        }
        update(h, s, y, 1 / sy);
      }
      System.arraycopy(xNew, 0, x, 0, n);
      System.arraycopy(gNew, 0, g, 0, n);
      fx = fNew;
    }
  }

  /** H := (I - rho s yᵀ) H (I - rho y sᵀ) + rho s sᵀ. */
  private static void update(double[][] h, double[] s, double[] y, double rho) {
    int n = s.length;
    double[] hy = new double[n];
    multiply(h, y, hy);
    double yhy = dot(y, hy);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        h[i][j] += -rho * (s[i] * hy[j] + hy[i] * s[j]) + (rho * rho * yhy + rho) * s[i] * s[j];
      }
    }
  }

  private static double[][] identity(int n) {
    double[][] m = new double[n][n];
    for (int i = 0; i < n; i++) {
      m[i][i] = 1;
    }
    return m;
  }

  private static void multiply(double[][] m, double[] v, double[] out) {
    for (int i = 0; i < v.length; i++) {
      out[i] = dot(m[i], v);
    }
  }

  private static void negate(double[] v) {
    for (int i = 0; i < v.length; i++) {
      v[i] = -v[i];
    }
  }

  private static double dot(double[] a, double[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }

  private static double norm(double[] v) {
    return Math.sqrt(dot(v, v));
  }
}
