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
 * The whole generated class for the design's example, checked in as
 * {@code src/test/resources/golden/RosenbrockGrad.java} so that a reviewer sees every line; and
 * determinism: two compilations write identical bytes.
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

  private static final String GOLDEN = "golden/RosenbrockGrad.java";

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
    assertThat(compileRosenbrock())
        .generatedSourceFile("com.example.RosenbrockGrad")
        .hasSourceEquivalentTo(JavaFileObjects.forSourceString("com.example.RosenbrockGrad",
            golden()));
  }

  /** The same syntax tree, ignoring comments and formatting (javac's parser, public API). */
  @Test
  void generatesTheGoldenSyntaxTree() {
    JavaFileObject generated = compileRosenbrock()
        .generatedSourceFile("com.example.RosenbrockGrad").orElseThrow();

    assertThat(syntaxTree(generated)).isEqualTo(syntaxTree(
        JavaFileObjects.forSourceString("com.example.RosenbrockGrad", golden())));
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
   * the golden file, and review its diff.
   */
  @Test
  void generatesTheGoldenSourceExactly() throws IOException {
    JavaFileObject generated = compileRosenbrock()
        .generatedSourceFile("com.example.RosenbrockGrad").orElseThrow();
    if (System.getProperty("ad4j.updateGolden") != null) {
      Files.writeString(Path.of("src/test/resources", GOLDEN), content(generated));
      return;
    }

    assertWithMessage("generated source differs from %s; if the change is intended, copy it"
        + " there", GOLDEN)
        .that(content(generated)).isEqualTo(golden());
  }

  @Test
  void compilingTwiceWritesIdenticalFiles() {
    Map<String, byte[]> first = outputs(compileRosenbrock());
    Map<String, byte[]> second = outputs(compileRosenbrock());

    assertThat(first.keySet()).containsAtLeast(
        "/SOURCE_OUTPUT/com/example/RosenbrockGrad.java",
        "/CLASS_OUTPUT/com/example/RosenbrockGrad.class");
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

  private static String golden() {
    try (InputStream in = GoldenTest.class.getClassLoader().getResourceAsStream(GOLDEN)) {
      assertWithMessage("missing resource %s", GOLDEN).that(in).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
