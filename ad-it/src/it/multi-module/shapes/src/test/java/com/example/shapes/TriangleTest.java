package com.example.shapes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.runtime.GradientCheck;
import org.junit.jupiter.api.Test;

class TriangleTest {
  @Test
  void gradientThroughCallsIntoAnotherModule() {
    double a = 3;
    double b = 1;
    double c = 2;
    double[] gradient = TriangleGrad.perimeterGradient(a, b, c);
    GradientCheck.check(p -> Triangle.perimeter(p[0], p[1], p[2]), new double[] {a, b, c},
        gradient).assertWithin(1e-8);
    // analytic: d/da = 1 - (b - a) / |(b - a, c)|
    assertEquals(1 - (b - a) / Math.hypot(b - a, c), gradient[0], 1e-12);
  }

  @Test
  void gradientThroughALoopInAnotherModule() {
    double[] gradient = TriangleGrad.fenceGradient(0.6, 0.8);
    // four segments of length hypot(a, c) = 1: d/da = 4 a, d/dc = 4 c + 1
    assertEquals(2.4, gradient[0], 1e-12);
    assertEquals(4.2, gradient[1], 1e-12);
    GradientCheck.check(p -> Triangle.fence(p[0], p[1]), new double[] {0.6, 0.8}, gradient)
        .assertWithin(1e-8);
  }
}
