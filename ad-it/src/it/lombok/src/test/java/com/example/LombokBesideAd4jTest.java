package com.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import org.junit.jupiter.api.Test;

class LombokBesideAd4jTest {
  @Test
  void lombokValueCallsGeneratedCode() {
    Point point = new Point(0.8, -0.3);
    assertEquals(0.8, point.getX());
    assertArrayEquals(LossGrad.logisticGradient(0.8, -0.3, 1.5, false),
        point.lossGradient(false), 0.0);
  }

  @Test
  void classWithBothProcessors() {
    double[] at = {0.8, -0.3, 1.5};
    double[] gradient = LossGrad.logisticGradient(at[0], at[1], at[2], true);
    GradientCheck.check(p -> Loss.logistic(p[0], p[1], p[2], true), at, gradient)
        .assertWithin(1e-8);
    // d/dz of -log(sigmoid(z)) is sigmoid(z) - 1; z = w x + b
    double z = at[0] * at[2] + at[1];
    double dz = 1 / (1 + Math.exp(-z)) - 1;
    assertEquals(dz * at[2], gradient[0], 1e-12);
    assertEquals(dz, gradient[1], 1e-12);
    assertEquals(dz * at[0], gradient[2], 1e-12);
  }

  @Test
  void utilityClassMethodsAreStaticMethods() {
    // Lombok's @UtilityClass makes energy, square and the fields static: the generated members
    // take no receiver
    double x = 0.7;
    double y = 1.3;
    double[] gradient = FormulasGrad.energyGradient(x, y);
    // energy = 2 x^2 y + 1.5 sin y
    assertEquals(4 * x * y, gradient[0], 1e-12);
    assertEquals(2 * x * x + 1.5 * Math.cos(y), gradient[1], 1e-12);
    assertEquals(0.3 * gradient[0] - 0.4 * gradient[1],
        FormulasGrad.energyTangent(x, y, 0.3, -0.4), 1e-12);
    GradientCheck.check(p -> Formulas.energy(p[0], p[1]), new double[] {x, y}, gradient)
        .assertWithin(1e-8);
  }
}
