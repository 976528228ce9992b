package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * The diagnostics of activity analysis (issue 15): every error of a method in one compilation,
 * also when its signature is rejected and after a first failed value; calls on fields, locals
 * and parameters say what their receiver is; the advice to annotate a callee with
 * {@code @Differentiable} is given only where that would work. Each error with its message, line
 * and column.
 */
class ActivityDiagnosticsTest {
  private static Compilation compile(List<String> lines) {
    return InProcessCompiler.javac().compile(file(lines));
  }

  private static JavaFileObject file(List<String> lines) {
    return JavaFileObjects.forSourceString("com.example.F", String.join("\n", lines));
  }

  /** The column of the call {@code name(} on {@code line}: javac's position, its '('. */
  private static int call(String line, String name) {
    return line.indexOf(name + "(") + name.length() + 1;
  }

  @Test
  void aRejectedSignatureHidesNoErrorOfTheBody() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(float[][] k, double x) {",
        "    double a = Math.random();",
        "    return x * zz + a;",
        "  }",
        "}");
    JavaFileObject file = file(lines);
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(3);
    assertThat(compilation).hadErrorContaining("parameter 'k' of @Differentiable method 'f' has"
        + " type 'float[][]'").inFile(file).onLine(4).atColumn(lines.get(3).indexOf("[") + 1);
    assertThat(compilation).hadErrorContaining("call to 'Math.random()' is not differentiable")
        .inFile(file).onLine(5).atColumn(call(lines.get(4), "Math.random"));
    assertThat(compilation).hadErrorContaining("cannot find variable 'zz'").inFile(file)
        .onLine(6).atColumn(lines.get(5).indexOf("zz") + 1);
  }

  @Test
  void aFailedValueSuppressesNoLaterError() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class Special { static double erf(double x) { return x; } }",
        "  static double helper(double x) { return x; }",
        "  @Differentiable static double f(double x) {",
        "    double a = Math.random() * x;",
        "    double b = Special.erf(a);",
        "    double c = helper(b);",
        "    return b + c + zz;",
        "  }",
        "}");
    JavaFileObject file = file(lines);
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(4);
    assertThat(compilation).hadErrorContaining("call to 'Math.random()'").inFile(file)
        .onLine(7).atColumn(call(lines.get(6), "Math.random"));
    assertThat(compilation).hadErrorContaining("'a' carries a derivative into 'Special.erf(a)',"
        + " which ad4j cannot differentiate: annotate 'Special.erf' with @Differentiable")
        .inFile(file).onLine(8).atColumn(call(lines.get(7), "Special.erf"));
    assertThat(compilation).hadErrorContaining("'b' carries a derivative into 'helper(b)'")
        .inFile(file).onLine(9).atColumn(call(lines.get(8), "helper"));
    assertThat(compilation).hadErrorContaining("cannot find variable 'zz'").inFile(file)
        .onLine(10).atColumn(lines.get(9).indexOf("zz") + 1);
  }

  @Test
  void callsOnFieldsAndParametersSayWhatTheReceiverIs() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class Normal { double cdf(double x) { return x; } }",
        "  static final Normal NORMAL = new Normal();",
        "  final Normal own = new Normal();",
        "  @Differentiable static double f(double x, Normal given) {",
        "    double a = NORMAL.cdf(x);",
        "    double b = own.cdf(1);",
        "    return a + b + given.cdf(x);",
        "  }",
        "}");
    JavaFileObject file = file(lines);
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(3);
    assertThat(compilation).hadErrorContaining("call to 'NORMAL.cdf(...)' is not"
        + " differentiable: 'x' carries a derivative into 'NORMAL.cdf(x)', which ad4j cannot"
        + " differentiate: 'F.NORMAL' holds an object, and ad4j runs its methods as written;"
        + " give the partial derivatives of 'Normal.cdf' with @DerivativeOf(owner ="
        + " Normal.class, value = \"cdf\")")
        .inFile(file).onLine(8).atColumn(call(lines.get(7), "NORMAL.cdf"));
    assertThat(compilation).hadErrorContaining("call to 'own.cdf(...)': 'own' is an instance"
        + " field, and the method is static: it has no object whose field it could read")
        .inFile(file).onLine(9).atColumn(call(lines.get(8), "own.cdf"));
    assertThat(compilation).hadErrorContaining("call to 'given.cdf(...)' is not"
        + " differentiable: 'x' carries a derivative into 'given.cdf(x)', which ad4j cannot"
        + " differentiate: 'Normal.cdf' is a method of an object, which ad4j runs as written")
        .inFile(file).onLine(10).atColumn(call(lines.get(9), "given.cdf"));
  }

  @Test
  void annotatingIsAdvisedOnlyWhereItWouldWork() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static double open(double x) { return x * x; }",
        "  private static double hidden(double x) { return x * x; }",
        "  static final double[][][] T = {{{2}}};",
        "  static double deep(double x, double[][][] t) { return x * t[0][0][0]; }",
        "  @Differentiable static double f(double x) {",
        "    double a = open(x);",
        "    double b = hidden(x);",
        "    double c = deep(x, T);",
        "    return a + b + c;",
        "  }",
        "}");
    JavaFileObject file = file(lines);
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(3);
    assertThat(compilation).hadErrorContaining("which ad4j cannot differentiate: annotate"
        + " 'F.open' with @Differentiable, so that ad4j generates the derivatives this call"
        + " needs").inFile(file).onLine(9).atColumn(call(lines.get(8), "open"));
    // a private method of the method's own class becomes a callee when annotated
    assertThat(compilation).hadErrorContaining("which ad4j cannot differentiate: annotate"
        + " 'F.hidden' with @Differentiable, so that ad4j generates the derivatives this call"
        + " needs")
        .inFile(file).onLine(10).atColumn(call(lines.get(9), "hidden"));
    assertThat(compilation).hadErrorContaining("'F.deep' is not a @Differentiable method, and"
        + " annotating it would not help: its parameter 't' has type 'double[][][]': ad4j"
        + " differentiates 'double', 'float', 'double[]', 'float[]' and 'double[][]' parameters;"
        + " mark an array of a higher rank @NoDerivative")
        .inFile(file).onLine(11).atColumn(call(lines.get(10), "deep"));
  }

  @Test
  void anAssignmentInsideAConditionInitializesTheLocal() {
    Compilation compilation = InProcessCompiler.compileUnchecked("com.example.F", String.join(
        "\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x) {",
        "    double a;",
        "    if ((a = x * x) > 1) { return a; }",
        "    return a * x;",
        "  }",
        "}"));
    CompiledFunction f = InProcessCompiler.loaded(compilation).function("com.example.F", "f", 1);
    DerivativeChecks.checkAt(f, 0.5);
    DerivativeChecks.checkAt(f, 1.5);
    assertThat(f.gradient(0.5)[0]).isWithin(1e-15).of(3 * 0.25);
  }
}
