package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import com.sun.source.util.JavacTask;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The whole generated class for the design's example and its companion for callers' code,
 * checked in as {@code src/test/resources/golden/RosenbrockGrad.java} and
 * {@code RosenbrockGradSweeps.java} so that a reviewer sees every line; and determinism: two
 * compilations write identical bytes.
 */
class GoldenTest {
  static final String ROSENBROCK = String.join("\n",
      "package com.example;",
      "",
      "import ad4j.Differentiable;",
      "",
      "final class Rosenbrock {",
      "  @Differentiable",
      "  static double value(double x, double y) {",
      "    double a = 1 - x;",
      "    double b = y - x * x;",
      "    return a * a + 100 * b * b;",
      "  }",
      "}",
      "");

  /** The generated classes, each checked against {@code golden/<simple name>.java}. */
  private static final List<String> GENERATED =
      List.of("com.example.RosenbrockGrad", "com.example.RosenbrockGradSweeps");

  private static Compilation compileRosenbrock() {
    Compilation compilation = InProcessCompiler.compileUnchecked("com.example.Rosenbrock", ROSENBROCK);
    InProcessCompiler.requireSuccess(compilation);
    return compilation;
  }

  /**
   * compile-testing's source equivalence parses with javac internals: the module's surefire
   * argLine exports them (see the ad-processor pom).
   */
  @Test
  void generatesTheGoldenSourceEquivalently() {
    Compilation compilation = compileRosenbrock();
    for (String name : GENERATED) {
      assertThat(compilation)
          .generatedSourceFile(name)
          .hasSourceEquivalentTo(JavaFileObjects.forSourceString(name, golden(name)));
    }
  }

  /** The same syntax tree, ignoring comments and formatting (javac's parser, public API). */
  @Test
  void generatesTheGoldenSyntaxTree() {
    Compilation compilation = compileRosenbrock();
    for (String name : GENERATED) {
      JavaFileObject generated = compilation.generatedSourceFile(name).orElseThrow();

      assertThat(syntaxTree(generated)).isEqualTo(syntaxTree(
          JavaFileObjects.forSourceString(name, golden(name))));
    }
  }

  private static String syntaxTree(JavaFileObject file) {
    JavacTask task = (JavacTask) ToolProvider.getSystemJavaCompiler()
        .getTask(null, null, null, List.of("-proc:none"), null, List.of(file));
    try {
      return task.parse().iterator().next().toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * After an intended change of the generated code, run once with {@code -Dad4j.updateGolden}
   * (e.g. {@code mvn -pl ad-processor test -Dtest=GoldenTest -Dad4j.updateGolden}) to rewrite
   * the golden files, and review their diff.
   */
  @Test
  void generatesTheGoldenSourceExactly() throws IOException {
    Compilation compilation = compileRosenbrock();
    for (String name : GENERATED) {
      JavaFileObject generated = compilation.generatedSourceFile(name).orElseThrow();
      if (System.getProperty("ad4j.updateGolden") != null) {
        Files.writeString(Path.of("src/test/resources", goldenPath(name)), content(generated));
        continue;
      }

      assertWithMessage("generated source differs from %s; if the change is intended, copy it"
          + " there", goldenPath(name))
          .that(content(generated)).isEqualTo(golden(name));
    }
  }

  @Test
  void compilingTwiceWritesIdenticalFiles() {
    Map<String, byte[]> first = outputs(compileRosenbrock());
    Map<String, byte[]> second = outputs(compileRosenbrock());

    assertThat(first.keySet()).containsAtLeast(
        "/SOURCE_OUTPUT/com/example/RosenbrockGrad.java",
        "/CLASS_OUTPUT/com/example/RosenbrockGrad.class",
        "/SOURCE_OUTPUT/com/example/RosenbrockGradSweeps.java",
        "/CLASS_OUTPUT/com/example/RosenbrockGradSweeps.class");
    assertThat(second.keySet()).isEqualTo(first.keySet());
    for (String name : first.keySet()) {
      assertWithMessage(name).that(second.get(name)).isEqualTo(first.get(name));
    }
  }

  private static Map<String, byte[]> outputs(Compilation compilation) {
    Map<String, byte[]> outputs = new TreeMap<>();
    for (JavaFileObject file : compilation.generatedFiles()) {
      try (InputStream in = file.openInputStream()) {
        outputs.put(file.toUri().getPath(), in.readAllBytes());
      } catch (java.io.FileNotFoundException e) {
        // ad4j looks for the lists of rule classes and of code read that an earlier build
        // wrote, which compile-testing counts as outputs of the compilation even where none is
        // there and none is written
        assertWithMessage("an output not written").that(
            List.of(RuleClassIndex.RESOURCE, CodeReadIndex.RESOURCE).stream()
                .anyMatch(file.toUri().getPath()::endsWith)).isTrue();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return outputs;
  }

  private static String content(JavaFileObject file) {
    try {
      return file.getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code golden/RosenbrockGrad.java} for {@code com.example.RosenbrockGrad}. */
  private static String goldenPath(String generatedClass) {
    return "golden/" + generatedClass.substring(generatedClass.lastIndexOf('.') + 1) + ".java";
  }

  private static String golden(String generatedClass) {
    String path = goldenPath(generatedClass);
    try (InputStream in = GoldenTest.class.getClassLoader().getResourceAsStream(path)) {
      assertWithMessage("missing resource %s", path).that(in).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
