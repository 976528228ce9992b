package ad4j.samples;

import ad4j.Differentiable;

/** The Rosenbrock function, a classic test of optimisers: minimum 0 at (1, 1). */
public final class Rosenbrock {
  private Rosenbrock() {}

  /** {@code (1 - x)² + 100 (y - x²)²}. */
  @Differentiable
  public static double value(double x, double y) {
    double a = 1 - x;
    double b = y - x * x;
    return a * a + 100 * b * b;
  }
}
