package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A method that uses deprecated APIs under {@code @SuppressWarnings} compiles under
 * {@code -Xlint:all -Werror}, and so does its generated class: the members carry the method's
 * and its classes' suppressions. {@code [removal]} warns even without {@code -Xlint}.
 */
class SuppressedWarningsTest {
  private static final String LIB = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "public final class Lib {",
      "  @Deprecated static final double OLD = Math.sqrt(2);",
      "  @Deprecated(forRemoval = true) static final double GONE = Math.sqrt(3);",
      "  @Deprecated @Differentiable static double old(double x) { return x * x; }",
      "  @Deprecated(forRemoval = true) @Differentiable static double gone(double x) {",
      "    return 3 * x;",
      "  }",
      "}");

  private static final String USER = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "@SuppressWarnings(\"removal\")",
      "final class User {",
      "  @SuppressWarnings(\"deprecation\")",
      "  @Differentiable static double f(double x) {",
      "    return Lib.old(x) * Lib.OLD + Lib.gone(x) * Lib.GONE;",
      "  }",
      "  static final class Inner {",
      "    @SuppressWarnings({\"deprecation\", \"unused\"})",
      "    @Differentiable static double g(double x, double y) {",
      "      double s = 0;",
      "      for (int i = 0; i < 3; i++) { s += Lib.old(x * y) + Lib.GONE * s; }",
      "      return s;",
      "    }",
      "  }",
      "}");

  @Test
  void generatedMembersKeepTheUsersSuppressionsUnderWerror() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Lib", LIB, "com.example.User", USER);
    CompiledFunction f = compiled.function("com.example.User", "f", 1);
    double x = 0.7;
    assertThat(f.gradient(x)[0])
        .isWithin(1e-12).of(2 * x * Math.sqrt(2) + 3 * Math.sqrt(3));
    CompiledFunction g = compiled.function("com.example.User$Inner",
        "com.example.User_InnerGrad", "g", 2);
    ad4j.processor.testing.DerivativeChecks.checkAt(g, 0.4, -0.3);
  }

  @Test
  void removalWarningsOfGeneratedCodeAreSuppressedWithoutXlint() {
    Compilation compilation = InProcessCompiler.javac("-Werror").compile(
        JavaFileObjects.forSourceString("com.example.Lib", LIB),
        JavaFileObjects.forSourceString("com.example.User", USER));
    InProcessCompiler.requireSuccess(compilation);
    assertThat(compilation.warnings()).isEmpty();
  }
}
