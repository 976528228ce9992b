package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A lambda held in a {@code static final} field whose body assigns its locals in a loop: its
 * body is inlined where the method applies it, and its locals need mutable variables as a
 * method's do. Which locals need one was planned over the method's own tree only, where a
 * lambda written in the method lies but a field's does not: each iteration's assignment was
 * lost. Found by hunt 57: Horner's scheme {@code u = u * t + c} over a {@code static final}
 * table gave the last coefficient alone, the value -0.5 for 11.875 at 1.5 ({@code horner}
 * below; -0.35 for 4.209 at order 2), with no error (with the table {1, 2, 3}: 3.0 for 8.25,
 * the gradient 0.0 for 5.0, a zero Hessian); a counted loop's counter lost its {@code i++} and
 * the generated members ran forever. Each against differences of order 8 of the method, forward against
 * reverse, and at order 2 the Hessian ({@link MemberAgreement}).
 */
@ExtendWith(TapeIsEmpty.class)
class FieldLambdaLoopsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleBinaryOperator;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Fields {",
      "  static final double[] C = {1, 2, 3, -0.5};",
      "  /** Horner's scheme over a table. */",
      "  static final DoubleUnaryOperator HORNER = t -> {",
      "    double u = 0;",
      "    for (double c : C) { u = u * t + c; }",
      "    return u;",
      "  };",
      "  /** A counted loop, its counter the lambda's own. */",
      "  static final DoubleBinaryOperator STEPS = (t, s) -> {",
      "    double u = s;",
      "    for (int i = 0; i < 3; i++) { u = u * t + Math.sin(u * s); }",
      "    return u;",
      "  };",
      "  @Differentiable static double horner(double x) { return HORNER.applyAsDouble(x); }",
      "  @Differentiable(order = 2) static double horner2(double x, double y) {",
      "    return HORNER.applyAsDouble(x * y) * y;",
      "  }",
      "  @Differentiable(order = 2) static double steps(double x, double y) {",
      "    return STEPS.applyAsDouble(x, y);",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Fields",
          SOURCE));

  private static MemberAgreement method(String name, boolean... active) {
    return MemberAgreement.of(COMPILED.get(), "com.example.Fields", name, active);
  }

  @Test
  void hornersSchemeInAFieldsLambda() throws Exception {
    method("horner", true).checkScalarAt(new double[][] {{1.5}, {-0.7}}, 1, 1e-7);
  }

  @Test
  void hornersSchemeInAFieldsLambdaAtOrderTwo() throws Exception {
    method("horner2", true, true).checkScalarAt(new double[][] {{1.5, 0.7}, {-0.7, 1.2}}, 2,
        1e-7);
  }

  /** Before the fix the generated members did not return: the time limit fails the test. */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aCountedLoopInAFieldsLambda() throws Exception {
    method("steps", true, true).checkScalarAt(new double[][] {{0.8, 0.6}, {-0.5, 1.1}}, 2,
        1e-7);
  }
}
