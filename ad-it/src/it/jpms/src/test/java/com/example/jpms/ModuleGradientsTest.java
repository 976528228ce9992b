package com.example.jpms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ad4j.runtime.GradientCheck;
import org.junit.jupiter.api.Test;

/**
 * The module does not read java.compiler, so this compiles only if the generated classes carry
 * no {@code @javax.annotation.processing.Generated}.
 */
class ModuleGradientsTest {
  @Test
  void generatedClassesLiveInTheModule() {
    assertTrue(RosenbrockGrad.class.getModule().isNamed());
    assertEquals("com.example.jpms", PolynomialGrad.class.getModule().getName());
  }

  @Test
  void straightLine() {
    double[] gradient = RosenbrockGrad.valueGradient(-1.2, 1);
    GradientCheck.check(p -> Rosenbrock.value(p[0], p[1]), new double[] {-1.2, 1}, gradient)
        .assertWithin(1e-8);
  }

  @Test
  void loopOnTheTapeOfAdRuntime() {
    double[] gradient = PolynomialGrad.hornerGradient(0.7, 20);
    GradientCheck.check(p -> Polynomial.horner(p[0], 20), new double[] {0.7}, gradient)
        .assertWithin(1e-8);
    assertEquals(gradient[0], PolynomialGrad.hornerTangent(0.7, 20, 1.0), 1e-12);
  }
}
