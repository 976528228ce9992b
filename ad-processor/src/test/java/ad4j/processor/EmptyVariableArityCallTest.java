package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A call of a {@code @Differentiable} variable arity method with no arguments for its
 * variable arity parameter, {@code v(x)} of {@code v(double x, double... r)}: Java passes an
 * empty array. It stopped the processor with an internal error (an IndexOutOfBoundsException:
 * the array Java makes was looked up among the call's argument trees, which have none for it);
 * now every member agrees with the method, beside calls that pass one and two elements, whole
 * and cut into parts.
 */
@ExtendWith(TapeIsEmpty.class)
class EmptyVariableArityCallTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class F {",
      "  @Differentiable static double v(double x, double... r) {",
      "    double s = x * x;",
      "    for (double t : r) { s += t * Math.sin(x); }",
      "    return s + r.length * x;",
      "  }",
      "  @Differentiable static double none(double x) { return v(x); }",
      "  @Differentiable static double some(double x, double y) {",
      "    return v(x) * v(y, x) + v(x, 2, y) - v(y);",
      "  }",
      "}");

  private static final CompiledOnce WHOLE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F", SOURCE));

  private static final CompiledOnce PARTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=1"),
          "com.example.F", SOURCE));

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aCallWithNoVariableArityArgumentsAgreesWithTheMethod(boolean parts) throws Exception {
    InProcessCompiler.Compiled compiled = (parts ? PARTS : WHOLE).get();
    MemberAgreement.of(compiled, "com.example.F", "none", true)
        .checkScalarAt(new double[][] {{0.7}, {-1.3}}, 1, 1e-6);
    MemberAgreement.of(compiled, "com.example.F", "some", true, true)
        .checkScalarAt(new double[][] {{0.7, 0.4}, {-1.3, 2.2}}, 1, 1e-6);
  }
}
