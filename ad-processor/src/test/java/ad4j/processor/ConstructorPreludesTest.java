package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A constructor runs code before its body's statements: the superclass's constructor that an
 * implicit {@code super()} calls, and the class's instance field initializers and initializer
 * blocks. A constructor whose body only sets fields was taken for read-only whatever ran before
 * it, so generated code made the object again in each sweep of an order-2 method: with
 * {@code Base() { calls++; id = calls; }} and {@code new Sub(2)} in {@code a * a * b *
 * s.k()} ({@code k + id}), {@code fValueGradientAndHessian} made two objects and gave the value
 * 0.588 of the second (id 2) beside the Hessian of the first (id 1): H[0][0] = 1.8 where the
 * method gives 2 b 4 = 2.4 at (0.7, 0.3). Such a {@code new} is now the error that the Hessian
 * sweeps would run it again, and so is one whose field initializer counts; a constructor after
 * a superclass constructor and initializers that only read stays read-only.
 */
@ExtendWith(TapeIsEmpty.class)
class ConstructorPreludesTest {
  private static List<String> source(String classes) {
    return List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static int calls;",
        classes,
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b) {",
        "    Sub s = new Sub(2);",
        "    return a * a * b * s.k();",
        "  }",
        "}");
  }

  @Test
  void anImplicitSuperCallOfACountingConstructorIsNotReadOnly() {
    assertSingleError(source(
            "  static class Base { final int id; Base() { calls++; id = calls; } }\n"
            + "  static final class Sub extends Base {\n"
            + "    final double k;\n"
            + "    Sub(double k) { this.k = k; }\n"
            + "    double k() { return k + id; }\n"
            + "  }"),
        runsAgainInTheHessianSweeps("new Sub(2)"), 13, 13);
  }

  @Test
  void aCountingFieldInitializerIsNotReadOnly() {
    assertSingleError(source(
            "  static final class Sub {\n"
            + "    final int id = ++calls;\n"
            + "    final double k;\n"
            + "    Sub(double k) { this.k = k; }\n"
            + "    double k() { return k + id; }\n"
            + "  }"),
        runsAgainInTheHessianSweeps("new Sub(2)"), 13, 13);
  }

  private static final CompiledOnce READING = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n", source(String.join("\n",
              "  static class Base { double off; Base() { off = 0.5; } }",
              "  static final class Sub extends Base {",
              "    final double k;",
              "    double scale = 1.5;",
              "    { scale = scale * 2; }",
              "    Sub(double k) { this.k = k; }",
              "    double k() { return k * scale + off; }",
              "  }")))));

  @Test
  void aConstructorAfterReadingCodeStaysReadOnly() throws Exception {
    MemberAgreement f = MemberAgreement.of(READING.get(), "com.example.F", "f", true, true);
    f.checkScalarAt(new double[][] {{0.7, 0.3}, {-1.2, 0.45}}, 2, 1e-6);
  }

  /** The error at a call that {@code f}'s Hessian sweeps would run once each. */
  private static String runsAgainInTheHessianSweeps(String call) {
    return "call to '" + call + "' runs as written and may give another result or do something"
        + " again each time it runs: mHessian and mValueGradientAndHessian of 'f' make one sweep"
        + " per slot";
  }
}
