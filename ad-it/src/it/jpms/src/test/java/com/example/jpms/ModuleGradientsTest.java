package com.example.jpms;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import org.junit.jupiter.api.Test;

/**
 * The module does not read java.compiler, so it compiles only if the generated classes carry
 * no {@code @javax.annotation.processing.Generated}.
 */
class ModuleGradientsTest {
  @Test
  void generatedClassesLiveInTheModule() {
    assertEquals("com.example.jpms", SoftplusGrad.class.getModule().getName());
  }

  @Test
  void straightLine() {
    double[] gradient = SoftplusGrad.softplusGradient(0.4, 2.0);
    // d/dx = sigmoid(beta x)
    assertEquals(1 / (1 + Math.exp(-0.8)), gradient[0], 1e-15);
    GradientCheck.check(p -> Softplus.softplus(p[0], p[1]), new double[] {0.4, 2.0}, gradient)
        .assertWithin(1e-8);
  }

  @Test
  void loopOnTheTapeOfAdRuntime() {
    double[] gradient = SoftplusGrad.sumGradient(-0.5, 0.25, 8);
    GradientCheck.check(p -> Softplus.sum(p[0], p[1], 8), new double[] {-0.5, 0.25}, gradient)
        .assertWithin(1e-8);
    assertEquals(gradient[0] + gradient[1], SoftplusGrad.sumTangent(-0.5, 0.25, 8, 1, 1), 1e-12);
  }
}
