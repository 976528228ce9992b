package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every diagnostic about {@code @DerivativeOf}: at the rule (unknown target or parameter, a
 * missing {@code wrt}, parameters or return types that do not match, two rules for one partial,
 * a private or instance rule) and at the call (a value carrying a derivative passed where no
 * rule is, two rules in two classes), each with its message, line and column.
 */
class DerivativeOfDiagnosticsTest {

  /** The lines of {@code com.example.F}: these members from line 5 on. */
  private static List<String> classF(String... members) {
    List<String> lines = new ArrayList<>(List.of("package com.example;",
        "import ad4j.DerivativeOf;", "import ad4j.Differentiable;", "final class F {"));
    lines.addAll(List.of(members));
    lines.add("}");
    return lines;
  }

  private static JavaFileObject fileOf(List<String> lines) {
    return JavaFileObjects.forSourceString("com.example.F", String.join("\n", lines));
  }

  /** The 1-based column of {@code text} on line {@code line}; the test fails without it. */
  private static int columnOf(List<String> lines, int line, String text) {
    int column = lines.get(line - 1).indexOf(text) + 1;
    assertWithMessage("line %s has %s", line, text).that(column).isGreaterThan(0);
    return column;
  }

  private static Compilation compile(JavaFileObject... files) {
    return InProcessCompiler.javac().compile(files);
  }

  @Test
  void aRuleUsedAtOrderTwoThatIsNotDifferentiableIsAnErrorAtTheCall() {
    List<String> lines = classF(
        "  static double g(double x, double y) { return x * y; }",
        "  @Differentiable @DerivativeOf(value = \"g\", wrt = \"x\")",
        "  static double gX(double x, double y) { return y; }",
        "  @DerivativeOf(value = \"g\", wrt = \"y\") static double gY(double x, double y) {",
        "    return x;",
        "  }",
        "  @Differentiable static double first(double x) { return g(x, x); }",
        "  @Differentiable(order = 2) static double f(double x) {",
        "    double ok = g(x, 2);",
        "    return ok + g(x, x) * x;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorContaining("ad4j: call to 'g(...)' from method 'f', which"
        + " is @Differentiable(order = 2): its @DerivativeOf rule 'F.gY' must itself be"
        + " @Differentiable (order 1 is enough), so that ad4j can differentiate the partial"
        + " derivative it gives").inFile(file).onLine(14).atColumn(columnOf(lines, 14, "(x, x)"));
    assertWithMessage("errors").that(compilation.errors()).hasSize(1);
  }

  @Test
  void aRuleForAMatrixAtOrderTwoIsAnErrorAtTheCall() {
    // targets with double[] parameters work at order 2 (DerivativeOfSecondOrderTest); a rule
    // for a double[][] returns a double[][], which has no generated derivatives
    List<String> lines = classF(
        "  static double g(double[][] m, double x) { return m[0][0] * x; }",
        "  @DerivativeOf(value = \"g\", wrt = \"m\")",
        "  static double[][] gM(double[][] m, double x) { return new double[][] {{x}}; }",
        "  @Differentiable(order = 2) static double f(double x, double[][] w) {",
        "    return g(w, 2.0) * x;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorContaining("ad4j: call to 'g(...)' from method 'f', which"
        + " is @Differentiable(order = 2): its @DerivativeOf rule 'F.gM' gives the partial"
        + " derivatives with respect to a 'double[][]' as a 'double[][]', and ad4j cannot"
        + " differentiate methods that return matrices; at order 2, pass the matrix's rows as"
        + " 'double[]' arguments instead").inFile(file).onLine(9)
        .atColumn(columnOf(lines, 9, "(w, 2.0)"));
    assertWithMessage("errors").that(compilation.errors()).hasSize(1);
  }

  @Test
  void aVectorTargetTakingAnArrayWithDerivativesAtOrderTwoIsAnErrorAtTheCall() {
    // with double arguments it works (DerivativeOfSecondOrderTest)
    List<String> lines = classF(
        "  static double[] v(double[] a, double t) { return new double[] {a[0] * t, t}; }",
        "  @Differentiable @DerivativeOf(value = \"v\", wrt = \"t\")",
        "  static double[] vT(double[] a, double t) { return new double[] {a[0], 1}; }",
        "  @DerivativeOf(value = \"v\", wrt = \"a\")",
        "  static double[][] vA(double[] a, double t) {",
        "    return new double[][] {{t, 0}, {0, 0}};",
        "  }",
        "  @Differentiable(order = 2) static double f(double[] w, double t) {",
        "    return v(w, t)[0];",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorContaining("ad4j: call to 'v(...)' from method 'f', which"
        + " is @Differentiable(order = 2): 'F.v' returns an array, and its parameter 'a'"
        + " receives an array carrying derivatives, whose @DerivativeOf rule returns a"
        + " 'double[][]'; ad4j cannot differentiate methods that return matrices, so at order 2"
        + " a target that returns an array may take arrays only without derivatives")
        .inFile(file).onLine(13).atColumn(columnOf(lines, 13, "(w, t)"));
    assertWithMessage("errors").that(compilation.errors()).hasSize(1);
  }

  @Test
  void anInstanceTargetOnAStaticFieldAtOrderTwoNeedsADifferentiableRule() {
    // with a @Differentiable rule it works (DerivativeOfSecondOrderTest), as on a parameter
    List<String> lines = classF(
        "  static final class K { double apply(double x) { return x * x; } }",
        "  static final K R = new K();",
        "  @DerivativeOf(owner = K.class, value = \"apply\")",
        "  static double applyX(K k, double x) { return 2 * x; }",
        "  @Differentiable(order = 2) static double f(double x) {",
        "    return R.apply(x) * x;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorContaining("ad4j: call to 'R.apply(...)' from method 'f',"
        + " which is @Differentiable(order = 2): its @DerivativeOf rule 'F.applyX' must itself"
        + " be @Differentiable (order 1 is enough), so that ad4j can differentiate the partial"
        + " derivative it gives").inFile(file).onLine(10)
        .atColumn(columnOf(lines, 10, "(x) * x"));
    assertWithMessage("errors").that(compilation.errors()).hasSize(1);
  }

  @Test
  void unknownTargetIsReportedAtTheName() {
    List<String> lines = classF(
        "  static double g(double x) { return x; }",
        "  @DerivativeOf(\"gg\") static double gX(double x) { return 1; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX': unknown target:"
        + " no method 'gg' in 'F' (name another class with owner = ...)")
        .inFile(file).onLine(6).atColumn(columnOf(lines, 6, "\"gg\""));
  }

  @Test
  void unknownTargetInTheNamedOwner() {
    List<String> lines = classF(
        "  @DerivativeOf(owner = Math.class, value = \"erf\")",
        "  static double erfX(double x) { return 1; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'erfX': unknown target:"
        + " no method 'erf' in 'Math'").inFile(file).onLine(5)
        .atColumn(columnOf(lines, 5, "\"erf\""));
  }

  @Test
  void unknownWrtIsReportedAtTheParameterName() {
    List<String> lines = classF(
        "  static double g(double x, double y) { return x * y; }",
        "  @DerivativeOf(value = \"g\", wrt = \"z\") static double gZ(double x, double y) {",
        "    return 1;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gZ': unknown wrt:"
        + " 'F.g' has no parameter 'z'; its 'double' parameters are x, y")
        .inFile(file).onLine(6).atColumn(columnOf(lines, 6, "\"z\""));
  }

  @Test
  void wrtNamingAParameterWithoutDerivative() {
    List<String> lines = classF(
        "  static double g(double x, int n) { return x * n; }",
        "  @DerivativeOf(value = \"g\", wrt = \"n\") static double gN(double x, int n) {",
        "    return 1;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gN': parameter 'n' of"
        + " 'F.g' has type 'int' and carries no derivative; its 'double' parameters are x")
        .inFile(file).onLine(6).atColumn(columnOf(lines, 6, "\"n\""));
  }

  @Test
  void ruleForAnArrayParameterThatReturnsADouble() {
    List<String> lines = classF(
        "  static double g(double[] v, double x) { return v[0] * x; }",
        "  @DerivativeOf(value = \"g\", wrt = \"v\")",
        "  static double gV(double[] v, double x) { return x; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gV' must return"
        + " 'double[]' (the partial derivatives with respect to the elements of 'v', in its"
        + " shape), not 'double'").inFile(file).onLine(7).atColumn(columnOf(lines, 7, "gV"));
  }

  @Test
  void ruleForAMatrixParameterThatReturnsAnArray() {
    List<String> lines = classF(
        "  static double g(double[][] m) { return m[0][0]; }",
        "  @DerivativeOf(\"g\")",
        "  static double[] gM(double[][] m) { return m[0]; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gM' must return"
        + " 'double[][]' (the partial derivatives with respect to the elements of 'm', in its"
        + " shape), not 'double[]'").inFile(file).onLine(7).atColumn(columnOf(lines, 7, "gM"));
  }

  @Test
  void wrtNamingAnIntArrayParameter() {
    List<String> lines = classF(
        "  static double g(double[] v, int[] k, double x) { return v[k[0]] * x; }",
        "  @DerivativeOf(value = \"g\", wrt = \"k\")",
        "  static double[] gK(double[] v, int[] k, double x) { return v; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gK': parameter 'k' of"
        + " 'F.g' has type 'int[]' and carries no derivative; its parameters that carry"
        + " derivatives are v, x").inFile(file).onLine(6).atColumn(columnOf(lines, 6, "\"k\""));
  }

  @Test
  void missingWrtWhenTheTargetHasAnArrayAndADoubleParameter() {
    List<String> lines = classF(
        "  static double g(double[] v, double x) { return v[0] * x; }",
        "  @DerivativeOf(\"g\")",
        "  static double gX(double[] v, double x) { return v[0]; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX': missing wrt:"
        + " 'F.g' has several parameters that carry derivatives (v, x); name the one this rule"
        + " differentiates by, as wrt = \"v\"").inFile(file).onLine(6)
        .atColumn(columnOf(lines, 6, "@"));
  }

  @Test
  void arrayCarryingDerivativesForAParameterWithoutRule() {
    List<String> lines = classF(
        "  static double g(double[] v, double x) { return v[0] * x; }",
        "  @DerivativeOf(value = \"g\", wrt = \"x\")",
        "  static double gX(double[] v, double x) { return v[0]; }",
        "  static final double[] TABLE = {1, 2};",
        "  @Differentiable static double f(double[] w, double a) {",
        "    double ok = g(TABLE, a);",
        "    return ok + g(w, a);",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: call to 'g(...)': parameter 'v' of 'F.g'"
        + " receives a value carrying a derivative, but 'F.g' has @DerivativeOf rules only for"
        + " 'x'; add a rule @DerivativeOf(value = \"g\", wrt = \"v\") for each")
        .inFile(file).onLine(11).atColumn(columnOf(lines, 11, "(w, a"));
  }

  @Test
  void missingWrtWhenTheTargetHasSeveralDoubleParameters() {
    List<String> lines = classF(
        "  static double g(double x, double y) { return x * y; }",
        "  @DerivativeOf(\"g\")",
        "  static double gX(double x, double y) { return y; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX': missing wrt:"
        + " 'F.g' has several 'double' parameters (x, y); name the one this rule"
        + " differentiates by, as wrt = \"x\"").inFile(file).onLine(6)
        .atColumn(columnOf(lines, 6, "@"));
  }

  @Test
  void parameterListThatDoesNotMatch() {
    List<String> lines = classF(
        "  static double g(double x, int n) { return x * n; }",
        "  @DerivativeOf(\"g\")",
        "  static double gX(double x) { return 1; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX': its parameters"
        + " (double) do not match those of 'F.g', (double, int): a rule takes exactly the"
        + " target's parameters").inFile(file).onLine(7).atColumn(columnOf(lines, 7, "gX"));
  }

  @Test
  void ruleThatDoesNotReturnDouble() {
    List<String> lines = classF(
        "  static double g(double x) { return x; }",
        "  @DerivativeOf(\"g\")",
        "  static float gX(double x) { return 1; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX' must return"
        + " 'double' (the partial derivative), not 'float'").inFile(file).onLine(7)
        .atColumn(columnOf(lines, 7, "gX"));
  }

  @Test
  void targetThatDoesNotReturnDouble() {
    List<String> lines = classF(
        "  static int g(double x) { return (int) x; }",
        "  @DerivativeOf(\"g\")",
        "  static double gX(double x) { return 1; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX': target 'F.g'"
        + " returns 'int', and ad4j differentiates calls of methods returning 'double' or"
        + " 'double[]' only")
        .inFile(file).onLine(7).atColumn(columnOf(lines, 7, "gX"));
  }

  @Test
  void ruleOfAVectorTargetThatReturnsADouble() {
    List<String> lines = classF(
        "  static double[] g(double x, double[] v) { return new double[] {x, v[0]}; }",
        "  @DerivativeOf(value = \"g\", wrt = \"x\")",
        "  static double gX(double x, double[] v) { return 1; }",
        "  @DerivativeOf(value = \"g\", wrt = \"v\")",
        "  static double[] gV(double x, double[] v) { return v; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX' must return"
        + " 'double[]' (element k the partial derivative of the result's element k), not"
        + " 'double'").inFile(file).onLine(7).atColumn(columnOf(lines, 7, "gX"));
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gV' must return"
        + " 'double[][]' ([k][j] the partial derivative of the result's element k with respect"
        + " to 'v[j]'), not 'double[]'").inFile(file).onLine(9)
        .atColumn(columnOf(lines, 9, "gV"));
  }

  @Test
  void ruleOfAVectorTargetWithRespectToAMatrix() {
    List<String> lines = classF(
        "  static double[] g(double[][] m) { return m[0]; }",
        "  @DerivativeOf(\"g\")",
        "  static double[][][] gM(double[][] m) { return null; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gM': target 'F.g'"
        + " returns 'double[]' and 'm' is a 'double[][]': partial derivatives of a vector target"
        + " with respect to a matrix are not supported").inFile(file).onLine(7)
        .atColumn(columnOf(lines, 7, "gM"));
  }

  @Test
  void aReceiverMadeInsideALoopIsAnErrorAtTheCall() {
    List<String> lines = classF(
        "  static final class Box {",
        "    final double k;",
        "    Box(double k) { this.k = k; }",
        "    double times(double x) { return k * x; }",
        "  }",
        "  @DerivativeOf(owner = Box.class, value = \"times\")",
        "  static double timesX(Box b, double x) { return b.k; }",
        "  @Differentiable static double f(double x) {",
        "    double s = new Box(2).times(x);",
        "    for (int i = 0; i < 3; i++) { Box b = new Box(i); s += b.times(x * s); }",
        "    return s;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorContaining("ad4j: call to 'b.times(...)': its receiver 'b'"
        + " is assigned more than once or made inside a loop, and the reverse sweep needs the"
        + " object of each call for its @DerivativeOf rules; make the object once, before any"
        + " loop, in a local that is not assigned again").inFile(file).onLine(14)
        .atColumn(columnOf(lines, 14, "(x * s)"));
    assertWithMessage("errors").that(compilation.errors()).hasSize(1);
  }

  @Test
  void aReceiverThatIsAnElementOfAnArrayInALoopIsAnErrorThatSaysSo() {
    List<String> lines = classF(
        "  static final class Law {",
        "    final double k;",
        "    Law(double k) { this.k = k; }",
        "    double value(double x) { return Math.sin(k * x); }",
        "    @Differentiable double cdf(double x) { return Math.tanh(k * x); }",
        "  }",
        "  @DerivativeOf(owner = Law.class, value = \"value\")",
        "  static double valueX(Law law, double x) { return law.k * Math.cos(law.k * x); }",
        "  @Differentiable static double f(double x, @ad4j.NoDerivative Law[] laws) {",
        "    double s = laws[0].value(x);",
        "    for (int i = 0; i < laws.length; i++) {",
        "      s += laws[i].value(x * x);",
        "      s += laws[i].cdf(x);",
        "    }",
        "    return s;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorContaining("ad4j: call to 'laws[i].value(...)': its receiver"
        + " 'laws[i]' is an element of an array read inside a loop, and the reverse sweep needs"
        + " the object of each call for its @DerivativeOf rules, which ad4j does not keep; pass"
        + " the numbers the call needs (the object's fields) to a static @Differentiable method,"
        + " or to a static method with @DerivativeOf rules, instead").inFile(file).onLine(16);
    // the @Differentiable method's call beside it is differentiated: the reverse sweep reads
    // each iteration's element again (ObjectArgumentsInLoopsTest)
    assertWithMessage("errors").that(compilation.errors()).hasSize(1);
  }

  @Test
  void aTargetTakingATypeVariableIsAnErrorAtTheCall() {
    // was an internal error (NoSuchElementException) while lowering the call
    List<String> lines = classF(
        "  static <T> double g(T tag, double x) { return x * x * x; }",
        "  @DerivativeOf(value = \"g\", wrt = \"x\")",
        "  static <T> double gX(T tag, double x) { return 3 * x * x; }",
        "  @Differentiable static double f(double x) {",
        "    return g(\"a\", x) * x;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: call to 'g(...)': parameter 'tag' of 'F.g'"
        + " has type 'T', a type variable, which ad4j cannot pass to a method with"
        + " @DerivativeOf rules; give the parameter its type (or Object)")
        .inFile(file).onLine(9).atColumn(columnOf(lines, 9, "(\"a\""));
  }

  @Test
  void twoRulesForTheSamePartial() {
    List<String> lines = classF(
        "  static double g(double x) { return x * x; }",
        "  @DerivativeOf(\"g\") static double gX(double x) { return 2 * x; }",
        "  @DerivativeOf(\"g\") static double gX2(double x) { return x + x; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX2' repeats rule"
        + " 'F.gX': both give the partial derivative of 'F.g' with respect to 'x'; keep one")
        .inFile(file).onLine(7).atColumn(columnOf(lines, 7, "gX2"));
  }

  @Test
  void privateRule() {
    List<String> lines = classF(
        "  static double g(double x) { return x * x; }",
        "  @DerivativeOf(\"g\") private static double gX(double x) { return 2 * x; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX' is private:"
        + " generated code lives in another class and calls it; make it package-private")
        .inFile(file).onLine(6).atColumn(columnOf(lines, 6, "gX"));
  }

  @Test
  void instanceRule() {
    List<String> lines = classF(
        "  static double g(double x) { return x * x; }",
        "  @DerivativeOf(\"g\") double gX(double x) { return 2 * x; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX' must be static")
        .inFile(file).onLine(6).atColumn(columnOf(lines, 6, "gX"));
  }

  @Test
  void derivativeCarryingValueForAParameterWithoutRule() {
    List<String> lines = classF(
        "  static double g(double x, double y, double z) { return x * y * z; }",
        "  @DerivativeOf(value = \"g\", wrt = \"x\")",
        "  static double gX(double x, double y, double z) { return y * z; }",
        "  @Differentiable static double f(double a, double b) {",
        "    double ok = g(a, 2, 3);",
        "    return ok + g(a, b, a * b);",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: call to 'g(...)': parameters 'y', 'z' of"
        + " 'F.g' receive values carrying a derivative, but 'F.g' has @DerivativeOf rules only"
        + " for 'x'; add a rule @DerivativeOf(value = \"g\", wrt = \"y\") for each")
        .inFile(file).onLine(10).atColumn(columnOf(lines, 10, "(a, b"));
  }

  private static final JavaFileObject LIBRARY = JavaFileObjects.forSourceString("com.example.Lib",
      String.join("\n",
          "package com.example;",
          "import ad4j.DerivativeOf;",
          "public final class Lib {",
          "  public static double g(double x) { return x * x; }",
          "  @DerivativeOf(\"g\") public static double gX(double x) { return 2 * x; }",
          "}"));

  private static final List<String> CALLER_WITH_SECOND_RULE = classF(
      "  @DerivativeOf(owner = Lib.class, value = \"g\") static double g2(double x) {",
      "    return x + x;",
      "  }",
      "  @Differentiable static double f(double a) {",
      "    return Lib.g(a);",
      "  }");

  @Test
  void rulesForOnePartialInTheTargetsClassAndTheCallersCompiledTogether() {
    JavaFileObject file = fileOf(CALLER_WITH_SECOND_RULE);

    Compilation compilation = compile(LIBRARY, file);

    // at the second rule, and at the call, which sees both
    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'g2' repeats rule"
        + " 'Lib.gX': both give the partial derivative of 'Lib.g' with respect to 'x'; keep one")
        .inFile(file).onLine(5).atColumn(columnOf(CALLER_WITH_SECOND_RULE, 5, "g2"));
    assertThat(compilation).hadErrorContaining("ad4j: call to 'Lib.g(...)': two @DerivativeOf"
        + " rules give the partial derivative of 'Lib.g' with respect to 'x': 'Lib.gX' and"
        + " 'F.g2'; keep one").inFile(file).onLine(9)
        .atColumn(columnOf(CALLER_WITH_SECOND_RULE, 9, "(a)"));
  }

  @Test
  void rulesForOnePartialInACompiledLibraryAndTheCaller(@TempDir Path classes)
      throws IOException {
    Compilation library = compile(LIBRARY);
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    JavaFileObject file = fileOf(CALLER_WITH_SECOND_RULE);

    Compilation compilation = InProcessCompiler.javac()
        .withClasspath(classpath).compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: call to 'Lib.g(...)': two @DerivativeOf"
        + " rules give the partial derivative of 'Lib.g' with respect to 'x': 'Lib.gX' and"
        + " 'F.g2'; keep one").inFile(file).onLine(9)
        .atColumn(columnOf(CALLER_WITH_SECOND_RULE, 9, "(a)"));
  }

  @Test
  void ruleOfAnInstanceMethodWithoutTheReceiver() {
    List<String> lines = classF(
        "  double g(double x) { return x * x; }",
        "  @DerivativeOf(\"g\")",
        "  static double gX(double x) { return 2 * x; }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: @DerivativeOf rule 'gX': its parameters"
        + " (double) do not match those of 'F.g', (com.example.F, double): a rule takes exactly"
        + " the target's parameters (after the receiver, for an instance method)")
        .inFile(file).onLine(7).atColumn(columnOf(lines, 7, "gX"));
  }

  @Test
  void receiverThatIsNotAStaticFinalField() {
    List<String> lines = classF(
        "  static F shared = new F();",
        "  double g(double x) { return x * x; }",
        "  @DerivativeOf(\"g\") static double gX(F f, double x) { return 2 * x; }",
        "  @Differentiable static double f(double a) {",
        "    return shared.g(a);",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: call to 'shared.g(...)': its receiver"
        + " 'shared' must be a static final field, so that the call and its @DerivativeOf rules"
        + " see the same object").inFile(file).onLine(9).atColumn(columnOf(lines, 9, "(a)"));
  }

  @Test
  void privateTargetCannotBeCalledByGeneratedCode() {
    List<String> lines = classF(
        "  private static double g(double x) { return x * x; }",
        "  @DerivativeOf(\"g\") static double gX(double x) { return 2 * x; }",
        "  @Differentiable static double f(double a) {",
        "    return g(a);",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: call to 'g(...)': generated code cannot"
        + " call it: method 'F.g' is private; make it package-private").inFile(file).onLine(8).atColumn(columnOf(lines, 8, "(a)"));
  }

  @Test
  void callOfAMethodWithoutRulesOffersDerivativeOf() {
    List<String> lines = classF(
        "  static double g(double x) { return x * x; }",
        "  @Differentiable static double f(double a) {",
        "    return g(a) + Math.abs(a);",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: call to 'g(...)' is not differentiable:"
        + " 'a' carries a derivative into 'g(a)', which ad4j cannot differentiate:"
        + " annotate 'F.g' with @Differentiable, so that ad4j generates the derivatives this call"
        + " needs, or give its partial derivatives with @DerivativeOf").inFile(file).onLine(7)
        .atColumn(columnOf(lines, 7, "(a)"));
  }

  @Test
  void callOfALibraryMethodOffersDerivativeOf() {
    List<String> lines = classF(
        "  @Differentiable static double f(double a) {",
        "    return java.awt.geom.Point2D.distance(a, 1, 0, 0);",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: call to"
        + " 'java.awt.geom.Point2D.distance(...)' is not differentiable: 'a' carries a derivative"
        + " into 'java.awt.geom.Point2D.distance(a, 1, 0, 0)', which ad4j cannot differentiate:"
        + " 'Point2D.distance' is not a @Differentiable method; ad4j differentiates calls to"
        + " Math, StrictMath and FastMath functions and to @Differentiable methods; give its"
        + " partial derivatives with @DerivativeOf").inFile(file).onLine(6)
        .atColumn(columnOf(lines, 6, "(a, 1, 0, 0)"));
  }
}
