package com.example;

import ad4j.Differentiable;

/** Euler steps of a damped pendulum, in Java 11 source (`var` locals). */
public final class Pendulum {
  /** The time step. */
  static final double DT = 0.01;

  private Pendulum() {}

  /** The angle after {@code steps} steps of size {@link #DT}, from angle theta0 at rest. */
  @Differentiable
  public static double angle(double theta0, double damping, int steps) {
    var theta = theta0;
    var omega = 0.0;
    for (var i = 0; i < steps; i++) {
      var acceleration = Forces.gravity(theta) - damping * omega;
      theta += DT * omega;
      omega += DT * acceleration;
    }
    return theta;
  }
}
