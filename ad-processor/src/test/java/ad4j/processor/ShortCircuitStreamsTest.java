package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The short-circuiting ends of a stream, {@code anyMatch(p)}, {@code allMatch(p)} and
 * {@code noneMatch(p)}, of arrays, ranges, {@code DoubleStream.of} and collections of data
 * (objects or boxes), after {@code map} and {@code filter} stages: a boolean that carries no
 * derivative and decides the branches after it. The stream's loop stops at the element that
 * decides the answer, as the JDK's does, so stages and a collection's iterator run exactly as
 * often as in Java. Each was the error "stream operation 'anyMatch' ... is not supported".
 * Checked by {@link ArrayFunctionChecks} (value bit for bit, differences of the user's method,
 * forward against reverse, the pullback) at points that take each branch, order 2 by
 * {@link HessianChecks}, and the reads of a counting list; the generated code compiles under
 * {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class ShortCircuitStreamsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Match",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.AbstractList;",
              "import java.util.Arrays;",
              "import java.util.List;",
              "import java.util.stream.DoubleStream;",
              "import java.util.stream.IntStream;",
              "public final class Match {",
              "  record Sample(double x, double y, double weight) {}",
              "  private static final double[] TABLE = {0.2, 0.9, 1.5};",
              "  public static int reads;",
              "  public static final class Counting extends AbstractList<Double> {",
              "    private final List<Double> values;",
              "    public Counting(List<Double> values) { this.values = values; }",
              "    @Override public Double get(int i) { reads++; return values.get(i); }",
              "    @Override public int size() { return values.size(); }",
              "  }",
              "  @Differentiable static double matches(double a, double b,",
              "      @NoDerivative double[] xs, @NoDerivative List<Sample> data) {",
              "    double s = a * b;",
              "    if (Arrays.stream(xs).map(v -> v * a).anyMatch(v -> v > 1.0)) s = s * a + b;",
              "    if (Arrays.stream(xs).allMatch(v -> v * b < 2.0)) s += Math.sin(a * b);",
              "    if (Arrays.stream(xs).filter(v -> v > 0).noneMatch(v -> v > a + b)) s *= 3;",
              "    boolean all = DoubleStream.of(a, b, a * b).allMatch(v -> v > 0.1);",
              "    boolean none = IntStream.range(0, xs.length).noneMatch(k -> xs[k] * k > a);",
              "    boolean any = data.stream().filter(e -> e.weight() > 0.6)",
              "        .anyMatch(e -> e.x() * a > e.y() * b);",
              "    return (all ? s * b : s - b) + (none ? a * a : b * b)",
              "        + (any ? Math.exp(a) : Math.cos(b));",
              "  }",
              "  @Differentiable static double inLoop(double a, double b,",
              "      @NoDerivative List<Double> w) {",
              "    double s = b;",
              "    for (int i = 1; i <= 4; i++) {",
              "      double k = i;",
              "      s = w.stream().anyMatch(v -> v * k * a > 1.0) ? s * a + Math.sin(k * b)",
              "          : Math.cos(s * b) + a;",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable public static double counted(double a, double b,",
              "      @NoDerivative Counting xs) {",
              "    return xs.stream().filter(x -> x > 0).anyMatch(x -> x * a > 1) ? a * b : a + b;",
              "  }",
              "  @Differentiable(order = 2) static double second(double a, double b) {",
              "    double s = a * b;",
              "    if (Arrays.stream(TABLE).map(v -> v * a).anyMatch(v -> v > 1.0)) s = s * a * b;",
              "    if (DoubleStream.of(a, b).allMatch(Double::isFinite)) s += Math.sin(a * b);",
              "    if (Arrays.stream(TABLE).noneMatch(Double::isNaN)) s = s * 3;",
              "    return s;",
              "  }",
              "}")));

  private static List<Object> samples() throws Exception {
    Class<?> sample = COMPILED.get().load("com.example.Match$Sample");
    java.lang.reflect.Constructor<?> make = sample.getDeclaredConstructor(double.class,
        double.class, double.class);
    make.setAccessible(true);
    return List.of(make.newInstance(1.0, 2.0, 0.5), make.newInstance(-0.5, 0.3, 2.0),
        make.newInstance(2.5, 4.0, 1.0));
  }

  @Test
  void matchesOfArraysRangesValuesAndRecords() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Match");
    double[] xs = {1.5, 2.5, -0.4, 0.3};
    // each end is true at one point and false at another; none is near its threshold
    for (double[] p : new double[][] {{0.7, 0.6}, {-1.3, 2.0}, {0.3, 0.4}, {2.1, 0.5}}) {
      checks.check(new Call("matches", new Object[] {p[0], p[1], xs, samples()}, true, true,
          false, false));
    }
  }

  @Test
  void aMatchInALoopChoosesEachIterationsBranch() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Match");
    List<Double> w = List.of(0.5, -1.5, 0.25);
    // a = 0.9 matches from i = 3 on (0.5 * 3 * 0.9), -0.6 from i = 2 on (-1.5 * 2 * -0.6)
    for (double[] p : new double[][] {{0.9, 0.6}, {-0.6, 1.1}, {0.1, 0.3}}) {
      checks.check(new Call("inLoop", new Object[] {p[0], p[1], w}, true, true, false));
    }
  }

  @Test
  void theCollectionIsReadUpToTheElementThatDecides() throws Exception {
    InProcessCompiler.Compiled compiled = COMPILED.get();
    Class<?> user = compiled.load("com.example.Match");
    Class<?> counting = compiled.load("com.example.Match$Counting");
    Class<?> generated = compiled.load("com.example.MatchGrad");
    java.lang.reflect.Field reads = user.getField("reads");
    Object xs = counting.getConstructor(List.class).newInstance(List.of(0.5, -1.25, 2.0, 3.0));
    Class<?>[] parameters = {double.class, double.class, counting};
    // a = 0.7 is decided by 2.0, the third element; a = 0.1 by none, after all four
    for (double a : new double[] {0.7, 0.1}) {
      int expected = a == 0.7 ? 3 : 4;
      Object[][] calls = {
          {user, "counted", parameters, new Object[] {a, 1.3, xs}},
          {generated, "countedGradient", parameters, new Object[] {a, 1.3, xs}},
          {generated, "countedTangent",
              new Class<?>[] {double.class, double.class, counting, double.class, double.class},
              new Object[] {a, 1.3, xs, 1.0, -0.5}},
          {generated, "countedPullback",
              new Class<?>[] {double.class, double.class, counting, double.class,
                  double[].class},
              new Object[] {a, 1.3, xs, 1.0, new double[2]}}};
      for (Object[] call : calls) {
        reads.setInt(null, 0);
        java.lang.reflect.Method method = ((Class<?>) call[0]).getDeclaredMethod(
            (String) call[1], (Class<?>[]) call[2]);
        method.setAccessible(true);
        method.invoke(null, (Object[]) call[3]);
        assertWithMessage("reads of %s at a = %s", call[1], a).that(reads.getInt(null))
            .isEqualTo(expected);
      }
      ArrayFunctionChecks.of(compiled, "com.example.Match").check(
          new Call("counted", new Object[] {a, 1.3, xs}, true, true, false));
    }
  }

  @Test
  void matchesAtOrderTwo() throws Exception {
    // a = 0.5 matches none of TABLE's 0.1, 0.45, 0.75; a = 0.9 matches 1.35
    for (double[] p : new double[][] {{0.5, 0.7}, {0.9, -0.4}}) {
      HessianChecks.checkAt(COMPILED.get().function("com.example.Match", "second", 2),
          COMPILED.get().load("com.example.MatchGrad"), p);
    }
  }
}
