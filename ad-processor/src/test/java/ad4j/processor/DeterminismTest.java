package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.PropertySeeds;
import ad4j.processor.testing.RandomPrograms;
import ad4j.processor.testing.RandomPrograms.Program;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * The generated sources are a function of the input only: byte-identical across builds (two
 * compilations in one JVM, fresh processor instances, different programs compiled in between)
 * and across JDKs.
 *
 * <p>The JDK comparison needs a second JDK, so it runs only when {@code -Dad4j.otherJdk} names
 * its home: it runs that JDK's {@code javac -proc:only} with this test's class path as processor
 * path on a fixed sample (a seeded batch of random programs plus the README's Rosenbrock) and
 * compares every generated file with what the in-process javac of the running JDK generates.
 * {@code src/test/scripts/compare-jdks.sh} runs it.
 */
class DeterminismTest {
  static final String SEED = "4242";

  @Provide
  Arbitrary<List<Program>> batches() {
    return RandomPrograms.programs(1).list().ofSize(40);
  }

  @Property(tries = 3)
  @AddLifecycleHook(PropertySeeds.Hook.class)
  void generatedSourcesAreIdenticalAcrossCompilations(@ForAll("batches") List<Program> batch) {
    JavaFileObject[] sample = sample(batch);
    Map<String, String> first = generated(sample);
    InProcessCompiler.compile("com.example.Rosenbrock", GoldenTest.ROSENBROCK); // in between
    Map<String, String> second = generated(sample(batch));
    assertThat(first).isNotEmpty();
    assertThat(second).containsExactlyEntriesIn(first);
  }

  /** Runs only with -Dad4j.otherJdk=/path/to/jdk (see compare-jdks.sh). */
  @Property(tries = 1, seed = SEED)
  void generatedSourcesAreIdenticalAcrossJdks(@ForAll("batches") List<Program> batch)
      throws IOException, InterruptedException {
    String otherJdk = System.getProperty("ad4j.otherJdk");
    if (otherJdk == null || otherJdk.isBlank()) {
      return;
    }
    JavaFileObject[] sample = sample(batch);
    Map<String, String> here = generated(sample);

    Path work = Files.createTempDirectory("ad4j-jdk");
    Path sources = Files.createDirectories(work.resolve("src/com/example"));
    Path out = Files.createDirectories(work.resolve("out"));
    List<String> command = new ArrayList<>(List.of(
        Path.of(otherJdk, "bin", "javac").toString(), "-proc:only",
        "-processor", DifferentiableProcessor.class.getName(),
        "-processorpath", System.getProperty("java.class.path"),
        "-classpath", System.getProperty("java.class.path"),
        "-s", out.toString(), "-d", out.toString(), "-encoding", "UTF-8"));
    for (JavaFileObject file : sample) {
      String simple = file.getName().substring(file.getName().lastIndexOf('/') + 1);
      Path path = sources.resolve(simple);
      Files.writeString(path, file.getCharContent(true), StandardCharsets.UTF_8);
      command.add(path.toString());
    }
    Process javac = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertWithMessage("javac of %s timed out", otherJdk)
        .that(javac.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertWithMessage("javac of %s failed:\n%s", otherJdk, output)
        .that(javac.exitValue()).isEqualTo(0);

    Map<String, String> there = new TreeMap<>();
    try (Stream<Path> files = Files.walk(out)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        there.put(out.relativize(file).toString().replace(File.separatorChar, '/'),
            Files.readString(file, StandardCharsets.UTF_8));
      }
    }
    System.out.printf("DeterminismTest: %d generated files (%d characters) from JDK %s and from"
            + " %s: %s%n", here.size(), here.values().stream().mapToInt(String::length).sum(),
        System.getProperty("java.version"), otherJdk,
        here.equals(there) ? "byte-identical" : "DIFFERENT");
    assertThat(there.keySet()).containsExactlyElementsIn(here.keySet());
    for (Map.Entry<String, String> entry : here.entrySet()) {
      assertWithMessage("%s differs between JDK %s and %s", entry.getKey(),
          System.getProperty("java.version"), otherJdk)
          .that(there.get(entry.getKey())).isEqualTo(entry.getValue());
    }
  }

  /**
   * A method whose local arrays are made inside a loop: the reverse sweep makes one adjoint array
   * per such array, declared in the order the arrays are made. That order once came from a hash
   * map keyed by values, which hash by identity, so two compilations of one source could declare
   * them, and pass them to a part method, in different orders.
   */
  static final String ARRAYS_MADE_IN_A_LOOP = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "class Made {",
      "  @Differentiable static double f(double[] w, double c) {",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) {",
      "      double[] a = new double[i + 1];",
      "      double[] b = w.clone();",
      "      double[] d = new double[2];",
      "      double[] e = new double[3];",
      "      a[0] = w[i] * c;",
      "      b[i] = b[i] * c;",
      "      d[1] = a[0] + b[i];",
      "      e[2] = d[1] * c;",
      "      s += a[0] + b[i] + d[1] + e[2];",
      "    }",
      "    return s;",
      "  }",
      "}");

  @Example
  void adjointArraysOfArraysMadeInALoopComeInTheOrderTheArraysAreMade() {
    Map<String, String> first =
        generated(JavaFileObjects.forSourceString("com.example.Made", ARRAYS_MADE_IN_A_LOOP));
    assertThat(first.get("com/example/MadeGrad.java"))
        .contains("double[] aBar = new double[aLongest];\n"
            + "    double[] bBar = new double[bLongest];\n"
            + "    double[] dBar = new double[dLongest];\n"
            + "    double[] eBar = new double[eLongest];");
    for (int i = 0; i < 7; i++) {
      assertThat(generated(
          JavaFileObjects.forSourceString("com.example.Made", ARRAYS_MADE_IN_A_LOOP)))
          .containsExactlyEntriesIn(first);
    }
  }

  private static JavaFileObject[] sample(List<Program> batch) {
    return new JavaFileObject[] {
        JavaFileObjects.forSourceString("com.example.Programs", RandomPrograms.classSource(batch)),
        JavaFileObjects.forSourceString("com.example.Rosenbrock", GoldenTest.ROSENBROCK)};
  }

  /** Generated sources by path relative to the source output, e.g. com/example/FooGrad.java. */
  private static Map<String, String> generated(JavaFileObject... files) {
    Compilation compilation = InProcessCompiler.javac().compile(files);
    InProcessCompiler.requireSuccess(compilation);
    Map<String, String> sources = new TreeMap<>();
    for (JavaFileObject file : compilation.generatedSourceFiles()) {
      String path = file.toUri().getPath(); // /SOURCE_OUTPUT/com/example/FooGrad.java
      try {
        sources.put(path.substring(path.indexOf('/', 1) + 1), file.getCharContent(true).toString());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return sources;
  }
}
