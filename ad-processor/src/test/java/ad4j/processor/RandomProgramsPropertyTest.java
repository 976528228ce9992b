package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.FiniteDifferenceComparison;
import ad4j.processor.testing.GeneratedClassChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.PropertySeeds;
import ad4j.processor.testing.RandomPrograms;
import ad4j.processor.testing.RandomPrograms.Program;
import ad4j.processor.testing.RandomPrograms.Trace;
import ad4j.runtime.GradientCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Property: for random straight-line programs over the whole accepted language (see
 * {@link RandomPrograms} for the generator and why its programs stay in their domains), the
 * generated code compiles without any warning under {@code -Xlint:all -Werror}, and at random
 * points
 *
 * <ol>
 *   <li>the user's method computes exactly what an independent interpreter of Java's semantics
 *       computes (a check of the generator itself);
 *   <li>{@code mValueAndGradient} and {@code mPullback} return the method's value bit for bit,
 *       and {@code mValueAndGradient} writes exactly {@code mGradient};
 *   <li>{@code mPullback} adds {@code seed * gradient} (relative {@value #MODE_TOLERANCE});
 *   <li>forward and reverse mode agree: for the unit vectors and a mixed direction,
 *       {@code mTangent(x, v) == gradient . v} (relative {@value #MODE_TOLERANCE} of
 *       {@code max(1, sum |g_i v_i|)});
 *   <li>the gradient agrees with {@link GradientCheck}'s extrapolated differences within
 *       {@value #NUMERIC_TOLERANCE} (its error measure: absolute up to magnitude 1, relative
 *       above).
 * </ol>
 *
 * <p><b>Which points are checked numerically (3 to 5), stated so that it can be checked:</b> a
 * point is used for checks 3 to 5 only if every intermediate value of the program at it is
 * finite and at most {@value #CAP} in magnitude (checks 1 and 2 are made at every point). Check
 * 5 is skipped at a point where some evaluation {@code GradientCheck} makes (all within 3% of the
 * point, coordinate by coordinate) has a different branch signature from the point's own (it
 * straddles a kink or a jump of abs, min, max, copySign, floor, ceil, rint, signum, % or
 * IEEEremainder, where finite differences are meaningless). GradientCheck's steps reach 3% of
 * {@code max(1, |x_i|)}, too coarse for a function that varies faster (a literal {@code 'a'} is
 * 97, so {@code sin('a' * x)} has a period of 0.065): when the gradient misses the tolerance
 * against the default estimate, it is compared with estimates whose steps are 16 and 256 times
 * smaller, and it passes if it agrees with one of them; if it agrees with none, the point fails
 * unless the three estimates disagree with each other by more than the tolerance (the finite
 * differences have not converged: the point is counted and skipped). The hook below fails the run if
 * fewer than {@value #MIN_FULLY_CHECKED} of the points got all five checks, so that the
 * exemptions cannot silently swallow the test.
 *
 * <p>Each try compiles one class of {@value #BATCH} methods. The normal build runs
 * {@value #DEFAULT_PROGRAMS} programs with a fresh random seed (jqwik prints it on failure and
 * replays a failing seed first on the next run), and CI with a fixed one ({@link PropertySeeds}).
 * The long run:
 *
 * <pre>
 * mvn -pl ad-processor test -Dtest=RandomProgramsPropertyTest -Dad4j.programs=20000
 * </pre>
 *
 * <p>With {@code -Dad4j.programs} set, the result (date, programs, seed, failures, duration) is
 * written to {@code src/test/resources/reliability/LAST_LONG_RUN.md}; add
 * {@code -Dad4j.seed=...} to replay a seed.
 */
class RandomProgramsPropertyTest {
  static final int BATCH = 20;
  static final int DEFAULT_PROGRAMS = 500;
  static final int POINTS = 3;
  static final double CAP = 1e4;
  static final double MODE_TOLERANCE = 1e-12;
  static final double NUMERIC_TOLERANCE = 1e-6;
  static final double MIN_FULLY_CHECKED = 0.6;

  static final AtomicLong programs = new AtomicLong();
  static final AtomicLong points = new AtomicLong();
  static final AtomicLong fullyChecked = new AtomicLong();
  static final AtomicLong tooLarge = new AtomicLong();
  static final AtomicLong straddling = new AtomicLong();
  static final AtomicLong refined = new AtomicLong();
  static final AtomicLong notConverged = new AtomicLong();

  @Provide
  Arbitrary<List<Program>> batches() {
    return RandomPrograms.programs(POINTS).list().ofSize(BATCH);
  }

  @Property(tries = DEFAULT_PROGRAMS / BATCH, shrinking = ShrinkingMode.BOUNDED)
  @AddLifecycleHook(ProgramCount.class)
  void generatedDerivativesAreExactAndConsistent(@ForAll("batches") List<Program> batch) {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"),
        "com.example.Programs", RandomPrograms.classSource(batch));
    GeneratedClassChecks.assertNoMutableStaticState(compiled.load("com.example.ProgramsGrad"));
    for (int i = 0; i < batch.size(); i++) {
      Program program = batch.get(i);
      CompiledFunction f = compiled.function("com.example.Programs", "m" + i, program.arity());
      RandomPrograms.Compiled interpreter = RandomPrograms.compile(program, "m" + i);
      for (double[] x : program.pointList().subList(0, POINTS)) {
        checkAt(f, interpreter, x);
      }
      programs.incrementAndGet();
    }
  }

  /** The checks at one point; public for the regression tests of shrunk counterexamples. */
  static void checkAt(CompiledFunction f, RandomPrograms.Compiled interpreter, double[] x) {
    points.incrementAndGet();
    String where = "at " + Arrays.toString(x) + " of\n" + interpreter.source();
    Trace trace = new Trace();
    double value = f.value(x);
    assertWithMessage("generator bug: the interpreter disagrees with javac %s", where)
        .that(interpreter.evaluate(x, trace)).isEqualTo(value);

    double[] gradient = f.gradient(x);
    double[] written = new double[x.length];
    Arrays.fill(written, -123.0);
    assertWithMessage("value of ValueAndGradient %s", where)
        .that(f.valueAndGradient(x, written)).isEqualTo(value);
    assertWithMessage("gradient of ValueAndGradient %s", where)
        .that(written).usingExactEquality().containsExactly(gradient).inOrder();
    double seed = -1.75;
    double[] adjoints = new double[x.length];
    for (int i = 0; i < adjoints.length; i++) {
      adjoints[i] = 0.5 * i - 0.25;
    }
    double[] before = adjoints.clone();
    assertWithMessage("value of Pullback %s", where)
        .that(f.pullback(x, seed, adjoints)).isEqualTo(value);

    if (trace.largestMagnitude() > CAP) {
      tooLarge.incrementAndGet();
      return;
    }
    for (int i = 0; i < adjoints.length; i++) {
      double expected = before[i] + seed * gradient[i];
      assertWithMessage("Pullback adjoint %s %s", i, where).that(adjoints[i])
          .isWithin(MODE_TOLERANCE * scale(expected, seed * gradient[i])).of(expected);
    }
    double[][] directions = new double[x.length + 1][x.length];
    for (int i = 0; i < x.length; i++) {
      directions[i][i] = 1.0;
      directions[x.length][i] = 0.3 - 0.7 * i;
    }
    for (double[] v : directions) {
      double dot = 0;
      double magnitude = 0;
      for (int i = 0; i < v.length; i++) {
        dot += gradient[i] * v[i];
        magnitude += Math.abs(gradient[i] * v[i]);
      }
      assertWithMessage("Tangent along %s (gradient %s) %s", Arrays.toString(v),
          Arrays.toString(gradient), where)
          .that(f.tangent(x, v)).isWithin(MODE_TOLERANCE * scale(magnitude)).of(dot);
    }

    List<Double> signature = trace.signature();
    boolean[] straddles = {false};
    ToDoubleFunction<double[]> watched = p -> {
      Trace t = new Trace();
      double y = interpreter.evaluate(p, t);
      if (!t.signature().equals(signature)) {
        straddles[0] = true;
      }
      return y;
    };
    switch (FiniteDifferenceComparison.compare(watched, () -> straddles[0], x, gradient,
        NUMERIC_TOLERANCE, where)) {
      case FULLY_CHECKED -> fullyChecked.incrementAndGet();
      case REFINED -> {
        fullyChecked.incrementAndGet();
        refined.incrementAndGet();
      }
      case STRADDLES -> straddling.incrementAndGet();
      case NOT_CONVERGED -> notConverged.incrementAndGet();
    }
  }

  private static double scale(double... magnitudes) {
    double scale = 1.0;
    for (double m : magnitudes) {
      scale = Math.max(scale, Math.abs(m));
    }
    return scale;
  }

  /**
   * Sets the number of tries from {@code -Dad4j.programs}, checks the share of fully checked
   * points, prints the statistics, and records a long run.
   */
  public static final class ProgramCount implements AroundPropertyHook {
    private static final String START = "<!-- long-run: start (rewritten by the test) -->";
    private static final String END = "<!-- long-run: end -->";

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context,
        PropertyExecutor property) {
      String requested = System.getProperty("ad4j.programs");
      int count = requested == null || requested.isBlank() ? DEFAULT_PROGRAMS
          : Integer.parseInt(requested.trim());
      context.attributes().setTries(Math.max(1, count / BATCH));
      PropertySeeds.apply(context);
      Instant start = Instant.now();
      PropertyExecutionResult result = property.execute();
      Duration duration = Duration.between(start, Instant.now());
      String statistics = String.format(
          "programs %d, points %d: fully checked %d (%d of them with finer steps), over the cap %d,"
              + " straddling a kink %d, finite differences not converged %d",
          programs.get(), points.get(), fullyChecked.get(), refined.get(), tooLarge.get(),
          straddling.get(), notConverged.get());
      System.out.println("RandomProgramsPropertyTest: " + statistics + ", seed "
          + result.seed().orElse("?") + ", " + duration.toMillis() + " ms");
      if (result.status() == PropertyExecutionResult.Status.SUCCESSFUL
          && fullyChecked.get() < MIN_FULLY_CHECKED * points.get()) {
        result = result.mapToFailed("only " + fullyChecked.get() + " of " + points.get()
            + " points were fully checked; the generator or the exemptions have degenerated");
      }
      if (requested != null && !requested.isBlank()) {
        record(count, result, statistics, duration, start);
      }
      return result;
    }

    private static void record(int count, PropertyExecutionResult result, String statistics,
        Duration duration, Instant start) {
      String failure = result.throwable().map(t -> {
        String message = String.valueOf(t.getMessage());
        return message.length() > 4000 ? message.substring(0, 4000) + "..." : message;
      }).orElse("none");
      String text = String.join("\n",
          START,
          "## Last long run of RandomProgramsPropertyTest",
          "",
          "Written by the test itself when run with `-Dad4j.programs=N`:",
          "",
          "```",
          "mvn -pl ad-processor test -Dtest=RandomProgramsPropertyTest -Dad4j.programs=" + count,
          "```",
          "",
          "| | |",
          "|---|---|",
          "| date | " + start.truncatedTo(ChronoUnit.SECONDS) + " |",
          "| JDK | " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name")
              + "), " + Runtime.getRuntime().availableProcessors() + " processors |",
          "| programs requested | " + count + " (" + Math.max(1, count / BATCH) + " compilations of "
              + BATCH + " methods, " + POINTS + " points each) |",
          "| programs checked | " + programs.get() + " |",
          "| seed | " + result.seed().orElse("?") + " (replay: add `-Dad4j.seed=...`) |",
          "| status | " + result.status() + " |",
          "| failures | " + (result.status() == PropertyExecutionResult.Status.SUCCESSFUL ? 0 : 1)
              + " (jqwik stops at the first failure and shrinks it) |",
          "| duration | " + duration.toSeconds() + " s |",
          "| points | " + statistics + " |",
          "",
          "Failure (shrunk):",
          "",
          "```",
          failure,
          "```",
          END);
      try {
        Path file = Path.of("src/test/resources/reliability/LAST_LONG_RUN.md");
        Files.createDirectories(file.getParent());
        String old = Files.exists(file) ? Files.readString(file) : "";
        int from = old.indexOf(START);
        int to = old.indexOf(END);
        String updated = from >= 0 && to > from
            ? old.substring(0, from) + text + old.substring(to + END.length())
            : "# Reliability results\n\n" + text + "\n" + old;
        Files.writeString(file, updated);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
