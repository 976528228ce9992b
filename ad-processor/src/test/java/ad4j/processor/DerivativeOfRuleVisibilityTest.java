package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where calls find their {@code @DerivativeOf} rules (DESIGN.md, "Where @DerivativeOf rules are
 * found"): in a third class of the compilation, in classes compiled earlier that
 * {@code @UsesDerivatives} lists on the calling class or its package; a rule for a
 * {@code Math} function replacing the built-in derivative (a straight-through estimator for
 * {@code floor}) in forward, reverse and second-order code; two rules a call sees, an error at
 * the call; a rule no call can see, and a listed class without rules, warnings.
 */
@ExtendWith(TapeIsEmpty.class)
class DerivativeOfRuleVisibilityTest {
  /** A target without rules of its own, which ad4j could not differentiate. */
  private static final String LIB = String.join("\n",
      "package com.example;",
      "public final class Lib {",
      "  /** x sin(x), through an object. */",
      "  public static double wave(double x) {",
      "    java.util.List<Double> box = java.util.List.of(x);",
      "    return box.get(0) * Math.sin(box.get(0));",
      "  }",
      "}");

  /** The project's rules, in a class that neither the target nor the caller is. */
  private static final String PROJECT_RULES = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class ProjectRules {",
      "  @DerivativeOf(owner = Lib.class, value = \"wave\")",
      "  static double waveDerivative(double x) { return Math.sin(x) + x * Math.cos(x); }",
      "}");

  private static final String MODEL = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Model {",
      "  @Differentiable static double waves(double x, double y) {",
      "    return Lib.wave(x * y) + y * Lib.wave(x);",
      "  }",
      "}");

  /** A straight-through estimator for floor, in the class of the methods that call floor. */
  private static final String QUANTIZER = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class Quantizer {",
      "  /** floor passes derivatives on unchanged. */",
      "  @Differentiable @DerivativeOf(owner = Math.class, value = \"floor\")",
      "  static double floorStraightThrough(double x) { return 1; }",
      "  @Differentiable static double quantized(double x) {",
      "    return Math.floor(x) * x + Math.floor(2 * x);",
      "  }",
      "  @Differentiable(order = 2) static double quantizedTwice(double x) {",
      "    return Math.floor(x * x) * x;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Lib", LIB, "com.example.ProjectRules", PROJECT_RULES,
          "com.example.Model", MODEL));

  private static final CompiledOnce QUANTIZED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Quantizer", QUANTIZER));

  @Test
  void rulesInAThirdClassOfTheCompilationAreUsed() {
    CompiledFunction f = COMPILED.get().function("com.example.Model", "waves", 2);
    DerivativeChecks.checkAt(f, 0.7, 1.3);
    DerivativeChecks.checkAt(f, -1.2, 0.4);
  }

  @Test
  void aRuleForMathFloorReplacesTheBuiltInDerivativeInBothModes() {
    CompiledFunction f = QUANTIZED.get().function("com.example.Quantizer", "quantized", 1);
    for (double x : new double[] {0.3, 1.7, -2.4}) {
      // floor'(u) taken as 1: d/dx (floor(x) x + floor(2x)) = x + floor(x) + 2
      double expected = x + Math.floor(x) + 2;
      assertWithMessage("gradient at %s", x).that(f.gradient(x)[0]).isWithin(1e-12).of(expected);
      assertWithMessage("tangent at %s", x).that(f.tangent(new double[] {x}, new double[] {1}))
          .isWithin(1e-12).of(expected);
      assertThat(f.value(x)).isEqualTo(Math.floor(x) * x + Math.floor(2 * x));
    }
  }

  @Test
  void aDifferentiableRuleForMathFloorIsUsedAtOrderTwo() throws Exception {
    for (double x : new double[] {0.6, 1.3, -1.8}) {
      // g = floor(x²) x with floor' = 1: g' = 2x² + floor(x²), g'' = 4x + 2x
      double[] gradient = (double[]) QUANTIZED.get().invoke("com.example.QuantizerGrad",
          "quantizedTwiceGradient", x);
      assertWithMessage("gradient at %s", x).that(gradient[0])
          .isWithin(1e-12).of(2 * x * x + Math.floor(x * x));
      double[][] hessian = (double[][]) QUANTIZED.get().invoke("com.example.QuantizerGrad",
          "quantizedTwiceHessian", x);
      assertWithMessage("Hessian at %s", x).that(hessian[0][0]).isWithin(1e-12).of(6 * x);
    }
  }

  // ---- rules compiled earlier, listed with @UsesDerivatives ---------------------------------

  /** Rules compiled in a first step, in a package of their own. */
  private static final String SHARED_RULES = String.join("\n",
      "package com.rules;",
      "import ad4j.DerivativeOf;",
      "public final class SharedRules {",
      "  @DerivativeOf(owner = com.example.Lib.class, value = \"wave\")",
      "  public static double waveDerivative(double x) { return Math.sin(x) + x * Math.cos(x); }",
      "}");

  /** The classes of {@code sources}, compiled with the processor, copied into {@code classes}. */
  private static List<File> compileInto(Path classes, JavaFileObject... sources)
      throws IOException {
    Compilation compilation = InProcessCompiler.javac("-Xlint:all", "-Werror").compile(sources);
    InProcessCompiler.requireSuccess(compilation);
    copyClasses(compilation, classes);
    List<File> classpath = new ArrayList<>(List.of(classes.toFile()));
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      classpath.add(new File(entry));
    }
    return classpath;
  }

  private static void copyClasses(Compilation compilation, Path classes) throws IOException {
    for (JavaFileObject output : compilation.generatedFiles()) {
      if (output.getKind() == JavaFileObject.Kind.CLASS) {
        Path target = classes.resolve(output.getName().replaceFirst("^.*?/(com/)", "$1"));
        Files.createDirectories(target.getParent());
        try (InputStream in = output.openInputStream()) {
          Files.copy(in, target);
        }
      }
    }
  }

  private static List<File> compileLibraryAndRules(Path classes) throws IOException {
    return compileInto(classes, JavaFileObjects.forSourceString("com.example.Lib", LIB),
        JavaFileObjects.forSourceString("com.rules.SharedRules", SHARED_RULES));
  }

  @Test
  void rulesOfAClassCompiledEarlierAreUsedWhereTheCallingClassListsThem(@TempDir Path classes)
      throws IOException {
    List<File> classpath = compileLibraryAndRules(classes);
    String caller = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.UsesDerivatives;",
        "@UsesDerivatives(com.rules.SharedRules.class)",
        "final class Caller {",
        "  @Differentiable static double f(double x, double y) {",
        "    return Lib.wave(x - y) * y;",
        "  }",
        "}");

    Compilation compilation = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .withClasspath(classpath)
        .compile(JavaFileObjects.forSourceString("com.example.Caller", caller));

    InProcessCompiler.requireSuccess(compilation);
    checkLoaded(compilation, classes, "com.example.Caller", "f");
  }

  @Test
  void rulesOfAClassCompiledEarlierAreUsedWhereThePackageListsThem(@TempDir Path classes)
      throws IOException {
    List<File> classpath = compileLibraryAndRules(classes);
    String packageInfo = String.join("\n",
        "@ad4j.UsesDerivatives(com.rules.SharedRules.class)",
        "package com.example;");
    String caller = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class InPackage {",
        "  @Differentiable static double f(double x, double y) {",
        "    return Lib.wave(x * y) + Lib.wave(y);",
        "  }",
        "}");

    Compilation compilation = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .withClasspath(classpath)
        .compile(JavaFileObjects.forSourceString("com.example.package-info", packageInfo),
            JavaFileObjects.forSourceString("com.example.InPackage", caller));

    InProcessCompiler.requireSuccess(compilation);
    checkLoaded(compilation, classes, "com.example.InPackage", "f");
  }

  /** Loads {@code userClass}'s compiled {@code name} with the classes and checks it. */
  private static void checkLoaded(Compilation compilation, Path classes, String userClass,
      String name) throws IOException {
    copyClasses(compilation, classes);
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
        DerivativeOfRuleVisibilityTest.class.getClassLoader())) {
      CompiledFunction f = CompiledFunction.load(loader, userClass, userClass + "Grad", name, 2);
      DerivativeChecks.checkAt(f, 0.4, 1.2);
      DerivativeChecks.checkAt(f, -0.8, 0.3);
    }
  }

  @Test
  void twoRulesThatACallSeesAreAnErrorAtTheCallNamingBoth(@TempDir Path classes)
      throws IOException {
    List<File> classpath = compileLibraryAndRules(classes);
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "import ad4j.UsesDerivatives;",
        "@UsesDerivatives(com.rules.SharedRules.class)",
        "final class Caller {",
        "  @DerivativeOf(owner = Lib.class, value = \"wave\")",
        "  static double mine(double x) { return Math.sin(x) + x * Math.cos(x); }",
        "  @Differentiable static double f(double x) {",
        "    return Lib.wave(x);",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Caller",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().withClasspath(classpath).compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: call to 'Lib.wave(...)': two"
        + " @DerivativeOf rules give the partial derivative of 'Lib.wave' with respect to 'x':"
        + " 'Caller.mine' and 'SharedRules.waveDerivative'; keep one")
        .inFile(file).onLine(10).atColumn(lines.get(9).indexOf("(x)") + 1);
  }

  @Test
  void aRuleNoCallCanSeeIsAWarningAtTheRule() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "final class Holder {",
        "  private static final class Hidden {",
        "    @DerivativeOf(owner = Lib.class, value = \"wave\")",
        "    static double waveDerivative(double x) { return Math.sin(x) + x * Math.cos(x); }",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Holder",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.Lib", LIB), file);

    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningCount(1);
    assertThat(compilation).hadWarningContaining("ad4j: @DerivativeOf rule 'waveDerivative' is"
        + " seen by no call: its class 'Hidden' is private, and the generated code, in a class of"
        + " its own, cannot call it; move the rule to a class that is not private, local or"
        + " anonymous").inFile(file).onLine(6).atColumn(lines.get(5).indexOf("waveDerivative") + 1);
  }

  @Test
  void aListedClassWithoutRulesIsAWarningAtTheAnnotation() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.UsesDerivatives;",
        "@UsesDerivatives(Lib.class)",
        "final class Caller {",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Caller",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.Lib", LIB), file);

    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningCount(1);
    assertThat(compilation).hadWarningContaining("ad4j: @UsesDerivatives lists 'com.example.Lib',"
        + " which declares no @DerivativeOf rule").inFile(file).onLine(3);
  }
}
