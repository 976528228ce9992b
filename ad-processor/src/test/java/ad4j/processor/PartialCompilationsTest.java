package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
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
    // LibraryGrad looked the rules class up too (whether a rule targets 'magnitude')
    assertThat(project.compileFailing("ProjectRules", "Model")).contains("ProjectRules.java:2:"
        + " error: ad4j: LibraryGrad, the derivatives of class Library, was generated from this"
        + " code as an earlier compilation found it");
    project.compile(null, "ProjectRules", "Library", "Model");
    project.assertGradients(0.3, 0.6, 3.0, "without the rules");
  }

  private static final String PAIR = String.join("\n",
      "package com.example;",
      "record Pair(double a, double b) {",
      "  static int unrelated() { return 1; }",
      "}");

  private static final String STEPS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Steps {",
      "  static int calls;",
      "  static void tick() { calls++; }",
      "  @Differentiable static double square(double x) { return x * x; }",
      "  static int unrelated() { return 1; }",
      "}");

  private static final String SCENE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Scene {",
      "  @Differentiable static double energy(double x, double y) {",
      "    Pair p = new Pair(x, y);",
      "    return p.a() * p.b() + Math.sin(p.a());",
      "  }",
      "  @Differentiable static double squares(double x) {",
      "    return Steps.square(x) + Steps.square(2 * x);",
      "  }",
      "}");

  private static final String[] READERS = {"Pair", "Steps", "Scene"};

  private static final String STALE = "error: ad4j: SceneGrad, the derivatives of class Scene,"
      + " was generated from this code as an earlier compilation found it; this compilation"
      + " changes the code but does not compile Scene, so SceneGrad would follow the old code:"
      + " compile Scene with this file (in an IDE, rebuild the project)";

  /**
   * A record's accessor written out in the record's file, compiled alone, as IntelliJ's
   * builder does after such an edit: {@code SceneGrad}, not made again, kept the gradient of
   * {@code p.a()} returning {@code a} (0.3 for {@code y} at (0.3, 0.7), where the method now
   * gives 0.6). It is the error at the record, which the file of {@code Scene} compiled with it
   * clears.
   */
  @Test
  void aRecordAccessorWrittenOutInAFileCompiledAloneIsAnError(@TempDir Path root)
      throws Exception {
    Project project = Project.javac(root);
    write(project.src, READERS_SOURCES);
    project.compile(null, READERS);
    assertEnergyGradient(project, 1, "full build");

    write(project.src, "Pair", PAIR.replace("  static int unrelated",
        "  public double a() { return 2 * a; }\n  static int unrelated"));
    assertThat(project.compileFailing("Pair")).contains("Pair.java:2: " + STALE);

    project.compile(null, "Pair", "Scene");
    assertEnergyGradient(project, 2, "Pair and Scene compiled again");
  }

  /** ECJ (Eclipse's builder also compiles only the files that changed) reports it too. */
  @Test
  void aRecordAccessorWrittenOutInAFileCompiledAloneIsAnErrorUnderEcj(@TempDir Path root)
      throws Exception {
    Project project = Project.of(root, new org.eclipse.jdt.internal.compiler.tool.EclipseCompiler(),
        List.of("-17", "-proc:full"));
    write(project.src, READERS_SOURCES);
    project.compile(null, READERS);
    assertEnergyGradient(project, 1, "full build with ECJ");

    write(project.src, "Pair", PAIR.replace("  static int unrelated",
        "  public double a() { return 2 * a; }\n  static int unrelated"));
    // ECJ knows nothing of the parsed trees: the line and column are in the message
    assertThat(project.compileFailing("Pair")).contains("ERROR: ad4j: Pair.java:2:1: "
        + STALE.substring("error: ad4j: ".length()));

    project.compile(null, "Pair", "Scene");
    assertEnergyGradient(project, 2, "Pair and Scene compiled again with ECJ");
  }

  /**
   * A called method that starts calling a counter, in its file compiled alone: {@code SceneGrad}
   * was made for a body without it (in a probe with two such calls, its tangent, not made
   * again, ran the counter 3 times where the method runs it twice). The error is at the method,
   * not at the class.
   */
  @Test
  void aCalledMethodChangedInAFileCompiledAloneIsAnError(@TempDir Path root) throws Exception {
    Project project = Project.javac(root);
    write(project.src, READERS_SOURCES);
    project.compile(null, READERS);

    write(project.src, "Steps", STEPS.replace("{ return x * x; }", "{ tick(); return x * x; }"));
    String output = project.compileFailing("Steps");
    assertThat(output).contains("Steps.java:6: " + STALE);
    assertThat(output).doesNotContain("Steps.java:3: ");

    // compiled with the class that reads it, the new body is what the call is judged by
    assertThat(project.compileFailing("Pair", "Steps", "Scene")).contains("Scene.java:9: error:"
        + " ad4j: call to 'Steps.square(...)': 'Steps.square' runs code that carries no"
        + " derivative ('tick()', line 6)");
  }

  /**
   * A caller's file compiled alone, after the full build: the called method's class is a class
   * file then, whose source the compilation does not have, and what the caller's generated
   * class made of the call (what the method runs) came from the method's generated class. The
   * method changed in its file compiled alone after that is the error too; it was listed only
   * where the caller's compilation had the source.
   */
  @Test
  void aCalledMethodReadFromItsClassFileIsListedToo(@TempDir Path root) throws Exception {
    Project project = Project.javac(root);
    write(project.src, "Steps", STEPS, "Caller", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Caller {",
        "  @Differentiable static double squares(double x) {",
        "    return Steps.square(x) + Steps.square(2 * x);",
        "  }",
        "}"));
    project.compile(null, "Steps", "Caller");
    project.compile(null, "Caller");
    assertWithMessage("CallerGrad.squaresGradient after Caller.java alone")
        .that(project.gradient("CallerGrad", "squares", 0.3)[0]).isWithin(1e-12).of(10 * 0.3);

    write(project.src, "Steps", STEPS.replace("{ return x * x; }", "{ tick(); return x * x; }"));
    assertThat(project.compileFailing("Steps")).contains("Steps.java:6: error: ad4j: CallerGrad,"
        + " the derivatives of class Caller, was generated from this code as an earlier"
        + " compilation found it");
  }

  /**
   * Edits that change nothing a generated class was made from: another method's body in the
   * record's file and in the called method's file, and a file compiled again unchanged.
   */
  @Test
  void anEditOfWhatNoGeneratedClassReadIsNoError(@TempDir Path root) throws Exception {
    Project project = Project.javac(root);
    write(project.src, READERS_SOURCES);
    project.compile(null, READERS);

    write(project.src, "Pair", PAIR.replace("return 1;", "return 2;"), "Steps",
        STEPS.replace("return 1;", "return 2;"));
    project.compile(null, "Pair", "Steps");
    project.compile(null, "Pair");
    assertEnergyGradient(project, 1, "after the edits");
  }

  /**
   * A value class (final, fields set by its constructor, read by getters) that two classes of
   * their own files read: its getter written as {@code 2 * re} in its file compiled alone is the
   * error for both generated classes. What a class found of a value class was kept for the
   * classes processed after it, which then read nothing of it themselves; each class now finds
   * it afresh, so both are listed.
   */
  @Test
  void aValueClassReadByTwoClassesIsAnErrorForBoth(@TempDir Path root) throws Exception {
    String real = String.join("\n",
        "package com.example;",
        "final class Real {",
        "  private final double re;",
        "  Real(double re) { this.re = re; }",
        "  double re() { return re; }",
        "}");
    String reader = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class NAME {",
        "  @Differentiable static double f(double t) {",
        "    Real r = new Real(t);",
        "    return r.re() * r.re();",
        "  }",
        "}");
    Project project = Project.javac(root);
    write(project.src, "Real", real, "First", reader.replace("NAME", "First"), "Second",
        reader.replace("NAME", "Second"));
    project.compile(null, "Real", "First", "Second");
    for (String generated : List.of("FirstGrad", "SecondGrad")) {
      assertWithMessage("%s.fGradient(0.3)", generated)
          .that(project.gradient(generated, "f", 0.3)[0]).isWithin(1e-12).of(0.6);
    }

    write(project.src, "Real", real.replace("return re;", "return 2 * re;"));
    String output = project.compileFailing("Real");
    for (String name : List.of("First", "Second")) {
      assertThat(output).contains("Real.java:5: error: ad4j: " + name + "Grad, the derivatives"
          + " of class " + name + ", was generated from this code as an earlier compilation found"
          + " it");
    }
  }

  /**
   * A rule added to a rules class compiled alone: a generated class of another file whose calls
   * took no rule looked no rules class up, and kept the built-in derivative of {@code Math.sin}
   * where the full build takes the rule. Every generated class counts the rule classes of its
   * compilation among what it was made from.
   */
  @Test
  void aRuleAddedInARulesClassCompiledAloneIsAnError(@TempDir Path root) throws Exception {
    Project project = Project.javac(root);
    write(project.src, "Waves", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Waves {",
        "  @Differentiable static double wave(double x) { return Math.sin(x) * x; }",
        "}"));
    project.compile(null, "ProjectRules", "Library", "Model", "Waves");
    double x = 0.3;
    assertWithMessage("waveGradient, full build")
        .that(project.gradient("WavesGrad", "wave", x)[0])
        .isWithin(1e-12).of(Math.cos(x) * x + Math.sin(x));

    write(project.src, "ProjectRules", RULES.replace("final class ProjectRules {",
        String.join("\n",
            "final class ProjectRules {",
            "  @DerivativeOf(owner = Math.class, value = \"sin\")",
            "  static double sinTwice(double x) { return 2 * Math.cos(x); }")));
    assertThat(project.compileFailing("ProjectRules")).contains("ProjectRules.java:3: error:"
        + " ad4j: WavesGrad, the derivatives of class Waves, was generated from this code as an"
        + " earlier compilation found it");

    project.compile(null, "ProjectRules", "Library", "Model", "Waves");
    assertWithMessage("waveGradient, with the rule")
        .that(project.gradient("WavesGrad", "wave", x)[0])
        .isWithin(1e-12).of(2 * Math.cos(x) * x + Math.sin(x));
  }

  private static final String[] READERS_SOURCES = {"Pair", PAIR, "Steps", STEPS, "Scene", SCENE};

  /**
   * {@code SceneGrad.energyGradient} where {@code p.a()} returns {@code scale * x}: the
   * derivatives of {@code s x y + sin(s x)}.
   */
  private static void assertEnergyGradient(Project project, double scale, String build)
      throws Exception {
    double x = 0.3;
    double y = 0.7;
    double[] gradient = project.gradient("SceneGrad", "energy", x, y);
    assertWithMessage("energyGradient, %s", build).that(gradient).usingTolerance(1e-12)
        .containsExactly(scale * y + scale * Math.cos(scale * x), scale * x).inOrder();
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
      StringWriter output = new StringWriter();
      assertWithMessage("compiling %s: %s", String.join(" ", names), output)
          .that(run(sourcePath, output, names)).isTrue();
    }

    /** Compiles the named sources without a source path, expecting errors: the output. */
    String compileFailing(String... names) throws IOException {
      StringWriter output = new StringWriter();
      assertWithMessage("compiling %s: %s", String.join(" ", names), output)
          .that(run(null, output, names)).isFalse();
      return output.toString();
    }

    private boolean run(Path sourcePath, StringWriter output, String... names)
        throws IOException {
      for (String name : names) {
        for (Path dir : List.of(classes.resolve("com/example"),
            generated.resolve("com/example"))) {
          if (Files.isDirectory(dir)) {
            try (var outputs = Files.newDirectoryStream(dir,
                name + "{,$*,Grad*}.{class,java}")) {
              for (Path written : outputs) {
                Files.delete(written);
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
      try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
        List<File> sources = new ArrayList<>();
        for (String name : names) {
          sources.add(src.resolve("com/example/" + name + ".java").toFile());
        }
        JavaCompiler.CompilationTask task = compiler.getTask(output, files, null, arguments,
            null, files.getJavaFileObjectsFromFiles(sources));
        task.setProcessors(List.of(new AnnotatedLocalClassesProcessor(),
            new ChangedReadCodeProcessor(), new DifferentiableProcessor()));
        return task.call();
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
      return gradient("ModelGrad", name, x)[0];
    }

    /**
     * {@code <generated>.<name>Gradient(x...)} of one or two {@code double}s, loaded afresh from
     * {@code classes}.
     */
    double[] gradient(String generated, String name, double... x) throws Exception {
      try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
          PartialCompilationsTest.class.getClassLoader())) {
        Class<?>[] parameters = new Class<?>[x.length];
        java.util.Arrays.fill(parameters, double.class);
        var method = loader.loadClass("com.example." + generated)
            .getDeclaredMethod(name + "Gradient", parameters);
        method.setAccessible(true);
        Object[] arguments = java.util.Arrays.stream(x).boxed().toArray();
        return (double[]) method.invoke(null, arguments);
      }
    }
  }
}
