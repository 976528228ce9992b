package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MixedFunction;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.internal.Tape;
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
    String generated = InProcessCompiler.gradSource(TRIPS.get().compilation())
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
    String generated = InProcessCompiler.gradSource(LONG_TRIPS.get().compilation())
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
   * Loops whose tests read no {@code long} but that may run more than {@code Integer.MAX_VALUE}
   * times: an {@code int} count wrapped to a negative number and the reverse sweep ran no
   * iteration (gradient 0). A constant negative start, a start of {@code -n} in a loop whose
   * reverse counts its trips again ({@code Math.max(n - -n, 0)} wrapped in {@code int}s), a test
   * on a {@code double}, a {@code do} loop with a counter of its own. Each body adds {@code x}
   * once and records nothing: only the count is kept, and the derivative is the number of
   * trips, 2^31 + 2 (the fewest past {@code Integer.MAX_VALUE} that these loops can run).
   */
  private static final String WIDE_SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class WideTrips {",
      "  @Differentiable static double fromIntMin(double x, int n) {",
      "    double s = 0;",
      "    for (int i = Integer.MIN_VALUE; i < n; i++) { s += x; }",
      "    return s;",
      "  }",
      "  @Differentiable static double symmetricInALoop(double x, int n) {",
      "    double s = 0;",
      "    for (int r = 0; r < 1; r++) {",
      "      for (int i = -n; i < n; i++) { s += x; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double testedOnADouble(double x, int n) {",
      "    double s = 0;",
      "    double t = -n;",
      "    while (t < n) { s += x; t += 1; }",
      "    return s;",
      "  }",
      "  @Differentiable static double pastIntMinInALoop(double x, int n) {",
      "    double s = 0;",
      "    for (int r = 0; r < 1; r++) {",
      "      for (int i = 5; i < n; i++) { s += x; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double doWhile(double x, int n) {",
      "    double s = 0;",
      "    int i = -n;",
      "    do { s += x; i++; } while (i < n);",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce WIDE_TRIPS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.WideTrips",
          WIDE_SOURCE));

  @ParameterizedTest(name = "{0}")
  @MethodSource("wideLoops")
  void loopsPastIntegerMaxValueTripsCountEveryTrip(String name, int few, int many) {
    MixedFunction f = new MixedFunction(WIDE_TRIPS.get(), "com.example.WideTrips", name,
        double.class, int.class);
    // six trips: the derivative, forward mode against reverse mode
    Object[] small = {0.5, few};
    assertThat(f.tangent(small, new double[] {1})).isEqualTo(6.0);
    assertThat(f.gradient(small)).usingExactEquality().containsExactly(6.0);
    // Calls enough, and long enough, that the JIT has compiled the members whole before the
    // long call: compiled on the stack during that call instead, a loop counted by a long, or
    // tested on a double, runs two to three times slower (seconds here)
    long warm = System.nanoTime() + 500_000_000L;
    for (int i = 0; i < 3000 || System.nanoTime() < warm; i++) {
      f.valueAndGradient(small, new double[1]);
    }
    long trips = (1L << 31) + 2;
    double[] gradient = new double[1];
    double value = f.valueAndGradient(new Object[] {0.5, many}, gradient);
    assertThat(value).isEqualTo(0.5 * trips); // exact: sums of halves below 2^53
    assertThat(gradient[0]).isEqualTo((double) trips);
  }

  static Stream<Arguments> wideLoops() {
    int half = (1 << 30) + 1; // -half to half: 2^31 + 2 trips
    return Stream.of(
        Arguments.of("fromIntMin", Integer.MIN_VALUE + 6, Integer.MIN_VALUE + 2 * half),
        Arguments.of("symmetricInALoop", 3, half),
        Arguments.of("testedOnADouble", 3, half),
        Arguments.of("doWhile", 3, half));
  }

  /**
   * A nested loop whose reverse counts its trips again as {@code Math.max(n - 5, 0)}: for
   * {@code n} near {@code Integer.MIN_VALUE} the {@code int} difference wrapped to a positive
   * count, and the reverse sweep ran some 2^31 iterations of a loop that ran none.
   */
  @Test
  void aDifferenceThatWouldWrapIsNoCount() {
    MixedFunction f = new MixedFunction(WIDE_TRIPS.get(), "com.example.WideTrips",
        "pastIntMinInALoop", double.class, int.class);
    Object[] six = {0.5, 11};
    assertThat(f.tangent(six, new double[] {1})).isEqualTo(6.0);
    assertThat(f.gradient(six)).usingExactEquality().containsExactly(6.0);
    Object[] none = {0.5, Integer.MIN_VALUE + 2};
    assertThat(f.tangent(none, new double[] {1})).isEqualTo(0.0);
    assertThat(f.gradient(none)).usingExactEquality().containsExactly(0.0);
  }

  /**
   * Which loops count their trips in an {@code int} ({@code TripBounds}): those that provably
   * run at most {@code Integer.MAX_VALUE} times, the common ones, as before; the others in a
   * {@code long}. Each body reads its counter, which the reverse sweep computes again from the
   * iteration it is in (a {@code long} one's low 32 bits), and each function is checked against
   * finite differences and forward against reverse.
   */
  private static final String KINDS_SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.Differentiable;",
      "final class TripKinds {",
      loop("upFromZero", "for (int i = 0; i < n; i++)"),
      loop("inclusive", "for (int i = 1; i <= n; i++)"),
      loop("offsetTest", "for (int i = 0; i + 1 < w.length; i++)"),
      loop("downToZero", "for (int i = n; i > 0; i--)"),
      loop("constantStride", "for (int i = 0; i < 12; i += 3)"),
      loop("afterAnOuterCounter",
          "for (int r = 0; r < n; r++) for (int i = r + 1; i <= n + 1; i++)"),
      // n = Integer.MAX_VALUE: 2^32 - 2 trips
      loop("fromMinusN", "for (int i = -n; i < n; i++)"),
      // n = Integer.MAX_VALUE: past it by a wrap, 3 579 139 414 trips until i is n
      loop("wideStride", "for (int i = 0; i < n; i += 3)"),
      // n = Integer.MAX_VALUE: 2^31 trips
      loop("downToAndWithZero", "for (int i = n; i >= 0; i--)"),
      // n = Integer.MAX_VALUE: i wraps and the loop goes on until the break
      loop("inclusiveWithABreak", "for (int i = 0; i <= n; i++) if (i == n + 9) break; else"),
      loop("inALoopFromMinusN", "for (int r = 0; r < 2; r++) for (int i = -n; i < r; i++)"),
      "  @Checkpointed(snapshots = 2)",
      loop("checkpointedFromMinusN", "for (int i = -n; i < n; i++)"),
      "}");

  /** {@code name(x, y)}: {@code loop} around a body that reads the counter {@code i}. */
  private static String loop(String name, String loop) {
    return String.join("\n",
        "  @Differentiable static double " + name + "(double x, double y) {",
        "    int n = 3 + (int) Math.floor(y);",
        "    double[] w = {x, y, x * y, 0.5};",
        "    double s = x;",
        "    " + loop + " { s = s * 0.9 + Math.sin(x * i + s) * y; }",
        "    return s;",
        "  }");
  }

  private static final CompiledOnce TRIP_KINDS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.TripKinds",
          KINDS_SOURCE));

  @ParameterizedTest(name = "{0}")
  @MethodSource("tripKinds")
  void tripCountsAreIntsOnlyWhereTheLoopRunsAtMostIntegerMaxValueTimes(String name,
      String countType) throws Exception {
    CompiledFunction f = TRIP_KINDS.get().function("com.example.TripKinds", name, 2);
    DerivativeChecks.checkAt(f, 0.4, 0.7);
    DerivativeChecks.checkAt(f, -0.3, 1.6);
    String generated = InProcessCompiler.gradSource(TRIP_KINDS.get().compilation())
        .getCharContent(true).toString();
    String member = member(generated, name + "ValueAndGradient");
    String count = " (loop\\d+Trips|iteration\\d+) =";
    assertThat(member).containsMatch("\\b" + countType + count);
    if (countType.equals("int")) {
      assertThat(member).doesNotContainMatch("\\blong" + count);
    }
  }

  static Stream<Arguments> tripKinds() {
    return Stream.of(
        Arguments.of("upFromZero", "int"),
        Arguments.of("inclusive", "int"),
        Arguments.of("offsetTest", "int"),
        Arguments.of("downToZero", "int"),
        Arguments.of("constantStride", "int"),
        Arguments.of("afterAnOuterCounter", "int"),
        Arguments.of("fromMinusN", "long"),
        Arguments.of("wideStride", "long"),
        Arguments.of("downToAndWithZero", "long"),
        Arguments.of("inclusiveWithABreak", "long"),
        Arguments.of("inALoopFromMinusN", "long"),
        Arguments.of("checkpointedFromMinusN", "long"));
  }

  /**
   * Nested loops whose {@code int} counter is tested against a {@code double} or {@code float}
   * bound: such a loop runs {@code ceil(bound - start)} times, but the reverse sweep counted its
   * trips again as {@code (int) Math.max(bound - start, 0)}, which truncates: with {@code j <
   * 2.5} it ran 2 reverse iterations of 3 (gradient -1.72 for -1.75 at (0.7, -1.3)), with {@code
   * j < 2 + y} at y = -1.3 none of 1 (gradient 0), with no error. Counting down to {@code -0.5}
   * the generated class did not compile ("possible lossy conversion from double to long"). Such
   * a loop records its trip count, as a loop with any other bound does.
   */
  private static final String FRACTIONAL_SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class FractionalBounds {",
      fractional("constant", "for (int j = 0; j < 2.5; j++)"),
      fractional("active", "double b = 2 + y; for (int j = 0; j < b; j++)"),
      fractional("floatBound", "float b = 2.5f; for (int j = 1; j < b; j++)"),
      fractional("down", "for (int j = 4; j > 0.5; j--)"),
      fractional("negative", "for (int j = -3; j < -0.5; j++)"),
      fractional("counterOnTheRight", "for (int j = 0; 2.25 > j; j++)"),
      "}");

  /** {@code name(x, y)}: three trips of an outer loop around {@code inner} and its body. */
  private static String fractional(String name, String inner) {
    return String.join("\n",
        "  @Differentiable static double " + name + "(double x, double y) {",
        "    double s = 0;",
        "    for (int i = 0; i < 3; i++) {",
        "      " + inner + " { s = Math.sin(s * x + j) + y; }",
        "    }",
        "    return s;",
        "  }");
  }

  private static final CompiledOnce FRACTIONAL = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.FractionalBounds", FRACTIONAL_SOURCE));

  @ParameterizedTest(name = "{0}")
  @MethodSource("fractionalBounds")
  void aLoopTestedAgainstAFractionalBoundRunsItsEveryTripInReverse(String name, int trips) {
    CompiledFunction f = FRACTIONAL.get().function("com.example.FractionalBounds", name, 2);
    // where the inner loop runs 'trips' times: the derivative against the value written out
    double x = 0.7;
    double y = -1.3;
    double s = 0;
    double sx = 0;
    double sy = 0;
    for (int i = 0; i < 3; i++) {
      for (int k = 0; k < trips; k++) {
        int j = innerCounter(name, k);
        double c = Math.cos(s * x + j);
        double nsx = c * (sx * x + s);
        sy = c * sy * x + 1;
        sx = nsx;
        s = Math.sin(s * x + j) + y;
      }
    }
    assertThat(f.value(x, y)).isEqualTo(s);
    assertThat(f.gradient(x, y)[0]).isWithin(1e-12).of(sx);
    assertThat(f.gradient(x, y)[1]).isWithin(1e-12).of(sy);
    DerivativeChecks.checkAt(f, x, y);
    DerivativeChecks.checkAt(f, 0.4, 0.7);
  }

  /** The inner loop's counter in its trip {@code k} (from 0) at y = -1.3. */
  private static int innerCounter(String name, int k) {
    return switch (name) {
      case "floatBound" -> 1 + k;
      case "down" -> 4 - k;
      case "negative" -> -3 + k;
      default -> k;
    };
  }

  static Stream<Arguments> fractionalBounds() {
    return Stream.of(
        Arguments.of("constant", 3),
        Arguments.of("active", 1), // b = 0.7 at y = -1.3
        Arguments.of("floatBound", 2),
        Arguments.of("down", 4),
        Arguments.of("negative", 3),
        Arguments.of("counterOnTheRight", 3));
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
