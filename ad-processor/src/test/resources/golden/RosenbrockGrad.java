package com.example;

import ad4j.runtime.internal.Tape;
import javax.annotation.processing.Generated;

/**
 * Derivatives of the {@code @Differentiable} methods of {@link Rosenbrock},
 * written by ad4j at compile time.
 *
 * <p>Do not edit: this file is generated again at each compilation.
 */
@Generated("ad4j.processor.DifferentiableProcessor")
final class RosenbrockGrad {
  private RosenbrockGrad() {
  }

  /**
   * Returns the gradient of {@link Rosenbrock#value(double, double)}
   * at the given point, computed in reverse mode: a new array whose element {@code i}
   * is the partial derivative with respect to slot {@code i}.
   *
   * <p>Slots, in order: {@code x}, {@code y}.
   */
  static double[] valueGradient(double x, double y) {
    double[] gradient = new double[2];
    valueValueAndGradient(x, y, gradient);
    return gradient;
  }

  /**
   * Returns the value of {@link Rosenbrock#value(double, double)},
   * bit for bit, and writes its gradient into {@code gradient}: element {@code i} becomes
   * the partial derivative with respect to slot {@code i}. Allocates nothing.
   *
   * <p>Slots, in order: {@code x}, {@code y}.
   *
   * @throws IllegalArgumentException if {@code gradient} has fewer than 2 elements
   */
  static double valueValueAndGradient(double x, double y, double[] gradient) {
    if (gradient.length < 2) {
      throw new IllegalArgumentException("RosenbrockGrad.valueValueAndGradient: 'gradient' has length " + gradient.length + ", needs 2 (slots in order: x, y)");
    }
    // forward sweep
    // line 8: double a = 1 - x;
    double a = 1 - x;
    // line 9: double b = y - x * x;
    double b = y - x * x;
    // line 10: return a * a + 100 * b * b;
    double t1 = 100 * b;
    // reverse sweep
    // adjoint of line 10: return a * a + 100 * b * b;
    double t1Bar = b;
    double bBar = t1 + t1Bar * 100.0;
    double aBar = a * 2.0;
    // adjoint of line 9: double b = y - x * x;
    double t2Bar = -bBar;
    // adjoint of line 8: double a = 1 - x;
    double xBar = t2Bar * x * 2.0 - aBar;
    gradient[0] = xBar;
    gradient[1] = bBar;
    return a * a + t1 * b;
  }

  /**
   * Returns the directional derivative of {@link Rosenbrock#value(double, double)}
   * at the given point along the direction ({@code xDot}, {@code yDot}),
   * computed in forward mode in one sweep.
   */
  static double valueTangent(double x, double y, double xDot, double yDot) {
    // forward sweep: values and tangents
    // line 8: double a = 1 - x;
    double a = 1 - x;
    double aDot = -xDot;
    // line 9: double b = y - x * x;
    double b = y - x * x;
    double bDot = yDot - xDot * x * 2.0;
    // line 10: return a * a + 100 * b * b;
    return aDot * a * 2.0 + (bDot * 100.0 * b + bDot * (100 * b));
  }

  /**
   * Returns the value of {@link Rosenbrock#value(double, double)},
   * bit for bit, and adds {@code seed} times its partial derivative with respect to
   * slot {@code i} to {@code adjoints[i]}. Accumulating lets callers compose derivatives (chain
   * rule through an enclosing computation). Allocates nothing.
   *
   * <p>Slots, in order: {@code x}, {@code y}.
   *
   * @throws IllegalArgumentException if {@code adjoints} has fewer than 2 elements
   */
  static double valuePullback(double x, double y, double seed, double[] adjoints) {
    if (adjoints.length < 2) {
      throw new IllegalArgumentException("RosenbrockGrad.valuePullback: 'adjoints' has length " + adjoints.length + ", needs 2 (slots in order: x, y)");
    }
    // forward sweep
    // line 8: double a = 1 - x;
    double a = 1 - x;
    // line 9: double b = y - x * x;
    double b = y - x * x;
    // line 10: return a * a + 100 * b * b;
    double t1 = 100 * b;
    // reverse sweep
    // adjoint of line 10: return a * a + 100 * b * b;
    double t1Bar = seed * b;
    double bBar = seed * t1 + t1Bar * 100.0;
    double aBar = seed * a * 2.0;
    // adjoint of line 9: double b = y - x * x;
    double t2Bar = -bBar;
    // adjoint of line 8: double a = 1 - x;
    double xBar = t2Bar * x * 2.0 - aBar;
    adjoints[0] += xBar;
    adjoints[1] += bBar;
    return a * a + t1 * b;
  }

  /**
   * The code of {@code RosenbrockGradSweeps.valuePullback}, here beside the private methods it calls.
   */
  static double valuePullback(Tape tape, double x, double y, double seed) {
    // forward sweep
    // line 8: double a = 1 - x;
    double a = 1 - x;
    // line 9: double b = y - x * x;
    double b = y - x * x;
    // line 10: return a * a + 100 * b * b;
    double t1 = 100 * b;
    // reverse sweep
    // adjoint of line 10: return a * a + 100 * b * b;
    double t1Bar = seed * b;
    double bBar = seed * t1 + t1Bar * 100.0;
    double aBar = seed * a * 2.0;
    // adjoint of line 9: double b = y - x * x;
    double t2Bar = -bBar;
    // adjoint of line 8: double a = 1 - x;
    double xBar = t2Bar * x * 2.0 - aBar;
    tape.pushDouble(xBar);
    tape.pushDouble(bBar);
    return a * a + t1 * b;
  }

  /**
   * The code of {@code RosenbrockGradSweeps.valueRecord}, here beside the private methods it calls.
   */
  static double valueRecord(Tape tape, double x, double y) {
    // forward sweep
    // line 8: double a = 1 - x;
    double a = 1 - x;
    // line 9: double b = y - x * x;
    double b = y - x * x;
    // line 10: return a * a + 100 * b * b;
    double t1 = 100 * b;
    tape.pushDouble(b);
    tape.pushDouble(t1);
    tape.pushDouble(a);
    return a * a + t1 * b;
  }

  /**
   * The code of {@code RosenbrockGradSweeps.valueReplay}, here beside the private methods it calls.
   */
  static void valueReplay(Tape tape, double x, double y, double seed) {
    double a = tape.popDouble();
    double t1 = tape.popDouble();
    double b = tape.popDouble();
    // reverse sweep
    // adjoint of line 10: return a * a + 100 * b * b;
    double t1Bar = seed * b;
    double bBar = seed * t1 + t1Bar * 100.0;
    double aBar = seed * a * 2.0;
    // adjoint of line 9: double b = y - x * x;
    double t2Bar = -bBar;
    // adjoint of line 8: double a = 1 - x;
    double xBar = t2Bar * x * 2.0 - aBar;
    tape.pushDouble(xBar);
    tape.pushDouble(bBar);
  }
}
