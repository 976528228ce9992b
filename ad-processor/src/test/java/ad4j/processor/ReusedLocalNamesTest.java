package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.SingleErrors;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A local whose name a block before it declared too (a loop's body, a branch), assigned in a
 * loop inside its own scope: Java scopes them apart, and the later one needs a mutable
 * variable as any local assigned in a loop does. The variable planner kept the depth of the
 * first declaration it met, deeper than the later one's, so that the loop's assignments of the
 * later local looked like assignments at its own depth: it stayed single-assignment and each
 * iteration's assignment was lost. Found by hunt 57: {@code w} below at (1.5, 0.7) gave the
 * value 3.55 for 8.6125 and the gradient (3.1, 4.5) for (9.725, 3.375) in every member, with
 * no error; a loop counter so reused lost its update ({@code i++}), so that the loop ran
 * forever, or, ended by a {@code break}, gave the value 10 for 11 and the gradient (7, 4, 0)
 * for (3, 5, 1). Each method against differences of order 8 of itself, forward against
 * reverse, and at order 2 the Hessian ({@link MemberAgreement}).
 */
@ExtendWith(TapeIsEmpty.class)
class ReusedLocalNamesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Reused {",
      "  /** 't' declared in a loop's body, then again before a loop that assigns it. */",
      "  @Differentiable static double w(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 2; k++) { double t = x * k; s += t; }",
      "    double t = y;",
      "    for (int i = 0; i < 3; i++) { t = t * x + 1; }",
      "    return s + t;",
      "  }",
      "  /** The same at order 2. */",
      "  @Differentiable(order = 2) static double w2(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 2; k++) { double t = x * k; s += t; }",
      "    double t = y;",
      "    for (int i = 0; i < 3; i++) { t = t * x + 1; }",
      "    return s * t;",
      "  }",
      "  /** 'i' declared in a loop's body, then as the counter of a loop a break ends. */",
      "  @Differentiable static double counter(double[] x) {",
      "    double s = 0;",
      "    for (int k = 0; k < 2; k++) { int i = k; s += x[i] * x[i]; }",
      "    for (int i = 0; i < x.length; i++) { s += x[i]; if (s > 9) { break; } }",
      "    return s;",
      "  }",
      "  record V(double a, double b) {}",
      "  /** A value record's local, the same. */",
      "  @Differentiable static double record(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 2; k++) { V t = new V(x, k); s += t.a() * t.b(); }",
      "    V t = new V(x, y);",
      "    for (int i = 0; i < 3; i++) { t = new V(t.a() * t.b(), t.b() + x); }",
      "    return s + t.a();",
      "  }",
      "  /** 'u' declared in a branch, then again before a while loop that assigns it. */",
      "  @Differentiable(order = 2) static double branch(double x, double y) {",
      "    double s = x;",
      "    if (y > 0) { double u = y * x; s += u; }",
      "    double u = y;",
      "    int n = 0;",
      "    while (n < 4) { u = Math.sin(u) * x + s; n++; }",
      "    return u * s;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Reused",
          SOURCE));

  private static MemberAgreement method(String name, boolean... active) {
    return MemberAgreement.of(COMPILED.get(), "com.example.Reused", name, active);
  }

  @Test
  void aLocalDeclaredAgainAfterALoopsBodyKeepsEachIterationsAssignment() throws Exception {
    method("w", true, true).checkScalarAt(new double[][] {{1.5, 0.7}, {-0.8, 1.3}}, 1, 1e-7);
  }

  @Test
  void atOrderTwoTheHessianSeesEachIteration() throws Exception {
    method("w2", true, true).checkScalarAt(new double[][] {{1.5, 0.7}, {-0.8, 1.3}}, 2, 1e-7);
  }

  @Test
  void aLoopCounterDeclaredAgainAfterALoopsBodyIsCounted() throws Exception {
    method("counter", true).checkScalar(new Object[] {new double[] {1, 2, 3}}, 1, 1e-7);
    method("counter", true).checkScalar(new Object[] {new double[] {0.5, -0.3, 0.9, 1.2}}, 1,
        1e-7);
  }

  @Test
  void aRecordLocalDeclaredAgainAfterALoopsBodyKeepsEachIterationsAssignment()
      throws Exception {
    // before: the value 2.55 for 10.047, the gradient (3.1, 4.5) for (15.203, 18.405)
    method("record", true, true).checkScalarAt(new double[][] {{1.5, 0.7}, {-0.8, 1.3}}, 1,
        1e-7);
  }

  /**
   * An array local so declared and assigned in a loop is the error any array local assigned
   * in a loop is (it gave the value 2.55 for 10.047, the gradient (1.7, 1.5) for (15.203,
   * 18.405), with no error).
   */
  @Test
  void anArrayLocalDeclaredAgainAfterALoopsBodyAndAssignedInALoopIsAnError() {
    SingleErrors.assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x, double y) {",
        "    double s = 0;",
        "    for (int k = 0; k < 2; k++) { double[] t = {x, k}; s += t[0] * t[1]; }",
        "    double[] t = {x, y};",
        "    for (int i = 0; i < 3; i++) { t = new double[] {t[0] * t[1], t[1] + x}; }",
        "    return s + t[0];",
        "  }",
        "}"), "array variable 't' cannot be assigned in a branch or loop inside its scope", 8,
        35);
  }

  @Test
  void aLocalDeclaredAgainAfterABranchKeepsEachIterationsAssignment() throws Exception {
    method("branch", true, true).checkScalarAt(new double[][] {{0.9, 0.6}, {0.4, -0.5}}, 2,
        1e-7);
  }
}
