package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Code that a generated member runs again must read what it read the first time
 * ({@code front/StateReadAgain}, DESIGN.md "Soundness"). Each case here gave a silently wrong
 * gradient before: the reverse sweep read a {@code static final} table's element again after a
 * call run as written had changed it; a callee's pullback ran its forward sweep again after the
 * caller's call had changed a field it read; a {@code @Checkpointed} loop computed its
 * iterations again after such a call.
 */
@ExtendWith(TapeIsEmpty.class)
class StateReadAgainTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Tables {",
      "  static final double[] TABLE = {1.0, 2.0, 0.5};",
      "  static void reset() { TABLE[0] = 1.0; TABLE[1] = 2.0; TABLE[2] = 0.5; }",
      "  static void change() { TABLE[0] = 3.0; TABLE[1] = 7.0; TABLE[2] = 9.0; }",
      "  @Differentiable static double loop(double x) {",
      "    reset();",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      s += Math.sin(x * TABLE[i]) * s + x;",
      "    }",
      "    change();",
      "    return s;",
      "  }",
      "  @Differentiable static double ownArray(double x) {",
      "    double[] t = {x, x * x};",
      "    return t[1] * Math.exp(t[0]);",
      "  }",
      "  @Differentiable static double callsOwnArray(double x) {",
      "    double a = ownArray(x);",
      "    change();",
      "    return a * x;",
      "  }",
      "}");

  private static final CompiledOnce TABLES = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Tables", SOURCE));

  private static Compiled tables() {
    return TABLES.get();
  }

  /** The reverse sweep takes the table's elements from the tape, not from the changed table. */
  @Test
  void elementsReadBeforeACallThatChangesThemAreNotReadAgain() {
    CompiledFunction loop = tables().function("com.example.Tables", "loop", 1);
    DerivativeChecks.checkAt(loop, 1.5);
    DerivativeChecks.checkAt(loop, -0.3);
  }

  /** A callee that reads only arrays it makes may be run again: nothing else can change them. */
  @Test
  void aCalleeReadingItsOwnArraysMayBeCalled() {
    CompiledFunction calls = tables().function("com.example.Tables", "callsOwnArray", 1);
    DerivativeChecks.checkAt(calls, 0.7);
    double x = 0.7;
    assertThat(calls.gradient(x)[0]).isWithin(1e-13)
        .of(Math.exp(x) * (3 * x * x + x * x * x));
  }

  @Test
  void aCalleeReadingChangeableStateAfterACallThatMayChangeItIsAnError() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Callers {",
        "  static final double[] TABLE = {1.0, 2.0};",
        "  static Object label;",
        "  static void change() { TABLE[0] = 3.0; label = \"changed\"; }",
        "  @Differentiable static double table(double x) {",
        "    double[] t = {x, x * x};",
        "    return t[1] * TABLE[0];",
        "  }",
        "  @Differentiable static double field(double x) {",
        "    double[] t = {x, x * x};",
        "    double k = label == null ? 1 : 3;",
        "    return t[1] * k;",
        "  }",
        "  @Differentiable static double caller(double x) {",
        "    double a = table(x) + field(x);",
        "    change();",
        "    return a;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Callers",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    String after = ", and the gradient of 'caller' may run '%s' again in its reverse sweep, after"
        + " 'change()' (line 18), which runs as written and may change it; make that call where"
        + " 'caller' is called and pass its result as a @NoDerivative parameter, or pass what"
        + " '%s' reads as arguments";
    assertThat(compilation).hadErrorContaining("call to 'table(...)': 'Callers.table' reads what a"
        + " call run as written may change (line 9: return t[1] * TABLE[0];)"
        + String.format(after, "Callers.table", "Callers.table"))
        .inFile(file).onLine(17).atColumn(lines.get(16).indexOf("(x)") + 1);
    assertThat(compilation).hadErrorContaining("call to 'field(...)': 'Callers.field' reads what a"
        + " call run as written may change (line 13: double k = label == null ? 1 : 3;)"
        + String.format(after, "Callers.field", "Callers.field"))
        .inFile(file).onLine(17).atColumn(lines.get(16).lastIndexOf("(x)") + 1);
  }

  /** Before the call it changes nothing the callee reads twice, unless a loop goes round. */
  @Test
  void onlyCallsThatMayRunAfterTheCalleeCount() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Ordered {",
        "  static final double[] TABLE = {1.0, 2.0};",
        "  static void change() { TABLE[0] += 1.0; }",
        "  @Differentiable static double table(double x) {",
        "    double[] t = {x, x * x};",
        "    return t[1] * TABLE[0];",
        "  }",
        "  @Differentiable static double before(double x) {",
        "    change();",
        "    return table(x) * x;",
        "  }",
        "  @Differentiable static double inLoop(double x) {",
        "    double s = 0;",
        "    for (int i = 0; i < 3; i++) {",
        "      change();",
        "      s += table(x);",
        "    }",
        "    return s;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Ordered",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("call to 'table(...)': 'Ordered.table' reads what"
        + " a call run as written may change (line 8: return t[1] * TABLE[0];), and the gradient"
        + " of 'inLoop' may run 'Ordered.table' again in its reverse sweep, after 'change()'"
        + " (line 17), which runs as written").inFile(file).onLine(18)
        .atColumn(lines.get(17).indexOf("(x)") + 1);
  }

  @Test
  void aCheckpointedMethodMakesNoCallThatMayChangeState() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class Iterated {",
        "  static final double[] TABLE = {1.0, 2.0, 0.5};",
        "  static void change() { TABLE[0] = 3.0; }",
        "  @Differentiable @Checkpointed(snapshots = 2)",
        "  static double f(double x, int n) {",
        "    double s = x;",
        "    for (int i = 0; i < n; i++) {",
        "      s = Math.sin(s * TABLE[i % 3]) + s;",
        "    }",
        "    change();",
        "    return s;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Iterated",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("call to 'change()' runs as written and may change"
        + " what the @Checkpointed loops of 'f' read, and their reverse sweep computes iterations"
        + " again after it ran; make the call where 'f' is called and pass its result as a"
        + " @NoDerivative parameter").inFile(file).onLine(13)
        .atColumn(lines.get(12).indexOf("(") + 1);
  }
}
