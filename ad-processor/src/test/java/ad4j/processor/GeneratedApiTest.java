package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated classes' public API is exactly the design contract's (DESIGN.md parts 1 to 3):
 * the members that the generated code of callers calls live in the companion
 * {@code FooGradSweeps}, and calls through it still work from another package and from another
 * compilation that sees the callee's classes only.
 */
class GeneratedApiTest {
  /** A scalar method with a loop, a vector function and an order-2 method, all public. */
  private static final String SHAPES = String.join("\n",
      "package com.example.lib;",
      "import ad4j.Differentiable;",
      "public final class Shapes {",
      "  @Differentiable public static double scalar(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 1; i <= 3; i++) {",
      "      s += Math.sin(i * x) * y;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable public static double[] vector(double x, double y) {",
      "    return new double[] {x * y, x + y, Math.sin(x)};",
      "  }",
      "  @Differentiable(order = 2) public static double second(double x, double y) {",
      "    return x * x * y + Math.exp(y);",
      "  }",
      "}");

  /** A value record with an instance method taking another record. */
  private static final String VEC = String.join("\n",
      "package com.example.lib;",
      "import ad4j.Differentiable;",
      "public record Vec(double x, double y) {",
      "  @Differentiable public double dot(Vec other) {",
      "    return x * other.x() + y * other.y();",
      "  }",
      "}");

  /** An ordinary class with an instance method: the receiver carries no derivative. */
  private static final String MODEL = String.join("\n",
      "package com.example.lib;",
      "import ad4j.Differentiable;",
      "public final class Model {",
      "  private final double scale;",
      "  public Model(double scale) {",
      "    this.scale = scale;",
      "  }",
      "  @Differentiable public double loss(double w) {",
      "    return scale * w * w;",
      "  }",
      "}");

  /** Callers in another package of every kind of call: split halves, a vector, order 2. */
  private static final String APP = String.join("\n",
      "package com.example.app;",
      "import ad4j.Differentiable;",
      "import com.example.lib.Shapes;",
      "public final class App {",
      "  @Differentiable public static double f(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 0; i < 2; i++) {",
      "      s += Shapes.scalar(x * y + i, y);",
      "    }",
      "    double[] v = Shapes.vector(x, s);",
      "    return s * v[0] + v[1] * v[2];",
      "  }",
      "  @Differentiable(order = 2) public static double g(double x, double y) {",
      "    return Shapes.second(x, y) * Math.sin(x) + Shapes.second(y, x);",
      "  }",
      "}");

  @Test
  void theGeneratedClassesPublicMembersAreExactlyTheContracts() {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compile(
        "com.example.lib.Shapes", SHAPES, "com.example.lib.Vec", VEC,
        "com.example.lib.Model", MODEL);

    assertThat(publicMembers(compiled.load("com.example.lib.ShapesGrad"))).containsExactly(
        // part 1: a scalar result
        "double[] scalarGradient(double, double)",
        "double scalarValueAndGradient(double, double, double[])",
        "double scalarTangent(double, double, double, double)",
        "double scalarPullback(double, double, double, double[])",
        // part 2: a vector result
        "double[][] vectorJacobian(double, double)",
        "double[] vectorValueAndJacobian(double, double, double[][])",
        "double[] vectorTangent(double, double, double, double)",
        "double[] vectorPullback(double, double, double[], double[])",
        // part 2: order 2
        "double[] secondGradient(double, double)",
        "double secondValueAndGradient(double, double, double[])",
        "double secondTangent(double, double, double, double)",
        "double secondPullback(double, double, double, double[])",
        "double[][] secondHessian(double, double)",
        "double[] secondHessianVector(double, double, double[])",
        "double secondValueGradientAndHessian(double, double, double[], double[][])");
    // part 3: a value record's instance method, its receiver first and active
    assertThat(publicMembers(compiled.load("com.example.lib.VecGrad"))).containsExactly(
        "double[] dotGradient(Vec, Vec)",
        "double dotValueAndGradient(Vec, Vec, double[])",
        "double dotTangent(Vec, Vec, Vec, Vec)",
        "double dotPullback(Vec, Vec, double, double[])");
    // part 3: an ordinary class's instance method, its receiver first and inactive
    assertThat(publicMembers(compiled.load("com.example.lib.ModelGrad"))).containsExactly(
        "double[] lossGradient(Model, double)",
        "double lossValueAndGradient(Model, double, double[])",
        "double lossTangent(Model, double, double)",
        "double lossPullback(Model, double, double, double[])");

    for (String companion : List.of("ShapesGradSweeps", "VecGradSweeps", "ModelGradSweeps")) {
      Class<?> sweeps = compiled.load("com.example.lib." + companion);
      assertWithMessage("%s is public, as callers in other packages call it", companion)
          .that(Modifier.isPublic(sweeps.getModifiers())).isTrue();
      assertWithMessage("%s has no public constructor", companion)
          .that(Arrays.stream(sweeps.getDeclaredConstructors())
              .noneMatch(c -> Modifier.isPublic(c.getModifiers()))).isTrue();
      for (String member : publicMembers(sweeps)) {
        // the tape first, or for a method taking or returning value records its tangent and
        // value over their leaves and the leaves of its value, which callers of other classes
        // call
        assertWithMessage("%s holds only members for callers' code, the tape first or over a"
            + " record's leaves: %s", companion, member)
            .that(member.contains("(Tape, ")
                || member.matches("double(\\[])? [a-z]\\w*Tangent(Flat)?\\(.*\\)")
                || member.matches("\\w+(\\[])? [a-z]\\w*ValueFlat\\(.*\\)")
                || member.matches("double\\[] leavesOf\\w*\\(\\w+\\)"))
            .isTrue();
      }
    }
  }

  @Test
  void callersInAnotherPackageGetTheRightDerivatives() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.lib.Shapes", SHAPES,
        "com.example.app.App", APP);

    checkCallers(compiled.function("com.example.app.App", "f", 2),
        compiled.function("com.example.app.App", "g", 2),
        compiled.load("com.example.app.AppGrad"));
  }

  @Test
  void callersInAnotherCompilationGetTheRightDerivatives(@TempDir Path directory)
      throws Exception {
    Path libraryClasses = Files.createDirectories(directory.resolve("lib"));
    Compilation library = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .compile(JavaFileObjects.forSourceString("com.example.lib.Shapes", SHAPES));
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, libraryClasses);
    // the callee's classes only: its source is not part of this compilation
    Compilation app = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .withClasspath(classpath)
        .compile(JavaFileObjects.forSourceString("com.example.app.App", APP));
    assertThat(app).succeededWithoutWarnings();
    assertThat(app.generatedSourceFile("com.example.lib.ShapesGrad").isPresent()).isFalse();
    Path appClasses = Files.createDirectories(directory.resolve("app"));
    InProcessCompiler.classpathWithClassesOf(app, appClasses);

    try (URLClassLoader loader = new URLClassLoader(
        new URL[] {libraryClasses.toUri().toURL(), appClasses.toUri().toURL()},
        GeneratedApiTest.class.getClassLoader())) {
      checkCallers(
          CompiledFunction.load(loader, "com.example.app.App", "com.example.app.AppGrad", "f", 2),
          CompiledFunction.load(loader, "com.example.app.App", "com.example.app.AppGrad", "g", 2),
          Class.forName("com.example.app.AppGrad", true, loader));
    }
  }

  /**
   * {@code f}'s gradient against finite differences of the user's own method and forward mode
   * against reverse; {@code g}'s Hessian against differences of its gradient.
   */
  private static void checkCallers(CompiledFunction f, CompiledFunction g, Class<?> appGrad)
      throws Exception {
    for (double[] point : List.of(new double[] {0.3, -0.7}, new double[] {1.1, 0.4})) {
      DerivativeChecks.checkAt(f, point);
      HessianChecks.checkAt(g, appGrad, point);
    }
  }

  /**
   * The public members of a class as {@code "double[] fGradient(double, double)"}, sorted; a
   * public field, nested class or constructor counts too.
   */
  private static List<String> publicMembers(Class<?> type) {
    List<String> members = new ArrayList<>();
    for (Method method : type.getDeclaredMethods()) {
      if (Modifier.isPublic(method.getModifiers())) {
        members.add(method.getReturnType().getSimpleName() + " " + method.getName()
            + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", ", "(", ")")));
      }
    }
    Arrays.stream(type.getDeclaredFields()).filter(f -> Modifier.isPublic(f.getModifiers()))
        .forEach(f -> members.add("field " + f.getName()));
    Arrays.stream(type.getDeclaredClasses()).filter(c -> Modifier.isPublic(c.getModifiers()))
        .forEach(c -> members.add("class " + c.getSimpleName()));
    Arrays.stream(type.getDeclaredConstructors())
        .filter(c -> Modifier.isPublic(c.getModifiers()))
        .forEach(c -> members.add("constructor " + c));
    members.sort(null);
    return members;
  }
}
