package ad4j.samples;

import ad4j.Differentiable;

/** An overload pair: the generated members are overloads too. */
public final class Overloads {
  private Overloads() {}

  /**
   * The Euclidean norm in the plane.
   *
   * @param x first coordinate
   * @param y second coordinate
   * @return {@code √(x² + y²)}
   */
  @Differentiable
  public static double norm(double x, double y) {
    return Math.sqrt(x * x + y * y);
  }

  /**
   * The Euclidean norm in space.
   *
   * @param x first coordinate
   * @param y second coordinate
   * @param z third coordinate
   * @return {@code √(x² + y² + z²)}
   */
  @Differentiable
  public static double norm(double x, double y, double z) {
    return Math.sqrt(x * x + y * y + z * z);
  }
}
