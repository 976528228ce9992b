package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Arrays that carry derivatives passed to code that runs as written (issue 31, "arrays passed
 * to code that runs as written"; issue 36, item 4): accepted where ad4j can show the callee only
 * reads them — a static method of the sources whose body only reads ({@code checkEqualLength},
 * {@code maxIndex}), {@code Objects.requireNonNull} — and rejected otherwise; a copy made by
 * {@code Arrays.copyOf} or {@code copyOfRange} is differentiated like {@code clone()}, its
 * exceptions those of the library. Checked against differences of the user's own methods, values
 * bit for bit, forward against reverse mode.
 */
class ArraysToCodeRunAsWrittenTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.Arrays;",
      "import java.util.Objects;",
      "final class Fit {",
      "  static void checkEqualLength(double[] a, double[] b) {",
      "    if (a.length != b.length) {",
      "      throw new IllegalArgumentException(\"lengths \" + a.length + \" and \" + b.length);",
      "    }",
      "  }",
      "  static int maxIndex(double[] a) {",
      "    int k = 0;",
      "    for (int i = 1; i < a.length; i++) { if (a[i] > a[k]) { k = i; } }",
      "    return k;",
      "  }",
      "  @SuppressWarnings(\"ad4j.zero-derivative\")",
      "  @Differentiable static double loss(double[] w, double[] x) {",
      "    checkEqualLength(w, x);",
      "    Objects.requireNonNull(w, \"w\");",
      "    int k = maxIndex(w);",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) { s += w[i] * x[i]; }",
      "    return s * s + w[k] * x[k];",
      "  }",
      "  @Differentiable static double copies(double[] w, double t, int n) {",
      "    double[] c = Arrays.copyOf(w, n);",
      "    double[] r = Arrays.copyOfRange(w, 1, 3);",
      "    c[0] = c[0] * t;",
      "    double s = 0;",
      "    for (int i = 0; i < c.length; i++) { s += Math.sin(c[i]) * (i + 1); }",
      "    return s + r[0] * r[1] * t;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Fit",
          SOURCE));

  @Test
  void readOnlyHelpersTakeArraysThatCarryDerivatives() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Fit");
    checks.check(new ArrayFunctionChecks.Call("loss",
        new Object[] {new double[] {0.3, -0.4, 0.8}, new double[] {1.5, 0.2, -0.7}}, true,
        true));
    checks.check(new ArrayFunctionChecks.Call("loss",
        new Object[] {new double[] {1.1, 0.5}, new double[] {-0.3, 0.9}}, true, true));
  }

  @Test
  void copiesAreDifferentiatedLikeClones() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Fit");
    for (int n : new int[] {2, 3, 5}) { // shorter, as long, longer (zeros)
      checks.check(new ArrayFunctionChecks.Call("copies",
          new Object[] {new double[] {0.3, -0.4, 0.8}, 0.7, n}, true, true, false));
    }
  }

  @Test
  void theChecksThrowWhatTheMethodThrows() {
    Class<?> user = COMPILED.get().load("com.example.Fit");
    Class<?> generated = COMPILED.get().load("com.example.FitGrad");
    Object[] shortRange = {new double[0], 0.7, 2}; // copyOfRange(w, 1, 3) starts past the end
    Object[] negative = {new double[] {0.3, 0.1, 0.2}, 0.7, -1};
    for (Object[] arguments : List.of(shortRange, negative)) {
      Throwable expected = assertThrows(InvocationTargetException.class,
          () -> ArrayFunctionChecks.invoke(user, "copies", arguments)).getCause();
      Throwable actual = assertThrows(InvocationTargetException.class,
          () -> ArrayFunctionChecks.invoke(generated, "copiesGradient", arguments)).getCause();
      assertThat(actual.getClass()).isEqualTo(expected.getClass());
      assertThat(actual).hasMessageThat().isEqualTo(expected.getMessage());
    }
    Object[] lengths = {new double[] {0.3, 0.2}, new double[] {1.0}};
    Throwable expected = assertThrows(InvocationTargetException.class,
        () -> ArrayFunctionChecks.invoke(user, "loss", lengths)).getCause();
    Throwable actual = assertThrows(InvocationTargetException.class,
        () -> ArrayFunctionChecks.invoke(generated, "lossGradient", lengths)).getCause();
    assertThat(actual).hasMessageThat().isEqualTo(expected.getMessage());
  }

  @Test
  void aHelperThatWritesIntoTheArrayIsStillAnError() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Writes", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Writes {",
        "  static void scale(double[] a) { for (int i = 0; i < a.length; i++) { a[i] *= 2; } }",
        "  @Differentiable static double f(double[] w) {",
        "    scale(w);",
        "    return w[0];",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("call to 'scale(...)' passes 'w', an array that"
        + " carries derivatives, to 'Writes.scale', which ad4j would run as written and which"
        + " could write into it").inFile(file).onLine(6);
  }
}
