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
}
