package ad4j.samples;

import ad4j.Differentiable;

/**
 * A class whose nested class has a {@code @Differentiable} method: the generated class for
 * {@code Outer.Inner} is {@code Outer_InnerGrad}.
 */
public final class Outer {
  private Outer() {}

  /** The nested class. */
  public static final class Inner {
    private Inner() {}

    /**
     * A damped oscillation.
     *
     * @param x the position
     * @param y the damping
     * @return {@code cos(x) exp(-y x)}
     */
    @Differentiable
    public static double damped(double x, double y) {
      return Math.cos(x) * Math.exp(-y * x);
    }
  }
}
