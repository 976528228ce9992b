package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import org.junit.jupiter.api.Test;

class GradientsTest {
  @Test
  void straightLine() {
    double[] gradient = RosenbrockGrad.valueGradient(-1.2, 1);
    GradientCheck.check(p -> Rosenbrock.value(p[0], p[1]), new double[] {-1.2, 1}, gradient)
        .assertWithin(1e-8);
    // the analytic gradient: (-2 (1 - x) - 400 x (y - x^2), 200 (y - x^2))
    assertEquals(-215.6, gradient[0], 1e-12);
    assertEquals(-88.0, gradient[1], 1e-12);
  }

  @Test
  void loop() {
    double x = 0.7;
    double[] gradient = PolynomialGrad.hornerGradient(x, 20);
    GradientCheck.check(p -> Polynomial.horner(p[0], 20), new double[] {x}, gradient)
        .assertWithin(1e-8);
    assertEquals(gradient[0], PolynomialGrad.hornerTangent(x, 20, 1.0), 1e-12);
  }

  @Test
  void callsAcrossClasses() {
    double[] point = {0.3, -0.4, 0.9};
    double[] gradient = ModelGrad.lossGradient(point[0], point[1], point[2]);
    GradientCheck.check(p -> Model.loss(p[0], p[1], p[2]), point, gradient).assertWithin(1e-8);
    double[] direction = {0.5, -1.5, 2.0};
    double dot = gradient[0] * direction[0] + gradient[1] * direction[1]
        + gradient[2] * direction[2];
    assertEquals(dot, ModelGrad.lossTangent(point[0], point[1], point[2],
        direction[0], direction[1], direction[2]), 1e-10 * Math.abs(dot));
  }
}
