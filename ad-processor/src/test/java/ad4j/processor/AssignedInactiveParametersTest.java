package ad4j.processor;

import static ad4j.processor.testing.ArrayFunctionChecks.invoke;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.FlatHessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A {@code @NoDerivative} parameter that the method assigns in a branch or a loop is read
 * through a variable that stands for the parameter, and that variable may take values that
 * carry derivatives ({@code p = x * 2}). The parameter itself has no direction, so the
 * variable's tangent starts at zero. Found by a probe's random order-2 programs: the tangent
 * program looked for the parameter's direction and every such method was an internal error
 * (a NullPointerException in derive/forward/TangentWalk), at order 1 too. Each method is
 * checked whole and cut into parts of one statement: the gradient against differences of the
 * method, forward against reverse, the pullback; the order-2 ones' Hessian against differences
 * of the gradient and of the method, and H·v; the vector one's Jacobian against differences
 * and its tangent and pullback against the Jacobian.
 */
@ExtendWith(TapeIsEmpty.class)
class AssignedInactiveParametersTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Inactive {",
      "  /** Scaled in a branch by a constant: the variable never carries a derivative. */",
      "  @Differentiable static double scaled(@NoDerivative double p, double x) {",
      "    if (x > 0) {",
      "      p = p * 2;",
      "    }",
      "    return p * x;",
      "  }",
      "  /** Given a value of x in a loop: from then on it carries x's derivative. */",
      "  @Differentiable static double looped(@NoDerivative double p, double x) {",
      "    for (int i = 0; i < 3; i++) {",
      "      p = p * x + Math.sin(p);",
      "    }",
      "    return p * x;",
      "  }",
      "  /** Given a value of x in a branch on itself. */",
      "  @Differentiable static double chosen(@NoDerivative double p, double x) {",
      "    if (p > 0) {",
      "      p = x * 2;",
      "    }",
      "    return p * x;",
      "  }",
      "  @Differentiable(order = 2) static double second(@NoDerivative double p, double x,",
      "      double y) {",
      "    for (int i = 0; i < 3; i++) {",
      "      p = p * x + Math.sin(p * y);",
      "    }",
      "    return p * x * y;",
      "  }",
      "  @Differentiable(order = 2) static double elements(double x, @NoDerivative double p,",
      "      double[] w) {",
      "    if (w.length > 1) {",
      "      p = w[1] * x;",
      "    }",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) {",
      "      s += Math.sin(p * w[i]) * x;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double[] rows(@NoDerivative double p, double x) {",
      "    double[] r = new double[2];",
      "    for (int i = 0; i < 2; i++) {",
      "      p = p * x + 1;",
      "      r[i] = p;",
      "    }",
      "    return r;",
      "  }",
      "}");

  private static final CompiledOnce WHOLE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Inactive",
          SOURCE));
  private static final CompiledOnce IN_PARTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=1"),
          "com.example.Inactive", SOURCE));

  static Stream<Call> firstOrder() {
    return Stream.of("scaled", "looped", "chosen").flatMap(name -> Stream.of(
        new Call(name, new Object[] {0.7, 0.6}, false, true),
        new Call(name, new Object[] {-0.7, -0.6}, false, true)));
  }

  static Stream<Call> secondOrder() {
    return Stream.of(
        new Call("second", new Object[] {0.7, 0.6, -0.3}, false, true, true),
        new Call("elements", new Object[] {0.7, 0.6, new double[] {0.2, -0.5, 0.8}}, true,
            false, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("firstOrder")
  void firstOrderMembers(Call call) throws Exception {
    ArrayFunctionChecks.of(WHOLE.get(), "com.example.Inactive").check(call);
    ArrayFunctionChecks.of(IN_PARTS.get(), "com.example.Inactive").check(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("secondOrder")
  void secondOrderMembers(Call call) throws Exception {
    FlatHessianChecks.of(WHOLE.get(), "com.example.Inactive").check(call);
    FlatHessianChecks.of(IN_PARTS.get(), "com.example.Inactive").check(call);
  }

  @Test
  void aVectorFunctionsJacobianTangentAndPullback() throws Exception {
    for (Compiled compiled : List.of(WHOLE.get(), IN_PARTS.get())) {
      Class<?> user = compiled.load("com.example.Inactive");
      Class<?> generated = compiled.load("com.example.InactiveGrad");
      for (double[] point : new double[][] {{0.7, 0.6}, {-0.4, 1.3}}) {
        double p = point[0];
        double x = point[1];
        double[][] jacobian = (double[][]) invoke(generated, "rowsJacobian", p, x);
        double h = 1e-3;
        double[] steps = {-2 * h, -h, h, 2 * h};
        double[] weights = {1, -8, 8, -1};
        double[] column = new double[2];
        for (int s = 0; s < 4; s++) {
          double[] value = (double[]) invoke(user, "rows", p, x + steps[s]);
          for (int i = 0; i < 2; i++) {
            column[i] += weights[s] * value[i] / (12 * h);
          }
        }
        for (int i = 0; i < 2; i++) {
          assertWithMessage("J[%s][0] at %s", i, x).that(jacobian[i][0])
              .isWithin(1e-8 * Math.max(1, Math.abs(column[i]))).of(column[i]);
        }
        double[] tangent = (double[]) invoke(generated, "rowsTangent", p, x, -1.5);
        double[] adjoints = {0.25};
        invoke(generated, "rowsPullback", p, x, new double[] {0.5, -2.0}, adjoints);
        for (int i = 0; i < 2; i++) {
          assertWithMessage("tangent %s", i).that(tangent[i])
              .isWithin(1e-12 * Math.max(1, Math.abs(jacobian[i][0]))).of(-1.5 * jacobian[i][0]);
        }
        double pulled = 0.25 + 0.5 * jacobian[0][0] - 2.0 * jacobian[1][0];
        assertWithMessage("pullback").that(adjoints[0])
            .isWithin(1e-12 * Math.max(1, Math.abs(pulled))).of(pulled);
      }
    }
  }
}
