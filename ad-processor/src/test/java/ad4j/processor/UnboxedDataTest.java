package ad4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import java.util.Map;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Boxes of data unboxed where Java unboxes them ({@code Unboxing}): a {@code List<Double>} and
 * a {@code Map<String, Double>} of data read in arithmetic, comparisons, a primitive local, a
 * cast, a {@code Math} function's argument and a compound assignment, with {@code ==} of two
 * boxes still comparing references. Each was the error "operator '*' cannot be applied to
 * 'double' and 'Double'" (or "a value of type 'Object' cannot be assigned to 'double'").
 * Checked by {@link ArrayFunctionChecks} (value bit for bit, differences of the user's method,
 * forward against reverse, the pullback); the generated code compiles under
 * {@code -Xlint:all -Werror}. A box made from a value that carries a derivative stays an error
 * where its number comes back.
 */
@ExtendWith(TapeIsEmpty.class)
class UnboxedDataTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Fit",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.List;",
              "import java.util.Map;",
              "final class Fit {",
              "  @Differentiable static double loss(double a, double b,",
              "      @NoDerivative List<Double> xs, @NoDerivative List<Double> ys,",
              "      @NoDerivative Map<String, Double> w) {",
              "    double s = 0;",
              "    for (int i = 0; i < xs.size(); i++) {",
              "      double r = a * xs.get(i) + b - ys.get(i);",
              "      s += w.getOrDefault(\"weight\", 1.0) * r * r;",
              "      if (xs.get(i) == ys.get(i)) { s += 100; }",
              "      if (xs.get(i) > a) { s += Math.exp(-xs.get(i) * b); }",
              "    }",
              "    double first = xs.get(0);",
              "    s += first * a + (double) ys.get(1) * b - xs.get(2) * a * b;",
              "    s += w.get(\"k\");",
              "    return s;",
              "  }",
              "  static final List<Double> WEIGHTS = List.of(0.5, 1.25);",
              "  /** A method of a static field's object: its type argument gives the box. */",
              "  @Differentiable static double weighted(double a, double b) {",
              "    return a * WEIGHTS.get(1) + Math.sin(b * WEIGHTS.get(0));",
              "  }",
              "}")));

  @Test
  void boxesOfDataAreReadAsNumbers() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Fit");
    List<Double> xs = List.of(1.0, 2.0, 3.0, 4.5);
    // equal values in distinct boxes: '==' compares the boxes, as Java does, and adds nothing
    List<Double> ys = List.of(2.1, Double.valueOf(2000.0 / 1000), 6.2, 8.8);
    Map<String, Double> w = Map.of("k", 0.5, "weight", 2.0);
    for (double[] p : new double[][] {{1.3, 0.7}, {-0.4, 1.2}, {2.5, -0.3}}) {
      checks.check(new Call("loss", new Object[] {p[0], p[1], xs, ys, w}, true, true, false,
          false, false));
    }
  }

  @Test
  void boxesOfAStaticFieldsListAreReadAsNumbers() throws Exception {
    // was "call to 'WEIGHTS.get(...)' returns 'E'": the method's type as declared, not as a
    // member of List<Double>
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Fit");
    for (double[] p : new double[][] {{1.3, 0.7}, {-0.4, 1.2}}) {
      checks.check(new Call("weighted", new Object[] {p[0], p[1]}, true, true));
    }
  }

  /**
   * A {@code Double} parameter is an object, so data (DESIGN.md: parameters of every other type
   * than the differentiable ones are inactive and keep their places in every signature), as
   * it was before boxes were unboxed: unboxed in arithmetic, it takes no slot; passed along to
   * a call run as written, it is the object it was.
   */
  @Test
  void aDoubleParameterIsDataAsAnyObjectParameterIs() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Boxed", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Boxed {",
            "  static double clipped(Double tolerance, double v) {",
            "    return Math.max(v, tolerance.doubleValue());",
            "  }",
            "  @Differentiable static double f(Double x, double y) {",
            "    return x * y * y + clipped(x, 0.5) * y;",
            "  }",
            "}"));
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(compiled, "com.example.Boxed");
    for (double[] p : new double[][] {{1.3, 0.7}, {-0.4, 1.2}}) {
      checks.check(new Call("f", new Object[] {p[0], p[1]}, false, true));
    }
  }

  /**
   * A switch on an {@code Integer} box of data unboxes it, as Java does: it was the error
   * "'switch' on a 'java.lang.Integer' is not supported".
   */
  @Test
  void aSwitchOnAnIntegerBoxUnboxesIt() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Cases", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "import ad4j.NoDerivative;",
            "import java.util.List;",
            "final class Cases {",
            "  @Differentiable static double f(double a, double b,",
            "      @NoDerivative List<Integer> ks) {",
            "    double s = 0;",
            "    for (int i = 0; i < ks.size(); i++) {",
            "      switch (ks.get(i)) {",
            "        case 1 -> s += a;",
            "        case 2 -> s += a * b;",
            "        default -> s += b * b;",
            "      }",
            "    }",
            "    Integer k = ks.get(1);",
            "    return s + switch (k) { case 2 -> a * a; default -> b; };",
            "  }",
            "}"));
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(compiled, "com.example.Cases");
    for (double[] p : new double[][] {{1.3, 0.7}, {-0.4, 1.2}}) {
      checks.check(new Call("f", new Object[] {p[0], p[1], List.of(1, 2, 3)}, true, true,
          false));
      checks.check(new Call("f", new Object[] {p[0], p[1], List.of(2, 5)}, true, true,
          false));
    }
  }

  @Test
  void aBoxMadeFromAValueThatCarriesADerivativeIsAnErrorWhereItsNumberComesBack() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.ArrayList;",
        "import java.util.List;",
        "final class F {",
        "  @Differentiable static double f(double a, double b) {",
        "    List<Double> l = new ArrayList<Double>();",
        "    l.add(a * b);",
        "    return l.get(0) * a;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("'l.get(0) * a' depends on 'a * b' through"
        + " 'List.add' (line 8), which carries no derivative, and reaches a value that carries a"
        + " derivative").inFile(file).onLine(9).atColumn(lines.get(8).indexOf("* a") + 1);
  }
}
