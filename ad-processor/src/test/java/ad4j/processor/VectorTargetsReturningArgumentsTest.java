package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code @DerivativeOf} target returning {@code double[]} that returns an array it was given
 * ({@code static double[] same(double[] a) { return a; }}), where the guide asks for a new
 * array. The caller's result is then the argument itself, so a write through one name is seen
 * through the other, while the members differentiated them as two arrays: {@code double[] a =
 * {x, y}; double[] r = same(a); r[0] = 5 * y; return a[0] * x + r[1];} had the value right
 * (generated code runs the JVM's arrays) and the gradient wrong, 3.78 for 3.05 in the first
 * slot at (0.73, 0.61). ad4j cannot see a library's body, so every member now throws where the
 * target returns one of its array arguments; a target returning a new array is unchanged.
 */
@ExtendWith(TapeIsEmpty.class)
class VectorTargetsReturningArgumentsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class Targets {",
      "  static double[] same(double[] a) { return a; }",
      "  @DerivativeOf(\"same\") static double[][] sameA(double[] a) {",
      "    double[][] j = new double[a.length][a.length];",
      "    for (int i = 0; i < a.length; i++) { j[i][i] = 1; }",
      "    return j;",
      "  }",
      "  static double[] scaled(double[] a, double k) {",
      "    double[] r = a.clone();",
      "    for (int i = 0; i < r.length; i++) { r[i] *= k; }",
      "    return r;",
      "  }",
      "  @DerivativeOf(value = \"scaled\", wrt = \"a\") static double[][] scaledA(double[] a,",
      "      double k) {",
      "    double[][] j = new double[a.length][a.length];",
      "    for (int i = 0; i < a.length; i++) { j[i][i] = k; }",
      "    return j;",
      "  }",
      "  @DerivativeOf(value = \"scaled\", wrt = \"k\") static double[] scaledK(double[] a,",
      "      double k) {",
      "    return a.clone();",
      "  }",
      "  @Differentiable static double aliased(double x, double y) {",
      "    double[] a = {x, y};",
      "    double[] r = same(a);",
      "    r[0] = 5 * y;",
      "    return a[0] * x + r[1];",
      "  }",
      "  @Differentiable static double copied(double x, double y) {",
      "    double[] a = {x, y};",
      "    double[] r = scaled(a, x * y);",
      "    r[0] = 5 * y;",
      "    return a[0] * x + r[1] * r[0];",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Targets",
          SOURCE));

  @Test
  void everyMemberRefusesATargetThatReturnsItsArgument() throws Exception {
    MemberAgreement aliased = MemberAgreement.of(COMPILED.get(), "com.example.Targets",
        "aliased", true, true);
    Object[] point = {0.73, 0.61};
    for (Object[] member : List.of(new Object[] {"Gradient", new Object[0]},
        new Object[] {"ValueAndGradient", new Object[] {new double[2]}},
        new Object[] {"Pullback", new Object[] {1.0, new double[2]}},
        new Object[] {"Tangent", new Object[] {1.0, 0.0}})) {
      IllegalStateException thrown = assertThrows(IllegalStateException.class,
          () -> aliased.member((String) member[0], point, (Object[]) member[1]));
      assertThat(thrown).hasMessageThat().startsWith("Targets.same returned an array it was"
          + " given");
    }
  }

  @Test
  void aTargetReturningANewArrayIsDifferentiatedAsBefore() throws Exception {
    MemberAgreement copied = MemberAgreement.of(COMPILED.get(), "com.example.Targets",
        "copied", true, true);
    copied.checkScalarAt(new double[][] {{0.73, 0.61}, {-1.34, 1.07}}, 1, 1e-6);
  }
}
