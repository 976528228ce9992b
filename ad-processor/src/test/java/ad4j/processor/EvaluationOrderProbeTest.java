package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertWithMessage;

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
 * the body changes or whose condition reads a value twice, labelled jumps out of nested loops,
 * a loop counter kept in an array, conditions of {@code @Checkpointed} loops that assign. Every
 * member against differences of order 8 of the user's method, values bit for bit
 * ({@link MemberAgreement}), whole and cut into parts of 2 statements where the class says so.
 * Three wrong results and one uncompilable generated class were found and fixed (see each
 * test); what was exact from the start is {@link #effectsIntegersAndLoopsThatWereExact}.
 */
@ExtendWith(TapeIsEmpty.class)
class EvaluationOrderProbeTest {
  private static final String ASSERTS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleUnaryOperator;",
      "import java.util.stream.IntStream;",
      "final class Asserted {",
      "  static final DoubleUnaryOperator F =",
      "      v -> { double t = v; assert (t = t * 3) > -1e9; return t * v; };",
      "  @Differentiable static double inLambdas(double x, double y) {",
      "    DoubleUnaryOperator h =",
      "        v -> { double t = v; assert (t = t + 1) > -1e9; return t * t * y; };",
      "    return h.applyAsDouble(x) + F.applyAsDouble(x * y);",
      "  }",
      "  @Differentiable static double inAStream(double x, double y) {",
      "    return IntStream.range(0, 3).mapToDouble(i -> {",
      "      double t = x * i;",
      "      assert (t = t * y) > -1e9;",
      "      return t * x + y;",
      "    }).sum();",
      "  }",
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
   * The same in a lambda's block, a local function's or a {@code static final} one's, and a
   * stream's (both wrong before the fix at every point tried).
   */
  @Test
  void aLocalAssignedInAnAssertKeepsItsValueWhereAssertionsAreDisabled() throws Exception {
    for (boolean enabled : List.of(false, true)) {
      Compiled loaded = InProcessCompiler.loadedWithAssertions(ASSERTED.get().compilation(),
          Map.of("com.example.Asserted", enabled));
      for (String name : List.of("assigned", "reassigned", "compound", "counted", "inALoop",
          "inLambdas", "inAStream")) {
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

  private static final String EFFECTS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.stream.IntStream;",
      "@SuppressWarnings({\"lossy-conversions\", \"fallthrough\", \"cast\"})",
      "final class Effects {",
      "  @Differentiable static double postIndexCompound(double x, double y) {",
      "    double[] a = {x, y, x * y, 0.5};",
      "    int i = 0;",
      "    a[i++] += Math.sin(a[i]) * x;",
      "    a[i++] *= a[i] + y;",
      "    return a[0] + a[1] * a[2] + i;",
      "  }",
      "  @Differentiable static double ternaryWithIncrement(double x, double y) {",
      "    double[] a = {x, y, x * y, 0.5, y * y};",
      "    int i = 1;",
      "    double s = x;",
      "    for (int r = 0; r < 4; r++) {",
      "      s = (i++ < 3 ? a[i] : a[--i]) * s + 0.1;",
      "    }",
      "    return s + i;",
      "  }",
      "  @Differentiable static double indexReassignedInRhs(double x, double y) {",
      "    double[] a = {x, y, x * y, 0.5};",
      "    int k = 0;",
      "    a[k] *= (a[k = 2] + x);",
      "    a[k] += (a[k = 1] * y);",
      "    return a[0] + 2 * a[1] + 3 * a[2] + k;",
      "  }",
      "  @Differentiable static double assignmentAsValue(double x, double y) {",
      "    double s = y;",
      "    double r = (s = s * x) + s;",
      "    double t = s * (s = x + y) * s;",
      "    return r + t + s;",
      "  }",
      "  static int pick(int[] c) { return c[0]++ % 3; }",
      "  @Differentiable static double indexFromEffectCall(double x, double y) {",
      "    double[] a = {x, y, x * y};",
      "    int[] c = {0};",
      "    for (int r = 0; r < 5; r++) {",
      "      a[pick(c)] += a[c[0] % 3] * x;",
      "    }",
      "    return a[0] + a[1] * a[2] + c[0];",
      "  }",
      "  @Differentiable static double g(double p, double q) { return p * q + Math.sin(p); }",
      "  @Differentiable static double effectArguments(double x, double y) {",
      "    double[] a = {x, y, x * y, 0.3, y - x};",
      "    int j = 0;",
      "    double s = g(a[j++], a[j++]);",
      "    s += g(a[j++], a[j]) * a[j++];",
      "    return s + a[j] + j;",
      "  }",
      "  @Differentiable static double nestedTernaryAssign(double x, double y, int k) {",
      "    double s = 0;",
      "    double t = x;",
      "    double r = k > 2 ? (s = x * y) : k > 0 ? (t = t * y + (s = t)) : (s += t * t);",
      "    return r * s + t;",
      "  }",
      "  @Differentiable static double compoundRhsWritesSameVar(double x, double y) {",
      "    double s = x;",
      "    s += (s = y * y) * s;",
      "    double t = x;",
      "    t *= (t += y) + t;",
      "    double u = y;",
      "    u -= u++ * (u = x);",
      "    return s + t + u;",
      "  }",
      "  @Differentiable static double compoundRhsWritesArray(double x, double y) {",
      "    double[] a = {x, y};",
      "    double[] b = {y, x};",
      "    a[0] += (a = b)[0] * x;",
      "    return a[0] + a[1] + b[0] * b[1];",
      "  }",
      "  @Differentiable static double arrayRefReassignedInIndex(double x, double y) {",
      "    double[] a = {x, y, 0.3};",
      "    double[] b = {y * y, x, 1.5};",
      "    double[] c = a;",
      "    c[(c = b).length - 2] = x * y;",
      "    return a[0] + a[1] * 2 + b[0] * 3 + b[1] * 5 + c[1];",
      "  }",
      "  @Differentiable static double intStateInLoop(double x, double y, int k) {",
      "    double s = y;",
      "    int i = 3 + k;",
      "    int j = 1;",
      "    for (int r = 0; r < 8; r++) {",
      "      s = s * (i = i * 3 % 7) * 0.2 + x * (j += i) * 0.01;",
      "      if ((j & 1) == 0) s *= x;",
      "    }",
      "    return s + i + j;",
      "  }",
      "  @Differentiable static double intSelfAssign(double x, double y, int k) {",
      "    int i = k;",
      "    i = i++;",
      "    int j = k;",
      "    j += j++ + ++j;",
      "    int m = k;",
      "    m = m++ * 2 + m;",
      "    return x * i + y * j + x * y * m;",
      "  }",
      "  @Differentiable static double doubleSelfIncrement(double x, double y) {",
      "    double s = x;",
      "    s = s++ + s;",
      "    double t = y;",
      "    t *= (t = x);",
      "    double u = x;",
      "    u = u * y + (u = y) * u;",
      "    double v = y;",
      "    v += v-- * (v += x);",
      "    return s + t * 2 + u * 3 + v * 5;",
      "  }",
      "  @Differentiable static double arraySelfCompound(double x, double y) {",
      "    double[] a = {x, y, 0.5};",
      "    int i = 0;",
      "    a[i] *= (a[i] = y);",
      "    a[++i] = a[i++] * x + a[i];",
      "    a[i] -= (a[i--] = x) * a[i];",
      "    return a[0] + 2 * a[1] + 3 * a[2] + i;",
      "  }",
      "  @Differentiable static double assignedArgumentsToCallee(double x, double y) {",
      "    double s;",
      "    double r = h(s = x * y, s) + h(s, s = y) + s;",
      "    return r;",
      "  }",
      "  @Differentiable static double h(double p, double q) { return p * p * q + Math.cos(q); }",
      "  @Differentiable static double lambdaSumSideEffect(double x, double y) {",
      "    double[] a = {x, y, x * y};",
      "    double s = IntStream.range(0, 3).mapToDouble(i -> a[i] * (a[(i + 1) % 3] = y)).sum();",
      "    return s + a[0] + a[1];",
      "  }",
      "  @Differentiable static double switchExprEffects(double x, double y, int k) {",
      "    double s = x;",
      "    int i = k;",
      "    double r = switch (i++ % 3) {",
      "      case 0 -> (s = s * y) + i;",
      "      case 1 -> { s += y; i += 2; yield s * s; }",
      "      default -> s * (i = 7);",
      "    };",
      "    return r + s * i;",
      "  }",
      "  @Differentiable static double maxOfIncrements(double x, double y, int k) {",
      "    int i = k;",
      "    int j = 2;",
      "    int m = Math.max(i++, j++) + Math.min(++i, j--);",
      "    double[] a = {x, y, x + y, x * y, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};",
      "    return a[Math.abs(m) % 4] * x + a[Math.abs(i) % 4] * y + j;",
      "  }",
      "  @Differentiable static double conditionalIndex(double x, double y, int k) {",
      "    double[] a = {x, y, x * y, 0.5};",
      "    int i = 0;",
      "    double s = 0;",
      "    while (i < 4) {",
      "      s += (k > 2 ? a[i++] : a[i] * a[i++]) * x;",
      "    }",
      "    return s + i;",
      "  }",
      "  @Differentiable static double oldValue(double x, double y, int k) {",
      "    double s = y;",
      "    int i = k;",
      "    double[] a = {x, y, x * y, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5};",
      "    for (int r = 0; r < 4; r++) {",
      "      double old = s;",
      "      int prev = i;",
      "      i += 2;",
      "      s = s * x + a[Math.abs(prev) % 12];",
      "      s += old * a[Math.abs(i) % 12] * 0.1;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double conditionAssigns(double x, double y, int k) {",
      "    double s = y;",
      "    double t = 0;",
      "    int i = 0;",
      "    int j = 0;",
      "    while (i++ < 6 + k && (j = i * 2) < 10 && (t = s) < 50) { s = s * x + t * 0.1 + j * 0.01; }",
      "    return s + t + i + j;",
      "  }",
      "  @Differentiable static double elementOld(double x, double y) {",
      "    double[] a = {x, y};",
      "    double v = a[0];",
      "    a[0] = x * y;",
      "    double w = a[1];",
      "    a[1] += v;",
      "    return v * a[0] + w * a[1];",
      "  }",
      "  @Differentiable static double counterReadInUpdate(double x, double y, int k) {",
      "    double s = y;",
      "    int m = 0;",
      "    for (int i = 0; i < 6; m = i, i += 1 + m % 2) { s = s * x * 0.8 + m * 0.1 + i * 0.01; }",
      "    return s + m;",
      "  }",
      "  @Differentiable static double intOldInCondition(double x, double y, int k) {",
      "    double s = y;",
      "    int i = k;",
      "    int last = -1;",
      "    for (int r = 0; r < 5 && (last = i) < 10; r++) { i = i * 2 + 1; s = s * x + last * 0.01; }",
      "    return s + last;",
      "  }",
      "  @Differentiable static double doWhileCond(double x, double y, int k) {",
      "    double s = y;",
      "    int i = k;",
      "    int j;",
      "    do { s = s * x * 0.9 + 0.2; j = i; } while ((i = i + 3) * j < 60 && i < 40);",
      "    return s + i + j;",
      "  }",
      "}");

  private static final String INTEGERS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.stream.IntStream;",
      "@SuppressWarnings({\"lossy-conversions\", \"fallthrough\", \"cast\"})",
      "final class Integers {",
      "  @Differentiable static double longCounter(double x, double y, int k) {",
      "    double s = y;",
      "    long n = 10 + k;",
      "    for (long i = 0; i < n; i += 3) {",
      "      s = s * x * 0.5 + Math.sin(s) * i;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double longOverflowCounter(double x, double y) {",
      "    double s = y;",
      "    for (long i = Long.MAX_VALUE - 3; i > 0; i++) {",
      "      s = s * x + 0.25;",
      "    }",
      "    int j = Integer.MAX_VALUE - 2;",
      "    while (j > 0) { s = s * y + 0.1; j++; }",
      "    return s;",
      "  }",
      "  @Differentiable static double castAsIndex(double x, double y) {",
      "    double[] a = {x, y, x * y, 0.5, y * y};",
      "    double s = 0;",
      "    for (int r = 0; r < 5; r++) {",
      "      int i = (int) (Math.abs(x * 3 + r)) % 5;",
      "      s += a[i] * (r + 1);",
      "      a[(int) Math.abs(y * 2) % 5] *= x;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double intDivMod(double x, double y, int k) {",
      "    int a = -7 + k;",
      "    int q = a / 3;",
      "    int r = a % 3;",
      "    int f = Math.floorMod(a, 3);",
      "    int d = Math.floorDiv(a, 3);",
      "    return x * q + y * r + x * y * f + d * y;",
      "  }",
      "  @Differentiable static double roundCast(double x, double y) {",
      "    long m = Math.round(x * 3);",
      "    int n = Math.round((float) y * 3);",
      "    return x * m + y * n + Math.rint(x) * y;",
      "  }",
      "  @Differentiable static double charArith(double x, double y, int k) {",
      "    int c = 'a';",
      "    c += k;",
      "    c++;",
      "    int d = c - 'a';",
      "    int e = c + 1;",
      "    return x * d + y * (e - 'b') + ('a' + 'b') * x + 'c' / 2 * y;",
      "  }",
      "  @Differentiable static double shifts(double x, double y, int k) {",
      "    int kk = Math.abs(k) % 5;",
      "    double a = x * (1 << kk);",
      "    double b = y * (1L << (kk + 33));",
      "    return a + b * 1e-10 + x * (-16 >> 2) + y * (-16 >>> 28);",
      "  }",
      "  @Differentiable static double byteOverflow(double x, double y) {",
      "    int b = 120;",
      "    double s = x;",
      "    for (int i = 0; i < 12; i++) { b++; s += y * (b & 0xff) * 0.01; }",
      "    return s + x * (short) 70000 * 1e-4;",
      "  }",
      "  @Differentiable static double intOverflowMul(double x, double y) {",
      "    int big = 100000;",
      "    int p = big * big;",
      "    long lp = (long) big * big;",
      "    return x * p * 1e-9 + y * lp * 1e-10;",
      "  }",
      "  @Differentiable static double ternaryNumericPromotion(double x, double y, int k) {",
      "    int i = 1;",
      "    double r = (k > 2 ? i : x) * y;",
      "    double q = (k > 3 ? k : 0.5) * x;",
      "    return r + q + (k > 1 ? 'a' : x) * y;",
      "  }",
      "  @Differentiable static double overflowFactor(double x, double y, int k) {",
      "    int i = 100000 + k;",
      "    int j = 30000 - k;",
      "    return i * j * x + x * i * j + i * (j * y) + (long) i * j * y * 1e-9 + i * i * x * y;",
      "  }",
      "  @Differentiable static double overflowInLoop(double x, double y, int k) {",
      "    double s = 0;",
      "    int m = 1;",
      "    for (int r = 0; r < 40; r++) { m *= 3 + k; s += m * x * 1e-9 + s * y * 1e-3; }",
      "    return s;",
      "  }",
      "  @Differentiable static double intDivision(double x, double y, int k) {",
      "    int i = 7 + k;",
      "    double d = i / 2;",
      "    double e = i / 2.0;",
      "    return d * x + e * y + i / 2 * x * y + x / 2 * 3 + 3 / 2 * x + -i / 2 * y + -i % 3 * x;",
      "  }",
      "  @Differentiable static double longFromInt(double x, double y, int k) {",
      "    int i = 70000 + k;",
      "    long a = i * i;",
      "    long b = (long) i * i;",
      "    return a * x * 1e-9 + b * y * 1e-9;",
      "  }",
      "  @Differentiable static double signs(double x, double y) {",
      "    return Math.signum(x) * x + Math.copySign(x, y) + Math.copySign(y * y, x) + Math.abs(x) * y;",
      "  }",
      "  @Differentiable static double scalbs(double x, double y, int k) {",
      "    return Math.scalb(x, k) + Math.fma(x, y, x * y) + Math.hypot(x, y) + Math.getExponent(y) * x",
      ";",
      "  }",
      "  @Differentiable static double constantFolds(double x, double y) {",
      "    return (1 << 33) * x + (1L << 65) * y + (-7 / 2) * x + (-7 % 3) * y",
      "        + (Integer.MAX_VALUE + 1) * 1e-9 * x + (int) 3.9e10 * 1e-9 * y",
      "        + -Integer.MIN_VALUE * 1e-9 * x + (-16 >> 2) * y + (-16 >>> 28) * x",
      "        + (0x7fffffff * 2) * y + 'a' / 2 * x + (double) (float) 0.1 * y + (float) 0.1 * x;",
      "  }",
      "  @Differentiable static double longMax(double x, double y) {",
      "    long big = Long.MAX_VALUE;",
      "    return x * big * 1e-19 + (double) big * y * 1e-19 + (big + 1) * 1e-19 * x + (float) big * y * 1e-19;",
      "  }",
      "  @Differentiable static double compoundDoubleFromInts(double x, double y, int k) {",
      "    double s = x;",
      "    s += k / 2;",
      "    s *= (k + 1) / 3 + y;",
      "    s -= k % 2 * x;",
      "    s /= 1 + k * k;",
      "    return s;",
      "  }",
      "}");

  private static final String LOOPS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.stream.IntStream;",
      "@SuppressWarnings({\"lossy-conversions\", \"fallthrough\", \"cast\"})",
      "final class Loops {",
      "  @Differentiable static double boundModified(double x, double y, int k) {",
      "    double s = y;",
      "    int n = 6;",
      "    for (int i = 0; i < n; i++) {",
      "      s = s * x * 0.7 + 0.2 * Math.cos(s);",
      "      if (i == 1) n -= 2;",
      "      if (i == k) n += 1;",
      "    }",
      "    return s + n;",
      "  }",
      "  @Differentiable static double boundFromActive(double x, double y) {",
      "    double s = y;",
      "    int n = 3;",
      "    for (int i = 0; i < n && i < 20; i++) {",
      "      s = s * x + 0.3;",
      "      if (s < 1.5 && i < 8) n++;",
      "    }",
      "    return s * n;",
      "  }",
      "  @Differentiable static double continueInDoWhile(double x, double y, int k) {",
      "    double s = y;",
      "    int i = 0;",
      "    do {",
      "      i++;",
      "      if (i % 3 == k % 3) continue;",
      "      s = s * x * 0.8 + Math.sin(s * y);",
      "    } while (i < 7);",
      "    return s;",
      "  }",
      "  @Differentiable static double labelledNested(double x, double y, int k) {",
      "    double s = x; double t = y;",
      "    outer:",
      "    for (int i = 0; i < 5; i++) {",
      "      inner:",
      "      for (int j = 0; j < 5; j++) {",
      "        s = s * 0.9 + t * x * 0.1;",
      "        if (j == i + k) continue outer;",
      "        if (j > 2) break inner;",
      "        t = Math.sin(t + s);",
      "        if (i * j == 6) break outer;",
      "      }",
      "      t *= 1.01;",
      "    }",
      "    return s * t;",
      "  }",
      "  @Differentiable static double labelledWhileDo(double x, double y, int k) {",
      "    double s = x; double t = y;",
      "    int i = 0;",
      "    outer:",
      "    while (i < 5) {",
      "      i++;",
      "      int j = 0;",
      "      do {",
      "        j++;",
      "        s += t * 0.2;",
      "        if (j == k) continue outer;",
      "        if (i + j == 6) break outer;",
      "        t = t * x * 0.9;",
      "      } while (j < 3);",
      "      s *= 0.95;",
      "    }",
      "    return s + t;",
      "  }",
      "  @Differentiable static double counterInArray(double x, double y, int k) {",
      "    int[] c = {0, 5};",
      "    double s = y;",
      "    for (c[0] = 0; c[0] < c[1]; c[0]++) {",
      "      s = s * x * 0.6 + c[0] * 0.1;",
      "      if (c[0] == k) c[1]--;",
      "    }",
      "    return s + c[0];",
      "  }",
      "  @Differentiable static double whileWithPostDecrementBound(double x, double y, int k) {",
      "    double s = y;",
      "    int n = 5 + k;",
      "    while (n-- > 0) {",
      "      s = s * x * 0.5 + (n & 1) * 0.3;",
      "    }",
      "    return s + n;",
      "  }",
      "  @Differentiable static double forEachModifiedArray(double x, double y) {",
      "    double[] a = {x, y, x * y};",
      "    double s = 0;",
      "    for (double v : a) {",
      "      s += v * x;",
      "      a[2] = s * y;",
      "      a[1] += 0.5;",
      "    }",
      "    return s + a[1] + a[2];",
      "  }",
      "  @Differentiable static double switchFallInLoopWithContinue(double x, double y, int k) {",
      "    double s = x;",
      "    for (int i = 0; i < 6; i++) {",
      "      switch ((i + k) % 3) {",
      "        case 0: s *= y; if (i > 2) continue;",
      "        case 1: s += x; break;",
      "        default: s = Math.sin(s);",
      "      }",
      "      s += 0.01;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double aliasLocal(double x, double y) {",
      "    double[] a = {y, 1};",
      "    double[] b = a;",
      "    b[0] = x * x;",
      "    return a[0] * y + b[1];",
      "  }",
      "  @Differentiable static double aliasLocalLoop(double x, double y) {",
      "    double[] a = {y, 1, x};",
      "    double[] b = a;",
      "    for (int i = 0; i < 3; i++) { b[i] *= a[(i + 1) % 3] + x; a[i] += b[i] * 0.5; }",
      "    return a[0] * y + b[1] + a[2];",
      "  }",
      "  @Differentiable static double rowAlias(double x, double y) {",
      "    double[][] m = {{x, y}, {y, x}};",
      "    double[] row = m[0];",
      "    row[1] = x * y * 3;",
      "    m[1][0] += row[1] * y;",
      "    row[0] *= m[0][1];",
      "    return m[0][0] + m[0][1] * m[1][1] + m[1][0];",
      "  }",
      "  @Differentiable static double aliasParamRead(double[] p, double x) {",
      "    double[] b = p;",
      "    double[] c = b.clone();",
      "    c[0] = x * b[1];",
      "    return c[0] + p[0] * c[1] + b[2];",
      "  }",
      "  @Differentiable static double aliasChain(double x, double y) {",
      "    double[] a = {x, y};",
      "    double[] b = a;",
      "    double[] c = b;",
      "    c[1] = a[0] * b[1];",
      "    b[0] += c[1];",
      "    return a[0] * a[1];",
      "  }",
      "  @Differentiable static double aliasAfterWrite(double x, double y) {",
      "    double[] a = {x, y};",
      "    a[0] = x * y;",
      "    double[] b = a;",
      "    double t = b[0];",
      "    a[0] = y;",
      "    return t + b[0] * x;",
      "  }",
      "  @Differentiable static double indexChangedLater(double x, double y, int k) {",
      "    double[] a = {x, y, x * y, 0.5};",
      "    int[] n = {k & 3, (k + 1) & 3, 2};",
      "    double s = a[n[0]] * a[n[1]];",
      "    n[0] = 3 - n[0];",
      "    n[1] = n[2]--;",
      "    s += a[n[0]] * a[n[1]] * s;",
      "    n[2] += n[0];",
      "    s *= a[n[2] & 3];",
      "    return s;",
      "  }",
      "  @Differentiable static double nestedIndexEffects(double x, double y, int k) {",
      "    double[] a = {x, y, x * y, 0.5, y - x};",
      "    int[] idx = {0, 1, 2, 3, 4};",
      "    int p = k & 3;",
      "    double s = 0;",
      "    for (int r = 0; r < 4; r++) {",
      "      a[idx[p++ % 5]] += a[idx[p % 5]] * (s += a[idx[(p + r) % 5]] * x);",
      "      idx[(p + 2) % 5] = idx[p % 5];",
      "    }",
      "    return s + a[0] + a[1] * a[2];",
      "  }",
      "  @Differentiable static double mulIntoIntArray(double x, double y, int k) {",
      "    int[] n = {1, 2, 3};",
      "    double[] a = {x, y, x * y};",
      "    double s = 0;",
      "    for (int r = 0; r < 6; r++) {",
      "      n[r % 3] *= n[(r + 1) % 3] + k;",
      "      n[r % 3] %= 5;",
      "      if (n[r % 3] < 0) n[r % 3] += 5;",
      "      s += a[n[r % 3] % 3] * (n[(r + 2) % 3] + 1) * x;",
      "    }",
      "    return s;",
      "  }",
      "}");

  private static final List<List<CompiledOnce>> PROBES = List.of(
      CompiledOnce.wholeAndInParts("com.example.Effects", EFFECTS, 2),
      CompiledOnce.wholeAndInParts("com.example.Integers", INTEGERS, 2),
      CompiledOnce.wholeAndInParts("com.example.Loops", LOOPS, 2));

  /**
   * The probes that were exact before this class was written, kept as tests: side effects
   * inside expressions ({@code a[i++] += Math.sin(a[i]) * x}, {@code a[k] *= (a[k = 2] + x)},
   * {@code (s = s * x) + s}, {@code g(a[j++], a[j++])}, indices chosen by calls with effects,
   * nested conditionals that assign, {@code i = i++}); {@code int}, {@code long} and
   * {@code char} arithmetic feeding doubles (overflow before and after widening, integer
   * division and remainders of negatives, {@code floorMod}, {@code round}, shifts by 33 and 65,
   * narrowing compound assignments, {@code long} counters); loops whose bound the body changes,
   * {@code continue} in a {@code do} loop, labelled jumps out of nested loops, a counter kept
   * in an array; local arrays aliased to others. Each {@code @Differentiable} method at two
   * points and four values of its {@code int} parameter, if it has one.
   */
  @Test
  void effectsIntegersAndLoopsThatWereExact() throws Exception {
    List<String> names = List.of("com.example.Effects", "com.example.Integers",
        "com.example.Loops");
    List<Integer> methods = List.of(27, 19, 18);
    for (int c = 0; c < names.size(); c++) {
      String userName = names.get(c);
      for (CompiledOnce version : PROBES.get(c)) {
        Compiled compiled = version.get();
        int checked = 0;
        Class<?> user = compiled.load(userName);
        Class<?> generated = compiled.load(userName + "Grad");
        for (java.lang.reflect.Method method : user.getDeclaredMethods()) {
          if (!hasMember(generated, method.getName() + "Gradient")
              && !hasMember(generated, method.getName() + "Jacobian")) {
            continue;
          }
          Class<?>[] types = method.getParameterTypes();
          boolean[] active = new boolean[types.length];
          for (int i = 0; i < types.length; i++) {
            active[i] = types[i] == double.class || types[i] == double[].class;
          }
          MemberAgreement agreement = MemberAgreement.of(compiled, userName, method.getName(),
              active);
          checked++;
          for (double[] point : new double[][] {{0.3, 0.7}, {-0.45, 0.6}}) {
            for (int k = 0; k < 4; k++) {
              Object[] arguments = new Object[types.length];
              for (int i = 0, d = 0; i < types.length; i++) {
                arguments[i] = types[i] == int.class ? (Object) k
                    : types[i] == double[].class
                        ? new double[] {point[0], point[1], -0.45, point[0] * point[1]}
                        : (Object) point[d++ % 2];
              }
              if (method.getReturnType() == double[].class) {
                agreement.checkVector(arguments);
              } else {
                agreement.checkScalar(arguments, 1, 1e-6);
              }
            }
          }
        }
        assertWithMessage("methods checked in %s", userName).that(checked)
            .isEqualTo(methods.get(c));
      }
    }
  }

  private static boolean hasMember(Class<?> generated, String name) {
    for (java.lang.reflect.Method method : generated.getDeclaredMethods()) {
      if (method.getName().equals(name)) {
        return true;
      }
    }
    return false;
  }
}
