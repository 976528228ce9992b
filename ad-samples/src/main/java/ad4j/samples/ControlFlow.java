package ad4j.samples;

import ad4j.Differentiable;
import ad4j.runtime.GradientCheck;
import java.io.PrintStream;

/**
 * Differentiable methods with branches, loops and calls: Newton's iteration for a square root
 * (a loop whose trip count depends on the data), Horner's scheme for a degree-100 polynomial,
 * and the Lotka-Volterra predator-prey model integrated by RK4 over 1,000 steps, differentiated
 * with respect to its parameters.
 */
public final class ControlFlow {
  /** Steps of the RK4 integration. */
  static final int STEPS = 1000;

  /** Time step of the RK4 integration. */
  static final double DT = 0.01;

  private ControlFlow() {}

  /**
   * The square root of {@code a} by Newton's iteration, to relative precision 1e-12.
   *
   * @param a a non-negative number
   * @return its square root
   * @throws IllegalArgumentException if {@code a} is negative
   */
  @Differentiable
  public static double newtonSqrt(double a) {
    if (a < 0) {
      throw new IllegalArgumentException("a must not be negative: " + a);
    }
    double x = a > 1 ? a : 1;
    while (Math.abs(x * x - a) > 1e-12 * a) {
      x = 0.5 * (x + a / x);
    }
    return x;
  }

  /**
   * The polynomial {@code sum over k = 0..100 of x^k / (k + 1)} by Horner's scheme.
   *
   * @param x the point
   * @return the polynomial's value
   */
  @Differentiable
  public static double horner(double x) {
    double p = 0;
    for (int k = 100; k >= 0; k--) {
      p = p * x + 1.0 / (k + 1);
    }
    return p;
  }

  /**
   * The prey population after {@link #STEPS} RK4 steps of the Lotka-Volterra equations
   * {@code x' = a x - b x y}, {@code y' = c x y - d y}, from {@code (x0, y0)}.
   *
   * @param a the prey's growth rate
   * @param b the rate of predation
   * @param c the predators' growth per prey eaten
   * @param d the predators' death rate
   * @param x0 the initial prey population
   * @param y0 the initial predator population
   * @return the prey population at time {@code STEPS * DT}
   */
  @Differentiable
  public static double finalPrey(double a, double b, double c, double d, double x0,
      double y0) {
    double x = x0;
    double y = y0;
    for (int i = 0; i < STEPS; i++) {
      double k1x = a * x - b * x * y;
      double k1y = c * x * y - d * y;
      double x1 = x + 0.5 * DT * k1x;
      double y1 = y + 0.5 * DT * k1y;
      double k2x = a * x1 - b * x1 * y1;
      double k2y = c * x1 * y1 - d * y1;
      double x2 = x + 0.5 * DT * k2x;
      double y2 = y + 0.5 * DT * k2y;
      double k3x = a * x2 - b * x2 * y2;
      double k3y = c * x2 * y2 - d * y2;
      double x3 = x + DT * k3x;
      double y3 = y + DT * k3y;
      double k4x = a * x3 - b * x3 * y3;
      double k4y = c * x3 * y3 - d * y3;
      x += DT / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
      y += DT / 6 * (k1y + 2 * k2y + 2 * k3y + k4y);
    }
    return x;
  }

  /**
   * Prints each function's derivative next to an independent reference.
   *
   * @param out where to print
   */
  static void print(PrintStream out) {
    out.println("Control flow: loops, branches and a data-dependent exit (ad4j | reference)");
    double a = 2;
    out.println("  newtonSqrt'(2)   " + Fmt.num(ControlFlowGrad.newtonSqrtGradient(a)[0])
        + " | 1/(2 sqrt 2) = " + Fmt.num(0.5 / Math.sqrt(a)));
    double hornerExact = 0;
    for (int k = 1; k <= 100; k++) {
      hornerExact += k * Math.pow(0.9, k - 1) / (k + 1);
    }
    out.println("  horner'(0.9)     " + Fmt.num(ControlFlowGrad.hornerGradient(0.9)[0])
        + " | sum k x^(k-1)/(k+1) = " + Fmt.num(hornerExact));
    double[] p = {1.1, 0.4, 0.1, 0.4, 10, 10};
    double[] gradient = ControlFlowGrad.finalPreyGradient(p[0], p[1], p[2], p[3], p[4], p[5]);
    GradientCheck.Result check = GradientCheck.check(
        q -> finalPrey(q[0], q[1], q[2], q[3], q[4], q[5]), p, gradient);
    out.println("  Lotka-Volterra, RK4 x 1000: d(prey)/d(a, b, c, d, x0, y0) =");
    out.println("    " + Fmt.vec(gradient));
    out.println("    largest relative difference to finite differences: "
        + String.format("%.1e", check.worstError()));
  }
}
