package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import ad4j.runtime.internal.Tape;
import ad4j.samples.bench.HelperCalls;
import ad4j.samples.bench.HelperCallsGrad;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The callers of {@code @Differentiable} helpers that the allocation benchmark measures. */
class HelperCallsTest {
  @AfterEach
  void tapeIsEmpty() {
    assertEquals(0, Tape.current().size());
  }

  @Test
  void perimeterGradientMatchesFiniteDifferencesAndThePullback() {
    double[] p = {0.1, 0.2, 1.3, -0.4, 0.6, 0.9};
    double[] gradient = new double[6];
    double value = HelperCallsGrad.perimeterValueAndGradient(p[0], p[1], p[2], p[3], p[4], p[5],
        gradient);
    assertEquals(HelperCalls.perimeter(p[0], p[1], p[2], p[3], p[4], p[5]), value);
    GradientCheck.check(q -> HelperCalls.perimeter(q[0], q[1], q[2], q[3], q[4], q[5]), p,
        gradient).assertWithin(1e-8);
    double[] adjoints = {1, 1, 1, 1, 1, 1};
    HelperCallsGrad.perimeterPullback(p[0], p[1], p[2], p[3], p[4], p[5], 2, adjoints);
    for (int i = 0; i < 6; i++) {
      assertEquals(1 + 2 * gradient[i], adjoints[i], 1e-14);
    }
  }

  @Test
  void softplusSumGradientIsAnalytic() {
    double a = 0.7;
    double b = -0.3;
    double da = 0;
    double db = 0;
    for (int i = 0; i < 20; i++) {
      double sigmoid = 1 / (1 + Math.exp(-(a * i * 0.1 - b)));
      da += sigmoid * i * 0.1;
      db -= sigmoid;
    }
    double[] gradient = HelperCallsGrad.softplusSumGradient(a, b);
    assertEquals(da, gradient[0], 1e-12);
    assertEquals(db, gradient[1], 1e-12);
  }

  @Test
  void gatedSumGradientIsAnalyticAndTheTangentAgrees() {
    double a = 0.9;
    double b = -0.4;
    double da = 0;
    double db = 0;
    for (int i = 0; i < 20; i++) {
      double z = a * i * 0.1 - b;
      boolean linear = Math.log1p(Math.exp(z)) > 1;
      // d/dz and d/db of (linear ? z b : z z), with dz/da = i / 10, dz/db = -1
      double dz = linear ? b : 2 * z;
      da += dz * i * 0.1;
      db += -dz + (linear ? z : 0);
    }
    double[] gradient = HelperCallsGrad.gatedSumGradient(a, b);
    assertEquals(da, gradient[0], 1e-12);
    assertEquals(db, gradient[1], 1e-12);
    double tangent = HelperCallsGrad.gatedSumTangent(a, b, 0.3, -1.7);
    assertEquals(0.3 * gradient[0] - 1.7 * gradient[1], tangent, 1e-12);
  }
}
