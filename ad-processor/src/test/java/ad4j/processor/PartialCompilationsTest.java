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
import javax.tools.JavaFileObject;
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

  /** The derivatives the rules give: floor passes its argument's, |u| has tanh(u / 0.1). */
  private static void assertRulesUsed(Path classes, String build) throws Exception {
    for (double x : POINTS) {
      assertWithMessage("quantizedGradient at %s, %s", x, build)
          .that(gradient(classes, "quantized", x)).isWithin(1e-12).of(1 + 2 * x);
      assertWithMessage("penaltyGradient at %s, %s", x, build)
          .that(gradient(classes, "penalty", x)).isWithin(1e-12).of(3 * Math.tanh((x - 0.2) / 0.1));
    }
  }

  @Test
  void rulesOfAClassLeftOutOfAPartialCompilationStillCount(@TempDir Path root) throws Exception {
    Path src = write(root.resolve("src"), "ProjectRules", RULES, "Library", LIBRARY, "Model",
        MODEL);
    Path classes = Files.createDirectories(root.resolve("classes"));
    Path generated = Files.createDirectories(root.resolve("generated"));
    compile(classes, generated, null, src, "ProjectRules", "Library", "Model");
    assertRulesUsed(classes, "full build");
    String full = Files.readString(generated.resolve("com/example/ModelGrad.java"));

    // Model.java edited: only it is compiled again (no source path, as IntelliJ and Gradle run)
    compile(classes, generated, null, src, "Model");
    assertRulesUsed(classes, "after compiling Model.java alone");
    assertWithMessage("ModelGrad after compiling Model.java alone")
        .that(Files.readString(generated.resolve("com/example/ModelGrad.java"))).isEqualTo(full);

    // the same with the source roots as the source path, as Maven passes them
    compile(classes, generated, src, src, "Model");
    assertRulesUsed(classes, "after compiling Model.java alone with a source path");
  }

  /** ECJ, as Eclipse's builder and the command line run it, keeps and reads the list too. */
  @Test
  void rulesOfAClassLeftOutOfAPartialCompilationStillCountUnderEcj(@TempDir Path root)
      throws Exception {
    Path src = write(root.resolve("src"), "ProjectRules", RULES, "Library", LIBRARY, "Model",
        MODEL);
    Path classes = Files.createDirectories(root.resolve("classes"));
    Path generated = Files.createDirectories(root.resolve("generated"));
    JavaCompiler ecj = new org.eclipse.jdt.internal.compiler.tool.EclipseCompiler();
    List<String> options = List.of("-17", "-proc:full");
    compile(ecj, options, classes, generated, null, src, "ProjectRules", "Library", "Model");
    assertRulesUsed(classes, "full build with ECJ");
    compile(ecj, options, classes, generated, null, src, "Model");
    assertRulesUsed(classes, "after compiling Model.java alone with ECJ");
  }

  @Test
  void aRulesClassWhoseSourceIsDeletedNoLongerCounts(@TempDir Path root) throws Exception {
    Path src = write(root.resolve("src"), "ProjectRules", RULES, "Library", LIBRARY, "Model",
        MODEL);
    Path classes = Files.createDirectories(root.resolve("classes"));
    Path generated = Files.createDirectories(root.resolve("generated"));
    compile(classes, generated, src, src, "ProjectRules", "Library", "Model");
    assertRulesUsed(classes, "full build");

    // ProjectRules.java deleted, its class file left behind (by a build that does not track the
    // files it wrote), and every source compiled again
    Files.delete(src.resolve("com/example/ProjectRules.java"));
    assertWithMessage("the class file left behind")
        .that(Files.exists(classes.resolve("com/example/ProjectRules.class"))).isTrue();
    compile(classes, generated, src, src, "Library", "Model");
    for (double x : POINTS) {
      assertWithMessage("quantizedGradient at %s", x)
          .that(gradient(classes, "quantized", x)).isWithin(1e-12).of(2 * x);
      assertWithMessage("penaltyGradient at %s", x)
          .that(gradient(classes, "penalty", x)).isWithin(1e-12).of(3 * Math.signum(x - 0.2));
    }
    assertWithMessage("the list of rule classes")
        .that(Files.readString(classes.resolve(RuleClassIndex.RESOURCE))).isEmpty();
  }

  @Test
  void aRulesClassCompiledAgainWithoutItsRulesNoLongerCounts(@TempDir Path root)
      throws Exception {
    Path src = write(root.resolve("src"), "ProjectRules", RULES, "Library", LIBRARY, "Model",
        MODEL);
    Path classes = Files.createDirectories(root.resolve("classes"));
    Path generated = Files.createDirectories(root.resolve("generated"));
    compile(classes, generated, null, src, "ProjectRules", "Library", "Model");
    assertRulesUsed(classes, "full build");

    write(src, "ProjectRules", "package com.example;\nfinal class ProjectRules {}\n");
    compile(classes, generated, null, src, "ProjectRules", "Model");
    assertWithMessage("quantizedGradient at 0.3")
        .that(gradient(classes, "quantized", 0.3)).isWithin(1e-12).of(0.6);
    assertWithMessage("penaltyGradient at 0.3")
        .that(gradient(classes, "penalty", 0.3)).isWithin(1e-12).of(3.0);
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
   * javac with ad4j's processors on the named sources, into {@code classes} (also on the class
   * path, as a build's earlier output is), with {@code sourcePath} as the source path if not
   * null, after removing what an earlier compilation of those sources wrote. Fails on an error
   * or a warning.
   */
  private static void compile(Path classes, Path generated, Path sourcePath, Path src,
      String... names) throws IOException {
    compile(ToolProvider.getSystemJavaCompiler(), List.of("-Xlint:all", "-Werror"), classes,
        generated, sourcePath, src, names);
  }

  /** As {@link #compile(Path, Path, Path, Path, String...)}, with another compiler. */
  private static void compile(JavaCompiler compiler, List<String> compilerOptions, Path classes,
      Path generated, Path sourcePath, Path src, String... names) throws IOException {
    // as a build does before compiling a file again: its classes and generated files go
    for (String name : names) {
      for (Path dir : List.of(classes.resolve("com/example"), generated.resolve("com/example"))) {
        if (Files.isDirectory(dir)) {
          try (var outputs = Files.newDirectoryStream(dir, name + "{,$*,Grad*}.{class,java}")) {
            for (Path output : outputs) {
              Files.delete(output);
            }
          }
        }
      }
    }
    List<String> options = new ArrayList<>(compilerOptions);
    options.addAll(List.of("-d", classes.toString(), "-s", generated.toString(), "-classpath",
        classes + File.pathSeparator + System.getProperty("java.class.path")));
    if (sourcePath != null) {
      options.addAll(List.of("-sourcepath", sourcePath.toString()));
    }
    StringWriter output = new StringWriter();
    try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
      List<File> sources = new ArrayList<>();
      for (String name : names) {
        sources.add(src.resolve("com/example/" + name + ".java").toFile());
      }
      Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromFiles(sources);
      JavaCompiler.CompilationTask task = compiler.getTask(output, files, null, options, null,
          units);
      task.setProcessors(List.of(new AnnotatedLocalClassesProcessor(),
          new DifferentiableProcessor()));
      boolean compiled = task.call();
      assertWithMessage("compiling %s: %s", String.join(" ", names), output).that(compiled)
          .isTrue();
    }
  }

  /** {@code ModelGrad.<name>Gradient(x)[0]}, loaded afresh from {@code classes}. */
  private static double gradient(Path classes, String name, double x) throws Exception {
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
        PartialCompilationsTest.class.getClassLoader())) {
      var method = loader.loadClass("com.example.ModelGrad")
          .getDeclaredMethod(name + "Gradient", double.class);
      method.setAccessible(true);
      return ((double[]) method.invoke(null, x))[0];
    }
  }
}
