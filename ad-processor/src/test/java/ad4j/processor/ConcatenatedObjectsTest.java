package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A string concatenation with an object ({@code "v" + n}) calls the object's
 * {@code toString()} (JLS 5.1.11), run as written. One that changes state or gives another
 * string each time is code run as written like an explicit call: an error where a generated
 * member would run it more than once per call. Before, the concatenation was taken for one of
 * strings and numbers, which gives the same string each time: an order-2 method's
 * {@code fValueGradientAndHessian} ran a counting {@code toString()} twice and gave the value
 * 12.35125 where the method's is 6.43625, and a {@code @Checkpointed} loop's reverse sweep ran
 * it again and gave the gradient [115.02, 127.10] where it is [11.35, 12.38]. A concatenation
 * whose {@code toString()} reads state and changes none (of a final class without one of its
 * own, an enum, a box, a getter-like body) stays as it was, checked against the analytic
 * Hessian. {@code s += v} of a string local is {@code s = s + v}, the same concatenation (it was
 * the error "operator '+' needs numeric operands").
 */
class ConcatenatedObjectsTest {
  private static final String NOISY =
      "  static final class Noisy { int calls; @Override public String toString() {"
          + " calls++; return \"n\" + calls; } }";

  @Test
  void aCountingToStringInAnOrderTwoMethodIsAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        NOISY,
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Noisy n) {",
        "    String t = \"v\" + n;",
        "    return a * a * b * t.length();",
        "  }",
        "}"),
        toStringRunsAgainInTheHessianSweeps("\"v\" + n"),
        8, 20);
  }

  @Test
  void aCountingToStringInACheckpointedLoopIsAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        NOISY,
        "  @Checkpointed(snapshots = 2) @Differentiable",
        "  static double f(double a, double b, @NoDerivative Noisy n) {",
        "    double s = a;",
        "    for (int i = 0; i < 4; i++) {",
        "      String t = \"x\" + n;",
        "      s = Math.sin(s * b) + t.length() * a;",
        "    }",
        "    return s;",
        "  }",
        "}"),
        "call to 'n.toString()' runs as written and may change what the @Checkpointed loops of"
            + " 'f' read",
        11, 22);
  }

  @Test
  void aCalleesCountingToStringIsAnErrorAtTheCall() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        NOISY,
        "  @Differentiable static double g(double a, @NoDerivative Noisy n) {",
        "    return a * a * (n + \"\").length();",
        "  }",
        "  @Differentiable static double f(double a, double b, @NoDerivative Noisy n) {",
        "    return g(a * b, n) * b;",
        "  }",
        "}"),
        "call to 'g(...)': 'F.g' runs code that carries no derivative ('n.toString()', line 7),"
            + " which the tangent of 'f' would run twice",
        10, 13);
  }

  private static final CompiledOnce PURE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "public final class F {",
              "  public static final class Plain {}",
              "  public static final class Named {",
              "    private final String name = \"abc\";",
              "    @Override public String toString() { return name; }",
              "  }",
              "  public enum Mode { A, BB }",
              "  @Differentiable(order = 2)",
              "  static double f(double a, double b, @NoDerivative Plain p,",
              "      @NoDerivative Mode m, @NoDerivative Named n, @NoDerivative Integer i) {",
              "    String t = \"v\" + m + i + n + p;",
              "    return a * a * b * t.length();",
              "  }",
              "}")));

  @Test
  void aToStringThatChangesNothingStaysAsItWas() throws Exception {
    Class<?> user = PURE.get().load("com.example.F");
    Class<?> plain = PURE.get().load("com.example.F$Plain");
    Class<?> mode = PURE.get().load("com.example.F$Mode");
    Class<?> named = PURE.get().load("com.example.F$Named");
    java.lang.reflect.Constructor<?> makePlain = plain.getDeclaredConstructor();
    java.lang.reflect.Constructor<?> makeNamed = named.getDeclaredConstructor();
    Object p = makePlain.newInstance();
    Object n = makeNamed.newInstance();
    Object bb = mode.getEnumConstants()[1];
    Method f = user.getDeclaredMethod("f", double.class, double.class, plain, mode, named,
        Integer.class);
    f.setAccessible(true);
    int length = ("v" + bb + 42 + n + p).length();
    assertThat((double) f.invoke(null, 1.3, 0.7, p, bb, n, 42))
        .isEqualTo(1.3 * 1.3 * 0.7 * length);
    Method hessian = PURE.get().load("com.example.FGrad").getDeclaredMethod("fHessian",
        double.class, double.class, plain, mode, named, Integer.class);
    hessian.setAccessible(true);
    double[][] h = (double[][]) hessian.invoke(null, 1.3, 0.7, p, bb, n, 42);
    assertThat(h[0][0]).isWithin(1e-12).of(2 * 0.7 * length);
    assertThat(h[0][1]).isWithin(1e-12).of(2 * 1.3 * length);
    assertThat(h[1][0]).isWithin(1e-12).of(2 * 1.3 * length);
    assertThat(h[1][1]).isEqualTo(0.0);
  }

  @Test
  void aCountingToStringAppendedToAStringLocalIsAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        NOISY,
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Noisy n) {",
        "    String t = \"v\";",
        "    t += n;",
        "    return a * a * b * t.length();",
        "  }",
        "}"),
        toStringRunsAgainInTheHessianSweeps("t += n"),
        9, 7);
  }

  private static final CompiledOnce APPENDED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Labels",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.List;",
              "final class Labels {",
              "  @Differentiable static double label(double x, @NoDerivative List<Double> ws,",
              "      int n) {",
              "    String s = \"w\";",
              "    double t = 0;",
              "    for (int i = 0; i < ws.size(); i++) {",
              "      s += i;",
              "      s += \":\";",
              "      s += ws.get(i);",
              "      t += ws.get(i) * x * x;",
              "    }",
              "    s += n > 2 ? \"big\" : \"small\";",
              "    return t * s.length();",
              "  }",
              "}")));

  /** Values bit for bit against the method's, gradients against its differences. */
  @Test
  void aStringLocalIsAppendedToAsJavaAppends() throws Exception {
    ad4j.processor.testing.ArrayFunctionChecks checks =
        ad4j.processor.testing.ArrayFunctionChecks.of(APPENDED.get(), "com.example.Labels");
    List<Double> ws = List.of(0.5, 1.25, -2.0);
    for (double x : new double[] {0.7, -1.3}) {
      for (int n : new int[] {1, 3}) {
        checks.check(new ad4j.processor.testing.ArrayFunctionChecks.Call("label",
            new Object[] {x, ws, n}, true, false, false));
      }
    }
  }

  /** The error at a concatenation whose {@code toString()} f's Hessian sweeps would run again. */
  private static String toStringRunsAgainInTheHessianSweeps(String concatenation) {
    return "'" + concatenation + "' calls 'n.toString()', which runs as written and may give"
        + " another result or do something again each time it runs: mHessian and"
        + " mValueGradientAndHessian of 'f' make one sweep per slot and would run it once per"
        + " sweep, where 'f' runs it once; make the string where 'f' is called and pass it as a"
        + " @NoDerivative parameter";
  }
}
