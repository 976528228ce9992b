package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.FlatHessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Order-2 methods that call vector functions (methods returning {@code double[]}, themselves of
 * order 2: they get no Hessian, only the tangent of their pullback that their callers'
 * forward-over-reverse sweeps call). The Hessians of the callers against differences of the
 * generated gradient and second differences of the user's methods, symmetric, with the
 * Hessian-vector product and {@code mValueGradientAndHessian} ({@link FlatHessianChecks}): a
 * vector function called once, with scalar and with array arguments (parameters, locals,
 * constants), in a loop (an RK4 trajectory whose step is a vector function calling another),
 * in branches with its result written into, with lengths that differ from call to call, with
 * a matrix argument and a {@code @DerivativeOf} rule inside, recursively, from a method long
 * enough for segments, and from another class; also with
 * every block cut into parts. The rest: what stays a compile error, each at its line.
 */
@ExtendWith(TapeIsEmpty.class)
class SecondOrderVectorCallsTest {
  private static final String FIELDS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "public final class Fields {",
      "  /** A damped pendulum's vector field: an array and a scalar argument. */",
      "  @Differentiable(order = 2) public static double[] pendulum(double[] y, double k) {",
      "    return new double[] {y[1], -k * Math.sin(y[0]) - 0.1 * y[1] * y[1] * y[1]};",
      "  }",
      "}");

  private static final String FLOWS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Flows {",
      "  /** Scalar arguments only. */",
      "  @Differentiable(order = 2) static double[] polar(double r, double t) {",
      "    return new double[] {r * Math.cos(t), r * Math.sin(t)};",
      "  }",
      "  /** The classical RK4 step of an array state, calling a vector function of another",
      "   * class with its own arguments and with local arrays written between the calls. */",
      "  @Differentiable(order = 2) static double[] rk4(double[] y, double k, double h) {",
      "    int n = y.length;",
      "    double[] k1 = Fields.pendulum(y, k);",
      "    double[] t = new double[n];",
      "    for (int i = 0; i < n; i++) { t[i] = y[i] + 0.5 * h * k1[i]; }",
      "    double[] k2 = Fields.pendulum(t, k);",
      "    for (int i = 0; i < n; i++) { t[i] = y[i] + 0.5 * h * k2[i]; }",
      "    double[] k3 = Fields.pendulum(t, k);",
      "    for (int i = 0; i < n; i++) { t[i] = y[i] + h * k3[i]; }",
      "    double[] k4 = Fields.pendulum(t, k);",
      "    double[] next = new double[n];",
      "    for (int i = 0; i < n; i++) {",
      "      next[i] = y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);",
      "    }",
      "    return next;",
      "  }",
      "  /** Called once, scalar arguments. */",
      "  @Differentiable(order = 2) static double once(double r, double t) {",
      "    double[] p = polar(r * r, t);",
      "    return p[0] * p[1] + Math.exp(p[0]);",
      "  }",
      "  /** Called once, with the array parameter itself and a scalar computed from one. */",
      "  @Differentiable(order = 2) static double arrayArgument(double[] y, double k) {",
      "    double[] z = rk4(y, k * k, 0.1);",
      "    return z[0] * z[0] + Math.sin(z[1]) * k;",
      "  }",
      "  /** In a loop: a trajectory's loss against data, the state copied back each step. */",
      "  @Differentiable(order = 2) static double trajectory(double[] y0, double k,",
      "      @NoDerivative double[] target) {",
      "    double[] y = y0.clone();",
      "    double loss = 0;",
      "    for (int step = 0; step < target.length; step++) {",
      "      double[] next = rk4(y, k, 0.05);",
      "      for (int i = 0; i < y.length; i++) { y[i] = next[i]; }",
      "      double d = y[0] - target[step];",
      "      loss += d * d;",
      "    }",
      "    return loss + 0.01 * k * k + y[1] * y[1];",
      "  }",
      "  /** In a loop with scalar arguments, the results summed. */",
      "  @Differentiable(order = 2) static double ring(double r, double w, int n) {",
      "    double s = 0;",
      "    for (int i = 0; i < n; i++) {",
      "      double[] p = polar(r + 0.1 * i, w * i);",
      "      s += p[0] * p[0] * r - p[1] * w;",
      "    }",
      "    return s;",
      "  }",
      "  /** In branches, with a constant argument, the results written into. */",
      "  @Differentiable(order = 2) static double branches(double a, double b) {",
      "    double[] p = polar(a, 0.5);",
      "    if (a > 0) { p[0] = p[0] * b; } else { p[1] = p[1] + a * b; }",
      "    double[] q = polar(p[0] + b, a * b);",
      "    q[1] += p[1] * q[0];",
      "    return q[0] * q[1] + p[0] * p[1];",
      "  }",
      "  /** A copy of an array parameter, written into and returned. */",
      "  @Differentiable(order = 2) static double[] scaled(double[] y, double c) {",
      "    double[] r = y.clone();",
      "    r[0] *= c;",
      "    r[r.length - 1] += Math.log(c) * y[0];",
      "    return r;",
      "  }",
      "  /** Results of lengths that differ from call to call; a scalar order-2 callee. */",
      "  @Differentiable(order = 2) static double[] prefixes(double[] x, int n) {",
      "    double[] p = new double[n];",
      "    double s = 1;",
      "    for (int i = 0; i < n; i++) {",
      "      s *= x[i];",
      "      p[i] = s > 0 ? soft(s) : s * s;",
      "    }",
      "    return p;",
      "  }",
      "  @Differentiable(order = 2) static double soft(double s) {",
      "    return Math.log1p(Math.exp(s));",
      "  }",
      "  @Differentiable(order = 2) static double uneven(double[] x, double c) {",
      "    double t = 0;",
      "    for (int n = 1; n <= x.length; n++) {",
      "      double[] p = prefixes(scaled(x, c), n);",
      "      t += p[n - 1] * n + p[0] * c;",
      "    }",
      "    return t;",
      "  }",
      "  /** A vector function with a matrix parameter and a call with a @Differentiable rule. */",
      "  static double cube(double x) { return x * x * x; }",
      "  @Differentiable @ad4j.DerivativeOf(\"cube\")",
      "  static double cubeDerivative(double x) { return 3 * x * x; }",
      "  @Differentiable(order = 2) static double[] ruled(double a, double[][] m) {",
      "    double[] r = new double[m.length];",
      "    for (int i = 0; i < m.length; i++) { r[i] = cube(a * m[i][0]) + m[i][1] * a; }",
      "    return r;",
      "  }",
      "  @Differentiable(order = 2) static double matrixArgument(double a, double b) {",
      "    double[][] m = {{a, b}, {b * b, a}};",
      "    double[] r = ruled(a * b, m);",
      "    return r[0] * r[1] + Math.sin(r[0]);",
      "  }",
      "  /** Recursive, its value in a branch. */",
      "  @Differentiable(order = 2) static double[] rec(double[] y, int n) {",
      "    double[] r = new double[2];",
      "    if (n == 0) {",
      "      r[0] = y[0] * y[1];",
      "      r[1] = y[1];",
      "    } else {",
      "      double[] z = rec(y, n - 1);",
      "      r[0] = Math.sin(z[0]) * y[1];",
      "      r[1] = z[1] * z[0];",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable(order = 2) static double recursive(double[] y) {",
      "    double[] z = rec(y, 3);",
      "    return z[0] + z[1] * z[1];",
      "  }",
      longCaller(),
      "  /** A local array made of parameters and a matrix row, passed to the calls. */",
      "  @Differentiable(order = 2) static double rows(double[][] m, double k) {",
      "    double[] y = {m[0][0] * k, m[1][1]};",
      "    double[] a = rk4(y, k, 0.2);",
      "    double[] b = Fields.pendulum(m[1], a[0]);",
      "    return a[0] * b[1] + a[1] * b[0] + m[0][1] * a[1];",
      "  }",
      "}");

  /**
   * A straight-line order-2 method long enough to be cut into segments, but for the vector
   * function's result in its middle: segments hand over numbers only, so it stays whole (it was
   * an internal error at every order, the reverse of an element of a local array in a segment).
   */
  private static String longCaller() {
    StringBuilder method = new StringBuilder(
        "  @Differentiable(order = 2) static double longCaller(double x, double y) {\n"
            + "    double s = x;\n");
    for (int i = 0; i < 60; i++) {
      method.append("    s = s * 0.5 + Math.sin(y * s + ").append(i % 7).append(") * x;\n");
      if (i == 30) {
        method.append("    double[] p = polar(s, x);\n    s = s + p[0] * p[1];\n");
      }
    }
    return method.append("    return s * y;\n  }").toString();
  }

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Fields", FIELDS, "com.example.Flows", FLOWS));

  static Stream<Call> calls() {
    return Stream.of(
        new Call("once", new Object[] {0.8, 0.6}, true, true),
        new Call("once", new Object[] {-1.1, 2.3}, true, true),
        new Call("arrayArgument", new Object[] {new double[] {0.4, -0.3}, 1.2}, true, true),
        new Call("trajectory", new Object[] {new double[] {0.9, 0.1}, 1.7,
            new double[] {0.8, 0.6, 0.3, 0.1}}, true, true, false),
        new Call("ring", new Object[] {0.7, 0.45, 4}, true, true, false),
        new Call("branches", new Object[] {0.6, -0.8}, true, true),
        new Call("branches", new Object[] {-0.4, 0.9}, true, true),
        new Call("rows", new Object[] {new double[][] {{0.3, -0.5}, {0.8, 0.2}}, 1.3},
            true, true),
        new Call("uneven", new Object[] {new double[] {0.7, -1.2, 0.9}, 1.4}, true, true),
        new Call("matrixArgument", new Object[] {0.3, -0.7}, true, true),
        new Call("recursive", new Object[] {new double[] {0.4, 0.9}}, true),
        new Call("longCaller", new Object[] {0.6, 1.1}, true, true));
  }

  /** The same, every block cut into parts of 8 statements: their sweeps call the parts. */
  private static final CompiledOnce IN_PARTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=8"),
          "com.example.Fields", FIELDS, "com.example.Flows", FLOWS));

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansOfCallersOfVectorFunctionsAreExact(Call call) throws Exception {
    FlatHessianChecks.of(COMPILED.get(), "com.example.Flows").check(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansAreExactWithTheSweepsCutIntoParts(Call call) throws Exception {
    FlatHessianChecks.of(IN_PARTS.get(), "com.example.Flows").check(call);
  }

  @Test
  void aVectorFunctionOfOrderTwoGetsNoHessianOnlyTheTangentOfItsPullbackForCallers() {
    List<String> members = names("com.example.FlowsGrad");
    assertThat(members).containsAtLeast("rk4Jacobian", "rk4Tangent", "rk4Pullback",
        "rk4PullbackTangent", "polarPullbackTangent", "onceHessian");
    assertThat(members.stream().filter(n -> n.startsWith("rk4Hessian")
        || n.startsWith("rk4ValueGradientAndHessian") || n.startsWith("polarHessian")).toList())
        .isEmpty();
    // callers in other classes reach it through the companion
    assertThat(names("com.example.FieldsGradSweeps")).contains("pendulumPullbackTangent");
  }

  @Test
  void aVectorFunctionOfOrderOneCalledAtOrderTwoIsAnErrorAtTheCall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double[] g(double[] x) { return new double[] {x[0] * x[1]}; }",
        "  @Differentiable(order = 2) static double f(double[] x) {",
        "    double[] r = g(x);",
        "    return Math.exp(r[0]);",
        "  }",
        "}");

    assertSingleError(lines, "call to 'g(...)' from method 'f', which is"
        + " @Differentiable(order = 2): 'F.g' must be @Differentiable(order = 2) as well, so"
        + " that ad4j generates the second derivatives this call needs", 6,
        lines.get(5).indexOf("(x)") + 1);
  }

  private static List<String> names(String generatedClass) {
    return Arrays.stream(COMPILED.get().load(generatedClass).getDeclaredMethods())
        .map(Method::getName).toList();
  }
}
