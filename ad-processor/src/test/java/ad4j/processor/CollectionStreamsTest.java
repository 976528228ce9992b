package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Streams of a collection of data ({@code c.stream()}, lowered by {@code StreamLowering} over
 * {@code StreamSources}' collection source): its elements, objects or boxes, given to
 * {@code filter} and then to {@code mapToDouble} by lambdas whose parameter is the element
 * (or references to its methods without parameters, {@code Sample::weight},
 * {@code Double::doubleValue}), then the number stream's stages and ends as for arrays. The loop is Java's own over the
 * collection's iterator ({@code IterableLoops}). Each pipeline was the error "lambda
 * expression is not supported here". Checked by {@link ArrayFunctionChecks} (value bit for
 * bit, differences of the user's method, forward against reverse, the pullback); the
 * generated code compiles under {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class CollectionStreamsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Fit",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.Arrays;",
              "import java.util.List;",
              "import java.util.Set;",
              "import java.util.stream.IntStream;",
              "final class Fit {",
              "  record Sample(double x, double y, double weight) {}",
              "  @Differentiable static double loss(double a, double b,",
              "      @NoDerivative List<Sample> data) {",
              "    return data.stream()",
              "        .mapToDouble(s -> s.weight() * Math.pow(s.y() - a * s.x() - b, 2)).sum();",
              "  }",
              "  @Differentiable static double filtered(double a, double b,",
              "      @NoDerivative List<Sample> data, @NoDerivative List<Double> w,",
              "      @NoDerivative Set<Integer> k) {",
              "    double s = data.stream().filter(e -> e.x() > 0)",
              "        .mapToDouble(e -> e.weight() * (e.y() - a * e.x())).map(r -> r * r * b)",
              "        .sum();",
              "    s += w.stream().mapToDouble(v -> v).average().orElse(0) * a;",
              "    s += w.stream().mapToDouble(v -> Math.exp(v * a)).max().getAsDouble();",
              "    s += w.stream().filter(v -> v > 0).mapToDouble(v -> { double t = v * a;",
              "        return t * t; }).reduce(0, (x, y) -> x + y * b);",
              "    s += k.stream().mapToDouble(n -> n * a * b).sum() + w.stream().count() * a;",
              "    return s;",
              "  }",
              "  @Differentiable static double references(double a, double b,",
              "      @NoDerivative List<Sample> data, @NoDerivative List<Double> w) {",
              "    return data.stream().mapToDouble(Sample::weight).map(v -> v * a).sum()",
              "        + w.stream().mapToDouble(Double::doubleValue).map(v -> v * a * b).sum();",
              "  }",
              "  @Differentiable static double counted(double a, double b,",
              "      @NoDerivative List<Sample> data, double[] w) {",
              "    long n = data.stream().filter(e -> e.x() > a).count();",
              "    int big = (int) Arrays.stream(w).map(v -> v * b).filter(v -> v > 1).count();",
              "    long odd = IntStream.rangeClosed(1, 5).filter(i -> i % 2 == 1).count();",
              "    return n * a * b + big * w[0] * a + odd * b * b;",
              "  }",
              "  @Differentiable static double inLoop(double a, double b,",
              "      @NoDerivative List<Double> w) {",
              "    double s = 0;",
              "    for (int i = 1; i <= 3; i++) {",
              "      double k = i;",
              "      s = s * b + w.stream().mapToDouble(v -> Math.sin(v * a * k)).sum();",
              "    }",
              "    return s;",
              "  }",
              "}")));

  private static List<Object> samples() throws Exception {
    Class<?> sample = COMPILED.get().load("com.example.Fit$Sample");
    java.lang.reflect.Constructor<?> make = sample.getDeclaredConstructor(double.class,
        double.class, double.class);
    make.setAccessible(true);
    return List.of(make.newInstance(1.0, 2.0, 0.5), make.newInstance(-0.5, 0.3, 2.0),
        make.newInstance(2.5, 4.0, 1.0));
  }

  @Test
  void aListOfRecordsIsStreamed() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Fit");
    for (double[] p : new double[][] {{0.4, 0.6}, {-1.3, 0.2}}) {
      checks.check(new Call("loss", new Object[] {p[0], p[1], samples()}, true, true, false));
    }
  }

  @Test
  void filtersMapsAndEndsOfStreamsOfRecordsBoxesAndSets() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Fit");
    List<Double> w = List.of(0.5, 1.5, -0.25);
    Set<Integer> k = new TreeSet<>(List.of(3, 1, 2));
    for (double[] p : new double[][] {{0.4, 0.6}, {-1.3, 0.2}}) {
      checks.check(new Call("filtered", new Object[] {p[0], p[1], samples(), w, k}, true, true,
          false, false, false));
      checks.check(new Call("inLoop", new Object[] {p[0], p[1], w}, true, true, false));
      // an unbound reference to a method without parameters is applied to the element
      checks.check(new Call("references", new Object[] {p[0], p[1], samples(), w}, true, true,
          false, false));
    }
  }

  @Test
  void countAfterAFilterCountsWhatPasses() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Fit");
    // a = 0.7 passes two samples (x 1.0, 2.5), -1.3 all three; b * w passes 1 or 2 elements
    for (double[] p : new double[][] {{0.7, 0.6}, {-1.3, 2.2}}) {
      checks.check(new Call("counted", new Object[] {p[0], p[1], samples(),
          new double[] {1.5, 2.5, -0.4, 0.3}}, true, true, false, true));
    }
  }

  @Test
  void theCollectionIsWalkedOnceByEveryMember() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Counted", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "import ad4j.NoDerivative;",
            "import java.util.AbstractList;",
            "import java.util.List;",
            "public final class Counted {",
            "  public static int reads;",
            "  public static final class Counting extends AbstractList<Double> {",
            "    private final List<Double> values;",
            "    public Counting(List<Double> values) { this.values = values; }",
            "    @Override public Double get(int i) { reads++; return values.get(i); }",
            "    @Override public int size() { return values.size(); }",
            "  }",
            "  @Differentiable public static double f(double a, double b,",
            "      @NoDerivative Counting xs) {",
            "    return xs.stream().mapToDouble(x -> Math.sin(a * x) * b).sum();",
            "  }",
            "}"));
    Class<?> user = compiled.load("com.example.Counted");
    Class<?> counting = compiled.load("com.example.Counted$Counting");
    Class<?> generated = compiled.load("com.example.CountedGrad");
    Object xs = counting.getConstructor(List.class).newInstance(List.of(0.5, -1.25, 2.0));
    java.lang.reflect.Field reads = user.getField("reads");
    Class<?>[] parameters = {double.class, double.class, counting};
    Object[][] calls = {
        {user, "f", parameters, new Object[] {0.7, 1.3, xs}},
        {generated, "fGradient", parameters, new Object[] {0.7, 1.3, xs}},
        {generated, "fTangent",
            new Class<?>[] {double.class, double.class, counting, double.class, double.class},
            new Object[] {0.7, 1.3, xs, 1.0, -0.5}},
        {generated, "fPullback",
            new Class<?>[] {double.class, double.class, counting, double.class, double[].class},
            new Object[] {0.7, 1.3, xs, 1.0, new double[2]}}};
    for (Object[] call : calls) {
      reads.setInt(null, 0);
      ((Class<?>) call[0]).getDeclaredMethod((String) call[1], (Class<?>[]) call[2])
          .invoke(null, (Object[]) call[3]);
      assertThat(List.of(call[1], reads.getInt(null))).containsExactly(call[1], 3).inOrder();
    }
    ArrayFunctionChecks.of(compiled, "com.example.Counted").check(
        new Call("f", new Object[] {0.7, 1.3, xs}, true, true, false));
  }

  @Test
  void whatIsNotLoweredIsAnErrorAtItsPlace() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.ArrayList;",
        "import java.util.List;",
        "final class F {",
        "  record P(double x) {}",
        "  @Differentiable static double filled(double a, double b) {",
        "    List<Double> l = new ArrayList<Double>();",
        "    l.add(a * b);",
        "    return l.stream().mapToDouble(v -> v * a).sum();",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double second(double a, double b, @NoDerivative List<Double> w) {",
        "    return w.stream().mapToDouble(v -> v * a * b).sum();",
        "  }",
        "  @Differentiable static double mapped(double a, @NoDerivative List<P> d) {",
        "    return d.stream().map(p -> p.x()).mapToDouble(v -> v * a).sum();",
        "  }",
        "  @Differentiable static double counted(double a, @NoDerivative List<P> d) {",
        "    return a * d.stream().mapToDouble(p -> p.x() * a).count();",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(4);
    assertThat(compilation).hadErrorContaining("'v * a' depends on 'a * b' through 'List.add'"
        + " (line 10), which carries no derivative, and reaches a value that carries a"
        + " derivative").inFile(file).onLine(11).atColumn(lines.get(10).indexOf("* a") + 1);
    assertThat(compilation).hadErrorContaining("the stream 'w.stream()' runs its iterator as"
        + " written ('w.iterator()', then 'hasNext()' and 'next()'), which may give other"
        + " elements each time it runs: mHessian and mValueGradientAndHessian of 'second'")
        .inFile(file).onLine(15).atColumn(lines.get(14).indexOf("()") + 1);
    assertThat(compilation).hadErrorContaining("stream operation 'map' of Stream is not"
        + " supported").inFile(file).onLine(18).atColumn(lines.get(17).indexOf("(p ->") + 1);
    // Stream.count may count a sized source without running the stages
    assertThat(compilation).hadErrorContaining("'count()' is lowered after a 'filter' only:"
        + " without one, the JDK may count the source's elements without running the stages;"
        + " use the source's size ('c.size()', 'a.length')").inFile(file).onLine(21)
        .atColumn(lines.get(20).lastIndexOf("(") + 1);
  }
}
