package com.example;

import ad4j.Differentiable;

/** A loop: its reverse mode records on ad-runtime's Tape. */
public final class Polynomial {
  private Polynomial() {}

  /** The sum over k = 0..degree of x^k / (k + 1), by Horner's scheme. */
  @Differentiable
  public static double horner(double x, int degree) {
    double p = 0;
    for (int k = degree; k >= 0; k--) {
      p = p * x + 1.0 / (k + 1);
    }
    return p;
  }
}
