package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Arrays of objects made as written (issue 36, items 2 and 3): {@code new Object[] {x, n}} in
 * a thrown exception's arguments ({@code MessageFormat.format(pattern, new Object[] {...})}, a
 * constructor taking {@code Object[]}) and passed to a logger, with values that carry
 * derivatives or not (boxed, as into an {@code Object...} parameter). Members throw what the
 * user's method throws, message included; derivatives against differences of the user's
 * method, forward against reverse. A number read back from such an array into the result is an
 * error where it comes back; an array that carries derivatives as an element, outside a
 * {@code throw}, is an error at the element.
 */
@ExtendWith(TapeIsEmpty.class)
class ObjectArraysRunAsWrittenTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.text.MessageFormat;",
      "import java.util.logging.Level;",
      "import java.util.logging.Logger;",
      "final class Messages {",
      "  static final Logger LOG = Logger.getLogger(\"messages\");",
      "  enum Kind { NEGATIVE, TOO_LARGE }",
      "  static final class Failure extends IllegalArgumentException {",
      "    private static final long serialVersionUID = 1L;",
      "    Failure(Kind kind, Object[] values) { super(kind + \" \" + java.util.Arrays.toString(values)); }",
      "  }",
      "  @Differentiable static double f(double x, double y, int n) {",
      "    if (x < 0) throw new IllegalArgumentException(",
      "        MessageFormat.format(\"x = {0} with n = {1}\", new Object[] {x, n}));",
      "    if (y > 10) throw new Failure(Kind.TOO_LARGE, new Object[] {y * 2, \"y\", n});",
      "    LOG.log(Level.FINEST, \"n = {0}, {1}\", new Object[] {n, \"f\"});",
      "    LOG.log(Level.FINEST, \"x = {0}, y = {1}\", new Object[] {x, y * n});",
      "    return x * Math.exp(y) + n * y;",
      "  }",
      "}");

  private static final CompiledOnce MESSAGES = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Messages", SOURCE));

  @Test
  void derivativesWhereNothingIsThrown() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(MESSAGES.get(), "com.example.Messages");
    checks.check(new ArrayFunctionChecks.Call("f", new Object[] {0.7, 1.3, 3}, true, true, false));
    checks.check(new ArrayFunctionChecks.Call("f", new Object[] {2.5, -0.4, 1}, true, true, false));
  }

  @Test
  void membersThrowWhatTheMethodThrows() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(MESSAGES.get(), "com.example.Messages");
    for (Object[] point : new Object[][] {{-1.5, 0.5, 2}, {0.5, 11.0, 4}}) {
      Throwable expected = assertThrows(InvocationTargetException.class,
          () -> ArrayFunctionChecks.invoke(checks.user(), "f", point)).getCause();
      for (Object[] member : List.of(new Object[] {"fGradient", point},
          new Object[] {"fTangent", new Object[] {point[0], point[1], point[2], 1.0, 0.5}},
          new Object[] {"fPullback", new Object[] {point[0], point[1], point[2], 1.0,
              new double[2]}})) {
        Throwable thrown = assertThrows(InvocationTargetException.class,
            () -> ArrayFunctionChecks.invoke(checks.generated(), (String) member[0],
                (Object[]) member[1])).getCause();
        assertThat(thrown.getClass()).isEqualTo(expected.getClass());
        assertThat(thrown).hasMessageThat().isEqualTo(expected.getMessage());
      }
    }
    assertThat(assertThrows(InvocationTargetException.class,
        () -> ArrayFunctionChecks.invoke(checks.generated(), "fGradient", 0.5, 11.0, 4))
        .getCause()).hasMessageThat().isEqualTo("TOO_LARGE [22.0, y, 4]");
  }

  @Test
  void aNumberReadBackFromAnArrayOfObjectsAndAnArrayInOneAreErrors() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Kept", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Kept {",
        "  @Differentiable static double readBack(double x) {",
        "    Object[] kept = new Object[] {1, x};",
        "    double y = Double.parseDouble(String.valueOf(kept[1]));",
        "    return x * y;",
        "  }",
        "  @Differentiable static double arrayInside(double[] w) {",
        "    Object[] kept = new Object[] {w, \"w\"};",
        "    return w[0] * kept.length;",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("'y' depends on 'x' through 'new Object[]' (line 5), which carries"
        + " no derivative, and reaches a value that carries a derivative")
        .inFile(file).onLine(7);
    assertThat(compilation).hadErrorContaining("'w' is an array that carries derivatives, put"
        + " into 'new Object[] {w, \"w\"}', which ad4j cannot differentiate: code run as written could"
        + " write into it through the array of objects").inFile(file).onLine(10);
    assertThat(compilation).hadErrorCount(2);
  }
}
