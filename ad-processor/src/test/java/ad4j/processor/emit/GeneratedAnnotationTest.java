package ad4j.processor.emit;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Generated classes carry {@code @javax.annotation.processing.Generated} only where the user's
 * code could name it: a release without it (Java 8) gets a class without it, which compiles and
 * computes the same derivatives. (A named module that does not read java.compiler is built by
 * the jpms project of ad-it.)
 */
class GeneratedAnnotationTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class F {",
      "  @Differentiable",
      "  static double f(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 1; i <= 3; i++) {",
      "      s += Math.sin(i * x) * y;",
      "    }",
      "    return s;",
      "  }",
      "}");

  @Test
  void presentWhereTheReleaseHasIt() throws IOException {
    Compiled compiled = InProcessCompiler.compileWith(List.of("--release", "17"),
        "com.example.F", SOURCE);

    assertThat(generatedSource(compiled))
        .contains("@Generated(\"ad4j.processor.DifferentiableProcessor\")");
  }

  @Test
  void absentForARelease8Build() throws IOException {
    Compiled compiled = InProcessCompiler.compileWith(List.of("--release", "8", "-Xlint:-options"),
        "com.example.F", SOURCE);

    assertThat(generatedSource(compiled)).doesNotContain("Generated(");
    DerivativeChecks.checkAt(compiled.function("com.example.F", "f", 2), 0.4, -1.3);
  }

  private static String generatedSource(Compiled compiled) throws IOException {
    return compiled.compilation().generatedSourceFile("com.example.FGrad").orElseThrow()
        .getCharContent(true).toString();
  }
}
