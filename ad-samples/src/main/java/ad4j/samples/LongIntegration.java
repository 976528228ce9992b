package ad4j.samples;

import ad4j.Checkpointed;
import ad4j.Differentiable;

/**
 * The Lotka-Volterra model of {@link ControlFlow#finalPrey} integrated over any number of RK4
 * steps, twice: as it is, whose reverse mode records what each step's reverse needs (16
 * {@code double}s, 128 bytes per step: 128 MB for a million steps), and
 * {@link Checkpointed @Checkpointed}, whose reverse mode keeps at most 1024 snapshots of the
 * state {@code (x, y, i)} and computes the steps again from them (for a million steps, about
 * 40 KB of tape). Both compute the same, and their gradients are equal.
 */
public final class LongIntegration {
  /** The time step. */
  static final double DT = 0.001;

  private LongIntegration() {}

  /**
   * The prey population after {@code steps} RK4 steps of {@code x' = a x - b x y},
   * {@code y' = c x y - d y} from {@code (x0, y0)}; reverse mode records every step.
   *
   * @param a the prey's growth rate
   * @param b the rate of predation
   * @param c the predators' growth per prey eaten
   * @param d the predators' death rate
   * @param x0 the initial prey population
   * @param y0 the initial predator population
   * @param steps the number of steps of length {@link #DT}
   * @return the prey population at time {@code steps * DT}
   */
  @Differentiable
  public static double prey(double a, double b, double c, double d, double x0, double y0,
      int steps) {
    double x = x0;
    double y = y0;
    for (int i = 0; i < steps; i++) {
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
   * {@link #prey}, whose reverse mode checkpoints the loop: at most 1024 snapshots of the
   * state, every step computed again from them.
   *
   * @param a the prey's growth rate
   * @param b the rate of predation
   * @param c the predators' growth per prey eaten
   * @param d the predators' death rate
   * @param x0 the initial prey population
   * @param y0 the initial predator population
   * @param steps the number of steps of length {@link #DT}
   * @return the prey population at time {@code steps * DT}
   */
  @Differentiable
  @Checkpointed(snapshots = 1024)
  public static double preyCheckpointed(double a, double b, double c, double d, double x0,
      double y0, int steps) {
    double x = x0;
    double y = y0;
    for (int i = 0; i < steps; i++) {
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
}
