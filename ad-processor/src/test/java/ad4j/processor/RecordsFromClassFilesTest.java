package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.eclipse.jdt.internal.compiler.tool.EclipseCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Value records that the compilation has only as class files (a library's jar, an earlier
 * build's output): generated code reads their components through their accessors, so an
 * accessor that computes ({@code public double y() { return y * y; }}) gave every derivative
 * taken there for the component the derivative of what it computes. With a library record
 * {@code Squared(double u, double v)} whose {@code v()} squares, a parameter
 * {@code Holder(Squared s, double w)} read as {@code h.s().v() * h.w() + h.s().u()} got the
 * gradient 2.0 for {@code v} at v = 3, w = 2, where the method's derivative is 2 v w = 12.0;
 * the source's accessor was the error, the class file's was not looked at. Such records are
 * now judged by their class file's bytecode (an accessor that only returns its field is the
 * five bytes javac and ECJ write for it); one whose class file cannot be read is the error.
 */
class RecordsFromClassFilesTest {
  private static final String VEC = String.join("\n",
      "package com.lib;",
      "public record Vec(double x, double y) {}");

  private static final String WRITTEN = String.join("\n",
      "package com.lib;",
      "public record Written(double a, double b) {",
      "  public double a() { return a; }",
      "  @Override public double b() { return this.b; }",
      "}");

  private static final String SQUARED = String.join("\n",
      "package com.lib;",
      "public record Squared(double u, double v) {",
      "  public double v() { return v * v; }",
      "}");

  private static final String HOLDER = String.join("\n",
      "package com.lib;",
      "public record Holder(Squared s, double w) {}");

  private static final String COUNTED = String.join("\n",
      "package com.lib;",
      "public record Counted(double c) {",
      "  public static int reads;",
      "  public double c() { reads++; return c; }",
      "}");

  private static final String[][] LIBRARY = {
      {"Vec", VEC}, {"Written", WRITTEN}, {"Squared", SQUARED}, {"Holder", HOLDER},
      {"Counted", COUNTED}};

  private static final String PLAIN = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import com.lib.Vec;",
      "import com.lib.Written;",
      "final class Plain {",
      "  @Differentiable static double f(Vec p, Written q) {",
      "    return p.x() * q.b() + Math.sin(p.y() * q.a());",
      "  }",
      "}");

  private static final String REJECTED = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "import com.lib.*;",
      "final class Rejected {",
      "  @Differentiable static double nested(Holder h) {",
      "    return h.s().v() * h.w() + h.s().u();",
      "  }",
      "  @Differentiable static double data(@NoDerivative Squared q, double t) {",
      "    return q.v() * t;",
      "  }",
      "  @Differentiable static double counted(Counted c) { return c.c() * c.c(); }",
      "}");

  private static String computes(String record, String component, String use) {
    return "ad4j: record '" + record + "' declares accessor '" + component + "()', whose body"
        + " is, as its class file shows, more than 'return " + component + ";': " + use
        + " is read through its accessors by generated code, which cannot read the record's"
        + " fields, and would take what '" + component + "()' does for each read of the"
        + " component; give that code a method of another name and leave the accessor as"
        + " javac writes it";
  }

  private static final String NESTED = computes("Squared", "v", "value record parameter 'h'");
  private static final String DATA = computes("Squared", "v", "'q'");
  private static final String COUNTS = computes("Counted", "c", "value record parameter 'c'");

  @Test
  void plainRecordsOfAClassDirectoryAreDifferentiated(@TempDir Path root) throws Exception {
    Path library = compileLibrary(root, ToolProvider.getSystemJavaCompiler());
    Path classes = Files.createDirectories(root.resolve("classes"));
    assertCompiles(javac(), List.of("-Xlint:all", "-Werror"), classes, library, "Plain", PLAIN);
    assertPlainGradient(classes, library);
  }

  /** A library's jar, as Maven and Gradle put it on the class path. */
  @Test
  void plainRecordsOfAJarAreDifferentiated(@TempDir Path root) throws Exception {
    Path jar = jar(compileLibrary(root, ToolProvider.getSystemJavaCompiler()),
        root.resolve("library.jar"));
    Path classes = Files.createDirectories(root.resolve("classes"));
    assertCompiles(javac(), List.of("-Xlint:all", "-Werror"), classes, jar, "Plain", PLAIN);
    assertPlainGradient(classes, jar);
  }

  @Test
  void accessorsThatComputeInAJarAreErrors(@TempDir Path root) throws Exception {
    Path jar = jar(compileLibrary(root, ToolProvider.getSystemJavaCompiler()),
        root.resolve("library.jar"));
    String output = compileFailing(javac(), List.of(), root, jar, "Rejected", REJECTED);
    assertThat(output).contains("Rejected.java:6: error: " + NESTED);
    assertThat(output).contains("Rejected.java:10: error: " + DATA);
    assertThat(output).contains("Rejected.java:12: error: " + COUNTS);
    assertThat(output).contains("3 errors");
  }

  /** The library compiled by ECJ: its accessors are the same five bytes. */
  @Test
  void recordsCompiledByEcjAreJudgedAlike(@TempDir Path root) throws Exception {
    Path library = compileLibrary(root, new EclipseCompiler());
    Path classes = Files.createDirectories(root.resolve("classes"));
    assertCompiles(javac(), List.of("-Xlint:all", "-Werror"), classes, library, "Plain", PLAIN);
    assertPlainGradient(classes, library);
    String output = compileFailing(javac(), List.of(), root, library, "Rejected", REJECTED);
    assertThat(output).contains("Rejected.java:6: error: " + NESTED);
    assertThat(output).contains("3 errors");
  }

  /** ECJ running the processor reads the class files through its own filer. */
  @Test
  void ecjRunningTheProcessorJudgesThemToo(@TempDir Path root) throws Exception {
    Path library = compileLibrary(root, ToolProvider.getSystemJavaCompiler());
    Path classes = Files.createDirectories(root.resolve("classes"));
    List<String> options = List.of("-17", "-proc:full");
    assertCompiles(new EclipseCompiler(), options, classes, library, "Plain", PLAIN);
    assertPlainGradient(classes, library);
    String output = compileFailing(new EclipseCompiler(), options, root, library, "Rejected",
        REJECTED);
    // ECJ knows nothing of the parsed trees: the line and column are in the message
    assertThat(output).contains("Rejected.java:6:47: " + NESTED.substring("ad4j: ".length()));
    assertThat(output).contains("Rejected.java:10:12: " + DATA.substring("ad4j: ".length()));
    assertThat(output).contains("Rejected.java:12:49: " + COUNTS.substring("ad4j: ".length()));
  }

  /** {@code PlainGrad.fGradient} against the derivatives of x b + sin(y a). */
  private static void assertPlainGradient(Path classes, Path library) throws Exception {
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL(),
        library.toUri().toURL()}, RecordsFromClassFilesTest.class.getClassLoader())) {
      Class<?> vec = loader.loadClass("com.lib.Vec");
      Class<?> written = loader.loadClass("com.lib.Written");
      double x = 0.4;
      double y = -1.3;
      double a = 0.7;
      double b = 2.1;
      Object p = vec.getConstructor(double.class, double.class).newInstance(x, y);
      Object q = written.getConstructor(double.class, double.class).newInstance(a, b);
      Method gradient = loader.loadClass("com.example.PlainGrad")
          .getDeclaredMethod("fGradient", vec, written);
      gradient.setAccessible(true);
      double c = Math.cos(y * a);
      assertWithMessage("PlainGrad.fGradient").that((double[]) gradient.invoke(null, p, q))
          .usingTolerance(1e-14).containsExactly(b, c * a, c * y, x).inOrder();
    }
  }

  private static JavaCompiler javac() {
    return ToolProvider.getSystemJavaCompiler();
  }

  /** The library's records compiled without the processor into {@code root/library}. */
  private static Path compileLibrary(Path root, JavaCompiler compiler) throws IOException {
    Path src = root.resolve("library-src");
    List<File> sources = new ArrayList<>();
    for (String[] record : LIBRARY) {
      sources.add(write(src.resolve("com/lib"), record[0], record[1]).toFile());
    }
    Path library = Files.createDirectories(root.resolve("library"));
    StringWriter output = new StringWriter();
    List<String> options = compiler instanceof EclipseCompiler
        ? List.of("-17", "-proc:none", "-d", library.toString())
        : List.of("-proc:none", "-d", library.toString());
    try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
      boolean compiled = compiler.getTask(output, files, null, options, null,
          files.getJavaFileObjectsFromFiles(sources)).call();
      assertWithMessage("compiling the library: %s", output).that(compiled).isTrue();
    }
    return library;
  }

  private static Path jar(Path classes, Path jar) throws IOException {
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file);
        Stream<Path> walk = Files.walk(classes)) {
      for (Path path : walk.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(path).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(path));
        out.closeEntry();
      }
    }
    return jar;
  }

  private static void assertCompiles(JavaCompiler compiler, List<String> options, Path classes,
      Path library, String name, String source) throws IOException {
    StringWriter output = new StringWriter();
    assertWithMessage("compiling %s: %s", name, output)
        .that(compile(compiler, options, classes, library, name, source, output)).isTrue();
  }

  private static String compileFailing(JavaCompiler compiler, List<String> options, Path root,
      Path library, String name, String source) throws IOException {
    StringWriter output = new StringWriter();
    Path classes = Files.createDirectories(root.resolve("rejected-classes"));
    assertWithMessage("compiling %s: %s", name, output)
        .that(compile(compiler, options, classes, library, name, source, output)).isFalse();
    return output.toString();
  }

  /**
   * {@code com/example/<name>.java} compiled with ad4j's processors into {@code classes}, with
   * {@code library} on the class path.
   */
  private static boolean compile(JavaCompiler compiler, List<String> options, Path classes,
      Path library, String name, String source, StringWriter output) throws IOException {
    Path file = write(classes.getParent().resolve("src/com/example"), name, source);
    Path generated = Files.createDirectories(classes.getParent().resolve("generated"));
    List<String> arguments = new ArrayList<>(options);
    arguments.addAll(List.of("-d", classes.toString(), "-s", generated.toString(),
        "-classpath", library + File.pathSeparator + System.getProperty("java.class.path")));
    try (StandardJavaFileManager files = compiler.getStandardFileManager(null, null, null)) {
      JavaCompiler.CompilationTask task = compiler.getTask(output, files, null, arguments,
          null, files.getJavaFileObjectsFromFiles(List.of(file.toFile())));
      task.setProcessors(List.of(new AnnotatedLocalClassesProcessor(),
          new ChangedReadCodeProcessor(), new DifferentiableProcessor()));
      return task.call();
    }
  }

  private static Path write(Path dir, String name, String source) throws IOException {
    return Files.writeString(Files.createDirectories(dir).resolve(name + ".java"), source);
  }
}
