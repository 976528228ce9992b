package ad4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * A local array of values that carry no derivative ({@code double[] c = {1.0, 2.0}}), never
 * written nor bound to another variable, carries none either (issue 36): it goes to a
 * {@code @DerivativeOf} target with a rule for the other arguments only, to a
 * {@code @NoDerivative} parameter, and to a {@code @Differentiable} method's array parameter;
 * so does such an array made as a call's argument ({@code new double[] {0.5, 1.5}}).
 * Checked against differences of the user's own method, forward against reverse. Written
 * after it is made, it carries derivatives as before.
 */
class ConstantLocalArraysTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Constants {",
      "  static double weighted(double[] w, double x) {",
      "    double s = 0;",
      "    for (double v : w) s += v * Math.sin(x);",
      "    return s;",
      "  }",
      "  @DerivativeOf(value = \"weighted\", wrt = \"x\")",
      "  static double weightedX(double[] w, double x) {",
      "    double s = 0;",
      "    for (double v : w) s += v * Math.cos(x);",
      "    return s;",
      "  }",
      "  @Differentiable static double loss(double[] p, @NoDerivative double[] labels) {",
      "    double s = 0;",
      "    for (int i = 0; i < p.length; i++) s += labels[i] * Math.log(p[i]);",
      "    return -s;",
      "  }",
      "  @Differentiable static double product(double[] a) { return a[0] * a[1]; }",
      "  @Differentiable static double entry(double x) {",
      "    double[] c = {1.0, 2.0};",
      "    double[] labels = new double[] {1, 0.5};",
      "    double[] d = {3.0, Math.PI};",
      "    return weighted(c, x) * x + loss(new double[] {x * x, Math.exp(x)}, labels)",
      "        + product(d) * x + c.length + weighted(new double[] {0.5, 1.5}, x * x)",
      "        + loss(new double[] {Math.exp(x)}, new double[] {2});",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Constants",
          SOURCE));

  @ParameterizedTest
  @ValueSource(doubles = {0.7, 1.9})
  void constantArraysGoWhereArraysCarryingNoDerivativeGo(double x) {
    DerivativeChecks.checkAt(COMPILED.get().function("com.example.Constants", "entry", 1), x);
  }

  /** Found by ArrayCopyMessagesTest: library calls that ad4j writes as element stores. */
  private static final String WRITTEN_BY_CALLS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Copied {",
      "  @Differentiable static double entry(double x) {",
      "    double[] y = new double[3];",
      "    System.arraycopy(new double[] {x, x * x}, 0, y, 1, 2);",
      "    double[] z = {1.0, 2.0};",
      "    java.util.Arrays.fill(z, Math.sin(x));",
      "    return y[1] * y[2] + z[0] * y.length;",
      "  }",
      "}");

  @ParameterizedTest
  @ValueSource(doubles = {0.7, 1.9})
  void anArrayThatArraycopyOrFillWritesCarriesDerivatives(double x) {
    DerivativeChecks.checkAt(InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Copied", WRITTEN_BY_CALLS).function("com.example.Copied", "entry", 1), x);
  }

  @Test
  void anArrayWrittenAfterItIsMadeStillCarriesDerivatives() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Written",
        String.join("\n",
            "package com.example;",
            "import ad4j.DerivativeOf;",
            "import ad4j.Differentiable;",
            "final class Written {",
            "  static double weighted(double[] w, double x) { return w[0] * x; }",
            "  @DerivativeOf(value = \"weighted\", wrt = \"x\")",
            "  static double weightedX(double[] w, double x) { return w[0]; }",
            "  @Differentiable static double f(double x) {",
            "    double[] c = {1.0, 2.0};",
            "    c[1] = x;",
            "    return weighted(c, x);",
            "  }",
            "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("call to 'weighted(...)': parameter 'w' of"
        + " 'Written.weighted' receives a value carrying a derivative, but 'Written.weighted'"
        + " has @DerivativeOf rules only for 'x'").inFile(file).onLine(11);
    assertThat(compilation).hadErrorCount(1);
  }
}
