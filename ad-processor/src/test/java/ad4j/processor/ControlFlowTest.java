package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.internal.Tape;
import com.google.testing.compile.Compilation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Branches, loops, integer and boolean values, and calls between differentiable methods: each
 * function is checked against finite differences of the user's own method, forward against
 * reverse mode, value bit for bit, and the tape must be empty after every call.
 */
@ExtendWith(TapeIsEmpty.class)
class ControlFlowTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Flow {",
      // Clad's classic cases
      "  @Differentiable static double maxOf(double x, double y) { return x > y ? x : y; }",
      "  @Differentiable static double power(double x, int n) {",
      "    double r = 1;",
      "    for (int i = 0; i < n; i++) { r *= x; }",
      "    return r;",
      "  }",
      "  @Differentiable static double power5(double x) { return power(x, 5); }",
      "  @Differentiable static double nested(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      for (int j = 0; j < 4; j++) { s += Math.sin(x * i + y * j) * s + x; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double newtonSqrt(double a) {",
      "    if (a < 0) { throw new IllegalArgumentException(\"a must be >= 0, not \" + a); }",
      "    double x = a > 1 ? a : 1;",
      "    while (Math.abs(x * x - a) > 1e-12 * a) { x = 0.5 * (x + a / x); }",
      "    return x;",
      "  }",
      "  @Differentiable static double recursivePower(double x, int n) {",
      "    if (n == 0) { return 1; }",
      "    return x * recursivePower(x, n - 1);",
      "  }",
      "  @Differentiable static double recursivePower4(double x) { return recursivePower(x, 4); }",
      "  @Differentiable static double squares(double u, double v) { return u * u + v * v; }",
      "  @Differentiable static double helpers(double x, double y) {",
      "    return squares(x, y) * squares(y, 2 * x);",
      "  }",
      // more control flow
      "  @Differentiable static double earlyReturn(double x) {",
      "    if (x < 0) { return -x * x; }",
      "    double y = Math.exp(x);",
      "    return y * x;",
      "  }",
      "  @Differentiable static double labelled(double x, double y) {",
      "    double s = x;",
      "    int k = 0;",
      "    outer:",
      "    while (true) {",
      "      k++;",
      "      for (int j = 0; j < 5; j++) {",
      "        if (j == 3 && k % 2 == 0) { continue outer; }",
      "        s = s * 0.9 + y * Math.cos(s);",
      "        if (s > 10) { return s * x; }",
      "      }",
      "      if (k >= 5) { break; }",
      "    }",
      "    return s + x * y;",
      "  }",
      "  @Differentiable static double doLoop(double x, long n, boolean flip) {",
      "    double s = x;",
      "    long i = 0;",
      "    do { s = flip ? s * x : s + Math.sqrt(x); i++; } while (i < n && s < 100);",
      "    return s;",
      "  }",
      "  @Differentiable static double doLoopFlip(double x) { return doLoop(x, 6, true); }",
      "  @Differentiable static double doLoopAdd(double x) { return doLoop(x, 6, false); }",
      "  @Differentiable static double continues(double x) {",
      "    double s = 0;",
      "    for (int i = 0; i < 10; i++) {",
      "      if (i % 3 == 0) { continue; }",
      "      if (!(i < 8) || s > 1e6) { break; }",
      "      s += Math.pow(x, i) / (i + 1);",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double branches(double x, double y) {",
      "    double r;",
      "    if (x > 0.5) { r = x * y; } else if (y > 0) { r = Math.exp(y) - x; } else { r = x; }",
      "    boolean big = r > 2 || r < -2;",
      "    return big ? r * 0.5 : r + Math.tanh(r);",
      "  }",
      "  @Differentiable static double horner(double x) {",
      "    double p = 0;",
      "    for (int k = 20; k >= 0; k--) { p = p * x + 1.0 / (k + 1); }",
      "    return p;",
      "  }",
      "  @Differentiable static double loopInBranch(double x) {",
      "    double s = 1;",
      "    if (x > 0) { for (int i = 0; i < 4; i++) { s = s * x + Math.log1p(s); } }",
      "    else { s = -x; }",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce FLOW = new CompiledOnce(() ->
      InProcessCompiler.compile("com.example.Flow", SOURCE));

  private static Compiled flow() {
    return FLOW.get();
  }

  static Stream<Arguments> functions() {
    return Stream.of(
        Arguments.of("maxOf", new double[][] {{1, 2}, {3, -1}, {-0.5, -0.25}}),
        Arguments.of("power5", new double[][] {{1.3}, {-0.7}, {0}}),
        Arguments.of("nested", new double[][] {{0.3, 0.2}, {-0.4, 0.1}}),
        Arguments.of("newtonSqrt", new double[][] {{2}, {0.3}, {50}}),
        Arguments.of("recursivePower4", new double[][] {{1.1}, {-2}}),
        Arguments.of("helpers", new double[][] {{0.5, -1.5}, {2, 1}}),
        Arguments.of("earlyReturn", new double[][] {{-0.5}, {0.7}}),
        Arguments.of("labelled", new double[][] {{0.5, 0.3}, {2, 3}, {1, -0.2}}),
        Arguments.of("doLoopFlip", new double[][] {{1.5}, {2.5}}),
        Arguments.of("doLoopAdd", new double[][] {{1.5}, {30}}),
        Arguments.of("continues", new double[][] {{0.9}, {1.7}}),
        Arguments.of("branches", new double[][] {{0.7, 3}, {0.7, 0.5}, {0.2, 0.4}, {0.1, -1}}),
        Arguments.of("horner", new double[][] {{0.5}, {-0.8}}),
        Arguments.of("loopInBranch", new double[][] {{0.6}, {-0.6}}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("functions")
  void derivativesMatchFiniteDifferencesAndEachOther(String name, double[][] points) {
    CompiledFunction f = flow().function("com.example.Flow", name, points[0].length);
    for (double[] x : points) {
      DerivativeChecks.checkAt(f, x);
      assertThat(Tape.current().size()).isEqualTo(0);
    }
  }

  @Test
  void analyticValuesOfTheClassicCases() {
    assertThat(flow().function("com.example.Flow", "power5", 1).gradient(1.5)[0])
        .isWithin(1e-12).of(5 * Math.pow(1.5, 4));
    assertThat(flow().function("com.example.Flow", "newtonSqrt", 1).gradient(2)[0])
        .isWithin(1e-12).of(0.5 / Math.sqrt(2));
    assertThat(flow().function("com.example.Flow", "maxOf", 2).gradient(1, 2))
        .usingExactEquality().containsExactly(0.0, 1.0).inOrder();
    assertThat(flow().function("com.example.Flow", "recursivePower4", 1).gradient(-2)[0])
        .isWithin(1e-12).of(4 * -8);
  }

  @Test
  void integerLongAndBooleanParametersStayInTheSignatureWithoutDerivativeSlots()
      throws ReflectiveOperationException {
    Class<?> grad = flow().load("com.example.FlowGrad");
    Method gradient = accessible(grad.getDeclaredMethod("doLoopGradient", double.class,
        long.class, boolean.class));
    Method tangent = accessible(grad.getDeclaredMethod("doLoopTangent", double.class,
        long.class, boolean.class, double.class));
    Method pullback = accessible(grad.getDeclaredMethod("doLoopPullback", double.class,
        long.class, boolean.class, double.class, double[].class));
    Method power = accessible(grad.getDeclaredMethod("powerValueAndGradient", double.class,
        int.class, double[].class));

    double[] g = (double[]) gradient.invoke(null, 1.5, 6L, true);
    assertThat(g).hasLength(1);
    double[] viaWrapper = flow().function("com.example.Flow", "doLoopFlip", 1).gradient(1.5);
    assertThat(g).usingExactEquality().containsExactly(viaWrapper[0]);
    assertThat((double) tangent.invoke(null, 1.5, 6L, true, 2.0)).isWithin(1e-9).of(2 * g[0]);
    double[] adjoints = {1};
    pullback.invoke(null, 1.5, 6L, true, 3.0, adjoints);
    assertThat(adjoints[0]).isWithin(1e-9).of(1 + 3 * g[0]);
    double[] out = new double[1];
    assertThat((double) power.invoke(null, 2.0, 10, out)).isEqualTo(1024.0);
    assertThat(out[0]).isWithin(1e-9).of(10 * 512);
  }

  private static Method accessible(Method method) {
    method.setAccessible(true);
    return method;
  }

  @Test
  void argumentChecksThrowTheSameExceptionFromEveryMember() throws ReflectiveOperationException {
    Class<?> user = flow().load("com.example.Flow");
    Class<?> grad = flow().load("com.example.FlowGrad");
    String expected = thrownMessage(user.getDeclaredMethod("newtonSqrt", double.class), -4.0);
    assertThat(expected).isEqualTo("a must be >= 0, not -4.0");
    assertThat(thrownMessage(grad.getDeclaredMethod("newtonSqrtGradient", double.class), -4.0))
        .isEqualTo(expected);
    assertThat(thrownMessage(grad.getDeclaredMethod("newtonSqrtTangent", double.class,
        double.class), -4.0, 1.0)).isEqualTo(expected);
    assertThat(thrownMessage(grad.getDeclaredMethod("newtonSqrtPullback", double.class,
        double.class, double[].class), -4.0, 1.0, new double[1])).isEqualTo(expected);
  }

  private static String thrownMessage(Method method, Object... arguments) {
    method.setAccessible(true);
    InvocationTargetException thrown =
        assertThrows(InvocationTargetException.class, () -> method.invoke(null, arguments));
    assertThat(thrown.getCause()).isInstanceOf(IllegalArgumentException.class);
    return thrown.getCause().getMessage();
  }

  @Test
  void onlyLoopsUseTheTape() {
    String generated = generatedSource(flow().compilation(), "com.example.FlowGrad");
    assertThat(methodBody(generated, "maxOfValueAndGradient")).doesNotContain("Tape");
    assertThat(methodBody(generated, "earlyReturnValueAndGradient")).doesNotContain("Tape");
    assertThat(methodBody(generated, "branchesPullback")).doesNotContain("Tape");
    assertThat(methodBody(generated, "powerValueAndGradient")).contains("Tape.current()");
    assertThat(methodBody(generated, "powerTangent")).doesNotContain("Tape");
  }

  @Test
  void aCallInsideALoopComposesPullbacks() {
    Compiled units = InProcessCompiler.compile("com.example.Calls", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Calls {",
        "  @Differentiable static double bump(double u, int k) { return Math.sin(u * k) + u; }",
        "  @Differentiable static double sum(double x, double y) {",
        "    double s = 0;",
        "    for (int k = 1; k <= 6; k++) { s += bump(x * s + y, k) * y; }",
        "    return s;",
        "  }",
        "}"));
    CompiledFunction sum = units.function("com.example.Calls", "sum", 2);
    DerivativeChecks.checkAt(sum, 0.3, 0.7);
    DerivativeChecks.checkAt(sum, -0.2, 0.1);
  }

  @Test
  void generatedCodeWithControlFlowCompilesWithoutWarnings() {
    Compilation compilation = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .compile(com.google.testing.compile.JavaFileObjects.forSourceString("com.example.Flow",
            SOURCE));
    InProcessCompiler.requireSuccess(compilation);
    JavaFileObject generated =
        compilation.generatedSourceFile("com.example.FlowGrad").orElseThrow();
    assertThat(generated).isNotNull();
  }

  private static String generatedSource(Compilation compilation, String name) {
    try {
      return compilation.generatedSourceFile(name).orElseThrow().getCharContent(true).toString();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String methodBody(String source, String method) {
    int start = source.indexOf("static double " + method + "(");
    assertThat(start).isGreaterThan(0);
    int end = source.indexOf("\n  }\n", start);
    return source.substring(start, end);
  }

  @Test
  void valuesAreBitForBitOverManyPoints() {
    CompiledFunction labelled = flow().function("com.example.Flow", "labelled", 2);
    double[] out = new double[2];
    for (double x = -1; x <= 1; x += 0.125) {
      double[] point = {x, 0.3 - x};
      assertThat(labelled.valueAndGradient(point, out))
          .isEqualTo(labelled.value(point));
      assertThat(Arrays.stream(out).allMatch(Double::isFinite)).isTrue();
    }
  }
}
