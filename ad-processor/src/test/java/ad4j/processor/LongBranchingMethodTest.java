package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.BytecodeSizes;
import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A long method with a branch outside any loop: a {@code ?:} or an {@code if} makes it more
 * than a straight line, so it is not split into segments before it is differentiated. Its
 * generated programs are cut into part methods instead, as long loop bodies are ({@code
 * LongBlocks}), and the parts leave the values that later parts read on the tape, where those
 * read them. At 120 statements every generated method stays under HotSpot's limit; at 600, and
 * at order 2 with 150, where javac rejected the generated class ("code too large") or the
 * processor refused the method, it compiles. The derivatives stay those of the user's method,
 * on both sides of the branch.
 */
@ExtendWith(TapeIsEmpty.class)
class LongBranchingMethodTest {
  private static final int HOTSPOT_LIMIT = 8000;
  private static final int JVM_LIMIT = 65535;

  /** {@code statements} statements of a chain in x and y, two a step. */
  private static String chain(int statements) {
    StringBuilder chain = new StringBuilder();
    for (int i = 0; i < statements / 2; i++) {
      chain.append("    x = x * a + Math.sin(y) * b;\n");
      chain.append("    y = Math.cos(x) * b - y * 0.001;\n");
    }
    return chain.toString();
  }

  private static final String SOURCE = "package com.example;\nimport ad4j.Differentiable;\n"
      + "final class Long {\n"
      + "  @Differentiable static double choice(double x, double y, double a, double b) {\n"
      + "    if (a < 0) {\n      throw new IllegalArgumentException(\"a < 0\");\n    }\n"
      + chain(60)
      + "    double s = x > y ? x * y : x - y;\n"
      + chain(60)
      + "    return x + y + s;\n  }\n\n"
      + "  @Differentiable static double branched(double x, double y, double a, double b) {\n"
      + chain(300)
      + "    if (x > y) {\n      x = x * y;\n    } else {\n      y = y - x;\n    }\n"
      + chain(300)
      + "    return x + y;\n  }\n\n"
      + order2Chain()
      + "}\n";

  /**
   * An order-2 method of 150 statements with a {@code ?:} after the 76th: its forward-over-reverse
   * sweep, which the branch keeps from being split into segments, would pass the JVM's 64 KB.
   * After the first 76 statements {@code s} is -0.38 at (0.3, 0.5) and -0.78 at (0.6, 0.4): the
   * points of the test are on both sides of the branch.
   */
  private static String order2Chain() {
    StringBuilder method = new StringBuilder(
        "  @Differentiable(order = 2) static double chained(double x, double y) {\n"
            + "    double s = x;\n");
    for (int i = 0; i < 150; i++) {
      method.append("    s = s * 0.5 + Math.sin(y * s + ").append(i % 7).append(") * x;\n");
      if (i == 75) {
        method.append("    s = s > -0.6 ? s * y : s - y;\n");
      }
    }
    return method.append("    return s * y;\n  }\n").toString();
  }

  private static final Compiled COMPILED = InProcessCompiler.compileWith(
      List.of("-Xlint:all", "-Werror"), "com.example.Long", SOURCE);

  @Test
  void everyMethodOfTheHundredAndTwentyStatementChoiceIsUnderHotSpotsLimit() {
    Map<String, Integer> sizes = BytecodeSizes.of(COMPILED.compilation(),
        "com/example/LongGrad.class");
    assertThat(sizes.keySet().stream().filter(m -> m.startsWith("choicePullbackOntoTapePart"))
        .count()).isGreaterThan(1L);
    for (Map.Entry<String, Integer> method : sizes.entrySet()) {
      if (method.getKey().startsWith("choice")) {
        assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
      }
    }
  }

  /**
   * The members of the 600-statement method are cut and compile. Their reverse sweeps read the
   * values of every part of their forward sweeps: the parts leave them on the tape, where later
   * parts read them, so the value and gradient, the pullback and the tangent stay under
   * HotSpot's limit; so does {@code Pullback(Tape, ...)}, which pushes its results above them.
   * The split halves that callers use ({@code Record}, {@code Replay}) would hand every number
   * back to themselves and pass the limit: they fall back to the value and the whole pullback.
   */
  @Test
  void theSixHundredStatementMethodCompilesAndItsMainMembersAreUnderTheLimit() throws Exception {
    Map<String, Integer> sizes = BytecodeSizes.of(COMPILED.compilation(),
        "com/example/LongGrad.class");
    assertThat(sizes.keySet().stream().filter(m -> m.startsWith("branchedPullbackOntoTapePart"))
        .count()).isGreaterThan(1L);
    for (Map.Entry<String, Integer> method : sizes.entrySet()) {
      String name = method.getKey();
      if (name.startsWith("branched")) {
        assertWithMessage(name).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
      }
      assertWithMessage(name).that(method.getValue()).isLessThan(JVM_LIMIT);
    }
    String code = COMPILED.compilation().generatedSourceFile("com.example.LongGrad")
        .orElseThrow().getCharContent(true).toString();
    assertThat(code).containsMatch("tape\\.doubleAt\\(handedAt\\d*, \\d+\\)");
  }

  /**
   * The order-2 method compiles (before, "too long for second derivatives"), and its Hessian is
   * the fourth-order central difference of its gradient, itself checked against the user's
   * method; the Hessian-vector product is the Hessian times the vector.
   */
  @Test
  void theLongOrderTwoMethodWithABranchHasItsHessian() throws Exception {
    CompiledFunction chained = COMPILED.function("com.example.Long", "chained", 2);
    Class<?> grad = COMPILED.load("com.example.LongGrad");
    for (double[] point : new double[][] {{0.3, 0.5}, {0.6, 0.4}}) {
      HessianChecks.checkAt(chained, grad, point);
    }
  }

  @Test
  void derivativesMatchTheUsersMethodOnBothSidesOfTheBranch() {
    CompiledFunction choice = COMPILED.function("com.example.Long", "choice", 4);
    CompiledFunction branched = COMPILED.function("com.example.Long", "branched", 4);
    // after the first chain, x > y at the first point (x = 1.55, y = 0.016) and x < y at the
    // others (0.36 and 0.56, 0.34 and 0.52), for either length of chain
    for (CompiledFunction f : List.of(choice, branched)) {
      DerivativeChecks.checkAt(f, 0.3, 0.2, 0.99, 0.98);
      DerivativeChecks.checkAt(f, -0.1, 0.5, 0.1, 0.6);
      DerivativeChecks.checkAt(f, 0.4, -0.3, 0.2, 0.55);
    }
  }
}
