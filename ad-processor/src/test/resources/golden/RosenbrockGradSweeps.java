package com.example;

import ad4j.runtime.internal.Tape;
import javax.annotation.processing.Generated;

/**
 * Generated support for calls between {@code @Differentiable} methods, not API: the sweeps
 * of the methods of {@link Rosenbrock} that ad4j's code for their callers calls. For their
 * derivatives, use {@link RosenbrockGrad}.
 *
 * <p>Do not edit: this file is generated again at each compilation.
 */
@Generated("ad4j.processor.DifferentiableProcessor")
final class RosenbrockGradSweeps {
  private RosenbrockGradSweeps() {
  }

  /**
   * For the generated code of callers: the value of {@link Rosenbrock#value(double, double)}, bit for bit;
   * pushes {@code seed} times its partial derivative with respect to each active
   * {@code double} parameter onto {@code tape}, in parameter order.
   * Allocates nothing.
   */
  static double valuePullback(Tape tape, double x, double y, double seed) {
    return RosenbrockGrad.valuePullback(tape, x, y, seed);
  }

  /**
   * For the generated code of callers, not for direct use: the forward sweep of {@link Rosenbrock#value(double, double)};
   * returns its value, bit for bit, and leaves on {@code tape} what {@code valueReplay} takes back.
   */
  static double valueRecord(Tape tape, double x, double y) {
    return RosenbrockGrad.valueRecord(tape, x, y);
  }

  /**
   * For the generated code of callers, not for direct use: the reverse sweep of {@link Rosenbrock#value(double, double)}
   * after {@code valueRecord}, whose recording it takes back from {@code tape}; then as
   * {@code valuePullback(Tape, ...)}: pushes the adjoints of the {@code double} parameters.
   */
  static void valueReplay(Tape tape, double x, double y, double seed) {
    RosenbrockGrad.valueReplay(tape, x, y, seed);
  }
}
