package ad4j.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import ad4j.samples.SpringMass.Vec3;
import ad4j.samples.SpringMassGrad;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's twins agree: the record, lambda and stream versions give the values and
 * gradients of their scalar and loop versions, and each gradient matches extrapolated
 * differences of its own function.
 */
class ValueFunctionsTest {
  @Test
  void springOverRecordsAndOverScalarsHaveTheSameGradient() {
    double[] s = {0, 0, 0, 1.3, 0.2, -0.1, 0, 0.1, 0, 0.05, -0.1, 0.02, 4.0, 0.01};
    Vec3 p = new Vec3(s[0], s[1], s[2]);
    Vec3 q = new Vec3(s[3], s[4], s[5]);
    Vec3 u = new Vec3(s[6], s[7], s[8]);
    Vec3 v = new Vec3(s[9], s[10], s[11]);
    double[] records = new double[14];
    double[] scalars = new double[14];
    double value = SpringMassGrad.energyAfterValueAndGradient(p, q, u, v, s[12], s[13], 50,
        records);
    double twin = ValueFunctionsGrad.springScalarsValueAndGradient(s[0], s[1], s[2], s[3],
        s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], 50, scalars);
    assertEquals(twin, value, 1e-12 * Math.abs(twin));
    for (int i = 0; i < 14; i++) {
      assertEquals(scalars[i], records[i], 1e-10 * (1 + Math.abs(scalars[i])), "slot " + i);
    }
    double[] states = java.util.Arrays.copyOf(s, 13);
    GradientCheck.check(x -> ValueFunctions.springScalars(x[0], x[1], x[2], x[3], x[4], x[5],
        x[6], x[7], x[8], x[9], x[10], x[11], x[12], s[13], 50), states,
        java.util.Arrays.copyOf(scalars, 13)).assertWithin(1e-7);
  }

  @Test
  void quadratureOverALambdaAndAsOneLoopHaveTheSameGradient() {
    double[] lambda = new double[2];
    double[] loop = new double[2];
    double value = ValueFunctionsGrad.integralLambdaValueAndGradient(0.7, 2.3, 1000, lambda);
    double twin = ValueFunctionsGrad.integralScalarsValueAndGradient(0.7, 2.3, 1000, loop);
    assertEquals(twin, value, 1e-12);
    assertEquals(loop[0], lambda[0], 1e-12);
    assertEquals(loop[1], lambda[1], 1e-12);
    GradientCheck.check(x -> ValueFunctions.integralLambda(x[0], x[1], 1000),
        new double[] {0.7, 2.3}, lambda).assertWithin(1e-8);
  }

  @Test
  void lossWithAStreamAndAsALoopHaveTheSameGradient() {
    Random random = new Random(35);
    double[] w = new double[200];
    double[] x = new double[200];
    for (int i = 0; i < w.length; i++) {
      w[i] = random.nextGaussian();
      x[i] = random.nextGaussian();
    }
    double[] stream = new double[200];
    double[] loop = new double[200];
    assertEquals(ValueFunctions.lossStream(w, x),
        ValueFunctionsGrad.lossStreamValueAndGradient(w, x, stream), 0.0); // bit for bit
    ValueFunctionsGrad.lossLoopValueAndGradient(w, x, loop);
    for (int i = 0; i < w.length; i++) {
      assertEquals(loop[i], stream[i], 1e-12 * (1 + Math.abs(loop[i])), "slot " + i);
      assertEquals(2 * (w[i] * x[i] - 1) * x[i], stream[i], 1e-12 * (1 + Math.abs(loop[i])));
    }
  }
}
