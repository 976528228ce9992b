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
