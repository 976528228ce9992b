package ad4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A value record local given a record by code run as written ({@code Point p =
 * points.get(i)}, {@code Point p = table[i]}) or by an enhanced {@code for} over a list of
 * records: an object, as a {@code @NoDerivative} record parameter is, its components read
 * through its accessors where the method reads them, its methods called as written or
 * inlined (a method given a value that carries a derivative). Each was the error "'points.get(i)'
 * cannot initialize value record local 'p'". Checked against differences of the user's
 * method, forward against reverse and the pullback ({@link ArrayFunctionChecks}), order 2 by
 * {@link HessianChecks}; the generated code compiles under {@code -Xlint:all -Werror}. A record
 * that a call run as written made of a value that carries a derivative is the error where
 * that value comes back.
 */
@ExtendWith(TapeIsEmpty.class)
class RecordsFromDataTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Fit",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.List;",
              "final class Fit {",
              "  record Point(double x, double y) {",
              "    Point scaled(double k) { return new Point(k * x, k * y); }",
              "    double norm2() { return x * x + y * y; }",
              "  }",
              "  static final Point[] TABLE = {new Point(1, 2), new Point(-0.5, 0.3),",
              "      new Point(2.5, 4)};",
              "  @Differentiable static double fromList(double a, double b,",
              "      @NoDerivative List<Point> points) {",
              "    double s = 0;",
              "    for (int i = 0; i < points.size(); i++) {",
              "      Point p = points.get(i);",
              "      double r = a * p.x() + b - p.y();",
              "      s += r * r + p.norm2() * a + p.scaled(b).x() * a;",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable static double walked(double a, double b,",
              "      @NoDerivative List<Point> points) {",
              "    double s = 0;",
              "    for (Point p : points) {",
              "      double r = Math.sin(a * p.x()) + b - p.y();",
              "      s += r * r;",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable(order = 2) static double fromTable(double a, double b) {",
              "    double s = 0;",
              "    for (int i = 0; i < TABLE.length; i++) {",
              "      Point p = TABLE[i];",
              "      double r = a * p.x() + b * b - p.y();",
              "      s += r * r * a;",
              "    }",
              "    return s;",
              "  }",
              "}")));

  @Test
  void recordsTakenFromAListAreObjects() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Fit");
    Class<?> point = COMPILED.get().load("com.example.Fit$Point");
    java.lang.reflect.Constructor<?> make = point.getDeclaredConstructor(double.class,
        double.class);
    make.setAccessible(true);
    List<Object> points = List.of(make.newInstance(1.0, 2.0), make.newInstance(-0.5, 0.3),
        make.newInstance(2.5, 4.0));
    for (double[] p : new double[][] {{0.4, 0.6}, {-1.3, 0.2}}) {
      checks.check(new Call("fromList", new Object[] {p[0], p[1], points}, true, true, false));
      checks.check(new Call("walked", new Object[] {p[0], p[1], points}, true, true, false));
    }
  }

  @Test
  void aRecordTakenFromATableAtOrderTwo() throws Exception {
    for (double[] p : new double[][] {{0.4, 0.6}, {-1.3, 0.2}}) {
      HessianChecks.checkAt(COMPILED.get().function("com.example.Fit", "fromTable", 2),
          COMPILED.get().load("com.example.FitGrad"), p);
    }
  }

  @Test
  void aRecordMadeByACallRunAsWrittenOfAValueThatCarriesADerivativeIsAnError() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record Point(double x, double y) {}",
        "  static Point make(double v) { return new Point(v, 2 * v); }",
        "  @Differentiable static double f(double a, double b) {",
        "    Point q = make(a);",
        "    return q.x() * b;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("'q.x()' depends on 'a' through 'F.make' (line"
        + " 7), which carries no derivative, and reaches a value that carries a derivative")
        .inFile(file).onLine(8).atColumn(lines.get(7).indexOf("* b") + 1);
  }
}
