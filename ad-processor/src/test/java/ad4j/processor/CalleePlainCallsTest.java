package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.nio.file.Path;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member that runs a {@code @Differentiable} callee once per sweep (the Hessian's, the
 * Jacobian's, a checkpointed loop's reverse sweep) would run the calls the callee's code makes
 * as written more than once per call, where the method runs them once (DESIGN.md,
 * "Soundness"): such a call of such a callee is a compile error at the call. Callees whose
 * code makes no such call are accepted.
 */
class CalleePlainCallsTest {
  /** Lines 1 to 12; the method under test starts on line 13. */
  private static final String HEADER = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.Differentiable;",
      "final class Model {",
      "  static final java.util.Random RNG = new java.util.Random(1);",
      "  static int count;",
      "  static void tick() { count++; }",
      "  @Differentiable(order = 2) static double noisy(double x) {",
      "    return x * RNG.nextGaussian();",
      "  }",
      "  @Differentiable(order = 2) static double counting(double x) { tick(); return x * x; }",
      "  @Differentiable static double outer(double x) { return Math.sin(noisy(x)); }",
      "");

  private static Compilation compile(String method) {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Model",
        HEADER + method + "\n}\n");
    return InProcessCompiler.javac().compile(file);
  }

  private static void assertOnlyError(Compilation compilation, String message, int line) {
    assertThat(compilation).hadErrorContaining(message).inFile(compilation.sourceFiles().get(0))
        .onLine(line);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  @Test
  void anOrderTwoMethodCallingADrawingCalleeIsAnError() {
    Compilation compilation = compile(String.join("\n",
        "  @Differentiable(order = 2) static double f(double x, double y) {",
        "    double a = x * y;",
        "    return noisy(a) + y;",
        "  }"));
    assertOnlyError(compilation, "call to 'noisy(...)': 'Model.noisy' runs code that carries no"
        + " derivative ('Model.RNG.nextGaussian(...)', line 9), which mHessian and"
        + " mValueGradientAndHessian of 'f' would run once per sweep, where 'f' runs it once;"
        + " make that call in 'f' instead and pass its result to 'noisy' as a @NoDerivative"
        + " parameter", 15);
  }

  @Test
  void aVectorFunctionCallingACountingCalleeIsAnError() {
    Compilation compilation = compile(String.join("\n",
        "  @Differentiable static double[] f(double x, double y) {",
        "    return new double[] {x * y, counting(x)};",
        "  }"));
    assertOnlyError(compilation, "call to 'counting(...)': 'Model.counting' runs code that"
        + " carries no derivative ('Model.tick(...)', line 11), which mJacobian and"
        + " mValueAndJacobian of 'f' would run once per row", 14);
  }

  @Test
  void aPlainCallInACalleeOfACalleeIsAnError() {
    Compilation compilation = compile(String.join("\n",
        "  @Differentiable static double[] f(double x) {",
        "    return new double[] {outer(x) * x, x};",
        "  }"));
    assertOnlyError(compilation, "call to 'outer(...)': 'Model.outer' runs code that carries no"
        + " derivative ('Model.RNG.nextGaussian(...)', line 9, in 'Model.noisy', which it"
        + " calls), which mJacobian", 14);
  }

  @Test
  void aCheckpointedLoopCallingADrawingCalleeIsAnError() {
    Compilation compilation = compile(String.join("\n",
        "  @Checkpointed(snapshots = 4)",
        "  @Differentiable static double f(double x, int n) {",
        "    double s = x;",
        "    for (int i = 0; i < n; i++) {",
        "      s = s + noisy(s);",
        "    }",
        "    return s;",
        "  }"));
    assertOnlyError(compilation, "call to 'noisy(...)': 'Model.noisy' runs code that carries no"
        + " derivative ('Model.RNG.nextGaussian(...)', line 9), which the reverse sweep of this"
        + " @Checkpointed loop would run again when it computes iterations anew", 17);
  }

  @Test
  void aCalleeCompiledEarlierCountsAsMakingSuchCalls(@TempDir Path classes) throws IOException {
    Compilation library = InProcessCompiler.javac().compile(JavaFileObjects.forSourceString(
        "com.example.Lib", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "public final class Lib {",
            "  @Differentiable(order = 2) public static double square(double x) { return x * x; }",
            "}")));
    assertThat(library).succeededWithoutWarnings();
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Caller", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Caller {",
        "  @Differentiable(order = 2) static double f(double x) {",
        "    return Lib.square(x) * x;",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac()
        .withClasspath(InProcessCompiler.classpathWithClassesOf(library, classes)).compile(file);
    assertOnlyError(compilation, "call to 'Lib.square(...)': 'Lib.square' was compiled earlier,"
        + " and ad4j cannot see whether its code makes calls that carry no derivative, which"
        + " mHessian and mValueGradientAndHessian of 'f' would run once per sweep, where 'f' runs"
        + " it once; pass its source file to javac with this one", 5);
  }

  @Test
  void calleesWithoutPlainCallsAreAccepted() {
    Compilation compilation = compile(String.join("\n",
        "  @Differentiable(order = 2) static double quiet(double x) {",
        "    assert x == x;",
        "    return Double.isNaN(x) ? 0 : Math.floor(x) + x * x;",
        "  }",
        "  @Differentiable(order = 2) static double f(double x) { return quiet(x) * x; }",
        "  @Differentiable static double[] g(double x) { return new double[] {quiet(x), x}; }",
        "  @Checkpointed(snapshots = 4)",
        "  @Differentiable static double h(double x, int n) {",
        "    double s = x;",
        "    for (int i = 0; i < n; i++) {",
        "      s = quiet(s);",
        "    }",
        "    return s;",
        "  }",
        "  @Differentiable static double once(double x) { return noisy(x) + counting(x); }"));
    assertThat(compilation).succeeded();
  }
}
