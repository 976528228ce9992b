package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

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
 * Calls of methods whose derivatives the user supplies with {@code @DerivativeOf}: rules in the
 * target's class and in the caller's, targets of one and of two {@code double} parameters (and
 * an {@code int} one), in straight-line code, loops, branches and through calls of other
 * {@code @Differentiable} methods, and an instance method called on a {@code static final}
 * field. Every target's body uses constructs ad4j rejects (objects,
 * arrays, {@code try}, {@code synchronized}), so ad4j cannot have looked inside. Each function
 * is checked against finite differences of the user's own method (which runs the targets'
 * real bodies), forward against reverse mode, and its value bit for bit.
 */
@ExtendWith(TapeIsEmpty.class)
class DerivativeOfTest {
  /** Targets with their rules in their own class; ad4j rejects each body. */
  private static final String SPECIAL = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "public final class Special {",
      "  private static final Object LOCK = new Object();",
      "  /** The logistic function, through an array and a lock. */",
      "  public static double logistic(double x) {",
      "    double[] box = {x};",
      "    synchronized (LOCK) {",
      "      return 1 / (1 + Math.exp(-box[0]));",
      "    }",
      "  }",
      "  @DerivativeOf(\"logistic\")",
      "  static double logisticDerivative(double x) {",
      "    double s = logistic(x);",
      "    return s * (1 - s);",
      "  }",
      "  /** x * y^n * exp(y), through a StringBuilder and a try. */",
      "  public static double weighted(double x, int n, double y) {",
      "    try {",
      "      StringBuilder unused = new StringBuilder().append(n);",
      "      return x * Math.pow(y, unused.length() > 0 ? n : 0) * Math.exp(y);",
      "    } catch (RuntimeException e) {",
      "      throw e;",
      "    }",
      "  }",
      "  @DerivativeOf(value = \"weighted\", wrt = \"x\")",
      "  static double weightedX(double x, int n, double y) {",
      "    return Math.pow(y, n) * Math.exp(y);",
      "  }",
      "  @DerivativeOf(value = \"weighted\", wrt = \"y\")",
      "  static double weightedY(double x, int n, double y) {",
      "    return x * (n * Math.pow(y, n - 1) + Math.pow(y, n)) * Math.exp(y);",
      "  }",
      "}");

  /** A target without rules of its own: the caller's class gives them. */
  private static final String LIBRARY = String.join("\n",
      "package com.example;",
      "public final class Library {",
      "  /** sqrt(a² + b²), through an object. */",
      "  public static double norm(double a, double b) {",
      "    java.util.List<Double> parts = java.util.List.of(a * a, b * b);",
      "    return Math.sqrt(parts.get(0) + parts.get(1));",
      "  }",
      "}");

  /** An object whose method is a target: the rule takes the receiver first. */
  private static final String SCALED = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "public final class Scaled {",
      "  private final double[] k;",
      "  Scaled(double k) { this.k = new double[] {k}; }",
      "  /** k sin(x) + x y, through a field of an object. */",
      "  public double apply(double x, double y) { return k[0] * Math.sin(x) + x * y; }",
      "  @DerivativeOf(value = \"apply\", wrt = \"x\")",
      "  static double applyX(Scaled s, double x, double y) { return s.k[0] * Math.cos(x) + y; }",
      "}");

  private static final String MODEL = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class Model {",
      "  @DerivativeOf(owner = Library.class, value = \"norm\", wrt = \"a\")",
      "  static double normA(double a, double b) { return a / Library.norm(a, b); }",
      "  @DerivativeOf(owner = Library.class, value = \"norm\", wrt = \"b\")",
      "  static double normB(double a, double b) { return b / Library.norm(a, b); }",
      "  @Differentiable static double straight(double x, double y) {",
      "    double s = Special.logistic(x * y);",
      "    return s * Library.norm(x, y - 1) + Special.weighted(x, 3, y);",
      "  }",
      "  @Differentiable static double constantArgument(double x) {",
      "    return Library.norm(x, 2.5) + Special.weighted(2.0, 2, x);",
      "  }",
      "  @Differentiable static double loop(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 0; i < 7; i++) {",
      "      if (i % 2 == 0) {",
      "        s += Special.logistic(s * x - y) * Library.norm(x, i);",
      "      } else {",
      "        s = s - 0.1 * Special.weighted(s, i % 3, y);",
      "      }",
      "    }",
      "    int k = 0;",
      "    while (Special.logistic(s) < 0.9 && k < 50) { s += 0.05 * Library.norm(s, y); k++; }",
      "    return s;",
      "  }",
      "  static final Scaled TRIPLE = new Scaled(3);",
      "  @DerivativeOf(owner = Scaled.class, value = \"apply\", wrt = \"y\")",
      "  static double applyY(Scaled s, double x, double y) { return x; }",
      "  @Differentiable static double onReceiver(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 1; i <= 3; i++) { s += TRIPLE.apply(x / i, s - y) + Model.TRIPLE.apply(x, 2); }",
      "    return s;",
      "  }",
      "  @Differentiable static double onObjects(double x, double y) {",
      "    Scaled local = new Scaled(2);",
      "    double s = local.apply(x, y);",
      "    for (int i = 1; i <= 3; i++) {",
      "      s += 0.2 * local.apply(x / i, s - y) * Math.sin(TRIPLE.apply(s, x));",
      "    }",
      "    return s + onParameter(TRIPLE, x * y) + onParameter(local, s);",
      "  }",
      "  @Differentiable static double onParameter(Scaled scaled, double z) {",
      "    return scaled.apply(z, z * z);",
      "  }",
      "  @Differentiable static double helper(double a, double b) {",
      "    return Special.weighted(a, 2, b) - Library.norm(b, a);",
      "  }",
      "  @Differentiable static double throughCalls(double x, double y) {",
      "    double t = helper(x, y);",
      "    double u = 0;",
      "    int k = 0;",
      "    while (k < 3) { u += helper(u + x, t * 0.1); k++; }",
      "    return t * u;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Special", SPECIAL, "com.example.Library", LIBRARY,
          "com.example.Scaled", SCALED, "com.example.Model", MODEL));

  private static CompiledFunction function(String name, int arity) {
    return COMPILED.get().function("com.example.Model", name, arity);
  }

  @Test
  void straightLineCodeUsesTheRulesOfBothClassesInBothModes() {
    CompiledFunction f = function("straight", 2);
    DerivativeChecks.checkAt(f, 0.7, 1.3);
    DerivativeChecks.checkAt(f, -1.2, 0.4);
  }

  @Test
  void aParameterThatReceivesOnlyConstantsNeedsNoRule() {
    CompiledFunction f = function("constantArgument", 1);
    DerivativeChecks.checkAt(f, 0.8);
    DerivativeChecks.checkAt(f, -2.1);
  }

  @Test
  void rulesAreUsedInLoopsAndBranches() {
    CompiledFunction f = function("loop", 2);
    DerivativeChecks.checkAt(f, 0.9, 0.3);
    DerivativeChecks.checkAt(f, -0.4, 1.1);
    DerivativeChecks.checkAt(f, 0.2, -0.7);
  }

  @Test
  void rulesAreUsedThroughCallsOfDifferentiableMethods() {
    DerivativeChecks.checkAt(function("helper", 2), 0.6, 1.4);
    DerivativeChecks.checkAt(function("throughCalls", 2), 0.6, 1.4);
    DerivativeChecks.checkAt(function("throughCalls", 2), -0.3, 0.9);
  }

  @Test
  void instanceMethodsOnAStaticFinalFieldUseRulesThatTakeTheReceiverFirst() {
    DerivativeChecks.checkAt(function("onReceiver", 2), 0.6, 1.4);
    DerivativeChecks.checkAt(function("onReceiver", 2), -1.1, 0.2);
  }

  @Test
  void instanceMethodsOnParametersAndLocalsUseRulesThatTakeTheReceiverFirst() throws Exception {
    DerivativeChecks.checkAt(function("onObjects", 2), 0.6, 1.4);
    DerivativeChecks.checkAt(function("onObjects", 2), -1.1, 0.2);
    String code = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    assertThat(code).contains("local.apply(");
    assertThat(code).contains("Scaled.applyX(local, ");
    assertThat(code).contains("Model.applyY(scaled, ");
  }

  /** The classes of {@link #SPECIAL}, compiled alone with {@code options}, in {@code classes}. */
  private static List<File> compileSpecialInto(Path classes, String... options)
      throws IOException {
    Compilation library = InProcessCompiler.javac(options).compile(
        JavaFileObjects.forSourceString("com.example.Special", SPECIAL));
    InProcessCompiler.requireSuccess(library);
    copyClasses(library, classes);
    List<File> classpath = new ArrayList<>(List.of(classes.toFile()));
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      classpath.add(new File(entry));
    }
    return classpath;
  }

  private static void copyClasses(Compilation compilation, Path classes) throws IOException {
    for (JavaFileObject output : compilation.generatedFiles()) {
      if (output.getKind() == JavaFileObject.Kind.CLASS) {
        Path target = classes.resolve(output.getName().replaceFirst("^.*?/com/", "com/"));
        Files.createDirectories(target.getParent());
        try (InputStream in = output.openInputStream()) {
          Files.copy(in, target);
        }
      }
    }
  }

  private static final String CALLER = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Caller {",
      "  @Differentiable static double f(double x, double y) {",
      "    return Special.logistic(x - y) * Special.weighted(y, 2, x);",
      "  }",
      "}");

  @Test
  void rulesOfACompiledLibraryAreFoundInItsClassFiles(@TempDir Path classes) throws IOException {
    List<File> classpath = compileSpecialInto(classes, "-g");

    Compilation compilation = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .withClasspath(classpath)
        .compile(JavaFileObjects.forSourceString("com.example.Caller", CALLER));

    InProcessCompiler.requireSuccess(compilation);
    copyClasses(compilation, classes);
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
        DerivativeOfTest.class.getClassLoader())) {
      CompiledFunction f = CompiledFunction.load(loader, "com.example.Caller",
          "com.example.CallerGrad", "f", 2);
      DerivativeChecks.checkAt(f, 0.4, 1.2);
      DerivativeChecks.checkAt(f, -0.8, 0.3);
    }
  }

  @Test
  void ruleOfALibraryWithoutParameterNamesIsAnErrorAtTheCall(@TempDir Path classes)
      throws IOException {
    List<File> classpath = compileSpecialInto(classes, "-g:none");

    Compilation compilation = InProcessCompiler.javac().withClasspath(classpath)
        .compile(JavaFileObjects.forSourceString("com.example.Caller", CALLER));

    assertThat(compilation.errors()).hasSize(1);
    assertThat(compilation.errors().get(0).getMessage(null)).isEqualTo("ad4j: call to"
        + " 'Special.weighted(...)' is not differentiable: its rule in the compiled class"
        + " 'com.example.Special' cannot be used: @DerivativeOf rule 'weightedX': unknown wrt:"
        + " 'Special.weighted' has no parameter 'x'; its 'double' parameters are arg0, arg2 (a"
        + " library whose rules name wrt must be compiled with parameter names: -g or"
        + " -parameters)");
    assertThat(compilation.errors().get(0).getLineNumber()).isEqualTo(5);
  }

  @Test
  void theGeneratedCodeCallsTheTargetAndItsRules() throws Exception {
    String generated = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    assertThat(generated).contains("Special.logisticDerivative(");
    assertThat(generated).contains("Special.weightedX(");
    assertThat(generated).contains("Special.weightedY(");
    assertThat(generated).contains("Model.normA(");
    assertThat(generated).contains("Model.normB(");
    assertThat(generated).contains("Model.TRIPLE.apply(");
    assertThat(generated).contains("Scaled.applyX(Model.TRIPLE, ");
    assertThat(generated).contains("Model.applyY(Model.TRIPLE, ");
    assertWithMessage("the target itself is called for the value")
        .that(generated).contains("Library.norm(");
  }
}
