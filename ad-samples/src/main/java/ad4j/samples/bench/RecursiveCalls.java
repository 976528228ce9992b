package ad4j.samples.bench;

import ad4j.Differentiable;

/**
 * Calls whose forward work the reverse sweep reuses: a recursive function, whose every level
 * calls the level below, and a loop that calls a helper in each of its 100 iterations. A
 * callee's forward sweep records what its reverse sweep reads and runs once per call; a
 * pullback that ran it again would cost O(depth²) for the recursion.
 */
public final class RecursiveCalls {
  private RecursiveCalls() {}

  /**
   * The recurrence {@code v_0 = x}, {@code v_k = a sin(v_(k-1)) + x / 2}, by recursion.
   *
   * @param x the start, also added at each level
   * @param a the gain of each level
   * @param depth the number of levels
   * @return {@code v_depth}
   */
  @Differentiable
  public static double nested(double x, double a, int depth) {
    if (depth == 0) {
      return x;
    }
    double inner = nested(x, a, depth - 1);
    return a * Math.sin(inner) + 0.5 * x;
  }

  /**
   * One damped step of a state: a helper with a few transcendental calls.
   *
   * @param s the state
   * @param x the gain
   * @param y the phase
   * @return the next state
   */
  @Differentiable
  public static double damped(double s, double x, double y) {
    double e = Math.exp(-0.1 * s * s);
    return x * s * e + 0.3 * Math.sin(y + s);
  }

  /**
   * 100 damped steps, each a call of {@link #damped}.
   *
   * @param x the gain
   * @param y the phase
   * @return the state after 100 steps from {@code y}
   */
  @Differentiable
  public static double helperLoop(double x, double y) {
    double s = y;
    for (int i = 0; i < 100; i++) {
      s = damped(s, x, y + 0.01 * i);
    }
    return s;
  }
}
