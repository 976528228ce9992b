package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.GeneratedText;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code DoubleStream} and {@code IntStream} pipelines lowered to the loops they are. Each method
 * is checked by {@link ArrayFunctionChecks} (value bit for bit, fourth-order differences of the
 * user's method, forward against reverse); the compensated sums of {@code sum()} and
 * {@code average()} against the JDK's own at inputs where a plain loop differs; the generated
 * code compiles without warnings under {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class StreamPipelinesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.Arrays;",
      "import java.util.function.DoubleUnaryOperator;",
      "import java.util.stream.DoubleStream;",
      "import java.util.stream.IntStream;",
      "final class Streams {",
      "  /** A least-squares loss written with a stream, and its loop twin. */",
      "  @Differentiable static double loss(double[] w, double s) {",
      "    return IntStream.range(0, w.length)",
      "        .mapToDouble(i -> (w[i] - i * s) * (w[i] - i * s)).sum();",
      "  }",
      "  @Differentiable static double lossLoop(double[] w, double s) {",
      "    double sum = 0;",
      "    for (int i = 0; i < w.length; i++) { sum += (w[i] - i * s) * (w[i] - i * s); }",
      "    return sum;",
      "  }",
      "  @Differentiable static double sum(double[] w) { return Arrays.stream(w).sum(); }",
      "  @Differentiable static double average(double[] w) {",
      "    return DoubleStream.of(w).map(x -> x * x).average().getAsDouble();",
      "  }",
      "  @Differentiable static double maxMin(double[] w, double s) {",
      "    DoubleUnaryOperator scale = x -> x * s;",
      "    return Arrays.stream(w).map(scale).max().getAsDouble()",
      "        - 2 * Arrays.stream(w).min().orElse(s);",
      "  }",
      "  @Differentiable static double filtered(double[] w, double s) {",
      "    return Arrays.stream(w).map(x -> x * s).filter(x -> x > 0).map(Math::sin).sum()",
      "        + Arrays.stream(w).filter(x -> x < 0).max().orElse(s * s);",
      "  }",
      "  @Differentiable static double reduced(double[] w, double s) {",
      "    return DoubleStream.of(w).reduce(1, (a, b) -> a * b + s)",
      "        + IntStream.rangeClosed(1, 3).asDoubleStream().map(x -> x * s).sum()",
      "        + IntStream.of(3, 1, 2).max().getAsInt() + IntStream.range(0, 5).sum()",
      "        + IntStream.rangeClosed(2, 5).average().orElse(0)",
      "        + DoubleStream.of(s, 2 * s, Math.exp(s)).sum()",
      "        + DoubleStream.of(1, 3).map(x -> x / 2 * s).sum();",
      "  }",
      "  /** Part of an array: Arrays.stream(a, from, to). */",
      "  @Differentiable static double ranged(double[] w, double s, int from, int to) {",
      "    return Arrays.stream(w, from, to).map(x -> x * s * Math.sin(x)).sum();",
      "  }",
      "  /** A stream of other operations, without functions, runs as written. */",
      "  @Differentiable static double asWritten(double[] w, double s) {",
      "    return s * IntStream.range(0, w.length).toArray().length;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Streams", SOURCE));

  private static ArrayFunctionChecks checks() {
    return ArrayFunctionChecks.of(COMPILED.get(), "com.example.Streams");
  }

  private static double[] random(Random random, int n) {
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      w[i] = 4 * random.nextDouble() - 2;
    }
    return w;
  }

  @Test
  void everyPipelineAgainstItsOwnMethod() throws Exception {
    Random random = new Random(35);
    for (int trial = 0; trial < 4; trial++) {
      double[] w = random(random, 3 + trial);
      double s = random.nextDouble() + 0.2;
      for (String name : List.of("loss", "lossLoop", "maxMin", "filtered", "reduced")) {
        checks().check(new Call(name, new Object[] {w, s}, true, true));
      }
      checks().check(new Call("sum", new Object[] {w}, true));
      checks().check(new Call("ranged", new Object[] {w, s, 1, w.length - 1}, true, true, false,
          false));
      checks().check(new Call("asWritten", new Object[] {w, s}, true, true));
      checks().check(new Call("average", new Object[] {w}, true));
    }
  }

  @Test
  void streamGradientIsTheLoopsGradient() throws Exception {
    double[] w = {0.5, -1.25, 3.0, 0.125};
    double[] stream = (double[]) COMPILED.get().invoke("com.example.StreamsGrad",
        "lossGradient", w, 0.3);
    double[] loop = (double[]) COMPILED.get().invoke("com.example.StreamsGrad",
        "lossLoopGradient", w, 0.3);
    for (int i = 0; i < stream.length; i++) {
      assertWithMessage("slot %s", i).that(stream[i]).isWithin(1e-12).of(loop[i]);
    }
  }

  /**
   * The reverse sweep of a compensated sum has no branch for the JDK's fallback to the simple
   * sum, whose adjoint is nothing: {@code if (t12) { }} was printed after each {@code sum()}.
   */
  @Test
  void aPipelineWithAnOperationThatIsNotDifferentiatedSaysSoAtItsSource() {
    // sorted() makes the pipeline run as written; the error at Arrays.stream(w) named only the
    // array passed to it before
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.Arrays;",
        "final class F {",
        "  @Differentiable static double f(double[] w) {",
        "    return Arrays.stream(w).sorted().sum();",
        "  }",
        "}"),
        "call to 'Arrays.stream(...)' passes 'w', an array that carries derivatives, to"
            + " 'Arrays.stream', which ad4j would run as written and which could write into"
            + " it; ad4j passes such an array only to static methods of your sources whose code"
            + " only reads it and to Arrays.toString, equals, hashCode and"
            + " Objects.requireNonNull: pass the elements it needs, or make it only read the"
            + " array; a stream over the array is differentiated only where each of its"
            + " operations is map, mapToDouble, asDoubleStream, filter, sum, average, reduce,"
            + " max or min: another one (sorted, toArray, ...) makes the pipeline run as"
            + " written", 6, 25);
  }

  @Test
  void noEmptyBranchIsPrinted() {
    String generated = GeneratedText.of(COMPILED.get(), "com.example.StreamsGrad");
    assertThat(generated).contains("Double.POSITIVE_INFINITY"); // the fallback's test is there
    assertThat(generated).doesNotContainMatch("(?m)\\bif \\([^)]*\\) \\{\\s*}");
    assertThat(generated).doesNotContainMatch("(?m)} else \\{\\s*}");
  }

  @Test
  void compensatedSumsAreTheJdksBitForBit() throws Exception {
    // A plain loop gives 0 here, the JDK's compensated sum 2.
    double[] cancelling = {1e16, 1.0, 1.0, -1e16};
    assertThat(COMPILED.get().invoke("com.example.Streams", "sum", (Object) cancelling))
        .isEqualTo(2.0);
    Random random = new Random(7);
    for (int trial = 0; trial < 200; trial++) {
      double[] w = new double[1 + random.nextInt(20)];
      for (int i = 0; i < w.length; i++) {
        w[i] = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(24) - 12);
      }
      double[] gradient = new double[w.length];
      double sum = (double) COMPILED.get().invoke("com.example.StreamsGrad",
          "sumValueAndGradient", w, gradient);
      assertWithMessage("sum of %s", java.util.Arrays.toString(w))
          .that(Double.doubleToRawLongBits(sum)).isEqualTo(Double.doubleToRawLongBits(
              java.util.stream.DoubleStream.of(w).sum()));
      for (double g : gradient) {
        assertThat(g).isEqualTo(1.0); // the derivative of the exact sum
      }
      double average = (double) COMPILED.get().invoke("com.example.StreamsGrad",
          "averageValueAndGradient", w, new double[w.length]);
      assertThat(Double.doubleToRawLongBits(average)).isEqualTo(Double.doubleToRawLongBits(
          java.util.stream.DoubleStream.of(w).map(x -> x * x).average().getAsDouble()));
    }
    double[] infinite = {Double.MAX_VALUE, Double.MAX_VALUE, 1.0};
    assertThat(COMPILED.get().invoke("com.example.StreamsGrad", "sumValueAndGradient",
        infinite, new double[3])).isEqualTo(java.util.stream.DoubleStream.of(infinite).sum());
  }

  @Test
  void anEmptyStreamsGetAsDoubleThrowsAsJavaDoes() {
    InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
        () -> COMPILED.get().invoke("com.example.StreamsGrad", "averageGradient",
            (Object) new double[0]));
    assertThat(thrown.getCause()).isInstanceOf(NoSuchElementException.class);
    assertThat(thrown.getCause()).hasMessageThat().isEqualTo("No value present");
  }

  @Test
  void partOfAnArrayIsCheckedAsTheJdkChecksIt() throws Exception {
    double[] w = {0.5, -1.25, 3.0, 0.125};
    // from > to, from < 0, to > length, and an empty range, which is no error
    int[][] bounds = {{3, 1}, {-1, 2}, {1, 5}, {2, 2}};
    for (int[] b : bounds) {
      String expected = outcome(() -> COMPILED.get().invoke("com.example.Streams", "ranged", w,
          0.3, b[0], b[1]));
      for (String member : List.of("rangedGradient", "rangedTangent")) {
        Object[] arguments = member.equals("rangedGradient")
            ? new Object[] {w, 0.3, b[0], b[1]}
            : new Object[] {w, 0.3, b[0], b[1], new double[4], 1.0};
        assertWithMessage("%s at %s", member, java.util.Arrays.toString(b))
            .that(outcome(() -> COMPILED.get().invoke("com.example.StreamsGrad", member,
                arguments)))
            .isEqualTo(expected);
      }
    }
    assertThat(outcome(() -> COMPILED.get().invoke("com.example.Streams", "ranged", w, 0.3, 3,
        1))).isEqualTo("java.lang.ArrayIndexOutOfBoundsException: origin(3) > fence(1)");
  }

  /** What {@code call} throws, as its {@code toString()}, or "returns". */
  private static String outcome(ThrowingCall call) {
    try {
      call.run();
      return "returns";
    } catch (InvocationTargetException e) {
      return e.getCause().toString();
    } catch (Exception e) {
      return e.getCause() != null ? e.getCause().toString() : e.toString();
    }
  }

  private interface ThrowingCall {
    Object run() throws Exception;
  }
}
