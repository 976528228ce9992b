package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import org.junit.jupiter.api.Test;

/**
 * Names that the generated code also uses. (The generic properties of these methods are in
 * {@link GeneratedContractTest}; these are readable spot checks.)
 */
class HygieneTest {

  @Test
  void parametersNamedGradientSeedAdjoints() {
    double gradient = 1.5;
    double seed = -0.5;
    double adjoints = 0.25;
    double[] out = new double[3];
    double value = HygieneGrad.parametersValueAndGradient(gradient, seed, adjoints, out);
    assertEquals(Hygiene.parameters(gradient, seed, adjoints), value, 0.0);
    assertArrayEquals(new double[] {2 * gradient * seed, gradient * gradient + Math.sin(adjoints),
        Math.cos(adjoints) * seed}, out, 1e-15);
    // The user's parameter called seed must not be confused with the pullback's seed.
    double[] acc = new double[3];
    HygieneGrad.parametersPullback(gradient, seed, adjoints, 10.0, acc);
    assertArrayEquals(new double[] {10 * out[0], 10 * out[1], 10 * out[2]}, acc, 1e-14);
  }

  @Test
  void localsNamedLikeGeneratedTemporaries() {
    double[] x = {0.7, -0.4};
    double[] g = HygieneGrad.localsGradient(x[0], x[1]);
    assertArrayEquals(SampleCase.localsAnalytic(x), g, 1e-14);
    GradientCheck.check(p -> Hygiene.locals(p[0], p[1]), x, g).assertWithin(1e-8);
  }

  @Test
  void parametersNamedLikeGeneratedLocals() {
    // d/d(result, t1, xBar, resultDot) of result*t1 + xBar/resultDot at (2, 3, 5, 4).
    assertArrayEquals(new double[] {3, 2, 0.25, -5.0 / 16},
        HygieneGrad.generatedNamesGradient(2, 3, 5, 4), 1e-15);
    assertEquals(3 * 1 + 2 * 0 + 0.25 * 0 - 5.0 / 16 * 1,
        HygieneGrad.generatedNamesTangent(2, 3, 5, 4, 1, 0, 0, 1), 1e-15);
  }

  @Test
  void reassignedParametersAndCompoundAssignments() {
    double x = 0.8;
    double y = -1.3;
    // Plain-Java replay of the same assignments.
    double a = x * y;
    double b = y + a;
    double c = a * b;
    double d = b - 0.5 * c;
    double expected = c / (d * d + 3) + d;
    assertEquals(expected, Hygiene.reassigned(x, y), 0.0);
    double[] g = new double[2];
    assertEquals(expected, HygieneGrad.reassignedValueAndGradient(x, y, g), 0.0);
    assertArrayEquals(Hygiene.reassignedAnalyticGradient(x, y), g, 1e-14);
    GradientCheck.check(p -> Hygiene.reassigned(p[0], p[1]), new double[] {x, y}, g)
        .assertWithin(1e-8);
  }
}
