package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Checked exceptions (issue 36): a {@code @DerivativeOf} target and its rule that declare one,
 * called by a method that declares it; every generated member declares what the method
 * declares and throws it as the method does. A rule that declares a checked exception its
 * target does not is an error at the rule.
 */
class CheckedExceptionsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import java.io.IOException;",
      "final class Io {",
      "  static double load(double x) throws IOException {",
      "    if (x > 100) throw new IOException(\"too far: \" + x);",
      "    return Math.sin(x);",
      "  }",
      "  @DerivativeOf(\"load\") static double dLoad(double x) throws IOException {",
      "    return Math.cos(x);",
      "  }",
      "  @Differentiable static double f(double x, double y) throws IOException {",
      "    return load(x) * y + x;",
      "  }",
      "}");

  @Test
  void membersDeclareAndThrowWhatTheMethodDeclares() throws Exception {
    Compiled io = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Io", SOURCE);
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(io, "com.example.Io");
    checks.check(new ArrayFunctionChecks.Call("f", new Object[] {0.7, -1.3}, true, true));
    for (Method member : checks.generated().getDeclaredMethods()) {
      if (member.getName().startsWith("f")) {
        assertThat(List.of(member.getExceptionTypes())).contains(java.io.IOException.class);
      }
    }
    InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
        () -> ArrayFunctionChecks.invoke(checks.generated(), "fGradient", 150.0, 1.0));
    assertThat(thrown.getCause()).isInstanceOf(java.io.IOException.class);
    assertThat(thrown.getCause()).hasMessageThat().isEqualTo("too far: 150.0");
  }

  @Test
  void aRuleMayThrowOnlyWhatItsTargetThrows() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Lib", String.join("\n",
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "final class Lib {",
        "  static double lib(double x) { return Math.sin(x); }",
        "  @DerivativeOf(\"lib\") static double dLib(double x) throws java.io.IOException {",
        "    return Math.cos(x);",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("@DerivativeOf rule 'dLib' declares"
        + " 'java.io.IOException', a checked exception that its target 'Lib.lib' does not"
        + " declare: a rule may throw only what its target throws").inFile(file).onLine(5);
  }
}
