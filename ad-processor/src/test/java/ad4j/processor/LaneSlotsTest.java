package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.FlatHessianChecks;
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
 * The lanes of {@code mHessian}'s sweeps given their unit directions by the lane's slot: the
 * tangent of a scalar parameter is {@code slot == start ? 1.0 : 0.0} and that of an array's
 * element {@code i == slot - start ? 1.0 : 0.0}, where {@code start} is the parameter's first
 * slot, a constant after scalars only and a sum of lengths after arrays; parameters from a
 * matrix on keep directions per lane. Each method is checked whole and cut into parts of 1 and
 * 2 statements: the Hessian against differences of the gradient and second differences of the
 * method, exact symmetry, {@code mHessianVector} and {@code mValueGradientAndHessian}
 * ({@link FlatHessianChecks}), and each column against {@code mHessianVector} along the unit
 * direction; slots below the lanes, a multiple of them and neither, inactive parameters
 * between active ones.
 */
@ExtendWith(TapeIsEmpty.class)
class LaneSlotsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class L {",
      "  /** Two arrays and a scalar after them: their first slots are sums of lengths. */",
      "  @Differentiable(order = 2) static double twoArrays(double[] a, @NoDerivative double w,",
      "      double[] b, double s) {",
      "    double acc = s * s * w;",
      "    for (int i = 0; i < a.length; i++) {",
      "      acc += Math.sin(a[i] * s) * b[i % b.length] + a[i] * a[(i + 1) % a.length];",
      "    }",
      "    for (int j = 0; j < b.length; j++) {",
      "      acc += b[j] * b[j] * Math.exp(0.3 * s) - w * a[0] * b[j];",
      "    }",
      "    return acc;",
      "  }",
      "  /** Scalars before an array: constant first slots. */",
      "  @Differentiable(order = 2) static double scalarsThenArray(double p,",
      "      @NoDerivative double c, double q, double[] x) {",
      "    double sum = p * q * c;",
      "    for (int i = 0; i + 1 < x.length; i++) {",
      "      double d = x[i + 1] - x[i] * p;",
      "      sum += d * d * q + Math.log(1 + x[i] * x[i]);",
      "    }",
      "    return sum + p * p * x[x.length - 1];",
      "  }",
      "  /** A scalar by slot, then a matrix and an array by directions. */",
      "  @Differentiable(order = 2) static double matrixBetween(double s, double[][] m,",
      "      double[] y) {",
      "    double acc = s * y[0];",
      "    for (int r = 0; r < m.length; r++) {",
      "      for (int k = 0; k < m[r].length; k++) {",
      "        acc += m[r][k] * y[k % y.length] * s + Math.cos(m[r][k] * s);",
      "      }",
      "    }",
      "    for (int i = 0; i < y.length; i++) {",
      "      acc += y[i] * y[i] * s;",
      "    }",
      "    return acc;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.L", SOURCE));

  private static final CompiledOnce PARTS_OF_ONE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=1"),
          "com.example.L", SOURCE));

  private static final CompiledOnce PARTS_OF_TWO = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=2"),
          "com.example.L", SOURCE));

  static Stream<Call> calls() {
    return Stream.of(
        // 3 + 2 + 1 slots: the last block repeats two rows of the block before
        new Call("twoArrays", new Object[] {point(3, 1), 1.3, point(2, 2), 0.7}, true, false,
            true, true),
        // 1 + 1 + 1 slots, fewer than the lanes
        new Call("twoArrays", new Object[] {point(1, 3), -0.8, point(1, 4), 0.4}, true, false,
            true, true),
        // 5 + 3 + 1 slots
        new Call("twoArrays", new Object[] {point(5, 5), 0.6, point(3, 6), -0.5}, true, false,
            true, true),
        // 1 + 1 + 2 slots, the lanes exactly
        new Call("scalarsThenArray", new Object[] {0.9, 1.7, -0.6, point(2, 7)}, true, false,
            true, true),
        // 1 + 1 + 5 slots
        new Call("scalarsThenArray", new Object[] {-0.7, 0.8, 1.1, point(5, 8)}, true, false,
            true, true),
        // 1 + 5 + 3 slots
        new Call("matrixBetween", new Object[] {0.8,
            new double[][] {point(3, 9), point(2, 10)}, point(3, 11)}, true, true, true),
        // 1 + 1 + 1 slots
        new Call("matrixBetween", new Object[] {-0.3, new double[][] {point(1, 12)},
            point(1, 13)}, true, true, true));
  }

  private static double[] point(int n, long seed) {
    Random random = new Random(seed);
    return random.doubles(n, 0.3, 1.6).toArray();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansAreExact(Call call) throws Exception {
    FlatHessianChecks.of(COMPILED.get(), "com.example.L").check(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansAreExactInPartsOfOneStatement(Call call) throws Exception {
    FlatHessianChecks.of(PARTS_OF_ONE.get(), "com.example.L").check(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansAreExactInPartsOfTwoStatements(Call call) throws Exception {
    FlatHessianChecks.of(PARTS_OF_TWO.get(), "com.example.L").check(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void eachColumnIsTheHessianVectorProductAlongItsSlot(Call call) throws Exception {
    for (CompiledOnce compiled : List.of(COMPILED, PARTS_OF_ONE)) {
      FlatHessianChecks.of(compiled.get(), "com.example.L").checkColumnsOfHessianVector(call);
    }
  }

  /**
   * The sweeps take, per lane, the slot and the row, and a direction only from the matrix on;
   * the drivers allocate no direction of a parameter given by slot.
   */
  @Test
  void theLanesTakeTheirSlotsAndDirectionsOnlyFromTheMatrixOn() throws Exception {
    Class<?> generated = COMPILED.get().load("com.example.LGrad");
    assertThat(parameterTypes(generated, "twoArraysHessianLanes")).isEqualTo(List.of(
        double[].class, double.class, double[].class, double.class,
        int.class, double[].class, int.class, double[].class,
        int.class, double[].class, int.class, double[].class));
    assertThat(parameterTypes(generated, "scalarsThenArrayHessianLanes")).isEqualTo(List.of(
        double.class, double.class, double.class, double[].class,
        int.class, double[].class, int.class, double[].class,
        int.class, double[].class, int.class, double[].class));
    assertThat(parameterTypes(generated, "matrixBetweenHessianLanes")).isEqualTo(List.of(
        double.class, double[][].class, double[].class,
        int.class, double[][].class, double[].class, double[].class,
        int.class, double[][].class, double[].class, double[].class,
        int.class, double[][].class, double[].class, double[].class,
        int.class, double[][].class, double[].class, double[].class));
    String source = InProcessCompiler.gradSource(COMPILED.get().compilation())
        .getCharContent(true).toString();
    assertThat(driver(source, "twoArrays")).doesNotContain("Directions");
    assertThat(driver(source, "scalarsThenArray")).doesNotContain("Directions");
    assertThat(driver(source, "matrixBetween")).contains("mDirections");
    assertThat(driver(source, "matrixBetween")).doesNotContain("sDirections");
  }

  private static List<Class<?>> parameterTypes(Class<?> generated, String name) {
    Method sweep = Arrays.stream(generated.getDeclaredMethods())
        .filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
    return List.of(sweep.getParameterTypes());
  }

  private static String driver(String source, String method) {
    String driver = source.substring(source.indexOf("static void " + method + "HessianInto("));
    return driver.substring(0, driver.indexOf("\n  }\n"));
  }
}
