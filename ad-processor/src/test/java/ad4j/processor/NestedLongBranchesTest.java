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
 * Long methods whose long blocks are branches inside branches: an {@code else if} chain, an
 * {@code if} inside an {@code if}. Their generated programs are cut into part methods in every
 * branch, however deep ({@code LongBlocks}); before, only the method's block and the branches
 * directly in it were cut, and a deeper branch went whole into one part: members of 30 to 40 KB
 * of bytecode for the 480-statement chain below, run interpreted, and javac's "code too large"
 * for the 2,100-statement one. The halves of the split pullback that callers call, which record
 * every number at their end and would stay over HotSpot's limit, fall back to the whole
 * pullback. The derivatives stay those of the user's method in every branch, also through a
 * caller.
 */
@ExtendWith(TapeIsEmpty.class)
class NestedLongBranchesTest {
  private static final int HOTSPOT_LIMIT = 8000;

  /** {@code statements} statements of a chain in x and y, two a step, indented so. */
  private static String chain(int statements, String indent) {
    StringBuilder chain = new StringBuilder();
    for (int i = 0; i < statements / 2; i++) {
      chain.append(indent).append("x = x * a + Math.sin(y) * b;\n");
      chain.append(indent).append("y = Math.cos(x) * b - y * 0.001;\n");
    }
    return chain.toString();
  }

  /** An {@code else if} chain on {@code a} with {@code branches} long branches. */
  private static String elseIfChain(String name, int branches, int statements) {
    StringBuilder method = new StringBuilder("  @Differentiable static double ").append(name)
        .append("(double x, double y, double a, double b) {\n");
    for (int k = 0; k < branches - 1; k++) {
      method.append(k == 0 ? "    if (a < " : "    } else if (a < ")
          .append((k + 1) * 1.0 / branches).append(") {\n").append(chain(statements, "      "));
    }
    return method.append("    } else {\n").append(chain(statements, "      "))
        .append("    }\n    return x + y;\n  }\n").toString();
  }

  private static final String SOURCE = "package com.example;\nimport ad4j.Differentiable;\n"
      + "final class Deep {\n"
      + elseIfChain("elseIf", 4, 120)
      + "  @Differentiable static double nested(double x, double y, double a, double b) {\n"
      + "    if (a > 0) {\n" + chain(100, "      ")
      + "      if (b > 0) {\n" + chain(200, "        ")
      + "      } else {\n" + chain(200, "        ") + "      }\n"
      + chain(100, "      ") + "    } else {\n      x = x - a;\n    }\n"
      + "    return x * y;\n  }\n"
      + "  @Differentiable static double caller(double x, double y, double a, double b) {\n"
      + "    return elseIf(x, y, a, b) * 2 + nested(y, x, a, b) * x;\n  }\n"
      + orderTwo()
      + "}\n";

  /**
   * An order-2 method with 250 statements in a branch nested in another: its forward-over-reverse
   * sweep was cut only around the outer branch, and would have passed the JVM's limit (an error
   * at the method before).
   */
  private static String orderTwo() {
    StringBuilder method = new StringBuilder(
        "  @Differentiable(order = 2) static double inner(double x, double y) {\n"
            + "    double s = x;\n    if (y > 0) {\n      if (x > 0) {\n");
    for (int i = 0; i < 250; i++) {
      method.append("        s = s * 0.5 + Math.sin(y * s + ").append(i % 7).append(") * x;\n");
    }
    return method.append("      }\n    }\n    return s * y;\n  }\n").toString();
  }

  /** Seven branches of 300 statements: a user's method of about 28 KB of bytecode. */
  private static final String HUGE_SOURCE = "package com.example;\n"
      + "import ad4j.Differentiable;\nfinal class Huge {\n"
      + elseIfChain("huge", 7, 300)
      + "}\n";

  private static final Compiled COMPILED = InProcessCompiler.compileWith(
      List.of("-Xlint:all", "-Werror"), "com.example.Deep", SOURCE);

  @Test
  void everyGeneratedMethodIsUnderHotSpotsLimit() throws Exception {
    Map<String, Integer> sizes = BytecodeSizes.of(COMPILED.compilation(),
        "com/example/DeepGrad.class");
    // the parts of the deepest branches: the else-if chain's four, the inner if's two; in
    // the one reverse sweep, which mValueAndGradient and mPullback call
    assertThat(sizes.keySet().stream().filter(m -> m.startsWith("elseIfPullbackOntoTapePart"))
        .count()).isAtLeast(8L);
    assertThat(sizes.keySet().stream().filter(m -> m.startsWith("nestedTangentPart"))
        .count()).isAtLeast(4L);
    for (Map.Entry<String, Integer> method : sizes.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
    }
    String code = COMPILED.compilation().generatedSourceFile("com.example.DeepGrad")
        .orElseThrow().getCharContent(true).toString();
    // a branch's parts leave their values on the tape, and the reverse sweep reads them there
    assertThat(code).containsMatch("tape\\.doubleAt\\(handedAt\\d*, \\d+\\)");
  }

  @Test
  void derivativesMatchTheUsersMethodInEveryBranch() {
    CompiledFunction elseIf = COMPILED.function("com.example.Deep", "elseIf", 4);
    for (double a : new double[] {0.1, 0.35, 0.6, 0.9}) {
      DerivativeChecks.checkAt(elseIf, 0.3, 0.2, a, 0.98);
      DerivativeChecks.checkAt(elseIf, -0.1, 0.5, a, 0.6);
    }
    CompiledFunction nested = COMPILED.function("com.example.Deep", "nested", 4);
    for (double[] point : new double[][] {
        {0.3, 0.2, 0.7, 0.98}, {0.3, 0.2, 0.7, -0.6}, {0.3, 0.2, -0.5, 0.9}}) {
      DerivativeChecks.checkAt(nested, point);
    }
  }

  @Test
  void theOrderTwoMethodHasItsHessianInsideAndOutsideTheBranches() throws Exception {
    CompiledFunction inner = COMPILED.function("com.example.Deep", "inner", 2);
    Class<?> grad = COMPILED.load("com.example.DeepGrad");
    for (double[] point : new double[][] {{0.3, 0.5}, {0.6, 0.4}, {-0.3, 0.5}, {0.3, -0.5}}) {
      HessianChecks.checkAt(inner, grad, point);
    }
  }

  /** The caller's members call the callees' split halves, here the whole pullback behind them. */
  @Test
  void derivativesMatchThroughACaller() {
    CompiledFunction caller = COMPILED.function("com.example.Deep", "caller", 4);
    for (double[] point : new double[][] {
        {0.3, 0.2, 0.1, 0.98}, {0.4, -0.3, 0.55, 0.6}, {-0.1, 0.5, 0.9, -0.7},
        {0.2, 0.6, -0.4, 0.8}}) {
      DerivativeChecks.checkAt(caller, point);
    }
  }

  /**
   * A chain of seven branches of 300 statements compiles: javac rejected the generated class
   * ("code too large") before. Every generated method is under HotSpot's limit, while the
   * user's method itself is past it: the members, which call the parts of every branch, were
   * 10 to 12 KB with parts of the default size, and now take fewer, larger parts.
   */
  @Test
  void theTwoThousandStatementChainCompiles() throws Exception {
    Compiled huge = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Huge", HUGE_SOURCE);
    Map<String, Integer> user = BytecodeSizes.of(huge.compilation(), "com/example/Huge.class");
    Map<String, Integer> sizes = BytecodeSizes.of(huge.compilation(),
        "com/example/HugeGrad.class");
    int userBytes = user.entrySet().stream().filter(m -> m.getKey().startsWith("huge("))
        .mapToInt(Map.Entry::getValue).sum();
    assertThat(userBytes).isGreaterThan(HOTSPOT_LIMIT);
    for (Map.Entry<String, Integer> method : sizes.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
    }
    CompiledFunction f = huge.function("com.example.Huge", "huge", 4);
    for (double a : new double[] {0.05, 0.5, 0.95}) {
      DerivativeChecks.checkAt(f, 0.3, 0.2, a, 0.98);
    }
  }
}
