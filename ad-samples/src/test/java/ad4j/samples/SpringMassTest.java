package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import ad4j.samples.SpringMass.Vec3;
import org.junit.jupiter.api.Test;

/**
 * The spring-mass sample over a value record: the generated gradient with respect to the
 * initial positions, velocities, stiffness and step against extrapolated differences of the
 * simulation itself, and forward mode against reverse mode.
 */
class SpringMassTest {
  private static final double[] STATE = {
      0, 0, 0, 1.3, 0.2, -0.1, 0, 0.1, 0, 0.05, -0.1, 0.02, 4.0, 0.01};
  private static final int STEPS = 200;

  private static Vec3 vec(double[] s, int at) {
    return new Vec3(s[at], s[at + 1], s[at + 2]);
  }

  private static double energy(double[] s) {
    return SpringMass.energyAfter(vec(s, 0), vec(s, 3), vec(s, 6), vec(s, 9), s[12], s[13],
        STEPS);
  }

  @Test
  void gradientMatchesDifferencesOfTheSimulation() {
    double[] s = STATE;
    double[] gradient = SpringMassGrad.energyAfterGradient(vec(s, 0), vec(s, 3), vec(s, 6),
        vec(s, 9), s[12], s[13], STEPS);
    assertEquals(14, gradient.length); // four records of three slots, then k and dt
    // the states and k; dt (0.01) by its own difference below, where the extrapolated
    // differences' steps would be too coarse for it
    double[] state = java.util.Arrays.copyOf(s, 13);
    GradientCheck.check(x -> energy(withStep(x, s[13])), state,
        java.util.Arrays.copyOf(gradient, 13)).assertWithin(1e-7);
    double h = 1e-7;
    double difference = (energy(withStep(state, s[13] + h)) - energy(withStep(state, s[13] - h)))
        / (2 * h);
    assertEquals(difference, gradient[13], 1e-6 * Math.abs(difference));
  }

  private static double[] withStep(double[] state, double dt) {
    double[] all = java.util.Arrays.copyOf(state, 14);
    all[13] = dt;
    return all;
  }

  @Test
  void forwardModeAgreesWithReverseMode() {
    double[] s = STATE;
    double[] d = {0.3, -0.2, 0.1, 0.5, 0.4, -0.6, 0.2, 0.1, -0.3, 0.7, -0.5, 0.25, -1.0, 0.0};
    double[] gradient = new double[14];
    double value = SpringMassGrad.energyAfterValueAndGradient(vec(s, 0), vec(s, 3), vec(s, 6),
        vec(s, 9), s[12], s[13], STEPS, gradient);
    assertEquals(energy(s), value, 0.0); // bit for bit
    double tangent = SpringMassGrad.energyAfterTangent(vec(s, 0), vec(s, 3), vec(s, 6),
        vec(s, 9), s[12], s[13], STEPS, vec(d, 0), vec(d, 3), vec(d, 6), vec(d, 9), d[12], d[13]);
    double dot = 0;
    for (int i = 0; i < d.length; i++) {
      dot += gradient[i] * d[i];
    }
    assertEquals(dot, tangent, 1e-12 * (1 + Math.abs(dot)));
  }
}
