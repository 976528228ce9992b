package ad4j.samples;

import ad4j.Differentiable;
import java.io.PrintStream;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

/**
 * Numerical methods that take a function, called with lambdas that capture the parameters being
 * differentiated: the derivative of an integral with respect to parameters inside the integrand
 * (Simpson's rule), and the sensitivity of an ODE's solution to its rate and initial value (the
 * classical Runge-Kutta method). {@code simpson} and {@code rk4} are templates: ad4j
 * differentiates each at its call, for the lambda passed there, and the generated code holds no
 * function object.
 */
public final class Quadrature {
  private Quadrature() {}

  /**
   * The integral of {@code f} over {@code [lo, hi]} by Simpson's rule on {@code n} intervals.
   *
   * @param f the integrand
   * @param lo the lower end
   * @param hi the upper end
   * @param n the number of intervals (even)
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
   * {@code y(t1)} for {@code y' = rhs(t, y)}, {@code y(t0) = y0}, by {@code steps} classical
   * Runge-Kutta steps.
   *
   * @param rhs the right-hand side
   * @param y0 the initial value
   * @param t0 the initial time
   * @param t1 the final time
   * @param steps the number of steps
   * @return the solution's estimate at {@code t1}
   */
  @Differentiable
  static double rk4(DoubleBinaryOperator rhs, double y0, double t0, double t1, int steps) {
    double h = (t1 - t0) / steps;
    double y = y0;
    for (int i = 0; i < steps; i++) {
      double t = t0 + i * h;
      double k1 = rhs.applyAsDouble(t, y);
      double k2 = rhs.applyAsDouble(t + h / 2, y + h / 2 * k1);
      double k3 = rhs.applyAsDouble(t + h / 2, y + h / 2 * k2);
      double k4 = rhs.applyAsDouble(t + h, y + h * k3);
      y += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    return y;
  }

  /**
   * The integral of {@code exp(-a t) cos(b t)} over {@code [0, 1]}, by Simpson's rule on 200
   * intervals.
   *
   * @param a the decay rate
   * @param b the frequency
   * @return the integral's estimate
   */
  @Differentiable
  public static double dampedCosine(double a, double b) {
    return simpson(t -> Math.exp(-a * t) * Math.cos(b * t), 0, 1, 200);
  }

  /**
   * {@code y(1)} for the decay {@code y' = -k y}, {@code y(0) = y0}, by 100 Runge-Kutta steps.
   *
   * @param k the rate
   * @param y0 the initial value
   * @return the solution's estimate at {@code t = 1}
   */
  @Differentiable
  public static double decay(double k, double y0) {
    return rk4((t, y) -> -k * y, y0, 0, 1, 100);
  }

  /**
   * Prints both functions' gradients next to their analytic values.
   *
   * @param out where to print
   */
  static void print(PrintStream out) {
    double a = 0.8;
    double b = 2.5;
    double[] integral = QuadratureGrad.dampedCosineGradient(a, b);
    double[] exact = dampedCosineExactGradient(a, b);
    out.println("Simpson's rule with a lambda: d/da, d/db of the integral of exp(-a t) cos(b t)"
        + " over [0, 1] at a = " + Fmt.num(a) + ", b = " + Fmt.num(b));
    out.println("  generated " + Fmt.vec(integral) + ", analytic " + Fmt.vec(exact));
    double k = 1.7;
    double y0 = 2.0;
    double[] ode = QuadratureGrad.decayGradient(k, y0);
    out.println("Runge-Kutta with a lambda: d/dk, d/dy0 of y(1) for y' = -k y at k = "
        + Fmt.num(k) + ", y0 = " + Fmt.num(y0));
    out.println("  generated " + Fmt.vec(ode) + ", analytic "
        + Fmt.vec(new double[] {-y0 * Math.exp(-k), Math.exp(-k)}));
  }

  /**
   * The exact gradient of the integral {@link #dampedCosine} estimates. With {@code z = -a + ib},
   * the integral is {@code Re F(z)} for {@code F(z) = (e^z - 1) / z}, so
   * {@code d/da = -Re F'(z)} and {@code d/db = -Im F'(z)}, where
   * {@code F'(z) = ((z - 1) e^z + 1) / z^2}.
   *
   * @param a the decay rate
   * @param b the frequency
   * @return {@code {d/da, d/db}} of the exact integral
   */
  static double[] dampedCosineExactGradient(double a, double b) {
    double zr = -a;
    double zi = b;
    // e^z
    double er = Math.exp(zr) * Math.cos(zi);
    double ei = Math.exp(zr) * Math.sin(zi);
    // (z - 1) e^z + 1
    double nr = (zr - 1) * er - zi * ei + 1;
    double ni = (zr - 1) * ei + zi * er;
    // z^2
    double sr = zr * zr - zi * zi;
    double si = 2 * zr * zi;
    double norm = sr * sr + si * si;
    double fr = (nr * sr + ni * si) / norm;
    double fi = (ni * sr - nr * si) / norm;
    return new double[] {-fr, -fi};
  }
}
