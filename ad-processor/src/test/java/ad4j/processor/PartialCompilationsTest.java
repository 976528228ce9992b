package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds that compile only the files that changed, into the output of an earlier build
 * (IntelliJ's own builder, Maven with {@code useIncrementalCompilation} off), as such a build
 * runs javac: the sources given, the class output on the class path, with or without a source
 * path. A call sees the rules of every class of the compilation; a project-wide rules class
 * that was not edited is not in the compilation of the file that was, and before
 * {@link RuleClassIndex} its calls then took the built-in derivative, or the target's own, where
 * the full build took the rule.
 */
class PartialCompilationsTest {
  private static final String RULES = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "final class ProjectRules {",
      "  @DerivativeOf(owner = Math.class, value = \"floor\")",
      "  static double floorStraightThrough(double x) { return 1; }",
      "  @DerivativeOf(owner = Library.class, value = \"magnitude\")",
      "  static double smoothSign(double x) { return Math.tanh(x / 0.1); }",
      "}");

  private static final String LIBRARY = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Library {",
      "  @Differentiable static double magnitude(double x) { return Math.abs(x); }",
      "}");

  private static final String MODEL = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Model {",
      "  @Differentiable static double quantized(double x) {",
      "    return Math.floor(4 * x) / 4 + x * x;",
      "  }",
      "  @Differentiable static double penalty(double x) {",
      "    return Library.magnitude(x - 0.2) * 3;",
      "  }",
      "}");

  private static final double[] POINTS = {0.3, -0.45, 1.1};
  private static final String[] ALL = {"ProjectRules", "Library", "Model"};

  @Test
  void rulesOfAClassLeftOutOfAPartialCompilationStillCount(@TempDir Path root) throws Exception {
    Project project = Project.javac(root);
    project.compile(null, ALL);
    project.assertRulesUsed("full build");
    String full = Files.readString(project.generated.resolve("com/example/ModelGrad.java"));

    // Model.java edited: only it is compiled again (no source path, as IntelliJ and Gradle run)
    project.compile(null, "Model");
    project.assertRulesUsed("after compiling Model.java alone");
    assertWithMessage("ModelGrad after compiling Model.java alone")
        .that(Files.readString(project.generated.resolve("com/example/ModelGrad.java")))
        .isEqualTo(full);

    // the same with the source roots as the source path, as Maven passes them
    project.compile(project.src, "Model");
    project.assertRulesUsed("after compiling Model.java alone with a source path");
  }

  /** ECJ, as Eclipse's builder and the command line run it, keeps and reads the list too. */
  @Test
  void rulesOfAClassLeftOutOfAPartialCompilationStillCountUnderEcj(@TempDir Path root)
      throws Exception {
    Project project = Project.of(root, new org.eclipse.jdt.internal.compiler.tool.EclipseCompiler(),
        List.of("-17", "-proc:full"));
    project.compile(null, ALL);
    project.assertRulesUsed("full build with ECJ");
    project.compile(null, "Model");
    project.assertRulesUsed("after compiling Model.java alone with ECJ");
  }

  @Test
  void aRulesClassWhoseSourceIsDeletedNoLongerCounts(@TempDir Path root) throws Exception {
    Project project = Project.javac(root);
    project.compile(project.src, ALL);
    project.assertRulesUsed("full build");

    // ProjectRules.java deleted, its class file left behind (by a build that does not track the
    // files it wrote), and every source compiled again
    Files.delete(project.src.resolve("com/example/ProjectRules.java"));
    assertWithMessage("the class file left behind")
        .that(Files.exists(project.classes.resolve("com/example/ProjectRules.class"))).isTrue();
    project.compile(project.src, "Library", "Model");
    for (double x : POINTS) {
      project.assertGradients(x, 2 * x, 3 * Math.signum(x - 0.2), "without the rules");
    }
    assertWithMessage("the list of rule classes")
        .that(Files.readString(project.classes.resolve(RuleClassIndex.RESOURCE))).isEmpty();
  }

  @Test
  void aRulesClassCompiledAgainWithoutItsRulesNoLongerCounts(@TempDir Path root)
      throws Exception {
    Project project = Project.javac(root);
    project.compile(null, ALL);
    project.assertRulesUsed("full build");

    write(project.src, "ProjectRules", "package com.example;\nfinal class ProjectRules {}\n");
    project.compile(null, "ProjectRules", "Model");
    project.assertGradients(0.3, 0.6, 3.0, "without the rules");
  }

  /** Writes {@code com/example/Name.java} files from (name, source) pairs under {@code src}. */
  private static Path write(Path src, String... namesAndSources) throws IOException {
    Path dir = Files.createDirectories(src.resolve("com/example"));
    for (int i = 0; i < namesAndSources.length; i += 2) {
      Files.writeString(dir.resolve(namesAndSources[i] + ".java"), namesAndSources[i + 1]);
    }
    return src;
  }

  /**
   * The three sources under {@code src}, built into {@code classes} (also on the class path, as
   * a build's earlier output is) and {@code generated} by {@code compiler} with its
   * {@code options}.
   */
  private record Project(Path src, Path classes, Path generated, JavaCompiler compiler,
      List<String> options) {
    static Project javac(Path root) throws IOException {
      return of(root, ToolProvider.getSystemJavaCompiler(), List.of("-Xlint:all", "-Werror"));
    }

    static Project of(Path root, JavaCompiler compiler, List<String> options)
        throws IOException {
      return new Project(
          write(root.resolve("src"), "ProjectRules", RULES, "Library", LIBRARY, "Model", MODEL),
          Files.createDirectories(root.resolve("classes")),
          Files.createDirectories(root.resolve("generated")), compiler, options);
    }

    /**
     * Compiles the named sources, with {@code sourcePath} as the source path if not null, after
     * removing what an earlier compilation of them wrote, as a build does. Fails on an error
     * (and, with javac's options, on a warning).
     */
    void compile(Path sourcePath, String... names) throws IOException {
      for (String name : names) {
        for (Path dir : List.of(classes.resolve("com/example"),
            generated.resolve("com/example"))) {
          if (Files.isDirectory(dir)) {
            try (var outputs = Files.newDirectoryStream(dir,
                name + "{,$*,Grad*}.{class,java}")) {
              for (Path output : outputs) {
                Files.delete(output);
              }
            }
          }
        }
      }
      List<String> arguments = new ArrayList<>(options);
      arguments.addAll(List.of("-d", classes.toString(), "-s", generated.toString(),
          "-classpath", classes + File.pathSeparator + System.getProperty("java.class.path")));
      if (sourcePath != null) {
        arguments.addAll(List.of("-sourcepath", sourcePath.toString()));
      }
      StringWriter output = new StringWriter();
      try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
        List<File> sources = new ArrayList<>();
        for (String name : names) {
          sources.add(src.resolve("com/example/" + name + ".java").toFile());
        }
        JavaCompiler.CompilationTask task = compiler.getTask(output, files, null, arguments,
            null, files.getJavaFileObjectsFromFiles(sources));
        task.setProcessors(List.of(new AnnotatedLocalClassesProcessor(),
            new DifferentiableProcessor()));
        assertWithMessage("compiling %s: %s", String.join(" ", names), output)
            .that(task.call()).isTrue();
      }
    }

    /** The derivatives the rules give: floor passes its argument's, |u| has tanh(u / 0.1). */
    void assertRulesUsed(String build) throws Exception {
      for (double x : POINTS) {
        assertGradients(x, 1 + 2 * x, 3 * Math.tanh((x - 0.2) / 0.1), build);
      }
    }

    void assertGradients(double x, double quantized, double penalty, String build)
        throws Exception {
      assertWithMessage("quantizedGradient at %s, %s", x, build)
          .that(gradient("quantized", x)).isWithin(1e-12).of(quantized);
      assertWithMessage("penaltyGradient at %s, %s", x, build)
          .that(gradient("penalty", x)).isWithin(1e-12).of(penalty);
    }

    /** {@code ModelGrad.<name>Gradient(x)[0]}, loaded afresh from {@code classes}. */
    private double gradient(String name, double x) throws Exception {
      try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
          PartialCompilationsTest.class.getClassLoader())) {
        var method = loader.loadClass("com.example.ModelGrad")
            .getDeclaredMethod(name + "Gradient", double.class);
        method.setAccessible(true);
        return ((double[]) method.invoke(null, x))[0];
      }
    }
  }
}
