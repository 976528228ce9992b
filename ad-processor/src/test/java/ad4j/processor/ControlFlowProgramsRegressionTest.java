package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.runtime.internal.Tape;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Processor bugs found by {@link ControlFlowProgramsPropertyTest}, each shrunk by hand to a
 * minimal method. Bugs 1 to 4 are compile errors in the generated {@code FooGrad} (javac rejects
 * the generated source), found on commit 852ec0f and present on 9bab8fc too; bug 5 is a value of
 * {@code mValueAndGradient} and {@code mPullback} that differs from the user's method. All five
 * are fixed; the generator produces their shapes again (it can still leave them out, with
 * {@code -Dad4j.knownBugs=avoid}, to tell a new bug from an old one).
 *
 * <p>Each test compiles the method with {@code -Xlint:all -Werror} and then runs the full
 * {@link DerivativeChecks} (values bit for bit, gradient against finite differences, forward
 * against reverse mode) and checks that the tape is empty, at points away from the branch
 * boundaries.
 */
class ControlFlowProgramsRegressionTest {
  private static void check(String body, double... points) {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Repro {",
        "  @Differentiable static double f(double x) {",
        "    " + body,
        "  }",
        "}");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Repro", source);
    CompiledFunction f = compiled.function("com.example.Repro", "f", 1);
    for (double x : points) {
      DerivativeChecks.checkAt(f, x);
      assertThat(Tape.current().size()).isEqualTo(0);
    }
  }

  /**
   * Bug 1: a {@code return} inside an {@code if} nested in another {@code if}, followed by code
   * that reads a variable twice. The generated {@code fValueAndGradient} and {@code fPullback}
   * declare the hoisted local {@code double x2 = 0.0;} twice ("variable x2 is already defined"):
   * the continuation {@code return x * x} is emitted in two places (the inner else and the outer
   * else) and each copy adds the declaration of its read of {@code x}. Expected: compiles;
   * f(-1.5) = 2.25 with f' = -3, f(1) = 4 with f' = 0, f(3) = 1 with f' = 0.
   */
  @Test
  void returnNestedInTwoIfs() {
    check("if (x > 0) { if (x > 2) { return 1; } x = 2; } return x * x;", -1.5, 1, 3);
  }

  /**
   * Bug 1, at the top level without a second read: the reverse sweep refers to
   * {@code t3Bar}, declared in a block it is not in ("cannot find symbol t3Bar"). Expected:
   * f(x) = 4x below 2 (f' = 4), x above 2.
   */
  @Test
  void returnNestedInTwoIfsThenLoop() {
    check("if (x > 1) { if (x > 2) { return x; } } "
        + "for (int j = 0; j < 2; j++) { x = x * 2; } return x;", 0.5, 1.5, 2.5);
  }

  /**
   * Bug 2: a {@code break} (the same with {@code continue} or {@code return}) inside an
   * {@code if} nested in another {@code if} of a loop body, followed by an inner loop: the
   * generated code reads {@code loop4Trips}, the inner loop's trip count, where it is not
   * declared ("cannot find symbol loop4Trips"). Expected: f(0.3) = 1.2 with f' = 4 (the first
   * pass multiplies by 4, the second breaks), f(-0.5) = -8 with f' = 16.
   */
  @Test
  void breakNestedInTwoIfsThenInnerLoop() {
    check("for (int i = 0; i < 2; i++) { if (x > 1) { if (x > i) { break; } } "
        + "for (int j = 0; j < 2; j++) { x = x * 2; } } return x;", 0.3, -0.5);
  }

  /**
   * Bug 3: a {@code float} intermediate that the reverse sweep needs, inside a loop
   * ({@code Math.signum(int)} is {@code signum(float)}): it is pushed on the tape as a double and
   * read back as {@code float t12 = tape.popDouble();}, which javac rejects ("possible lossy
   * conversion from double to float"). Expected: g(x) = f(x, 3) = 3x with g' = 3. (A
   * {@code float} in straight-line code, or outside loops, works.)
   */
  @Test
  void floatIntermediateInsideALoop() {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Repro {",
        "  @Differentiable static double f(double x, int n) {",
        "    double s = x;",
        "    for (int i = 0; i < 2; i++) { s += Math.signum(n) * x; }",
        "    return s;",
        "  }",
        "  @Differentiable static double g(double x) { return f(x, 3); }",
        "}");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Repro", source);
    CompiledFunction g = compiled.function("com.example.Repro", "g", 1);
    DerivativeChecks.checkAt(g, 0.7);
    assertThat(g.gradient(0.7)[0]).isWithin(1e-15).of(3.0);
    assertThat(Tape.current().size()).isEqualTo(0);
  }

  /**
   * Bug 4: a local declared in an {@code if} branch and read, unchanged, in a loop inside that
   * branch: the reverse sweep's loop refers to {@code v} outside the forward sweep's block that
   * declares it ("cannot find symbol v"); {@code v} is neither taped nor hoisted. Expected:
   * f(x) = 8x^4 above 0.5 (f'(1) = 32), x below.
   */
  @Test
  void localOfABranchReadInALoop() {
    check("if (x > 0.5) { double v = x * 2; for (int i = 0; i < 3; i++) { x = x * v; } } "
        + "return x;", 1.0, 0.2);
  }

  /**
   * Bug 4, after a loop with an early {@code return}: the rest of the method is conditional
   * (on "not returned"), so the same happens to {@code v}. Expected: f(-0.5) = 8x^4 = 0.5 with
   * f' = 32x^3 = -4; f(1.5) = 1.5 with f' = 1 (returns in the first pass).
   */
  @Test
  void localAfterAnEarlyReturnReadInALoop() {
    check("for (int i = 0; i < 3; i++) { if (x > i) { return x; } } double v = x * 2; "
        + "for (int j = 0; j < 3; j++) { x = x * v; } return x;", -0.5, 1.5);
  }

  /**
   * Bug 5: the integer branch {@code (1) / (2)} of a {@code double} {@code ?:} is emitted as
   * {@code t1 ? x : (double) (1) / (2)}: the cast binds to {@code (1)} alone (the emitter seems to
   * take a text that starts with '(' and ends with ')' for one parenthesized expression), so the
   * division is done in {@code double}. At x = -1 the method returns 0.0 (integer division) but
   * {@code fValueAndGradient} and {@code fPullback} return 0.5; with
   * {@code (65536 + 0) * (65536 + 0)} they return 4294967296.0 instead of 0.0 (int overflow),
   * with {@code (1 - 2) * (9 * 0)} -0.0 instead of 0.0. Expected: {@code (double) ((1) / (2))}.
   * Written {@code ((1) / (2))}, the branch is emitted correctly.
   */
  @Test
  void integerBranchOfAConditionalKeepsIntegerArithmetic() {
    check("return x > 0 ? x : (1) / (2);", -1, 0.5);
    check("return x > 0 ? x : (65536 + 0) * (65536 + 0);", -1);
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Repro {",
        "  @Differentiable static double f(double x) { return x > 0 ? x : (1) / (2); }",
        "}");
    CompiledFunction f = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Repro", source).function("com.example.Repro", "f", 1);
    assertThat(f.value(-1)).isEqualTo(0.0);
    assertThat(f.valueAndGradient(new double[] {-1}, new double[1])).isEqualTo(0.0);
  }

  /**
   * Bug 4, with the temporary of a {@code ?:} assigned after an early {@code return} and read in
   * a loop: "cannot find symbol choice2". (A plain assignment {@code x = x * 3} in the same place
   * works.) Expected: for 0 <= x <= 1, x' = 3x and s = x' (1 + x' + x'^2) after three passes,
   * so f(0.5) = 1.5 + 2.25 + 3.375 = 7.125 with f' = 3 + 9 + 20.25 = 32.25.
   */
  @Test
  void conditionalTemporaryAfterAnEarlyReturnReadInALoop() {
    check("if (x < 0) { return -x; } x = x > 1 ? x * x : x * 3; double s = 0; "
        + "for (int i = 0; i < 3; i++) { s += s * x + x; } return s;", 0.5, 1.5, -1);
  }

  /**
   * Bug 5 (seed -2739964701167316477 of the property test): a variable that overflows to
   * infinity in a loop and never reaches the result. Its adjoint is zero, but the reverse sweep
   * ran the reverse of what was stored into it, and zero times the infinite partial gave NaN in
   * the gradient of {@code x}. Expected: f = y + 2x², so the gradient is (4x, 1), finite.
   */
  @Test
  void aVariableThatOverflowsAndNeverReachesTheResultLeavesTheGradientFinite() {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Repro {",
        "  @Differentiable static double f(double x, double y) {",
        "    double v = y;",
        "    for (int i = 0; i < 25; i++) { v = (v += x * 3) * v * 1e10; }",
        "    x *= x + x;",
        "    return y + x;",
        "  }",
        "}");
    CompiledFunction f = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Repro", source).function("com.example.Repro", "f", 2);
    double[] gradient = f.gradient(-0.0777, 0.838);
    assertThat(gradient[0]).isWithin(1e-15).of(4 * -0.0777);
    assertThat(gradient[1]).isEqualTo(1.0);
    assertThat(f.tangent(new double[] {-0.0777, 0.838}, new double[] {1, 0}))
        .isWithin(1e-15).of(4 * -0.0777);
    assertThat(Tape.current().size()).isEqualTo(0);
  }

  /**
   * Found by a long run (8,000 programs requested, seed -3957701760595218298, after 2,960): a
   * local that starts inactive ({@code v = 1.5}), is set again in a branch and then multiplied
   * by the input, but never read on the way to the result. Its adjoint is declared as zero,
   * copied once into the adjoint of the product ({@code double t2Bar = v7Bar}) and zeroed again
   * at each assignment; {@code AdjointSums} let the product's adjoint take the local's
   * declaration, and the later zeroings referred to a variable no longer declared ("cannot
   * find symbol v7Bar"). Expected: f(x) = x, f' = 1, on both sides of the branch.
   */
  @Test
  void deadLocalAssignedInABranchThenMultiplied() {
    check("double v = 1.5; if (x < 1) { v = 1; } v *= x; return x;", 0.5, 2.5);
  }
  /**
   * Found by {@link LongBlocksPropertyTest} (seed -4735630697577003672), a wrong gradient, not
   * a compile error, present on 14f5fc2: {@code p = p = w}, its reverse cut into parts of three
   * statements ({@code -Aad4j.partSize=3}, which long methods reach without the option). The
   * adjoint of the chained assignment is {@code t = wBar + pBar; pBar = 0.0; wBar = t + pBar};
   * spreading that sum over the parts flattened {@code t} into the last statement and summed
   * {@code pBar} after it was zeroed, so the gradient with respect to {@code w} missed the loop's
   * part: 1.0 where forward mode and differences give 2.609 at (0.3, -0.0969).
   */
  @Test
  void aChainedAssignmentsAdjointSumIsNotMovedPastTheStoreItReads() {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Chained {",
        "  @Differentiable static double f(double p, double w) {",
        "    p = p = w;",
        "    w += p;",
        "    while (p <= 0) {",
        "      p += 1 / (1.5 + Math.sin(p));",
        "      w += p * p;",
        "    }",
        "    return w;",
        "  }",
        "}");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=3"), "com.example.Chained", source);
    CompiledFunction f = compiled.function("com.example.Chained", "f", 2);
    for (double[] point : new double[][] {{0.3, -0.0969}, {0.1, -0.5}, {-2, 0.4}}) {
      DerivativeChecks.checkAt(f, point);
      assertThat(Tape.current().size()).isEqualTo(0);
    }
  }

  /**
   * An order-2 method's forward-over-reverse sweep cut into parts of one statement ({@code
   * -Aad4j.partSize=1}): the sum {@code xBarDot += t1BarDot * t8 + t8Dot * t1Bar} of the
   * reverse of {@code s += Math.pow(x, i + 1)} has two terms whose formulas share pieces (the
   * exponent {@code (double) (i + 1)} and {@code (double) (i + 1) - 1.0}, read by the partial
   * and by its tangent). Spreading the sum over the parts moved each term's formulas into the
   * part that makes what they read once per read, so that part declared {@code t6} and
   * {@code t7} four times and the generated class did not compile ("variable t3 is already
   * defined in method o2HessianSweepPart17").
   */
  @Test
  void formulasTheTermsOfASpreadSumShareAreMovedOnce() throws Exception {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Powers {",
        "  @Differentiable(order = 2) static double f(double x, double y) {",
        "    double s = 0;",
        "    for (int i = 0; i < 3; i++) s += Math.pow(x, i + 1) * y;",
        "    return s;",
        "  }",
        "}");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=1"), "com.example.Powers", source);
    CompiledFunction f = compiled.function("com.example.Powers", "f", 2);
    for (double[] point : new double[][] {{0.7, -1.3}, {-1.2, 0.4}}) {
      HessianChecks.checkAt(f, compiled.load("com.example.PowersGrad"), point);
      assertThat(Tape.current().size()).isEqualTo(0);
    }
  }
}
