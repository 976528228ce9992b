package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.GeneratedClassChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Lambdas and method references held in locals and {@code static final} fields and called in a
 * {@code @Differentiable} method: each call is lowered as the function's code with its
 * arguments bound, so the generated code holds no function object. Each method is checked
 * against its own values bit for bit, central differences of itself and forward against
 * reverse mode ({@link DerivativeChecks}), some against their analytic derivatives, and the
 * generated code compiles without warnings under {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class FunctionValuesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.BiFunction;",
      "import java.util.function.DoubleBinaryOperator;",
      "import java.util.function.DoublePredicate;",
      "import java.util.function.DoubleSupplier;",
      "import java.util.function.DoubleUnaryOperator;",
      "import java.util.function.Function;",
      "import java.util.function.IntToDoubleFunction;",
      "import java.util.function.IntUnaryOperator;",
      "import java.util.function.Supplier;",
      "final class Functions {",
      "  @FunctionalInterface interface Kernel { double at(double x, int k); }",
      "  static final DoubleUnaryOperator SQUARE = x -> x * x;",
      "  static final DoubleBinaryOperator HYPOT = Math::hypot;",
      "  static double plain(double v) { return 2 * v + 1; }",
      "  @Differentiable static double cube(double v) { return v * v * v; }",
      "  /** Captures both parameters; f is called at an active and a constant argument. */",
      "  @Differentiable static double captures(double a, double b) {",
      "    double c = a * b;",
      "    DoubleUnaryOperator f = x -> a * Math.sin(x) + c;",
      "    DoubleBinaryOperator g = (x, y) -> x * y + b;",
      "    return f.applyAsDouble(b) + g.applyAsDouble(a, f.applyAsDouble(2))",
      "        + SQUARE.applyAsDouble(b) + HYPOT.applyAsDouble(a, b);",
      "  }",
      "  /** a sin(b) + a b: for the analytic check. */",
      "  @Differentiable static double simple(double a, double b) {",
      "    DoubleUnaryOperator f = x -> a * Math.sin(x);",
      "    DoubleSupplier s = () -> a * b;",
      "    return f.applyAsDouble(b) + s.getAsDouble();",
      "  }",
      "  /** A block body with an early return, a loop and locals, called twice. */",
      "  @Differentiable static double blocks(double a, double b) {",
      "    DoubleUnaryOperator f = x -> {",
      "      if (x < 0) return -x * a;",
      "      double s = 0;",
      "      for (int i = 1; i <= 3; i++) { s += Math.pow(x, i) / i; }",
      "      if (s > 100) { return 100; } else { s = s * b; }",
      "      return s;",
      "    };",
      "    return f.applyAsDouble(a) + f.applyAsDouble(-b);",
      "  }",
      "  /** Every primitive interface, a user's one and method references. */",
      "  @Differentiable static double kinds(double a, double b) {",
      "    Kernel k = (x, i) -> Math.pow(x, i) * a;",
      "    IntToDoubleFunction h = i -> i * a;",
      "    IntUnaryOperator twice = i -> 2 * i;",
      "    DoublePredicate p = x -> x > b;",
      "    DoubleUnaryOperator s = Math::sin;",
      "    DoubleBinaryOperator mx = Math::max;",
      "    DoubleUnaryOperator c = Functions::cube;",
      "    DoubleUnaryOperator q = Functions::plain;",
      "    DoubleUnaryOperator alias = c;",
      "    double r = k.at(b, 3) + h.applyAsDouble(twice.applyAsInt(2)) + s.applyAsDouble(a)",
      "        + mx.applyAsDouble(a, b) + alias.applyAsDouble(a) + q.applyAsDouble(3);",
      "    if (p.test(a)) { r += a; }",
      "    return r;",
      "  }",
      "  /** Boxed twins of the primitive interfaces. */",
      "  @Differentiable static double boxed(double a, double b) {",
      "    Function<Double, Double> f = x -> x * a;",
      "    BiFunction<Double, Double, Double> g = (x, y) -> x * Math.exp(y);",
      "    Supplier<Double> s = () -> b * b;",
      "    return f.apply(b) + g.apply(a, b) + s.get();",
      "  }",
      "  /** A lambda called in a loop, capturing a local of the loop's body. */",
      "  @Differentiable static double inLoop(double a, double b) {",
      "    double sum = 0;",
      "    for (int i = 0; i < 4; i++) {",
      "      double w = a * i;",
      "      DoubleUnaryOperator f = x -> Math.exp(-x * w);",
      "      sum += f.applyAsDouble(b);",
      "    }",
      "    return sum;",
      "  }",
      "  /** Integer constants passed and returned are converted as Java converts them. */",
      "  @Differentiable static double constants(double a, double b) {",
      "    DoubleSupplier one = () -> 1;",
      "    DoubleUnaryOperator half = x -> x / 2;",
      "    return a * (one.getAsDouble() / 2) + half.applyAsDouble(1) * b;",
      "  }",
      "  /** Order 2, through a lambda. */",
      "  @Differentiable(order = 2) static double second(double a, double b) {",
      "    DoubleBinaryOperator g = (x, y) -> Math.sin(x * y) + x * x * y;",
      "    DoubleUnaryOperator f = x -> g.applyAsDouble(x, b) * a;",
      "    return f.applyAsDouble(a);",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Functions", SOURCE));

  private static CompiledFunction function(String name) {
    return COMPILED.get().function("com.example.Functions", name, 2);
  }

  @Test
  void capturedParametersAndLocalsCarryTheirDerivatives() {
    for (double[] point : new double[][] {{0.7, -1.3}, {-2.1, 0.4}, {1.5, 2.5}}) {
      DerivativeChecks.checkAt(function("captures"), point);
    }
  }

  @Test
  void gradientIsTheAnalyticOne() {
    double a = 0.8;
    double b = -1.7;
    double[] gradient = function("simple").gradient(a, b);
    assertWithMessage("d/da").that(gradient[0]).isWithin(1e-14)
        .of(Math.sin(b) + b);
    assertWithMessage("d/db").that(gradient[1]).isWithin(1e-14)
        .of(a * Math.cos(b) + a);
    DerivativeChecks.checkAt(function("simple"), a, b);
  }

  @Test
  void blockBodiesWithEarlyReturnsAndLoops() {
    for (double[] point : new double[][] {{0.7, 1.3}, {-2.1, 0.4}, {1.5, -2.5}, {6.0, 3.0}}) {
      DerivativeChecks.checkAt(function("blocks"), point);
    }
  }

  @Test
  void everyInterfaceAndMethodReferences() {
    for (double[] point : new double[][] {{0.7, 1.3}, {2.1, 0.4}, {-1.5, -2.5}}) {
      DerivativeChecks.checkAt(function("kinds"), point);
    }
  }

  @Test
  void boxedInterfacesAreTheirPrimitiveTwins() {
    DerivativeChecks.checkAt(function("boxed"), 0.7, 1.3);
    DerivativeChecks.checkAt(function("boxed"), -1.1, 0.2);
  }

  @Test
  void lambdaInALoopSeesEachIterationsCapture() {
    DerivativeChecks.checkAt(function("inLoop"), 0.7, 1.3);
    DerivativeChecks.checkAt(function("inLoop"), 0.3, -0.4);
  }

  @Test
  void integerConstantsAreConvertedAsJavaConvertsThem() {
    assertThat(function("constants").value(2.0, 4.0)).isEqualTo(3.0);
    DerivativeChecks.checkAt(function("constants"), 2.0, 4.0);
  }

  @Test
  void secondOrderThroughLambdas() throws Exception {
    HessianChecks.checkAt(function("second"), COMPILED.get().load("com.example.FunctionsGrad"),
        0.7, 1.3);
    HessianChecks.checkAt(function("second"), COMPILED.get().load("com.example.FunctionsGrad"),
        -0.4, 0.9);
  }

  @Test
  void generatedCodeHoldsNoFunctionObject() throws Exception {
    String source = COMPILED.get().compilation().generatedSourceFile(
        "com.example.FunctionsGrad").orElseThrow().getCharContent(true).toString();
    // the code without its comments, which quote the user's lines
    String generated = GeneratedClassChecks.codeWithoutComments(source);
    assertThat(generated).contains("Math.sin(");
    assertThat(generated).doesNotContain("applyAsDouble");
    assertThat(generated).doesNotContain("->");
    assertThat(generated).doesNotContain("::");
  }

  /** Functions that take arrays ({@code double[]}) and {@code float}s (DESIGN part 3). */
  private static final String ARRAYS_AND_FLOATS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.ToDoubleFunction;",
      "final class Models {",
      "  @FunctionalInterface interface Model { double at(double[] w, double x); }",
      "  @FunctionalInterface interface FloatOp { float apply(float x); }",
      "  @Differentiable static double quadratic(double[] w, double s) {",
      "    Model m = (v, x) -> v[0] * x + v[1] * x * x + s;",
      "    double sum = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      sum += m.at(w, i + 0.5) * m.at(w, s);",
      "    }",
      "    return sum;",
      "  }",
      "  @Differentiable static double norm(double[] w, double s) {",
      "    ToDoubleFunction<double[]> length = v -> {",
      "      double t = 0;",
      "      for (double e : v) {",
      "        t += e * e;",
      "      }",
      "      return Math.sqrt(t) * s;",
      "    };",
      "    return length.applyAsDouble(w);",
      "  }",
      "  @Differentiable static double fit(Model m, double[] w, double x) {",
      "    return m.at(w, x) * m.at(w, 2 * x);",
      "  }",
      "  @Differentiable static double exponential(double[] w, double x) {",
      "    return fit((v, t) -> v[0] * Math.exp(v[1] * t), w, x);",
      "  }",
      "  @Differentiable static double floats(double x, double y) {",
      "    FloatOp f = t -> t * t * 1.5f;",
      "    return f.apply((float) x) * y;",
      "  }",
      "}");

  @Test
  void functionsTakeArraysAndFloats() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Models", ARRAYS_AND_FLOATS);
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(compiled, "com.example.Models");
    for (double[] w : new double[][] {{0.3, -0.7}, {1.2, 0.4}}) {
      for (String name : List.of("quadratic", "norm", "exponential")) {
        checks.check(new Call(name, new Object[] {w, 0.9}, true, true));
      }
    }
    // a rounding to float counts as the identity: d/dx (1.5 x^2 y) = 3 x y at the float x
    double x = 0.7;
    double y = 1.3;
    double[] gradient = compiled.function("com.example.Models", "floats", 2).gradient(x, y);
    float rounded = (float) x;
    assertThat(gradient[0]).isWithin(1e-12).of(3.0 * rounded * y);
    assertThat(gradient[1]).isEqualTo((double) (rounded * rounded * 1.5f));
  }

  /** Anonymous classes of functional interfaces (DESIGN part 3): inlined as lambdas are. */
  private static final String ANONYMOUS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.Arrays;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Anonymous {",
      "  @Differentiable static double sq(double t) { return t * t; }",
      "  @Differentiable static double simpson(DoubleUnaryOperator f, double lo, double hi) {",
      "    return (hi - lo) * (f.applyAsDouble(lo) + 4 * f.applyAsDouble((lo + hi) / 2)",
      "        + f.applyAsDouble(hi)) / 6;",
      "  }",
      "  @Differentiable static double local(double a, double b) {",
      "    DoubleUnaryOperator f = new DoubleUnaryOperator() {",
      "      @Override",
      "      public double applyAsDouble(double t) {",
      "        double u = a * t;",
      "        if (u > 1) {",
      "          return Math.sin(u) * b;",
      "        }",
      "        return sq(u) + b;",
      "      }",
      "    };",
      "    return f.applyAsDouble(0.5) * f.applyAsDouble(b);",
      "  }",
      "  @Differentiable static double passed(double a, double b) {",
      "    return simpson(new DoubleUnaryOperator() {",
      "      @Override",
      "      public double applyAsDouble(double t) {",
      "        return Math.exp(-a * t) * b;",
      "      }",
      "    }, 0, 2) + Arrays.stream(new double[] {1, 2}).map(new DoubleUnaryOperator() {",
      "      public double applyAsDouble(double x) {",
      "        return x * a;",
      "      }",
      "    }).sum();",
      "  }",
      "}");

  @Test
  void anonymousClassesAreInlinedAsLambdasAre() {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Anonymous", ANONYMOUS);
    for (double[] point : new double[][] {{0.7, 1.3}, {3.1, 0.4}, {-0.5, 2.0}}) {
      DerivativeChecks.checkAt(compiled.function("com.example.Anonymous", "local", 2), point);
      DerivativeChecks.checkAt(compiled.function("com.example.Anonymous", "passed", 2), point);
    }
    // passed = b (1 - e^{-2a}) / a by Simpson's rule on one panel, + 3 a: d/db is exact
    double a = 0.7;
    double simpson = 2 * (1 + 4 * Math.exp(-a) + Math.exp(-2 * a)) / 6;
    assertThat(compiled.function("com.example.Anonymous", "passed", 2).gradient(a, 1.3)[1])
        .isWithin(1e-12).of(simpson);
  }

  /** {@code new C()} of a class of the file implementing the interface (DESIGN part 3). */
  private static final String NAMED = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Named {",
      "  static double w(double t) { return 3.0; }",
      "  static final class Bump implements DoubleUnaryOperator {",
      "    @Differentiable static double w(double t) { return 1 + t; }",
      "    @Override public double applyAsDouble(double t) { return w(t) * Math.exp(-t * t); }",
      "  }",
      "  @Differentiable static double simpson(DoubleUnaryOperator f, double lo, double hi) {",
      "    return (hi - lo) * (f.applyAsDouble(lo) + 4 * f.applyAsDouble((lo + hi) / 2)",
      "        + f.applyAsDouble(hi)) / 6;",
      "  }",
      "  @Differentiable static double bump(double a, double b) {",
      "    DoubleUnaryOperator f = new Bump();",
      "    return f.applyAsDouble(a) * b + simpson(new Bump(), a, b);",
      "  }",
      "}");

  @Test
  void aClassOfTheFileIsInlinedWithItsOwnNames() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Named", NAMED);
    double a = 0.6;
    double b = 1.4;
    // Bump's w (1 + t), not Named's (3): f(t) = (1 + t) e^{-t^2}
    java.util.function.DoubleUnaryOperator f = t -> (1 + t) * Math.exp(-t * t);
    double expected = f.applyAsDouble(a) * b + (b - a) * (f.applyAsDouble(a)
        + 4 * f.applyAsDouble((a + b) / 2) + f.applyAsDouble(b)) / 6;
    assertThat((double) compiled.invoke("com.example.Named", "bump", a, b))
        .isWithin(1e-14).of(expected);
    for (double[] point : new double[][] {{0.6, 1.4}, {-0.3, 0.9}}) {
      DerivativeChecks.checkAt(compiled.function("com.example.Named", "bump", 2), point);
    }
  }
}
