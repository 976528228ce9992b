package ad4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A method taking a function called again from inside the function passed to it: a double
 * integral by nested quadrature, {@code integrate(t -> integrate(u -> g(t, u), 0, t), a, b)}.
 * Each call is specialised for its own function, as a C++ template is instantiated for each
 * lambda, so the inner call is not recursion; it was an error saying that 'integrate' calls
 * itself (found by hunt 58). Recursion is a call of the method for a function it is already
 * being specialised for, which would never end, and stays an error at the call. Derivatives
 * against differences of order 8 of the method, forward against reverse, and the Hessian
 * ({@link MemberAgreement}).
 */
@ExtendWith(TapeIsEmpty.class)
class NestedTemplateCallsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleBinaryOperator;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Q {",
      "  @Differentiable(order = 2)",
      "  static double integrate(DoubleUnaryOperator f, double a, double b, int n) {",
      "    double h = (b - a) / n, s = 0;",
      "    for (int i = 0; i < n; i++) s += f.applyAsDouble(a + (i + 0.5) * h);",
      "    return s * h;",
      "  }",
      "  /** Over the triangle 0 <= u <= t, a <= t <= b. */",
      "  @Differentiable(order = 2)",
      "  static double triangle(DoubleBinaryOperator g, double a, double b) {",
      "    return integrate(t -> integrate(u -> g.applyAsDouble(t, u), 0, t, 5), a, b, 6);",
      "  }",
      "  @Differentiable(order = 2)",
      "  static double doubleIntegral(double p, double q) {",
      "    return triangle((t, u) -> Math.exp(-p * t * u) * Math.cos(q * u), 0.2, 1.1);",
      "  }",
      "  /** Three levels, the innermost bound depending on a parameter. */",
      "  @Differentiable",
      "  static double tripleIntegral(double p, double q) {",
      "    return integrate(x -> integrate(y -> integrate(z -> Math.sin(p * x + y * z), 0, q * y,"
          + " 3), 0, x, 3), 0, 1, 4);",
      "  }",
      "  /** A template whose lambda applies its own function, itself used twice, nested. */",
      "  @Differentiable(order = 2)",
      "  static double smooth(DoubleUnaryOperator f, double w) {",
      "    return integrate(t -> f.applyAsDouble(t) * integrate(u -> f.applyAsDouble(u * t) * w,"
          + " 0, 1, 3), 0, 1, 4);",
      "  }",
      "  @Differentiable(order = 2)",
      "  static double smoothTwice(double p, double q) {",
      "    return smooth(x -> Math.exp(-p * x) + smooth(y -> y * q * x, p), q);",
      "  }",
      "}");

  private static InProcessCompiler.Compiled compiled;

  private static MemberAgreement method(String name) {
    if (compiled == null) {
      compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Q", SOURCE);
    }
    return MemberAgreement.of(compiled, "com.example.Q", name, true, true);
  }

  @Test
  void aDoubleIntegralByNestedQuadrature() throws Exception {
    method("doubleIntegral").checkScalarAt(new double[][] {{1.3, 0.7}, {0.4, 2.1}}, 2, 1e-7);
  }

  @Test
  void aTripleIntegralByNestedQuadrature() throws Exception {
    method("tripleIntegral").checkScalarAt(new double[][] {{1.3, 0.7}, {-0.4, 1.6}}, 1, 1e-7);
  }

  /**
   * The same lambda of a template applied for two functions, one specialisation inside the
   * other: 't -> f.applyAsDouble(t) * ...' for 'f' the lambda over x, then for the one over y.
   * Telling them apart by the lambda's code alone, this was the error that the lambda calls
   * itself.
   */
  @Test
  void aTemplatesLambdaForTwoFunctionsNested() throws Exception {
    method("smoothTwice").checkScalarAt(new double[][] {{0.7, 0.3}, {1.4, -0.5}}, 2, 1e-7);
  }

  /** Mutual recursion making a new lambda at each step: the same lambda for itself, an error. */
  @Test
  void mutualRecursionThroughANewLambdaIsRecursion() {
    String[] lines = {
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "final class M {",
        "  @Differentiable static double a(DoubleUnaryOperator f, double x, int n) {",
        "    return n == 0 ? f.applyAsDouble(x) : b(f, x * 0.5, n - 1);",
        "  }",
        "  @Differentiable static double b(DoubleUnaryOperator f, double x, int n) {",
        "    return a(t -> f.applyAsDouble(t) + 1, x, n);",
        "  }",
        "  @Differentiable static double use(double x) { return a(t -> t * t, x, 3); }",
        "}"};
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.M",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("recursion through a function value is not"
        + " supported: 'a' takes a function and calls itself").inFile(file).onLine(9)
        .atColumn(13);
  }

  /** The method called for the function it is being specialised for: recursion, an error. */
  @Test
  void aCallForTheSameFunctionIsStillRecursion() {
    String[] lines = {
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "final class R {",
        "  @Differentiable static double again(DoubleUnaryOperator f, double x, int n) {",
        "    return n == 0 ? f.applyAsDouble(x) : again(f, f.applyAsDouble(x), n - 1);",
        "  }",
        "  @Differentiable static double use(double x) { return again(t -> t * t, x, 3); }",
        "}"};
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.R",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("recursion through a function value is not"
        + " supported: 'again' takes a function and calls itself").inFile(file).onLine(6)
        .atColumn(47);
  }
}
