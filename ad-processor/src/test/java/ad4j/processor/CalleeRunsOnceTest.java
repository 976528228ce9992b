package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code @Differentiable} callee whose code counts and draws from a seeded generator (calls
 * that run as written and not alike twice), called from methods of its own class of order 1:
 * every generated member runs its code exactly as often as the method does, per call
 * ({@link MemberAgreement} counts the class's {@code calls}), and its derivatives agree with
 * differences of order 8 and forward with reverse; or the caller is a compile error at the call
 * where a member would run it more than once: a tangent that needs the callee's value and its
 * tangent (a product of two calls), a reverse sweep that runs the callee's whole pullback (a
 * callee that makes an array has no recording half), a caller of such a caller. Members cut
 * into parts of one statement count alike; a caller split into segments is an error (their
 * reverse sweeps run whole pullbacks). Callers in another class, of order 2, vector
 * functions and checkpointed loops stay rejected by the lowering ({@code CalleePlainCallsTest}).
 */
@ExtendWith(TapeIsEmpty.class)
class CalleeRunsOnceTest {
  /** Lines 1 to 23; what a test adds starts on line 24. */
  private static final List<String> HEADER = List.of(
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Noisy {",
      "  static int calls;",
      "  static final java.util.Random RANDOM = new java.util.Random(7);",
      "  static void tick() { calls++; }",
      "  static double draw() { calls++; return RANDOM.nextDouble(); }",
      "  @Differentiable static double huber(double r, double d) {",
      "    tick();",
      "    if (draw() > 2) {",
      "      throw new IllegalStateException(\"never\");",
      "    }",
      "    double a = Math.abs(r);",
      "    if (a <= d) {",
      "      return 0.5 * r * r;",
      "    }",
      "    return d * (a - 0.5 * d);",
      "  }",
      "  @Differentiable static double arrayed(double x, double y) {",
      "    double[] a = {x, y};",
      "    tick();",
      "    return a[0] * a[1];",
      "  }");

  private static final List<String> ACCEPTED = List.of(
      "  @Differentiable static double twice(double r, double d) {",
      "    return huber(r, d) + huber(2 * r, 1.0);",
      "  }",
      "  @Differentiable static double looped(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 1; i <= 3; i++) {",
      "      s += huber(x * i, y);",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double gated(double x, double y) {",
      "    return huber(x, y) > 0.5 ? x * y : y * y;",
      "  }",
      "  @Differentiable static double outer(double x, double y) {",
      "    return 3 * twice(x, y) - y;",
      "  }",
      "  @Differentiable static double holder(double x, double y) {",
      "    double[] a = {x, y};",
      "    return huber(a[0], a[1]) + a[1];",
      "  }",
      "  static double last;",
      "  static double drawn() { last = RANDOM.nextDouble(); return last; }",
      "  @Differentiable static double scaled(double x) {",
      "    return x * x * drawn();",
      "  }",
      "  @Differentiable static double viaScaled(double x) {",
      "    return scaled(x) + x;",
      "  }",
      "  @Differentiable static double outerScaled(double x) {",
      "    return 2 * viaScaled(x);",
      "  }");

  private static String source(List<String> methods) {
    List<String> lines = new ArrayList<>(HEADER);
    lines.addAll(methods);
    lines.add("}");
    return String.join("\n", lines);
  }

  private static final CompiledOnce WHOLE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Noisy",
          source(ACCEPTED)));

  private static final CompiledOnce PARTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=1"),
          "com.example.Noisy", source(ACCEPTED)));

  private static final double[][] POINTS = {{0.4, 1.3}, {1.7, 0.5}, {-0.9, 2.2}};

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void eachMemberRunsTheCalleeOncePerCall(boolean parts) throws Exception {
    InProcessCompiler.Compiled compiled = (parts ? PARTS : WHOLE).get();
    for (String name : List.of("twice", "looped", "gated", "outer", "holder")) {
      MemberAgreement.of(compiled, "com.example.Noisy", name, true, true)
          .checkScalarAt(POINTS, 1, 1e-7);
    }
  }

  /**
   * Each member's value and derivative come from one run of the callee: both agree with the
   * last draw ({@code x * x * u + x} and {@code 2 * x * u + 1}), which a second run, drawing
   * again, would have changed for one of them.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void eachMembersDerivativeBelongsToTheRunThatGaveItsValue(boolean parts) throws Exception {
    InProcessCompiler.Compiled compiled = (parts ? PARTS : WHOLE).get();
    java.lang.reflect.Field last = compiled.load("com.example.Noisy").getDeclaredField("last");
    last.setAccessible(true);
    for (String name : List.of("viaScaled", "outerScaled")) {
      double k = name.equals("outerScaled") ? 2 : 1;
      MemberAgreement member = MemberAgreement.of(compiled, "com.example.Noisy", name, true);
      for (double x : new double[] {0.7, -1.3, 2.4}) {
        Object[] at = {x};
        double[] gradient = (double[]) member.member("Gradient", at);
        assertWithMessage("mGradient of %s at %s", name, x).that(gradient[0])
            .isWithin(1e-12).of(k * (2 * x * last.getDouble(null) + 1));
        double[] written = new double[1];
        double value = (double) member.member("ValueAndGradient", at, (Object) written);
        double u = last.getDouble(null);
        assertWithMessage("value of mValueAndGradient of %s at %s", name, x).that(value)
            .isWithin(1e-12).of(k * (x * x * u + x));
        assertWithMessage("mValueAndGradient of %s at %s", name, x).that(written[0])
            .isWithin(1e-12).of(k * (2 * x * u + 1));
        double[] adjoints = {0.5};
        double pulled = (double) member.member("Pullback", at, 1.5, adjoints);
        u = last.getDouble(null);
        assertWithMessage("value of mPullback of %s at %s", name, x).that(pulled)
            .isWithin(1e-12).of(k * (x * x * u + x));
        assertWithMessage("mPullback of %s at %s", name, x).that(adjoints[0])
            .isWithin(1e-12).of(0.5 + 1.5 * k * (2 * x * u + 1));
        double tangent = (double) member.member("Tangent", at, 0.25);
        assertWithMessage("mTangent of %s at %s", name, x).that(tangent)
            .isWithin(1e-12).of(0.25 * k * (2 * x * last.getDouble(null) + 1));
      }
    }
  }

  @Test
  void theCounterCountsEachCall() throws Exception {
    // the checks above compare counts: here, that there is something to count
    MemberAgreement twice = MemberAgreement.of(WHOLE.get(), "com.example.Noisy", "twice", true,
        true);
    Class<?> user = WHOLE.get().load("com.example.Noisy");
    java.lang.reflect.Field calls = user.getDeclaredField("calls");
    calls.setAccessible(true);
    int before = calls.getInt(null);
    twice.member("Tangent", new Object[] {0.4, 1.3}, 1.0, 0.0);
    assertWithMessage("a tick and a draw per call of huber, two calls")
        .that(calls.getInt(null) - before).isEqualTo(4);
  }

  /** The header with {@code methods} after it, compiled. */
  private static Compilation compile(List<String> methods) {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Noisy", source(methods));
    return InProcessCompiler.javac().compile(file);
  }

  private static void assertErrorAt(Compilation compilation, List<String> methods, String text,
      int occurrence, String message) {
    int line = 0;
    int column = 0;
    int seen = 0;
    for (int i = 0; i < methods.size() && line == 0; i++) {
      int at = methods.get(i).indexOf(text);
      while (at >= 0 && seen++ < occurrence) {
        at = methods.get(i).indexOf(text, at + 1);
      }
      if (at >= 0) {
        line = HEADER.size() + 1 + i;
        column = at + text.indexOf('(') + 1; // javac's position of a call: its parenthesis
      }
    }
    assertThat(compilation).hadErrorContaining(message)
        .inFile(compilation.sourceFiles().get(0)).onLine(line).atColumn(column);
  }

  @Test
  void aTangentThatNeedsTheValueAndTheTangentIsAnErrorAtEachCall() {
    List<String> methods = List.of(
        "  @Differentiable static double product(double x, double y) {",
        "    return huber(x, y) *",
        "        huber(y, x);",
        "  }");
    Compilation compilation = compile(methods);
    String message = "call to 'huber(...)': 'Noisy.huber' runs code that carries no derivative"
        + " ('tick()', line 9), which the tangent of 'product' would run twice, once for its"
        + " value and once for its tangent, where 'product' runs it once; make that call in"
        + " 'product' instead and pass its result to 'huber' as a @NoDerivative parameter";
    assertErrorAt(compilation, methods, "huber(x, y)", 0, message);
    assertErrorAt(compilation, methods, "huber(y, x)", 0, message);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(2);
  }

  @Test
  void onlyTheCallWhoseValueAndTangentAreReadIsAnError() {
    List<String> methods = List.of(
        "  @Differentiable static double mixed(double x, double y) {",
        "    double a = huber(x, y);",
        "    double b = huber(y, x);",
        "    return a + b * y;",
        "  }");
    Compilation compilation = compile(methods);
    assertErrorAt(compilation, methods, "huber(y, x)", 0, "which the tangent of 'mixed'"
        + " would run twice, once for its value and once for its tangent");
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  @Test
  void aCalleeWithoutARecordingHalfIsAnError() {
    List<String> methods = List.of(
        "  @Differentiable static double viaArray(double x, double y) {",
        "    return x + arrayed(x, y);",
        "  }");
    Compilation compilation = compile(methods);
    assertErrorAt(compilation, methods, "arrayed(x, y)", 0, "call to 'arrayed(...)':"
        + " 'Noisy.arrayed' runs code that carries no derivative ('tick()', line 21), which a"
        + " reverse-mode member of 'viaArray' would run again: the pullback of 'Noisy.arrayed'"
        + " (or of a segment of 'viaArray') cannot hand the values of its forward sweep to its"
        + " reverse sweep, and runs its code once more, where 'viaArray' runs it once");
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  @Test
  void aCallerOfACallerWithoutARecordingHalfIsAnError() {
    List<String> methods = List.of(
        "  @Differentiable static double holder(double x, double y) {",
        "    double[] a = {x, y};",
        "    return huber(a[0], a[1]) + a[1];",
        "  }",
        "  @Differentiable static double callsHolder(double x, double y) {",
        "    return y + holder(x, y);",
        "  }");
    Compilation compilation = compile(methods);
    assertErrorAt(compilation, methods, "holder(x, y)", 0, "call to 'holder(...)':"
        + " 'Noisy.holder' runs code that carries no derivative ('tick()', line 9, in 'Noisy.huber',"
        + " which it calls), which a"
        + " reverse-mode member of 'callsHolder' would run again");
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  @Test
  void aCallerInAnotherClassIsStillAnErrorAtTheCall() {
    String caller = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Other {",
        "  @Differentiable static double f(double x) {",
        "    return x + Noisy.huber(x, 2.0);",
        "  }",
        "}");
    Compilation compilation = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.Noisy", source(List.of())),
        JavaFileObjects.forSourceString("com.example.Other", caller));
    assertThat(compilation).hadErrorContaining("call to 'Noisy.huber(...)': 'Noisy.huber' runs"
        + " code that carries no derivative ('tick()', line 9), which the tangent of 'f' would"
        + " run twice").inFile(compilation.sourceFiles().get(1)).onLine(5).atColumn(27);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }
  @Test
  void aCalleeThatReadsWhatTheCallChangesBeforeItStaysAnError() {
    // reader's pullback runs it again (it makes an array), after huber counted
    List<String> methods = List.of(
        "  @Differentiable static double reader(double x) {",
        "    double[] a = {x, calls};",
        "    return a[0] * a[1];",
        "  }",
        "  @Differentiable static double readThenCount(double x, double y) {",
        "    double r = reader(x);",
        "    return r + huber(x, y);",
        "  }");
    Compilation compilation = compile(methods);
    assertErrorAt(compilation, methods, "reader(x)", 0, "call to 'reader(...)': 'Noisy.reader'"
        + " reads what a call run as written may change (line 25: double[] a = {x, calls};),"
        + " and the gradient of 'readThenCount' may run 'Noisy.reader' again in its reverse"
        + " sweep, after 'huber(...)' (line 30), which runs as written and may change it");
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  @Test
  void membersThatSweepOrRecomputeStayErrorsAtTheCall() {
    List<String> methods = List.of(
        "  @Differentiable static double[] pair(double x, double y) {",
        "    return new double[] {huber(x, y), y};",
        "  }",
        "  @ad4j.Checkpointed(snapshots = 2)",
        "  @Differentiable static double steps(double x, double y) {",
        "    double s = x;",
        "    for (int i = 0; i < 3; i++) {",
        "      s = s + huber(s, y);",
        "    }",
        "    return s;",
        "  }");
    Compilation compilation = compile(methods);
    assertErrorAt(compilation, methods, "huber(x, y)", 0, "call to 'huber(...)': 'Noisy.huber'"
        + " runs code that carries no derivative ('tick()', line 9), which mJacobian and"
        + " mValueAndJacobian of 'pair' would run once per row");
    assertErrorAt(compilation, methods, "huber(s, y)", 0, "call to 'huber(...)': 'Noisy.huber'"
        + " runs code that carries no derivative ('tick()', line 9), which the reverse sweep of"
        + " this @Checkpointed loop would run again when it computes iterations anew");
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(2);
  }

  @Test
  void aCallerCompiledEarlierRecordsItsCalleesCall(@TempDir Path classes) throws IOException {
    Compilation library = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.Noisy", source(ACCEPTED)));
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    Compilation later = InProcessCompiler.javac().withClasspath(classpath).compile(
        JavaFileObjects.forSourceString("com.example.Later", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Later {",
            "  @Differentiable static double f(double x) {",
            "    return x + Noisy.twice(x, 2.0);",
            "  }",
            "}")));
    assertThat(later).hadErrorContaining("call to 'Noisy.twice(...)': 'Noisy.twice' runs code"
        + " that carries no derivative ('huber(...) (line 25)'), which the tangent of 'f' would"
        + " run twice").inFile(later.sourceFiles().get(0)).onLine(5).atColumn(27);
    assertWithMessage(InProcessCompiler.describe(later.diagnostics()))
        .that(later.errors()).hasSize(1);
  }
  @Test
  void aCallerSplitIntoSegmentsIsAnError() {
    // so long that its members call segments, whose reverse sweeps run whole pullbacks: with
    // this rule left out, its mValueAndGradient drew twice per call
    List<String> methods = new ArrayList<>();
    methods.add("  @Differentiable static double chain(double x, double y, double a, double b) {");
    for (int i = 0; i < 250; i++) {
      methods.add("    x = x * a + Math.sin(y);");
      methods.add("    y = y * b - x * 0.001;");
      if (i == 125) {
        methods.add("    x = x + huber(y, 2.0);");
      }
    }
    methods.add("    return x + y;");
    methods.add("  }");
    Compilation compilation = compile(methods);
    assertErrorAt(compilation, methods, "huber(y, 2.0)", 0, "call to 'huber(...)': 'Noisy.huber'"
        + " runs code that carries no derivative ('tick()', line 9), which a reverse-mode member"
        + " of 'chain' would run again: the pullback of 'Noisy.huber' (or of a segment of"
        + " 'chain') cannot hand the values of its forward sweep to its reverse sweep");
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }
}
