package ad4j.processor;

import static ad4j.processor.testing.ArrayArguments.append;
import static ad4j.processor.testing.ArrayFunctionChecks.invoke;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.FlatHessianChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code mHessian} by sweeps that carry several directions at once (lanes): the Hessian against
 * differences of the generated gradient and second differences of the user's method, exactly
 * symmetric, with {@code mHessianVector} and {@code mValueGradientAndHessian}
 * ({@link FlatHessianChecks}); each column against the per-column sweep of
 * {@code mHessianVector} along the unit direction; numbers of slots below the lanes, equal to
 * them, and neither a multiple nor below (the last block's other lanes repeat columns of the
 * block before), one slot; loops over arrays, branches, scalar, array and matrix parameters, a
 * lane's slot before in another parameter or in the same array or row. A method whose sweep
 * lanes do not cover (it calls another {@code @Differentiable} method) keeps one sweep per
 * slot.
 */
@ExtendWith(TapeIsEmpty.class)
class VectorHessianTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class H {",
      "  /** The extended Rosenbrock function: a loop over an array. */",
      "  @Differentiable(order = 2) static double rosenbrock(double[] x) {",
      "    double sum = 0;",
      "    for (int i = 0; i + 1 < x.length; i++) {",
      "      double a = 1 - x[i];",
      "      double b = x[i + 1] - x[i] * x[i];",
      "      sum += 100 * b * b + a * a;",
      "    }",
      "    return sum;",
      "  }",
      "  /** Branches on values inside a loop, math calls, a scalar beside the array. */",
      "  @Differentiable(order = 2) static double branches(double[] x, double s) {",
      "    double acc = s * s;",
      "    for (int i = 0; i < x.length; i++) {",
      "      double u = x[i] * s;",
      "      if (u > 0.2) {",
      "        acc += Math.exp(u) * x[(i + 1) % x.length];",
      "      } else {",
      "        acc -= Math.sin(u * x[i]) / (1 + s * s);",
      "      }",
      "      acc = acc * 0.9 + Math.sqrt(1 + u * u);",
      "    }",
      "    return acc;",
      "  }",
      "  /** Scalars only, straight-line: three slots, fewer than the lanes. */",
      "  @Differentiable(order = 2) static double scalars(double a, double b, double c) {",
      "    double p = a * b + Math.log(1 + c * c);",
      "    return p * Math.cos(a - c) + b * b * b / (2 + a * a);",
      "  }",
      "  /** One slot. */",
      "  @Differentiable(order = 2) static double one(double a) {",
      "    return Math.exp(a) * Math.sin(3 * a) + a * a * a * a;",
      "  }",
      "  /** A matrix whose rows differ in length, an inactive parameter. */",
      "  @Differentiable(order = 2) static double rows(double[][] m, @NoDerivative double w) {",
      "    double s = 0;",
      "    for (int r = 0; r < m.length; r++) {",
      "      for (int c = 0; c < m[r].length; c++) {",
      "        s += w * m[r][c] * m[r][c] * m[0][0] + Math.tanh(m[r][c] * (r + 1));",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "  /**",
      "   * A scalar, an array and a matrix: a lane's slot before lies in another parameter, or",
      "   * in the same array or row.",
      "   */",
      "  @Differentiable(order = 2) static double mixed(double a, double[] x, double[][] m) {",
      "    double s = a * a * x[0];",
      "    for (int i = 0; i < x.length; i++) {",
      "      s += Math.sin(a * x[i]) * x[(i + 1) % x.length];",
      "    }",
      "    for (int r = 0; r < m.length; r++) {",
      "      for (int c = 0; c < m[r].length; c++) {",
      "        s += m[r][c] * m[r][(c + 1) % m[r].length] * x[c % x.length] + a * m[r][c];",
      "      }",
      "    }",
      "    return s * Math.exp(0.1 * a);",
      "  }",
      "  /** Calls another order-2 method: one sweep per slot. */",
      "  @Differentiable(order = 2) static double caller(double[] x) {",
      "    return one(x[0] * x[1]) + rosenbrock(x);",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.H", SOURCE));

  /** The same, every block cut into parts of 8 statements: the sweeps call the parts. */
  private static final CompiledOnce IN_PARTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=8"),
          "com.example.H", SOURCE));

  static Stream<Call> calls() {
    return Stream.of(
        new Call("rosenbrock", new Object[] {point(2, 1)}, true),
        new Call("rosenbrock", new Object[] {point(3, 2)}, true),
        new Call("rosenbrock", new Object[] {point(4, 3)}, true),
        new Call("rosenbrock", new Object[] {point(5, 4)}, true),
        new Call("rosenbrock", new Object[] {point(8, 5)}, true),
        new Call("rosenbrock", new Object[] {point(11, 6)}, true),
        new Call("branches", new Object[] {new double[] {0.3, -0.4, 0.9, 0.1, 0.7}, 0.8},
            true, true),
        new Call("branches", new Object[] {new double[] {-0.6, 0.5}, -1.1}, true, true),
        new Call("scalars", new Object[] {0.7, -0.4, 1.3}, true, true, true),
        new Call("rows", new Object[] {new double[][] {{0.3, -0.5, 0.2}, {0.8}, {0.1, 0.4}},
            1.5}, true, false),
        // 1 + 9 + 8 = 18 slots: the last block repeats two columns of the block before
        new Call("mixed", new Object[] {0.6, point(9, 8),
            new double[][] {point(6, 9), point(2, 10)}}, true, true, true),
        // 1 + 1 + 1 slots, fewer than the lanes
        new Call("mixed", new Object[] {-0.4, point(1, 11), new double[][] {point(1, 12)}},
            true, true, true),
        new Call("caller", new Object[] {point(5, 7)}, true));
  }

  private static double[] point(int n, long seed) {
    Random random = new Random(seed);
    return random.doubles(n, 0.3, 1.6).toArray();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansByLanesAreExact(Call call) throws Exception {
    FlatHessianChecks.of(COMPILED.get(), "com.example.H").check(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansByLanesAreExactWithTheSweepsCutIntoParts(Call call) throws Exception {
    FlatHessianChecks.of(IN_PARTS.get(), "com.example.H").check(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void eachColumnIsThePerColumnSweepsProduct(Call call) throws Exception {
    // the per-column result as mHessian made it before lanes: the mean of the pair
    FlatHessianChecks.of(COMPILED.get(), "com.example.H").checkColumnsOfHessianVector(call);
  }

  @Test
  void oneSlotAgainstSecondDifferencesOfTheMethod() throws Exception {
    Class<?> user = COMPILED.get().load("com.example.H");
    Class<?> generated = COMPILED.get().load("com.example.HGrad");
    for (double a : new double[] {-0.7, 0.2, 1.3}) {
      double[][] hessian = (double[][]) invoke(generated, "oneHessian", a);
      assertThat(hessian.length).isEqualTo(1);
      assertThat(hessian[0].length).isEqualTo(1);
      double h = 1e-3;
      double[] weights = {-1, 16, -30, 16, -1};
      double second = 0;
      for (int s = -2; s <= 2; s++) {
        second += weights[s + 2] * (double) invoke(user, "one", a + s * h);
      }
      second /= 12 * h * h;
      assertWithMessage("H of one at %s", a).that(hessian[0][0])
          .isWithin(1e-6 * Math.max(1, Math.abs(second))).of(second);
      double[] product = (double[]) invoke(generated, "oneHessianVector", a,
          new double[] {1});
      assertWithMessage("H of one at %s against the per-column sweep", a)
          .that(hessian[0][0]).isEqualTo(product[0]);
      double[] gradient = new double[1];
      double[][] written = {{42}};
      invoke(generated, "oneValueGradientAndHessian", a, gradient, written);
      assertThat(written[0][0]).isEqualTo(hessian[0][0]);
    }
  }

  /**
   * 30 {@code double} parameters: their lanes' directions are given by the lanes' slots, so
   * that a sweep with 4 lanes takes 60 + 4 * (1 + 1) parameter slots and the method gets lanes
   * (with a direction per lane and parameter it took 60 + 1 + 4 * 61, past the JVM's 255).
   */
  @Test
  void thirtyScalarsGetLanesGivenBySlot() throws Exception {
    int n = 30;
    StringBuilder source = new StringBuilder(
        "package com.example;\nimport ad4j.Differentiable;\nfinal class Many {\n"
            + "  @Differentiable(order = 2) static double f(");
    StringBuilder sum = new StringBuilder("0");
    for (int i = 0; i < n; i++) {
      source.append(i == 0 ? "" : ", ").append("double x").append(i);
      sum.append(" + x").append(i);
    }
    // short enough for lanes under HotSpot's limit
    source.append(") {\n    double s = ").append(sum)
        .append(";\n    return s * s * Math.sin(s);\n  }\n}\n");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Many", source.toString());
    Class<?> generated = compiled.load("com.example.ManyGrad");
    assertThat(Arrays.stream(generated.getDeclaredMethods()).map(Method::getName).toList())
        .contains("fHessianLanes");
    double[] point = new double[n];
    for (int i = 0; i < n; i++) {
      point[i] = 0.3 + 0.05 * i;
    }
    HessianChecks.checkAt(compiled.function("com.example.Many", "f", n), generated, point);
  }

  /**
   * A matrix, then 60 {@code double} parameters: the matrix and all after it take a direction
   * per lane, so that a sweep with 4 lanes would take 1 + 120 + 4 * (1 + 1 + 120 + 1)
   * parameter slots, past the JVM's 255, and the method keeps one sweep per slot (its own
   * takes 244).
   */
  @Test
  void aMethodWhoseLanesWouldTakeTooManyParameterSlotsKeepsOneSweepPerSlot() throws Exception {
    int n = 60;
    StringBuilder source = new StringBuilder(
        "package com.example;\nimport ad4j.Differentiable;\nfinal class Many {\n"
            + "  @Differentiable(order = 2) static double f(double[][] m");
    StringBuilder sum = new StringBuilder("m[0][0] * m[0][1]");
    for (int i = 0; i < n; i++) {
      source.append(", double x").append(i);
      sum.append(" + x").append(i).append(" * m[0][").append(i % 2).append("]");
    }
    // short enough for lanes under HotSpot's limit: only the parameter slots stop them
    source.append(") {\n    double s = ").append(sum)
        .append(";\n    return s * s * Math.sin(s);\n  }\n}\n");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Many", source.toString());
    Class<?> generated = compiled.load("com.example.ManyGrad");
    assertThat(Arrays.stream(generated.getDeclaredMethods()).map(Method::getName).toList())
        .doesNotContain("fHessianLanes");
    Object[] arguments = new Object[n + 1];
    arguments[0] = new double[][] {{0.4, 0.7}};
    for (int i = 0; i < n; i++) {
      arguments[i + 1] = 0.02 * i - 0.3;
    }
    boolean[] active = new boolean[n + 1];
    Arrays.fill(active, true);
    FlatHessianChecks.of(compiled, "com.example.Many").check(new Call("f", arguments, active));
  }

  @Test
  void sweepsWithLanesWhereTheyCoverTheSweepOnePerSlotElsewhere() {
    List<String> names = Arrays.stream(COMPILED.get().load("com.example.HGrad")
        .getDeclaredMethods()).map(Method::getName).toList();
    List<String> inParts = Arrays.stream(IN_PARTS.get().load("com.example.HGrad")
        .getDeclaredMethods()).map(Method::getName).toList();
    assertThat(inParts).containsAtLeast("rosenbrockHessianLanes", "branchesHessianLanes",
        "rowsHessianLanes");
    assertThat(inParts.stream().anyMatch(n -> n.startsWith("branchesHessianLanesPart")))
        .isTrue();
    assertThat(names).containsAtLeast("rosenbrockHessianLanes", "branchesHessianLanes",
        "scalarsHessianLanes", "oneHessianLanes", "rowsHessianLanes", "mixedHessianLanes");
    assertThat(names).doesNotContain("callerHessianLanes");
    assertThat(names).contains("callerHessianSweep");
  }

  /**
   * The lanes write no gradient (the Hessian does not read it): the sweep takes the point, then
   * per lane the direction and the row, and the driver allocates no gradient; it allocates a
   * spare row for the lanes past the last slot only with fewer slots than lanes (else they
   * compute their columns of the block before again).
   */
  @Test
  void theLanesWriteNoGradientAndTheDriverASpareRowOnlyBelowTheLanes() throws Exception {
    Class<?> generated = COMPILED.get().load("com.example.HGrad");
    Method sweep = Arrays.stream(generated.getDeclaredMethods())
        .filter(m -> m.getName().equals("rosenbrockHessianLanes")).findFirst().orElseThrow();
    assertThat(sweep.getParameterCount()).isEqualTo(1 + 4 * 2);
    String source = InProcessCompiler.gradSource(COMPILED.get().compilation())
        .getCharContent(true).toString();
    String driver = source.substring(source.indexOf("static void rosenbrockHessianInto("));
    driver = driver.substring(0, driver.indexOf("\n  }\n"));
    assertThat(driver).doesNotContain("gradient");
    assertThat(driver.split("new double\\[slots\\]", -1)).hasLength(2);
    int below = driver.indexOf("if (slot < 4)");
    assertThat(below).isGreaterThan(-1);
    assertThat(driver.indexOf("new double[slots]")).isGreaterThan(below);
  }
}
