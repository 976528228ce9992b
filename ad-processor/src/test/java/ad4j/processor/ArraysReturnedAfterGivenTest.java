package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An array that a call run as written returns after it was given an array that carries
 * derivatives ({@code Objects.requireNonNull(a)}, a check of the sources that returns its
 * argument, a helper that returns a row of its matrix) may be that array. Written through, it
 * changed the array behind its derivatives: after {@code double[] a = x.clone(); double[] d =
 * check(a); d[0] = 5;}, {@code a[0] * x[0] + x[2]} had the gradient 5.3 in its first slot at x =
 * (0.3, 0.7, 1.1, -0.4), where the derivative is 5 (the old element's x[0] kept its path to the
 * result). Such a write, and passing such an array to a call that may write it, is an error at
 * the write; reading it stays accepted, and so does writing one that a call returned after it was
 * given arrays that carry no derivative.
 */
class ArraysReturnedAfterGivenTest {
  private static final String ALIAS = "whose derivatives would not see a write through";

  /** Class {@code com.example.F} with the helpers, then {@code body} from line 13. */
  private static List<String> source(String... body) {
    List<String> lines = new ArrayList<>(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.Arrays;",
        "import java.util.Objects;",
        "final class F {",
        "  static double[] check(double[] a) {",
        "    if (a.length == 0) throw new IllegalArgumentException(\"empty\");",
        "    return a;",
        "  }",
        "  static double[] row0(double[][] m) { return m[0]; }",
        "  static double[] pick(double[] a, double[] b, boolean c) { return c ? a : b; }"));
    lines.addAll(List.of(body));
    lines.add("}");
    return lines;
  }

  @Test
  void aWriteThroughWhatACheckReturnsIsAnError() {
    assertSingleError(source(
        "  @Differentiable static double f(double[] x) {",
        "    double[] a = x.clone();",
        "    double[] d = check(a);",
        "    d[0] = 5;",
        "    return a[0] * x[0] + x[2];",
        "  }"),
        "write into 'd[0]' is not supported: what 'check(a)' returns may be 'a', an array that"
            + " carries derivatives, " + ALIAS + " 'd'; write into that array by its own name,"
            + " or into a copy ('d.clone()')", 16, 6);
  }

  @Test
  void aWriteIntoAParameterThroughRequireNonNullIsAnError() {
    assertSingleError(source(
        "  @Differentiable static double f(double[] x) {",
        "    double r = x[0] * x[1];",
        "    double[] d = Objects.requireNonNull(x);",
        "    d[0] *= 5;",
        "    return r + x[0] * x[1];",
        "  }"),
        "write into 'd[0]' is not supported: what 'Objects.requireNonNull(x)' returns may be"
            + " 'x', an array that carries derivatives", 16, 6);
  }

  @Test
  void libraryWritesThroughWhatACallReturnsAreErrors() {
    assertSingleError(source(
        "  @Differentiable static double f(double[] x) {",
        "    double[] a = x.clone();",
        "    Arrays.fill(Objects.requireNonNull(a), 1, 3, 2.0);",
        "    return a[1] * x[0] + x[2];",
        "  }"),
        "write into 'Objects.requireNonNull(a)' is not supported", 15, 39);
    assertSingleError(source(
        "  @Differentiable static double f(double[] x) {",
        "    double[] a = x.clone();",
        "    double[] c = {7, 8};",
        "    double[] d = pick(a, c, x[0] > 0);",
        "    System.arraycopy(c, 0, d, 0, 2);",
        "    return a[1] * x[0] + x[2] * a[0];",
        "  }"),
        "write into 'd' is not supported: what 'pick(a, c, x[0] > 0)' returns may be 'a', an"
            + " array that carries derivatives", 17, 28);
  }

  @Test
  void aWriteIntoTheRowOfALocalMatrixAHelperReturnsIsAnError() {
    assertSingleError(source(
        "  @Differentiable static double f(double[] x) {",
        "    double[][] m = new double[2][2];",
        "    m[0][0] = x[0];",
        "    m[0][1] = x[1];",
        "    double[] d = row0(m);",
        "    d[1] = 3;",
        "    return m[0][1] * x[1] + m[0][0];",
        "  }"),
        "write into 'd[1]' is not supported: what 'row0(m)' returns may be 'm' or a row of 'm',"
            + " an array that carries derivatives", 18, 6);
  }

  @Test
  void passingWhatACheckReturnsToACallThatMayWriteItIsAnError() {
    assertSingleError(source(
        "  @Differentiable static double f(double[] x) {",
        "    double[] a = x.clone();",
        "    Arrays.sort(check(a));",
        "    return a[0] * x[0];",
        "  }"),
        "call to 'Arrays.sort(...)' passes 'check(a)', an array that carries derivatives (what"
            + " 'check(a)' returns may be 'a', an array that carries derivatives), to"
            + " 'Arrays.sort'", 15, 16);
  }

  /**
   * Reading what such a call returns, and writing into what one returns after it was given data
   * only (a {@code static final} table, which the members read as the method does), stay
   * accepted and exact.
   */
  @Test
  void readsAndWritesOfDataStayExact() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.F", String.join("\n", source(
            "  @Differentiable static double reads(double[] x) {",
            "    double[] d = check(x);",
            "    double s = 0;",
            "    for (int i = 0; i < d.length; i++) s += x[i] * x[(i + 1) % x.length];",
            "    return s;",
            "  }",
            "  static final double[] T = {1.5, -2.0};",
            "  @Differentiable static double data(double[] x, @NoDerivative double[] w) {",
            "    double r = x[0] * T[1] * w[0];",
            "    double[] d = check(T);",
            "    d[0] = 5 * w[1];",
            "    return Math.sin(r) * x[1] + d[0] * x[0];",
            "  }")));
    double[] x = {0.3, 0.7, 1.1, -0.4};
    MemberAgreement.of(compiled, "com.example.F", "reads", true)
        .checkScalar(new Object[] {x}, 1, 1e-8);
    MemberAgreement.of(compiled, "com.example.F", "data", true, false)
        .checkScalar(new Object[] {x, new double[] {1.5, -2.0}}, 1, 1e-8);
  }
}
