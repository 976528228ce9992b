package ad4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A box of data ({@code xs.get(i)} of a {@code @NoDerivative List<Double>}, an
 * {@code Integer} of a list of them, a loop's {@code Double} variable) given where a number is
 * taken, which Java unboxes: a value record's component ({@code new Pt(xs.get(i), y)}), an
 * element of an array initializer ({@code {xs.get(0), a}}), the argument of a function value
 * ({@code f.applyAsDouble(xs.get(i))}), of a method taking a function that ad4j inlines
 * ({@code sumOver(v -> ..., xs.get(0))}) and of a value record's inlined method
 * ({@code p.scaled(xs.get(1))}). Each was the error "a value of type 'Object' cannot be
 * assigned to 'double'". Checked against differences of the user's method, forward against
 * reverse and the pullback ({@link ArrayFunctionChecks}); the generated code compiles under
 * {@code -Xlint:all -Werror}. A box made of a value that carries a derivative stays the error
 * where its number comes back. So is a number stored into a local of a box type ({@code
 * Double d = xs.get(0); d += a;}), an error that says to declare the local primitive, where it
 * was "operator '+' needs numeric operands" (and, for {@code d = d * a}, "a value of type
 * 'double' cannot be assigned to 'Object'"), each followed by errors at the local's later uses.
 */
@ExtendWith(TapeIsEmpty.class)
class BoxesGivenForNumbersTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Boxes",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.List;",
              "import java.util.function.DoubleBinaryOperator;",
              "import java.util.function.DoubleUnaryOperator;",
              "final class Boxes {",
              "  record Pt(double x, double y) {",
              "    @Differentiable double wave(double a) { return Math.sin(a * x) * y; }",
              "    double scaled(double k) { return k * x + y; }",
              "  }",
              "  @Differentiable static double weighted(DoubleUnaryOperator f, double w) {",
              "    return f.applyAsDouble(w) * w;",
              "  }",
              "  @Differentiable static double records(double a, @NoDerivative List<Double> xs,",
              "      @NoDerivative List<Integer> ks) {",
              "    Pt p = new Pt(xs.get(0), a * 2);",
              "    Pt q = new Pt(ks.get(0), a);",
              "    double s = p.x() * p.y() + p.wave(a) + p.scaled(xs.get(1)) * a + q.x() * q.y();",
              "    for (int i = 0; i < xs.size(); i++) {",
              "      Pt r = new Pt(xs.get(i), s + a);",
              "      s = r.wave(a) + r.x() * r.y();",
              "    }",
              "    for (Double v : xs) {",
              "      Pt r = new Pt(v, s * a);",
              "      s = r.wave(a) * 0.5 + r.y();",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable static double arrays(double a, @NoDerivative List<Double> xs,",
              "      @NoDerivative List<Integer> ks) {",
              "    double[] r = {xs.get(0), a, ks.get(1)};",
              "    int[] n = {ks.get(0), ks.get(1)};",
              "    double s = r[0] * r[1] * r[2] + n[1] * a;",
              "    for (int i = 0; i < xs.size(); i++) {",
              "      double[] t = {s, xs.get(i), a};",
              "      s = Math.sin(t[0] * t[1]) + t[1] * t[2];",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable static double functions(double a, @NoDerivative List<Double> xs) {",
              "    DoubleUnaryOperator f = v -> Math.sin(a * v);",
              "    DoubleBinaryOperator g = (u, v) -> u * v * a;",
              "    double s = 0;",
              "    for (int i = 0; i < xs.size(); i++) {",
              "      s = s * 0.5 + f.applyAsDouble(xs.get(i)) + g.applyAsDouble(xs.get(i), s);",
              "    }",
              "    for (double x : xs) { s += weighted(v -> Math.cos(v * a), xs.get(0)) * x; }",
              "    return s + weighted(v -> v * a, xs.get(1));",
              "  }",
              "}")));

  @Test
  void boxesAreUnboxedWhereNumbersAreTaken() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Boxes");
    List<Double> xs = new ArrayList<>(List.of(0.5, -1.25, 2.0, 0.1));
    List<Integer> ks = List.of(3, -2);
    for (double a : new double[] {0.3, -0.8, 1.7}) {
      checks.check(new Call("records", new Object[] {a, xs, ks}, true, false, false));
      checks.check(new Call("arrays", new Object[] {a, xs, ks}, true, false, false));
      checks.check(new Call("functions", new Object[] {a, xs}, true, false));
    }
  }

  @Test
  void aBoxMadeOfAValueThatCarriesADerivativeIsAnErrorWhereItComesBack() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.ArrayList;",
        "import java.util.List;",
        "import java.util.function.DoubleUnaryOperator;",
        "final class F {",
        "  record Pt(double x, double y) {}",
        "  @Differentiable static double component(double a) {",
        "    List<Double> l = new ArrayList<>();",
        "    l.add(a * a);",
        "    double[] r = {l.get(0), 1};",
        "    return r[0] * a;",
        "  }",
        "  @Differentiable static double argument(double a) {",
        "    List<Double> l = new ArrayList<>();",
        "    l.add(a * a);",
        "    DoubleUnaryOperator f = v -> v * 2;",
        "    return f.applyAsDouble(l.get(0)) * a;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("'r[0]' depends on 'a * a' through 'List.add'"
        + " (line 10), which carries no derivative, and reaches a value that carries a"
        + " derivative").inFile(file).onLine(12).atColumn(lines.get(11).indexOf("* a") + 1);
    assertThat(compilation).hadErrorContaining("'v * 2' depends on 'a * a' through 'List.add'"
        + " (line 16), which carries no derivative, and reaches a value that carries a"
        + " derivative").inFile(file).onLine(18).atColumn(lines.get(17).lastIndexOf("* a") + 1);
  }

  @Test
  void aNumberStoredIntoABoxLocalIsAnErrorThatSaysToDeclareItPrimitive() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.List;",
        "final class F {",
        "  @Differentiable static double added(double a, @NoDerivative List<Double> xs) {",
        "    Double d = xs.get(0);",
        "    d += a;",
        "    return d;",
        "  }",
        "  @Differentiable static double assigned(double a, @NoDerivative List<Double> xs) {",
        "    Double d = xs.get(0);",
        "    d = d * a;",
        "    return d * a;",
        "  }",
        "  @Differentiable static double incremented(double a, @NoDerivative List<Integer> ks) {",
        "    Integer k = ks.get(0);",
        "    k++;",
        "    return k * a;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(3);
    String advice = "a box, and this stores a number into it: ad4j computes with numbers in"
        + " primitive locals, and a box (an object) carries no derivative; declare ";
    assertThat(compilation).hadErrorContaining("'d' is a local of type 'Double', " + advice
        + "'d' as 'double'").inFile(file).onLine(8).atColumn(lines.get(7).indexOf("+=") + 1);
    assertThat(compilation).hadErrorContaining("'d' is a local of type 'Double', " + advice
        + "'d' as 'double'").inFile(file).onLine(13).atColumn(lines.get(12).indexOf("=") + 1);
    assertThat(compilation).hadErrorContaining("'k' is a local of type 'Integer', " + advice
        + "'k' as 'int'").inFile(file).onLine(18).atColumn(lines.get(17).indexOf("++") + 1);
  }
}
