package com.example;

import ad4j.Differentiable;

/** Straight-line code: the README's example. */
public final class Rosenbrock {
  private Rosenbrock() {}

  @Differentiable
  public static double value(double x, double y) {
    double a = 1 - x;
    double b = y - x * x;
    return a * a + 100 * b * b;
  }
}
