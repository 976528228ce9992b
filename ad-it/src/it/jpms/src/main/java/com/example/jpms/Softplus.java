package com.example.jpms;

import ad4j.Differentiable;

/** Functions of a user's module: one straight-line, one with a loop. */
public final class Softplus {
  private Softplus() {}

  @Differentiable
  public static double softplus(double x, double beta) {
    return Math.log1p(Math.exp(beta * x)) / beta;
  }

  /** The sum of softplus(x + k h) for k = 0..n-1: a loop, recorded on ad-runtime's Tape. */
  @Differentiable
  public static double sum(double x, double h, int n) {
    double s = 0;
    for (int k = 0; k < n; k++) {
      s += softplus(x + k * h, 2.0);
    }
    return s;
  }
}
