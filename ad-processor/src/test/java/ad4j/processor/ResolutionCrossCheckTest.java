package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.GeneratedManifest;
import ad4j.processor.testing.PropertySeeds;
import ad4j.processor.testing.ResolutionCrossCheck;
import ad4j.processor.testing.ResolutionPrograms;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * ad4j's name and overload resolution against javac's ({@link ResolutionCrossCheck}): for the
 * sources of {@link ResolutionTest} and for random programs of hiding, overloads (int, long,
 * double, Integer, Object or a type variable, double...), static imports, nested classes and
 * inheritance from interfaces and superclasses ({@link ResolutionPrograms}), every name and
 * call ad4j resolved in a {@code @Differentiable} method must mean what javac made of it, and
 * every random program must compile, warning-free in generated code, with derivatives that pass
 * {@link DerivativeChecks} against the user's own methods.
 *
 * <p>The number of random programs is {@code -Dad4j.resolutionPrograms} (default 8, compiled
 * together in seconds), their seed {@code -Dad4j.seed}; a long run:
 * {@code mvn -pl ad-processor test -Dtest=ResolutionCrossCheckTest -Dad4j.resolutionPrograms=2000}.
 * The whole test corpus is cross-checked with {@code -Dad4j.crossCheck} (every compilation of
 * {@code InProcessCompiler}; mismatches and totals in {@code target/resolution-cross-check.txt}).
 */
@ExtendWith(TapeIsEmpty.class)
class ResolutionCrossCheckTest {
  private static final long SEED = PropertySeeds.programsSeed(20261128);
  private static final int PROGRAMS = Integer.getInteger("ad4j.resolutionPrograms", 8);
  /** Programs compiled together, so that one compilation's start-up serves many. */
  private static final int BATCH = 40;

  @TempDir
  Path directory;

  @Test
  void theSourcesOfResolutionTestResolveAsJavacResolvesThem() {
    List<JavaFileObject> sources = List.of(
        source("com.example.Constants", ResolutionTest.CONSTANTS),
        source("com.example.Base", ResolutionTest.BASE),
        source("com.example.Hiding", ResolutionTest.HIDING),
        source("com.example.Calls", ResolutionTest.CALLS),
        source("com.example.Groups", ResolutionTest.GROUPS),
        source("com.example.Model", ResolutionTest.MODEL),
        source("com.lib.Base", ResolutionTest.LIB_BASE),
        source("com.lib.Api", ResolutionTest.LIB_API),
        source("com.example.User", ResolutionTest.USER),
        source("com.example.Scales", ResolutionTest.SCALES),
        source("com.example.Factors", ResolutionTest.FACTORS),
        source("com.example.Imports", ResolutionTest.IMPORTS));
    ResolutionCrossCheck.Outcome outcome = ResolutionCrossCheck.compile(sources);
    assertWithMessage("errors").that(outcome.errors()).isEmpty();
    assertThat(outcome.check().mismatches()).isEmpty();
    assertThat(outcome.check().compared()).isAtLeast(60);
  }

  @Test
  void randomProgramsResolveAsJavacResolvesThem() throws IOException {
    int compared = 0;
    int unrecorded = 0;
    for (int first = 0; first < PROGRAMS; first += BATCH) {
      int count = Math.min(BATCH, PROGRAMS - first);
      List<ResolutionPrograms.Program> programs = new ArrayList<>();
      List<JavaFileObject> sources = new ArrayList<>();
      for (int i = first; i < first + count; i++) {
        ResolutionPrograms.Program program =
            ResolutionPrograms.generate(new Random(SEED + i), "p" + i);
        programs.add(program);
        program.sources().forEach((name, text) -> sources.add(source(name, text)));
      }
      Path output = directory.resolve("batch" + first);
      java.nio.file.Files.createDirectories(output);
      ResolutionCrossCheck.Outcome outcome = ResolutionCrossCheck.compile(sources, output);
      String where = "seed " + SEED + ", programs " + first + " to " + (first + count - 1);
      assertWithMessage("errors, %s:\n%s", where, programs.stream()
              .map(p -> String.join("\n", p.sources().values()))
              .collect(Collectors.joining("\n")))
          .that(outcome.errors()).isEmpty();
      assertWithMessage("warnings in generated code, %s", where).that(outcome.diagnostics()
              .stream().filter(d -> d.getKind() != Diagnostic.Kind.NOTE
                  && d.getSource() != null && d.getSource().getName().contains("Grad"))
              .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + " "
                  + d.getMessage(null))
              .toList())
          .isEmpty();
      assertWithMessage("mismatches, %s", where).that(outcome.check().mismatches()).isEmpty();
      compared += outcome.check().compared();
      unrecorded += outcome.check().unrecorded();
      try (URLClassLoader loader = new URLClassLoader(new URL[] {output.toUri().toURL()},
          getClass().getClassLoader())) {
        for (ResolutionPrograms.Program program : programs) {
          for (String userClass : program.classes()) {
            String gradClass = program.pkg() + "."
                + userClass.substring(program.pkg().length() + 1).replace('$', '_') + "Grad";
            CompiledFunction f = CompiledFunction.load(loader, userClass, gradClass, "f", 1);
            DerivativeChecks.checkAt(f, 0.7);
            DerivativeChecks.checkAt(f, -1.3);
          }
        }
      }
    }
    // each program has two methods of about 25 names and calls each
    assertThat(compared).isAtLeast(PROGRAMS * 40);
    System.out.println("ResolutionCrossCheckTest: " + PROGRAMS + " random programs, seed "
        + SEED + ", " + compared + " names and calls compared with javac's, " + unrecorded
        + " that javac resolved and ad4j did not record");
  }

  /**
   * Under ECJ, which gives processors no syntax trees (ad4j parses the source itself,
   * {@code ParsedTrees}): ad4j's resolutions while ECJ compiles the sources of
   * {@link ResolutionTest} and random programs, against javac's of the same files.
   */
  @Test
  void underEcjNamesResolveAsJavacResolvesThem() throws IOException {
    java.util.Map<String, String> sources = new java.util.LinkedHashMap<>();
    sources.put("com.example.Constants", ResolutionTest.CONSTANTS);
    sources.put("com.example.Base", ResolutionTest.BASE);
    sources.put("com.example.Hiding", ResolutionTest.HIDING);
    sources.put("com.example.Groups", ResolutionTest.GROUPS);
    sources.put("com.example.Model", ResolutionTest.MODEL);
    List<ResolutionPrograms.Program> programs = new ArrayList<>();
    for (int i = 0; i < Math.min(PROGRAMS, 4); i++) {
      ResolutionPrograms.Program program =
          ResolutionPrograms.generate(new Random(SEED + i), "p" + i);
      programs.add(program);
      sources.putAll(program.sources());
    }
    Path src = directory.resolve("src");
    List<Path> files = new ArrayList<>();
    for (java.util.Map.Entry<String, String> entry : sources.entrySet()) {
      Path file = src.resolve(entry.getKey().replace('.', '/') + ".java");
      java.nio.file.Files.createDirectories(file.getParent());
      java.nio.file.Files.writeString(file, entry.getValue());
      files.add(file);
    }
    Path classes = java.nio.file.Files.createDirectories(directory.resolve("classes"));
    Path generated = java.nio.file.Files.createDirectories(directory.resolve("generated"));
    // ParsedTrees names a file string:///<path>, javac file:///<path>: keys from src/ on
    ResolutionCrossCheck check =
        new ResolutionCrossCheck(uri -> uri.substring(uri.lastIndexOf("/src/") + 1));

    javax.tools.JavaCompiler ecj = new org.eclipse.jdt.internal.compiler.tool.EclipseCompiler();
    javax.tools.DiagnosticCollector<JavaFileObject> diagnostics =
        new javax.tools.DiagnosticCollector<>();
    boolean succeeded;
    try (javax.tools.StandardJavaFileManager fileManager = ecj.getStandardFileManager(
        diagnostics, java.util.Locale.ROOT, java.nio.charset.StandardCharsets.UTF_8)) {
      javax.tools.JavaCompiler.CompilationTask task = ecj.getTask(null, fileManager,
          diagnostics, List.of("-17", "-proc:full", "-d", classes.toString(), "-s",
              generated.toString(), "-classpath", System.getProperty("java.class.path")),
          null, fileManager.getJavaFileObjects(files.toArray(Path[]::new)));
      task.setProcessors(
          List.of(GeneratedManifest.recording(new DifferentiableProcessor())));
      ad4j.processor.front.ResolutionLog.listen(check.recorder());
      try {
        succeeded = task.call();
      } finally {
        ad4j.processor.front.ResolutionLog.listen(null);
      }
    }
    assertWithMessage("ECJ's errors").that(diagnostics.getDiagnostics().stream()
            .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
            .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + " "
                + d.getMessage(null))
            .toList())
        .isEmpty();
    assertThat(succeeded).isTrue();

    java.nio.file.Files.createDirectories(directory.resolve("javac"));
    javax.tools.JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
    try (javax.tools.StandardJavaFileManager fileManager =
        javac.getStandardFileManager(null, null, null)) {
      com.sun.source.util.JavacTask task = (com.sun.source.util.JavacTask) javac.getTask(
          new java.io.StringWriter(), fileManager, null, List.of("-proc:none", "-d",
              directory.resolve("javac").toString(), "-classpath",
              System.getProperty("java.class.path")),
          null, fileManager.getJavaFileObjectsFromPaths(files));
      task.addTaskListener(check.comparingListener(com.sun.source.util.Trees.instance(task)));
      assertThat(task.call()).isTrue();
    }
    assertThat(check.mismatches()).isEmpty();
    assertThat(check.compared()).isAtLeast(40);
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
        getClass().getClassLoader())) {
      for (ResolutionPrograms.Program program : programs) {
        for (String userClass : program.classes()) {
          String gradClass = program.pkg() + "."
              + userClass.substring(program.pkg().length() + 1).replace('$', '_') + "Grad";
          DerivativeChecks.checkAt(
              CompiledFunction.load(loader, userClass, gradClass, "f", 1), 0.7);
        }
      }
    }
  }

  private static JavaFileObject source(String name, String text) {
    return JavaFileObjects.forSourceString(name, text);
  }
}
