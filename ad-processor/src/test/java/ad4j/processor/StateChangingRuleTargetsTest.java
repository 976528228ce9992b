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
 * A {@code @DerivativeOf} target whose body writes a field ({@code k++; return x + k;}) runs
 * again, and counts again, in every sweep of the members that make one sweep per slot: a vector
 * function's {@code mJacobian} (a tangent per slot) and an order-2 method's Hessian. Its calls
 * there are the error a plain call with effects is. They were taken for calls of a function of
 * their arguments: with the vector function below, {@code fJacobian(0.5, 2)} from {@code k = 0}
 * gave J[0][0] = 5.0 and left {@code k = 3}, where the method runs {@code shift} once and the
 * derivative is 3.0; the order-2 method's {@code gValueGradientAndHessian} gave the value 24.5
 * and the gradient 14.0 of the third run (found by helper hunt68d). A target that writes only
 * its own locals and local arrays stays a function of its arguments.
 */
@ExtendWith(TapeIsEmpty.class)
class StateChangingRuleTargetsTest {
  private static List<String> source(String body, String method) {
    return List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static int k;",
        "  public static double shift(double x) { " + body + " }",
        "  @Differentiable @DerivativeOf(\"shift\") static double shiftX(double x) { return 1; }",
        method,
        "}");
  }

  private static final String VECTOR = String.join("\n",
      "  @Differentiable static double[] f(double x, double y) {",
      "    double s = shift(x);",
      "    return new double[] {s * s, y, x, y * x};",
      "  }");

  private static final String ORDER_TWO = String.join("\n",
      "  @Differentiable(order = 2) static double g(double x, double y) {",
      "    double s = shift(x);",
      "    return s * s * y;",
      "  }");

  /** Why the members of the vector function 'f' would run a call again. */
  private static final String JACOBIAN = "mJacobian and mValueAndJacobian of 'f' make one sweep"
      + " per slot when the result is longer, and the gradients of methods that call 'f' run its"
      + " code twice";

  /** Why the members of the order-2 method 'g' would run a call again. */
  private static final String HESSIAN = "mHessian and mValueGradientAndHessian of 'g' make one"
      + " sweep per slot and would run it once per sweep";

  private static String runsAgain(String members, String method, String change) {
    return "call to 'shift(...)': the @DerivativeOf target 'F.shift' changes state that outlasts"
        + " its call ('" + change + "'), so it may give another result or do something again"
        + " each time it runs: " + members + ", where '" + method + "' runs it once; make"
        + " 'F.shift' compute its result from its arguments alone";
  }

  @Test
  void aCountingTargetInAVectorFunctionIsAnError() {
    assertSingleError(source("k++; return x + k;", VECTOR),
        runsAgain(JACOBIAN, "f", "k++"),
        9, 21);
  }

  @Test
  void aTargetWritingAFieldThroughItsClassIsAnErrorAtOrderTwo() {
    assertSingleError(source("F.k += 1; return x + k;", ORDER_TWO),
        runsAgain(HESSIAN, "g", "F.k += 1"), 9, 21);
  }

  @Test
  void aTargetWritingAFieldNamedLikeALocalOfAnEndedLoopIsAnError() {
    // the loop's 'k' had made every 'k' of the body a local's: fJacobian(0.5, 2) from k = 0
    // gave J[0][0] = 5.0 and left k = 3, where the derivative is 3.0
    assertSingleError(source("for (int k = 0; k < 1; k++) { x += 0; } k++; return x + k;",
        VECTOR),
        runsAgain(JACOBIAN, "f", "k++"),
        9, 21);
  }

  @Test
  void aTargetWritingAnArgumentArrayIsAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final double[] COUNTS = new double[1];",
        "  public static double shift(double x) { COUNTS[0]++; return x + COUNTS[0]; }",
        "  @Differentiable @DerivativeOf(\"shift\") static double shiftX(double x) { return 1; }",
        ORDER_TWO,
        "}"),
        runsAgain(HESSIAN, "g", "COUNTS[0]++"), 9, 21);
  }

  /** The class with {@code helper} (one line) declared before the target. */
  private static List<String> sourceWith(String helper, String body, String method) {
    return List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static int k;",
        "  " + helper,
        "  public static double shift(double x) { " + body + " }",
        "  @Differentiable @DerivativeOf(\"shift\") static double shiftX(double x) { return 1; }",
        method,
        "}");
  }

  @Test
  void aTargetCallingACountingMethodIsAnError() {
    // the count is in a method the target calls, through a recursion: fJacobian(0.5, 2) from
    // k = 0 gave J[0][0] = 5.0 and left k = 3 (the method: k = 1, derivative 3.0)
    assertSingleError(sourceWith(
        "static void tick(int n) { if (n > 0) { tick(n - 1); } else { k++; } }",
        "tick(1); return x + k;", VECTOR),
        runsAgain(JACOBIAN, "f", "tick(1)"),
        10, 21);
  }

  @Test
  void aTargetDrawingFromAFieldsGeneratorIsAnError() {
    // a library method without source: each sweep drew another number (fJacobian's J[0][0]
    // was 2.498 where the method's 2 s is 2.461)
    assertSingleError(sourceWith("static java.util.Random r = new java.util.Random(7);",
        "return x + r.nextDouble();", VECTOR),
        runsAgain(JACOBIAN, "f", "r.nextDouble()"),
        10, 21);
  }

  @Test
  void aTargetWritingAFieldsArrayThroughALocalIsAnError() {
    // 'double[] t = COUNTS' made the write look local: gValueGradientAndHessian gave the value
    // 24.5 and the gradient 14.0 (the method: 4.5, and 6.0) and counted three times
    assertSingleError(sourceWith("static final double[] COUNTS = new double[1];",
        "double[] t = COUNTS; t[0] += 1; return x + t[0];", ORDER_TWO),
        runsAgain(HESSIAN, "g", "t[0] += 1"), 10, 21);
  }

  @Test
  void aCountingTargetCalledByACalleeOfATangentIsAnError() {
    // the caller's tangent asks 'c' for its value and then its tangent: fTangent(0.5, 2, 1, 0)
    // from k = 0 gave 6.0 and left k = 2, where the derivative is 4.0 and the method leaves 1
    assertSingleError(sourceWith("static void tick() { k++; }", "tick(); return x + k;",
        String.join("\n",
            "  @Differentiable static double c(double x) { return shift(x) * x; }",
            "  @Differentiable static double f(double x, double y) { return c(x) * y; }")),
        "call to 'c(...)': 'F.c' runs code that carries no derivative ('shift(...)', line 9),"
            + " which the tangent of 'f' would run twice, once for its value and once for its"
            + " tangent, where 'f' runs it once; make that call in 'f' instead and pass its"
            + " result to 'c' as a @NoDerivative parameter", 10, 65);
  }

  private static List<String> countingRule(String helper, String rule) {
    return List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static int k;",
        "  " + helper,
        "  public static double shift(double x) { return x + k; }",
        "  @DerivativeOf(\"shift\") static double shiftX(double x) { " + rule + " }",
        "  @Differentiable static double h(double x, double y) {",
        "    double s = shift(x);",
        "    return s * s * y;",
        "  }",
        "}");
  }

  private static String ruleChangesState(String write) {
    return "call to 'shift(...)': its @DerivativeOf rule 'F.shiftX' changes state that outlasts"
        + " its call ('" + write + "'), and the generated members run the rule where 'h' runs"
        + " only 'F.shift'; a rule must compute its partial derivative from its arguments alone";
  }

  @Test
  void aRuleThatCountsIsAnError() {
    // the members run the rule before the target, which the method never does:
    // hValueAndGradient(0.5, 2) from k = 0 gave the value 4.5 where the method gives 0.5
    assertSingleError(countingRule("", "k++; return 1;"), ruleChangesState("k++"), 10, 21);
  }

  @Test
  void aRuleCallingACountingMethodIsAnError() {
    assertSingleError(countingRule("static void tick() { k += 1; }", "tick(); return 1;"),
        ruleChangesState("tick()"), 10, 21);
  }

  @Test
  void aTargetConcatenatingACountingObjectIsAnError() {
    // '"a" + TAG' calls TAG.toString(), which counts: fJacobian(0.5, 2) from k = 0 gave
    // J[0][0] = 5.0 and left k = 3, where the derivative is 3.0
    assertSingleError(sourceWith("static final Object TAG = new Object() {"
        + " @Override public String toString() { k++; return \"t\"; } };",
        "String s = \"a\" + TAG; return x + k + s.length() * 0;", VECTOR),
        runsAgain(JACOBIAN, "f", "\"a\" + TAG"), 10, 21);
  }

  @Test
  void aTargetGivingAStreamAFieldsCountingFunctionIsAnError() {
    // map(COUNT) runs the field's lambda, which counts: the same 5.0 for 3.0
    assertSingleError(sourceWith("static final java.util.function.DoubleUnaryOperator COUNT ="
        + " v -> { k++; return v; };",
        "double[] w = {x}; return java.util.Arrays.stream(w).map(COUNT).sum() + k;", VECTOR),
        runsAgain(JACOBIAN, "f", "java.util.Arrays.stream(w).map(COUNT)"), 10, 21);
  }

  private static final CompiledOnce HELPERS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n", sourceWith("static double twice(double v) { double[] t = new double[2];"
              + " java.util.Arrays.fill(t, v); return t[0] + t[1]; }",
              "java.util.List<Double> parts = java.util.List.of(x);"
              + " StringBuilder b = new StringBuilder().append(x);"
              + " java.util.function.DoubleUnaryOperator f = v -> twice(v) / 2;"
              + " return b.length() > 0 ? f.applyAsDouble(parts.get(0)) + 1 : 0;",
              VECTOR + "\n" + ORDER_TWO))));

  @Test
  void aTargetCallingHelpersThatChangeNothingOutsideStaysAFunction() throws Exception {
    MemberAgreement.of(HELPERS.get(), "com.example.F", "g", true, true)
        .checkScalarAt(new double[][] {{0.5, 2.0}, {-0.3, 1.1}}, 2, 1e-6);
  }

  private static final CompiledOnce LOCAL_STATE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n", source("double[] t = {x, 1};"
              + " for (int i = 0; i < 2; i++) { t[i] += 1; } double k = t[0]; k++; return k - 2;",
              VECTOR + "\n" + ORDER_TWO))));

  @Test
  void aTargetWritingItsOwnLocalsStaysAFunction() throws Exception {
    MemberAgreement.of(LOCAL_STATE.get(), "com.example.F", "g", true, true)
        .checkScalarAt(new double[][] {{0.5, 2.0}, {-0.3, 1.1}}, 2, 1e-6);
  }
}
