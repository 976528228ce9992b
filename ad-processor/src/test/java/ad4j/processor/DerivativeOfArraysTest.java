package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The array forms of {@code @DerivativeOf} for targets returning {@code double}: a rule for a
 * {@code double[]} parameter returns {@code double[]}, for a {@code double[][]} parameter
 * {@code double[][]}, each of the argument's shape. Targets take parameter arrays, rows of
 * matrix parameters (inside loops too), local arrays and constant arrays, with rules in the
 * target's class and in the caller's, used in both modes and through calls of other
 * {@code @Differentiable} methods. Every target's body uses constructs ad4j rejects (streams,
 * lambdas, {@code try}), so ad4j cannot have looked inside. Each function is checked against
 * finite differences of the user's own method, forward against reverse mode, its value bit for
 * bit, and the pullback.
 */
@ExtendWith(TapeIsEmpty.class)
class DerivativeOfArraysTest {
  /** Targets with their rules in their own class. */
  private static final String STATS = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import java.util.Arrays;",
      "import java.util.stream.IntStream;",
      "public final class Stats {",
      "  /** t log(sum of exp(a_i)), through a stream. */",
      "  public static double logSumExp(double[] a, double t) {",
      "    return t * Math.log(Arrays.stream(a).map(Math::exp).sum());",
      "  }",
      "  @DerivativeOf(value = \"logSumExp\", wrt = \"a\")",
      "  static double[] logSumExpA(double[] a, double t) {",
      "    double sum = Arrays.stream(a).map(Math::exp).sum();",
      "    return Arrays.stream(a).map(v -> t * Math.exp(v) / sum).toArray();",
      "  }",
      "  @DerivativeOf(value = \"logSumExp\", wrt = \"t\")",
      "  static double logSumExpT(double[] a, double t) {",
      "    return Math.log(Arrays.stream(a).map(Math::exp).sum());",
      "  }",
      "  /** c times the sum of (i + 1) m[i][j]^2, rows of any length, through streams. */",
      "  public static double weighted(double[][] m, double c) {",
      "    return c * IntStream.range(0, m.length)",
      "        .mapToDouble(i -> (i + 1) * Arrays.stream(m[i]).map(v -> v * v).sum()).sum();",
      "  }",
      "  @DerivativeOf(value = \"weighted\", wrt = \"m\")",
      "  static double[][] weightedM(double[][] m, double c) {",
      "    return IntStream.range(0, m.length).mapToObj(i -> Arrays.stream(m[i])",
      "        .map(v -> 2 * c * (i + 1) * v).toArray()).toArray(double[][]::new);",
      "  }",
      "  @DerivativeOf(value = \"weighted\", wrt = \"c\")",
      "  static double weightedC(double[][] m, double c) { return weighted(m, 1); }",
      "}");

  /** A target without rules of its own: the caller's class gives them. */
  private static final String LIBRARY = String.join("\n",
      "package com.example;",
      "public final class Library {",
      "  /** k times the sum of v_i^3, through a try. */",
      "  public static double cube(double[] v, int k) {",
      "    try {",
      "      double s = 0;",
      "      for (double e : v) { s += e * e * e; }",
      "      return k * s;",
      "    } catch (RuntimeException e) {",
      "      throw e;",
      "    }",
      "  }",
      "}");

  private static final String MODEL = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Model {",
      "  @DerivativeOf(owner = Library.class, value = \"cube\")",
      "  static double[] cubeV(double[] v, int k) {",
      "    double[] p = new double[v.length];",
      "    for (int i = 0; i < v.length; i++) { p[i] = 3 * k * v[i] * v[i]; }",
      "    return p;",
      "  }",
      "  @Differentiable static double straight(double[] a, double t) {",
      "    return Stats.logSumExp(a, t) * t + a[0] * Library.cube(a, 2);",
      "  }",
      "  @Differentiable static double matrix(double[][] m, double c, double[] v) {",
      "    return Stats.weighted(m, c * c) + Library.cube(m[1], 3) * v[0]",
      "        + Stats.logSumExp(v, c);",
      "  }",
      "  @Differentiable static double rows(double[][] x, double[] w, double t) {",
      "    double s = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      double[] row = x[i];",
      "      if (i % 2 == 0) {",
      "        s += Stats.logSumExp(row, t) * w[i];",
      "      } else {",
      "        s = s * 0.5 + Library.cube(x[i], i) * Stats.logSumExp(w, s);",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double local(double[] w, double c) {",
      "    double[] z = new double[w.length];",
      "    for (int i = 0; i < w.length; i++) { z[i] = w[i] * c; }",
      "    double[] y = w.clone();",
      "    return Stats.logSumExp(z, 1.5) + Library.cube(y, 1) * c;",
      "  }",
      "  static final double[] TABLE = {0.5, -0.25, 2};",
      "  @Differentiable static double constantArray(double x, @NoDerivative double[] data) {",
      "    return Stats.logSumExp(data, x) * x + Stats.logSumExp(TABLE, x * x);",
      "  }",
      "  @Differentiable static double constantRows(@NoDerivative double[][] data, double t) {",
      "    double s = 1;",
      "    for (int i = 0; i < data.length; i++) {",
      "      s = Stats.logSumExp(data[i], t * s) + Stats.weighted(data, s) * 0.01;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double localInLoop(double[] w, double c) {",
      "    double s = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      double[] z = new double[k + 1];",
      "      for (int i = 0; i < z.length; i++) { z[i] = w[i] * (c + k) + s * 0.1; }",
      "      s += Stats.logSumExp(z, 1.5) * c;",
      "      z[0] = s;",
      "      s += Library.cube(z, 2) * 0.01;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double helper(double x, double y) {",
      "    double[] v = new double[3];",
      "    v[0] = x;",
      "    v[1] = x * y;",
      "    v[2] = y;",
      "    return Stats.logSumExp(v, 0.5) * Library.cube(v, 2);",
      "  }",
      "  @Differentiable static double throughCalls(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 3; k++) { s += helper(x + k, y * s + 0.1); }",
      "    return s;",
      "  }",
      // the rule's array is made in each iteration and read by its reverse: no loop state
      "  @ad4j.Checkpointed(snapshots = 2)",
      "  @Differentiable static double checkpointed(double[] a, double t) {",
      "    double s = t;",
      "    for (int i = 0; i < 5; i++) { s = 0.5 * s + 0.3 * Stats.logSumExp(a, s); }",
      "    return s;",
      "  }",
      "}");

  /** A rule that returns fewer partials than its argument has elements. */
  private static final String SHORT = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class Short {",
      "  static double sum(double[] v) { return java.util.Arrays.stream(v).sum(); }",
      "  @DerivativeOf(\"sum\") static double[] sumV(double[] v) { return new double[] {1}; }",
      "  @Differentiable static double f(double[] v) { return sum(v); }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Stats", STATS, "com.example.Library", LIBRARY,
          "com.example.Model", MODEL, "com.example.Short", SHORT));

  private static ArrayFunctionChecks model() {
    return ArrayFunctionChecks.of(COMPILED.get(), "com.example.Model");
  }

  @Test
  void partialsWithRespectToArrayParametersGoIntoTheirSlotsInBothModes() throws Exception {
    model().check(new Call("straight", new Object[] {new double[] {0.3, -1.2, 0.8}, 0.7},
        true, true));
    model().check(new Call("straight", new Object[] {new double[] {1.1}, -0.4}, true, true));
  }

  @Test
  void aMatrixParameterGetsAPartialOfItsShapeAndARowGetsItsSlots() throws Exception {
    model().check(new Call("matrix", new Object[] {
        new double[][] {{0.2, -0.5}, {1.1, 0.3, -0.7}, {0.4}}, 0.9,
        new double[] {0.6, -0.2}}, true, true, true));
  }

  @Test
  void rowsTakenInsideLoopsAndBranchesAreReadAgainInTheReverseSweep() throws Exception {
    model().check(new Call("rows", new Object[] {
        new double[][] {{0.2, -0.5}, {1.1, 0.3, -0.7}, {0.4}, {-0.3, 0.9}},
        new double[] {0.6, -0.2, 1.3, 0.5}, 0.8}, true, true, true));
  }

  @Test
  void aCheckpointedLoopMayCallATargetWhoseRuleReturnsAnArray() throws Exception {
    model().check(new Call("checkpointed", new Object[] {new double[] {0.3, -1.2, 0.8}, 0.7},
        true, true));
  }

  @Test
  void localArraysPassTheirPartialsToTheirOwnAdjoints() throws Exception {
    model().check(new Call("local", new Object[] {new double[] {0.3, -1.2, 0.8}, 0.7},
        true, true));
  }

  @Test
  void localArraysMadeInALoopComeBackFromTheTapeAsTheRulesSawThem() throws Exception {
    model().check(new Call("localInLoop", new Object[] {new double[] {0.3, -1.2, 0.8}, 0.7},
        true, true));
  }

  @Test
  void anArrayThatCarriesNoDerivativeNeedsNoPartial() throws Exception {
    model().check(new Call("constantArray", new Object[] {0.7, new double[] {0.3, -1.2}},
        true, false));
  }

  @Test
  void rowsOfAMatrixThatCarriesNoDerivativeAreReadAgainInsideLoops() throws Exception {
    // the rule for t reads the row; the tape holds no arrays, so the row is read again
    model().check(new Call("constantRows", new Object[] {
        new double[][] {{0.2, -0.5}, {1.1, 0.3, -0.7}, {0.4}}, 0.6}, false, true));
  }

  @Test
  void rulesForArraysAreUsedThroughCallsOfDifferentiableMethods() throws Exception {
    model().check(new Call("helper", new Object[] {0.4, -0.9}, true, true));
    model().check(new Call("throughCalls", new Object[] {0.4, -0.9}, true, true));
  }

  @Test
  void aRuleReturningAnArrayOfAnotherLengthThrowsInBothModes() {
    Class<?> generated = COMPILED.get().load("com.example.ShortGrad");
    for (Object[] call : List.of(new Object[] {"fGradient", new double[] {1, 2}},
        new Object[] {"fTangent", new double[] {1, 2}, new double[] {0.5, 0.5}})) {
      InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
          () -> ArrayFunctionChecks.invoke(generated, (String) call[0],
              Arrays.copyOfRange(call, 1, call.length)));
      assertThat(thrown.getCause()).isInstanceOf(IllegalArgumentException.class);
      assertThat(thrown.getCause()).hasMessageThat().isEqualTo("a @DerivativeOf rule returned"
          + " 1 elements where 2 are needed: one partial derivative per element");
    }
  }

  @Test
  void theGeneratedCodeAddsTheRulesArraysIntoTheSlotsAndAllocatesNothing() throws Exception {
    // the only arrays are the rules' own, which the user's code allocates
    String generated = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    assertThat(generated).containsMatch(DerivativeOfVectorTargetsTest.ruleThenHelper(
        "double[]", "Stats.logSumExpA", "addScaled"));
    assertThat(generated).containsMatch(DerivativeOfVectorTargetsTest.ruleThenHelper(
        "double[][]", "Stats.weightedM", "addScaled"));
    assertThat(generated).containsMatch(DerivativeOfVectorTargetsTest.ruleThenHelper(
        "double[]", "Model.cubeV", "dot"));
    String straight = generated.substring(
        generated.indexOf("static double straightValueAndGradient"));
    straight = straight.substring(0, straight.indexOf("\n  }\n"));
    assertThat(straight).doesNotContain("new double");
  }
}
