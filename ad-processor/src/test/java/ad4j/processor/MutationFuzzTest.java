package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.Mutations;
import ad4j.processor.testing.Mutations.Mutation;
import ad4j.processor.testing.PropertySeeds;
import ad4j.processor.testing.RandomPrograms;
import ad4j.processor.testing.RandomPrograms.Program;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Robustness fuzzing of the front end: valid random programs (from {@link RandomPrograms}),
 * each mutated by one of {@link Mutations#ALL} into well-typed Java outside the language, must
 * each draw an ad4j compile error inside the mutated method, at a real position (line > 0), with
 * a message starting with {@code "ad4j: "}; no other error (the mutants are valid Java, so every
 * error is ad4j's); nothing that looks like a crash (an escaping exception fails the test by
 * itself; no diagnostic mentions an internal error or a stack trace); and no Grad class.
 */
class MutationFuzzTest {
  static final int BATCH = 10;

  record Mutant(Program program, Mutation mutation, int position) {
    String method(int index) {
      String name = "m" + index;
      String source = RandomPrograms.compile(program, name).source();
      String parameter = source.substring(source.indexOf('(') + "(double ".length(),
          source.indexOf(source.contains(",") && source.indexOf(',') < source.indexOf(')')
              ? ',' : ')'));
      return Mutations.apply(mutation, source, parameter, position, Integer.toString(index));
    }

    @Override
    public String toString() {
      return mutation + ":\n" + method(0);
    }
  }

  @Provide
  Arbitrary<List<Mutant>> mutants() {
    return Combinators.combine(RandomPrograms.programs(1), Arbitraries.of(Mutations.ALL),
        Arbitraries.integers().between(0, 100)).as(Mutant::new).list().ofSize(BATCH);
  }

  /** javac's debug options: without line numbers javac keeps no line map (issue 9). */
  @Provide
  Arbitrary<String> debugOptions() {
    return Arbitraries.of("-g", "-g:none", "-g:source", "-g:vars", "-g:lines", "-g:source,vars");
  }

  /**
   * 30 classes of 10 mutated methods each: every method must get its own error, and nothing
   * else may get one: not the valid overload beside them, nor the class. The class is top-level
   * or nested, and compiled with any debug option.
   */
  @Property(tries = 30, shrinking = ShrinkingMode.BOUNDED)
  @AddLifecycleHook(PropertySeeds.Hook.class)
  void everyMutantIsRejectedAtItsOwnPosition(@ForAll("mutants") List<Mutant> batch,
      @ForAll("debugOptions") String debug, @ForAll boolean nested) {
    StringBuilder source = new StringBuilder(
        "package com.example;\n\nimport static java.lang.Math.*;\n"
            + "import static java.lang.StrictMath.cos;\n\nimport ad4j.Differentiable;\n\n"
            + (nested ? "final class Outer {\n static final class Programs {\n"
                : "final class Programs {\n") + Mutations.CLASS_MEMBERS + "\n"
            + RandomPrograms.HELPERS + "\n"
            + "  private static final double K0 = 0.625;\n  static final int N1 = -3;\n"
            + "  static final long L2 = 5L;\n  static final float F3 = 0.1f;\n"
            + "  static final double R4 = Math.sqrt(2.0);\n  static final char C5 = 'b';\n"
            + "  @Differentiable static double m0(double a, int k) { return a * k; }\n\n");
    List<long[]> ranges = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      long first = source.chars().filter(c -> c == '\n').count() + 1;
      source.append(batch.get(i).method(i));
      long last = source.chars().filter(c -> c == '\n').count() + 1;
      ranges.add(new long[] {first, last});
    }
    source.append(nested ? " }\n}\n" : "}\n");
    JavaFileObject file = JavaFileObjects.forSourceString(
        nested ? "com.example.Outer" : "com.example.Programs", source.toString());

    Compilation compilation = InProcessCompiler.javac(debug).compile(file);

    String all = debug + "\n" + InProcessCompiler.describe(compilation.diagnostics()) + "\n"
        + source;
    assertCleanRejection(compilation, file, all);
    for (Diagnostic<? extends JavaFileObject> error : compilation.errors()) {
      assertWithMessage("error outside the mutated methods:\n%s", all)
          .that(ranges.stream().anyMatch(range -> error.getLineNumber() >= range[0]
              && error.getLineNumber() <= range[1])).isTrue();
    }
    for (int i = 0; i < batch.size(); i++) {
      long[] range = ranges.get(i);
      assertWithMessage("no ad4j error in method m%s (%s, lines %s-%s)\n%s", i,
          batch.get(i).mutation(), range[0], range[1], all)
          .that(compilation.errors().stream().anyMatch(
              d -> d.getLineNumber() >= range[0] && d.getLineNumber() <= range[1]))
          .isTrue();
    }
    assertWithMessage(all).that(InProcessCompiler.generatedSourceNames(file)).isEmpty();
  }

  static Stream<Mutation> mutations() {
    return Mutations.ALL.stream();
  }

  private static final String VALID_METHOD = String.join("\n",
      "  @Differentiable",
      "  static double m0(double x, double y) {",
      "    double a = Math.sin(x) * y;",
      "    {",
      "      double b = a * a;",
      "      y += b;",
      "    }",
      "    return a + y;",
      "  }");

  /**
   * Every mutation, in every build, alone in a method next to a valid one: an error at a
   * position inside the mutated method, and no Grad class for the whole class.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("mutations")
  void eachMutationIsRejectedAndNothingIsGenerated(Mutation mutation) {
    String mutated = Mutations.apply(mutation, VALID_METHOD, "x", 3, "0");
    String source = "package com.example;\n\nimport ad4j.Differentiable;\n\nfinal class Programs {\n"
        + Mutations.CLASS_MEMBERS + "\n"
        + "  @Differentiable static double ok(double x) { return x * x; }\n"
        + mutated + "\n}\n";
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Programs", source);

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertCleanRejection(compilation, file, InProcessCompiler.describe(compilation.diagnostics())
        + "\n" + source);
    assertWithMessage(source).that(compilation.errors().stream()
        .allMatch(d -> d.getLineNumber() >= 11)).isTrue();
    assertThat(InProcessCompiler.generatedSourceNames(file)).isEmpty();
  }

  private static void assertCleanRejection(Compilation compilation, JavaFileObject file,
      String context) {
    assertWithMessage("compiled, but must not:\n%s", context)
        .that(compilation.status()).isEqualTo(Compilation.Status.FAILURE);
    for (Diagnostic<? extends JavaFileObject> diagnostic : compilation.diagnostics()) {
      String message = diagnostic.getMessage(null);
      assertWithMessage("crash-like diagnostic:\n%s", context).that(message)
          .doesNotContainMatch("(?i:internal error)|[A-Z]\\w*(Exception|Error)\\b|\\bat [\\w.$]+\\(");
      if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
        assertWithMessage("error without ad4j prefix:\n%s", context).that(message)
            .startsWith("ad4j: ");
        assertWithMessage("error without position:\n%s", context)
            .that(diagnostic.getLineNumber()).isGreaterThan(0L);
        assertWithMessage("error in another file:\n%s", context)
            .that(diagnostic.getSource()).isEqualTo(file);
      }
    }
  }
}
