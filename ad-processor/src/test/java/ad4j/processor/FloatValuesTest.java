package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.GradientCheck;
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
      // float[] parameters, locals and results
      "  @Differentiable static float sumSq(float[] a, double k) {",
      "    float t = 0;",
      "    for (int i = 0; i < a.length; i++) { t += a[i] * a[i] * 1.1f; }",
      "    return (float) (t * k) + a[0];",
      "  }",
      "  @Differentiable static double locals(float[] a, double k) {",
      "    float[] b = new float[a.length];",
      "    for (int i = 0; i < a.length; i++) { b[i] = a[i] * (float) k; b[i] *= 1.3f; }",
      "    float[] c = {b[0], (float) Math.sin(k)};",
      "    float[] d = b.clone();",
      "    float[] e = java.util.Arrays.copyOf(a, 2);",
      "    double s = 0;",
      "    for (float v : d) { s += v * c[1]; }",
      "    return s + c[0] * e[1];",
      "  }",
      "  @Differentiable static float[] stretched(float[] a, double k) {",
      "    float[] r = new float[a.length + 1];",
      "    for (int i = 0; i < a.length; i++) { r[i] = (float) (a[i] * k); }",
      "    r[a.length] = a[0] * a[1];",
      "    return r;",
      "  }",
      // a float[] passed to and returned from @Differentiable callees
      "  @Differentiable static double composed(float[] a, double k) {",
      "    float[] r = stretched(a, k);",
      "    return sumSq(r, k) * k + locals(r, 0.5);",
      "  }",
      // a float[] made in a loop and passed to a callee: the tape keeps each iteration's
      "  @Differentiable static double inLoops(float[] a, double k) {",
      "    double s = 0;",
      "    for (int i = 1; i <= 3; i++) {",
      "      float[] b = new float[a.length];",
      "      for (int j = 0; j < a.length; j++) { b[j] = a[j] * i * 0.7f; }",
      "      s += sumSq(b, k);",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double squares(float[] a, double y) {",
      "    double s = 0;",
      "    for (float v : a) { s += v * v * 1.1f * y; }",
      "    return s;",
      "  }",
      "  @Differentiable static double data(@NoDerivative float[] w, double x) {",
      "    return w[0] * x + w[1];",
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

  /** The point of the float[] functions: floats, so that F and G start from the same numbers. */
  private static final float[] A = {0.75f, -1.25f, 0.5f};
  private static final double K = 0.375;

  /** The point {@code (A, K)} as the flat slots of the gradient. */
  private static double[] flatPoint() {
    return new double[] {A[0], A[1], A[2], K};
  }

  /** A flat point as the arguments of the double twin: {@code (double[] a, double k)}. */
  private static Object[] twinArguments(double[] x) {
    return new Object[] {new double[] {x[0], x[1], x[2]}, x[3]};
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("arrayFunctions")
  void floatArrayParametersAndLocals(String name) throws Exception {
    Object user = both().invoke("com.example.F", name, A.clone(), K);
    double value = ((Number) user).doubleValue();
    double[] gradient = (double[]) both().invoke(GRAD, name + "Gradient", A.clone(), K);
    assertThat(gradient).hasLength(4); // one slot per element of a, then k

    // the value bit for bit, from every member that returns it, in the method's own type
    double[] written = new double[4];
    Object returned = both().invoke(GRAD, name + "ValueAndGradient", A.clone(), K, written);
    assertThat(returned.getClass()).isEqualTo(user.getClass());
    assertThat(returned).isEqualTo(user);
    assertThat(written).usingExactEquality().containsExactly(gradient).inOrder();
    double[] adjoints = {0.5, -0.5, 1, 2};
    double seed = -1.75;
    assertThat(both().invoke(GRAD, name + "Pullback", A.clone(), K, seed, adjoints))
        .isEqualTo(user);
    double[] start = {0.5, -0.5, 1, 2};
    for (int i = 0; i < 4; i++) {
      assertThat(adjoints[i]).isWithin(1e-12 * Math.max(1, Math.abs(gradient[i])))
          .of(start[i] + seed * gradient[i]);
    }

    // the gradient against differences of the same function in double
    GradientCheck.check(x -> ((Number) invokeTwin(name, twinArguments(x))).doubleValue(),
        flatPoint(), gradient).assertWithin(FLOAT_TOLERANCE);
    assertWithMessage("%s computes the same in float and double", name).that(value)
        .isNotEqualTo(((Number) invokeTwin(name, twinArguments(flatPoint()))).doubleValue());

    // forward against reverse: the tangent along a direction is the gradient's dot product
    double[] aDot = {0.3, -0.7, 1.1};
    double kDot = -0.4;
    double dot = gradient[3] * kDot;
    for (int i = 0; i < 3; i++) {
      dot += gradient[i] * aDot[i];
    }
    double tangent = (double) both().invoke(GRAD, name + "Tangent", A.clone(), K, aDot, kDot);
    assertThat(tangent).isWithin(1e-12 * Math.max(1, Math.abs(dot))).of(dot);
  }

  static Stream<String> arrayFunctions() {
    return Stream.of("sumSq", "locals", "composed", "inLoops", "squares");
  }

  @Test
  void floatArrayResultIsAVectorFunction() throws Exception {
    float[] user = (float[]) both().invoke("com.example.F", "stretched", A.clone(), K);
    double[][] jacobian =
        (double[][]) both().invoke(GRAD, "stretchedJacobian", A.clone(), K);
    assertThat(jacobian.length).isEqualTo(4); // p = 4 rows over N = 4 slots
    for (int row = 0; row < 4; row++) {
      int r = row;
      assertThat(jacobian[row]).hasLength(4);
      GradientCheck.check(x -> ((double[]) invokeTwin("stretched", twinArguments(x)))[r],
          flatPoint(), jacobian[row]).assertWithin(FLOAT_TOLERANCE);
    }
    double[][] written = new double[4][4];
    assertThat((float[]) both().invoke(GRAD, "stretchedValueAndJacobian", A.clone(), K,
        written)).isEqualTo(user);
    assertThat(written).isEqualTo(jacobian);
    // J v in forward mode, seed^T J in reverse mode
    double[] aDot = {0.3, -0.7, 1.1};
    double kDot = -0.4;
    double[] v = {0.3, -0.7, 1.1, -0.4};
    double[] tangent =
        (double[]) both().invoke(GRAD, "stretchedTangent", A.clone(), K, aDot, kDot);
    double[] seed = {1.5, -0.5, 0.25, 2};
    double[] adjoints = new double[4];
    assertThat((float[]) both().invoke(GRAD, "stretchedPullback", A.clone(), K, seed,
        adjoints)).isEqualTo(user);
    for (int i = 0; i < 4; i++) {
      double jv = 0;
      double sj = 0;
      for (int j = 0; j < 4; j++) {
        jv += jacobian[i][j] * v[j];
        sj += seed[j] * jacobian[j][i];
      }
      assertThat(tangent[i]).isWithin(1e-12).of(jv);
      assertThat(adjoints[i]).isWithin(1e-12).of(sj);
    }
  }

  @Test
  void hessianOverAFloatArrayIsTheAnalyticOne() throws Exception {
    // squares(a, y) = c y sum a_i^2, c = 1.1f: H[i][i] = 2 c y, H[i][y] = 2 c a_i,
    // H[y][y] = 0; the products of float values in a loop come back from the tape with their
    // tangents
    double c = 1.1f;
    double[][] hessian = (double[][]) both().invoke(GRAD, "squaresHessian", A.clone(), K);
    for (int i = 0; i < 4; i++) {
      for (int j = 0; j < 4; j++) {
        double expected = i < 3 && j < 3 ? (i == j ? 2 * c * K : 0)
            : i == 3 && j == 3 ? 0 : 2 * c * A[Math.min(i, j)];
        assertWithMessage("H[%s][%s]", i, j).that(hessian[i][j]).isWithin(1e-12).of(expected);
      }
    }
  }

  @Test
  void noDerivativeFloatArrayIsData() throws Exception {
    float[] w = {1.5f, 0.25f};
    double[] gradient = (double[]) both().invoke(GRAD, "dataGradient", w, 2.0);
    assertThat(gradient).usingExactEquality().containsExactly(1.5);
    assertThat(floatGrad().getDeclaredMethod("dataTangent", float[].class, double.class,
        double.class).getReturnType()).isEqualTo(double.class);
  }

  private static Object invokeTwin(String name, Object[] arguments) {
    try {
      return both().invoke("com.example.G", name, arguments);
    } catch (Exception e) {
      throw new AssertionError(e);
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
    // float[]: the value's own type, a double[] tangent and seed
    Class<?> fs = float[].class;
    Class<?> ds = double[].class;
    assertThat(grad.getDeclaredMethod("sumSqValueAndGradient", fs, d, ds).getReturnType())
        .isEqualTo(f);
    assertThat(grad.getDeclaredMethod("sumSqTangent", fs, d, ds, d).getReturnType())
        .isEqualTo(d);
    assertThat(grad.getDeclaredMethod("stretchedJacobian", fs, d).getReturnType())
        .isEqualTo(double[][].class);
    assertThat(grad.getDeclaredMethod("stretchedValueAndJacobian", fs, d, double[][].class)
        .getReturnType()).isEqualTo(fs);
    assertThat(grad.getDeclaredMethod("stretchedTangent", fs, d, ds, d).getReturnType())
        .isEqualTo(ds);
    assertThat(grad.getDeclaredMethod("stretchedPullback", fs, d, ds, ds).getReturnType())
        .isEqualTo(fs);
    assertThat(grad.getDeclaredMethod("squaresHessianVector", fs, d, ds).getReturnType())
        .isEqualTo(ds);
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
