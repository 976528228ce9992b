package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A variable that a {@code @Checkpointed} loop reads but does not assign, and that the method
 * assigns after the loop (a variable, not a single value, because a branch or another loop
 * assigns it too). The reverse sweep computes the loop's iterations again from its snapshots
 * after the whole forward sweep, so the snapshots hold such variables with the state the loop
 * carries; one of a type a snapshot cannot hold is an error at the loop. Before, the iterations
 * computed again read the variable as the later assignment left it, with no error:
 * {@code branch} at (0.3, 0.7) gave the gradient (-4.4e8, -9.5e7) for (0.9401, 0.5023),
 * {@code bound} (0, 2.2e-4) for (1.0783, 0.1360), {@code laterLoop} (0.34951, 0.44183) for
 * (0.35330, 0.44236).
 */
@ExtendWith(TapeIsEmpty.class)
class CheckpointedVariablesAssignedAfterTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.Differentiable;",
      "final class Later {",
      "  @Checkpointed(snapshots = 2) @Differentiable static double branch(double x, double y) {",
      "    double c = x;",
      "    if (y > 0) { c = y * 2; }",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * c + 0.3 * s; }",
      "    c = 100;",
      "    return s + c;",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double bound(double x, double y) {",
      "    int n = 3;",
      "    if (y > 0) { n = 5; }",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * (i % n) + 0.3 * s; }",
      "    n = 1;",
      "    return s * n;",
      "  }",
      "  @Checkpointed(snapshots = 4) @Differentiable static double laterLoop(double x, double y) {",
      "    double c = x;",
      "    float f = 0.5f;",
      "    boolean flip = y > 0;",
      "    double s = y;",
      "    for (int i = 0; i < 29; i++) {",
      "      s = Math.sin(s * x) * c * 0.5 + 0.3 * s * f;",
      "      if (flip) { s = s + 0.01 * c; }",
      "    }",
      "    for (int i = 0; i < 3; i++) { c = c * y; f = f * 2; flip = !flip; }",
      "    return s + c + f;",
      "  }",
      "  @Differentiable static double caller(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 2; k++) { s = s * y + branch(x + 0.1 * k, y) + bound(y, x); }",
      "    return s + laterLoop(x, s);",
      "  }",
      "}");

  private static final CompiledOnce LATER = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Later",
          SOURCE));

  private static final double[][] POINTS = {{0.3, 0.7}, {0.4, 0.9}, {-0.6, 0.5}};

  @ParameterizedTest
  @ValueSource(strings = {"branch", "bound", "laterLoop", "caller"})
  void theLoopComputedAgainReadsTheValuesItReadFirst(String name) throws Exception {
    MemberAgreement.of(LATER.get(), "com.example.Later", name, true, true)
        .checkScalarAt(POINTS, 1, 1e-7);
  }

  /** A string chosen before the loop and again after it: no snapshot holds a string. */
  @Test
  void aVariableNoSnapshotCanHoldIsAnErrorAtTheLoop() {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class Mode {",
        "  @Checkpointed(snapshots = 2) @Differentiable static double f(double x, double y) {",
        "    String mode = \"a\";",
        "    if (y > 0) { mode = \"b\"; }",
        "    double s = y;",
        "    for (int i = 0; i < 7; i++) {",
        "      switch (mode) { case \"a\": s = s * x; break; default: s = Math.sin(s * x); }",
        "    }",
        "    mode = \"a\";",
        "    return s + mode.length();",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Mode", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("loop of method 'f' cannot be checkpointed"
        + " (@Checkpointed): it reads 'mode' of type 'java.lang.String', which the method"
        + " assigns after it, and the reverse sweep computes its iterations again after that;"
        + " the state a checkpoint holds must be variables of type double, float, int, long or"
        + " boolean").inFile(file).onLine(9);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }
}
