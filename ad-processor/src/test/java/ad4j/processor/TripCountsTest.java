package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.Tape;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nested loops whose trip counts the reverse sweep counts again instead of taking them from the
 * tape ({@code Recomputation.countsTrips}): a bound that is a counter of a loop around
 * (ADBench GMM's triangle {@code j < r}), with other starts and steps, inclusive tests,
 * counting down, the counter on the right, an array's length, a count that may be negative,
 * and a {@code continue}; a {@code break} keeps the count on the tape. Each function against
 * finite differences of itself and forward against reverse, at points where the loops run a
 * different number of times.
 */
@ExtendWith(TapeIsEmpty.class)
class TripCountsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Trips {",
      "  @Differentiable static double triangle(double x, double y) {",
      "    double s = y;",
      "    int n = (int) Math.floor(x * 3) + 3;", // no trips at all for x < -2/3
      "    for (int r = 0; r < n; r++) {",
      "      for (int j = 0; j < r; j++) { s = s * 0.9 + Math.sin(x * j + s); }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double inclusiveFromOuter(double x, double y) {",
      "    double s = x;",
      "    for (int r = 1; r < 7; r += 2) {",
      "      for (int j = r; j <= 6; j++) { s += Math.cos(s * y) * x; }",
      "      for (int j = 0; j <= r; j++) { s = s * 0.7 + y; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double countingDown(double x, double y) {",
      "    double s = y;",
      "    for (int r = 5; r > 0; r--) {",
      "      for (int j = 6; j >= r; j--) { s = s * x * 0.5 + Math.sin(s); }",
      "      for (int j = 0; r > j; j++) { s += 0.1 * s * y; }",
      "      for (int j = r; j > 0; j--) { s = s * 0.95 + x; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double lengths(double x, double y) {",
      "    double[] w = {x, y, x * y};",
      "    double s = 0;",
      "    for (int r = 0; r < 3; r++) {",
      "      for (int j = 0; j < w.length; j++) { s += w[j] * Math.sin(s + r); }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double jumps(double x, double y) {",
      "    double s = x;",
      "    for (int r = 0; r < 4; r++) {",
      "      for (int j = 0; j < 5; j++) {",
      "        if (j == r) { continue; }",
      "        s = s * 0.8 + y * Math.cos(s);",
      "      }",
      "      for (int j = 0; j < 5; j++) {",
      "        if (s > 2 + j) { break; }",
      "        s += x * 0.3;",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce TRIPS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Trips",
          SOURCE));

  static Stream<Arguments> functions() {
    return Stream.of(
        Arguments.of("triangle", new double[][] {{0.45, 0.3}, {1.1, -0.2}, {-0.9, 0.4}}),
        Arguments.of("inclusiveFromOuter", new double[][] {{0.3, 0.8}, {-0.2, 1.4}}),
        Arguments.of("countingDown", new double[][] {{0.9, 0.3}, {1.3, -0.4}}),
        Arguments.of("lengths", new double[][] {{0.6, -0.3}, {1.2, 0.5}}),
        Arguments.of("jumps", new double[][] {{0.1, 0.2}, {0.8, 0.9}, {1.9, 0.1}}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("functions")
  void derivativesMatchFiniteDifferencesAndEachOther(String name, double[][] points) {
    CompiledFunction f = TRIPS.get().function("com.example.Trips", name, 2);
    for (double[] x : points) {
      DerivativeChecks.checkAt(f, x);
      assertThat(Tape.current().size()).isEqualTo(0);
    }
  }

  @Test
  void theReverseSweepCountsTripsAgainUnlessABreakMayEndTheLoop() throws Exception {
    String generated = TRIPS.get().compilation().generatedSourceFiles().get(0)
        .getCharContent(true).toString();
    for (String name : List.of("triangle", "inclusiveFromOuter", "countingDown", "lengths")) {
      String member = member(generated, name + "ValueAndGradient");
      assertThat(member).doesNotContain("tape.pushInt(");
      assertThat(member).doesNotContain("tape.popInt()");
      assertThat(member).contains("Math.max(");
    }
    // the triangle's inner count is the outer counter in the iteration the reverse is in
    assertThat(member(generated, "triangleValueAndGradient"))
        .containsMatch("iteration\\d+ = Math\\.max\\(iteration\\d+ - 1, 0\\)");
    String jumps = member(generated, "jumpsValueAndGradient");
    // the loop with a continue is counted again, the one with a break records its count
    assertThat(jumps.split("tape\\.pushInt\\(", -1)).hasLength(2);
    assertThat(jumps).contains("Math.max(");
  }

  /**
   * Loops counted by a {@code long}: their trip counts may pass {@code Integer.MAX_VALUE}, where
   * an {@code int} count wrapped to a negative number and the reverse sweep ran no iteration
   * (gradient 0). Counts are {@code long}s on the tape and in locals, and counters near the end
   * of {@code long}'s range run as written.
   */
  private static final String LONG_SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.Differentiable;",
      "final class LongTrips {",
      "  @Differentiable static double topLevel(double x, double y) {",
      "    double s = y;",
      "    for (long i = 0; i < 5L; i++) { s = s * 0.9 + Math.sin(x * s); }",
      "    return s;",
      "  }",
      "  @Differentiable static double nearTheEndOfLong(double x, double y) {",
      "    double s = x;",
      "    for (int r = 0; r < 3; r++) {",
      "      for (long i = Long.MAX_VALUE - 4; i < Long.MAX_VALUE - 1; i++) {",
      "        s = s * y + Math.sin(x + s) * (i - Long.MAX_VALUE + 5);",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double intCounterLongBound(double x, double y) {",
      "    long n = 4;",
      "    double s = x;",
      "    for (int r = 0; r < 3; r++) {",
      "      for (int i = 0; i < n; i++) { s = s * 0.8 + y * Math.cos(s); }",
      "    }",
      "    return s;",
      "  }",
      "  @Checkpointed(snapshots = 2)",
      "  @Differentiable static double checkpointed(double x, double y) {",
      "    double s = x;",
      "    for (long i = 4_000_000_000L; i < 4_000_000_007L; i++) {",
      "      s = s * 0.9 + y * Math.sin(s);",
      "    }",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce LONG_TRIPS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.LongTrips",
          LONG_SOURCE));

  @ParameterizedTest(name = "{0}")
  @MethodSource("longCounted")
  void loopsCountedByALongCountTheirTripsInLongs(String name, String count) throws Exception {
    CompiledFunction f = LONG_TRIPS.get().function("com.example.LongTrips", name, 2);
    DerivativeChecks.checkAt(f, 0.4, 0.7);
    DerivativeChecks.checkAt(f, -0.3, 1.1);
    String generated = LONG_TRIPS.get().compilation().generatedSourceFiles().get(0)
        .getCharContent(true).toString();
    String member = member(generated, name + "ValueAndGradient");
    assertThat(member).containsMatch(count);
  }

  static Stream<Arguments> longCounted() {
    return Stream.of(
        Arguments.of("topLevel", "long loop\\d+Trips = 0L;[\\s\\S]*"
            + "for \\(long iteration\\d+ = loop\\d+Trips; iteration\\d+ > 0L;"),
        Arguments.of("nearTheEndOfLong", "long loop\\d+Trips = 0L;[\\s\\S]*"
            + "tape\\.pushLong\\(loop\\d+Trips\\);[\\s\\S]*"
            + "long (loop\\d+Trips\\d*) = tape\\.popLong\\(\\);\\s*"
            + "for \\(long iteration\\d+ = \\1; iteration\\d+ > 0L;"),
        // an int counter's count, from a long bound: the loop ends only at a bound an int reaches
        Arguments.of("intCounterLongBound", "iteration\\d+ = \\(int\\) Math\\.max\\(n, 0L?\\)"),
        Arguments.of("checkpointed", "long loop\\d+Trips = 0L;[\\s\\S]*"
            + "long loop\\d+Segment = [\\s\\S]*for \\(long iteration\\d+ = last;"));
  }

  /**
   * The text of the generated method {@code name}, up to its closing brace; for a member that
   * records on the tape, the text of {@code nameOnTape}, which holds its body, followed by that
   * of the loop nests it calls.
   */
  private static String member(String source, String name) {
    int start = source.indexOf("static double " + name + "OnTape(");
    if (start < 0) {
      start = source.indexOf("static double " + name + "(");
    }
    assertThat(start).isAtLeast(0);
    String body = source.substring(start, source.indexOf("\n  }\n", start));
    // A loop nest the member calls in a method of its own (LongBlocks.loopNestsOf) hands what
    // it carries back on the tape, pushed at its end and popped by the member at once, not per
    // trip: read without those hand-overs, the member's text and its nests' are the sweeps.
    StringBuilder sweeps = new StringBuilder(
        body.replaceAll("(Nest\\d+\\([^;]*\\);\n)(\\s*\\w+ = tape\\.pop\\w+\\(\\);\n)+", "$1"));
    Matcher nest = Pattern.compile("static void (" + name + "Nest\\d+)\\(").matcher(source);
    while (nest.find()) {
      String text = source.substring(nest.start(), source.indexOf("\n  }\n", nest.start()));
      sweeps.append('\n').append(text.replaceAll("(\n\\s*tape\\.push\\w+\\(\\w+\\);)+$", ""));
    }
    return sweeps.toString();
  }
}
