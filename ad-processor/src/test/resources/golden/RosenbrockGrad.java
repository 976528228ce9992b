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
    double t1 = x * x;
    double b = y - t1;
    // line 10: return a * a + 100 * b * b;
    double t2 = a * a;
    double t3 = 100 * b;
    double t4 = t3 * b;
    double result = t2 + t4;
    // reverse sweep
    // adjoint of line 10: return a * a + 100 * b * b;
    double t3Bar = b;
    double bBar = t3 + t3Bar * 100.0;
    double aBar = a * 2.0;
    // adjoint of line 9: double b = y - x * x;
    double t1Bar = -bBar;
    // adjoint of line 8: double a = 1 - x;
    double xBar = t1Bar * x * 2.0 - aBar;
    gradient[0] = xBar;
    gradient[1] = bBar;
    return result;
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
    double t1 = x * x;
    double t1Dot = xDot * x + xDot * x;
    double b = y - t1;
    double bDot = yDot - t1Dot;
    // line 10: return a * a + 100 * b * b;
    double t2Dot = aDot * a + aDot * a;
    double t3 = 100 * b;
    double t3Dot = bDot * 100.0;
    double t4Dot = t3Dot * b + bDot * t3;
    double resultDot = t2Dot + t4Dot;
    return resultDot;
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
    double t1 = x * x;
    double b = y - t1;
    // line 10: return a * a + 100 * b * b;
    double t2 = a * a;
    double t3 = 100 * b;
    double t4 = t3 * b;
    double result = t2 + t4;
    // reverse sweep
    // adjoint of line 10: return a * a + 100 * b * b;
    double t3Bar = seed * b;
    double bBar = seed * t3 + t3Bar * 100.0;
    double aBar = seed * a * 2.0;
    // adjoint of line 9: double b = y - x * x;
    double t1Bar = -bBar;
    // adjoint of line 8: double a = 1 - x;
    double xBar = t1Bar * x * 2.0 - aBar;
    adjoints[0] += xBar;
    adjoints[1] += bBar;
    return result;
  }

  /**
   * The code of {@code RosenbrockGradSweeps.valuePullback}, here beside the private methods it calls.
   */
  static double valuePullback(Tape tape, double x, double y, double seed) {
    // forward sweep
    // line 8: double a = 1 - x;
    double a = 1 - x;
    // line 9: double b = y - x * x;
    double t1 = x * x;
    double b = y - t1;
    // line 10: return a * a + 100 * b * b;
    double t2 = a * a;
    double t3 = 100 * b;
    double t4 = t3 * b;
    double result = t2 + t4;
    // reverse sweep
    // adjoint of line 10: return a * a + 100 * b * b;
    double t3Bar = seed * b;
    double bBar = seed * t3 + t3Bar * 100.0;
    double aBar = seed * a * 2.0;
    // adjoint of line 9: double b = y - x * x;
    double t1Bar = -bBar;
    // adjoint of line 8: double a = 1 - x;
    double xBar = t1Bar * x * 2.0 - aBar;
    tape.pushDouble(xBar);
    tape.pushDouble(bBar);
    return result;
  }

  /**
   * The code of {@code RosenbrockGradSweeps.valueRecord}, here beside the private methods it calls.
   */
  static double valueRecord(Tape tape, double x, double y) {
    // forward sweep
    // line 8: double a = 1 - x;
    double a = 1 - x;
    // line 9: double b = y - x * x;
    double t1 = x * x;
    double b = y - t1;
    // line 10: return a * a + 100 * b * b;
    double t2 = a * a;
    double t3 = 100 * b;
    double t4 = t3 * b;
    double result = t2 + t4;
    tape.pushDouble(b);
    tape.pushDouble(t3);
    tape.pushDouble(a);
    return result;
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
