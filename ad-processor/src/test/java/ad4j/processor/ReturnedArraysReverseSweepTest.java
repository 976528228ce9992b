package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Vector functions whose reverse sweep gave wrong results for the array they return, now errors
 * at the return that advise a copy, and the copies' derivatives exact.
 *
 * <p>A row of a local matrix returned as it is ({@code return m[0];}, or a local holding it):
 * the reverse sweep keeps one adjoint for the matrix and its rows, and the seed of the returned
 * row never reached it. {@code row(0.7, 1.9)} below, returning {@code m[0]} with
 * {@code m[0][0] = x * y} and {@code m[0][1] = x}, had {@code rowJacobian} (reverse mode, 2
 * results, 2 inputs) {@code [[0, 0], [0, 0]]} instead of {@code [[1.9, 0.7], [1, 0]]}, and
 * {@code rowPullback} added nothing to the adjoints; the tangent was right.
 *
 * <p>A local array passed to a call of a method with {@code @DerivativeOf} rules, written into
 * after it, and returned: the reverse sweep puts back each element written over for the call's
 * reverse, which reads the array as the call saw it, and so changed the array the pullback
 * returned. With {@code b = a.clone(); double[] r = sq(b, y); b[0] = r[1]; return b;} at
 * {@code a = {1.3, -0.7, 0.6, 0.4}}, {@code y = 1.7}, {@code mPullback} returned
 * {@code [1.3, -0.7, 0.6, 0.4]} where the method returns {@code [0.833, -0.7, 0.6, 0.4]}. The
 * same with a call of a {@code @Differentiable} method was an error already.
 */
@ExtendWith(TapeIsEmpty.class)
class ReturnedArraysReverseSweepTest {
  private static final String COPIES = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class Copies {",
      "  /** v_i^2 c for each i, as written. */",
      "  static double[] sq(double[] v, double c) {",
      "    double[] r = new double[v.length];",
      "    for (int i = 0; i < v.length; i++) { r[i] = v[i] * v[i] * c; }",
      "    return r;",
      "  }",
      "  @DerivativeOf(value = \"sq\", wrt = \"v\") static double[][] sqV(double[] v, double c) {",
      "    double[][] j = new double[v.length][v.length];",
      "    for (int i = 0; i < v.length; i++) { j[i][i] = 2 * v[i] * c; }",
      "    return j;",
      "  }",
      "  @DerivativeOf(value = \"sq\", wrt = \"c\") static double[] sqC(double[] v, double c) {",
      "    double[] j = new double[v.length];",
      "    for (int i = 0; i < v.length; i++) { j[i] = v[i] * v[i]; }",
      "    return j;",
      "  }",
      "  @Differentiable static double[] row(double x, double y) {",
      "    double[][] m = new double[2][2];",
      "    m[0][0] = x * y;",
      "    m[0][1] = x;",
      "    return m[0].clone();",
      "  }",
      "  @Differentiable static double[] rowOfLiteral(double x, double y) {",
      "    double[][] m = {{x * y, x}, {y, x * x * y}};",
      "    double[] r = m[1];",
      "    return r.clone();",
      "  }",
      "  @Differentiable static double[] ruled(double[] a, double y) {",
      "    double[] b = a.clone();",
      "    for (int k = 0; k < 2; k++) {",
      "      double[] r = sq(b, y);",
      "      b[k] = r[k + 1];",
      "    }",
      "    return b.clone();",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Copies", COPIES));

  private static MemberAgreement copies(String name, boolean... active) {
    return MemberAgreement.of(COMPILED.get(), "com.example.Copies", name, active);
  }

  @Test
  void aCopyOfARowOfALocalMatrixHasItsPartials() throws Exception {
    copies("row", true, true).checkVector(new Object[] {0.7, 1.9});
    copies("row", true, true).checkVector(new Object[] {-1.2, 0.4});
    copies("rowOfLiteral", true, true).checkVector(new Object[] {0.7, 1.9});
  }

  @Test
  void aCopyOfAnArrayPassedToARuledCallAndWrittenIsTheMethodsValue() throws Exception {
    copies("ruled", true, true).checkVector(
        new Object[] {new double[] {1.3, -0.7, 0.6, 0.4}, 1.7});
    copies("ruled", true, true).checkVector(new Object[] {new double[] {0.2, 0.9, -1.1}, -0.6});
  }

  @Test
  void returningARowOfALocalMatrixIsAnErrorAtTheReturn() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double[] f(double x, double y) {",
        "    double[][] m = new double[2][2];",
        "    m[0][0] = x * y;",
        "    return m[0];",
        "  }",
        "}");

    assertSingleError(lines, "'m[0]' is a row of a local matrix, and ad4j cannot return such"
        + " an array yet: return a copy ('m[0].clone()')", 7, lines.get(6).indexOf("[0]") + 1);
  }

  @Test
  void returningALocalThatHoldsARowIsAnErrorAtTheReturn() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double[] f(double x, double y) {",
        "    double[][] m = {{x * y, x}, {y, 1}};",
        "    double[] r = m[1];",
        "    return r;",
        "  }",
        "}");

    assertSingleError(lines, "'r' is a row of a local matrix, and ad4j cannot return such an"
        + " array yet: return a copy ('r.clone()')", 7, lines.get(6).indexOf("r;") + 1);
  }

  @Test
  void returningAnArrayPassedToARuledCallAndWrittenIsAnErrorAtTheReturn() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static double cubes(double[] v) { return v[0] * v[0] * v[0] + v[1]; }",
        "  @DerivativeOf(\"cubes\") static double[] cubesV(double[] v) {",
        "    return new double[] {3 * v[0] * v[0], 1};",
        "  }",
        "  @Differentiable static double[] f(double[] a, double y) {",
        "    double[] b = a.clone();",
        "    double s = cubes(b);",
        "    b[0] = s * y;",
        "    return b;",
        "  }",
        "}");

    assertSingleError(lines, "'b' is passed to a call of a method with @DerivativeOf rules and"
        + " written into, and ad4j cannot return such an array yet: return a copy ('b.clone()')",
        13, lines.get(12).indexOf("b;") + 1);
  }
}
