package ad4j.samples.bench;

import ad4j.Differentiable;
import ad4j.NoDerivative;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.IntStream;

/**
 * Functions written with lambdas and streams, each beside its twin written with scalars and
 * loops, and the scalar twin of the spring-mass sample over {@code record Vec3}
 * ({@link ad4j.samples.SpringMass}), for {@code ValuesBench}: ad4j flattens records, inlines
 * functions and lowers streams in its front end, so the generated derivatives of a pair should
 * cost the same.
 */
public final class ValueFunctions {
  private ValueFunctions() {}

  /**
   * {@link ad4j.samples.SpringMass#energyAfter}, the spring over {@code record Vec3}, written
   * with scalars.
   *
   * @param px p's x
   * @param py p's y
   * @param pz p's z
   * @param qx q's x
   * @param qy q's y
   * @param qz q's z
   * @param ux u's x
   * @param uy u's y
   * @param uz u's z
   * @param vx v's x
   * @param vy v's y
   * @param vz v's z
   * @param k the stiffness
   * @param dt the step
   * @param steps the number of steps
   * @return the energy at the end
   */
  @Differentiable
  public static double springScalars(double px, double py, double pz, double qx, double qy,
      double qz, double ux, double uy, double uz, double vx, double vy, double vz, double k,
      double dt, int steps) {
    for (int i = 0; i < steps; i++) {
      double dx = qx - px;
      double dy = qy - py;
      double dz = qz - pz;
      double length = Math.sqrt(dx * dx + dy * dy + dz * dz);
      double c = k * (length - 1) / length;
      double fx = c * dx;
      double fy = c * dy;
      double fz = c * dz;
      ux = ux + fx * dt;
      uy = uy + fy * dt;
      uz = uz + fz * dt;
      vx = vx - fx * dt;
      vy = vy - fy * dt;
      vz = vz - fz * dt;
      px = px + ux * dt;
      py = py + uy * dt;
      pz = pz + uz * dt;
      qx = qx + vx * dt;
      qy = qy + vy * dt;
      qz = qz + vz * dt;
    }
    double dx = qx - px;
    double dy = qy - py;
    double dz = qz - pz;
    double stretch = Math.sqrt(dx * dx + dy * dy + dz * dz) - 1;
    return 0.5 * (ux * ux + uy * uy + uz * uz + vx * vx + vy * vy + vz * vz)
        + 0.5 * k * stretch * stretch;
  }

  /**
   * Simpson's rule for {@code f} over {@code [lo, hi]} with {@code n} (even) intervals: a
   * template, differentiated where it is called for the function passed there.
   *
   * @param f the integrand
   * @param lo the lower bound
   * @param hi the upper bound
   * @param n the number of intervals
   * @return the integral's estimate
   */
  @Differentiable
  static double simpson(DoubleUnaryOperator f, double lo, double hi, int n) {
    double h = (hi - lo) / n;
    double sum = f.applyAsDouble(lo) + f.applyAsDouble(hi);
    for (int i = 1; i < n; i++) {
      sum += (i % 2 == 1 ? 4 : 2) * f.applyAsDouble(lo + i * h);
    }
    return sum * h / 3;
  }

  /**
   * The integral of {@code exp(-a t^2) sin(b t)} over {@code [0, 1]} by {@link #simpson}, the
   * integrand a lambda capturing {@code a} and {@code b}.
   *
   * @param a the decay
   * @param b the frequency
   * @param n the number of intervals
   * @return the integral's estimate
   */
  @Differentiable
  public static double integralLambda(double a, double b, int n) {
    return simpson(t -> Math.exp(-a * t * t) * Math.sin(b * t), 0, 1, n);
  }

  /**
   * {@link #integralLambda} written as one loop.
   *
   * @param a the decay
   * @param b the frequency
   * @param n the number of intervals
   * @return the integral's estimate
   */
  @Differentiable
  public static double integralScalars(double a, double b, int n) {
    double h = 1.0 / n;
    double sum = 0 + Math.exp(-a) * Math.sin(b);
    for (int i = 1; i < n; i++) {
      double t = i * h;
      sum += (i % 2 == 1 ? 4 : 2) * (Math.exp(-a * t * t) * Math.sin(b * t));
    }
    return sum * h / 3;
  }

  /**
   * A least-squares loss with a stream: {@code sum (w_i x_i - 1)^2}.
   *
   * @param w the weights
   * @param x the data
   * @return the loss
   */
  @Differentiable
  public static double lossStream(double[] w, @NoDerivative double[] x) {
    return IntStream.range(0, w.length).mapToDouble(i -> (w[i] * x[i] - 1) * (w[i] * x[i] - 1))
        .sum();
  }

  /**
   * {@link #lossStream} written as a loop (a plain sum, not the stream's compensated one).
   *
   * @param w the weights
   * @param x the data
   * @return the loss
   */
  @Differentiable
  public static double lossLoop(double[] w, @NoDerivative double[] x) {
    double sum = 0;
    for (int i = 0; i < w.length; i++) {
      double r = w[i] * x[i] - 1;
      sum += r * r;
    }
    return sum;
  }
}
