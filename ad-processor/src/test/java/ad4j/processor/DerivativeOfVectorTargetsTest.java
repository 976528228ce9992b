package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @DerivativeOf} for vector targets, methods returning {@code double[]} (p elements): the
 * rule for a {@code double} parameter returns {@code double[]} (length p), for a
 * {@code double[]} parameter {@code double[][]} (p × length), in the target's class or the
 * caller's. The result is used as a local array: its elements read (in loops too), passed to
 * other targets, returned by a vector function, through calls of other {@code @Differentiable}
 * methods. The
 * targets' bodies use constructs ad4j rejects (streams, lambdas, {@code try}). Each function is
 * checked against finite differences of the user's own method, forward against reverse mode,
 * its value bit for bit and the pullback; the vector function's Jacobian against finite
 * differences.
 */
@ExtendWith(TapeIsEmpty.class)
class DerivativeOfVectorTargetsTest {
  /** Vector targets with their rules in their own class. */
  private static final String GEO = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import java.util.Arrays;",
      "import java.util.stream.IntStream;",
      "public final class Geo {",
      "  /** (r cos t, r sin t, r), through a try. */",
      "  public static double[] polar(double r, double t) {",
      "    try { return new double[] {r * Math.cos(t), r * Math.sin(t), r}; }",
      "    catch (RuntimeException e) { throw e; }",
      "  }",
      "  @DerivativeOf(value = \"polar\", wrt = \"r\")",
      "  static double[] polarR(double r, double t) {",
      "    return new double[] {Math.cos(t), Math.sin(t), 1};",
      "  }",
      "  @DerivativeOf(value = \"polar\", wrt = \"t\")",
      "  static double[] polarT(double r, double t) {",
      "    return new double[] {-r * Math.sin(t), r * Math.cos(t), 0};",
      "  }",
      "  /** c a_i exp(a_i) for each i, then the sum of a_j^2 at the end, through streams. */",
      "  public static double[] scaled(double[] a, double c) {",
      "    return IntStream.rangeClosed(0, a.length).mapToDouble(i -> i < a.length",
      "        ? c * a[i] * Math.exp(a[i]) : Arrays.stream(a).map(v -> v * v).sum()).toArray();",
      "  }",
      "  @DerivativeOf(value = \"scaled\", wrt = \"a\")",
      "  static double[][] scaledA(double[] a, double c) {",
      "    double[][] p = new double[a.length + 1][a.length];",
      "    for (int i = 0; i < a.length; i++) {",
      "      p[i][i] = c * (1 + a[i]) * Math.exp(a[i]);",
      "      p[a.length][i] = 2 * a[i];",
      "    }",
      "    return p;",
      "  }",
      "  @DerivativeOf(value = \"scaled\", wrt = \"c\")",
      "  static double[] scaledC(double[] a, double c) {",
      "    double[] p = new double[a.length + 1];",
      "    for (int i = 0; i < a.length; i++) { p[i] = a[i] * Math.exp(a[i]); }",
      "    return p;",
      "  }",
      "  /** The sum of squares, through a stream: a scalar target with an array parameter. */",
      "  public static double squares(double[] v) { return Arrays.stream(v).map(e -> e * e).sum(); }",
      "  @DerivativeOf(\"squares\")",
      "  static double[] squaresV(double[] v) {",
      "    return Arrays.stream(v).map(e -> 2 * e).toArray();",
      "  }",
      "}");

  /** A vector target without rules of its own: the caller's class gives them. */
  private static final String PAIRS = String.join("\n",
      "package com.example;",
      "public final class Pairs {",
      "  /** (x^2 y, sin(x) + y), through a list. */",
      "  public static double[] of(double x, double y) {",
      "    java.util.List<Double> parts = java.util.List.of(x * x * y, Math.sin(x) + y);",
      "    return new double[] {parts.get(0), parts.get(1)};",
      "  }",
      "}");

  private static final String MODEL = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class Model {",
      "  @DerivativeOf(owner = Pairs.class, value = \"of\", wrt = \"x\")",
      "  static double[] ofX(double x, double y) { return new double[] {2 * x * y, Math.cos(x)}; }",
      "  @DerivativeOf(owner = Pairs.class, value = \"of\", wrt = \"y\")",
      "  static double[] ofY(double x, double y) { return new double[] {x * x, 1}; }",
      "  @Differentiable static double helper(double a, double b) {",
      "    double[] p = Pairs.of(a, b);",
      "    return p[0] / (1 + p[1] * p[1]);",
      "  }",
      "  @Differentiable static double throughCalls(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 3; k++) { s += helper(x + 0.1 * k, y * s + 0.2); }",
      "    return s;",
      "  }",
      "  @Differentiable static double point(double x, double y) {",
      "    double[] p = Geo.polar(x * y, y);",
      "    return p[0] * p[1] + Math.sin(p[2]) + p[0];",
      "  }",
      "  @Differentiable static double chained(double[] a, double c) {",
      "    double[] s = Geo.scaled(a, c);",
      "    double t = 0;",
      "    for (int i = 0; i < s.length; i++) { t += s[i] * (i + 1); }",
      "    return t * Geo.squares(s) + c;",
      "  }",
      "  @Differentiable static double branch(double x, double[] w) {",
      "    double s = w[0];",
      "    if (x > 0) {",
      "      double[] p = Geo.polar(x, w[1]);",
      "      double[] q = Geo.scaled(p, x);",
      "      s += q[3] - q[0];",
      "    }",
      "    return s * x;",
      "  }",
      "  @Differentiable static double inLoops(double[] a, double c) {",
      "    double t = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      double[] s = Geo.scaled(a, c + 0.1 * t);",
      "      double[] p = Geo.polar(s[k] + t * 0.01, c * k);",
      "      for (int i = 0; i < s.length; i++) { t += s[i] * (i + 1) * p[i % 3]; }",
      "      t = t * 0.5 + Geo.scaled(a, t)[a.length];",
      "    }",
      "    return t;",
      "  }",
      "  @Differentiable static double passedOn(double[] a, double c) {",
      "    double t = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      double[] s = Geo.scaled(a, c + 0.1 * t);",
      "      t += Geo.squares(s) * 0.1 + Geo.scaled(s, c)[k] + sum(s) * c;",
      "      s[k] = t * c;",
      "      t = t * 0.5 + Geo.squares(s) * 0.01;",
      "    }",
      "    return t;",
      "  }",
      "  @Differentiable static double sum(double[] v) {",
      "    double s = 0;",
      "    for (double e : v) { s += e * e * e; }",
      "    return s;",
      "  }",
      "  @Differentiable static double[] vector(double[] a, double c) {",
      "    return Geo.scaled(a, c * c);",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Geo", GEO, "com.example.Pairs", PAIRS, "com.example.Model", MODEL));

  private static ArrayFunctionChecks model() {
    return ArrayFunctionChecks.of(COMPILED.get(), "com.example.Model");
  }

  @Test
  void theElementsOfAVectorTargetsResultCarryThePartialsOfTheRules() throws Exception {
    model().check(new Call("point", new Object[] {0.7, 1.3}, true, true));
    model().check(new Call("point", new Object[] {-1.1, 0.4}, true, true));
  }

  @Test
  void aRuleForAnArrayParameterGivesAMatrixAndTheResultIsPassedOn() throws Exception {
    model().check(new Call("chained", new Object[] {new double[] {0.3, -0.5, 0.8}, 0.6},
        true, true));
  }

  @Test
  void vectorTargetsInABranchWithAResultPassedToAnother() throws Exception {
    model().check(new Call("branch", new Object[] {0.8, new double[] {0.4, 1.2}}, true, true));
    model().check(new Call("branch", new Object[] {-0.8, new double[] {0.4, 1.2}},
        true, true));
  }

  @Test
  void rulesInTheCallersClassAreUsedThroughCallsOfDifferentiableMethodsInLoops()
      throws Exception {
    model().check(new Call("helper", new Object[] {0.6, -0.4}, true, true));
    model().check(new Call("throughCalls", new Object[] {0.6, -0.4}, true, true));
    model().check(new Call("throughCalls", new Object[] {-0.3, 0.9}, true, true));
  }

  @Test
  void resultsMadeInsideLoopsPassedToTargetsAndMethodsAndThenWrittenComeBackFromTheTape()
      throws Exception {
    model().check(new Call("passedOn", new Object[] {new double[] {0.3, -0.5, 0.8}, 0.6},
        true, true));
    model().check(new Call("passedOn", new Object[] {new double[] {-0.2, 0.4}, -0.3},
        true, true));
  }

  @Test
  void vectorTargetsCalledInsideLoopsGetANewResultInEachIteration() throws Exception {
    model().check(new Call("inLoops", new Object[] {new double[] {0.3, -0.5, 0.8}, 0.6},
        true, true));
    model().check(new Call("inLoops", new Object[] {new double[] {-0.2, 0.4}, -0.3},
        true, true));
    String code = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    // each iteration's partials are computed at its call and recorded for the reverse sweep
    assertThat(code).containsMatch(
        "double\\[\\]\\[\\] (\\w+) = Geo\\.scaledA\\([^;]*\\);[\\s\\S]*tape\\.pushArray\\(\\1\\)");
    assertThat(code).containsMatch(
        "double\\[\\] (\\w+) = Geo\\.polarR\\([^;]*\\);[\\s\\S]*tape\\.pushArray\\(\\1\\)");
    assertThat(code).contains("Slots.addTransposedWithin(");
    assertThat(code).contains("Slots.dotWithin(");
  }

  @Test
  void aVectorFunctionReturningTheResultHasTheJacobianOfTheRules() throws Exception {
    Class<?> generated = COMPILED.get().load("com.example.ModelGrad");
    double[] a = {0.3, -0.5, 0.8};
    double c = 0.6;
    double[][] jacobian = (double[][]) ArrayFunctionChecks.invoke(generated, "vectorJacobian",
        a, c);
    assertThat(jacobian.length).isEqualTo(4);
    for (int k = 0; k < 4; k++) {
      for (int j = 0; j < 3; j++) {
        double expected = k == j ? c * c * (1 + a[j]) * Math.exp(a[j]) : k == 3 ? 2 * a[j] : 0;
        assertWithMessage("J[%s][%s]", k, j).that(jacobian[k][j])
            .isWithin(1e-12 * Math.max(1, Math.abs(expected))).of(expected);
      }
      double expectedC = k < 3 ? 2 * c * a[k] * Math.exp(a[k]) : 0;
      assertWithMessage("J[%s][c]", k).that(jacobian[k][3])
          .isWithin(1e-12 * Math.max(1, Math.abs(expectedC))).of(expectedC);
    }
  }

  @Test
  void theGeneratedCodeCallsTheRulesOfTheVectorTargets() throws Exception {
    String code = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    // the rules are called where their targets are, and their arrays used from there
    assertThat(code).containsMatch(ruleThenHelper("double[][]", "Geo.scaledA", "addTransposed"));
    assertThat(code).containsMatch(ruleThenHelper("double[]", "Geo.polarR", "dot"));
    assertThat(code).containsMatch(ruleThenHelper("double[][]", "Geo.scaledA", "addProduct"));
    assertThat(code).containsMatch(ruleThenHelper("double[]", "Geo.polarT", "addScaled"));
  }

  /**
   * A pattern of generated code that calls {@code rule}, a rule returning {@code type}, into a
   * local and later passes that local first to the runtime helper {@code Slots.helper}.
   */
  static String ruleThenHelper(String type, String rule, String helper) {
    return Pattern.quote(type) + " (\\w+) = " + Pattern.quote(rule)
        + "\\([^;]*\\);[\\s\\S]*Slots\\." + helper + "\\(\\1, ";
  }
}
