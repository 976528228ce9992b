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
import javax.tools.JavaFileObject;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Private {@code @Differentiable} helpers: the generated class cannot call the private method
 * of the user's class, so it computes its value with a private copy of its own, beside the
 * helper's derivative members. Callers' members, in both modes and at order 2, are checked
 * against the user's own methods (values bit for bit) and against central differences.
 */
@ExtendWith(TapeIsEmpty.class)
class PrivateHelpersTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Helpers {",
      "  private static final double SQRT2PI = Math.sqrt(2 * Math.PI);",
      "  @Differentiable private static double phi(double z) {",
      "    return Math.exp(-0.5 * z * z) / SQRT2PI;",
      "  }",
      "  @Differentiable private static double horner(double x, int n) {",
      "    double s = 0;",
      "    for (int i = 0; i < n; i++) { s = s * x + (i + 1); }",
      "    return s;",
      "  }",
      "  @Differentiable static double density(double x, double mean, double sd) {",
      "    return phi((x - mean) / sd) / sd;",
      "  }",
      "  @Differentiable static double mixed(double x) {",
      "    return horner(x, 4) * phi(x) + horner(phi(x), 2);",
      "  }",
      "  @Differentiable(order = 2) private static double cube(double x) { return x * x * x; }",
      "  @Differentiable(order = 2) static double cubes(double x, double y) {",
      "    return cube(x) + cube(y) * x;",
      "  }",
      "}");

  private static final CompiledOnce HELPERS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Helpers", SOURCE));

  private static Compiled helpers() {
    return HELPERS.get();
  }

  @Test
  void callersOfPrivateHelpersAreDifferentiated() {
    CompiledFunction density = helpers().function("com.example.Helpers", "density", 3);
    DerivativeChecks.checkAt(density, 0.7, 0.2, 1.5);
    DerivativeChecks.checkAt(density, -1.3, 0.4, 0.8);
    CompiledFunction mixed = helpers().function("com.example.Helpers", "mixed", 1);
    DerivativeChecks.checkAt(mixed, 0.7);
    DerivativeChecks.checkAt(mixed, -1.1);
    // d/dx of the normal density: -(x - m) / sd^2 times the density
    double x = 0.7;
    double m = 0.2;
    double sd = 1.5;
    double value = density.value(x, m, sd);
    assertThat(density.gradient(x, m, sd)[0]).isWithin(1e-15).of(-(x - m) / (sd * sd) * value);
  }

  @Test
  void privateHelpersAtOrderTwo() throws ReflectiveOperationException {
    CompiledFunction cubes = helpers().function("com.example.Helpers", "cubes", 2);
    DerivativeChecks.checkAt(cubes, 0.7, -1.2);
    Method hessian = helpers().load("com.example.HelpersGrad")
        .getDeclaredMethod("cubesHessian", double.class, double.class);
    hessian.setAccessible(true);
    double[][] h = (double[][]) hessian.invoke(null, 0.7, -1.2);
    // f = x^3 + x y^3: fxx = 6x, fxy = 3y^2, fyy = 6xy
    assertThat(h[0]).usingTolerance(1e-14).containsExactly(6 * 0.7, 3 * 1.44).inOrder();
    assertThat(h[1]).usingTolerance(1e-14).containsExactly(3 * 1.44, 6 * 0.7 * -1.2).inOrder();
  }

  @Test
  void theCopyOfTheValueIsPrivateAndTheDerivativesPackagePrivate()
      throws ReflectiveOperationException {
    Class<?> grad = helpers().load("com.example.HelpersGrad");
    Method copy = grad.getDeclaredMethod("phi", double.class);
    assertThat(Modifier.isPrivate(copy.getModifiers())).isTrue();
    copy.setAccessible(true);
    Method user = helpers().load("com.example.Helpers").getDeclaredMethod("phi", double.class);
    user.setAccessible(true);
    for (double z : new double[] {0.7, -2.5, 1e-3}) {
      assertThat((double) copy.invoke(null, z)).isEqualTo((double) user.invoke(null, z));
    }
    Method tangent = grad.getDeclaredMethod("phiTangent", double.class, double.class);
    assertThat(Modifier.isPrivate(tangent.getModifiers())).isFalse();
  }

  @Test
  void aPrivateHelperOfAnotherClassIsAnErrorAtTheCall() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class In {",
        "    @Differentiable private static double p(double x) { return x * x; }",
        "  }",
        "  @Differentiable static double f(double x) { return In.p(x); }",
        "}"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("call to private @Differentiable method 'p' of"
        + " another class: generated code lives in another class and cannot call it; make it"
        + " package-private").inFile(file).onLine(7).atColumn(58);
  }
}
