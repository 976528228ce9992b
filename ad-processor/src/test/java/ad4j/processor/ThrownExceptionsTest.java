package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import java.util.function.Supplier;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code throw} runs as written, whatever its exception is built from: messages made with
 * {@code String.format}, {@code MessageFormat} or {@code ?:}, causes, enum "patterns" and
 * variable-arity constructors, as real argument checks write them. Calls made only to build
 * the exception do not count as code a member would run twice (the member ends when it
 * throws), so order-2 methods, vector functions and their callers may make them. And an array
 * may be compared with {@code null}.
 */
@ExtendWith(TapeIsEmpty.class)
class ThrownExceptionsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "import java.text.MessageFormat;",
      "final class Checked {",
      "  enum Pattern { TOO_SMALL, TOO_LARGE }",
      "  static final class OutOfRange extends IllegalArgumentException {",
      "    private static final long serialVersionUID = 1L;",
      "    OutOfRange(Pattern pattern, Object... values) {",
      "      super(pattern + \" \" + java.util.Arrays.toString(values));",
      "    }",
      "  }",
      "  @Differentiable static double formatted(double x, double y) {",
      "    if (x < 0) throw new IllegalArgumentException(",
      "        String.format(\"x = %.2f is negative (y = %.1f)\", x, y));",
      "    if (y > 10) throw new IllegalArgumentException(MessageFormat.format(\"y = {0}\", y));",
      "    if (x > 10) throw new IllegalStateException(x > 20 ? \"far too large\" : \"too large\");",
      "    if (y < -10) throw new ArithmeticException(\"y: \" + String.valueOf(y) + \" in \"",
      "        + (x > 1 ? \"upper\" : \"lower\"));",
      "    if (x == 5) throw new IllegalStateException(new ArithmeticException(\"x is \" + x));",
      "    if (y == 5) throw new OutOfRange(Pattern.TOO_LARGE, y, 5);",
      "    return x * Math.sin(y) + Math.sqrt(x);",
      "  }",
      "  @Differentiable(order = 2) static double secondOrder(double x, double y) {",
      "    if (x <= 0) throw new IllegalArgumentException(MessageFormat.format(\"x = {0}\", x));",
      "    assert y < 1e6 : MessageFormat.format(\"y = {0}\", y);",
      "    return Math.log(x) * y * y;",
      "  }",
      "  @Differentiable static double[] vector(double x, double y) {",
      "    if (x == y) throw new IllegalArgumentException(MessageFormat.format(\"{0} twice\", x));",
      "    return new double[] {x * y, x - y, Math.exp(x)};",
      "  }",
      "  @Differentiable static double caller(double x, double y) {",
      "    double[] v = vector(x, y);",
      "    return formatted(x, y) * v[0] + secondOrder(x, y);",
      "  }",
      "  @Differentiable static double scaled(double[] w, @NoDerivative double[] scale, double x) {",
      "    if (w == null) throw new NullPointerException(\"w\");",
      "    double s = scale != null ? scale[0] : 1.0;",
      "    double[] local = w.clone();",
      "    if (null != scale) local[0] = s * w[0];",
      "    if (local != null && (scale == null) != (null != scale)) return s * local[0] * x;",
      "    return 0;",
      "  }",
      "}");

  private static final CompiledOnce CHECKED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Checked", SOURCE));

  private static Compiled checked() {
    return CHECKED.get();
  }

  @Test
  void derivativesWhereNothingIsThrown() throws Exception {
    CompiledFunction formatted = checked().function("com.example.Checked", "formatted", 2);
    DerivativeChecks.checkAt(formatted, 0.7, 1.3);
    DerivativeChecks.checkAt(formatted, 3.5, -2.0);
    assertThat(formatted.gradient(0.7, 1.3)[1]).isWithin(1e-15).of(0.7 * Math.cos(1.3));
    CompiledFunction secondOrder = checked().function("com.example.Checked", "secondOrder", 2);
    HessianChecks.checkAt(secondOrder, checked().load("com.example.CheckedGrad"), 1.5, -0.5);
    DerivativeChecks.checkAt(checked().function("com.example.Checked", "caller", 2), 0.7, 1.3);
  }

  @Test
  void eachMemberThrowsWhatTheUsersMethodThrows() {
    CompiledFunction formatted = checked().function("com.example.Checked", "formatted", 2);
    double[][] points = {{-1.25, 2}, {1, 12}, {15, 1}, {25, 1}, {2, -12}, {0.5, -12}, {5, 1},
        {1, 5}};
    for (double[] point : points) {
      Throwable expected = rootOf(assertThrows(Throwable.class, () -> formatted.value(point)));
      for (Supplier<Object> member : List.<Supplier<Object>>of(
          () -> formatted.gradient(point),
          () -> formatted.tangent(point, new double[] {1, -1}),
          () -> formatted.pullback(point, 1, new double[2]))) {
        Throwable thrown = rootOf(assertThrows(Throwable.class, member::get));
        assertThat(thrown.getClass()).isEqualTo(expected.getClass());
        assertThat(thrown).hasMessageThat().isEqualTo(expected.getMessage());
      }
    }
    Throwable formattedMessage = rootOf(assertThrows(Throwable.class,
        () -> formatted.gradient(-1.25, 2)));
    assertThat(formattedMessage).hasMessageThat().isEqualTo(
        String.format("x = %.2f is negative (y = %.1f)", -1.25, 2.0));
    Throwable pattern = rootOf(assertThrows(Throwable.class, () -> formatted.gradient(1, 5)));
    assertThat(pattern).hasMessageThat().isEqualTo("TOO_LARGE [5.0, 5]");
  }

  /**
   * What generated-api.md says of the outputs where the method throws: mPullback adds nothing
   * to the adjoints, for a method of doubles and for one of arrays (whose members record on
   * the tape, and clear a gradient before they run).
   */
  @Test
  void aPullbackWhereTheMethodThrowsLeavesTheAdjointsAsTheyWere() {
    String grad = "com.example.CheckedGrad";
    double[] adjoints = {7, 7};
    assertThrows(Exception.class, () -> checked().invoke(grad, "formattedPullback",
        -1.25, 2.0, 1.0, adjoints));
    assertThat(adjoints).usingExactEquality().containsExactly(7.0, 7.0).inOrder();
    double[] arrayAdjoints = {7, 7, 7};
    assertThrows(Exception.class, () -> checked().invoke(grad, "scaledPullback",
        null, new double[] {2.5}, 1.3, 1.0, arrayAdjoints));
    double[] w = {0.7, -1.2};
    double[] thrownAfterReading = {7, 7, 7};
    assertThrows(Exception.class, () -> checked().invoke(grad, "scaledPullback",
        w, new double[0], 1.3, 1.0, thrownAfterReading));
    assertThat(arrayAdjoints).usingExactEquality().containsExactly(7.0, 7.0, 7.0).inOrder();
    assertThat(thrownAfterReading).usingExactEquality().containsExactly(7.0, 7.0, 7.0).inOrder();
  }

  @Test
  void arraysComparedWithNull() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(checked(), "com.example.Checked");
    checks.check(new ArrayFunctionChecks.Call("scaled",
        new Object[] {new double[] {0.7, -1.2}, new double[] {2.5}, 1.3}, true, false, true));
    checks.check(new ArrayFunctionChecks.Call("scaled",
        new Object[] {new double[] {0.7, -1.2}, null, 1.3}, true, false, true));
    double[] gradient = (double[]) ArrayFunctionChecks.invoke(checks.generated(),
        "scaledGradient", new double[] {0.7, -1.2}, new double[] {2.5}, 1.3);
    assertThat(gradient).usingTolerance(1e-15)
        .containsExactly(2.5 * 2.5 * 1.3, 0.0, 2.5 * 2.5 * 0.7).inOrder();
  }

  @Test
  void arraysComparedWithEachOtherAndChosenWithConditionalsAreErrors() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double[] a, double[] b, boolean c) {",
        "    double[] t = c ? a : b;",
        "    return a == b ? t[0] : b[1];",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("'?:' choosing between arrays for 't' is not"
        + " supported here: ad4j makes 't' a copy of the chosen array, which computes the same"
        + " only while 'a' is only read (indexed, its length, iterated or copied from); here it"
        + " is also used otherwise (assigned, written into, compared, passed to a method or"
        + " returned)")
        .inFile(file).onLine(5).atColumn(lines.get(4).indexOf("?") + 1);
    assertThat(compilation).hadErrorContaining("operator '==' cannot be applied to 'double[]'"
        + " and 'double[]'").inFile(file).onLine(6).atColumn(lines.get(5).indexOf("==") + 1);
  }

  private static Throwable rootOf(Throwable thrown) {
    Throwable t = thrown;
    while (t.getCause() != null && !(t instanceof IllegalStateException)) {
      t = t.getCause();
    }
    return t;
  }
}
