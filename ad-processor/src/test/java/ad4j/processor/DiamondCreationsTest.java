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
 * A diamond whose type arguments the declared type of the local it initializes decides
 * ({@code List<Double> xs = new ArrayList<>()}, {@code Map<String, Double> m = new
 * HashMap<>()}, a class of the sources that passes its parameter to a supertype in another
 * position): an object that carries no derivative, made as written. It was the error "ad4j
 * creates objects of generic classes only with their type arguments written out". Checked
 * against differences of the user's method, forward against reverse and the pullback
 * ({@link ArrayFunctionChecks}); the generated code compiles under {@code -Xlint:all -Werror}.
 * A value that carries a derivative put into such a collection is the error where it comes
 * back, and a diamond nothing decides stays an error at the {@code new}.
 */
@ExtendWith(TapeIsEmpty.class)
class DiamondCreationsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Weights",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.ArrayList;",
              "import java.util.HashMap;",
              "import java.util.List;",
              "import java.util.Map;",
              "import java.util.TreeMap;",
              "final class Weights {",
              "  /** Keyed by name, its value type second: V is Map's second argument. */",
              "  static final class Named<V> extends TreeMap<String, V> {",
              "    private static final long serialVersionUID = 1L;",
              "  }",
              "  @Differentiable static double weighted(double a, double b,",
              "      @NoDerivative Map<String, Double> given) {",
              "    Map<String, Double> w = new HashMap<>(given);",
              "    w.put(\"c\", 0.25);",
              "    List<Double> order = new ArrayList<>(w.values());",
              "    double s = 0;",
              "    for (int i = 0; i < order.size(); i++) {",
              "      s += order.get(i) * Math.sin(a * (i + 1)) + w.getOrDefault(\"b\", 1.0) * b * b;",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable static double named(double a, @NoDerivative double k) {",
              "    Map<String, List<Double>> byName = new Named<>();",
              "    List<Double> ks = new ArrayList<>();",
              "    ks.add(k);",
              "    ks.add(2 * k);",
              "    byName.put(\"k\", ks);",
              "    double s = 0;",
              "    for (double v : byName.get(\"k\")) {",
              "      s += v * a * a;",
              "    }",
              "    return s;",
              "  }",
              "}")));

  @Test
  void collectionsMadeByADiamondAreObjectsMadeAsWritten() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Weights");
    Map<String, Double> given = Map.of("a", 1.5, "b", -0.5);
    for (double[] p : new double[][] {{0.4, 0.6}, {-1.3, 0.2}}) {
      checks.check(new Call("weighted", new Object[] {p[0], p[1], given}, true, true, false));
      checks.check(new Call("named", new Object[] {p[0], p[1]}, true, false));
    }
  }

  @Test
  void aDerivativePutIntoACollectionMadeByADiamondIsAnErrorWhereItComesBack() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.HashMap;",
        "import java.util.Map;",
        "final class F {",
        "  @Differentiable static double f(double x) {",
        "    Map<String, Double> m = new HashMap<>();",
        "    m.put(\"a\", x);",
        "    return m.get(\"a\") * x;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("'m.get(\"a\") * x' depends on 'x' through"
        + " 'Map.put' (line 8), which carries no derivative, and reaches a value that carries a"
        + " derivative").inFile(file).onLine(9).atColumn(lines.get(8).indexOf("* x") + 1);
  }

  @Test
  void aDiamondNoDeclaredTypeDecidesIsAnErrorAtTheNew() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.ArrayList;",
        "import java.util.Map;",
        "import java.util.TreeMap;",
        "final class F {",
        "  static final class Tagged<K, T> extends TreeMap<K, Double> {",
        "    private static final long serialVersionUID = 1L;",
        "  }",
        "  @Differentiable static double f(double x) {",
        "    var xs = new ArrayList<>();",
        "    Map<String, Double> m = new Tagged<>();",
        "    return x * xs.size() + x * m.size();",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("'new ArrayList<>()' is not supported here: ad4j"
        + " infers a diamond's type arguments only from the declared type of the local it"
        + " initializes ('List<Double> xs = new ArrayList<>()'); write them out ('new"
        + " ArrayList<...>(...)')").inFile(file).onLine(11)
        .atColumn(lines.get(10).indexOf("new") + 1);
    assertThat(compilation).hadErrorContaining("'new Tagged<>()' is not supported here")
        .inFile(file).onLine(12).atColumn(lines.get(11).indexOf("new") + 1);
  }
}
