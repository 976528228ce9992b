package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A function value in an instance field of the method's own object, called with arguments that
 * carry no derivative ({@code hook.run()}, {@code scale.applyAsDouble(k)}), runs as written on
 * the receiver the generated members are given, once per call of each member, as the method
 * runs it. It was the error "'hook' is an instance field of an enclosing instance", which is
 * not what it is; a field of an enclosing instance keeps that error.
 */
class OwnFunctionFieldsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Model",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import java.util.function.DoubleUnaryOperator;",
              "final class Model {",
              "  static int calls;",
              "  final Runnable hook = () -> calls++;",
              "  final DoubleUnaryOperator scale = v -> 3 * v;",
              "  double k = 2;",
              "  @Differentiable double f(double x, double y) {",
              "    hook.run();",
              "    return k * x * x * y + scale.applyAsDouble(k) * y;",
              "  }",
              "}")));

  @Test
  void ownFunctionFieldsRunAsWrittenOncePerCall() throws Exception {
    Class<?> model = COMPILED.get().load("com.example.Model");
    java.lang.reflect.Constructor<?> make = model.getDeclaredConstructor();
    make.setAccessible(true);
    MemberAgreement f = new MemberAgreement(model, COMPILED.get().load("com.example.ModelGrad"),
        "f", make.newInstance(), true, true);
    f.checkScalarAt(new double[][] {{0.7, -0.4}, {-1.3, 0.9}}, 1, 1e-7);
  }

  @Test
  void aFieldOfAnEnclosingInstanceStaysAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  Runnable hook = () -> { };",
        "  final class Inner {",
        "    @Differentiable double f(double x) { hook.run(); return x * x; }",
        "  }",
        "}"),
        "call to 'hook.run()': 'hook' is an instance field of an enclosing instance, which ad4j"
            + " does not pass to generated code; read it into a field of 'Inner'",
        6, 50);
  }
}
