package com.example.shapes;

import ad4j.Differentiable;
import com.example.geometry.Distances;

/** Calls the @Differentiable methods of module geometry. */
public final class Triangle {
  private Triangle() {}

  /** The perimeter of the triangle (0, 0), (a, 0), (b, c). */
  @Differentiable
  public static double perimeter(double a, double b, double c) {
    return a + Distances.hypot(b, c) + Distances.hypot(b - a, c);
  }

  /** A fence of four zigzag segments of width a and height c, plus a post of height c. */
  @Differentiable
  public static double fence(double a, double c) {
    return Distances.zigzag(a, c, 4) + c;
  }
}
