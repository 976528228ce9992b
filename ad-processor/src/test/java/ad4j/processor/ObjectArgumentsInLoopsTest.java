package ad4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A call inside a loop may pass an object or a string to a {@code @Differentiable} method (an
 * enum constant of each iteration, a name made in the loop): the reverse sweep takes each
 * iteration's argument back from the tape, declared with its own type. Before, such a call was
 * the error "inside a loop passes an object or a string to a @Differentiable method, which is
 * not supported yet". Checked at order 2 ({@link HessianChecks}: differences of the user's
 * method, forward against reverse, the Hessian against differences of the gradient); the
 * generated code compiles under {@code -Xlint:all -Werror}. An object that the loop changes
 * between the calls stays an error, since the callee's members would read it again later.
 */
@ExtendWith(TapeIsEmpty.class)
class ObjectArgumentsInLoopsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Kernels",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Kernels {",
              "  enum Kernel { GAUSSIAN, EPANECHNIKOV, TRICUBE }",
              "  @Differentiable(order = 2) static double kernel(Kernel k, double u) {",
              "    switch (k) {",
              "      case GAUSSIAN: return Math.exp(-0.5 * u * u);",
              "      case EPANECHNIKOV: return Math.abs(u) <= 1 ? 0.75 * (1 - u * u) : 0;",
              "      default: {",
              "        double a = Math.abs(u);",
              "        if (a >= 1) { return 0; }",
              "        double t = 1 - a * a * a;",
              "        return t * t * t;",
              "      }",
              "    }",
              "  }",
              "  /** Each kernel of the enum, at each point: the loop's object of each iteration. */",
              "  @Differentiable(order = 2) static double density(double x, double h) {",
              "    double[] points = {0.1, 0.5, 0.9, 1.4};",
              "    double s = 0;",
              "    for (Kernel k : Kernel.values()) {",
              "      for (double p : points) { s += kernel(k, (x - p) / h) * (1 + 0.1 * s); }",
              "    }",
              "    return s / (points.length * h);",
              "  }",
              "  /** An enum variable the loop reassigns, read by the next iteration's call. */",
              "  @Differentiable(order = 2) static double alternating(double x, double y) {",
              "    Kernel k = Kernel.GAUSSIAN;",
              "    double s = y;",
              "    for (int i = 0; i < 12; i++) {",
              "      s = 0.6 * s + kernel(k, s * x) * 0.3;",
              "      if (i % 3 == 0) { k = Kernel.TRICUBE; } else { k = Kernel.GAUSSIAN; }",
              "    }",
              "    return s;",
              "  }",
              "  @Differentiable(order = 2) static double named(String kind, double x) {",
              "    return kind.equals(\"square\") ? x * x : kind.length() * Math.exp(0.1 * x);",
              "  }",
              "  /** A string made in each iteration of a loop left by 'break'. */",
              "  @Differentiable(order = 2) static double names(double x, double y) {",
              "    double s = 0;",
              "    int i = 0;",
              "    while (true) {",
              "      String kind = i % 3 == 0 ? \"square\" : \"e\" + i;",
              "      s += named(kind, x * y + s * 0.01);",
              "      if (s > 20 || ++i > 7) { break; }",
              "    }",
              "    return s;",
              "  }",
              "}")));

  @Test
  void enumConstantsOfEachIterationArePassedToTheCallee() throws Exception {
    Class<?> grad = COMPILED.get().load("com.example.KernelsGrad");
    for (double[] point : new double[][] {{0.7, 0.4}, {0.3, 0.9}, {1.2, 0.6}}) {
      HessianChecks.checkAt(COMPILED.get().function("com.example.Kernels", "density", 2), grad,
          point);
    }
  }

  @Test
  void anEnumVariableTheLoopReassignsIsPassedAsEachIterationHadIt() throws Exception {
    Class<?> grad = COMPILED.get().load("com.example.KernelsGrad");
    for (double[] point : new double[][] {{1.3, 0.7}, {0.4, 0.2}, {-0.8, 1.1}}) {
      HessianChecks.checkAt(COMPILED.get().function("com.example.Kernels", "alternating", 2),
          grad, point);
    }
  }

  @Test
  void stringsMadeInALoopArePassedToTheCallee() throws Exception {
    Class<?> grad = COMPILED.get().load("com.example.KernelsGrad");
    for (double[] point : new double[][] {{1.3, 0.7}, {0.3, 0.5}, {0.9, 1.4}}) {
      HessianChecks.checkAt(COMPILED.get().function("com.example.Kernels", "names", 2), grad,
          point);
    }
  }

  /**
   * The receiver of an instance {@code @Differentiable} method, an element of an array of
   * objects read in a loop: the reverse sweep reads the element again, declared with its type
   * (it was declared {@code Object}, which did not compile).
   */
  @Test
  void aReceiverReadFromAnArrayInALoopIsReadAgainInTheReverseSweep() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Laws", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "import ad4j.NoDerivative;",
            "final class Laws {",
            "  static final class Law {",
            "    final double k;",
            "    Law(double k) { this.k = k; }",
            "    @Differentiable double cdf(double x) { return Math.tanh(k * x); }",
            "  }",
            "  static final Law[] LAWS = {new Law(0.5), new Law(1.5), new Law(-0.7)};",
            "  @Differentiable static double sum(double x, @NoDerivative Law[] laws) {",
            "    double s = 0;",
            "    for (int i = 0; i < laws.length; i++) { s += laws[i].cdf(x * s + x); }",
            "    return s;",
            "  }",
            "  @Differentiable static double scaled(double x, double y) {",
            "    return sum(x * y, LAWS) * y;",
            "  }",
            "  @Differentiable static double walked(double x, double y) {",
            "    double s = 0;",
            "    for (Law law : LAWS) { s += law.cdf(x * s + y); }",
            "    return s;",
            "  }",
            "}"));
    for (double[] point : new double[][] {{1.3, 0.7}, {-0.4, 1.1}, {0.3, 0.8}}) {
      DerivativeChecks.checkAt(compiled.function("com.example.Laws", "scaled", 2), point);
      DerivativeChecks.checkAt(compiled.function("com.example.Laws", "walked", 2), point);
    }
  }

  @Test
  void anObjectTheLoopChangesBetweenTheCallsIsAnErrorAtTheCall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double length(StringBuilder b, double x) {",
        "    return b.length() * x * x;",
        "  }",
        "  @Differentiable static double f(double x, double y) {",
        "    StringBuilder b = new StringBuilder();",
        "    double s = 0;",
        "    for (int i = 0; i < 3; i++) { b.append('a'); s += length(b, x) * y; }",
        "    return s;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("call to 'length(...)': 'F.length' runs code that"
        + " carries no derivative ('b.length()', line 5), which the tangent of 'f' would run"
        + " twice, once for its value and once for its tangent, where 'f' runs it once")
        .inFile(file).onLine(10).atColumn(lines.get(9).indexOf("(b, x)") + 1);
  }
}
