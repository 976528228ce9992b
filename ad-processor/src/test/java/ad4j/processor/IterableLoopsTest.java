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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The enhanced {@code for} over an {@code Iterable} of data ({@code IterableLoops}): a
 * {@code @NoDerivative List<Double>} walked with a {@code double}, {@code Double}, {@code var}
 * or {@code Number} variable, {@code Integer} and {@code Long} elements widened, a map's entry
 * set and key set, a set, copies made by copy constructors, a static field's list, a list of
 * {@code double[]} rows, and such a loop in a callee called from a loop whose sum the caller
 * returns (a caller whose tangent
 * needs both the callee's value and its tangent would walk the list twice, and is the error of
 * any callee that runs code as written). Each was the error "enhanced 'for' loop over 'w', of
 * type 'Object': only arrays can be walked". Checked by {@link ArrayFunctionChecks} (value bit
 * for bit, differences of the user's method, forward against reverse, the pullback); the
 * generated code compiles under {@code -Xlint:all -Werror}. A list the method filled with
 * values that carry derivatives is an error where they come back; members that would run the
 * iterator again (order 2, a vector function's Jacobian, a checkpointed loop) are errors at
 * the loop; so is a variable the elements cannot be given to.
 */
@ExtendWith(TapeIsEmpty.class)
class IterableLoopsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Walk",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.List;",
              "import java.util.Map;",
              "import java.util.Set;",
              "final class Walk {",
              "  static final List<Double> STEPS = List.of(0.5, 1.5, -0.25);",
              "  @Differentiable static double loss(double a, double b,",
              "      @NoDerivative List<Double> xs, @NoDerivative List<Integer> counts) {",
              "    double s = 0;",
              "    for (double x : xs) {",
              "      double r = a * x + b;",
              "      s += r * r;",
              "      if (x > a) { s += Math.exp(-x * b); }",
              "    }",
              "    for (Double x : xs) { s = s * 0.5 + x * a * b; }",
              "    for (var x : xs) { s += Math.sin(0.1 * x * s); }",
              "    for (Number x : xs) { s += x.doubleValue() * b; }",
              "    for (double c : counts) { s += c * a; }",
              "    for (long c : counts) { s *= 1 + c * 0.01 * b; }",
              "    for (double t : STEPS) { s += Math.cos(t * a); }",
              "    return s;",
              "  }",
              "  @Differentiable static double weighted(double a, double b,",
              "      @NoDerivative Map<String, Double> w, @NoDerivative Set<Double> knots) {",
              "    double s = 0;",
              "    for (Map.Entry<String, Double> e : w.entrySet()) {",
              "      s += e.getValue() * (e.getKey().startsWith(\"a\") ? a : b) * a;",
              "    }",
              "    for (String k : w.keySet()) { s += k.length() * b * b; }",
              "    for (double k : knots) { s += Math.abs(a - k) * b; }",
              "    return s;",
              "  }",
              "  @Differentiable static double rows(double a, double b,",
              "      @NoDerivative List<double[]> points) {",
              "    double s = 0;",
              "    for (double[] p : points) {",
              "      double r = a * p[0] + b - p[1];",
              "      s += r * r;",
              "    }",
              "    return s;",
              "  }",
              "  static final List<double[]> ROWS = List.of(new double[] {1, 2},",
              "      new double[] {-0.5, 3});",
              "  @Differentiable static double staticRows(double a, double b) {",
              "    double s = 0;",
              "    for (int i = 0; i < ROWS.size(); i++) {",
              "      double[] r = ROWS.get(i);",
              "      s += r[0] * a + r[1] * b;",
              "    }",
              "    for (double[] r : ROWS) { s += r[0] * a * b; }",
              "    return s;",
              "  }",
              "  @Differentiable static double copies(double a, double b,",
              "      @NoDerivative List<Double> xs) {",
              "    java.util.Set<Double> distinct = new java.util.TreeSet<Double>(xs);",
              "    List<Double> sorted = new java.util.ArrayList<Double>(xs);",
              "    java.util.Collections.sort(sorted);",
              "    double s = sorted.get(0) * a + distinct.size() * b;",
              "    for (double x : distinct) { s += x * x * a * b; }",
              "    return s;",
              "  }",
              "  @Differentiable static double softplusSum(double a, @NoDerivative List<Double> xs) {",
              "    double s = 0;",
              "    for (double x : xs) { s += Math.log1p(Math.exp(a * x)); }",
              "    return s;",
              "  }",
              "  @Differentiable static double calls(double a, double b,",
              "      @NoDerivative List<Double> xs) {",
              "    double s = 0;",
              "    for (int i = 1; i <= 3; i++) { s += softplusSum(a * i, xs); }",
              "    return s + b * b;",
              "  }",
              "}")));

  @Test
  void listsOfNumbersAreWalkedAsJavaWalksThem() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Walk");
    List<Double> xs = new ArrayList<>(List.of(1.0, -2.0, 0.75, 3.5));
    List<Integer> counts = List.of(3, 1, 4);
    for (double[] p : new double[][] {{1.3, 0.7}, {-0.4, 1.2}, {0.9, -0.3}}) {
      checks.check(new Call("loss", new Object[] {p[0], p[1], xs, counts}, true, true, false,
          false));
    }
  }

  @Test
  void mapsSetsAndRowsAreWalkedAsJavaWalksThem() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Walk");
    Map<String, Double> w = new LinkedHashMap<>();
    w.put("alpha", 0.5);
    w.put("beta", 2.0);
    w.put("ab", -1.5);
    Set<Double> knots = new TreeSet<>(List.of(-1.0, 0.25, 2.0));
    List<double[]> points = List.of(new double[] {1, 2}, new double[] {-0.5, 0.3},
        new double[] {2.5, 4});
    for (double[] p : new double[][] {{1.3, 0.7}, {-0.4, 1.2}, {0.9, -0.3}}) {
      checks.check(new Call("weighted", new Object[] {p[0], p[1], w, knots}, true, true, false,
          false));
      checks.check(new Call("rows", new Object[] {p[0], p[1], points}, true, true, false));
    }
  }

  /**
   * Rows of a {@code static final List<double[]>}, read by {@code get} and walked: its
   * {@code get} was "returns 'E'", the method's type as declared, where as a member of the
   * field's type it returns a {@code double[]} of data.
   */
  @Test
  void rowsOfAStaticFieldsListAreData() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Walk");
    for (double[] p : new double[][] {{1.3, 0.7}, {-0.4, 1.2}}) {
      checks.check(new Call("staticRows", new Object[] {p[0], p[1]}, true, true));
    }
  }

  /**
   * Copies made with a collection's copy constructor, whose parameter is a
   * {@code Collection<? extends E>} of the type's own {@code E}: that constructor was not found
   * ("ad4j finds no constructor of 'TreeSet' that takes these arguments"), as its parameter
   * was not seen as a member of {@code TreeSet<Double>}.
   */
  @Test
  void copiesMadeByCopyConstructorsAreData() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Walk");
    List<Double> xs = List.of(2.0, -1.0, 2.0, 0.5);
    for (double[] p : new double[][] {{1.3, 0.7}, {-0.4, 1.2}}) {
      checks.check(new Call("copies", new Object[] {p[0], p[1], xs}, true, true, false));
    }
  }

  @Test
  void aCalleeThatWalksAListIsCalledFromALoop() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Walk");
    List<Double> xs = List.of(0.3, -1.1, 0.8);
    for (double[] p : new double[][] {{0.6, 0.7}, {-0.4, 1.2}}) {
      checks.check(new Call("calls", new Object[] {p[0], p[1], xs}, true, true, false));
    }
  }

  @Test
  void aListFilledWithValuesThatCarryDerivativesIsAnErrorWhereTheyComeBack() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.ArrayList;",
        "import java.util.List;",
        "final class F {",
        "  @Differentiable static double f(double a, double b) {",
        "    List<Double> l = new ArrayList<Double>();",
        "    l.add(a * b);",
        "    double s = 0;",
        "    for (double v : l) { s += v * a; }",
        "    return s;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("'v' depends on 'a * b' through 'List.add'"
        + " (line 8), which carries no derivative, and reaches a value that carries a"
        + " derivative").inFile(file).onLine(10).atColumn(lines.get(9).indexOf("* a") + 1);
  }

  @Test
  void membersThatWouldRunTheIteratorAgainAreErrorsAtTheLoop() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.List;",
        "final class F {",
        "  @Differentiable(order = 2)",
        "  static double second(double a, double b, @NoDerivative List<Double> w) {",
        "    double s = 0;",
        "    for (double v : w) { s += v * a * b; }",
        "    return s;",
        "  }",
        "  @Differentiable static double[] vector(double a, double b,",
        "      @NoDerivative List<Double> w) {",
        "    double[] r = new double[2];",
        "    for (double v : w) { r[0] += v * a; r[1] += v * b; }",
        "    return r;",
        "  }",
        "  @Differentiable @Checkpointed",
        "  static double checkpointed(double a, double b, @NoDerivative List<Double> w) {",
        "    double s = a;",
        "    for (double v : w) { s = Math.sin(s * v) + b; }",
        "    return s;",
        "  }",
        "  @Differentiable static double strings(double a, @NoDerivative List<String> w) {",
        "    double s = 0;",
        "    for (double v : w) { s += v * a; }",
        "    return s;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(4);
    assertThat(compilation).hadErrorContaining("the enhanced 'for' loop over 'w' runs its"
        + " iterator as written ('w.iterator()', then 'hasNext()' and 'next()'), which may give"
        + " other elements each time it runs: mHessian and mValueGradientAndHessian of 'second'"
        + " make one sweep per slot and would run it once per sweep, where 'second' runs it"
        + " once; pass the elements in an array, as a @NoDerivative parameter")
        .inFile(file).onLine(10).atColumn(lines.get(9).indexOf("w)") + 1);
    assertThat(compilation).hadErrorContaining("the enhanced 'for' loop over 'w' runs its"
        + " iterator as written ('w.iterator()', then 'hasNext()' and 'next()'), which may give"
        + " other elements each time it runs: mJacobian and mValueAndJacobian of 'vector'")
        .inFile(file).onLine(16).atColumn(lines.get(15).indexOf("w)") + 1);
    assertThat(compilation).hadErrorContaining("the enhanced 'for' loop over 'w' cannot be"
        + " checkpointed (@Checkpointed): it runs its iterator as written, and the reverse sweep"
        + " would have to run 'next()' again when it computes iterations anew; walk the elements"
        + " in an array, by index")
        .inFile(file).onLine(22).atColumn(lines.get(21).indexOf("w)") + 1);
    assertThat(compilation).hadErrorContaining("the variable 'v' of an enhanced 'for' loop"
        + " over 'w', whose elements are 'java.lang.String', cannot have type 'double': ad4j"
        + " unboxes 'Double', 'Float', 'Integer' and 'Long' elements to a number they widen to")
        .inFile(file).onLine(27).atColumn(lines.get(26).indexOf("double v") + 1);
  }

  /**
   * Every member runs the iterator as the user's method does, once per call: one
   * {@code iterator()}, {@code next()} once per element; the reverse sweep reads the elements
   * from the tape instead of walking the list again.
   */
  @Test
  void everyMemberWalksTheIterableOnceAsTheMethodDoes() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Counted", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "import ad4j.NoDerivative;",
            "import java.util.Iterator;",
            "import java.util.List;",
            "public final class Counted {",
            "  public static int iterators;",
            "  public static int nexts;",
            "  public static final class Counting implements Iterable<Double> {",
            "    private final List<Double> values;",
            "    public Counting(List<Double> values) { this.values = values; }",
            "    @Override public Iterator<Double> iterator() {",
            "      iterators++;",
            "      Iterator<Double> inner = values.iterator();",
            "      return new Iterator<Double>() {",
            "        @Override public boolean hasNext() { return inner.hasNext(); }",
            "        @Override public Double next() { nexts++; return inner.next(); }",
            "      };",
            "    }",
            "  }",
            "  @Differentiable public static double f(double a, double b,",
            "      @NoDerivative Counting xs) {",
            "    double s = 0;",
            "    for (double x : xs) { s = s * Math.sin(a * x) + b * x; }",
            "    return s;",
            "  }",
            "}"));
    Class<?> user = compiled.load("com.example.Counted");
    Class<?> counting = compiled.load("com.example.Counted$Counting");
    Class<?> generated = compiled.load("com.example.CountedGrad");
    Object xs = counting.getConstructor(List.class).newInstance(List.of(0.5, -1.25, 2.0));
    java.lang.reflect.Field iterators = user.getField("iterators");
    java.lang.reflect.Field nexts = user.getField("nexts");
    Object[][] calls = {
        {user, "f", new Class<?>[] {double.class, double.class, counting},
            new Object[] {0.7, 1.3, xs}},
        {generated, "fGradient", new Class<?>[] {double.class, double.class, counting},
            new Object[] {0.7, 1.3, xs}},
        {generated, "fValueAndGradient",
            new Class<?>[] {double.class, double.class, counting, double[].class},
            new Object[] {0.7, 1.3, xs, new double[2]}},
        {generated, "fTangent",
            new Class<?>[] {double.class, double.class, counting, double.class, double.class},
            new Object[] {0.7, 1.3, xs, 1.0, -0.5}},
        {generated, "fPullback",
            new Class<?>[] {double.class, double.class, counting, double.class, double[].class},
            new Object[] {0.7, 1.3, xs, 1.0, new double[2]}}};
    for (Object[] call : calls) {
      iterators.setInt(null, 0);
      nexts.setInt(null, 0);
      ((Class<?>) call[0]).getDeclaredMethod((String) call[1], (Class<?>[]) call[2])
          .invoke(null, (Object[]) call[3]);
      assertThat(List.of(call[1], iterators.getInt(null), nexts.getInt(null)))
          .containsExactly(call[1], 1, 3).inOrder();
    }
    ArrayFunctionChecks.of(compiled, "com.example.Counted").check(
        new Call("f", new Object[] {0.7, 1.3, xs}, true, true, false));
  }
}
