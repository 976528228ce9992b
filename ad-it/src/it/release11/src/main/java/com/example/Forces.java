package com.example;

import ad4j.Differentiable;

/** A differentiable helper in another class. */
final class Forces {
  static final double G_OVER_L = 9.81;

  private Forces() {}

  @Differentiable
  static double gravity(double theta) {
    return -G_OVER_L * Math.sin(theta);
  }
}
