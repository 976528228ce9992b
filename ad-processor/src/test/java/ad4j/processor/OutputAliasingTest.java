package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A generated member called with one array both as an argument and as an output ({@code
 * fValueAndGradient(x, x)}, {@code fPullback(x, 1, x)}, a row of the Jacobian or the Hessian
 * that is {@code x}): the result must be the one separate arrays give, or an {@code
 * IllegalArgumentException}. The members zero or fill the output before or while they read the
 * input, so they check first ({@code write/OutputAliasChecks}); without the checks the results
 * were silently wrong (a value of 0.0, a gradient {1, 1, 1, 0}). Arguments that are only read
 * (a tangent that is the point itself, a seed that is also the adjoints, a Hessian-vector
 * product's {@code v}) give exact results.
 */
@ExtendWith(TapeIsEmpty.class)
class OutputAliasingTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Aliased {",
      "  @Differentiable static double f(double[] x) {",
      "    double s = 0;",
      "    for (int i = 0; i + 1 < x.length; i++) s += x[i] * x[i] * x[i + 1] + Math.sin(x[i]);",
      "    return s;",
      "  }",
      "  @Differentiable static double[] v(double[] x) {",
      "    double[] r = new double[x.length];",
      "    for (int i = 0; i < x.length; i++) r[i] = x[i] * x[(i + 1) % x.length];",
      "    return r;",
      "  }",
      "  @Differentiable static double g(double[][] m, @ad4j.NoDerivative double[] w) {",
      "    return m[0][0] * m[0][1] * w[0] + m[1][1] * w[1];",
      "  }",
      "  @Differentiable static double[] tall(double a, double b) {",
      "    return new double[] {a * b, Math.sin(a), b * b};",
      "  }",
      "  @Differentiable(order = 2) static double h(double[] x) {",
      "    double s = 0;",
      "    for (int i = 0; i + 1 < x.length; i++) s += x[i] * x[i] * x[i + 1];",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce ALIASED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Aliased",
          SOURCE));
  private static final String GRAD = "com.example.AliasedGrad";
  private static final double[] X = {0.3, 0.7, 1.1, -0.4};

  private static Object call(String member, Object... arguments) throws Exception {
    return ALIASED.get().invoke(GRAD, member, arguments);
  }

  /**
   * Runs {@code aliased}; passes when it throws an IllegalArgumentException, else asserts
   * that {@code actual} then equals {@code expected}.
   */
  private static void exactOrRejected(ThrowingRunnable aliased, Object expected,
      java.util.function.Supplier<Object> actual) throws Exception {
    try {
      aliased.run();
    } catch (InvocationTargetException e) {
      assertThat(e.getCause()).isInstanceOf(IllegalArgumentException.class);
      return;
    }
    assertThat(actual.get()).isEqualTo(expected);
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void theGradientArrayIsTheInput() throws Exception {
    double[] gradient = (double[]) call("fGradient", (Object) X.clone());
    double value = (Double) ALIASED.get().invoke("com.example.Aliased", "f", (Object) X.clone());
    double[] x = X.clone();
    Object[] result = new Object[1];
    exactOrRejected(() -> result[0] = call("fValueAndGradient", x, x),
        List.of(value, java.util.Arrays.toString(gradient)),
        () -> List.of(result[0], java.util.Arrays.toString(x)));
  }

  @Test
  void theAdjointsArrayIsTheInput() throws Exception {
    double[] gradient = (double[]) call("fGradient", (Object) X.clone());
    double[] expected = X.clone();
    for (int i = 0; i < expected.length; i++) {
      expected[i] += gradient[i];
    }
    double[] x = X.clone();
    exactOrRejected(() -> call("fPullback", x, 1.0, x), java.util.Arrays.toString(expected),
        () -> java.util.Arrays.toString(x));
  }

  @Test
  void aRowOfTheJacobianIsTheInput() throws Exception {
    double[][] jacobian = (double[][]) call("vJacobian", (Object) X.clone());
    double[] x = X.clone();
    double[][] into = {x, new double[4], new double[4], new double[4]};
    exactOrRejected(() -> call("vValueAndJacobian", x, into),
        java.util.Arrays.deepToString(jacobian), () -> java.util.Arrays.deepToString(into));
  }

  @Test
  void theGradientArrayOfTheHessianMemberIsTheInput() throws Exception {
    double[] gradient = (double[]) call("hGradient", (Object) X.clone());
    double[] x = X.clone();
    exactOrRejected(() -> call("hValueGradientAndHessian", x, x, new double[4][4]),
        java.util.Arrays.toString(gradient), () -> java.util.Arrays.toString(x));
  }

  @Test
  void theCheckSaysWhichArgumentTheOutputIsAndMatricesAndDataAreCheckedToo() throws Exception {
    double[] x = X.clone();
    InvocationTargetException thrown = org.junit.jupiter.api.Assertions.assertThrows(
        InvocationTargetException.class, () -> call("fValueAndGradient", x, x));
    assertThat(thrown.getCause()).hasMessageThat().isEqualTo("AliasedGrad.fValueAndGradient:"
        + " 'gradient' is the array passed as 'x', which it reads; pass an array of its own");
    assertThat(x).isEqualTo(X); // nothing written
    double[] data = {1, 2};
    double[][] m = {{0.5, 0.25}, data};
    for (Object[] arguments : List.of(new Object[] {m, data, data},
        new Object[] {m, data, m[0]})) {
      thrown = org.junit.jupiter.api.Assertions.assertThrows(InvocationTargetException.class,
          () -> call("gValueAndGradient", arguments[0], arguments[1], arguments[2]));
      assertThat(thrown.getCause()).isInstanceOf(IllegalArgumentException.class);
    }
    double[][] hessian = {new double[4], new double[4], new double[4], new double[4]};
    thrown = org.junit.jupiter.api.Assertions.assertThrows(InvocationTargetException.class,
        () -> call("hValueGradientAndHessian", X.clone(), hessian[2], hessian));
    assertThat(thrown.getCause()).hasMessageThat().isEqualTo("AliasedGrad"
        + ".hValueGradientAndHessian: 'gradient' is a row of 'hessian', which it reads; pass an"
        + " array of its own");
  }

  @Test
  void argumentsThatAreOnlyReadMayBeTheInput() throws Exception {
    double[] gradient = (double[]) call("fGradient", (Object) X.clone());
    double expected = 0;
    for (int i = 0; i < X.length; i++) {
      expected += gradient[i] * X[i];
    }
    double[] x = X.clone();
    assertThat((Double) call("fTangent", x, x)).isWithin(1e-15).of(expected);
    double[][] jacobian = (double[][]) call("vJacobian", (Object) X.clone());
    double[] seed = X.clone();
    double[] adjoints = X.clone();
    for (int i = 0; i < X.length; i++) {
      for (int k = 0; k < X.length; k++) {
        adjoints[i] += X[k] * jacobian[k][i];
      }
    }
    call("vPullback", X.clone(), seed, seed); // the seed is also the adjoints
    assertThat(seed).usingTolerance(1e-15).containsExactly(adjoints).inOrder();
    double[][] hessian = (double[][]) call("hHessian", (Object) X.clone());
    double[] product = new double[X.length];
    for (int i = 0; i < X.length; i++) {
      for (int j = 0; j < X.length; j++) {
        product[i] += hessian[i][j] * X[j];
      }
    }
    double[] y = X.clone();
    assertThat((double[]) call("hHessianVector", y, y)).usingTolerance(1e-14)
        .containsExactly(product).inOrder();
  }

  // A matrix output whose rows are one array: each row ended with the last one's derivatives
  // (hunt57a: a Hessian {row, row} came back [[4.2, 4.2], [4.2, 4.2]] for [[1.4, 3.0], [3.0,
  // 4.2]]), with no error.

  @Test
  void hessianRowsThatAreOneArrayAreRejected() {
    double[] row = new double[4];
    double[][] hessian = {new double[4], row, new double[4], row};
    InvocationTargetException thrown = org.junit.jupiter.api.Assertions.assertThrows(
        InvocationTargetException.class,
        () -> call("hValueGradientAndHessian", X.clone(), new double[4], hessian));
    assertThat(thrown.getCause()).hasMessageThat().isEqualTo("AliasedGrad"
        + ".hValueGradientAndHessian: rows 1 and 3 of 'hessian' are the same array; pass a"
        + " matrix of distinct rows");
  }

  @Test
  void jacobianRowsThatAreOneArrayAreRejectedForEitherSweep() throws Exception {
    double[] row = new double[4];
    double[][] jacobian = {row, new double[4], row, new double[4]};
    InvocationTargetException thrown = org.junit.jupiter.api.Assertions.assertThrows(
        InvocationTargetException.class, () -> call("vValueAndJacobian", X.clone(), jacobian));
    assertThat(thrown.getCause()).hasMessageThat().isEqualTo("AliasedGrad.vValueAndJacobian:"
        + " rows 0 and 2 of 'jacobian' are the same array; pass a matrix of distinct rows");
    // three rows, two slots: one forward sweep per slot writes the columns
    double[] twice = new double[2];
    thrown = org.junit.jupiter.api.Assertions.assertThrows(InvocationTargetException.class,
        () -> call("tallValueAndJacobian", 0.7, -1.3, new double[][] {twice, twice,
            new double[2]}));
    assertThat(thrown.getCause()).hasMessageThat().isEqualTo("AliasedGrad"
        + ".tallValueAndJacobian: rows 0 and 1 of 'jacobian' are the same array; pass a matrix"
        + " of distinct rows");
    // distinct rows, some longer than the slots: the Jacobian, what is past the slots kept
    double[][] distinct = {new double[] {9, 9, 9}, new double[2], new double[2]};
    call("tallValueAndJacobian", 0.7, -1.3, distinct);
    assertThat(distinct[0]).usingTolerance(1e-15).containsExactly(-1.3, 0.7, 9).inOrder();
    assertThat(distinct[1]).usingTolerance(1e-15).containsExactly(Math.cos(0.7), 0).inOrder();
    assertThat(distinct[2]).usingTolerance(1e-15).containsExactly(0, -2.6).inOrder();
  }
}
