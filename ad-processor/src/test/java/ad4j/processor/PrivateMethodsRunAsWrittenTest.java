package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Private helper methods of the user's class that a method runs as written (issue 36, item 1):
 * an {@code int} helper, argument checks, a {@code double} helper called with values that carry
 * no derivative, overloads, a variable-arity check, an instance helper and one that declares a
 * checked exception. The generated class calls each through a {@code MethodHandle} it finds
 * once; its members are checked against differences of the user's own methods, forward against
 * reverse, and throw what the user's method throws. A value that carries a derivative into such
 * a call and back into the result stays an error.
 */
@ExtendWith(TapeIsEmpty.class)
class PrivateMethodsRunAsWrittenTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Series {",
      "  private static int terms(int n) { return n < 3 ? 3 : n; }",
      "  private static void checkPositive(double x) {",
      "    if (x <= 0) throw new IllegalArgumentException(\"not positive: \" + x);",
      "  }",
      "  private static void checkArgument(boolean ok, String format, Object... values) {",
      "    if (!ok) throw new IllegalArgumentException(String.format(format, values));",
      "  }",
      "  private static double coefficient(int k) { return 1.0 / (k + 1); }",
      "  private static double coefficient(int k, double scale) { return scale / (k + 2); }",
      "  private static int bucket(double[] knots, double v) {",
      "    int i = 0;",
      "    while (i < knots.length - 2 && knots[i + 1] <= v) i++;",
      "    return i;",
      "  }",
      "  private static long widened(long k) { return k * 2; }",
      "  private static double parsed(String s) throws java.io.IOException {",
      "    if (s.isEmpty()) throw new java.io.IOException(\"empty\");",
      "    return Double.parseDouble(s);",
      "  }",
      "  @Differentiable static double series(double x, int n) {",
      "    checkPositive(x);",
      "    checkArgument(n >= 0, \"n = %d is negative\", n);",
      "    int m = terms(n);",
      "    double s = 0;",
      "    for (int k = 0; k < m; k++) s += (coefficient(k) + coefficient(k, 0.5)) * Math.pow(x, k);",
      "    return s * widened(n);",
      "  }",
      "  @SuppressWarnings(\"ad4j.zero-derivative\")",
      "  @Differentiable static double piecewise(double x, double[] knots) {",
      "    int i = bucket(knots, x);",
      "    return knots[i] * x * x + knots[i + 1] * x;",
      "  }",
      "  @Differentiable static double declared(double x, String factor)",
      "      throws java.io.IOException {",
      "    return parsed(factor) * Math.sin(x);",
      "  }",
      "  private final double offset;",
      "  Series(double offset) { this.offset = offset; }",
      "  private double shifted(double v) { return v + offset; }",
      "  @Differentiable double instance(double x) {",
      "    return shifted(1.5) * x * x;",
      "  }",
      "}");

  private static final CompiledOnce SERIES = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Series", SOURCE));

  private static Compiled series() {
    return SERIES.get();
  }

  @Test
  void privateHelpersRunAsWrittenInEveryMember() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(series(), "com.example.Series");
    checks.check(new ArrayFunctionChecks.Call("series", new Object[] {0.7, 2}, true, false));
    checks.check(new ArrayFunctionChecks.Call("series", new Object[] {1.3, 5}, true, false));
    // d/dx of 2n sum_k (1/(k+1) + 0.5/(k+2)) x^k with m = 5 terms
    double expected = 0;
    for (int k = 1; k < 5; k++) {
      expected += (1.0 / (k + 1) + 0.5 / (k + 2)) * k * Math.pow(1.3, k - 1);
    }
    double[] gradient = (double[]) ArrayFunctionChecks.invoke(checks.generated(),
        "seriesGradient", 1.3, 5);
    assertThat(gradient[0]).isWithin(1e-13).of(10 * expected);
  }

  @Test
  void anArrayReadingIntHelperAndAnInstanceHelper() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(series(), "com.example.Series");
    checks.check(new ArrayFunctionChecks.Call("piecewise",
        new Object[] {0.7, new double[] {0.0, 0.5, 1.0, 2.0}}, true, true));
    checks.check(new ArrayFunctionChecks.Call("piecewise",
        new Object[] {1.4, new double[] {0.0, 0.5, 1.0, 2.0}}, true, true));
    Class<?> user = series().load("com.example.Series");
    java.lang.reflect.Constructor<?> make = user.getDeclaredConstructor(double.class);
    make.setAccessible(true);
    Object receiver = make.newInstance(0.25);
    java.lang.reflect.Method gradient = series().load("com.example.SeriesGrad")
        .getDeclaredMethod("instanceGradient", user, double.class);
    gradient.setAccessible(true);
    double[] g = (double[]) gradient.invoke(null, receiver, 0.8);
    assertThat(g).usingTolerance(1e-15).containsExactly(2 * (1.5 + 0.25) * 0.8);
  }

  @Test
  void membersThrowWhatTheHelpersThrow() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(series(), "com.example.Series");
    for (Object[] point : new Object[][] {{-0.5, 2}, {0.5, -3}}) {
      Throwable expected = assertThrows(java.lang.reflect.InvocationTargetException.class,
          () -> ArrayFunctionChecks.invoke(checks.user(), "series", point)).getCause();
      assertThat(expected).isInstanceOf(IllegalArgumentException.class);
      for (Object[] member : List.of(new Object[] {"seriesGradient", point},
          new Object[] {"seriesTangent", new Object[] {point[0], point[1], 1.0}},
          new Object[] {"seriesPullback", new Object[] {point[0], point[1], 1.0,
              new double[1]}})) {
        Throwable thrown = assertThrows(java.lang.reflect.InvocationTargetException.class,
            () -> ArrayFunctionChecks.invoke(checks.generated(), (String) member[0],
                (Object[]) member[1])).getCause();
        assertThat(thrown.getClass()).isEqualTo(IllegalArgumentException.class);
        assertThat(thrown).hasMessageThat().isEqualTo(expected.getMessage());
      }
    }
    assertThat(assertThrows(java.lang.reflect.InvocationTargetException.class,
        () -> ArrayFunctionChecks.invoke(checks.generated(), "seriesGradient", 0.5, -3))
        .getCause()).hasMessageThat().isEqualTo("n = -3 is negative");
  }

  @Test
  void aCheckedExceptionIsDeclaredAndThrownAsItIs() throws Exception {
    Class<?> grad = series().load("com.example.SeriesGrad");
    java.lang.reflect.Method gradient = grad.getDeclaredMethod("declaredGradient",
        double.class, String.class);
    gradient.setAccessible(true);
    assertThat(List.of(gradient.getExceptionTypes())).containsExactly(java.io.IOException.class);
    double[] g = (double[]) gradient.invoke(null, 0.4, "2.5");
    assertThat(g).usingTolerance(1e-15).containsExactly(2.5 * Math.cos(0.4));
    java.lang.reflect.InvocationTargetException thrown = assertThrows(
        java.lang.reflect.InvocationTargetException.class, () -> gradient.invoke(null, 0.4, ""));
    assertThat(thrown.getCause()).isInstanceOf(java.io.IOException.class);
    assertThat(thrown.getCause()).hasMessageThat().isEqualTo("empty");
  }

  @Test
  void eachHelperHasOneHandleFoundWhenTheClassIsInitialised() throws Exception {
    String code = series().compilation().generatedSourceFile("com.example.SeriesGrad")
        .orElseThrow().getCharContent(true).toString();
    assertThat(code).contains("lookup1.findStatic(Series.class, \"terms\", MethodType.methodType("
        + "int.class, int.class))");
    assertThat(code).contains("lookup1.findVirtual(Series.class, \"shifted\"");
    // each handle is invoked exactly, in the one method that calls it; no lookup at a call
    assertThat(code.split("findStatic\\(Series.class, \"terms\"", -1)).hasLength(2);
    assertThat(code.split("termsMethod.invokeExact\\(", -1)).hasLength(2);
    Class<?> grad = series().load("com.example.SeriesGrad");
    for (String handle : List.of("termsMethod", "coefficient_1Method", "coefficient_2Method",
        "checkArgumentMethod", "shiftedMethod")) {
      Field field = grad.getDeclaredField(handle);
      assertThat(field.getType()).isEqualTo(MethodHandle.class);
      assertThat(Modifier.isStatic(field.getModifiers())
          && Modifier.isFinal(field.getModifiers())).isTrue();
    }
  }

  @Test
  void aDerivativeCarriedThroughAPrivateHelperIsStillAnError() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Laundered",
        String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Laundered {",
            "  private static double square(double v) { return v * v; }",
            "  private static double parse(String s) { return Double.parseDouble(s); }",
            "  @Differentiable static double direct(double x) {",
            "    return square(x) + x;",
            "  }",
            "  @Differentiable static double throughText(double x) {",
            "    double y = parse(\"\" + x);",
            "    return y * x;",
            "  }",
            "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    // annotating the private helper is advice that works: it would be a callee
    assertThat(compilation).hadErrorContaining("call to 'square(...)' is not differentiable:"
        + " 'x' carries a derivative into 'square(x)', which ad4j cannot differentiate: annotate"
        + " 'Laundered.square' with @Differentiable").inFile(file).onLine(7);
    assertThat(compilation).hadErrorContaining("'y' depends on 'x' through '\"\" + x' (line 10),"
        + " which carries no derivative, and reaches a value that carries a derivative: its"
        + " derivative would be silently wrong").inFile(file).onLine(11);
  }
}
