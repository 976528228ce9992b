package com.example;

import lombok.Value;

/** A Lombok value class (weight x, bias y) whose method calls generated code. */
@Value
public class Point {
  double x;
  double y;

  public double[] lossGradient(boolean label) {
    return LossGrad.logisticGradient(x, y, 1.5, label);
  }
}
