package ad4j.processor.derive;

import ad4j.processor.derive.forward.Tangent;
import ad4j.processor.derive.reverse.Adjoint;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.ir.Function;
import ad4j.processor.testing.IrInterpreter;
import ad4j.processor.testing.LoweredFunctions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The design composes: {@code tangent(adjoint(f))} is a valid IR program, and run by an IR
 * interpreter it gives the Hessian-vector product of {@code f}, checked against second
 * differences of {@code f} itself (run by the same interpreter on the lowered primal). The
 * functions are lowered by the real front end from Java source.
 */
class SecondOrderCompositionTest {
  private static final String SOURCE = """
      package com.example;

      import ad4j.Differentiable;

      final class Functions {
        @Differentiable
        static double smooth(double x, double y) {
          double a = Math.sin(x * y);
          double b = x * x / y;
          return a + b + Math.exp(y) * x - Math.sqrt(x * x + y * y);
        }

        @Differentiable
        static double loop(double x, double y) {
          double p = 0;
          for (int k = 0; k < 4; k++) {
            if (p > 1) {
              p = p * x - y;
            } else {
              p = p * y + x * x;
            }
          }
          return p * x;
        }
      }
      """;

  @Test
  void tangentOfAdjointOfStraightLineCodeIsTheHessianVectorProduct() {
    checkHessianVector(lowered().get("smooth"), new double[] {0.7, 1.3}, new double[] {0.4, -1.1});
  }

  @Test
  void tangentOfAdjointThroughLoopsBranchesAndTheTapeIsTheHessianVectorProduct() {
    Function loop = lowered().get("loop");
    checkHessianVector(loop, new double[] {0.9, 1.2}, new double[] {1.0, 0.5});
    checkHessianVector(loop, new double[] {0.3, 0.6}, new double[] {-0.7, 0.2});
  }

  /** H·v from {@code tangent(adjoint(f))} against second differences of {@code f}. */
  private static void checkHessianVector(Function f, double[] x, double[] v) {
    Function hessian = Tangent.of(Adjoint.of(f, Adjoint.Output.GRADIENT));
    // parameters: x, y, gradient, xDot, yDot, gradientDot
    assertThat(hessian.parameters()).hasSize(6);
    double[] gradient = new double[2];
    double[] hessianVector = new double[2];
    Object value = IrInterpreter.run(hessian, x[0], x[1], gradient, v[0], v[1], hessianVector);
    // the tangent program returns the directional derivative of the primal value
    double directional = gradient[0] * v[0] + gradient[1] * v[1];
    assertWithMessage("gradient . v").that((Double) value).isWithin(1e-12).of(directional);

    double h = 1e-4;
    for (int i = 0; i < 2; i++) {
      double expected = 0;
      for (int j = 0; j < 2; j++) {
        expected += secondDifference(f, x, i, j, h) * v[j];
      }
      assertWithMessage("(H v)[%s] at (%s, %s)", i, x[0], x[1]).that(hessianVector[i])
          .isWithin(1e-5 * Math.max(1, Math.abs(expected))).of(expected);
    }
    // and the gradient the same program computes is the first derivative
    for (int i = 0; i < 2; i++) {
      double[] plus = x.clone();
      double[] minus = x.clone();
      plus[i] += h;
      minus[i] -= h;
      double central = (eval(f, plus) - eval(f, minus)) / (2 * h);
      assertWithMessage("gradient[%s]", i).that(gradient[i]).isWithin(1e-6).of(central);
    }
  }

  /** d²f / dx_i dx_j by central differences. */
  private static double secondDifference(Function f, double[] x, int i, int j, double h) {
    return (at(f, x, i, h, j, h) - at(f, x, i, h, j, -h) - at(f, x, i, -h, j, h)
        + at(f, x, i, -h, j, -h)) / (4 * h * h);
  }

  private static double at(Function f, double[] x, int i, double di, int j, double dj) {
    double[] point = x.clone();
    point[i] += di;
    point[j] += dj;
    return eval(f, point);
  }

  private static double eval(Function f, double[] x) {
    return (Double) IrInterpreter.run(f, x[0], x[1]);
  }

  /** The functions of {@link #SOURCE}, lowered by the front end, by name. */
  private static Map<String, Function> lowered() {
    return LoweredFunctions.of("com.example.Functions", SOURCE);
  }
}
