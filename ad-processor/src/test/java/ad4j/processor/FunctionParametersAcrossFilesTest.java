package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @Differentiable} methods taking a function (quadrature, an ODE step) declared in
 * another source file of the compilation, of another class and package: each is inlined at the
 * call for the function passed there, as one of the caller's file is. Its names mean what they
 * mean in its class (its private static final tables, a private helper, its own constants,
 * clashing with the caller's of the same names), the lambda's what they mean in the caller's;
 * one of a third file passes the function on, also inside a lambda of its own that calls its
 * class's {@code static final} function field; one passes a class of its file as a function;
 * one is called from its own file too.
 * Every caller is checked against finite differences of itself and forward against reverse.
 */
@ExtendWith(TapeIsEmpty.class)
class FunctionParametersAcrossFilesTest {
  /** Quadrature and an ODE step, public, in a package of their own. */
  private static final List<String> QUADRATURE = List.of(
      "package com.example.numerics;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleBinaryOperator;",
      "import java.util.function.DoubleUnaryOperator;",
      "public final class Quadrature {",
      "  /** Gauss-Legendre nodes and weights on [-1, 1], five points. */",
      "  private static final double[] NODES = {-0.9061798459386640, -0.5384693101056831, 0.0,",
      "      0.5384693101056831, 0.9061798459386640};",
      "  private static final double[] WEIGHTS = {0.2369268850561891, 0.4786286704993665,",
      "      0.5688888888888889, 0.4786286704993665, 0.2369268850561891};",
      "  private static final double SIXTH = 1.0 / 6;",
      "  /** Not a constant: generated code evaluates its text, read in this file. */",
      "  private static final double SCALE = Math.sqrt(4.0) / 2;",
      "  private static final double K = 2.0;",
      "  /** Its K is not Quadrature's: the initializer's names mean what they mean here. */",
      "  private static final class Tables {",
      "    private static final double K = 3.0;",
      "    private static final double ROOT = Math.sqrt(K);",
      "  }",
      "  private Quadrature() {}",
      "  private static double weight(int i) {",
      "    return WEIGHTS[i];",
      "  }",
      "  @Differentiable public static double gauss(DoubleUnaryOperator f, double a, double b) {",
      "    double h = (b - a) / 2 * SCALE;",
      "    double m = (a + b) / 2;",
      "    double sum = 0;",
      "    for (int i = 0; i < NODES.length; i++) {",
      "      sum += weight(i) * f.applyAsDouble(m + h * NODES[i]);",
      "    }",
      "    return h * sum * Tables.ROOT / K;",
      "  }",
      "  @Differentiable public static double rk4(DoubleBinaryOperator rhs, double t, double y,",
      "      double h) {",
      "    double k1 = rhs.applyAsDouble(t, y);",
      "    double k2 = rhs.applyAsDouble(t + h / 2, y + h / 2 * k1);",
      "    double k3 = rhs.applyAsDouble(t + h / 2, y + h / 2 * k2);",
      "    double k4 = rhs.applyAsDouble(t + h, y + h * k3);",
      "    return y + h * SIXTH * (k1 + 2 * k2 + 2 * k3 + k4);",
      "  }",
      "  /** A caller in the file of the methods it calls. */",
      "  @Differentiable public static double decayIntegral(double k) {",
      "    return gauss(x -> Math.exp(-k * x), 0, 1);",
      "  }",
      "}");

  /** A third file, of a third package: it passes the function it takes on to Quadrature's. */
  private static final List<String> SOLVER = List.of(
      "package com.example.ode;",
      "import ad4j.Differentiable;",
      "import com.example.numerics.Quadrature;",
      "import java.util.function.DoubleBinaryOperator;",
      "import java.util.function.DoubleUnaryOperator;",
      "public final class Solver {",
      "  private static final int STEPS = 6;",
      "  private static final DoubleUnaryOperator SQUARE = v -> v * v * STEPS;",
      "  private Solver() {}",
      "  @Differentiable public static double solve(DoubleBinaryOperator rhs, double y0,",
      "      double t1) {",
      "    double h = t1 / STEPS;",
      "    double y = y0;",
      "    for (int i = 0; i < STEPS; i++) {",
      "      y = Quadrature.rk4(rhs, i * h, y, h);",
      "    }",
      "    return damp(y);",
      "  }",
      "  /** Differentiated in SolverGrad, which the callers' generated code calls. */",
      "  @Differentiable public static double damp(double y) {",
      "    return y / (1 + 0.01 * STEPS * y * y);",
      "  }",
      "  @Differentiable public static double mean(DoubleUnaryOperator f, double a, double b) {",
      "    return Quadrature.gauss(f, a, b) / (b - a);",
      "  }",
      "  /** A lambda of this file, calling this class's function field and the one passed. */",
      "  @Differentiable public static double energy(DoubleUnaryOperator f, double a,",
      "      double b) {",
      "    return Quadrature.gauss(t -> SQUARE.applyAsDouble(f.applyAsDouble(t)), a, b);",
      "  }",
      "}");

  /** Package-private, in the callers' package, another file. */
  private static final List<String> STEPS = List.of(
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleBinaryOperator;",
      "final class Steps {",
      "  private Steps() {}",
      "  /** A class of this file used as a function: its method is inlined. */",
      "  static final class Decay implements DoubleBinaryOperator {",
      "    @Override public double applyAsDouble(double t, double y) {",
      "      return -y / 2;",
      "    }",
      "  }",
      "  @Differentiable static double euler(DoubleBinaryOperator rhs, double t, double y,",
      "      double h) {",
      "    return y + h * rhs.applyAsDouble(t, y);",
      "  }",
      "  @Differentiable static double damped(DoubleBinaryOperator rhs, double t, double y,",
      "      double h) {",
      "    return euler(new Decay(), t, euler(rhs, t, y, h), h);",
      "  }",
      "}");

  /**
   * The callers. Their class has a table, a constant and a helper of the names Quadrature's
   * code uses, with other values: each name must mean its own class's.
   */
  private static final List<String> MODEL = List.of(
      "package com.example;",
      "import ad4j.Differentiable;",
      "import com.example.numerics.Quadrature;",
      "import com.example.ode.Solver;",
      "final class Model {",
      "  private static final double[] NODES = {7, 8, 9};",
      "  private static final double SCALE = Math.sqrt(9.0);",
      "  private static final double RATE = 0.25;",
      "  private static double weight(int i) {",
      "    return 100 + i;",
      "  }",
      "  @Differentiable static double area(double k, double c) {",
      "    return Quadrature.gauss(x -> Math.exp(-k * x) * c + RATE * NODES[1] * x * SCALE, 0,",
      "        2 * c) + weight(1) + SCALE;",
      "  }",
      "  @Differentiable static double decay(double k, double y0) {",
      "    double y = y0;",
      "    for (int i = 0; i < 4; i++) {",
      "      y = Quadrature.rk4((t, v) -> -k * v + Math.sin(t) * RATE, i * 0.1, y, 0.1);",
      "    }",
      "    return y + Steps.damped((t, v) -> -k * v * v, 0, y0, 0.05);",
      "  }",
      "  @Differentiable static double nested(double k, double c) {",
      "    return Solver.solve((t, v) -> -k * v + c * NODES[0], 1.0, 1.0)",
      "        + Solver.mean(x -> Math.cos(k * x) * c, 0.5, 1.5 + c)",
      "        + Solver.energy(x -> Math.sin(k * x) + c, 0, 1);",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.numerics.Quadrature", String.join("\n", QUADRATURE),
          "com.example.ode.Solver", String.join("\n", SOLVER),
          "com.example.Steps", String.join("\n", STEPS),
          "com.example.Model", String.join("\n", MODEL)));

  private static final double[][] POINTS = {{0.7, 1.3}, {1.9, 0.4}, {0.3, 2.0}};

  @Test
  void quadratureOfAnotherPackageWithItsOwnTablesHelperAndConstants() {
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(COMPILED.get().function("com.example.Model", "area", 2), point);
    }
  }

  @Test
  void stepsOfAnotherPackageAndOfAnotherFileOfTheCallersPackage() {
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(COMPILED.get().function("com.example.Model", "decay", 2), point);
    }
  }

  @Test
  void aMethodOfAThirdFilePassesTheFunctionOn() {
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(COMPILED.get().function("com.example.Model", "nested", 2), point);
    }
  }

  @Test
  void theMethodIsCalledFromItsOwnFileToo() {
    for (double k : new double[] {0.5, 1.0, 2.5}) {
      DerivativeChecks.checkAt(
          COMPILED.get().function("com.example.numerics.Quadrature", "decayIntegral", 1), k);
    }
  }

  @Test
  void methodsTakingFunctionsHaveNoMembersAndANoteSaysSo() {
    for (String generated : List.of("com.example.numerics.QuadratureGrad",
        "com.example.ode.SolverGrad")) {
      assertThat(Arrays.stream(COMPILED.get().load(generated).getDeclaredMethods())
          .map(Method::getName).filter(name -> name.startsWith("gauss")
              || name.startsWith("rk4") || name.startsWith("solve") || name.startsWith("mean")
              || name.startsWith("energy"))
          .toList()).isEmpty();
    }
    // Steps has no other method: no class is generated for it
    assertThat(COMPILED.get().compilation().generatedSourceFiles().stream()
        .map(JavaFileObject::getName).filter(name -> name.contains("StepsGrad")).toList())
        .isEmpty();
    JavaFileObject solver = JavaFileObjects.forSourceString("com.example.ode.Solver",
        String.join("\n", SOLVER));
    Compilation compilation = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.numerics.Quadrature",
            String.join("\n", QUADRATURE)), solver);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadNoteContaining("'mean' takes a function: it is differentiated at"
        + " each call from a @Differentiable method compiled with its source, for the function"
        + " passed there, and gets no generated members of its own").inFile(solver)
        .onLine(SOLVER.indexOf("  @Differentiable public static double mean(DoubleUnaryOperator"
            + " f, double a, double b) {") + 1);
  }

  @Test
  void aMethodCompiledEarlierIsAnErrorAtTheCall(@TempDir Path classes) throws IOException {
    Compilation library = InProcessCompiler.javac().compile(JavaFileObjects.forSourceString(
        "com.example.numerics.Quadrature", String.join("\n", QUADRATURE)));
    assertThat(library).succeeded();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    JavaFileObject caller = JavaFileObjects.forSourceString("com.example.Caller",
        String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "import com.example.numerics.Quadrature;",
            "final class Caller {",
            "  @Differentiable static double f(double k) {",
            "    return Quadrature.gauss(x -> Math.exp(-k * x), 0, 1);",
            "  }",
            "}"));
    Compilation compilation = InProcessCompiler.javac().withClasspath(classpath)
        .compile(caller);
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("call to 'Quadrature.gauss(...)' is not"
        + " supported: 'gauss' takes a function, and ad4j differentiates such a method at each"
        + " call, for the function passed there, from its source, which this compilation does"
        + " not have: 'com.example.numerics.Quadrature' was compiled earlier, and no generated"
        + " member stands for 'gauss'; compile its source file together with this one")
        .inFile(caller).onLine(6);
  }

  @Test
  void aPrivateDifferentiableMethodOfItsClassInAnotherPackageIsAnErrorWhereCalled() {
    List<String> rules = List.of(
        "package com.example.rules;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "public final class Rules {",
        "  @Differentiable private static double soft(double x) { return x * x; }",
        "  @Differentiable public static double twice(DoubleUnaryOperator f, double x) {",
        "    return 2 * f.applyAsDouble(x) + soft(x);",
        "  }",
        "}");
    JavaFileObject rulesFile = JavaFileObjects.forSourceString("com.example.rules.Rules",
        String.join("\n", rules));
    Compilation compilation = InProcessCompiler.javac().compile(rulesFile,
        JavaFileObjects.forSourceString("com.example.User", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "import com.example.rules.Rules;",
            "final class User {",
            "  @Differentiable static double f(double a) {",
            "    return Rules.twice(t -> t * a, a);",
            "  }",
            "}")));
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("call to private @Differentiable method 'soft'"
        + " of 'com.example.rules.Rules', in the code of a method taking a function, inlined"
        + " into a caller in package 'com.example': its derivatives are generated in package"
        + " 'com.example.rules', where generated code of the caller's package cannot call them;"
        + " make it public").inFile(rulesFile).onLine(7);
  }

  @Test
  void aPackagePrivateFieldOfItsClassInAnotherPackageIsAnErrorWhereRead() {
    List<String> rules = List.of(
        "package com.example.rules;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "public final class Rules {",
        "  static double bias = 0.5;",
        "  @Differentiable public static double shifted(DoubleUnaryOperator f, double x) {",
        "    return f.applyAsDouble(x + bias);",
        "  }",
        "}");
    JavaFileObject rulesFile = JavaFileObjects.forSourceString("com.example.rules.Rules",
        String.join("\n", rules));
    Compilation compilation = InProcessCompiler.javac().compile(rulesFile,
        JavaFileObjects.forSourceString("com.example.User", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "import com.example.rules.Rules;",
            "final class User {",
            "  @Differentiable static double f(double a) {",
            "    return Rules.shifted(t -> t * a, a);",
            "  }",
            "}")));
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("field 'bias' is not final, and generated code"
        + " cannot read it: field 'Rules.bias' is package-private in package"
        + " 'com.example.rules', and generated code lives in package 'com.example'; make it"
        + " public").inFile(rulesFile).onLine(7);
  }
}
