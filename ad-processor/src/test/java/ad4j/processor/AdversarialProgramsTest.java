package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Programs written to break the newer features (value records, instance methods, functions,
 * private members): each one either compiles and gives derivatives that agree with differences
 * of the user's own method and between forward and reverse mode, or is an error at its line.
 */
@ExtendWith(TapeIsEmpty.class)
class AdversarialProgramsTest {
  private static final double[][] POINTS = {{0.7, -1.3}, {-0.8, 1.2}, {1.3, 0.6}};

  private static void checkAtPoints(CompiledFunction f) {
    for (double[] x : POINTS) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  /**
   * A method with a record parameter whose pullback is not split into halves (it calls a
   * vector function) gave callers an {@code hRecord} calling the user's method with the
   * record's leaves: the generated class did not compile.
   */
  @Test
  void aMethodTakingARecordAndCallingAVectorFunctionCanBeCalled() {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.R", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class R {",
            "  record V(double x, double y) {}",
            "  @Differentiable static V g(double a, double b) { return new V(a * b, b); }",
            "  @Differentiable static double h(V w, double s) {",
            "    V u = g(w.y(), s);",
            "    return u.x() * u.y() + w.x();",
            "  }",
            "  @Differentiable static double k(double a, double b) {",
            "    return h(new V(a, b), a * b) * a;",
            "  }",
            "}"));
    checkAtPoints(compiled.function("com.example.R", "k", 2));
  }

  /**
   * The same for instance methods, of a class and of a value record: {@code hRecord} called
   * {@code Foo.h(self, ...)}, a static call of an instance method, and the record's method with
   * its receiver's leaves.
   */
  @Test
  void instanceMethodsCallingAVectorFunctionCanBeCalled() {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.I", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class I {",
            "  final double k = 2;",
            "  record V(double x, double y) {",
            "    @Differentiable double m(double s) {",
            "      double[] r = I.g(x, s);",
            "      return r[0] * y + r[1];",
            "    }",
            "  }",
            "  @Differentiable static double[] g(double a, double b) {",
            "    return new double[] {a * b, b * b};",
            "  }",
            "  @Differentiable double h(double w, double s) {",
            "    double[] u = g(w, s);",
            "    return u[0] * u[1] * k;",
            "  }",
            "  @Differentiable static double caller(double a, double b) {",
            "    I o = new I();",
            "    return o.h(a, b) + new V(a, b).m(a * b);",
            "  }",
            "}"));
    checkAtPoints(compiled.function("com.example.I", "caller", 2));
  }
}
