package com.example;

import ad4j.Differentiable;
import lombok.experimental.UtilityClass;

/** A Lombok utility class: Lombok makes its fields and methods static. */
@UtilityClass
public class Formulas {
  final double SCALE = 2.0;
  private final double[] WEIGHTS = {0.5, 1.5};

  @Differentiable
  double square(double v) {
    return v * v;
  }

  @Differentiable
  public double energy(double x, double y) {
    return SCALE * square(x) * y + WEIGHTS[1] * Math.sin(y);
  }
}
