package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.BytecodeSizes;
import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A loop whose body is long gives generated members that repeat the body in each sweep: they
 * would pass HotSpot's 8000-byte limit (and, longer still, javac's 64 KB). The long bodies are
 * cut into part methods ({@code LongBlocks}); every generated method stays under the limit and
 * the derivatives stay right.
 */
@ExtendWith(TapeIsEmpty.class)
class LongLoopBodyTest {
  private static final int HOTSPOT_LIMIT = 8000;

  /** A loop of {@code steps} iterations whose body is {@code statements} statements. */
  private static String loop(int statements, String steps) {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < statements / 2; i++) {
      body.append("      x = x * a + Math.sin(y) * b;\n");
      body.append("      y = Math.cos(x) * b - y * 0.001;\n");
    }
    return "package com.example;\nimport ad4j.Differentiable;\nfinal class Loop {\n"
        + "  @Differentiable static double loop(double x, double y, double a, double b) {\n"
        + "    for (int i = 0; i < " + steps + "; i++) {\n" + body + "    }\n"
        + "    return x + y;\n  }\n}\n";
  }

  private static void checkLoop(Compiled compiled) {
    Map<String, Integer> generated = sizes(compiled.compilation(), "com/example/LoopGrad.class");
    // the parts of the one reverse sweep, which mValueAndGradient and mPullback call
    assertThat(generated.keySet().stream()
        .anyMatch(m -> m.startsWith("loopPullbackOntoTapePart1(Lad4j/runtime/internal/Tape;")))
        .isTrue();
    for (Map.Entry<String, Integer> method : generated.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
    }
    CompiledFunction f = compiled.function("com.example.Loop", "loop", 4);
    DerivativeChecks.checkAt(f, 0.3, 0.2, 0.99, 0.98);
    DerivativeChecks.checkAt(f, -0.1, 0.5, 0.97, 1.0);
  }

  @Test
  void aLoopWithASixtyStatementBodyIsCutIntoMethodsHotSpotCompiles() {
    checkLoop(InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Loop", loop(60, "5")));
  }

  @Test
  void aLoopWithAFourHundredStatementBodyCompiles() throws IOException {
    // before the cut, javac rejected the generated class: "code too large"
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Loop", loop(400, "3"));
    checkLoop(compiled);
    // the calls of the body's parts, with what each hands back, would make the loop's body
    // long again: they are cut into parts in turn, which call the first ones (outside any
    // loop of their own)
    String code = compiled.compilation().generatedSourceFile("com.example.LoopGrad")
        .orElseThrow().getCharContent(true).toString();
    assertThat(partsCallingParts(code, "loopPullbackOntoTapePart")).isNotEmpty();
  }

  /**
   * The part methods (named {@code prefix} and a number) without a loop whose bodies call other
   * parts, in {@code code}, the generated source.
   */
  private static List<String> partsCallingParts(String code, String prefix) {
    Matcher methods = Pattern.compile("private static void (" + prefix + "\\d+)\\(")
        .matcher(code);
    List<String> callers = new ArrayList<>();
    while (methods.find()) {
      String body = code.substring(methods.end(), code.indexOf("\n  }\n", methods.end()));
      if (!body.contains("for (") && Pattern.compile(prefix + "\\d+\\(tape").matcher(body)
          .find()) {
        callers.add(methods.group(1));
      }
    }
    return callers;
  }

  /**
   * The same loop, {@code order = 2}: its forward-over-reverse sweep, about three times as long
   * as the gradient, hands over the tangents of the long sums into {@code aBar} too. They are
   * spread into the parts as the sums are, so every method stays under the limit (with 120
   * statements the loop's method was 23 KB before, and ran interpreted), and the
   * Hessian-vector product is the central difference of the gradient.
   */
  @Test
  void theSecondOrderSweepOfALongLoopBodyStaysUnderTheLimit() throws Exception {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Loop",
        loop(120, "4").replace("@Differentiable", "@Differentiable(order = 2)"));

    Map<String, Integer> generated = sizes(compiled.compilation(), "com/example/LoopGrad.class");
    assertThat(generated.keySet().stream().filter(m -> m.startsWith("loopHessianSweepPart"))
        .count()).isGreaterThan(2L);
    for (Map.Entry<String, Integer> method : generated.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
    }
    double[] point = {0.3, 0.2, 0.99, 0.98};
    double[] v = {0.4, -0.7, 0.2, 0.5};
    double[] product = (double[]) compiled.invoke("com.example.LoopGrad", "loopHessianVector",
        point[0], point[1], point[2], point[3], v);
    double[] expected = gradientDifference(compiled, "com.example.LoopGrad", "loop", point, v,
        1e-4);
    for (int i = 0; i < 4; i++) {
      assertWithMessage("(H v)[%s]", i).that(product[i])
          .isWithin(1e-6 * Math.max(1, Math.abs(expected[i]))).of(expected[i]);
    }
  }

  /**
   * A {@code while} loop whose long body has branches and {@code int} arithmetic on its own
   * counter: the branches and the counter move into the parts with the statements around them.
   */
  private static String branchingLoop(int statements) {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < statements / 5; i++) {
      body.append("      int m").append(i).append(" = k * ").append(i % 3 + 1).append(" + 1;\n");
      body.append("      x = x * a + Math.sin(y) * 0.1 / m").append(i).append(";\n");
      body.append("      if (x > y) {\n        y = y * b - x * 0.01;\n      } else {\n")
          .append("        y = y + Math.cos(x) * 0.05;\n      }\n");
      body.append("      z = z + x * y * 0.001;\n");
    }
    return "package com.example;\nimport ad4j.Differentiable;\nfinal class Walk {\n"
        + "  @Differentiable static double walk(double x, double y, double a, double b) {\n"
        + "    double z = 0.0;\n    int k = 0;\n"
        + "    while (k < 4) {\n" + body + "      k++;\n    }\n"
        + "    return x + y + z;\n  }\n}\n";
  }

  @Test
  void aWhileLoopWhoseLongBodyBranchesIsCutToo() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Walk", branchingLoop(100));

    Map<String, Integer> generated = sizes(compiled.compilation(), "com/example/WalkGrad.class");
    assertThat(generated.keySet().stream().filter(m -> m.contains("Part")).count())
        .isGreaterThan(2L);
    for (Map.Entry<String, Integer> method : generated.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
    }
    CompiledFunction f = compiled.function("com.example.Walk", "walk", 4);
    // points on both sides of the branches' tests, away from their kinks
    DerivativeChecks.checkAt(f, 0.3, 0.2, 0.99, 0.98);
    DerivativeChecks.checkAt(f, -0.4, 0.5, 0.9, 1.01);
    DerivativeChecks.checkAt(f, 0.1, -0.3, 1.02, 0.7);
  }

  /**
   * Loops that leave early and loops in loops: a {@code break} in the middle of a long body
   * stays in the member (the statements after it, which the front end moves into the branch
   * that does not break, are cut there), and the long body of an inner loop is cut inside the
   * outer loop.
   */
  private static String breakingAndNestedLoops(int statements) {
    StringBuilder half = new StringBuilder();
    for (int i = 0; i < statements / 4; i++) {
      half.append("        x = x * a + Math.sin(y);\n");
      half.append("        y = y * 0.98 + b * 0.02 - x * 0.001;\n");
    }
    return "package com.example;\nimport ad4j.Differentiable;\nfinal class Early {\n"
        + "  @Differentiable static double early(double x, double y, double a, double b) {\n"
        + "    for (int i = 0; i < 6; i++) {\n" + half
        + "        if (i == 3 && x * x + y * y < 1.0) {\n          break;\n        }\n" + half
        + "    }\n    return x + y;\n  }\n\n"
        + "  @Differentiable static double nested(double x, double y, double a, double b) {\n"
        + "    double s = 0.0;\n"
        + "    for (int i = 0; i < 3; i++) {\n      s = s + x * y;\n"
        + "      for (int j = 0; j < 2; j++) {\n" + half + half + "      }\n"
        + "    }\n    return s + x + y;\n  }\n}\n";
  }

  @Test
  void loopsThatBreakAndLoopsInLoopsAreCutWhereTheirBodiesAreLong() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Early", breakingAndNestedLoops(80));

    Map<String, Integer> generated =
        sizes(compiled.compilation(), "com/example/EarlyGrad.class");
    assertThat(generated.keySet().stream().filter(m -> m.startsWith("earlyPullbackOntoTapePart"))
        .count()).isGreaterThan(1L);
    assertThat(generated.keySet().stream()
        .filter(m -> m.startsWith("nestedPullbackOntoTapePart")).count()).isGreaterThan(1L);
    for (Map.Entry<String, Integer> method : generated.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
    }
    CompiledFunction early = compiled.function("com.example.Early", "early", 4);
    // x * x + y * y at the test in the fourth iteration: 0.36 and 0.25 (the loop breaks
    // there), 3.18 (all six iterations run)
    DerivativeChecks.checkAt(early, 0.3, 0.2, 0.5, 0.3);
    DerivativeChecks.checkAt(early, 0.1, 0.4, 0.6, 0.2);
    DerivativeChecks.checkAt(early, 0.3, 0.2, 0.5, 1.0);
    CompiledFunction nested = compiled.function("com.example.Early", "nested", 4);
    DerivativeChecks.checkAt(nested, 0.3, 0.2, 0.99, 0.98);
    DerivativeChecks.checkAt(nested, -0.1, 0.5, 0.97, 1.0);
  }

  /**
   * A vector function with a long loop body, and the same loop returning each element alone:
   * the Jacobian's rows are the gradients of those, which are checked themselves.
   */
  private static String vectorLoop(int statements) {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < statements / 2; i++) {
      body.append("      x = x * a + Math.sin(y) * b;\n");
      body.append("      y = Math.cos(x) * b - y * 0.001;\n");
    }
    String loop = "    for (int i = 0; i < 4; i++) {\n" + body + "    }\n";
    String parameters = "(double x, double y, double a, double b) {\n";
    return "package com.example;\nimport ad4j.Differentiable;\nfinal class Pair {\n"
        + "  @Differentiable static double[] pair" + parameters + loop
        + "    return new double[] {x, y * y};\n  }\n"
        + "  @Differentiable static double first" + parameters + loop + "    return x;\n  }\n"
        + "  @Differentiable static double second" + parameters + loop
        + "    return y * y;\n  }\n}\n";
  }

  @Test
  void aVectorFunctionWithALongLoopBodyIsCutToo() throws Exception {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Pair", vectorLoop(80));

    Map<String, Integer> generated = sizes(compiled.compilation(), "com/example/PairGrad.class");
    assertThat(generated.keySet().stream().filter(m -> m.startsWith("pairPullbackPart"))
        .count()).isGreaterThan(1L);
    for (Map.Entry<String, Integer> method : generated.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
    }
    double[] point = {0.3, 0.2, 0.99, 0.98};
    CompiledFunction first = compiled.function("com.example.Pair", "first", 4);
    CompiledFunction second = compiled.function("com.example.Pair", "second", 4);
    DerivativeChecks.checkAt(first, point);
    DerivativeChecks.checkAt(second, point);
    Class<?> grad = compiled.load("com.example.PairGrad");
    java.lang.reflect.Method jacobian = grad.getDeclaredMethod("pairJacobian", double.class,
        double.class, double.class, double.class);
    jacobian.setAccessible(true);
    double[][] rows = (double[][]) jacobian.invoke(null, point[0], point[1], point[2], point[3]);
    double[][] expected = {first.gradient(point), second.gradient(point)};
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 4; j++) {
        assertWithMessage("[%s][%s]", i, j).that(rows[i][j])
            .isWithin(1e-12 * Math.max(1, Math.abs(expected[i][j]))).of(expected[i][j]);
      }
    }
  }

  /**
   * The second-order sweeps of loops with branches, breaks and nested loops, every block cut
   * into parts of three statements ({@code -Aad4j.partSize=3}): the sums into the adjoints and
   * their tangents spread over many parts, parts calling parts. Their Hessian-vector products
   * are those of the uncut build (up to the order of the sums' additions) and the central
   * differences of the gradient.
   */
  @Test
  void secondOrderSweepsCutIntoTinyPartsGiveTheSameHessianVectorProducts() throws Exception {
    String walk = branchingLoop(20).replace("@Differentiable", "@Differentiable(order = 2)");
    String early = breakingAndNestedLoops(16)
        .replace("@Differentiable", "@Differentiable(order = 2)");
    Compiled cutWalk = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=3"), "com.example.Walk", walk);
    Compiled wholeWalk = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Walk", walk);
    Compiled cutEarly = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=3"), "com.example.Early", early);
    Compiled wholeEarly = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Early", early);
    assertThat(cutWalk.compilation().generatedSourceFile("com.example.WalkGrad").orElseThrow()
        .getCharContent(true).toString()).containsMatch("walkHessianSweepPart\\d+\\(tape");
    double[][] points = {{0.3, 0.2, 0.99, 0.98}, {-0.4, 0.5, 0.9, 1.01}, {0.3, 0.2, 0.5, 1.0}};
    double[] v = {0.4, -0.7, 0.2, 0.5};
    for (double[] point : points) {
      checkHessianVector(cutWalk, wholeWalk, "com.example.WalkGrad", "walk", point, v);
      checkHessianVector(cutEarly, wholeEarly, "com.example.EarlyGrad", "early", point, v);
      checkHessianVector(cutEarly, wholeEarly, "com.example.EarlyGrad", "nested", point, v);
    }
  }

  private static void checkHessianVector(Compiled cut, Compiled whole, String grad, String name,
      double[] point, double[] v) throws Exception {
    Object[] arguments = {point[0], point[1], point[2], point[3], v};
    double[] product = (double[]) cut.invoke(grad, name + "HessianVector", arguments);
    double[] reference = (double[]) whole.invoke(grad, name + "HessianVector", arguments);
    double[] difference = gradientDifference(whole, grad, name, point, v, 1e-5);
    for (int i = 0; i < 4; i++) {
      double scale = Math.max(1, Math.abs(reference[i]));
      assertWithMessage("(H v)[%s] of %s at %s, cut against whole", i, name,
          Arrays.toString(point)).that(product[i]).isWithin(1e-12 * scale)
          .of(reference[i]);
      assertWithMessage("(H v)[%s] of %s at %s, against differences", i, name,
          Arrays.toString(point)).that(product[i]).isWithin(1e-5 * scale)
          .of(difference[i]);
    }
  }

  /**
   * The fourth-order central difference, with step {@code h}, of the generated gradient of the
   * four-input method {@code name} along {@code v}: the Hessian times {@code v}, up to
   * truncation and rounding.
   */
  private static double[] gradientDifference(Compiled compiled, String grad, String name,
      double[] point, double[] v, double h) throws Exception {
    double[] weights = {1, -8, 8, -1};
    double[] steps = {-2, -1, 1, 2};
    double[] difference = new double[4];
    for (int s = 0; s < 4; s++) {
      Object[] at = new Object[4];
      for (int i = 0; i < 4; i++) {
        at[i] = point[i] + steps[s] * h * v[i];
      }
      double[] gradient = (double[]) compiled.invoke(grad, name + "Gradient", at);
      for (int i = 0; i < 4; i++) {
        difference[i] += weights[s] * gradient[i] / (12 * h);
      }
    }
    return difference;
  }

  private static Map<String, Integer> sizes(Compilation compilation, String path) {
    JavaFileObject file = compilation.generatedFiles().stream()
        .filter(f -> f.toUri().getPath().endsWith(path))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no class file " + path));
    try (InputStream in = file.openInputStream()) {
      return BytecodeSizes.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
