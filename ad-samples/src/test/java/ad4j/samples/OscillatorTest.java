package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import org.junit.jupiter.api.Test;

/**
 * The oscillator sample, a Runge-Kutta step over a record taking a lambda: its gradient against
 * extrapolated differences of the simulation itself, against the energy's decay law for an
 * undamped oscillator, and forward mode against reverse mode.
 */
class OscillatorTest {
  private static final double[] POINT = {4.0, 0.3, 1.0, -0.5, 0.01};
  private static final int STEPS = 300;

  private static double energy(double[] p) {
    return Oscillator.energyAfter(p[0], p[1], p[2], p[3], p[4], STEPS);
  }

  @Test
  void gradientMatchesDifferencesOfTheSimulation() {
    double[] p = POINT;
    double[] gradient = OscillatorGrad.energyAfterGradient(p[0], p[1], p[2], p[3], p[4],
        STEPS);
    assertEquals(5, gradient.length);
    // k, c and the initial state; h (0.01) by its own difference below, where the extrapolated
    // differences' steps would be too coarse for it
    double[] state = java.util.Arrays.copyOf(p, 4);
    GradientCheck.check(x -> energy(withStep(x, p[4])), state,
        java.util.Arrays.copyOf(gradient, 4)).assertWithin(1e-7);
    double h = 1e-7;
    double difference = (energy(withStep(state, p[4] + h)) - energy(withStep(state, p[4] - h)))
        / (2 * h);
    assertEquals(difference, gradient[4], 1e-6 * Math.abs(difference));
  }

  @Test
  void withoutDampingTheEnergyKeepsItsInitialValueAndGradient() {
    // RK4 keeps the energy of an undamped oscillator to O(h^4) per unit time: the gradient is
    // that of (v0^2 + k x0^2) / 2
    double[] gradient = OscillatorGrad.energyAfterGradient(4.0, 0.0, 1.0, -0.5, 0.01, STEPS);
    assertEquals(0.5 * 1.0 * 1.0, gradient[0], 1e-6);
    assertEquals(4.0 * 1.0, gradient[2], 1e-6);
    assertEquals(-0.5, gradient[3], 1e-6);
  }

  private static double[] withStep(double[] state, double h) {
    double[] all = java.util.Arrays.copyOf(state, 5);
    all[4] = h;
    return all;
  }

  @Test
  void forwardModeAgreesWithReverseMode() {
    double[] p = POINT;
    double[] d = {0.3, -0.2, 0.5, 0.7, -0.4};
    double[] gradient = new double[5];
    double value = OscillatorGrad.energyAfterValueAndGradient(p[0], p[1], p[2], p[3], p[4],
        STEPS, gradient);
    assertEquals(energy(p), value, 0.0); // bit for bit
    double tangent = OscillatorGrad.energyAfterTangent(p[0], p[1], p[2], p[3], p[4], STEPS,
        d[0], d[1], d[2], d[3], d[4]);
    double dot = 0;
    for (int i = 0; i < 5; i++) {
      dot += gradient[i] * d[i];
    }
    assertEquals(dot, tangent, 1e-12 * Math.max(1, Math.abs(dot)));
  }
}
