package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.LargeStack;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.internal.Tape;
import java.lang.reflect.InvocationTargetException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Calls between {@code @Differentiable} methods in split mode: the caller's forward sweep calls
 * the callee's recording half, its reverse sweep the replaying half, so the callee's forward
 * sweep runs once per call. Every construct a call can sit in (branches, loops, arrays passed,
 * vector callees, callees with {@code @DerivativeOf} rules inside, other classes, private
 * helpers, recursion, mutual recursion, order 2) is checked against finite differences of the
 * user's method and forward mode (the dot-product test); the replaying halves hold no forward
 * work; exceptions inside
 * a recorded callee leave the tape balanced.
 */
@ExtendWith(TapeIsEmpty.class)
class SplitCallsTest {
  private static final String HELPERS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "public final class Helpers {",
      "  @Differentiable public static double bump(double x, double y) {",
      "    double e = Math.exp(-x * x);",
      "    return e * Math.sin(y) + x * y;",
      "  }",
      "}");

  /** A straight-line method long enough to be cut into segments. */
  private static final String LONG_CALLEE = longCallee();

  private static String longCallee() {
    StringBuilder method = new StringBuilder(
        "  @Differentiable static double longOne(double x) {\n    double v0 = x;\n");
    for (int i = 1; i <= 400; i++) {
      method.append("    double v").append(i).append(" = Math.sin(v").append(i - 1)
          .append(") * 0.9 + x * 0.1;\n");
    }
    return method.append("    return v400;\n  }").toString();
  }

  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class Calls {",
      // recursion
      "  @Differentiable static double chain(double x, double a, int n) {",
      "    if (n == 0) { return x; }",
      "    double inner = chain(x, a, n - 1);",
      "    return Math.sin(inner) * a + 0.5 * x;",
      "  }",
      // mutual recursion
      "  @Differentiable static double even(double x, int n) {",
      "    if (n == 0) { return Math.cos(x); }",
      "    return odd(x * 0.9, n - 1) * x + 0.1;",
      "  }",
      "  @Differentiable static double odd(double x, int n) {",
      "    if (n == 0) { return Math.sin(x); }",
      "    return even(x + 0.1, n - 1) * Math.exp(-0.1 * x);",
      "  }",
      // a helper with a branch and a loop of its own, called 100 times in a loop
      "  @Differentiable static double step(double s, double x, int k) {",
      "    double t = s;",
      "    for (int j = 0; j < 3; j++) { t = t * 0.5 + Math.sin(x * j + t); }",
      "    if (k % 2 == 0) { t = t * x; } else { t = t - Math.log(1 + x * x); }",
      "    return t;",
      "  }",
      "  @Differentiable static double looped(double x, double y) {",
      "    double s = y;",
      "    for (int k = 0; k < 100; k++) { s = step(s, x, k) * 0.3 + y; }",
      "    return s;",
      "  }",
      // calls in branches, and a callee of another class, and a private one
      "  @Differentiable private static double square(double v) { return v * v; }",
      "  @Differentiable static double branches(double x, double y) {",
      "    double r;",
      "    if (x > 0) { r = Helpers.bump(x, y) + square(y); }",
      "    else { r = square(x) * Helpers.bump(y, x); }",
      "    return r + step(r, y, 1);",
      "  }",
      // arrays: a callee with an array parameter, given a parameter, a row, a local array
      "  @Differentiable static double weighted(double[] w, double s) {",
      "    double total = 0;",
      "    for (int i = 0; i < w.length; i++) { total += Math.tanh(w[i] * s); }",
      "    return total * s;",
      "  }",
      "  @Differentiable static double arrays(double[] a, double[][] m, double s) {",
      "    double[] local = a.clone();",
      "    local[0] = local[0] * s;",
      "    double r = weighted(a, s) + weighted(local, 0.5);",
      "    for (int i = 0; i < m.length; i++) { r += weighted(m[i], r * 0.01); }",
      "    return r;",
      "  }",
      // a vector callee (not split: its reverse needs its result array)
      "  @Differentiable static double[] pair(double x, double y) {",
      "    return new double[] {x * y, Math.sin(x) + y};",
      "  }",
      "  @Differentiable static double vector(double x, double y) {",
      "    double[] p = pair(x, y);",
      "    double[] q = pair(p[1], p[0]);",
      "    return p[0] * q[1] + q[0];",
      "  }",
      // a callee that calls a method with @DerivativeOf rules
      "  static double soft(double x) { return Math.log1p(Math.exp(x)); }",
      "  @DerivativeOf(\"soft\") static double softDerivative(double x) {",
      "    return 1 / (1 + Math.exp(-x));",
      "  }",
      "  @Differentiable static double ruled(double x, double y) {",
      "    return soft(x * y) * y;",
      "  }",
      "  @Differentiable static double callsRuled(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 1; i <= 3; i++) { s += ruled(x * i, y + s); }",
      "    return s;",
      "  }",
      // order 2 calling order 2: the Hessian keeps whole pullbacks
      "  @Differentiable(order = 2) static double inner2(double x, double y) {",
      "    double s = x;",
      "    for (int i = 0; i < 2; i++) { s = Math.sin(s * y) + x; }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double outer2(double x, double y) {",
      "    return inner2(x, y) * inner2(y, x) + x;",
      "  }",
      // calls in a loop left by a break
      "  @Differentiable static double whileCalls(double x, double y) {",
      "    double s = x;",
      "    int k = 0;",
      "    while (true) {",
      "      s = Helpers.bump(s, y) * 0.5 + square(s) * 0.1;",
      "      if (s > 2 || k > 6) { break; }",
      "      k++;",
      "    }",
      "    return s * y;",
      "  }",
      // callees that are not split: a local array, a long method cut into segments
      "  @Differentiable private static double withLocal(double x, double y) {",
      "    double[] v = new double[] {x, y, x * y};",
      "    v[1] = v[0] * v[2] + Math.sin(v[1]);",
      "    return v[1] + v[2];",
      "  }",
      LONG_CALLEE,
      "  @Differentiable static double unsplit(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) { s += withLocal(x + s, y) + longOne(y * 0.1 + s); }",
      "    return s;",
      "  }",
      // a callee that throws after recording, at a level of the recursion
      "  @Differentiable static double failing(double x, int n, int failAt) {",
      "    double s = x;",
      "    for (int i = 0; i < 3; i++) { s = Math.sin(s) + x; }",
      "    if (n == failAt) { throw new IllegalStateException(\"level \" + n); }",
      "    if (n == 0) { return s; }",
      "    return failing(s, n - 1, failAt) * x;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compile("com.example.Helpers", HELPERS, "com.example.Calls", SOURCE));

  private static Compiled compiled() {
    return COMPILED.get();
  }

  private static ArrayFunctionChecks checks() {
    return ArrayFunctionChecks.of(compiled(), "com.example.Calls");
  }

  static Stream<Call> calls() {
    double[][] m = {{0.3, -0.2}, {0.7, 0.1, -0.4}};
    return Stream.of(
        new Call("chain", new Object[] {0.4, 0.9, 5}, true, true, false),
        new Call("even", new Object[] {0.7, 6}, true, false),
        new Call("odd", new Object[] {-0.3, 5}, true, false),
        new Call("looped", new Object[] {0.6, 0.2}, true, true),
        new Call("branches", new Object[] {0.8, -0.4}, true, true),
        new Call("branches", new Object[] {-0.8, 0.4}, true, true),
        new Call("arrays", new Object[] {new double[] {0.2, -0.5, 0.9}, m, 0.7},
            true, true, true),
        new Call("vector", new Object[] {0.3, 0.8}, true, true),
        new Call("callsRuled", new Object[] {0.5, -0.3}, true, true),
        new Call("outer2", new Object[] {0.4, 0.6}, true, true),
        new Call("failing", new Object[] {0.5, 3, -1}, true, false, false),
        new Call("whileCalls", new Object[] {0.3, 0.7}, true, true),
        new Call("unsplit", new Object[] {0.3, -0.6}, true, true));
  }

  @ParameterizedTest
  @MethodSource("calls")
  void callsInEveryConstructAgreeWithFiniteDifferencesAndForwardMode(Call call)
      throws Exception {
    checks().check(call);
  }

  /**
   * The callers' forward sweeps call the recording halves, their reverse sweeps the replaying
   * ones, which never run a forward sweep again.
   */
  @Test
  void theCallersRecordAndReplay() throws Exception {
    String source = compiled().compilation().generatedSourceFile("com.example.CallsGrad")
        .orElseThrow().getCharContent(true).toString();
    assertThat(source).contains("inner = CallsGradSweeps.chainRecord(tape, x, a, ");
    assertThat(source).contains("HelpersGradSweeps.bumpRecord(tape, ");
    assertThat(source).contains("HelpersGradSweeps.bumpReplay(tape, ");
    String replay = source.substring(source.indexOf("static void chainReplay("));
    replay = replay.substring(0, replay.indexOf("\n  }\n"));
    assertThat(replay).contains("CallsGradSweeps.chainReplay(tape, x, a, ");
    assertThat(replay).doesNotContain("Record(");
    assertThat(replay).doesNotContain(" = Math.sin(");
    // not split: the value only, then the whole pullback
    assertThat(source).contains("return withLocal(x, y);");
    assertThat(source).contains("return Calls.longOne(x);");
    assertThat(source).contains("longOnePullback(tape, x, seed);");
  }

  /**
   * Depth 2,000: the gradient against the derivative of the recurrence
   * {@code v_k = a sin(v_{k-1}) + x / 2}, {@code v_0 = x}, computed alongside it.
   */
  @Test
  void deepRecursionHasTheGradientOfTheRecurrence() throws Exception {
    int depth = 2000;
    double x = 0.4;
    double a = 0.9;
    double v = x;
    double dvdx = 1;
    double dvda = 0;
    for (int k = 1; k <= depth; k++) {
      double c = Math.cos(v);
      dvdx = a * c * dvdx + 0.5;
      dvda = a * c * dvda + Math.sin(v);
      v = a * Math.sin(v) + 0.5 * x;
    }
    double[] expected = {dvdx, dvda};
    Class<?> generated = compiled().load("com.example.CallsGrad");
    double[] gradient = LargeStack.run(() -> {
      try {
        return (double[]) ArrayFunctionChecks.invoke(generated, "chainGradient", x, a, depth);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    for (int i = 0; i < 2; i++) {
      assertWithMessage("slot %s", i).that(gradient[i]).isWithin(1e-12).of(expected[i]);
    }
    checks().check(new Call("chain", new Object[] {x, a, 1000}, true, true, false));
  }

  /**
   * A callee that throws inside the caller's forward sweep, after its own and deeper levels
   * recorded: the member's guard drops it all, and the thread's tape serves the next call.
   */
  @Test
  void anExceptionInsideARecordedCalleeLeavesTheTapeBalanced() throws Exception {
    Class<?> generated = compiled().load("com.example.CallsGrad");
    Tape tape = Tape.current();
    tape.pushDouble(7.5); // a caller's recording, which must survive
    for (int failAt = 0; failAt < 6; failAt++) {
      int level = failAt;
      InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
          () -> ArrayFunctionChecks.invoke(generated, "failingGradient", 0.5, 5, level));
      assertThat(thrown.getCause()).hasMessageThat().isEqualTo("level " + failAt);
      assertWithMessage("tape after a failure at level %s", failAt).that(tape.size())
          .isEqualTo(1);
    }
    assertThat(tape.popDouble()).isEqualTo(7.5);
    checks().check(new Call("failing", new Object[] {0.5, 5, -1}, true, false, false));
  }
}
