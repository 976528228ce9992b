package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Code that runs as written and may give another result or do something again when run again
 * (a draw, a counter) must run once per call of a generated member, as the method runs it
 * (DESIGN.md, "Soundness"). Where a member would run it more than once, it is a compile error
 * at the call: a method's own such call in an order-2 method (a sweep per slot) or a vector
 * function (a sweep per slot, and twice in callers' gradients); a call of a
 * {@code @Differentiable} method whose code makes one from such methods, from a checkpointed
 * loop's reverse sweep, from another class (a caller's tangent may ask for the value, then the
 * tangent), and from its own class where the caller's members would run it twice
 * ({@code CalleeRunsOnceTest}). A callee compiled earlier is judged by what its generated class
 * records. Calls that read and change nothing
 * (Math, strings, getters, record accessors) are accepted everywhere.
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
      "  @Differentiable static double noisy(double x) {",
      "    return x * RNG.nextGaussian();",
      "  }",
      "  @Differentiable static double counting(double x) { tick(); return x * x; }",
      "  record Point(double x, double y) { double norm() { return Math.hypot(x, y); } }",
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
  void anOrderTwoMethodsOwnDrawIsAnError() {
    Compilation compilation = compile(String.join("\n",
        "  @Differentiable(order = 2) static double f(double x, double y) {",
        "    double e = RNG.nextGaussian();",
        "    return x * y * e;",
        "  }"));
    assertOnlyError(compilation, "call to 'RNG.nextGaussian()' runs as written and may give"
        + " another result or do something again each time it runs: mHessian and"
        + " mValueGradientAndHessian of 'f' make one sweep per slot and would run it once per"
        + " sweep, where 'f' runs it once; make the call where 'f' is called and pass its result"
        + " as a @NoDerivative parameter", 14);
  }

  @Test
  void aVectorFunctionsOwnCounterIsAnError() {
    Compilation compilation = compile(String.join("\n",
        "  @Differentiable static double[] f(double x) {",
        "    tick();",
        "    return new double[] {x, x * x};",
        "  }"));
    assertOnlyError(compilation, "call to 'tick()' runs as written and may give another result"
        + " or do something again each time it runs: mJacobian and mValueAndJacobian of 'f'",
        14);
  }

  @Test
  void anOrderOneCallerOfADrawingCalleeIsAnError() {
    Compilation compilation = compile(
        "  @Differentiable static double f(double x) { return Math.sin(noisy(x)); }");
    assertOnlyError(compilation, "call to 'noisy(...)': 'Model.noisy' runs code that carries no"
        + " derivative ('RNG.nextGaussian()', line 9), which the tangent of 'f' would"
        + " run twice, once for its value and once for its tangent, where 'f' runs it once;"
        + " make that call in 'f' instead and pass its result to 'noisy' as a @NoDerivative"
        + " parameter", 13);
  }

  @Test
  void aVectorFunctionCallingACountingCalleeIsAnError() {
    Compilation compilation = compile(String.join("\n",
        "  @Differentiable static double[] f(double x, double y) {",
        "    return new double[] {x * y, counting(x)};",
        "  }"));
    assertOnlyError(compilation, "call to 'counting(...)': 'Model.counting' runs code that"
        + " carries no derivative ('tick()', line 11), which mJacobian and"
        + " mValueAndJacobian of 'f' would run once per row", 14);
  }

  @Test
  void aPlainCallInACalleeOfACalleeIsAnError() {
    // outer's own members run noisy once (its tangent reads only noisy's tangent)
    Compilation compilation = compile(String.join("\n",
        "  @Differentiable static double outer(double x) { return noisy(x) * 2; }",
        "  @Differentiable static double[] f(double x) {",
        "    return new double[] {outer(x) * x, x};",
        "  }"));
    assertThat(compilation).hadErrorContaining("call to 'outer(...)': 'Model.outer' runs code"
        + " that carries no derivative ('RNG.nextGaussian()', line 9, in 'Model.noisy',"
        + " which it calls), which mJacobian").inFile(compilation.sourceFiles().get(0))
        .onLine(15);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
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
        + " derivative ('RNG.nextGaussian()', line 9), which the reverse sweep of this"
        + " @Checkpointed loop would run again when it computes iterations anew", 17);
  }

  @Test
  void aMethodOfARecordCompiledEarlierIsNotSaidToBeWrittenByTheCompiler(@TempDir Path classes)
      throws IOException {
    Compilation library = InProcessCompiler.javac().compile(JavaFileObjects.forSourceString(
        "com.example.LV", String.join("\n",
            "package com.example;",
            "public record LV(double a, double b) {",
            "  public LV scale(double k) { return new LV(k * a, k * b); }",
            "}")));
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    Compilation caller = InProcessCompiler.javac().withClasspath(classpath).compile(
        JavaFileObjects.forSourceString("com.example.Caller", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Caller {",
            "  @Differentiable static double f(LV v, double x) {",
            "    return v.scale(x).a();",
            "  }",
            "}")));
    // it said "the compiler writes 'scale' of value record 'LV'", which the user wrote
    assertOnlyError(caller, "call to 'LV.scale': ad4j inlines the methods of a value record"
        + " when their source is in this compilation, which 'LV.scale''s is not", 5);
  }

  @Test
  void aCalleeCompiledEarlierIsJudgedByWhatItsClassRecords(@TempDir Path classes)
      throws IOException {
    Compilation library = InProcessCompiler.javac().compile(JavaFileObjects.forSourceString(
        "com.example.Lib", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "public final class Lib {",
            "  static final java.util.Random RNG = new java.util.Random(3);",
            "  @Differentiable public static double draw(double x) {",
            "    return x * RNG.nextGaussian();",
            "  }",
            "  @Differentiable(order = 2) public static double square(double x) { return x * x; }",
            "}")));
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    Compilation drawing = InProcessCompiler.javac().withClasspath(classpath).compile(
        JavaFileObjects.forSourceString("com.example.Caller", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Caller {",
            "  @Differentiable static double f(double x) {",
            "    return Lib.draw(x) * x;",
            "  }",
            "}")));
    assertOnlyError(drawing, "call to 'Lib.draw(...)': 'Lib.draw' runs code that carries no"
        + " derivative ('RNG.nextGaussian() (line 6)'), which the tangent of 'f' would run"
        + " twice", 5);
    Compilation quiet = InProcessCompiler.javac().withClasspath(classpath).compile(
        JavaFileObjects.forSourceString("com.example.Caller", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Caller {",
            "  @Differentiable(order = 2) static double f(double x) {",
            "    return Lib.square(x) * x;",
            "  }",
            "}")));
    assertThat(quiet).succeededWithoutWarnings();
  }

  @Test
  void aGetterThatDrawsIsNoGetter() {
    Compilation compilation = compile(String.join("\n",
        "  static final class Noise {",
        "    private final double scale = 0.1;",
        "    double scale() { return scale; }",
        "    double sample() { return scale() * Math.random(); }",
        "  }",
        "  static final Noise NOISE = new Noise();",
        "  @Differentiable(order = 2) static double f(double x) {",
        "    return x * x * NOISE.scale() + x * NOISE.sample();",
        "  }"));
    assertOnlyError(compilation, "call to 'NOISE.sample()' runs as written and may give another"
        + " result or do something again each time it runs: mHessian", 20);
  }

  @Test
  void callsThatReadAndChangeNothingAreAccepted() {
    Compilation compilation = compile(String.join("\n",
        "  @Differentiable(order = 2) static double quiet(double x) {",
        "    assert x == x;",
        "    Point p = new Point(0.5, 2);",
        "    String unit = String.valueOf(p.y());",
        "    double w = unit.length() > 1 ? p.x() : p.norm();",
        "    return Double.isNaN(x) ? 0 : Math.floor(x) + x * x * w;",
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
        // an order-1 method's own draw runs once in each member
        "  @Differentiable static double once(double x) { return x * RNG.nextGaussian(); }"));
    assertThat(compilation).succeeded();
  }

  /**
   * An enum's {@code values()} and {@code valueOf(String)} read the constants and change
   * nothing: an order-2 method, whose Hessian makes one sweep per slot, may loop over them (it
   * was an error, "may give another result"); the members against differences of order 8.
   */
  @Test
  void anEnumsValuesAndValueOfRunAlikeInEverySweep() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compile("com.example.Modes",
        String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Modes {",
            "  enum Mode { SCALE, SHIFT, BOTH }",
            "  @Differentiable(order = 2) static double f(double x, double y) {",
            "    double s = 0;",
            "    for (Mode m : Mode.values()) {",
            "      s += (m.ordinal() + 1) * Math.sin(x * y + m.ordinal());",
            "    }",
            "    return s * Mode.valueOf(\"SHIFT\").ordinal() + x * x * y;",
            "  }",
            "}",
            ""));
    MemberAgreement.of(compiled, "com.example.Modes", "f", true, true)
        .checkScalarAt(new double[][] {{0.4, 1.3}, {-0.7, 0.2}}, 2, 1e-7);
  }
}
