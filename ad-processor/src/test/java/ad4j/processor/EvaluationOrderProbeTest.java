package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A probe of Java's evaluation order and side effects, and of integer arithmetic feeding values
 * that carry derivatives: assignments, compound assignments and increments used as values
 * (inside {@code assert}, short-circuit operators, nested conditionals, array indices and
 * callee arguments), compound assignments whose right side changes their own index, {@code int}
 * state evolving in loops, {@code long} counters, casts, integer division and remainders,
 * {@code Math.floorMod}, {@code Math.round}, {@code char} literals, shifts, loops whose bound
 * the body changes, labelled jumps out of nested loops, and a loop counter kept in an array.
 * Every member against differences of order 8 of the user's method, values bit for bit
 * ({@link MemberAgreement}), whole and cut into parts of 2 statements.
 */
@ExtendWith(TapeIsEmpty.class)
class EvaluationOrderProbeTest {
  private static final String ASSERTS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Asserted {",
      "  @Differentiable static double assigned(double x, double y) {",
      "    double s = x;",
      "    assert (s = s * y) > -100;",
      "    return s * x;",
      "  }",
      "  @Differentiable static double reassigned(double x, double y) {",
      "    double s;",
      "    s = x * 2;",
      "    assert (s = y) > -100;",
      "    return s * x;",
      "  }",
      "  @Differentiable static double compound(double x, double y) {",
      "    double s = x * 2;",
      "    s += 1;",
      "    assert (s *= y) > -100 : \"s is \" + s;",
      "    return s * x;",
      "  }",
      "  @Differentiable static double counted(double x, double y) {",
      "    double s = x * y;",
      "    int n = 1;",
      "    assert ++n > 0;",
      "    return s * x * n;",
      "  }",
      "  @Differentiable static double inALoop(double x, double y) {",
      "    double s = y;",
      "    for (int i = 0; i < 4; i++) {",
      "      double t = s;",
      "      assert (t = t * x) < 1e9 && (s = t + 0.25) > -1e9;",
      "      s = Math.sin(s) + t * 0.5;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double second(double x, double y) {",
      "    double s = x;",
      "    assert (s = s * y * x) > -100;",
      "    return s * Math.sin(x) + y;",
      "  }",
      "  @Differentiable static double[] vector(double x, double y) {",
      "    double s = x;",
      "    assert (s = s * y) > -100;",
      "    return new double[] {s * x, s + y};",
      "  }",
      "}");

  private static final CompiledOnce ASSERTED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Asserted",
          ASSERTS));

  /**
   * A local assigned inside an {@code assert}'s condition keeps the value it had before where
   * assertions are disabled, and takes the assigned one where they are enabled. Before the fix,
   * the local was planned as a single-assignment value (the planner did not see the condition
   * as code that runs only sometimes), so its assignment in the assert replaced its earlier
   * value in every member: with assertions disabled, at (0.3, 0.7), {@code assigned} returns
   * 0.09 with gradient (0.6, 0) and {@code assignedValueAndGradient} returned 0 with gradient
   * (0, 0) (the local's declaration {@code s = x} was dropped); {@code counted} used n = 0.
   */
  @Test
  void aLocalAssignedInAnAssertKeepsItsValueWhereAssertionsAreDisabled() throws Exception {
    for (boolean enabled : List.of(false, true)) {
      Compiled loaded = InProcessCompiler.loadedWithAssertions(ASSERTED.get().compilation(),
          Map.of("com.example.Asserted", enabled));
      for (String name : List.of("assigned", "reassigned", "compound", "counted", "inALoop")) {
        MemberAgreement.of(loaded, "com.example.Asserted", name, true, true)
            .checkScalarAt(new double[][] {{0.3, 0.7}, {-0.45, 0.6}}, 1, 1e-7);
      }
      MemberAgreement.of(loaded, "com.example.Asserted", "second", true, true)
          .checkScalarAt(new double[][] {{0.3, 0.7}, {-0.45, 0.6}}, 2, 1e-7);
      MemberAgreement.of(loaded, "com.example.Asserted", "vector", true, true)
          .checkVector(new Object[] {0.3, 0.7});
    }
  }

  /**
   * An array variable bound to another array inside an {@code assert} is bound only where
   * assertions are enabled, which ad4j does not follow: an error, as in a branch. Before the fix
   * of the assert's planning it compiled and every member read the assert's array whatever the
   * assertions' status: with them disabled, at (0.3, 0.7), the gradient (1.49, 0.42) for
   * (0.6, 1).
   */
  @Test
  void anArrayBoundInAnAssertIsAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x, double y) {",
        "    double[] a = {x, y};",
        "    double[] b = {y * y, x};",
        "    assert (a = b).length > 0;",
        "    return a[0] * x + a[1];",
        "  }",
        "}"), "array variable 'a' cannot be assigned in a branch or loop inside its scope", 7, 13);
  }

  private static final String TWICE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Twice {",
      "  @Differentiable static double forCounter(double x, double y, int k) {",
      "    double s = y;",
      "    for (int i = 0; i * i < 30 + k; i++) { s = s * x * 0.9 + 0.1; }",
      "    return s;",
      "  }",
      "  @Differentiable static double whileCounter(double x, double y, int k) {",
      "    double s = y;",
      "    int i = k;",
      "    while (i + i < 12) { s = Math.sin(s) * x + 0.1 * i; i++; }",
      "    return s + i;",
      "  }",
      "  @Differentiable static double doCounter(double x, double y, int k) {",
      "    double s = y;",
      "    long j = 1;",
      "    do { s = s * y * 0.8 + x * j; j += k + 2; } while (j * j - j < 40);",
      "    return s;",
      "  }",
      "  @Differentiable static double elements(double x, double y, int k) {",
      "    int[] n = {k, 2, 3};",
      "    double s = x;",
      "    for (int i = 0; n[i % 3] * n[i % 3] < 20 && i < 9; i++) { s = s * y + x; n[1]++; }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double second(double x, double y, int k) {",
      "    double s = y;",
      "    for (int i = k; (i - 1) * (i - 1) < 9; i++) { s = s * x * 0.5 + Math.cos(s); }",
      "    return s * x;",
      "  }",
      "}");

  private static final List<CompiledOnce> TWICE_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Twice", TWICE, 2);

  /**
   * A loop condition that reads a value twice ({@code i * i < 30}: the counter is read once and
   * used on both sides) is written inline with the value's text at both places. Before the fix,
   * the condition took the text of its first read and named the second by a local never
   * declared: the generated class did not compile ("cannot find symbol: variable i2" in
   * {@code for (int i = 0; i * i2 < 30; i++)}).
   */
  @Test
  void aLoopConditionReadingAValueTwice() throws Exception {
    for (CompiledOnce version : TWICE_COMPILED) {
      for (String name : List.of("forCounter", "whileCounter", "doCounter", "elements",
          "second")) {
        MemberAgreement method = MemberAgreement.of(version.get(), "com.example.Twice", name,
            true, true, false);
        for (int k = -1; k < 4; k++) {
          method.checkScalar(new Object[] {0.3, 0.7, k}, name.equals("second") ? 2 : 1, 1e-7);
          method.checkScalar(new Object[] {-0.45, 0.6, k}, name.equals("second") ? 2 : 1, 1e-7);
        }
      }
    }
  }

  /**
   * A {@code @Checkpointed} loop whose condition assigns a local only sometimes (after
   * {@code &&}, in a branch of {@code ?:}) is an error, as one whose condition assigns it always
   * was: the reverse sweep computes the iterations of a segment anew from the snapshot of its
   * first, running the body and the update but not the condition between them (a condition
   * that assigns a {@code double} becomes part of the body, and is right). Before the fix
   * only an assignment at the top of the condition was seen: {@code for (int i = 0; i < 5 &&
   * (j = j * 3 % 11) >= 0; i++) { s = s * x + j; }} compiled, and at (0.3, 0.7, k = 1) its
   * gradient was (8.10235, 0.00243) for (9.78235, 0.00243), with no error.
   */
  @Test
  void aCheckpointedLoopWhoseConditionAssignsAfterAndIsAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Checkpointed(snapshots = 2) @Differentiable static double f(double x, double y,",
        "      int k) {",
        "    double s = y;",
        "    int j = k;",
        "    for (int i = 0; i < 5 && (j = j * 3 % 11) >= 0; i++) {",
        "      s = s * x + j;",
        "    }",
        "    return s;",
        "  }",
        "}"), "loop of method 'f' cannot be checkpointed (@Checkpointed): its condition assigns"
            + " 'j'; assign it in the body or the update", 9, 5);
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Checkpointed(snapshots = 2) @Differentiable static double f(double x, double y,",
        "      int k) {",
        "    double s = y;",
        "    int j = k;",
        "    int i = 0;",
        "    while (i < 5 && (k > 0 ? (j = j * 3 % 11) : j) >= 0) { s = s * x + j; i++; }",
        "    return s;",
        "  }",
        "}"), "its condition assigns 'j'; assign it in the body or the update", 10, 5);
  }

  private static final String CHECKPOINTED_ASSERT = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.Differentiable;",
      "final class CheckedLoop {",
      "  @Checkpointed(snapshots = 2) @Differentiable static double f(double x, double y,",
      "      int k) {",
      "    double s = y;",
      "    int n = k;",
      "    for (int i = 0; i < 11; i++) {",
      "      double t = s;",
      "      assert (t = t * 0.5) > -1e9 && ++n > -1000;",
      "      s = Math.sin(s * x) + t * 0.3 + n * 0.01;",
      "    }",
      "    return s + n;",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double g(double x, double y) {",
      "    double s = y;",
      "    for (int i = 0; i < 7 && s > -1e9; i++) { s = Math.sin(s * x) * 0.5 + 0.3 * s; }",
      "    return s;",
      "  }",
      "}");

  /**
   * An {@code assert} in a {@code @Checkpointed} loop: the test of the class's assertion
   * status, asked once per class, may run again when the reverse sweep computes iterations
   * anew. It was the error "it calls 'ad4j.runtime.internal.Assertions.enabled', which is not
   * @Differentiable", a call the user never wrote. An {@code &&} without assignments in the
   * condition stays accepted.
   */
  @Test
  void anAssertInACheckpointedLoop() throws Exception {
    for (boolean enabled : List.of(false, true)) {
      Compiled loaded = InProcessCompiler.loadedWithAssertions(InProcessCompiler.javac(
              "-Xlint:all", "-Werror").compile(com.google.testing.compile.JavaFileObjects
              .forSourceString("com.example.CheckedLoop", CHECKPOINTED_ASSERT)),
          Map.of("com.example.CheckedLoop", enabled));
      MemberAgreement f = MemberAgreement.of(loaded, "com.example.CheckedLoop", "f", true,
          true, false);
      for (int k = 0; k < 3; k++) {
        f.checkScalar(new Object[] {0.3, 0.7, k}, 1, 1e-7);
        f.checkScalar(new Object[] {-0.45, 0.6, k}, 1, 1e-7);
      }
      MemberAgreement.of(loaded, "com.example.CheckedLoop", "g", true, true)
          .checkScalarAt(new double[][] {{0.3, 0.7}, {-0.45, 0.6}}, 1, 1e-7);
    }
  }
}
