package com.example;

import ad4j.Differentiable;
import lombok.AccessLevel;
import lombok.NoArgsConstructor;

/** Lombok and ad4j on one class. */
@NoArgsConstructor(access = AccessLevel.PRIVATE)
public final class Loss {
  @Differentiable
  public static double logistic(double w, double b, double x, boolean label) {
    double z = w * x + b;
    double p = 1 / (1 + Math.exp(-z));
    return label ? -Math.log(p) : -Math.log(1 - p);
  }
}
