package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MixedFunction;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code float} locals and expressions that carry derivatives: every generated member computes
 * the value in Java's float arithmetic exactly as the user's method does (bit for bit), and
 * carries the derivative in {@code double}, taking each rounding to {@code float} as the
 * identity. Finite differences of a float function are rounding noise, so the gradient is
 * compared with finite differences of the same function written in {@code double} (class
 * {@code G}, made from {@code F}'s source by replacing {@code float} with {@code double} and
 * dropping the casts to it), to
 * float's precision; forward and reverse mode must agree as for any function. Calls that carry
 * no derivative take {@code float} arguments as written ({@code Float.isNaN(f)}, a helper's
 * {@code float} parameter).
 */
@ExtendWith(TapeIsEmpty.class)
class FloatArithmeticTest {
  private static final String FLOAT_SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class F {",
      "  @Differentiable static double sq(double y) { return y * y; }",
      "  @Differentiable static double rounding(double x) {",
      "    float f = (float) x;",
      "    float g = f * f + 0.25f;",
      "    g /= 3;",
      "    f++;",
      "    return g * f + x;",
      "  }",
      "  @Differentiable static double loopSum(double x) {",
      "    float s = 0;",
      "    for (int i = 0; i < 10; i++) { s += (float) Math.sin(x * i) * 0.375f; }",
      "    var t = s * 1.5f;",
      "    return t + Math.abs(s) + Math.max(s, t) * x;",
      "  }",
      "  @Differentiable static double branches(double x, double y) {",
      "    float s = (float) x;",
      "    float r = s > 0 ? s * 2 : -s;",
      "    double d = r;",
      "    return d * y + (float) (d / 3);",
      "  }",
      "  @Differentiable static double callsWithFloats(double x) {",
      "    float f = (float) (x * 1.1);",
      "    return sq(f) + Math.exp(f) + sq(f * f);",
      "  }",
      // javac 20 and later warn of the narrowing in 'f += x', which is the point here
      "  @SuppressWarnings(\"lossy-conversions\")",
      "  @Differentiable static double compoundNarrowing(double x, double y) {",
      "    float f = 1;",
      "    long k = 3;",
      "    f += x;",
      "    f *= k;",
      "    f -= y * f;",
      "    return f;",
      "  }",
      "  @SuppressWarnings(\"lossy-conversions\") // f *= y narrows, as javac 20+ warns",
      "  @Differentiable static double increments(double x, double y) {",
      "    float f = (float) x;",
      "    float g = f++ * 2 + ++f;",
      "    g -= (f *= y) - f--;",
      "    return g * f;",
      "  }",
      "  @Differentiable static double newtonSqrt(double a) {",
      "    float r = (float) a;",
      "    for (int i = 0; i < 8; i++) { r = 0.5f * (r + (float) a / r); }",
      "    return r;",
      "  }",
      "  @Differentiable static double halving(double x) {",
      "    float v = (float) x;",
      "    int n = 0;",
      "    while ((v *= 0.5f) > 0.125f) { n++; }",
      "    return v * n + v;",
      "  }",
      "  static boolean ok(float v) { return v < 100; }",
      "  @Differentiable static double inactiveCallsAndSwitches(double x) {",
      "    float f = (float) x;",
      "    long k = Math.round(f * 3);",
      "    float r = switch ((int) k) {",
      "      case 1 -> f * 2;",
      "      case 2 -> { float q = f * f; yield q + 1; }",
      "      default -> f;",
      "    };",
      "    float c = x > 0 ? f : x < -1 ? 2 * f : 3;",
      "    if (Float.isNaN(f) || !ok(f)) { return 0; }",
      "    do { f *= 0.5f; } while ((f *= 0.9f) > 0.1f);",
      "    return r * c + Math.min(f, 1f) + k;",
      "  }",
      "  @Differentiable(order = 2) static double cubic(double x) {",
      "    float f = (float) x;",
      "    float s = 0;",
      "    for (int i = 1; i < 4; i++) { s += f * f / i; }",
      "    return s * x;",
      "  }",
      "}");

  /** The same functions in double arithmetic: the reference for the derivatives. */
  private static final String DOUBLE_SOURCE = FLOAT_SOURCE
      .replace("class F", "class G")
      .replace("(float) ", "")
      .replace("Float.", "Double.")
      .replaceAll("\\bfloat\\b", "double")
      .replaceAll("(\\d)f\\b", "$1");

  private static final CompiledOnce BOTH = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.F", FLOAT_SOURCE, "com.example.G", DOUBLE_SOURCE));

  /** Float's precision, with room for the few roundings each partial is evaluated after. */
  private static final double FLOAT_TOLERANCE = 2e-6;

  private static Compiled both() {
    return BOTH.get();
  }

  static Stream<Arguments> functions() {
    return Stream.of(
        Arguments.of("rounding", new double[][] {{0.7}, {-1.3}, {2.1}}),
        Arguments.of("loopSum", new double[][] {{0.3}, {1.0}, {-0.4}}),
        Arguments.of("branches", new double[][] {{0.7, 1.9}, {-1.3, 0.4}}),
        Arguments.of("callsWithFloats", new double[][] {{0.7}, {-1.3}}),
        Arguments.of("compoundNarrowing", new double[][] {{0.7, 0.3}, {-1.3, 2.2}}),
        Arguments.of("increments", new double[][] {{0.6, 1.3}, {-1.4, 0.7}}),
        Arguments.of("newtonSqrt", new double[][] {{2}, {0.7}, {10}}),
        Arguments.of("halving", new double[][] {{0.7}, {3.3}, {0.1}}),
        Arguments.of("inactiveCallsAndSwitches",
            new double[][] {{0.3}, {0.7}, {-0.6}, {-1.4}}),
        Arguments.of("cubic", new double[][] {{0.7}, {-1.3}}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("functions")
  void floatValuesBitForBitAndDerivativesOfTheDoubleFunction(String name, double[][] points) {
    int arity = points[0].length;
    CompiledFunction f = both().function("com.example.F", name, arity);
    CompiledFunction reference = both().function("com.example.G", name, arity);
    for (double[] x : points) {
      // bit for bit the user's float method (DerivativeChecks), and the gradient within
      // float's precision of the double function's
      DerivativeChecks.checkAt(f, reference, FLOAT_TOLERANCE, x);
    }
    // the test means something only if float arithmetic changes the value
    double[] x = points[0];
    assertWithMessage("%s computes the same in float and double at %s", name, x[0])
        .that(f.value(x)).isNotEqualTo(reference.value(x));
  }

  @Test
  void valuesRoundAsJavasFloatArithmeticDoes() {
    // independent of both compilations: the float computation written out here
    double x = 0.7;
    float f = (float) x;
    float g = f * f + 0.25f;
    g /= 3;
    f++;
    double expected = g * f + x;
    CompiledFunction rounding = both().function("com.example.F", "rounding", 1);
    assertThat(rounding.valueAndGradient(new double[] {x}, new double[1])).isEqualTo(expected);
    assertThat(rounding.pullback(new double[] {x}, 1, new double[1])).isEqualTo(expected);
    // d/dx ((x^2 + 1/4) / 3 * (x + 1) + x), with x rounded to float where the partials read it
    double xf = (float) x;
    assertThat(rounding.gradient(x)[0]).isWithin(1e-6)
        .of(2 * xf / 3 * (xf + 1) + (xf * xf + 0.25) / 3 + 1);
  }

  /**
   * An {@code int} or {@code long} in {@code float} arithmetic is rounded to {@code float}
   * first (JLS 5.6), and the partial derivative reads the rounded number: {@code f * n} with
   * {@code n = 16777217} is {@code f * 16777216f}, exactly linear in {@code f} with slope 2^24.
   * The partials read the integer widened to {@code double} instead, slope 16777217, in every
   * member, with no error; so did those of a {@code Math} function's {@code float} overload
   * ({@code Math.fma(f, n, c)}). The slopes here are exact: each product by a power of two is.
   */
  @Test
  void anIntegerInFloatArithmeticIsRoundedToFloatWhereThePartialsReadIt() {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Widened {",
        "  @Differentiable static double times(double x, int n) {",
        "    float f = (float) x;",
        "    return f * n;",
        "  }",
        "  @Differentiable static double compound(double x, long n) {",
        "    float f = (float) x;",
        "    f *= n;",
        "    return f;",
        "  }",
        "  @Differentiable static double fma(double x, int n) {",
        "    float f = (float) x;",
        "    return Math.fma(f, n, 1f);",
        "  }",
        "  @Differentiable static double wideLong(double x) {",
        "    float f = (float) x;",
        "    return f * 1152921573326323713L;",
        "  }",
        "  @Differentiable static double constant(double x) {",
        "    float f = (float) x;",
        "    return f * 16777217 - 33554435L / f;",
        "  }",
        "}");
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Widened", source);
    double x = 0.75;
    MixedFunction times = new MixedFunction(compiled, "com.example.Widened", "times",
        double.class, int.class);
    MixedFunction compound = new MixedFunction(compiled, "com.example.Widened", "compound",
        double.class, long.class);
    MixedFunction fma = new MixedFunction(compiled, "com.example.Widened", "fma",
        double.class, int.class);
    for (MixedFunction f : List.of(times, compound, fma)) {
      Object[] at = f == compound ? new Object[] {x, 16777217L} : new Object[] {x, 16777217};
      double value = f == fma ? 0.75 * 16777216 + 1 : 0.75 * 16777216;
      assertThat(f.value(at)).isEqualTo(value);
      assertThat(f.gradient(at)).usingExactEquality().containsExactly(16777216.0);
      assertThat(f.tangent(at, new double[] {1})).isEqualTo(16777216.0);
      double[] adjoints = new double[1];
      assertThat(f.pullback(at, 1, adjoints)).isEqualTo(value);
      assertThat(adjoints[0]).isEqualTo(16777216.0);
    }
    // 33554435L is 33554436f: d/dx (2^24 x - 33554436 / x) = 2^24 + 33554436 / x^2
    // 2^60 + 2^36 + 1 is 2^60 + 2^37 as a float, but 2^60 rounded to double first
    CompiledFunction wideLong = compiled.function("com.example.Widened", "wideLong", 1);
    assertThat(wideLong.gradient(x)[0]).isEqualTo((double) (float) 1152921573326323713L);
    assertThat(wideLong.gradient(x)[0]).isEqualTo(Math.pow(2, 60) + Math.pow(2, 37));
    CompiledFunction constant = compiled.function("com.example.Widened", "constant", 1);
    assertThat(constant.gradient(x)[0]).isWithin(1e-6).of(16777216.0 + 33554436.0 / (x * x));
    assertThat(constant.tangent(new double[] {x}, new double[] {1}))
        .isWithin(1e-6).of(16777216.0 + 33554436.0 / (x * x));
  }

  @Test
  void aLongMethodSplitIntoSegmentsHandsFloatValuesOver() {
    // float values cross the segments' boundaries on the tape, as doubles, and come back exact
    StringBuilder body = new StringBuilder("    float f = (float) x;\n    double s = 0;\n");
    for (int i = 0; i < 120; i++) {
      body.append("    f = f * 0.999f + (float) Math.sin(s * 0.01);\n")
          .append("    s = s * 0.5 + f * x;\n");
    }
    String source = "package com.example;\nimport ad4j.Differentiable;\nfinal class L {\n"
        + "  @Differentiable static double chain(double x) {\n" + body
        + "    return s + f;\n  }\n}\n";
    String reference = source.replace("class L", "class M").replace("(float) ", "")
        .replaceAll("\\bfloat\\b", "double").replace("0.999f", "0.999");
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.L", source, "com.example.M", reference);
    assertThat(Arrays.stream(compiled.load("com.example.LGrad").getDeclaredMethods())
        .map(Method::getName)).contains("chainForward2");
    CompiledFunction f = compiled.function("com.example.L", "chain", 1);
    CompiledFunction inDouble = compiled.function("com.example.M", "chain", 1);
    for (double x : new double[] {0.3, -1.2}) {
      DerivativeChecks.checkAt(f, inDouble, FLOAT_TOLERANCE, x);
    }
  }

  @Test
  void floatValuesRecordedInALoopKeepTheirTangentsAtOrderTwo() throws Exception {
    // v * v, a float made in each iteration, goes on the tape with its tangent below it; the
    // reverse sweep's copy taken back must carry a tangent too (it had none: every entry of the
    // Hessian was 0, and the tangents stayed on the tape)
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class H {",
        "  @Differentiable(order = 2) static double f(double x, double y) {",
        "    double s = 0;",
        "    for (int i = 1; i <= 3; i++) { float v = (float) (x * i); s += v * v * y; }",
        "    return s;",
        "  }",
        "}");
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.H", source);
    double x = 0.75; // x, 2x and 3x are floats: f = 14 x^2 y exactly
    double y = 0.375;
    double[][] hessian = (double[][]) compiled.invoke("com.example.HGrad", "fHessian", x, y);
    assertThat(hessian[0][0]).isWithin(1e-12).of(28 * y);
    assertThat(hessian[0][1]).isWithin(1e-12).of(28 * x);
    assertThat(hessian[1][0]).isWithin(1e-12).of(28 * x);
    assertThat(hessian[1][1]).isWithin(1e-12).of(0);
  }

  @Test
  void hessianOfAFloatFunctionIsTheAnalyticOne() throws Exception {
    // cubic(x) = (1 + 1/2 + 1/3) f^2 x with f = (float) x: 11/6 x^3, second derivative 11 x
    Method cubicHessian = both().load("com.example.FGrad")
        .getDeclaredMethod("cubicHessian", double.class);
    cubicHessian.setAccessible(true); // FGrad is package-private, as F is
    for (double x : new double[] {0.7, -1.3}) {
      double[][] hessian = (double[][]) cubicHessian.invoke(null, x);
      assertThat(hessian[0][0]).isWithin(1e-5 * Math.abs(11 * x)).of(11 * x);
    }
  }
}
