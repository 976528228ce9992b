package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MixedFunction;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * Java 22 to 25 language in a {@code @Differentiable} method's file: unnamed variables, module
 * imports, compact source files. Runs on JDK 25 and later only (CI runs the build on JDK 17 and
 * on JDK 25); on older JDKs these sources do not compile at all.
 */
@EnabledIf("onJdk25")
class Jdk25LanguageTest {
  static boolean onJdk25() {
    return Runtime.version().feature() >= 25;
  }

  /** {@code _} declares nothing: its initializer still runs, and generated code names it. */
  @Test
  void unnamedVariables() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.U", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class U {",
            "  @Differentiable static double f(double x, int n) {",
            "    double s = 0;",
            "    for (int i = 0; i < n; i++) {",
            "      int _ = i * 2;",
            "      double _ = x * i;",
            "      s += x * i * i;",
            "    }",
            "    int _ = 10 / n, _ = n;",
            "    var _ = Math.sin(x);",
            "    return s;",
            "  }",
            "}"));
    MixedFunction f = new MixedFunction(compiled, "com.example.U", "f", double.class, int.class);

    Object[] arguments = {1.5, 4};
    assertThat(f.gradient(arguments)).usingTolerance(1e-12).containsExactly(0.0 + 1 + 4 + 9);
    assertThat(f.tangent(arguments, new double[] {2})).isWithin(1e-12).of(28.0);
  }

  /**
   * {@code import module java.sql;} makes java.sql.Types visible, and javax.xml.stream's types
   * too, as java.sql requires java.xml transitively.
   */
  @Test
  void constantsThroughAModuleImport() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.M", String.join("\n",
            "package com.example;",
            "import module java.sql;",
            "import ad4j.Differentiable;",
            "final class M {",
            "  @Differentiable static double f(double x) {",
            "    return x * Types.BIGINT + x * x * Types.INTEGER + x * XMLStreamConstants.END_ELEMENT;",
            "  }",
            "}"));

    assertThat(compiled.function("com.example.M", "f", 1).gradient(0.5)).usingTolerance(1e-12)
        .containsExactly(-5.0 + 2 * 0.5 * 4 + 2);
  }

  /**
   * A {@code switch} case with a pattern, Java 21's, is an error at the case: before, its label
   * had no constant and was taken for {@code default}, its guard ignored. With the selector
   * {@code "long"} the method below returns {@code x * x} (2.25 at x = 1.5) and its
   * {@code sValueAndGradient} returned 3.375 with the gradient 6.75 of {@code x * x * x}, where
   * the gradient is 3; an enum selector's {@code case Mode m when m.ordinal() > 1} the same.
   * {@code case null} is an error too: the generated code throws where the selector is null.
   * The pattern's variables add no errors of their own where the case reads them.
   */
  @Test
  void casesWithPatternsOrNullAreErrorsAtTheCase() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class P {",
        "  enum Mode { A, B, C }",
        "  record V(double x, double y) {}",
        "  @Differentiable static double s(double x, @NoDerivative String k) {",
        "    return switch (k) {",
        "      case \"a\" -> x;",
        "      case String t when t.length() > 3 -> x * x;",
        "      default -> x * x * x;",
        "    };",
        "  }",
        "  @Differentiable static double e(double x, @NoDerivative Mode m) {",
        "    switch (m) {",
        "      case A: return x;",
        "      case Mode n when n.ordinal() > 1: return x * x;",
        "      default: return x * x * x;",
        "    }",
        "  }",
        "  @Differentiable static double n(double x, @NoDerivative String k) {",
        "    return switch (k) {",
        "      case \"a\" -> x;",
        "      case null -> x * x;",
        "      default -> x * x * x;",
        "    };",
        "  }",
        "  @Differentiable static double r(double x, double y) {",
        "    V v = new V(x, y);",
        "    return switch (v) {",
        "      case V(double a, double b) when a > 1 -> a * b;",
        "      case V(var a, var b) -> a + b;",
        "    };",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.P",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    String pattern = "') is not supported: ad4j's 'switch' takes constants of an 'int', 'char',"
        + " 'short', 'byte', enum or 'String' selector, and 'default'; choose with 'if' and the"
        + " value's methods instead";
    assertThat(compilation).hadErrorCount(5);
    assertThat(compilation).hadErrorContaining("a 'case' with a pattern ('case String t when"
        + " t.length() > 3" + pattern).inFile(file).onLine(10).atColumn(7);
    assertThat(compilation).hadErrorContaining("a 'case' with a pattern ('case Mode n when"
        + " n.ordinal() > 1" + pattern).inFile(file).onLine(17).atColumn(7);
    assertThat(compilation).hadErrorContaining("'case null' is not supported: ad4j's 'switch'"
        + " throws NullPointerException for a null selector, as a 'switch' without 'case null'"
        + " does; test it with 'if (k == null)' before the 'switch'")
        .inFile(file).onLine(24).atColumn(7);
    assertThat(compilation).hadErrorContaining("a 'case' with a pattern ('case V(double a,"
        + " double b) when a > 1" + pattern).inFile(file).onLine(31).atColumn(7);
    assertThat(compilation).hadErrorContaining("a 'case' with a pattern ('case V(var a, var b)"
        + pattern).inFile(file).onLine(32).atColumn(7);
  }

  private static final String COMPACT = String.join("\n",
      "import ad4j.Differentiable;",
      "",
      "@Differentiable",
      "static double f(double x) {",
      "  return x * Math.sin(x);",
      "}",
      "",
      "void main() {",
      "  System.out.println(f(2));",
      "}",
      "");

  /** A compact source file's methods can be differentiated while nothing must name its class. */
  @Test
  void compactSourceFile() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "Compact", COMPACT);

    DerivativeChecks.checkAt(compiled.function("Compact", "f", 1), 0.75);
  }

  /** A call of another method of the file would need its class's name: an error that says so. */
  @Test
  void compactSourceFileCallingItsOwnMethod() {
    JavaFileObject file = JavaFileObjects.forSourceString("Compact", COMPACT.replace(
        "return x * Math.sin(x);", "return x * g(x);") + String.join("\n",
        "@Differentiable",
        "static double g(double x) { return Math.sin(x); }"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("call to 'g(...)': generated code cannot call it:"
        + " class 'Compact' is implicitly declared (a compact source file), and other classes"
        + " cannot name it; declare it explicitly, as 'final class Compact { ... }'")
        .inFile(file).onLine(5).atColumn(15);
    assertThat(compilation).hadErrorCount(1);
  }
}
