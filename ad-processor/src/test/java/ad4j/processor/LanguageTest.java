package ad4j.processor;

import static ad4j.processor.testing.Sources.unit;
import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Java the front end accepts, each feature checked through the generated code: name
 * resolution (Math, StrictMath, static imports, constants), statements, types, and the shape of
 * the generated class (names, visibility, hygiene, argument checks, lint-clean code).
 */
class LanguageTest {
  /** Resolution and constants, several files in one compilation. */
  private static final String[] NAMES = {
      "com.example.SingleImport", unit("final class SingleImport",
          "  @Differentiable static double f(double x) { return sin(x) * x; }",
          "import static java.lang.Math.sin;"),
      "com.example.OnDemandImport", unit("final class OnDemandImport",
          "  @Differentiable static double f(double x) { return cos(x) * exp(x) + PI * x; }",
          "import static java.lang.Math.*;"),
      "com.example.Other", unit("final class Other",
          "  static final double SCALE = 0.75;\n"
              + "  static final double NOT_CONSTANT = Math.sqrt(2.0);"),
      "com.example.Constants", unit("final class Constants", String.join("\n",
          "  private static final double K = 2.5;",
          "  private static final int N = -3;",
          "  @Differentiable static double own(double x) { return K * x + N * x * x; }",
          "  @Differentiable static double pi(double x) { return Math.PI * x + StrictMath.E; }",
          "  @Differentiable static double other(double x) {"
              + " return Other.SCALE * x + Other.NOT_CONSTANT * x * x; }",
          "  @Differentiable static double literals(double x) {"
              + " return x * 2L + x * 1.5f + 0x10 * x + 1_000.5 * x + 1e-3 * x + 'a' * x; }",
          "  @Differentiable static double intDivision(double x) { return (1 / 2) * x + 7 / 2; }",
          "  @Differentiable static double doubleDivision(double x) { return (1.0 / 2) * x; }",
          "  @Differentiable static double casts(double x) {"
              + " return (double) 2 * x + (double) (int) 2.7 * x + (float) 0.1 * x; }")),
  };

  private static Compiled names;

  @BeforeAll
  static void compileNames() {
    names = InProcessCompiler.compile(NAMES);
  }

  private static CompiledFunction name(String className, String method) {
    return names.function("com.example." + className, method, 1);
  }

  /** The generated gradient at {@code x} is {@code expected}, and all checks pass there. */
  private static void assertDerivative(CompiledFunction f, double x, double expected) {
    assertThat(f.gradient(x)[0]).isWithin(1e-12 * Math.max(1, Math.abs(expected))).of(expected);
    DerivativeChecks.checkAt(f, x);
  }

  @Test
  void singleStaticImport() {
    assertDerivative(name("SingleImport", "f"), 0.7, Math.cos(0.7) * 0.7 + Math.sin(0.7));
  }

  @Test
  void onDemandStaticImportOfFunctionsAndConstants() {
    double x = 0.3;
    assertDerivative(name("OnDemandImport", "f"), x,
        (Math.cos(x) - Math.sin(x)) * Math.exp(x) + Math.PI);
  }

  @Test
  void constantsOfTheEnclosingClass() {
    assertDerivative(name("Constants", "own"), 1.5, 2.5 - 6 * 1.5);
  }

  @Test
  void constantsOfMathAndStrictMath() {
    CompiledFunction pi = name("Constants", "pi");
    assertDerivative(pi, 2.0, Math.PI);
    assertThat(pi.value(2.0)).isEqualTo(Math.PI * 2.0 + Math.E);
  }

  @Test
  void constantsOfAnotherClassOfTheCompilation() {
    assertDerivative(name("Constants", "other"), 1.5, 0.75 + 2 * Math.sqrt(2.0) * 1.5);
  }

  @Test
  void literalForms() {
    assertDerivative(name("Constants", "literals"), -0.5, 2 + 1.5 + 16 + 1000.5 + 1e-3 + 97);
  }

  @Test
  void integerDivisionKeepsJavaSemantics() {
    CompiledFunction f = name("Constants", "intDivision");
    assertThat(f.gradient(3.0)[0]).isEqualTo(0.0);
    assertThat(f.value(3.0)).isEqualTo(3.0);
    assertDerivative(name("Constants", "doubleDivision"), 3.0, 0.5);
  }

  @Test
  void castsToDouble() {
    assertDerivative(name("Constants", "casts"), 1.25, 2 + 2 + (double) (float) 0.1);
  }

  @Test
  void userMethodShadowsAStaticImport() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", unit("final class F",
        "  static double sin(double x) { return x; }\n"
            + "  @Differentiable static double f(double x) { return sin(x); }",
        "import static java.lang.Math.sin;"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("call to 'sin(...)' is not differentiable")
        .inFile(file).onLine(8).atColumn(57);
    assertThat(compilation).hadErrorContaining("annotate 'F.sin' with @Differentiable");
  }

  /** A class named Math in the user's package: generated code must say java.lang.Math. */
  private static final String MATH_IN_PACKAGE =
      "package com.example; final class Math { static double sin(double x) { return 0; } }";

  @Test
  void aClassNamedMathInThePackageDoesNotCaptureGeneratedCalls() {
    Compiled compiled = InProcessCompiler.compile("com.example.Math", MATH_IN_PACKAGE,
        "com.example.Shadowed", unit("final class Shadowed",
            "  @Differentiable static double f(double x) {"
                + " return java.lang.Math.sin(x) * java.lang.Math.exp(x); }"));

    DerivativeChecks.checkAt(compiled.function("com.example.Shadowed", "f", 1), 0.4);
  }

  @Test
  void remainderWithAClassNamedMathInThePackage() {
    Compiled compiled = InProcessCompiler.compile("com.example.Math", MATH_IN_PACKAGE,
        "com.example.Shadowed", unit("final class Shadowed", String.join("\n",
            "  @Differentiable static double rem(double x, double y) { return x % y; }",
            "  @Differentiable static double ieee(double x, double y) {"
                + " return StrictMath.IEEEremainder(x, y); }")));

    DerivativeChecks.checkAt(compiled.function("com.example.Shadowed", "rem", 2), 5.3, 2.1);
    DerivativeChecks.checkAt(compiled.function("com.example.Shadowed", "ieee", 2), 5.3, 2.5);
  }

  @Test
  void classInTheUnnamedPackage() {
    Compiled compiled = InProcessCompiler.compile("Top",
        "final class Top { @ad4j.Differentiable static double f(double x) { return x * x; } }");

    assertThat(compiled.function("Top", "f", 1).gradient(1.5)).usingExactEquality()
        .containsExactly(3.0);
  }

  // ---- statements ----------------------------------------------------------------------------

  private static final String STATEMENTS = unit("final class Statements", String.join("\n",
      "  @Differentiable static double compound(double x, double y) {",
      "    double a = x;",
      "    a += y;",
      "    a -= 0.5 * x;",
      "    a *= y;",
      "    a /= 1.5 + x * x;",
      "    a %= 10;",
      "    x *= 2;",
      "    y /= x;",
      "    return a + x + y;",
      "  }",
      "  @Differentiable static double declarations(double x, double y) {",
      "    var v = x * 2.0;",
      "    double a = x, b = y;",
      "    double c;",
      "    c = a * b;",
      "    double r;",
      "    {",
      "      double t = c + v;",
      "      { r = t * t; ; }",
      "    }",
      "    ;",
      "    return r - b;",
      "  }",
      "  @Differentiable static double reassign(double x, double y) {",
      "    x = x * x;",
      "    y = Math.sin(x) + y;",
      "    x = x + y;",
      "    return x * y;",
      "  }",
      "  @Differentiable static double scopes(double x) {",
      "    { double t = x * 3; x = t; }",
      "    { double t = x + 1; x = t * t; }",
      "    return x;",
      "  }",
      "  @Differentiable static double m(double x) { return x * x; }",
      "  @Differentiable static double m(double x, double y) { return x * y; }",
      "  @Differentiable static double constant(double x) { double k = 2; return k * 3; }"));

  @Test
  void statements() {
    Compiled compiled = InProcessCompiler.compile("com.example.Statements", STATEMENTS);
    for (String method : new String[] {"compound", "declarations", "reassign"}) {
      CompiledFunction f = compiled.function("com.example.Statements", method, 2);
      DerivativeChecks.checkAt(f, 0.7, -1.3);
      DerivativeChecks.checkAt(f, -2.1, 0.4);
    }
    assertDerivative(compiled.function("com.example.Statements", "scopes", 1), 0.5,
        2 * (3 * 0.5 + 1) * 3);

    CompiledFunction m1 = compiled.function("com.example.Statements", "m", 1);
    CompiledFunction m2 = compiled.function("com.example.Statements", "m", 2);
    assertThat(m1.gradient(3.0)).usingExactEquality().containsExactly(6.0);
    assertThat(m2.gradient(3.0, 5.0)).usingExactEquality().containsExactly(5.0, 3.0).inOrder();

    CompiledFunction constant = compiled.function("com.example.Statements", "constant", 1);
    assertThat(constant.value(1.0)).isEqualTo(6.0);
    assertThat(constant.gradient(1.0)).usingExactEquality().containsExactly(0.0);
    assertThat(constant.tangent(new double[] {1.0}, new double[] {1.0})).isEqualTo(0.0);
  }

  // ---- the generated class -------------------------------------------------------------------

  @Test
  void nestedClassGivesOuterUnderscoreInner() {
    Compiled compiled = InProcessCompiler.compile("com.example.Outer", unit("public final class Outer",
        "  public static final class Inner {\n"
            + "    @Differentiable public static double f(double x) { return x * x; }\n"
            + "  }"));

    CompiledFunction f = compiled.function("com.example.Outer$Inner", "com.example.Outer_InnerGrad",
        "f", 1);
    assertThat(f.gradient(3.0)).usingExactEquality().containsExactly(6.0);
    assertThat(Modifier.isPublic(compiled.load("com.example.Outer_InnerGrad").getModifiers()))
        .isTrue();
  }

  @Test
  void visibilityFollowsTheUserClassAndMethods() {
    String body = String.join("\n",
        "  @Differentiable public static double pub(double x) { return x; }",
        "  @Differentiable protected static double prot(double x) { return x; }",
        "  @Differentiable static double pkg(double x) { return x; }",
        "  @Differentiable private static double priv(double x) { return x; }");
    Compiled compiled = InProcessCompiler.compile(
        "com.example.Pub", unit("public class Pub", body),
        "com.example.Pkg", unit("final class Pkg", body));

    Class<?> pubGrad = compiled.load("com.example.PubGrad");
    assertThat(Modifier.isPublic(pubGrad.getModifiers())).isTrue();
    assertThat(Modifier.isPublic(compiled.load("com.example.PkgGrad").getModifiers())).isFalse();
    assertThat(Modifier.isFinal(pubGrad.getModifiers())).isTrue();
    assertThat(pubGrad.getDeclaredConstructors()).hasLength(1);
    assertThat(Modifier.isPrivate(pubGrad.getDeclaredConstructors()[0].getModifiers())).isTrue();

    assertVisibility(compiled.function("com.example.Pub", "pub", 1), Modifier.PUBLIC);
    assertVisibility(compiled.function("com.example.Pub", "prot", 1), Modifier.PROTECTED);
    assertVisibility(compiled.function("com.example.Pub", "pkg", 1), 0);
    assertVisibility(compiled.function("com.example.Pub", "priv", 1), 0);
  }

  private static void assertVisibility(CompiledFunction f, int access) {
    int mask = Modifier.PUBLIC | Modifier.PROTECTED | Modifier.PRIVATE;
    for (Method method : new Method[] {f.gradientMethod(), f.valueAndGradientMethod(),
        f.tangentMethod(), f.pullbackMethod()}) {
      assertThat(method.getModifiers() & mask).isEqualTo(access);
      assertThat(Modifier.isStatic(method.getModifiers())).isTrue();
    }
  }

  @Test
  void userNamesNeverClashWithGeneratedNames() {
    Compiled compiled = InProcessCompiler.compile("com.example.Hygiene", unit("final class Hygiene",
        String.join("\n",
            "  @Differentiable static double h(double x, double gradient, double seed,"
                + " double adjoints) {",
            "    double t1 = gradient * seed + x;",
            "    double xDot = t1 + adjoints * x;",
            "    double xBar = Math.sin(xDot);",
            "    double result = xBar * xBar;",
            "    double Math = result + t1;",
            "    return Math * gradient;",
            "  }")));

    CompiledFunction h = compiled.function("com.example.Hygiene", "h", 4);
    DerivativeChecks.checkAt(h, 0.3, -0.7, 1.1, 0.5);
    DerivativeChecks.checkAt(h, -1.2, 0.4, 0.9, -2.0);
  }

  @Test
  void tooShortArraysAreRejectedWithTheMethodAndLengths() {
    CompiledFunction f = InProcessCompiler.compile("com.example.Rosenbrock", GoldenTest.ROSENBROCK)
        .function("com.example.Rosenbrock", "value", 2);

    IllegalArgumentException gradient = assertThrows(IllegalArgumentException.class,
        () -> f.valueAndGradient(new double[] {1, 2}, new double[1]));
    assertThat(gradient).hasMessageThat().contains("valueValueAndGradient");
    assertThat(gradient).hasMessageThat().contains("length 1");
    assertThat(gradient).hasMessageThat().contains("needs 2");

    IllegalArgumentException adjoints = assertThrows(IllegalArgumentException.class,
        () -> f.pullback(new double[] {1, 2}, 1.0, new double[0]));
    assertThat(adjoints).hasMessageThat().contains("valuePullback");
    assertThat(adjoints).hasMessageThat().contains("length 0");
    assertThat(adjoints).hasMessageThat().contains("needs 2");

    double[] longer = {0, 0, 42};
    f.valueAndGradient(new double[] {1, 2}, longer);
    assertThat(longer).usingExactEquality().containsExactly(-400.0, 200.0, 42.0).inOrder();
  }

  @Test
  void generatedCodeCompilesWithoutWarnings() {
    JavaFileObject[] files = new JavaFileObject[NAMES.length / 2 + 2];
    for (int i = 0; i < NAMES.length / 2; i++) {
      files[i] = JavaFileObjects.forSourceString(NAMES[2 * i], NAMES[2 * i + 1]);
    }
    files[files.length - 2] = JavaFileObjects.forSourceString("com.example.Statements", STATEMENTS);
    files[files.length - 1] =
        JavaFileObjects.forSourceString("com.example.Rosenbrock", GoldenTest.ROSENBROCK);

    Compilation compilation = InProcessCompiler.javac("-Xlint:all", "-Werror").compile(files);

    assertThat(compilation).succeededWithoutWarnings();
  }

  // ---- derivatives at special points ---------------------------------------------------------

  @Test
  void derivativesAtKinksAndSingularities() {
    Compiled compiled = InProcessCompiler.compile("com.example.Special", unit("final class Special",
        String.join("\n",
            "  @Differentiable static double cube(double x) { return Math.pow(x, 3); }",
            "  @Differentiable static double root(double x) { return Math.pow(x, 0.5); }",
            "  @Differentiable static double abs(double x) { return Math.abs(x); }",
            "  @Differentiable static double min(double x, double y) { return Math.min(x, y); }",
            "  @Differentiable static double max(double x, double y) { return Math.max(x, y); }",
            "  @Differentiable static double steps(double x) {"
                + " return Math.floor(x) + Math.ceil(x) + Math.signum(x) + Math.rint(x); }",
            "  @Differentiable static double sqrt(double x) { return Math.sqrt(x); }",
            "  @Differentiable static double hypot(double x, double y) { return Math.hypot(x, y); }",
            "  @Differentiable static double castActive(double x) { return (double) x * x; }")));
    String special = "com.example.Special";

    CompiledFunction cube = compiled.function(special, "cube", 1);
    assertThat(cube.gradient(0.0)[0]).isEqualTo(0.0);
    assertThat(cube.gradient(-1.5)[0]).isEqualTo(6.75);
    assertThat(compiled.function(special, "root", 1).gradient(4.0)[0]).isEqualTo(0.25);
    assertThat(compiled.function(special, "abs", 1).gradient(0.0)[0]).isEqualTo(0.0);
    assertThat(compiled.function(special, "abs", 1).gradient(-2.0)[0]).isEqualTo(-1.0);
    assertThat(compiled.function(special, "min", 2).gradient(1.5, 1.5))
        .usingExactEquality().containsExactly(0.5, 0.5).inOrder();
    assertThat(compiled.function(special, "max", 2).gradient(-1.5, -1.5))
        .usingExactEquality().containsExactly(0.5, 0.5).inOrder();
    CompiledFunction steps = compiled.function(special, "steps", 1);
    for (double x : new double[] {-2.5, -1.0, 0.0, 0.3, 2.0}) {
      assertThat(steps.gradient(x)[0]).isEqualTo(0.0);
      assertThat(steps.tangent(new double[] {x}, new double[] {1.0})).isEqualTo(0.0);
    }
    CompiledFunction sqrt = compiled.function(special, "sqrt", 1);
    assertThat(sqrt.gradient(0.0)[0]).isPositiveInfinity();
    assertThat(sqrt.tangent(new double[] {0.0}, new double[] {1.0})).isPositiveInfinity();
    assertThat(compiled.function(special, "hypot", 2).gradient(0.0, 0.0))
        .usingExactEquality().containsExactly(0.0, 0.0).inOrder();
    assertThat(compiled.function(special, "castActive", 1).gradient(1.5)[0]).isEqualTo(3.0);
  }
}
