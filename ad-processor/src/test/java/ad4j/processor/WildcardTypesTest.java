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
import java.util.Map;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Data held in types with wildcard arguments ({@code List<? extends Number>}, {@code
 * Collection<? extends Sample>}, {@code Map<String, ? extends List<Double>>}, {@code List<?>}),
 * as library code declares its parameters: locals of such types, enhanced {@code for} loops and
 * streams over them, and calls on them, whose results are used as javac's capture conversion
 * lets code use them ({@code get} of a {@code List<? extends Number>} is a {@code Number}).
 * Before, a local of such a type was the error "cannot find the type", and a loop's variable
 * the error "whose elements are '? extends java.lang.Number', cannot have type
 * 'java.lang.Number'". Checked against differences of the user's own methods, forward against
 * reverse and the pullback ({@link ArrayFunctionChecks}), a call's result that holds a
 * captured wildcard inside a type argument too ({@code entrySet()}); a value that carries a derivative
 * put into such a list stays the error where it comes back.
 */
@ExtendWith(TapeIsEmpty.class)
class WildcardTypesTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Fits",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.Collection;",
              "import java.util.List;",
              "import java.util.Map;",
              "final class Fits {",
              "  record Sample(double x, double w) {}",
              "  @Differentiable static double numbers(double a,",
              "      @NoDerivative List<? extends Number> xs) {",
              "    double t = 0;",
              "    for (Number v : xs) {",
              "      t += Math.sin(a * v.doubleValue());",
              "    }",
              "    List<? extends Number> ys = xs;",
              "    return t + ys.size() * a + ys.get(1).doubleValue() * a * a;",
              "  }",
              "  @Differentiable static double samples(double a, double b,",
              "      @NoDerivative Collection<? extends Sample> data) {",
              "    double loss = 0;",
              "    for (Sample s : data) {",
              "      double r = s.w() - a * Math.exp(b * s.x());",
              "      loss += r * r;",
              "    }",
              "    return loss + data.stream().mapToDouble(s -> s.w() * a * b).sum();",
              "  }",
              "  @Differentiable static double table(double a,",
              "      @NoDerivative Map<String, ? extends List<Double>> m, @NoDerivative List<?> keys) {",
              "    double t = 0;",
              "    for (Object k : keys) {",
              "      List<Double> row = m.get(k.toString());",
              "      t += row.get(0) * Math.cos(a * row.get(1));",
              "    }",
              "    return t;",
              "  }",
              // a call whose result holds the captured wildcard inside a type argument:
              // 'entrySet()' is a Set<Entry<String, CAP#1>>, held as a Set<? extends
              // Entry<String, ? extends List<Double>>> (it was a Set<Entry<String, ? extends
              // List<Double>>>, and generated code did not compile)
              "  @Differentiable static double entries(double a, double b,",
              "      @NoDerivative Map<String, ? extends List<Double>> m) {",
              "    double t = 0;",
              "    for (Map.Entry<String, ? extends List<Double>> e : m.entrySet()) {",
              "      for (double v : e.getValue()) {",
              "        t = t * a + v * b * e.getKey().length();",
              "      }",
              "    }",
              "    return t + m.entrySet().stream().mapToDouble(e -> e.getValue().get(0) * a).sum();",
              "  }",
              "}")));

  @Test
  void dataInTypesWithWildcardsIsReadAsJavaReadsIt() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Fits");
    Class<?> sample = COMPILED.get().load("com.example.Fits$Sample");
    var make = sample.getDeclaredConstructor(double.class, double.class);
    make.setAccessible(true);
    List<Object> data = new ArrayList<>();
    double[][] points = {{0.1, 1.2}, {0.5, 0.7}, {-0.8, 2.1}};
    for (double[] p : points) {
      data.add(make.newInstance(p[0], p[1]));
    }
    List<Integer> ints = List.of(2, -1, 3);
    List<Double> doubles = List.of(0.25, 1.5);
    Map<String, List<Double>> m = Map.of("u", List.of(0.5, 2.0), "v", List.of(-1.0, 0.3));
    for (double a : new double[] {0.7, -1.3}) {
      checks.check(new Call("numbers", new Object[] {a, ints}, true, false));
      checks.check(new Call("numbers", new Object[] {a, doubles}, true, false));
      checks.check(new Call("samples", new Object[] {a, 0.4, data}, true, true, false));
      checks.check(new Call("table", new Object[] {a, m, List.of("u", "v", "u")}, true, false,
          false));
      Map<String, List<Double>> ordered = new java.util.LinkedHashMap<>();
      ordered.put("ab", List.of(1.5, 2.0));
      ordered.put("c", List.of(3.0, -0.5));
      checks.check(new Call("entries", new Object[] {a, 0.4, ordered}, true, true, false));
    }
  }

  @Test
  void aDerivativePutIntoSuchAListStaysAnErrorWhereItComesBack() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.List;",
        "final class F {",
        "  @Differentiable static double h(double a, @NoDerivative List<Double> buf) {",
        "    List<? super Double> out = buf;",
        "    out.add(a * a);",
        "    List<? extends Double> back = buf;",
        "    return back.get(back.size() - 1) * 3;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("'back.get(back.size() - 1) * 3' depends on"
        + " 'a * a' through 'List.add' (line 8), which carries no derivative, and reaches the"
        + " result: its derivative would be silently wrong").inFile(file).onLine(10);
  }
}
