package ad4j.processor;

import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.FlatHessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An order-2 method that assigns one of its parameters in a loop: the parameter is read
 * through its variable, whose tangent is the direction of that parameter in every lane of
 * {@code mHessian}'s sweeps. Found by a probe: the lanes did not count that variable as
 * depending on the direction, so every lane carried lane 0's tangent and pushed it four times;
 * {@code H[s][s]} came out 0.0 where second differences give 0.732 (the loop alone, one
 * element; {@code f} multiplies it by the element, so that the slots mix),
 * and the Hessian disagreed with {@code mHessianVector}. Each case is checked whole and cut
 * into parts: the Hessian against differences of the gradient and second differences of the
 * method, symmetry, the Hessian-vector product and {@code mValueGradientAndHessian}
 * ({@link FlatHessianChecks}).
 */
@ExtendWith(TapeIsEmpty.class)
class AssignedParameterLanesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Assigned {",
      "  /** The parameter scaled by a function of itself, once per element. */",
      "  @Differentiable(order = 2) static double f(double[] a, double s) {",
      "    for (int i = 0; i < a.length; i++) {",
      "      s *= Math.tanh(s * 0.73);",
      "    }",
      "    return s * a[0];",
      "  }",
      "  /** Its first value kept, the elements read beside it. */",
      "  @Differentiable(order = 2) static double kept(double[] a, double s) {",
      "    double first = s;",
      "    double u = 0;",
      "    for (int i = 0; i < a.length; i++) {",
      "      s = s * Math.tanh(s * 0.73) + a[i] * s;",
      "      u = first - 1.51 * s + a[i] * a[i];",
      "    }",
      "    return u * s;",
      "  }",
      "  /** Assigned in a branch of the loop, and two scalars beside the array. */",
      "  @Differentiable(order = 2) static double branch(double[] a, double s, double t) {",
      "    double acc = t;",
      "    for (int i = 0; i < a.length; i++) {",
      "      if (a[i] > 0.55) {",
      "        s = s * a[i] + t;",
      "      }",
      "      acc += s * s * a[i];",
      "    }",
      "    return acc * t;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Assigned",
          SOURCE));

  private static final CompiledOnce IN_PARTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=2"),
          "com.example.Assigned", SOURCE));

  static Stream<Call> calls() {
    return Stream.of(
        new Call("f", new Object[] {new double[] {0.5}, 0.8}, true, true),
        new Call("f", new Object[] {new double[] {0.5, 0.6, 0.7}, 0.8}, true, true),
        new Call("kept", new Object[] {new double[] {0.5, 0.6}, 0.8}, true, true),
        new Call("kept", new Object[] {new double[] {0.4, 0.6, 0.7, 0.3, 0.9}, -0.6}, true,
            true),
        new Call("branch", new Object[] {new double[] {0.5, 0.6, 0.7}, 0.8, 1.1}, true, true,
            true),
        new Call("branch", new Object[] {new double[] {0.9, 0.2, 0.7, 0.65}, -0.4, 0.7}, true,
            true, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void theHessianCarriesTheAssignedParametersDirection(Call call) throws Exception {
    FlatHessianChecks.of(COMPILED.get(), "com.example.Assigned").check(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void theHessianCarriesTheAssignedParametersDirectionInParts(Call call) throws Exception {
    FlatHessianChecks.of(IN_PARTS.get(), "com.example.Assigned").check(call);
  }
}
