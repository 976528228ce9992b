package ad4j.samples.bench;

import ad4j.Differentiable;

/**
 * Functions that call other {@code @Differentiable} methods: their generated reverse sweeps call
 * the helpers' pullbacks, which must allocate nothing.
 */
public final class HelperCalls {
  private HelperCalls() {}

  /**
   * The distance between two points.
   *
   * @param x1 first point, x
   * @param y1 first point, y
   * @param x2 second point, x
   * @param y2 second point, y
   * @return the Euclidean distance
   */
  @Differentiable
  public static double distance(double x1, double y1, double x2, double y2) {
    double dx = x2 - x1;
    double dy = y2 - y1;
    return Math.sqrt(dx * dx + dy * dy);
  }

  /**
   * The perimeter of a triangle: straight-line code with three calls.
   *
   * @param ax first corner, x
   * @param ay first corner, y
   * @param bx second corner, x
   * @param by second corner, y
   * @param cx third corner, x
   * @param cy third corner, y
   * @return the sum of the three sides
   */
  @Differentiable
  public static double perimeter(double ax, double ay, double bx, double by, double cx,
      double cy) {
    return distance(ax, ay, bx, by) + distance(bx, by, cx, cy) + distance(cx, cy, ax, ay);
  }

  /**
   * {@code log(1 + e^x)}.
   *
   * @param x the argument
   * @return the softplus of x
   */
  @Differentiable
  public static double softplus(double x) {
    return Math.log1p(Math.exp(x));
  }

  /**
   * A sum of softplus terms: a loop with a call in each iteration.
   *
   * @param a slope
   * @param b offset
   * @return {@code sum over i < 20 of softplus(a * i - b)}
   */
  @Differentiable
  public static double softplusSum(double a, double b) {
    double s = 0;
    for (int i = 0; i < 20; i++) {
      s += softplus(a * i * 0.1 - b);
    }
    return s;
  }

  /**
   * A sum gated by a helper's value: each term is linear or quadratic by whether
   * {@code softplus(z)} passes 1, so the helper's value chooses a branch and its derivative is
   * never needed.
   *
   * @param a slope
   * @param b offset
   * @return {@code sum over i < 20 of (softplus(z) > 1 ? z b : z²)}, {@code z = a i / 10 − b}
   */
  @Differentiable
  public static double gatedSum(double a, double b) {
    double s = 0;
    for (int i = 0; i < 20; i++) {
      double z = a * i * 0.1 - b;
      s += softplus(z) > 1 ? z * b : z * z;
    }
    return s;
  }
}
