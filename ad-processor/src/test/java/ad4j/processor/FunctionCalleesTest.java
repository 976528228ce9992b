package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @Differentiable} methods that take a function (quadrature, an ODE step): each is
 * differentiated at every call, for the lambda or method reference passed there, inlined in the
 * caller, and has no generated members of its own, which a note says. The callers are checked
 * against central differences of themselves, forward against reverse, and the derivative of an
 * integral with respect to a parameter of its integrand against its analytic value.
 */
@ExtendWith(TapeIsEmpty.class)
class FunctionCalleesTest {
  private static final List<String> LINES = List.of(
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleBinaryOperator;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Quadrature {",
      "  /** Composite Simpson's rule over [a, b] in n (even) panels. */",
      "  @Differentiable static double integrate(DoubleUnaryOperator f, double a, double b,",
      "      int n) {",
      "    double h = (b - a) / n;",
      "    double sum = f.applyAsDouble(a) + f.applyAsDouble(b);",
      "    for (int i = 1; i < n; i++) {",
      "      sum += (i % 2 == 1 ? 4 : 2) * f.applyAsDouble(a + i * h);",
      "    }",
      "    return sum * h / 3;",
      "  }",
      "  /** One classical Runge-Kutta step of y' = rhs(t, y). */",
      "  @Differentiable static double rk4(DoubleBinaryOperator rhs, double t, double y,",
      "      double h) {",
      "    double k1 = rhs.applyAsDouble(t, y);",
      "    double k2 = rhs.applyAsDouble(t + h / 2, y + h / 2 * k1);",
      "    double k3 = rhs.applyAsDouble(t + h / 2, y + h / 2 * k2);",
      "    double k4 = rhs.applyAsDouble(t + h, y + h * k3);",
      "    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);",
      "  }",
      "  /** A method taking a function that passes it on. */",
      "  @Differentiable static double mean(DoubleUnaryOperator f, double a, double b) {",
      "    if (b == a) { return f.applyAsDouble(a); }",
      "    return integrate(f, a, b, 40) / (b - a);",
      "  }",
      "  /** The integral of exp(-k x) over [0, 1]: its derivative in k is analytic. */",
      "  @Differentiable static double decay(double k) {",
      "    return integrate(x -> Math.exp(-k * x), 0, 1, 200);",
      "  }",
      "  @Differentiable static double calls(double k, double y) {",
      "    DoubleUnaryOperator g = x -> Math.sin(k * x) * y;",
      "    double s = 0;",
      "    for (int step = 0; step < 3; step++) {",
      "      s += rk4((t, v) -> -k * v + Math.sin(t), step * 0.1, y + s, 0.1);",
      "    }",
      "    return s + integrate(g, 0, y, 8) + integrate(Math::cos, k, y, 10)",
      "        + mean(x -> x * x * k, 0, y);",
      "  }",
      "  @Differentiable(order = 2) static double twice(double k, double y) {",
      "    return integrate(x -> Math.exp(-k * x) * y, 0, y, 20);",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Quadrature", String.join("\n", LINES)));

  @Test
  void theDerivativeOfAnIntegralInAParameterOfItsIntegrandIsAnalytic() {
    Compiled compiled = COMPILED.get();
    for (double k : new double[] {0.5, 1.0, 2.5}) {
      double derivative = compiled.function("com.example.Quadrature", "decay", 1).gradient(k)[0];
      // d/dk (1 - e^{-k}) / k
      double analytic = (Math.exp(-k) * (k + 1) - 1) / (k * k);
      assertWithMessage("at k = %s", k).that(derivative).isWithin(1e-9).of(analytic);
      DerivativeChecks.checkAt(compiled.function("com.example.Quadrature", "decay", 1), k);
    }
  }

  @Test
  void callersOfMethodsTakingFunctionsAgainstThemselves() {
    for (double[] point : new double[][] {{0.7, 1.3}, {1.9, 0.4}, {0.3, 2.0}}) {
      DerivativeChecks.checkAt(COMPILED.get().function("com.example.Quadrature", "calls", 2),
          point);
    }
  }

  @Test
  void secondOrderThroughAMethodTakingAFunction() throws Exception {
    HessianChecks.checkAt(COMPILED.get().function("com.example.Quadrature", "twice", 2),
        COMPILED.get().load("com.example.QuadratureGrad"), 0.8, 1.2);
  }

  @Test
  void aMethodTakingAFunctionHasNoMembersAndANoteSaysSo() {
    Class<?> generated = COMPILED.get().load("com.example.QuadratureGrad");
    assertThat(Arrays.stream(generated.getDeclaredMethods()).map(Method::getName)
        .filter(name -> name.startsWith("integrate") || name.startsWith("rk4")
            || name.startsWith("mean")).toList()).isEmpty();
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Quadrature",
        String.join("\n", LINES));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadNoteContaining("'integrate' takes a function: it is"
        + " differentiated at each call from a @Differentiable method compiled with its source,"
        + " for the function passed there, and gets no generated members of its own")
        .inFile(file).onLine(LINES.indexOf("  @Differentiable static double integrate("
            + "DoubleUnaryOperator f, double a, double b,") + 1);
  }

  /**
   * A template in another class of the file (a nested class of rules), whose names and the
   * lambda's names clash: each resolves where it is written. Before, such a call was an error.
   */
  private static final List<String> NESTED = List.of(
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Model {",
      "  static double weight(double t) { return 3.0; }",
      "  @Differentiable static double scale(double t) { return 3 * t; }",
      "  /** Uses Model's weight and scale in the lambda; Rules' inside the template. */",
      "  @Differentiable static double fit(double a, double b) {",
      "    return Rules.weighted(t -> scale(t) * Math.exp(-a * t) + weight(t) * b, 0.5, 2.0);",
      "  }",
      "  static final class Rules {",
      "    static double weight(double t) { return 1 + t; }",
      "    @Differentiable static double scale(double t) { return 5 * t; }",
      "    @Differentiable static double weighted(DoubleUnaryOperator f, double x, double y) {",
      "      return weight(x) * f.applyAsDouble(x) + scale(y) * f.applyAsDouble(y);",
      "    }",
      "  }",
      "}");

  @Test
  void aTemplateOfAnotherClassOfTheFileResolvesItsNamesAndTheLambdasWhereWritten()
      throws Exception {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Model", String.join("\n", NESTED));
    double a = 0.7;
    double b = 1.3;
    // fit = (1 + x) f(x) + 5 y f(y) at x = 0.5, y = 2, f(t) = 3 t e^{-a t} + 3 b
    double x = 0.5;
    double y = 2.0;
    double value = (1 + x) * (3 * x * Math.exp(-a * x) + 3 * b)
        + 5 * y * (3 * y * Math.exp(-a * y) + 3 * b);
    double da = (1 + x) * (-3 * x * x * Math.exp(-a * x)) + 5 * y * (-3 * y * y * Math.exp(-a * y));
    double db = (1 + x) * 3 + 5 * y * 3;
    assertThat((double) compiled.invoke("com.example.Model", "fit", a, b))
        .isWithin(1e-12).of(value);
    double[] gradient = compiled.function("com.example.Model", "fit", 2).gradient(a, b);
    assertThat(gradient[0]).isWithin(1e-12).of(da);
    assertThat(gradient[1]).isWithin(1e-12).of(db);
    DerivativeChecks.checkAt(compiled.function("com.example.Model", "fit", 2), a, b);
  }
}
