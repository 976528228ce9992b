package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code float} parameters and results (DESIGN.md, "Contract, part 3", {@code float}): a
 * {@code float} parameter takes one gradient slot and a {@code double} tangent; the members that
 * return the method's value return {@code float}, bit for bit the user's; {@code mTangent}
 * returns a {@code double} and seeds are {@code double}s. Finite differences of a float function
 * are rounding noise, so the gradients are compared with finite differences of the same
 * functions written in {@code double} (class {@code G}, made from {@code F}'s source), to
 * float's precision, and the second derivatives with the analytic ones; forward and reverse
 * mode must agree (the dot-product test).
 */
@ExtendWith(TapeIsEmpty.class)
class FloatValuesTest {
  private static final String FLOAT_SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class F {",
      "  @Differentiable static float product(float x, float y) {",
      "    float s = x * y + 0.5f;",
      "    return s * s / (1 + x * x);",
      "  }",
      "  @Differentiable static float mixed(float x, double y) {",
      "    float t = (float) Math.sin(x * y);",
      "    return t * x + (float) (y / 3);",
      "  }",
      // float arguments to float parameters of callees, their float results used
      "  @Differentiable static double caller(float x, double y) {",
      "    float p = product(x, (float) y);",
      "    return p * y + mixed(p, y);",
      "  }",
      "  @Differentiable static float fromDouble(double x) {",
      "    return product((float) x, 2.5f) + (float) x;",
      "  }",
      // a float parameter assigned in a loop, a return inside the loop
      "  @Differentiable static float loop(float x) {",
      "    float s = 0;",
      "    for (int i = 1; i <= 6; i++) {",
      "      x = x * 0.75f + 0.125f;",
      "      s += x * x / i;",
      "      if (s > 50) { return s * 2; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable private static float hidden(float x) { return x * x * x + 0.1f; }",
      "  @Differentiable static double callsPrivate(double z) { return hidden((float) z) * z; }",
      "  @Differentiable static float scaled(float x, @NoDerivative float c, int n) {",
      "    return x * c * n + x;",
      "  }",
      "  @Differentiable(order = 2) static float quadratic(float a) { return a * a * 1.1f + a; }",
      "  @Differentiable(order = 2) static float second(float x, double y) {",
      "    float q = quadratic(x);",
      "    return (float) (q * Math.sin(y)) + x * x * x;",
      "  }",
      "  @Differentiable static double[] pair(float x, double y) {",
      "    double[] r = new double[2];",
      "    r[0] = x * y;",
      "    r[1] = (float) Math.sin(x) * x;",
      "    return r;",
      "  }",
      "}");

  /** The same functions in double arithmetic: the reference for the derivatives. */
  private static final String DOUBLE_SOURCE = FLOAT_SOURCE
      .replace("class F", "class G")
      .replace("(float) ", "")
      .replaceAll("\\bfloat\\b", "double")
      .replaceAll("(\\d)f\\b", "$1");

  private static final CompiledOnce BOTH = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.F", FLOAT_SOURCE, "com.example.G", DOUBLE_SOURCE));

  /** Float's precision, with room for the roundings of the primal values the partials read. */
  private static final double FLOAT_TOLERANCE = 1e-5;

  private static Compiled both() {
    return BOTH.get();
  }

  private static final String GRAD = "com.example.FGrad";

  private static Class<?> floatGrad() {
    return both().load(GRAD);
  }

  static Stream<Arguments> functions() {
    Class<?> f = float.class;
    Class<?> d = double.class;
    // points whose coordinates are floats, so that F and G start from the same numbers
    double[][] twoPoints = {{0.75, 1.25}, {-1.5, 0.375}};
    return Stream.of(
        Arguments.of("product", new Class<?>[] {f, f}, twoPoints),
        Arguments.of("mixed", new Class<?>[] {f, d}, twoPoints),
        Arguments.of("caller", new Class<?>[] {f, d}, twoPoints),
        Arguments.of("fromDouble", new Class<?>[] {d}, new double[][] {{0.75}, {-1.25}}),
        Arguments.of("loop", new Class<?>[] {f}, new double[][] {{0.75}, {-2.5}, {11.5}}),
        Arguments.of("callsPrivate", new Class<?>[] {d}, new double[][] {{0.75}, {-1.25}}),
        Arguments.of("quadratic", new Class<?>[] {f}, new double[][] {{0.75}, {-1.25}}),
        Arguments.of("second", new Class<?>[] {f, d}, new double[][] {{0.75, 1.25}, {-1.5, 0.5}}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("functions")
  void floatValuesBitForBitAndDerivativesOfTheDoubleFunction(String name, Class<?>[] types,
      double[][] points) {
    CompiledFunction f = both().function("com.example.F", name, types);
    CompiledFunction reference = both().function("com.example.G", name, types.length);
    for (double[] x : points) {
      // the value of every member that returns it is the user's method's, bit for bit; the
      // gradient within float's precision of the double function's finite differences; the
      // pullback adds seed times it; the tangent along each direction is its dot product
      DerivativeChecks.checkAt(f, reference, FLOAT_TOLERANCE, x);
    }
    // the test means something only if float arithmetic changes the value
    double[] x = points[0];
    assertWithMessage("%s computes the same in float and double", name)
        .that(f.value(x)).isNotEqualTo(reference.value(x));
  }

  @Test
  void longFloatMethodsSplitIntoSegmentsAndWithManyReturns() {
    // a long method is cut into segments whose last forward sweep returns the float value; a
    // method of many returns stores its float result once (SingleReturn)
    StringBuilder chain = new StringBuilder("    float f = x;\n    double s = 0;\n");
    for (int i = 0; i < 120; i++) {
      chain.append("    f = f * 0.999f + (float) Math.sin(s * 0.01);\n")
          .append("    s = s * 0.5 + f * y;\n");
    }
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      many.append("    if (y < ").append(i - 20).append(") { return x * ").append(i)
          .append(".5f + (float) y; }\n");
    }
    String source = "package com.example;\nimport ad4j.Differentiable;\nfinal class L {\n"
        + "  @Differentiable static float chain(float x, double y) {\n" + chain
        + "    return (float) s + f;\n  }\n"
        + "  @Differentiable static float many(float x, double y) {\n" + many
        + "    return x * x;\n  }\n}\n";
    String reference = source.replace("class L", "class M").replace("(float) ", "")
        .replaceAll("\\bfloat\\b", "double").replaceAll("(\\d)f\\b", "$1");
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.L", source, "com.example.M", reference);
    assertThat(Stream.of(compiled.load("com.example.LGrad").getDeclaredMethods())
        .map(m -> m.getName())).contains("chainForward2");
    for (String name : List.of("chain", "many")) {
      CompiledFunction f = compiled.function("com.example.L", name, float.class, double.class);
      CompiledFunction inDouble = compiled.function("com.example.M", name, 2);
      for (double[] x : new double[][] {{0.375, -1.25}, {-1.5, 0.75}, {0.75, -18.5}}) {
        DerivativeChecks.checkAt(f, inDouble, FLOAT_TOLERANCE, x);
      }
    }
  }

  @Test
  void membersHaveTheContractsSignatures() throws Exception {
    Class<?> grad = floatGrad();
    Class<?> f = float.class;
    Class<?> d = double.class;
    // the value in the method's own type, derivatives, tangents and seeds in double
    assertThat(grad.getDeclaredMethod("productGradient", f, f).getReturnType())
        .isEqualTo(double[].class);
    assertThat(grad.getDeclaredMethod("productValueAndGradient", f, f, double[].class)
        .getReturnType()).isEqualTo(f);
    assertThat(grad.getDeclaredMethod("productTangent", f, f, d, d).getReturnType())
        .isEqualTo(d);
    assertThat(grad.getDeclaredMethod("productPullback", f, f, d, double[].class)
        .getReturnType()).isEqualTo(f);
    assertThat(grad.getDeclaredMethod("mixedTangent", f, d, d, d).getReturnType()).isEqualTo(d);
    assertThat(grad.getDeclaredMethod("callerValueAndGradient", f, d, double[].class)
        .getReturnType()).isEqualTo(d);
    // a @NoDerivative float takes no slot and has no tangent; an int neither
    assertThat(grad.getDeclaredMethod("scaledTangent", f, f, int.class, d).getReturnType())
        .isEqualTo(d);
    assertThat(((double[]) both().invoke(GRAD, "scaledGradient", 1.5f, 2f, 3))).hasLength(1);
    // order 2
    assertThat(grad.getDeclaredMethod("secondHessian", f, d).getReturnType())
        .isEqualTo(double[][].class);
    assertThat(grad.getDeclaredMethod("secondHessianVector", f, d, double[].class)
        .getReturnType()).isEqualTo(double[].class);
    assertThat(grad.getDeclaredMethod("secondValueGradientAndHessian", f, d, double[].class,
        double[][].class).getReturnType()).isEqualTo(f);
    // a vector function of a float parameter
    assertThat(grad.getDeclaredMethod("pairJacobian", f, d).getReturnType())
        .isEqualTo(double[][].class);
    assertThat(grad.getDeclaredMethod("pairTangent", f, d, d, d).getReturnType())
        .isEqualTo(double[].class);
    assertThat(grad.getDeclaredMethod("pairPullback", f, d, double[].class, double[].class)
        .getReturnType()).isEqualTo(double[].class);
  }

  @Test
  void noDerivativeFloatParameterIsAConstant() throws Exception {
    Class<?> grad = floatGrad();
    float x = 1.5f;
    float c = 0.7f;
    int n = 3;
    double[] gradient = new double[1];
    float value = (float) both().invoke(GRAD, "scaledValueAndGradient", x, c, n, gradient);
    float expected = x * c * n + x;
    assertThat(Float.floatToRawIntBits(value)).isEqualTo(Float.floatToRawIntBits(expected));
    // d/dx (x c n + x) = c n + 1, c rounded to float as the method reads it
    assertThat(gradient[0]).isWithin(1e-12).of((double) c * n + 1);
    assertThat((double) both().invoke(GRAD, "scaledTangent", x, c, n, 2.0))
        .isWithin(1e-12).of(2 * ((double) c * n + 1));
  }

  @Test
  void hessianOfAFloatFunctionIsTheAnalyticOne() throws Exception {
    Class<?> grad = floatGrad();
    for (double[] point : new double[][] {{0.75, 1.25}, {-1.5, 0.5}}) {
      float x = (float) point[0];
      double y = point[1];
      // second(x, y) = q sin y + x^3 with q = c x^2 + x, c = 1.1f
      double c = 1.1f;
      double q = c * x * x + x;
      double[][] analytic = {
          {2 * c * Math.sin(y) + 6 * x, (2 * c * x + 1) * Math.cos(y)},
          {(2 * c * x + 1) * Math.cos(y), -q * Math.sin(y)}};
      double[][] hessian = (double[][]) both().invoke(GRAD, "secondHessian", x, y);
      for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
          assertWithMessage("H[%s][%s] at %s, %s", i, j, x, y).that(hessian[i][j])
              .isWithin(FLOAT_TOLERANCE * Math.max(1, Math.abs(analytic[i][j])))
              .of(analytic[i][j]);
        }
      }
      assertThat(hessian[0][1]).isEqualTo(hessian[1][0]);
      double[] v = {0.7, -0.4};
      double[] product = (double[]) both().invoke(GRAD, "secondHessianVector", x, y, v);
      for (int i = 0; i < 2; i++) {
        double expected = hessian[i][0] * v[0] + hessian[i][1] * v[1];
        assertThat(product[i]).isWithin(1e-12 * Math.max(1, Math.abs(expected))).of(expected);
      }
      double[] gradient = new double[2];
      double[][] again = new double[2][2];
      float value = (float) both().invoke(GRAD, "secondValueGradientAndHessian", x, y,
          gradient, again);
      float user = (float) both().invoke("com.example.F", "second", x, y);
      assertThat(Float.floatToRawIntBits(value)).isEqualTo(Float.floatToRawIntBits(user));
      assertThat(gradient).usingExactEquality()
          .containsExactly((double[]) both().invoke(GRAD, "secondGradient", x, y)).inOrder();
      assertThat(again).isEqualTo(hessian);
    }
  }

  @Test
  void jacobianOfAVectorFunctionOfAFloatParameter() throws Exception {
    Class<?> grad = floatGrad();
    float x = 0.75f;
    double y = -1.25;
    // pair = (x y, sin(x) x), the sine rounded to float (derivative 1)
    double[][] analytic = {{y, x}, {Math.cos(x) * x + Math.sin(x), 0}};
    double[][] jacobian = (double[][]) both().invoke(GRAD, "pairJacobian", x, y);
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) {
        assertWithMessage("J[%s][%s]", i, j).that(jacobian[i][j])
            .isWithin(FLOAT_TOLERANCE).of(analytic[i][j]);
      }
    }
    double[] user = (double[]) both().invoke("com.example.F", "pair", x, y);
    double[][] written = new double[2][2];
    assertThat((double[]) both().invoke(GRAD, "pairValueAndJacobian", x, y, written))
        .usingExactEquality().containsExactly(user).inOrder();
    assertThat(written).isEqualTo(jacobian);
    // forward: J v; reverse: seed^T J
    double[] v = {0.3, -0.8};
    double[] tangent = (double[]) both().invoke(GRAD, "pairTangent", x, y, v[0], v[1]);
    double[] seed = {1.5, -0.5};
    double[] adjoints = new double[2];
    both().invoke(GRAD, "pairPullback", x, y, seed, adjoints);
    for (int i = 0; i < 2; i++) {
      assertThat(tangent[i]).isWithin(1e-12)
          .of(jacobian[i][0] * v[0] + jacobian[i][1] * v[1]);
      assertThat(adjoints[i]).isWithin(1e-12)
          .of(seed[0] * jacobian[0][i] + seed[1] * jacobian[1][i]);
    }
  }
}
