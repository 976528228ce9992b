package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A static helper of the sources that calls {@code Math.random()} or {@code StrictMath.random()}
 * ({@code noise(i)}) is no function of its arguments: run again, it gives other numbers. It was
 * taken for one (the argument-only methods took every static method of {@code Math} for a
 * function), so a {@code @Checkpointed} loop called it again in its reverse sweep, and the
 * Hessian of an order-2 method was computed with another draw than its value and gradient
 * ({@code hValueGradientAndHessian} of {@code a * a * b * noise(1)} gave a Hessian of
 * {@code r = 1.18} beside a value and gradient of {@code r = 1.01}); so was one calling
 * {@code random()} imported statically. Both are errors at the call
 * now, as for any call run as written there; a method whose members run the helper once gives
 * value and gradient of the same draw.
 */
class RandomDrawingHelpersTest {
  private static final String HELPERS = String.join("\n",
      "  static double noise(int i) { return Math.random() * 0.5 + i; }",
      "  static double scaled(double s) { return StrictMath.random() * s + 1; }");

  private static List<String> source(String... method) {
    List<String> lines = new ArrayList<>(List.of(
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class F {",
        HELPERS));
    lines.addAll(List.of(method));
    lines.add("}");
    return lines;
  }

  @Test
  void aCheckpointedLoopMayNotCallAHelperThatDraws() {
    assertSingleError(source(
        "  @Differentiable @Checkpointed(snapshots = 2)",
        "  static double f(double a, double b) {",
        "    double s = b;",
        "    for (int i = 0; i < 12; i++) { s = Math.sin(s * noise(i)) + a; }",
        "    return s;",
        "  }"),
        "loop of method 'f' cannot be checkpointed (@Checkpointed): it calls 'F.noise' (line 10),"
            + " which is not @Differentiable and would run again",
        10, 5);
  }

  @Test
  void aHelperCallingRandomImportedStaticallyDrawsToo() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "import static java.lang.Math.random;",
        "final class F {",
        "  static double pick(int i) { return random() + i; }",
        "  @Differentiable @Checkpointed(snapshots = 2)",
        "  static double f(double a, double b) {",
        "    double s = b;",
        "    for (int i = 0; i < 12; i++) { s = Math.sin(s * pick(i)) + a; }",
        "    return s;",
        "  }",
        "}"),
        "loop of method 'f' cannot be checkpointed (@Checkpointed): it calls 'F.pick' (line 10),"
            + " which is not @Differentiable and would run again",
        10, 5);
  }

  @Test
  void anOrderTwoMethodMayNotCallAHelperThatDraws() {
    assertSingleError(source(
        "  @Differentiable(order = 2) static double h(double a, double b) {",
        "    return a * a * b * scaled(2.0);",
        "  }"),
        "call to 'scaled(...)' runs as written and may give another result or do something"
            + " again each time it runs: mHessian and mValueGradientAndHessian of 'h' make one"
            + " sweep per slot",
        8, 30);
  }

  private static final CompiledOnce ONCE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n", source(
              "  @Differentiable static double g(double a, double b) {",
              "    double s = b;",
              "    for (int i = 1; i < 4; i++) { s = s * a * noise(i); }",
              "    return s;",
              "  }"))));

  @Test
  void aMethodThatRunsTheHelperOnceGivesValueAndGradientOfOneDraw() throws Exception {
    // g = b a³ n1 n2 n3: the draws' product from the value equals the one from each partial
    Class<?> grad = ONCE.get().load("com.example.FGrad");
    Method valueAndGradient = grad.getDeclaredMethod("gValueAndGradient", double.class,
        double.class, double[].class);
    valueAndGradient.setAccessible(true);
    double a = 0.7;
    double b = 0.3;
    for (int round = 0; round < 5; round++) {
      double[] gradient = new double[2];
      double value = (double) valueAndGradient.invoke(null, a, b, gradient);
      double draws = value / (b * a * a * a);
      assertWithMessage("%s from the value, %s", draws, Arrays.toString(gradient))
          .that(gradient[0] / (3 * b * a * a)).isWithin(1e-12 * draws).of(draws);
      assertWithMessage("%s from the value, %s", draws, Arrays.toString(gradient))
          .that(gradient[1] / (a * a * a)).isWithin(1e-12 * draws).of(draws);
    }
  }
}
