package ad4j.samples;

import ad4j.Differentiable;
import java.io.PrintStream;

/**
 * Two masses on a spring, written with a small value record {@code Vec3} and its methods, as
 * physics code is: the energy after a number of symplectic Euler steps, and its gradient with
 * respect to the initial positions and velocities (and the stiffness), by reverse mode through
 * the whole simulation. ad4j flattens the records into their components and inlines their
 * methods, so the generated gradient allocates no {@code Vec3}.
 */
public final class SpringMass {
  private SpringMass() {}

  /** A vector of three {@code double}s, immutable, with the operations the simulation needs. */
  public record Vec3(double x, double y, double z) {
    Vec3 plus(Vec3 o) {
      return new Vec3(x + o.x, y + o.y, z + o.z);
    }

    Vec3 minus(Vec3 o) {
      return new Vec3(x - o.x, y - o.y, z - o.z);
    }

    Vec3 times(double k) {
      return new Vec3(k * x, k * y, k * z);
    }

    double dot(Vec3 o) {
      return x * o.x + y * o.y + z * o.z;
    }

    double length() {
      return Math.sqrt(dot(this));
    }
  }

  /** The spring's length at rest. */
  static final double REST = 1.0;

  /**
   * The total energy (kinetic and elastic) of two unit masses joined by a spring of stiffness
   * {@code k}, after {@code steps} symplectic Euler steps of {@code dt} from positions
   * {@code p} and {@code q} and velocities {@code u} and {@code v}.
   *
   * @param p the first mass's initial position
   * @param q the second mass's initial position
   * @param u the first mass's initial velocity
   * @param v the second mass's initial velocity
   * @param k the stiffness
   * @param dt the time step
   * @param steps the number of steps
   * @return the energy after the steps
   */
  @Differentiable
  public static double energyAfter(Vec3 p, Vec3 q, Vec3 u, Vec3 v, double k, double dt,
      int steps) {
    for (int i = 0; i < steps; i++) {
      Vec3 d = q.minus(p);
      double length = d.length();
      // the force on p, along the spring; the opposite on q
      Vec3 force = d.times(k * (length - REST) / length);
      u = u.plus(force.times(dt));
      v = v.minus(force.times(dt));
      p = p.plus(u.times(dt));
      q = q.plus(v.times(dt));
    }
    double stretch = q.minus(p).length() - REST;
    return 0.5 * (u.dot(u) + v.dot(v)) + 0.5 * k * stretch * stretch;
  }

  /**
   * Prints the energy after 200 steps and its gradient with respect to the initial state.
   *
   * @param out where to print
   */
  static void print(PrintStream out) {
    Vec3 p = new Vec3(0, 0, 0);
    Vec3 q = new Vec3(1.3, 0.2, -0.1);
    Vec3 u = new Vec3(0, 0.1, 0);
    Vec3 v = new Vec3(0.05, -0.1, 0.02);
    double k = 4.0;
    double dt = 0.01;
    int steps = 200;
    double[] gradient = new double[14];
    double energy = SpringMassGrad.energyAfterValueAndGradient(p, q, u, v, k, dt, steps,
        gradient);
    out.println("Spring and masses over record Vec3, 200 steps: energy " + Fmt.num(energy)
        + ", d/dk = " + Fmt.num(gradient[12]));
    out.println("  d energy / d p0 = " + Fmt.vec(java.util.Arrays.copyOfRange(gradient, 0, 3))
        + " (slots of record p: x, y, z)");
  }
}
