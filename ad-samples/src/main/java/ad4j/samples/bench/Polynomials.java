package ad4j.samples.bench;

import ad4j.Differentiable;

/**
 * Polynomial test functions of two inputs from the optimisation literature: much
 * instruction-level parallelism in the primal, and many contributions to the adjoint of each
 * input in the reverse sweep.
 */
public final class Polynomials {
  private Polynomials() {}

  /**
   * Beale's function: {@code (1.5 − x + xy)² + (2.25 − x + xy²)² + (2.625 − x + xy³)²},
   * minimum 0 at (3, 0.5).
   *
   * @param x first input
   * @param y second input
   * @return the function's value
   */
  @Differentiable
  public static double beale(double x, double y) {
    double y2 = y * y;
    double y3 = y2 * y;
    double a = 1.5 - x + x * y;
    double b = 2.25 - x + x * y2;
    double c = 2.625 - x + x * y3;
    return a * a + b * b + c * c;
  }

  /**
   * The Goldstein–Price function: {@code [1 + (x + y + 1)² (19 − 14x + 3x² − 14y + 6xy + 3y²)]
   * · [30 + (2x − 3y)² (18 − 32x + 12x² + 48y − 36xy + 27y²)]}, minimum 3 at (0, −1).
   *
   * @param x first input
   * @param y second input
   * @return the function's value
   */
  @Differentiable
  public static double goldsteinPrice(double x, double y) {
    double s = x + y + 1;
    double p = 19 - 14 * x + 3 * x * x - 14 * y + 6 * x * y + 3 * y * y;
    double d = 2 * x - 3 * y;
    double q = 18 - 32 * x + 12 * x * x + 48 * y - 36 * x * y + 27 * y * y;
    return (1 + s * s * p) * (30 + d * d * q);
  }
}
