package ad4j.samples.bench;

import ad4j.Differentiable;

/**
 * The extended Rosenbrock function of {@code n} variables,
 * {@code Σ_{i<n-1} 100 (x_{i+1} − x_i²)² + (1 − x_i)²}, with its Hessian generated
 * ({@code @Differentiable(order = 2)}): the function of the full-Hessian benchmarks at
 * {@code n} = 10, 30 and 100. Its Hessian is tridiagonal, but the generated {@code mHessian}
 * does not know that: it computes all {@code n} columns, as it would for a dense one.
 */
public final class ExtendedRosenbrock {
  private ExtendedRosenbrock() {}

  /**
   * The function.
   *
   * @param x the point, at least 2 long
   * @return the value
   */
  @Differentiable(order = 2)
  public static double value(double[] x) {
    double sum = 0;
    for (int i = 0; i + 1 < x.length; i++) {
      double a = 1 - x[i];
      double b = x[i + 1] - x[i] * x[i];
      sum += 100 * b * b + a * a;
    }
    return sum;
  }
}
