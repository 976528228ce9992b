package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code mGradient} without the value ({@code optimize/GradientWithoutValue}): where leaving
 * the value out saves work in loops, {@code mGradient} calls a program of its own instead of
 * {@code mValueAndGradient}. Its gradient must be {@code mValueAndGradient}'s bit for bit
 * ({@link ArrayFunctionChecks} compares them, and each against differences of the user's
 * method), and it must throw where the user's method throws, also where only the value reads
 * what throws.
 */
@ExtendWith(TapeIsEmpty.class)
class GradientWithoutValueTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.Arrays;",
      "import java.util.stream.IntStream;",
      "final class Losses {",
      "  /** The stream's compensated sum is the value's only: mGradient leaves it out. */",
      "  @Differentiable static double stream(double[] w, double s) {",
      "    return IntStream.range(0, w.length)",
      "        .mapToDouble(i -> (w[i] - i * s) * (w[i] - i * s)).sum();",
      "  }",
      "  /** The squares and their sum are the value's only. */",
      "  @Differentiable static double loop(double[] w, double s) {",
      "    double sum = 0;",
      "    for (int i = 0; i < w.length; i++) { double r = w[i] * s - 1; sum += r * r; }",
      "    return sum;",
      "  }",
      "  /** Straight-line: nothing in a loop to leave out, so mValueAndGradient serves. */",
      "  @Differentiable static double line(double x, double y) {",
      "    return x * x * y + Math.sin(y);",
      "  }",
      "  /** w[k] and the quotient only change the value; each may throw. */",
      "  @Differentiable static double throwing(double[] w, int k) {",
      "    double sum = 0;",
      "    for (int i = 0; i < w.length; i++) { double r = w[i] * w[i] - 1; sum += r * r; }",
      "    return sum + Math.floor(w[k]) + w.length / k;",
      "  }",
      "  /** The plain sum's derivative where the compensated sum overflows to NaN. */",
      "  @Differentiable static double total(double[] w) { return Arrays.stream(w).sum(); }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Losses", SOURCE));

  private static ArrayFunctionChecks checks() {
    return ArrayFunctionChecks.of(COMPILED.get(), "com.example.Losses");
  }

  private static String generated() throws Exception {
    return InProcessCompiler.gradSource(COMPILED.get().compilation()).getCharContent(true)
        .toString();
  }

  /** The text of the generated method {@code name}, to its closing brace. */
  private static String method(String source, String name) {
    Matcher start = Pattern.compile("\\s" + name + "\\(").matcher(source);
    assertWithMessage("no method %s in\n%s", name, source).that(start.find()).isTrue();
    int end = source.indexOf("\n  }\n", start.start());
    return source.substring(start.start(), end);
  }

  @Test
  void gradientsAgainstTheUsersMethodAndTheValueAndGradient() throws Exception {
    Random random = new Random(45);
    for (int trial = 0; trial < 4; trial++) {
      double[] w = new double[3 + trial];
      for (int i = 0; i < w.length; i++) {
        w[i] = 4 * random.nextDouble() - 2;
      }
      double s = random.nextDouble() + 0.2;
      checks().check(new Call("stream", new Object[] {w, s}, true, true));
      checks().check(new Call("loop", new Object[] {w, s}, true, true));
      checks().check(new Call("throwing", new Object[] {w, 2}, true, false));
      checks().check(new Call("total", new Object[] {w}, true));
    }
  }

  @Test
  void theStreamsGradientRunsNoCompensatedSum() throws Exception {
    String source = generated();
    assertThat(method(source, "streamGradient")).contains("streamGradientInto(");
    assertThat(method(source, "streamValueAndGradient")).contains("compensation");
    assertThat(method(source, "streamGradientInto")).doesNotContain("compensation");
    assertThat(method(source, "loopGradient")).contains("loopGradientInto(");
    assertThat(method(source, "throwingGradient")).contains("throwingGradientInto(");
    // nothing to leave out: no second program
    assertThat(method(source, "lineGradient")).contains("lineValueAndGradient(");
    assertThat(source).doesNotContain("lineGradientInto");
  }

  @Test
  void throwsWhereTheMethodThrowsAlsoWhereOnlyTheValueReads() {
    double[] w = {0.5, -1.25, 3.0};
    for (Object[] arguments : List.of(new Object[] {w, 3}, new Object[] {w, 0})) {
      InvocationTargetException expected = assertThrows(InvocationTargetException.class,
          () -> COMPILED.get().invoke("com.example.Losses", "throwing", arguments));
      InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
          () -> COMPILED.get().invoke("com.example.LossesGrad", "throwingGradient", arguments));
      assertThat(thrown.getCause().toString()).isEqualTo(expected.getCause().toString());
    }
  }

  @Test
  void whereTheCompensatedSumIsNanTheGradientIsThePlainSums() throws Exception {
    // the compensated sum overflows to NaN, the JDK returns the plain sum: infinity
    double[] w = {Double.MAX_VALUE, Double.MAX_VALUE, 1.0};
    double[] gradient = (double[]) COMPILED.get().invoke("com.example.LossesGrad",
        "totalGradient", (Object) w);
    double[] written = new double[3];
    double value = (double) COMPILED.get().invoke("com.example.LossesGrad",
        "totalValueAndGradient", w, written);
    assertThat(value).isEqualTo(java.util.stream.DoubleStream.of(w).sum());
    assertThat(gradient).usingExactEquality().containsExactly(1.0, 1.0, 1.0).inOrder();
    assertThat(written).usingExactEquality().containsExactly(1.0, 1.0, 1.0).inOrder();
  }
}
