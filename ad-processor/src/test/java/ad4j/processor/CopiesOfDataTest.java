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
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A clone or a copy ({@code Arrays.copyOf}, {@code copyOfRange}) of an array that carries no
 * derivative, bound to a local that is only read, carries none either: code run as written may
 * sort it ({@code double[] s = xs.clone(); Arrays.sort(s);} of a {@code @NoDerivative xs}, the
 * first lines of a median or a trimmed mean). It was the error "passes 's', an array that
 * carries derivatives, to 'Arrays.sort'", as every local copy was taken to carry derivatives.
 * Checked against differences of the user's own methods, values bit for bit, forward against
 * reverse and the pullback ({@link ArrayFunctionChecks}), with reads of the array before and
 * after the sort, in a loop whose reverse sweep needs what each iteration read. What stays an
 * error: a copy of an array that carries derivatives given to such a call; a value that carries
 * a derivative written into the copy by a method run as written, where it is read back; and the
 * sort in members that would run it once per sweep.
 */
@ExtendWith(TapeIsEmpty.class)
class CopiesOfDataTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Ranks",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.Arrays;",
              "final class Ranks {",
              "  @Differentiable static double sortedFit(double a, double b,",
              "      @NoDerivative double[] xs) {",
              "    double[] s = xs.clone();",
              "    Arrays.sort(s);",
              "    double loss = 0;",
              "    for (int i = 0; i < s.length; i++) {",
              "      double r = s[i] - (a + b * i);",
              "      loss += r * r * Math.exp(-0.1 * a * s[i]);",
              "    }",
              "    return loss;",
              "  }",
              "  @Differentiable static double trimmed(double a, @NoDerivative double[] xs) {",
              "    double[] s = Arrays.copyOfRange(xs, 1, xs.length);",
              "    Arrays.sort(s);",
              "    return weighted(s, a) + Math.sin(a * s[0]);",
              "  }",
              "  @Differentiable static double weighted(double[] w, double a) {",
              "    double t = 0;",
              "    for (double v : w) {",
              "      t += v * Math.cos(a * v);",
              "    }",
              "    return t;",
              "  }",
              "  /** Reads s[0] before the sort and after: the derivative needs the first. */",
              "  @Differentiable static double beforeAndAfter(double a, @NoDerivative double[] xs) {",
              "    double[] s = Arrays.copyOf(xs, xs.length);",
              "    double t = Math.sin(a * s[0]);",
              "    Arrays.sort(s);",
              "    return t * s[0] * a;",
              "  }",
              "  /** Sorts a longer prefix each iteration: the reverse sweep needs each s[0]. */",
              "  @Differentiable static double prefixSorts(double a, @NoDerivative double[] xs) {",
              "    double[] s = xs.clone();",
              "    double acc = 0;",
              "    for (int i = 0; i < s.length; i++) {",
              "      acc += Math.sin(a * s[0]) * s[i];",
              "      Arrays.sort(s, 0, i + 1);",
              "    }",
              "    return acc;",
              "  }",
              "}")));

  @Test
  void copiesOfDataMayBeSortedAndRead() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Ranks");
    double[][] data = {{3.0, 1.0, 2.0, 0.5}, {-0.4, 2.5, 0.1, 1.7, -1.2}};
    for (double[] xs : data) {
      for (double[] p : new double[][] {{0.7, -0.3}, {-1.1, 0.4}}) {
        checks.check(new Call("sortedFit", new Object[] {p[0], p[1], xs.clone()}, true, true,
            false));
        checks.check(new Call("trimmed", new Object[] {p[0], xs.clone()}, true, false));
        checks.check(new Call("beforeAndAfter", new Object[] {p[0], xs.clone()}, true, false));
        checks.check(new Call("prefixSorts", new Object[] {p[0], xs.clone()}, true, false));
      }
    }
  }

  @Test
  void whatCouldLoseADerivativeStaysAnError() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.Arrays;",
        "final class F {",
        "  static void put(double[] s, double v) { s[0] = v; }",
        "  @Differentiable static double active(double[] w) {",
        "    double[] s = w.clone();",
        "    Arrays.sort(s);",
        "    return s[0];",
        "  }",
        "  @Differentiable static double laundered(double a, @NoDerivative double[] xs) {",
        "    double[] s = xs.clone();",
        "    put(s, a);",
        "    return s[0] * a;",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double median(double a, @NoDerivative double[] xs) {",
        "    double[] s = xs.clone();",
        "    Arrays.sort(s);",
        "    return a * a * s[s.length / 2];",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(3);
    assertThat(compilation).hadErrorContaining("call to 'Arrays.sort(...)' passes 's', an array"
        + " that carries derivatives, to 'Arrays.sort', which ad4j would run as written and which"
        + " could write into it").inFile(file).onLine(9);
    assertThat(compilation).hadErrorContaining("'s[0]' depends on 'a' through 'F.put' (line"
        + " 14), which carries no derivative, and reaches a value that carries a derivative")
        .inFile(file).onLine(15).atColumn(lines.get(14).indexOf("* a") + 1);
    assertThat(compilation).hadErrorContaining("call to 'Arrays.sort(...)' runs as written and"
        + " may give another result or do something again each time it runs: mHessian and"
        + " mValueGradientAndHessian of 'median' make one sweep per slot and would run it once"
        + " per sweep").inFile(file).onLine(20);
  }
}
