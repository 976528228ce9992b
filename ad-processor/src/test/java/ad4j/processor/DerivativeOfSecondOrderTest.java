package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @DerivativeOf} rules used by {@code @Differentiable(order = 2)} methods: each rule is
 * itself {@code @Differentiable}, and the derivative of the partial it gives is its own
 * generated tangent. Hessians through ruled calls, in straight-line code, loops and branches
 * and through calls of other order-2 methods, against analytic second derivatives and
 * fourth-order central differences of the generated gradient; exact symmetry; the
 * Hessian-vector product against the Hessian times the vector; the first-order members against
 * finite differences of the user's method. The targets' bodies use constructs ad4j rejects.
 */
@ExtendWith(TapeIsEmpty.class)
class DerivativeOfSecondOrderTest {
  /** Targets with @Differentiable rules in their own class. */
  private static final String CURVES = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "public final class Curves {",
      "  private static final Object LOCK = new Object();",
      "  /** log(1 + e^x), under a lock. */",
      "  public static double softplus(double x) {",
      "    synchronized (LOCK) { return Math.log1p(Math.exp(x)); }",
      "  }",
      "  @Differentiable @DerivativeOf(\"softplus\")",
      "  static double logistic(double x) { return 1 / (1 + Math.exp(-x)); }",
      "  /** n x^2 y + sin(y), through a try. */",
      "  public static double g(double x, int n, double y) {",
      "    try { return n * x * x * y + Math.sin(y); } catch (RuntimeException e) { throw e; }",
      "  }",
      "  @Differentiable @DerivativeOf(value = \"g\", wrt = \"x\")",
      "  static double gX(double x, int n, double y) { return 2 * n * x * y; }",
      "  @Differentiable(order = 2) @DerivativeOf(value = \"g\", wrt = \"y\")",
      "  static double gY(double x, int n, double y) { return n * x * x + Math.cos(y); }",
      "  /** t log(sum of exp(a_i)), through a stream: a target with an array parameter. */",
      "  public static double lse(double[] a, double t) {",
      "    return t * Math.log(java.util.Arrays.stream(a).map(Math::exp).sum());",
      "  }",
      "  @Differentiable @DerivativeOf(value = \"lse\", wrt = \"a\")",
      "  static double[] lseA(double[] a, double t) {",
      "    double sum = 0;",
      "    for (double v : a) { sum += Math.exp(v); }",
      "    double[] p = new double[a.length];",
      "    for (int i = 0; i < a.length; i++) { p[i] = t * Math.exp(a[i]) / sum; }",
      "    return p;",
      "  }",
      "  /** k sin(x) e^x, through a lambda. */",
      "  public static final class Scale {",
      "    private final double k;",
      "    public Scale(double k) { this.k = k; }",
      "    public double apply(double x) {",
      "      java.util.function.DoubleUnaryOperator f = v -> k * Math.sin(v) * Math.exp(v);",
      "      return f.applyAsDouble(x);",
      "    }",
      "    public double k() { return k; }",
      "  }",
      "  /** (y sin(x), x^2 y^2), through a stream: a vector target. */",
      "  public static double[] pair(double x, double y) {",
      "    return java.util.stream.DoubleStream.of(Math.sin(x) * y, x * x * y * y).toArray();",
      "  }",
      "  @Differentiable @DerivativeOf(value = \"pair\", wrt = \"x\")",
      "  static double[] pairX(double x, double y) {",
      "    return new double[] {Math.cos(x) * y, 2 * x * y * y};",
      "  }",
      "  @Differentiable @DerivativeOf(value = \"pair\", wrt = \"y\")",
      "  static double[] pairY(double x, double y) {",
      "    return new double[] {Math.sin(x), 2 * x * x * y};",
      "  }",
      "  @Differentiable @DerivativeOf(value = \"lse\", wrt = \"t\")",
      "  static double lseT(double[] a, double t) {",
      "    double sum = 0;",
      "    for (double v : a) { sum += Math.exp(v); }",
      "    return Math.log(sum);",
      "  }",
      "}");

  private static final String MODEL = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class Model {",
      "  /** exp(a) b, through a StringBuilder; its rules are in this, the caller's, class. */",
      "  static double scaledExp(double a, double b) {",
      "    return new StringBuilder().append(b).length() > 0 ? Math.exp(a) * b : 0;",
      "  }",
      "  @Differentiable @DerivativeOf(value = \"scaledExp\", wrt = \"a\")",
      "  static double scaledExpA(double a, double b) { return Math.exp(a) * b; }",
      "  @Differentiable @DerivativeOf(value = \"scaledExp\", wrt = \"b\")",
      "  static double scaledExpB(double a, double b) { return Math.exp(a); }",
      "  @Differentiable(order = 2) static double simple(double x, double y) {",
      "    return Curves.softplus(x) * y + Curves.g(x, 2, y);",
      "  }",
      "  @Differentiable(order = 2) static double straight(double x, double y, double z) {",
      "    double s = Curves.softplus(x * y - z);",
      "    return s * scaledExp(z, x) + Curves.g(s, 3, y * z);",
      "  }",
      "  @Differentiable(order = 2) static double loop(double x, double y, int n) {",
      "    double s = x;",
      "    for (int i = 0; i < n; i++) {",
      "      if (i % 2 == 0) {",
      "        s = Curves.softplus(s * y) - 0.3 * scaledExp(0.2 * s, y);",
      "      } else {",
      "        s = 0.5 * Curves.g(s, i, y - s);",
      "      }",
      "    }",
      "    return s * x;",
      "  }",
      "  @Differentiable(order = 2) static double inner(double a, double b) {",
      "    return Curves.g(a, 1, b) * scaledExp(b, a);",
      "  }",
      "  @Differentiable(order = 2) static double outer(double x, double y) {",
      "    double t = 0;",
      "    for (int k = 1; k <= 2; k++) { t += inner(x * k, y - t); }",
      "    return t + Curves.softplus(t * x);",
      "  }",
      // a target with an array parameter: its rule for the array is a vector function
      "  @Differentiable(order = 2) static double arrays(double x, double y, double z) {",
      "    double[] w = {x, y * x, z};",
      "    double s = Curves.lse(w, x * z);",
      "    for (int k = 0; k < 2; k++) {",
      "      double[] u = new double[k + 2];",
      "      for (int i = 0; i < u.length; i++) { u[i] = w[i] * (s + k); }",
      "      s = s * 0.5 + Curves.lse(u, y) * 0.3;",
      "    }",
      "    return s;",
      "  }",
      // an instance target called on a parameter and on a local object: its rules take the
      // object first and are @Differentiable with it as an inactive parameter
      "  @Differentiable @DerivativeOf(owner = Curves.Scale.class, value = \"apply\")",
      "  static double applyX(Curves.Scale s, double x) {",
      "    return s.k() * (Math.cos(x) + Math.sin(x)) * Math.exp(x);",
      "  }",
      "  @Differentiable(order = 2) static double onObjects(double x, double y,",
      "      Curves.Scale scale) {",
      "    Curves.Scale local = new Curves.Scale(0.5);",
      "    return scale.apply(x * y) * x + local.apply(y) * scale.apply(y * y);",
      "  }",
      // a vector target: the rules for its double parameters are vector functions
      "  @Differentiable(order = 2) static double vectorTarget(double x, double y) {",
      "    double[] p = Curves.pair(x * y, y);",
      "    return p[0] * p[1] + p[0] * x;",
      "  }",
      "  @Differentiable(order = 2) static double vectorTargetInLoop(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 1; k <= 3; k++) {",
      "      double[] p = Curves.pair(x * k, y + s * 0.1);",
      "      s += p[0] * p[1] - p[1] * 0.5;",
      "    }",
      "    return s;",
      "  }",
      // the same target called on a static final field: its object goes first to the rules
      "  static final Curves.Scale SCALE = new Curves.Scale(0.8);",
      "  @Differentiable(order = 2) static double onField(double x, double y) {",
      "    return SCALE.apply(x * y) + x * SCALE.apply(y);",
      "  }",
      "  @Differentiable(order = 2) static double parameter(double[] w, double c) {",
      "    return Curves.lse(w, c) * c + Curves.lse(w, 1.5) * w[0];",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Curves", CURVES, "com.example.Model", MODEL));

  private static Object generated(String name, Object... arguments) throws Exception {
    return ArrayFunctionChecks.invoke(COMPILED.get().load("com.example.ModelGrad"), name,
        arguments);
  }

  @Test
  void theHessianThroughRuledCallsIsTheAnalyticOne() throws Exception {
    for (double[] point : new double[][] {{0.3, 1.2}, {-1.1, 0.4}, {2.0, -0.7}}) {
      double x = point[0];
      double y = point[1];
      double sigma = 1 / (1 + Math.exp(-x));
      double[][] expected = {
          {sigma * (1 - sigma) * y + 4 * y, sigma + 4 * x},
          {sigma + 4 * x, -Math.sin(y)}};
      assertHessian("simple", x, y, expected);
    }
  }

  @Test
  void straightLineCodeLoopsAndCallsMatchDifferencesOfTheGeneratedGradient() throws Exception {
    checkAt("simple", 0.3, 1.2);
    checkAt("straight", 0.3, -0.8, 0.5);
    checkAt("straight", -1.2, 0.6, 1.1);
    checkAt("loop", 0.4, 0.9, 5);
    checkAt("loop", -0.6, 0.7, 4);
    checkAt("inner", 0.5, -0.3);
    checkAt("outer", 0.35, 0.6);
    checkAt("outer", -0.2, 0.45);
    checkAt("arrays", 0.3, -0.4, 0.7);
    checkAt("arrays", -0.5, 0.8, 0.2);
  }

  @Test
  void instanceTargetsOnAParameterAndALocalObjectUseTheirRulesTangents() throws Exception {
    Object scale = COMPILED.get().load("com.example.Curves$Scale")
        .getConstructor(double.class).newInstance(1.3);
    double x = 0.4;
    double y = -0.7;
    double[][] hessian = (double[][]) generated("onObjectsHessian", x, y, scale);
    double h = 1e-4;
    double[] steps = {-2 * h, -h, h, 2 * h};
    for (int j = 0; j < 2; j++) {
      double[][] g = new double[4][];
      for (int s = 0; s < 4; s++) {
        g[s] = (double[]) generated("onObjectsGradient", x + (j == 0 ? steps[s] : 0),
            y + (j == 1 ? steps[s] : 0), scale);
      }
      for (int i = 0; i < 2; i++) {
        double reference = (g[0][i] - 8 * g[1][i] + 8 * g[2][i] - g[3][i]) / (12 * h);
        assertWithMessage("H[%s][%s]", i, j).that(hessian[i][j])
            .isWithin(1e-6 * Math.max(1, Math.abs(reference))).of(reference);
        assertThat(hessian[i][j]).isEqualTo(hessian[j][i]);
      }
    }
    double[] v = {0.6, -1.1};
    double[] product = (double[]) generated("onObjectsHessianVector", x, y, scale, v);
    for (int i = 0; i < 2; i++) {
      double expected = hessian[i][0] * v[0] + hessian[i][1] * v[1];
      assertThat(product[i]).isWithin(1e-12 * Math.max(1, Math.abs(expected))).of(expected);
    }
    String code = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    assertThat(code).contains("ModelGrad.applyXTangent(");
  }

  /**
   * A target returning an array: the reverse sweep's {@code Slots.dot(rule, rBar)} is
   * differentiated with the rule's tangent member. f = p0 p1 + p0 x with p = pair(xy, y) is
   * (x^2 y^5 + x y) sin(xy).
   */
  @Test
  void aVectorTargetsHessianUsesItsRulesTangents() throws Exception {
    for (double[] point : new double[][] {{0.7, -0.4}, {-0.3, 1.1}}) {
      double x = point[0];
      double y = point[1];
      double a = x * x * Math.pow(y, 5) + x * y;
      double ax = 2 * x * Math.pow(y, 5) + y;
      double ay = 5 * x * x * Math.pow(y, 4) + x;
      double axx = 2 * Math.pow(y, 5);
      double axy = 10 * x * Math.pow(y, 4) + 1;
      double ayy = 20 * x * x * Math.pow(y, 3);
      double sin = Math.sin(x * y);
      double cos = Math.cos(x * y);
      double[][] expected = {
          {axx * sin + 2 * ax * y * cos - a * y * y * sin,
              axy * sin + ax * x * cos + ay * y * cos + a * (cos - x * y * sin)},
          {axy * sin + ax * x * cos + ay * y * cos + a * (cos - x * y * sin),
              ayy * sin + 2 * ay * x * cos - a * x * x * sin}};
      assertHessian("vectorTarget", x, y, expected);
      checkAt("vectorTarget", x, y);
    }
    checkAt("vectorTargetInLoop", 0.4, 0.9);
    checkAt("vectorTargetInLoop", -0.6, 0.3);
    String code = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    assertThat(code).contains("CurvesGrad.pairXTangent(");
  }

  @Test
  void anInstanceTargetOnAStaticFieldUsesItsRulesTangents() throws Exception {
    for (double[] point : new double[][] {{0.4, -0.7}, {-1.1, 0.3}}) {
      double x = point[0];
      double y = point[1];
      // s(v) = 0.8 sin(v) e^v, s'(v) = 0.8 (cos v + sin v) e^v, s''(v) = 1.6 cos(v) e^v
      double ds = 0.8 * (Math.cos(x * y) + Math.sin(x * y)) * Math.exp(x * y);
      double ddsXy = 1.6 * Math.cos(x * y) * Math.exp(x * y);
      double dsY = 0.8 * (Math.cos(y) + Math.sin(y)) * Math.exp(y);
      double ddsY = 1.6 * Math.cos(y) * Math.exp(y);
      double[][] expected = {
          {y * y * ddsXy, ds + x * y * ddsXy + dsY},
          {ds + x * y * ddsXy + dsY, x * x * ddsXy + x * ddsY}};
      assertHessian("onField", x, y, expected);
      checkAt("onField", x, y);
    }
    String code = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    assertThat(code).contains("ModelGrad.applyXTangent(Model.SCALE, ");
  }

  @Test
  void anArrayParametersHessianThroughARuleForTheArrayMatchesDifferencesOfTheGradient()
      throws Exception {
    double[] w = {0.3, -0.6, 0.9};
    double c = 0.7;
    double[][] hessian = (double[][]) generated("parameterHessian", w, c);
    assertThat(hessian.length).isEqualTo(4);
    for (int j = 0; j < 4; j++) {
      double h = 1e-4;
      double[][] g = new double[4][];
      double[] steps = {-2 * h, -h, h, 2 * h};
      for (int s = 0; s < 4; s++) {
        double[] moved = w.clone();
        double movedC = c;
        if (j < 3) {
          moved[j] += steps[s];
        } else {
          movedC += steps[s];
        }
        g[s] = (double[]) generated("parameterGradient", moved, movedC);
      }
      for (int i = 0; i < 4; i++) {
        double reference = (g[0][i] - 8 * g[1][i] + 8 * g[2][i] - g[3][i]) / (12 * h);
        assertWithMessage("H[%s][%s]", i, j).that(hessian[i][j])
            .isWithin(1e-6 * Math.max(1, Math.abs(reference))).of(reference);
        assertThat(hessian[i][j]).isEqualTo(hessian[j][i]);
      }
    }
    String code = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    assertThat(code).contains("CurvesGrad.lseATangent(");
  }

  @Test
  void theFirstOrderMembersOfOrderTwoMethodsUseTheRulesToo() {
    DerivativeChecks.checkAt(
        COMPILED.get().function("com.example.Model", "straight", 3), 0.3, -0.8, 0.5);
    DerivativeChecks.checkAt(
        COMPILED.get().function("com.example.Model", "outer", 2), 0.35, 0.6);
  }

  @Test
  void theSecondOrderCodeCallsTheRulesOwnTangents() throws Exception {
    String code = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    assertThat(code).contains("CurvesGrad.logisticTangent(");
    assertThat(code).contains("CurvesGrad.gXTangent(");
    assertThat(code).contains("CurvesGrad.gYTangent(");
    assertThat(code).contains("ModelGrad.scaledExpATangent(");
  }

  /** The generated Hessian of {@code name} at (x, y) against the analytic {@code expected}. */
  private static void assertHessian(String name, double x, double y, double[][] expected)
      throws Exception {
    double[][] hessian = (double[][]) generated(name + "Hessian", x, y);
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) {
        assertWithMessage("H[%s][%s] of %s at (%s, %s)", i, j, name, x, y).that(hessian[i][j])
            .isWithin(1e-12 * Math.max(1, Math.abs(expected[i][j]))).of(expected[i][j]);
      }
    }
  }

  /**
   * At {@code point} (the last argument an {@code int} for {@code loop}): the Hessian against
   * central differences of the generated gradient, exactly symmetric, and H·v against the
   * Hessian times v.
   */
  private static void checkAt(String name, Object... point) throws Exception {
    int n = point[point.length - 1] instanceof Integer ? point.length - 1 : point.length;
    double[][] hessian = (double[][]) generated(name + "Hessian", point);
    assertThat(hessian.length).isEqualTo(n);
    for (int j = 0; j < n; j++) {
      double h = 1e-4 * Math.max(1, Math.abs((double) point[j]));
      double[][] g = new double[4][];
      double[] steps = {-2 * h, -h, h, 2 * h};
      for (int s = 0; s < 4; s++) {
        Object[] moved = point.clone();
        moved[j] = (double) point[j] + steps[s];
        g[s] = (double[]) generated(name + "Gradient", moved);
      }
      for (int i = 0; i < n; i++) {
        double reference = (g[0][i] - 8 * g[1][i] + 8 * g[2][i] - g[3][i]) / (12 * h);
        assertWithMessage("H[%s][%s] of %s", i, j, name).that(hessian[i][j])
            .isWithin(1e-6 * Math.max(1, Math.abs(reference))).of(reference);
        assertWithMessage("symmetry [%s][%s] of %s", i, j, name).that(hessian[i][j])
            .isEqualTo(hessian[j][i]);
      }
    }
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = 0.7 - 0.45 * i;
    }
    Object[] withV = java.util.Arrays.copyOf(point, point.length + 1);
    withV[point.length] = v;
    double[] product = (double[]) generated(name + "HessianVector", withV);
    for (int i = 0; i < n; i++) {
      double expected = 0;
      double magnitude = 0;
      for (int j = 0; j < n; j++) {
        expected += hessian[i][j] * v[j];
        magnitude += Math.abs(hessian[i][j] * v[j]);
      }
      assertWithMessage("(H v)[%s] of %s", i, name).that(product[i])
          .isWithin(1e-12 * Math.max(1, magnitude)).of(expected);
    }
  }
}
