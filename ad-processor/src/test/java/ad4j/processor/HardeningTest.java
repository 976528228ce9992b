package ad4j.processor;

import static ad4j.processor.testing.Sources.unit;
import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.GeneratedManifest;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MixedFunction;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import com.google.testing.compile.Compiler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Adversarial but valid uses: compiler options, class layouts and names that broke ad4j once
 * (issue 9). Each test compiles code that must work, or must draw one clear ad4j error.
 */
class HardeningTest {

  private static String generatedSource(Compilation compilation, String className) {
    try {
      return compilation.generatedSourceFile(className).orElseThrow().getCharContent(true)
          .toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- compiler options ------------------------------------------------------------------------

  /** Without line numbers javac keeps no line map: the comments count lines themselves. */
  @ParameterizedTest
  @ValueSource(strings = {"-g:none", "-g:source", "-g:vars", "-g:source,vars"})
  void debugLevelsWithoutLineNumbers(String option) {
    Compiled compiled = InProcessCompiler.compileWith(List.of(option, "-Xlint:all", "-Werror"),
        "com.example.Rosenbrock", GoldenTest.ROSENBROCK);

    String generated = generatedSource(compiled.compilation(), "com.example.RosenbrockGrad");
    assertThat(generated).contains("// line 8: double a = 1 - x;\n");
    assertThat(generated).contains("// adjoint of line 10: return a * a + 100 * b * b;\n");
    DerivativeChecks.checkAt(compiled.function("com.example.Rosenbrock", "value", 2), -1.2, 1);
  }

  // ---- class layouts -------------------------------------------------------------------------

  /** g is declared in A: B's derivatives call AGrad.gTangent and AGrad.gPullback. */
  @Test
  void inheritedDifferentiableHelperIsCalledThroughItsDeclaringClass() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.A", unit("class A",
            "  @Differentiable static double g(double x) { return x * x * x; }"),
        "com.example.B", unit("final class B extends A",
            "  @Differentiable static double f(double x, double y) {"
                + " return g(x) * y + B.g(y); }"));

    CompiledFunction f = compiled.function("com.example.B", "f", 2);
    assertThat(f.gradient(2.0, 3.0)).usingTolerance(1e-12).containsExactly(36.0, 8.0 + 27.0)
        .inOrder();
    DerivativeChecks.checkAt(f, 2.0, 3.0);
    DerivativeChecks.checkAt(f, -0.5, 1.25);
  }

  // ---- overloads -----------------------------------------------------------------------------

  /** Overloads that differ only in the type of a parameter get overloaded members. */
  @Test
  void overloadsWithTheSameParameterCount() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.F", unit("final class F", String.join("\n",
            "  @Differentiable static double f(double x, int n) { return Math.pow(x, n); }",
            "  @Differentiable static double f(double x, double y) { return x * Math.sin(y); }",
            "  @Differentiable static double g(double x, double y) {"
                + " return f(x, 3) + f(x, y) + f(y, 2L * 1.0); }")));

    MixedFunction byInt = new MixedFunction(compiled, "com.example.F", "f", double.class,
        int.class);
    assertThat(byInt.gradient(new Object[] {2.0, 3})).usingTolerance(1e-12).containsExactly(12.0);
    assertThat(byInt.tangent(new Object[] {2.0, 3}, new double[] {1.0})).isWithin(1e-12).of(12.0);
    MixedFunction byDouble = new MixedFunction(compiled, "com.example.F", "f", double.class,
        double.class);
    assertThat(byDouble.gradient(new Object[] {2.0, 0.5})).usingTolerance(1e-12)
        .containsExactly(Math.sin(0.5), 2.0 * Math.cos(0.5)).inOrder();
    CompiledFunction g = compiled.function("com.example.F", "g", 2);
    DerivativeChecks.checkAt(g, 1.5, 0.25);
    DerivativeChecks.checkAt(g, -0.75, 2.0);
  }

  // ---- user mistakes are reported as such ----------------------------------------------------

  private static final String BROKEN_CALLEES = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class G {",
      "  @Differentiable double notStatic(double x) { return x; }",
      "  @Differentiable static int notDouble(double x) { return 1; }",
      "}",
      "");

  /** Each call names what is wrong with its callee; the callee's own error is reported too. */
  @Test
  void calleeInAnotherClassThatIsNotStaticOrNotDouble() {
    JavaFileObject callees = JavaFileObjects.forSourceString("com.example.G", BROKEN_CALLEES);
    JavaFileObject caller = JavaFileObjects.forSourceString("com.example.F", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x) { return G.notStatic(x); }",
        "  @Differentiable static double g(double x) { return G.notDouble(x); }",
        "}",
        ""));

    Compilation compilation = InProcessCompiler.javac().compile(caller, callees);

    assertThat(compilation).hadErrorContaining("call to 'G.notStatic(...)' is not"
        + " differentiable: @Differentiable method 'G.notStatic' is an instance method; call it"
        + " on an object of 'G'").inFile(caller).onLine(4).atColumn(65);
    assertThat(compilation).hadErrorContaining("call to 'G.notDouble(...)' is not"
        + " differentiable: @Differentiable method 'G.notDouble' returns 'int', and ad4j"
        + " differentiates methods returning 'double', 'float', 'double[]' or 'float[]' only")
        .inFile(caller)
        .onLine(5)
        .atColumn(65);
    assertThat(compilation).hadErrorContaining("'notDouble' must return 'double'")
        .inFile(callees).onLine(5);
    assertThat(compilation).hadErrorCount(3);
  }

  @Test
  void returnWithoutAValue() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", unit("final class F",
        "  @Differentiable static double f(double x) {\n"
            + "    if (x > 0) return;\n"
            + "    return x;\n"
            + "  }"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("'return' without a value: the method returns"
        + " 'double'").inFile(file).onLine(7).atColumn(16);
    assertThat(compilation).hadErrorCount(1);
  }

  // ---- what generated code can reach ---------------------------------------------------------

  /** F may call G's protected method, as its subclass; FGrad is no subclass, so it may not. */
  @Test
  void protectedStaticCalleeInAnotherPackage() {
    JavaFileObject callee = JavaFileObjects.forSourceString("other.G", String.join("\n",
        "package other;",
        "public class G {",
        "  @ad4j.Differentiable protected static double g(double x) { return x * x; }",
        "}"));
    JavaFileObject caller = JavaFileObjects.forSourceString("com.example.F", unit(
        "final class F extends other.G",
        "  @Differentiable static double f(double x) { return g(x) * 2; }"));

    Compilation compilation = InProcessCompiler.javac().compile(caller, callee);

    assertThat(compilation).hadErrorContaining("call to 'g(...)': generated code cannot call"
        + " it: method 'G.g' is protected in package 'other', and generated code lives in"
        + " package 'com.example'; make it public").inFile(caller).onLine(6).atColumn(55);
    assertThat(compilation).hadErrorCount(1);
  }

  /**
   * A throw or a read of something generated code cannot reach, with a caret where the error
   * goes; the class declares what the cases refer to.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "private exception class | throw new ‸E(\"neg\") | generated code cannot create this"
          + " exception: class 'F.E' is private; make it package-private",
      "private constructor | throw new ‸P(\"neg\") | generated code cannot create this"
          + " exception: the constructor P(java.lang.String) is private; make it"
          + " package-private",
      "private no-argument constructor | throw new ‸P() | generated code cannot create this"
          + " exception: the constructor P() is private; make it package-private"})
  void referencesGeneratedCodeCannotReach(String name, String statement, String message) {
    String method = "  @Differentiable static double f(double x) { if (x < 0) { "
        + statement.replace(CARET, "") + "; } return x; }";
    if (statement.startsWith("return")) {
      method = "  @Differentiable static double f(double x) { " + statement.replace(CARET, "")
          + "; }";
    }
    String line = method.replace(statement.replace(CARET, ""), statement);
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", unit("final class F",
        String.join("\n",
            "  private static class E extends RuntimeException { E(String m) { super(m); } }",
            "  static class P extends RuntimeException {",
            "    private P(String m) { super(m); }",
            "    private P() { }",
            "  }",
            "  private static final class N { static final double K = Math.log(2); }",
            method)));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(12)
        .atColumn(line.indexOf(CARET) + 1);
    assertThat(compilation).hadErrorCount(1);
  }

  private static final String CARET = "‸";

  // ---- thrown messages -----------------------------------------------------------------------

  /** Each message concatenates a char as Java does: a char prints as a character, an int not. */
  @ParameterizedTest
  @ValueSource(strings = {"(int) 'z'", "'z'", "C", "(int) C", "(char) 65", "(int) (char) 65",
      "('z')", "(int) ('z')", "Character.MAX_VALUE", "(int) Character.MAX_VALUE", "TAB",
      "QUOTE", "(int) QUOTE"})
  void charactersInThrownMessagesKeepTheirType(String part) {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.F", unit("final class F", String.join("\n",
            "  static final char C = 'b';",
            "  static final char TAB = '\\t';",
            "  static final char QUOTE = '\\'';",
            "  @Differentiable static double f(double x) {",
            "    if (x < 0) throw new IllegalArgumentException(\"bad \" + " + part + ");",
            "    return x * x;",
            "  }")));
    CompiledFunction f = compiled.function("com.example.F", "f", 1);

    String expected = assertThrows(IllegalArgumentException.class, () -> f.value(-1)).getMessage();
    assertThat(expected).isEqualTo("bad " + javaValueOf(part));
    assertThat(assertThrows(IllegalArgumentException.class, () -> f.gradient(-1)).getMessage())
        .isEqualTo(expected);
    assertThat(assertThrows(IllegalArgumentException.class,
        () -> f.tangent(new double[] {-1}, new double[] {1})).getMessage()).isEqualTo(expected);
    assertThat(assertThrows(IllegalArgumentException.class,
        () -> f.pullback(new double[] {-1}, 1, new double[1])).getMessage()).isEqualTo(expected);
  }

  /** What Java appends for each part of {@link #charactersInThrownMessagesKeepTheirType}. */
  private static String javaValueOf(String part) {
    return switch (part) {
      case "(int) 'z'", "(int) ('z')" -> "" + (int) 'z';
      case "'z'", "('z')" -> "z";
      case "C" -> "b";
      case "(int) C" -> "" + (int) 'b';
      case "(char) 65" -> "A";
      case "(int) (char) 65" -> "65";
      case "Character.MAX_VALUE" -> "" + Character.MAX_VALUE;
      case "(int) Character.MAX_VALUE" -> "" + (int) Character.MAX_VALUE;
      case "TAB" -> "\t";
      case "QUOTE" -> "'";
      case "(int) QUOTE" -> "" + (int) '\'';
      default -> throw new IllegalArgumentException(part);
    };
  }

  // ---- limits --------------------------------------------------------------------------------

  /** {@code f(double x0, ..., double x(n-1), int k0, ...)} returning a sum of squares. */
  private static String manyParameters(int doubles, int ints) {
    StringBuilder parameters = new StringBuilder();
    StringBuilder sum = new StringBuilder("0.0");
    for (int i = 0; i < doubles; i++) {
      parameters.append(i == 0 ? "" : ", ").append("double x").append(i);
      sum.append(" + x").append(i).append(" * x").append(i);
    }
    for (int i = 0; i < ints; i++) {
      parameters.append(", int k").append(i);
    }
    return unit("final class F", "  @Differentiable static double f(" + parameters + ") {\n"
        + "    return " + sum + ";\n  }");
  }

  /** 63 doubles: mTangent takes 252 slots, the tangent segments one more for the tape. */
  @Test
  void sixtyThreeDoubleParametersFit() {
    CompiledFunction f = InProcessCompiler.compile("com.example.F", manyParameters(63, 0))
        .function("com.example.F", "f", 63);

    double[] x = new double[63];
    for (int i = 0; i < x.length; i++) {
      x[i] = 0.25 * i - 3;
    }
    double[] expected = x.clone();
    for (int i = 0; i < x.length; i++) {
      expected[i] = 2 * x[i];
    }
    assertThat(f.gradient(x)).usingExactEquality().containsExactly(expected).inOrder();
    DerivativeChecks.checkAt(f, x);
  }

  // ---- names of generated classes ------------------------------------------------------------

  private static final String DIFFERENTIABLE_F =
      "@ad4j.Differentiable static double f(double x) { return x * x; }";

  /** Two user classes whose generated classes would have the same name: one error naming both. */
  @ParameterizedTest
  @CsvSource({
      "A, A.B, A_B, class A { static class B { %s } }, class A_B { %s }",
      "A_, A_.B, A._B, class A_ { static class B { %s } }, class A { static class _B { %s } }"})
  void twoClassesWithTheSameGeneratedName(String firstFile, String first, String second,
      String firstSource, String secondSource) {
    String secondFile = second.substring(0, second.indexOf('.') < 0 ? second.length()
        : second.indexOf('.'));
    JavaFileObject[] files = {
        JavaFileObjects.forSourceString("com.example." + firstFile,
            "package com.example;\n" + firstSource.replace("%s", DIFFERENTIABLE_F)),
        JavaFileObjects.forSourceString("com.example." + secondFile,
            "package com.example;\n" + secondSource.replace("%s", DIFFERENTIABLE_F))};

    Compilation compilation = InProcessCompiler.javac().compile(files);

    assertThat(compilation).hadErrorCount(1);
    Diagnostic<? extends JavaFileObject> error = compilation.errors().get(0);
    String gradClass = "com.example." + first.replace('.', '_') + "Grad";
    assertThat(error.getMessage(null)).startsWith("ad4j: classes '");
    assertThat(error.getMessage(null)).endsWith("' both get the generated class '" + gradClass
        + "' (the names of nested classes are joined with '_'); rename one of them");
    assertThat(error.getMessage(null)).contains("'com.example." + first + "'");
    assertThat(error.getMessage(null)).contains("'com.example." + second + "'");
    assertThat(error.getLineNumber()).isEqualTo(2);
  }

  /** A user class named as the generated class or as its companion for callers' code. */
  @ParameterizedTest
  @ValueSource(strings = {"FooGrad", "FooGradSweeps"})
  void userClassWithTheGeneratedName(String name) {
    JavaFileObject user = JavaFileObjects.forSourceString("com.example.Foo",
        "package com.example;\nfinal class Foo { " + DIFFERENTIABLE_F + " }\n");
    JavaFileObject existing = JavaFileObjects.forSourceString("com.example." + name,
        "package com.example;\nfinal class " + name + " { }\n");

    Compilation compilation = InProcessCompiler.javac().compile(user, existing);

    assertThat(compilation).hadErrorContaining("class 'com.example." + name + "' already exists,"
        + " and ad4j needs that name for the derivatives of 'com.example.Foo'; rename '" + name
        + "'")
        .inFile(user).onLine(2).atColumn(7);
    assertThat(compilation).hadErrorCount(1);
  }

  // ---- classes ad4j cannot see ---------------------------------------------------------------

  private static final String[] LOCAL_CLASSES = {
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class F {",
      "  static Object o = new Object() { @Differentiable static double a(double x) { return x; } };",
      "  static void m() {",
      "    class L { @Differentiable static double b(double x) { return x; } }",
      "    record R() { @Differentiable static double c(double x) { return x; } }",
      "    enum E { A; @Differentiable static double d(double x) { return x; } }",
      "    interface I { @Differentiable static double e(double x) { return x; } }",
      "    Runnable r = () -> new Object() { @ad4j.Differentiable double g(double x) { return x; } }.hashCode();",
      "    class M { class N { @Differentiable double h(double x) { return x; } } }",
      "    class P { @Deprecated double notAnnotated(double x) { return x; } }",
      "  }",
      "  @Differentiable static double ok(double x) { return x; }",
      "}"};

  /** javac enters local and anonymous classes only after processing: found in the trees. */
  @Test
  void differentiableMethodsOfLocalAndAnonymousClasses() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", LOCAL_CLASSES));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    String[][] expected = {
        {"a", "an anonymous class"}, {"b", "a local class"}, {"c", "a local record"},
        {"d", "a local enum"}, {"e", "a local interface"}, {"g", "an anonymous class"},
        {"h", "a local class"}};
    for (String[] method : expected) {
      int line = 0;
      while (!LOCAL_CLASSES[line].contains(" " + method[0] + "(double x)")) {
        line++;
      }
      assertThat(compilation).hadErrorContaining("@Differentiable method '" + method[0]
          + "' is in " + method[1] + ": ad4j differentiates methods of top-level and nested"
          + " (member) classes only; move it into one").inFile(file).onLine(line + 1)
          .atColumn(LOCAL_CLASSES[line].indexOf(" " + method[0] + "(double x)") + 2);
    }
    assertThat(compilation).hadErrorCount(expected.length);
  }

  /**
   * A source whose only {@code @Differentiable} methods are in local and anonymous classes: no
   * annotation of ad4j is on an element javac enters before processing, so only a processor
   * called in every round sees them.
   */
  @Test
  void differentiableMethodsOnlyInLocalAndAnonymousClasses() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.G", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class G {",
        "  static double m(double x) {",
        "    class L { @Differentiable double f(double y) { return y * y; } }",
        "    Runnable r = new Runnable() { @Differentiable public void run() {} };",
        "    r.run();",
        "    return new L().f(x);",
        "  }",
        "}"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("@Differentiable method 'f' is in a local class:"
        + " ad4j differentiates methods of top-level and nested (member) classes only; move it"
        + " into one").inFile(file).onLine(5);
    assertThat(compilation).hadErrorContaining("@Differentiable method 'run' is in an anonymous"
        + " class: ad4j differentiates methods of top-level and nested (member) classes only;"
        + " move it into one").inFile(file).onLine(6);
    assertThat(compilation).hadErrorCount(2);
  }

  /** javac calls the processors in this order: the two that claim nothing must come first. */
  @Test
  void theProcessorOfLocalClassesComesFirstInTheServiceFile() throws Exception {
    try (java.io.InputStream in = DifferentiableProcessor.class.getClassLoader()
        .getResourceAsStream("META-INF/services/javax.annotation.processing.Processor")) {
      List<String> names = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
          .lines().map(String::trim).filter(line -> !line.isEmpty()).toList();
      assertThat(names).containsExactly(AnnotatedLocalClassesProcessor.class.getName(),
          ChangedReadCodeProcessor.class.getName(), DifferentiableProcessor.class.getName())
          .inOrder();
    }
  }

  // ---- rounds and the source path ------------------------------------------------------------

  /** Another annotation processor that writes {@code com.example.Gen} in the first round. */
  static final class GeneratingProcessor extends AbstractProcessor {
    private boolean written;

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      if (!written) {
        written = true;
        try (Writer out = processingEnv.getFiler().createSourceFile("com.example.Gen")
            .openWriter()) {
          out.write(String.join("\n",
              "package com.example;",
              "public final class Gen {",
              "  private Gen() { }",
              "  public static final double K = 2.5;",
              "  public static final class Failure extends RuntimeException {",
              "    private static final long serialVersionUID = 1L;",
              "    public Failure(String message) { super(message); }",
              "  }",
              "  @ad4j.Differentiable public static double g(double x) { return x * x; }",
              "}",
              ""));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return false;
    }
  }

  private static final String BAR = unit("final class Bar", String.join("\n",
      "  @Differentiable static double f(double x) {",
      "    if (x < -100) throw new Gen.Failure(\"too small: \" + x);",
      "    return Gen.g(x) * Gen.K + K * x;",
      "  }"), "import static com.example.Gen.K;");

  /**
   * Bar names Gen before it exists: ad4j waits for the round in which it does. (The other
   * processor runs first: ad4j claims its annotation, and javac then calls no processor for
   * '*' in that round.)
   */
  @Test
  void methodReferringToAClassAnotherProcessorGenerates() {
    Compilation compilation = Compiler.javac()
        .withProcessors(new GeneratingProcessor(),
            GeneratedManifest.recording(new DifferentiableProcessor()))
        .withOptions("-Xlint:all", "-Werror")
        .compile(JavaFileObjects.forSourceString("com.example.Bar", BAR));

    CompiledFunction f = InProcessCompiler.loaded(compilation).function("com.example.Bar", "f", 1);
    assertThat(f.gradient(1.5)).usingTolerance(1e-12).containsExactly(2 * 1.5 * 2.5 + 2.5);
    DerivativeChecks.checkAt(f, -0.75);
  }

  /** A name that never resolves is reported once, after the last round. */
  @Test
  void namesThatNeverResolveAreReportedOnce() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Bar", BAR);

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("cannot find class 'Gen.Failure'").inFile(file)
        .onLine(8).atColumn(32);
    assertThat(compilation).hadErrorContaining("cannot find class 'Gen'").inFile(file)
        .onLine(9).atColumn(17);
    assertThat(compilation).hadErrorContaining("cannot find class 'Gen'").inFile(file)
        .onLine(9).atColumn(26);
    assertThat(compilation).hadErrorContaining("cannot find variable 'K'").inFile(file)
        .onLine(9).atColumn(31);
    assertThat(compilation.errors().stream().filter(e -> e.getMessage(null).startsWith("ad4j"))
        .count()).isEqualTo(4);
  }

  /**
   * javac compiles Foo from the source path without giving it to processors: FooGrad would
   * never exist, and the call says so.
   */
  @Test
  void calleeCompiledImplicitlyFromTheSourcePath(@TempDir Path sourcePath) throws IOException {
    Path foo = sourcePath.resolve("com/example/Foo.java");
    Files.createDirectories(foo.getParent());
    Files.writeString(foo, unit("final class Foo",
        "  @Differentiable static double g(double x) { return x * x; }"));
    JavaFileObject bar = JavaFileObjects.forSourceString("com.example.Bar", unit("final class Bar",
        "  @Differentiable static double f(double x) { return Foo.g(x) * 2; }"));

    Compilation compilation = InProcessCompiler.javac("-sourcepath", sourcePath.toString())
        .compile(bar);

    assertThat(compilation).hadErrorContaining("call to 'Foo.g(...)': class 'com.example.Foo'"
        + " is not among the source files of this compilation (javac found it on the source"
        + " path or class path), so ad4j does not write its derivatives here and"
        + " 'com.example.FooGrad' does not exist; pass its source file to javac with this one,"
        + " or compile it with ad4j first").inFile(bar).onLine(6).atColumn(59);
    assertThat(compilation).hadErrorCount(1);
  }
}
