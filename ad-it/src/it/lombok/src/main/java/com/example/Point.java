package com.example;

import lombok.Value;

/** A Lombok value class whose methods call generated code. */
@Value
public class Point {
  double x;
  double y;

  public double[] rosenbrockGradient() {
    return RosenbrockGrad.valueGradient(x, y);
  }
}
