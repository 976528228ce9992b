package com.example;

import ad4j.Differentiable;

/** Calls of @Differentiable methods of other classes. */
final class Model {
  private Model() {}

  @Differentiable
  static double loss(double x, double y, double z) {
    return Rosenbrock.value(x, y) * Polynomial.horner(z, 10) + Math.sin(x * z);
  }
}
