package com.example.geometry;

import ad4j.Differentiable;

/** Differentiable functions that another module calls. */
public final class Distances {
  private Distances() {}

  @Differentiable
  public static double hypot(double x, double y) {
    return Math.sqrt(x * x + y * y);
  }

  /** The length of a polyline through (0, 0), (x, y), (2x, 0), ..., with n segments. */
  @Differentiable
  public static double zigzag(double x, double y, int n) {
    double length = 0;
    for (int i = 0; i < n; i++) {
      length += hypot(x, i % 2 == 0 ? y : -y);
    }
    return length;
  }
}
