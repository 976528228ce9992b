package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import org.junit.jupiter.api.Test;

class PendulumTest {
  @Test
  void gradientOfAnIntegrationLoopCompiledForRelease11() {
    double[] at = {0.3, 0.1};
    double[] gradient = PendulumGrad.angleGradient(at[0], at[1], 200);
    GradientCheck.check(p -> Pendulum.angle(p[0], p[1], 200), at, gradient)
        .assertWithin(1e-7);
    double tangent = PendulumGrad.angleTangent(at[0], at[1], 200, 1, -2);
    assertEquals(gradient[0] - 2 * gradient[1], tangent, 1e-12 * (1 + Math.abs(tangent)));
  }

  @Test
  void noStepsLeaveTheStartingAngle() {
    assertEquals(1.0, PendulumGrad.angleGradient(0.3, 0.1, 0)[0]);
    assertEquals(0.0, PendulumGrad.angleGradient(0.3, 0.1, 0)[1]);
  }
}
