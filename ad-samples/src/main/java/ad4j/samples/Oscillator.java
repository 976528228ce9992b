package ad4j.samples;

import ad4j.Differentiable;

/**
 * A damped oscillator integrated by classical Runge-Kutta steps over a value record, the
 * right-hand side given as a lambda that captures the stiffness and the damping: the energy
 * left after the steps, and its gradient with respect to both and the initial state. ad4j
 * inlines {@code rk4} at the call for the lambda passed there, and flattens the states it
 * returns, so the generated code holds no function object and makes no {@code State}.
 */
public final class Oscillator {
  private Oscillator() {}

  /** A position and a velocity. */
  public record State(double x, double v) {}

  /** The right-hand side of s' = f(s). */
  @FunctionalInterface
  public interface Field {
    /**
     * The derivative of the state.
     *
     * @param s the state
     * @return its derivative
     */
    State at(State s);
  }

  /**
   * One classical Runge-Kutta step of s' = f(s).
   *
   * @param s the state
   * @param h the step
   * @param f the right-hand side
   * @return the state after the step
   */
  @Differentiable
  public static State rk4(State s, double h, Field f) {
    State k1 = f.at(s);
    State k2 = f.at(new State(s.x() + h / 2 * k1.x(), s.v() + h / 2 * k1.v()));
    State k3 = f.at(new State(s.x() + h / 2 * k2.x(), s.v() + h / 2 * k2.v()));
    State k4 = f.at(new State(s.x() + h * k3.x(), s.v() + h * k3.v()));
    return new State(s.x() + h / 6 * (k1.x() + 2 * k2.x() + 2 * k3.x() + k4.x()),
        s.v() + h / 6 * (k1.v() + 2 * k2.v() + 2 * k3.v() + k4.v()));
  }

  /**
   * The energy of x'' = -k x - c x' left after {@code steps} steps of {@code h} from
   * {@code (x0, v0)}.
   *
   * @param k the stiffness
   * @param c the damping
   * @param x0 the initial position
   * @param v0 the initial velocity
   * @param h the step
   * @param steps the number of steps
   * @return the energy after the steps
   */
  @Differentiable
  public static double energyAfter(double k, double c, double x0, double v0, double h,
      int steps) {
    State s = new State(x0, v0);
    for (int i = 0; i < steps; i++) {
      s = rk4(s, h, q -> new State(q.v(), -k * q.x() - c * q.v()));
    }
    return (s.v() * s.v() + k * s.x() * s.x()) / 2;
  }
}
