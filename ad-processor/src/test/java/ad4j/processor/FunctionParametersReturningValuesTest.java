package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.GeneratedClassChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @Differentiable} methods taking a function and returning a value record (an Euler or
 * RK4 step over a state, an estimate of an integral and its error) or a {@code double[]} (a step
 * of a vector ODE): each is inlined at the call for the function passed there, its record's
 * leaves or its fresh array handed to the caller, as for one returning a number. Declared in
 * another file and package and in the caller's file; given lambdas capturing an active and an
 * inactive local, with expression and block bodies, and a function passed on to a second such
 * method. Every caller is checked against finite differences of itself and forward against
 * reverse, compiled whole and cut into parts of one and two statements; the order-2 one's
 * Hessian against differences of its gradient. What stays unsupported is an error at its line.
 */
@ExtendWith(TapeIsEmpty.class)
class FunctionParametersReturningValuesTest {
  /** Steps and a quadrature, public, in a package of their own. */
  private static final List<String> STEPS = List.of(
      "package com.example.ode;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleBinaryOperator;",
      "import java.util.function.DoubleUnaryOperator;",
      "public final class Steps {",
      "  private Steps() {}",
      "  /** A position and a velocity. */",
      "  public record State(double x, double v) {}",
      "  /** An integral's estimate and the estimate of its error. */",
      "  public record Estimate(double value, double error) {}",
      "  /** The right-hand side of s' = f(s). */",
      "  @FunctionalInterface public interface Field {",
      "    State at(State s);",
      "  }",
      "  /** Explicit Euler for x' = v, v' = a(x, v). */",
      "  @Differentiable public static State euler(State s, double h,",
      "      DoubleBinaryOperator a) {",
      "    return new State(s.x() + h * s.v(), s.v() + h * a.applyAsDouble(s.x(), s.v()));",
      "  }",
      "  /** Classical Runge-Kutta for s' = f(s). */",
      "  @Differentiable public static State rk4(State s, double h, Field f) {",
      "    State k1 = f.at(s);",
      "    State k2 = f.at(new State(s.x() + h / 2 * k1.x(), s.v() + h / 2 * k1.v()));",
      "    State k3 = f.at(new State(s.x() + h / 2 * k2.x(), s.v() + h / 2 * k2.v()));",
      "    State k4 = f.at(new State(s.x() + h * k3.x(), s.v() + h * k3.v()));",
      "    return new State(s.x() + h / 6 * (k1.x() + 2 * k2.x() + 2 * k3.x() + k4.x()),",
      "        s.v() + h / 6 * (k1.v() + 2 * k2.v() + 2 * k3.v() + k4.v()));",
      "  }",
      "  /** An Euler step held at a wall: two returns; passes its function on. */",
      "  @Differentiable public static State walled(State s, double h,",
      "      DoubleBinaryOperator a) {",
      "    State next = euler(s, h, a);",
      "    if (next.x() > 1) {",
      "      return new State(1, -0.5 * next.v());",
      "    }",
      "    return next;",
      "  }",
      "  /** Simpson's rule, with the difference from the trapezoid rule as the error. */",
      "  @Differentiable public static Estimate simpson(DoubleUnaryOperator f, double a,",
      "      double b) {",
      "    double fa = f.applyAsDouble(a);",
      "    double fb = f.applyAsDouble(b);",
      "    double simpson = (b - a) / 6 * (fa + 4 * f.applyAsDouble((a + b) / 2) + fb);",
      "    double trapezoid = (b - a) / 2 * (fa + fb);",
      "    return new Estimate(simpson, Math.abs(simpson - trapezoid));",
      "  }",
      "  /** An Euler step of y' = f(y), element by element, into a new array. */",
      "  @Differentiable public static double[] step(double[] y, double h,",
      "      DoubleUnaryOperator f) {",
      "    double[] next = new double[y.length];",
      "    for (int i = 0; i < y.length; i++) {",
      "      next[i] = y[i] + h * f.applyAsDouble(y[i]);",
      "    }",
      "    return next;",
      "  }",
      "}");

  /** The callers, with a step over a record of their own file. */
  private static final List<String> MODEL = List.of(
      "package com.example;",
      "import ad4j.Differentiable;",
      "import com.example.ode.Steps;",
      "import com.example.ode.Steps.Estimate;",
      "import com.example.ode.Steps.State;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Model {",
      "  record Vec2(double x, double y) {}",
      "  @FunctionalInterface interface Flow {",
      "    Vec2 at(Vec2 p);",
      "  }",
      "  @Differentiable static Vec2 advect(Vec2 p, double h, Flow flow) {",
      "    Vec2 d = flow.at(p);",
      "    return new Vec2(p.x() + h * d.x(), p.y() + h * d.y());",
      "  }",
      "  @Differentiable static float[] halve(float[] y, DoubleUnaryOperator f) {",
      "    float[] out = y.clone();",
      "    for (int i = 0; i < out.length; i++) {",
      "      out[i] = (float) f.applyAsDouble(out[i] / 2);",
      "    }",
      "    return out;",
      "  }",
      "  @Differentiable static double oscillator(double k, double x0) {",
      "    double c = 0.1;",
      "    State s = new State(x0, 0);",
      "    for (int i = 0; i < 5; i++) {",
      "      s = Steps.euler(s, 0.1, (x, v) -> -k * x - c * v);",
      "    }",
      "    return s.x() * s.x() + s.v();",
      "  }",
      "  @Differentiable static double rungeKutta(double k, double x0) {",
      "    double damping = 0.2;",
      "    State s = new State(x0, 1);",
      "    for (int i = 0; i < 3; i++) {",
      "      s = Steps.rk4(s, 0.05, q -> new State(q.v(), -k * q.x() - damping * q.v()));",
      "    }",
      "    return s.x() + 2 * s.v() * s.x();",
      "  }",
      "  @Differentiable static double walled(double k, double x0) {",
      "    State s = Steps.walled(new State(x0, 1), 0.5, (x, v) -> -k * x * v);",
      "    return s.x() * s.v() + Steps.walled(s, 0.1, (x, v) -> k).v();",
      "  }",
      "  @Differentiable static double integral(double k, double b) {",
      "    Estimate e = Steps.simpson(x -> Math.exp(-k * x), 0, b);",
      "    return e.value() + 0.5 * e.error();",
      "  }",
      "  @Differentiable static double arrays(double k, double a) {",
      "    double[] y = {a, 2 * a, k};",
      "    double[] y1 = Steps.step(y, 0.1, t -> -k * t * t);",
      "    double[] y2 = Steps.step(y1, 0.1, t -> Math.sin(t) * a);",
      "    return y2[0] + y2[1] * y2[2] + y[2];",
      "  }",
      "  @Differentiable static double floats(double k, double a) {",
      "    float[] y = {(float) a, (float) k};",
      "    float[] z = halve(y, t -> t * k);",
      "    return z[0] * z[1];",
      "  }",
      "  /** floats in double: the reference of its derivatives. */",
      "  @Differentiable static double floatsInDouble(double k, double a) {",
      "    return a / 2 * k * (k / 2 * k);",
      "  }",
      "  @Differentiable static double sameFile(double k, double a) {",
      "    double r = 0.3;",
      "    Vec2 p = advect(new Vec2(a, k), 0.1, q -> new Vec2(-k * q.y(), q.x() * r));",
      "    Vec2 q = advect(p, 0.2, v -> {",
      "      if (v.x() > 0) {",
      "        return new Vec2(-k * v.y(), v.x());",
      "      }",
      "      return new Vec2(v.y(), -k * v.x() * r);",
      "    });",
      "    return q.x() * q.y() + p.x();",
      "  }",
      "  @Differentiable static double anonymous(double k, double a) {",
      "    Vec2 p = advect(new Vec2(a, k), 0.1, new Flow() {",
      "      @Override public Vec2 at(Vec2 q) {",
      "        Vec2 r = new Vec2(q.y(), -k * q.x());",
      "        if (r.x() < 0) {",
      "          return new Vec2(-r.x(), r.y());",
      "        }",
      "        return r;",
      "      }",
      "    });",
      "    return p.x() * p.y();",
      "  }",
      "  @Differentiable(order = 2) static double secondOrder(double k, double x0) {",
      "    State s = Steps.rk4(new State(x0, 1), 0.1, q -> new State(q.v(), -k * q.x()));",
      "    double[] y = Steps.step(new double[] {s.x(), s.v()}, 0.1, t -> -k * t);",
      "    Vec2 p = advect(new Vec2(y[0], y[1]), 0.1, q -> new Vec2(q.y() * k, -q.x()));",
      "    return p.x() * p.y() + Steps.simpson(x -> x * x * k, 0, x0).value();",
      "  }",
      "}");

  private static CompiledOnce compiled(String... options) {
    List<String> all = new ArrayList<>(List.of("-Xlint:all", "-Werror"));
    all.addAll(List.of(options));
    return new CompiledOnce(() -> InProcessCompiler.compileWith(all,
        "com.example.ode.Steps", String.join("\n", STEPS),
        "com.example.Model", String.join("\n", MODEL)));
  }

  private static final List<CompiledOnce> BUILDS = List.of(compiled(),
      compiled("-Aad4j.partSize=1"), compiled("-Aad4j.partSize=2"));

  private static final double[][] POINTS = {{0.7, 0.3}, {1.9, 0.8}, {0.4, -0.6}};

  private static void checkEverywhere(String method) {
    for (CompiledOnce build : BUILDS) {
      for (double[] point : POINTS) {
        DerivativeChecks.checkAt(build.get().function("com.example.Model", method, 2), point);
      }
    }
  }

  @Test
  void anEulerStepOverARecordOfAnotherPackageInALoop() {
    checkEverywhere("oscillator");
  }

  @Test
  void aRungeKuttaStepOverARecordWithAFunctionalInterfaceOfRecords() {
    checkEverywhere("rungeKutta");
  }

  @Test
  void aStepReturningARecordFromTwoReturnsPassesItsFunctionOn() {
    checkEverywhere("walled");
  }

  @Test
  void anIntegralAndItsErrorAsARecord() {
    checkEverywhere("integral");
  }

  @Test
  void stepsReturningNewArrays() {
    checkEverywhere("arrays");
  }

  @Test
  void aMethodOfTheCallersFileReturningARecordWithLambdasOfExpressionAndBlockBodies() {
    checkEverywhere("sameFile");
  }

  @Test
  void anAnonymousClassReturningARecordFromTwoReturns() {
    checkEverywhere("anonymous");
  }

  @Test
  void secondOrderThroughRecordAndArrayResults() throws Exception {
    for (CompiledOnce build : BUILDS) {
      Class<?> grad = build.get().load("com.example.ModelGrad");
      for (double[] point : POINTS) {
        HessianChecks.checkAt(build.get().function("com.example.Model", "secondOrder", 2), grad,
            point);
      }
    }
  }

  @Test
  void theGeneratedCodeHoldsNoFunctionObjectAndMakesNoRecord() throws Exception {
    String source = BUILDS.get(0).get().compilation().generatedSourceFile(
        "com.example.ModelGrad").orElseThrow().getCharContent(true).toString();
    String code = GeneratedClassChecks.codeWithoutComments(source);
    assertThat(code).doesNotContain("applyAsDouble");
    assertThat(code).doesNotContain(".at(");
    assertThat(code).doesNotContain("->");
    assertThat(code).doesNotContain("new State");
    assertThat(code).doesNotContain("new Vec2");
    assertThat(code).doesNotContain("new Estimate");
    assertThat(code).doesNotContain("Steps.");
  }

  @Test
  void aMethodReturningAFloatArray() {
    for (CompiledOnce build : BUILDS) {
      for (double[] point : POINTS) {
        DerivativeChecks.checkAt(build.get().function("com.example.Model", "floats", 2),
            build.get().function("com.example.Model", "floatsInDouble", 2), 1e-5, point);
      }
    }
  }

  // ---- what stays unsupported ----------------------------------------------------------

  @Test
  void returningAnArrayTheCallerPassedIsAnErrorAtTheReturn() {
    assertError("'y' is an array that the caller of 'same' holds already, or one it must not"
        + " write, and ad4j inlines 'same' where it is called, so the caller would get that"
        + " array, not one of its own: return an array made in the method ('y.clone()')",
        "    return y;",
        "  @Differentiable static double[] same(double[] y, DoubleUnaryOperator f) {",
        "    y[0] = f.applyAsDouble(y[0]);",
        "    return y;",
        "  }",
        "  @Differentiable static double f(double a) {",
        "    double[] y = {a, 1};",
        "    return same(y, t -> t * t)[0];",
        "  }");
  }

  @Test
  void anArrayReturnedFromTwoPlacesIsAnErrorAtTheMethod() {
    assertError("'pick' takes a function and returns 'double[]', which ad4j inlines where it is"
        + " called when it returns once, as its last statement: compute the result into one"
        + " local array and return it at the end",
        "  @Differentiable static double[] pick(",
        "  @Differentiable static double[] pick(double[] y, DoubleUnaryOperator f) {",
        "    if (y[0] > 0) {",
        "      return new double[] {f.applyAsDouble(y[0])};",
        "    }",
        "    return new double[] {y[0]};",
        "  }",
        "  @Differentiable static double f(double a) {",
        "    return pick(new double[] {a}, t -> t * t)[0];",
        "  }");
  }

  @Test
  void recursionThroughAMethodReturningARecordIsAnErrorAtTheCall() {
    assertError("recursion through a function value is not supported: 'again' takes a function"
        + " and calls itself; ad4j specialises it at each call, which a recursive one would"
        + " never end",
        "    return again(new V(f.applyAsDouble(p.a()), p.b()), f);",
        "  @Differentiable static V again(V p, DoubleUnaryOperator f) {",
        "    return again(new V(f.applyAsDouble(p.a()), p.b()), f);",
        "  }",
        "  @Differentiable static double f(double a) {",
        "    return again(new V(a, 1), t -> t * t).a();",
        "  }");
  }

  @Test
  void aFunctionReturnedIsAnErrorAtTheCall() {
    assertError("call to 'twice(...)': 'twice' takes a function and returns"
        + " 'java.util.function.DoubleUnaryOperator'; ad4j specialises such methods returning"
        + " 'double', 'float', 'int', 'long' or 'boolean', a 'double[]' or 'float[]' array, or"
        + " a value record",
        "    return twice(t -> t * a).applyAsDouble(a);",
        "  @Differentiable static DoubleUnaryOperator twice(DoubleUnaryOperator f) {",
        "    return t -> 2 * f.applyAsDouble(t);",
        "  }",
        "  @Differentiable static double f(double a) {",
        "    return twice(t -> t * a).applyAsDouble(a);",
        "  }");
  }

  @Test
  void aRecordOfAnArrayReturnedFromTwoPlacesIsAnErrorAtTheMethod() {
    assertError("value record 'W' is returned by more than one 'return' here, which ad4j"
        + " supports for records of numbers and booleans only; return once, at the end",
        "  @Differentiable static W pick(",
        "  record W(double[] y, double s) {}",
        "  @Differentiable static W pick(W w, DoubleUnaryOperator f) {",
        "    if (w.s() > 0) {",
        "      return new W(w.y(), f.applyAsDouble(w.s()));",
        "    }",
        "    return w;",
        "  }",
        "  @Differentiable static double f(double a) {",
        "    return pick(new W(new double[] {a}, a), t -> t * t).s();",
        "  }");
  }

  /**
   * Compiles class {@code com.example.F} with value record {@code V} and {@code members};
   * {@code message}, the only error, at the line of {@code at}.
   */
  private static void assertError(String message, String at, String... members) {
    List<String> all = new ArrayList<>(List.of("package com.example;",
        "import ad4j.Differentiable;", "import java.util.function.DoubleUnaryOperator;",
        "final class F {", "  record V(double a, double b) {}"));
    all.addAll(List.of(members));
    all.add("}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", all));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    int line = 0;
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).contains(at) && line == 0) {
        line = i + 1;
      }
    }
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(line);
  }
}
