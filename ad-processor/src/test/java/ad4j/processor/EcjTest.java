package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.GeneratedManifest;
import ad4j.processor.testing.MemberAgreement;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import org.eclipse.jdt.internal.compiler.tool.EclipseCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ad4j under ECJ, the compiler of Eclipse and VS Code, which gives processors no syntax trees:
 * the processor parses the method's source with the JDK's javac parser, writes the same
 * {@code FooGrad}, and reports its errors at the method with the line and column of the
 * offending code in the message.
 */
class EcjTest {
  @TempDir
  Path directory;

  @Test
  void generatesDerivativesOfMethodsCompiledByEcj() throws IOException {
    Ecj ecj = compile("com.example.Model", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Model {",
        "  static final double SCALE = 2.5;",
        "",
        "  @Differentiable",
        "  static double loss(double x, double y) {",
        "    double s = 0;",
        "    for (int i = 1; i <= 4; i++) {",
        "      s += Math.sin(i * x) * y / i;",
        "    }",
        "    return s + SCALE * helper(x * y);",
        "  }",
        "",
        "  @Differentiable",
        "  static double helper(double t) {",
        "    return t > 0 ? Math.log1p(t * t) : t;",
        "  }",
        "",
        "  static final class Inner {",
        "    @Differentiable",
        "    static double cube(double z) {",
        "      return z * z * z;",
        "    }",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertThat(ecj.succeeded).isTrue();
    // no local that a member computes and never reads ('t > 0 ? ... : t' in the tangent)
    assertWithMessage("ECJ's warnings on generated code").that(ecj.generatedCodeWarnings())
        .isEmpty();
    try (URLClassLoader loader = ecj.loader()) {
      CompiledFunction loss = CompiledFunction.load(loader, "com.example.Model",
          "com.example.ModelGrad", "loss", 2);
      DerivativeChecks.checkAt(loss, 0.7, -1.3);
      DerivativeChecks.checkAt(loss, -0.4, 0.9);
      CompiledFunction cube = CompiledFunction.load(loader, "com.example.Model$Inner",
          "com.example.Model_InnerGrad", "cube", 1);
      DerivativeChecks.checkAt(cube, 1.5);
      assertThat(cube.gradient(1.5)[0]).isEqualTo(3 * 1.5 * 1.5);
    }
  }

  /**
   * No local that nothing reads in the generated code of loops, branches, matrices, streams,
   * Jacobians and order-2 lanes: the element reads a forward sweep keeps only for where they
   * throw, the slots the reverse sweep computes again, the tangents' reads of their arrays
   * (each was a warning before), with derivatives that stay right.
   */
  @Test
  void generatedCodeOfLoopsArraysAndLanesHasNoUnusedLocalsUnderEcj() throws Exception {
    Ecj ecj = compile("com.example.Loops", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.List;",
        "import java.util.stream.IntStream;",
        "",
        "final class Loops {",
        "  @Differentiable(order = 2)",
        "  static double rosenbrock(double[] x) {",
        "    double s = 0;",
        "    for (int i = 0; i + 1 < x.length; i++) {",
        "      double a = 1 - x[i];",
        "      double b = x[i + 1] - x[i] * x[i];",
        "      s += a * a + 100 * b * b;",
        "    }",
        "    return s;",
        "  }",
        "",
        "  @Differentiable",
        "  static double layer(double[][] w, double[] x) {",
        "    double total = 0;",
        "    for (int i = 0; i < w.length; i++) {",
        "      double[] row = w[i];",
        "      double s = 0;",
        "      for (int j = 0; j < x.length; j++) {",
        "        s += row[j] * x[j];",
        "      }",
        "      total += Math.tanh(s);",
        "    }",
        "    return total;",
        "  }",
        "",
        "  @Differentiable",
        "  static double stream(double[] w, double[] x) {",
        "    return IntStream.range(0, w.length)",
        "        .mapToDouble(i -> (w[i] * x[i] - 1) * (w[i] * x[i] - 1)).sum();",
        "  }",
        "",
        "  @Differentiable",
        "  static double[] pendulum(double[] y, double k) {",
        "    return new double[] {y[1], -k * Math.sin(y[0])};",
        "  }",
        "",
        "  @Differentiable",
        "  static double meanSquare(double[] t) {",
        "    return IntStream.range(0, t.length).mapToDouble(i -> t[i] * t[i]).average().orElse(0);",
        "  }",
        "",
        "  @Differentiable",
        "  static double perBucket(double x, int n, int buckets) {",
        "    int size = n / buckets;",
        "    long rest = (long) n % buckets;",
        "    return x * x + size + rest;",
        "  }",
        "",
        "  static final class Config {",
        "    double offset = 0.25;",
        "  }",
        "",
        "  static final Config CONFIG = new Config();",
        "",
        "  @Differentiable",
        "  static double offset(double x) {",
        "    return x * x + CONFIG.offset;",
        "  }",
        "",
        "  @Differentiable",
        "  static double walked(double a, @NoDerivative List<Double> xs) {",
        "    double s = 0;",
        "    for (double x : xs) {",
        "      s += Math.exp(a * x);",
        "    }",
        "    return s + xs.stream().mapToDouble(x -> x * a).sum();",
        "  }",
        "",
        "  final double shift = 0.5;",
        "",
        "  @Differentiable",
        "  double shifted(double x, double y) {",
        "    return x * y + shift;",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertWithMessage("ECJ's warnings on generated code").that(ecj.generatedCodeWarnings())
        .isEmpty();
    try (URLClassLoader loader = ecj.loader()) {
      Class<?> user = loader.loadClass("com.example.Loops");
      Class<?> grad = loader.loadClass("com.example.LoopsGrad");
      double[] x = {0.3, -0.7, 1.1, 0.4};
      java.lang.reflect.Method rosenbrock = user.getDeclaredMethod("rosenbrock", double[].class);
      rosenbrock.setAccessible(true);
      double[] gradient = (double[]) declared(grad, "rosenbrockGradient", double[].class)
          .invoke(null, (Object) x.clone());
      double[][] hessian = (double[][]) declared(grad, "rosenbrockHessian", double[].class)
          .invoke(null, (Object) x.clone());
      for (int i = 0; i < x.length; i++) {
        int slot = i;
        assertThat(gradient[i]).isWithin(1e-6).of(centralDifference(t -> {
          double[] moved = x.clone();
          moved[slot] += t;
          return (double) rosenbrock.invoke(null, (Object) moved);
        }));
        for (int j = 0; j < x.length; j++) {
          int column = j;
          assertThat(hessian[i][j]).isWithin(1e-5).of(centralDifference(t -> {
            double[] moved = x.clone();
            moved[column] += t;
            return ((double[]) declared(grad, "rosenbrockGradient", double[].class)
                .invoke(null, (Object) moved))[slot];
          }));
        }
      }

      double[][] w = {{0.2, -0.4, 0.9}, {1.3, 0.1, -0.6}};
      double[] v = {0.5, -1.2, 0.8};
      java.lang.reflect.Method layer =
          user.getDeclaredMethod("layer", double[][].class, double[].class);
      layer.setAccessible(true);
      double[] layerGradient = (double[]) declared(grad, "layerGradient", double[][].class,
          double[].class).invoke(null, w, v);
      int slot = 0;
      for (int r = 0; r < w.length; r++) {
        for (int c = 0; c < w[r].length; c++) {
          int row = r;
          int column = c;
          assertThat(layerGradient[slot++]).isWithin(1e-6).of(centralDifference(t -> {
            double[][] moved = {w[0].clone(), w[1].clone()};
            moved[row][column] += t;
            return (double) layer.invoke(null, moved, v);
          }));
        }
      }
      for (int c = 0; c < v.length; c++) {
        int column = c;
        assertThat(layerGradient[slot++]).isWithin(1e-6).of(centralDifference(t -> {
          double[] moved = v.clone();
          moved[column] += t;
          return (double) layer.invoke(null, w, moved);
        }));
      }

      double[] u = {0.4, 1.5, -0.3};
      java.lang.reflect.Method stream =
          user.getDeclaredMethod("stream", double[].class, double[].class);
      stream.setAccessible(true);
      double[] streamGradient = (double[]) declared(grad, "streamGradient", double[].class,
          double[].class).invoke(null, u, v);
      for (int i = 0; i < u.length; i++) {
        int index = i;
        assertThat(streamGradient[i]).isWithin(1e-6).of(centralDifference(t -> {
          double[] moved = u.clone();
          moved[index] += t;
          return (double) stream.invoke(null, moved, v);
        }));
        assertThat(streamGradient[u.length + i]).isWithin(1e-6).of(centralDifference(t -> {
          double[] moved = v.clone();
          moved[index] += t;
          return (double) stream.invoke(null, u, moved);
        }));
      }

      // average(): the tangent of its count (count += 1.0) is no assignment of countDot to itself
      double[] meanSquareGradient = (double[]) declared(grad, "meanSquareGradient",
          double[].class).invoke(null, (Object) u);
      for (int i = 0; i < u.length; i++) {
        assertThat(meanSquareGradient[i]).isWithin(1e-12).of(2 * u[i] / u.length);
      }

      // perBucket(): the divisions only its value reads, kept for where they throw, are no
      // locals that nothing reads
      java.lang.reflect.Method perBucket = declared(grad, "perBucketGradient", double.class,
          int.class, int.class);
      assertThat(((double[]) perBucket.invoke(null, 0.3, 7, 2))[0]).isWithin(1e-15).of(0.6);
      Throwable byZero = org.junit.jupiter.api.Assertions.assertThrows(
          java.lang.reflect.InvocationTargetException.class,
          () -> perBucket.invoke(null, 0.3, 7, 0)).getCause();
      assertThat(byZero).isInstanceOf(ArithmeticException.class);
      assertThat(byZero).hasMessageThat().isEqualTo("/ by zero");

      // offset(): the tangent reads CONFIG.offset, which only the value needs, as a null check
      double[] offsetGradient = (double[]) declared(grad, "offsetGradient", double.class)
          .invoke(null, 0.3);
      assertThat(offsetGradient[0]).isWithin(1e-15).of(0.6);

      java.lang.reflect.Constructor<?> make = user.getDeclaredConstructor();
      make.setAccessible(true);
      java.lang.reflect.Method shifted = java.util.Arrays.stream(grad.getDeclaredMethods())
          .filter(m -> m.getName().equals("shiftedGradient")).findFirst().orElseThrow();
      shifted.setAccessible(true);
      // the tangent reads the field only where the method does, for where it throws
      assertThat((double[]) shifted.invoke(null, make.newInstance(), 0.3, -1.7))
          .usingTolerance(1e-15).containsExactly(-1.7, 0.3).inOrder();

      // walked(): an enhanced 'for' over a List, Java's own loop over its iterator, and a
      // stream of it
      double[] walkedGradient = (double[]) declared(grad, "walkedGradient", double.class,
          java.util.List.class).invoke(null, 0.3, java.util.List.of(0.5, -2.0));
      assertThat(walkedGradient[0]).isWithin(1e-15)
          .of(0.5 * Math.exp(0.15) - 2.0 * Math.exp(-0.6) + 0.5 - 2.0);

      double[][] jacobian = (double[][]) declared(grad, "pendulumJacobian", double[].class,
          double.class).invoke(null, new double[] {0.6, -0.2}, 9.81);
      assertThat(jacobian[0]).usingTolerance(1e-12).containsExactly(0.0, 1.0, 0.0).inOrder();
      assertThat(jacobian[1]).usingTolerance(1e-12)
          .containsExactly(-9.81 * Math.cos(0.6), 0.0, -Math.sin(0.6)).inOrder();
    }
  }

  /** {@code type}'s method {@code name}, callable from here (the test's class is not public). */
  private static java.lang.reflect.Method declared(Class<?> type, String name,
      Class<?>... parameters) throws NoSuchMethodException {
    java.lang.reflect.Method method = type.getDeclaredMethod(name, parameters);
    method.setAccessible(true);
    return method;
  }

  /** A function of a step, which the reflective calls may throw from. */
  private interface Step {
    double at(double t) throws Exception;
  }

  /** The 4th-order central difference of {@code f} at 0. */
  private static double centralDifference(Step f) throws Exception {
    double h = 1e-3;
    return (8 * (f.at(h) - f.at(-h)) - (f.at(2 * h) - f.at(-2 * h))) / (12 * h);
  }

  @Test
  void callsStaticMethodsInheritedFromASuperclassUnderEcj() throws IOException {
    Ecj ecj = compile("com.example.Derived", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "class Shapes {",
        "  static final double EPS = 1e-3;",
        "  static double twice(double t) { return 2 * t; }",
        "  @Differentiable static double square(double t) { return t * t; }",
        "}",
        "",
        "final class Derived extends Shapes {",
        "  static final double EPS = 0.5;",
        "  static double twice(double t) { return 3 * t; }",
        "",
        "  @Differentiable",
        "  static double loss(double x) {",
        "    return twice(1.5) * square(x) + EPS * x + Shapes.twice(0.25) + Shapes.EPS;",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertThat(ecj.succeeded).isTrue();
    try (URLClassLoader loader = ecj.loader()) {
      CompiledFunction loss = CompiledFunction.load(loader, "com.example.Derived",
          "com.example.DerivedGrad", "loss", 1);
      DerivativeChecks.checkAt(loss, 0.7);
      DerivativeChecks.checkAt(loss, -1.3);
      // Derived's own twice and EPS hide Shapes': 4.5 x^2 + 0.5 x + 0.001
      assertThat(loss.gradient(0.7)[0]).isWithin(1e-12).of(9 * 0.7 + 0.5);
    }
  }

  @Test
  void readsPrivateStaticFieldsThroughAPrivateLookupUnderEcj() throws IOException {
    Ecj ecj = compile("com.example.Series", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Series {",
        "  private static final double LOG_2 = Math.log(2);",
        "  private static final double[] C = {1.0, 0.5, 0.25};",
        "",
        "  @Differentiable",
        "  static double loss(double x) {",
        "    double s = LOG_2;",
        "    for (int i = 0; i < C.length; i++) {",
        "      s += C[i] * Math.pow(x, i + 1);",
        "    }",
        "    return s;",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertThat(ecj.succeeded).isTrue();
    try (URLClassLoader loader = ecj.loader()) {
      CompiledFunction loss = CompiledFunction.load(loader, "com.example.Series",
          "com.example.SeriesGrad", "loss", 1);
      DerivativeChecks.checkAt(loss, 0.7);
      assertThat(loss.gradient(0.7)[0]).isWithin(1e-12).of(1.0 + 2 * 0.5 * 0.7
          + 3 * 0.25 * 0.7 * 0.7);
    }
  }

  /**
   * A {@code static final} field of the method's class initialised with a lambda is a function
   * whose code ad4j differentiates, under ECJ too: the parsed file gives the field's
   * initializer. It was the error "the code of field 'SQ' is not known at compile time".
   */
  @Test
  void differentiatesFunctionsHeldInStaticFinalFieldsUnderEcj() throws IOException {
    Ecj ecj = compile("com.example.Functions", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "",
        "final class Functions {",
        "  static final DoubleUnaryOperator SQUARE = v -> v * v;",
        "  private static final DoubleUnaryOperator DAMPED = v -> Math.exp(-v) * Math.sin(v);",
        "",
        "  @Differentiable",
        "  static double loss(double x, double y) {",
        "    return SQUARE.applyAsDouble(x * 3) + DAMPED.applyAsDouble(x * y);",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertThat(ecj.succeeded).isTrue();
    assertWithMessage("ECJ's warnings on generated code").that(ecj.generatedCodeWarnings())
        .isEmpty();
    try (URLClassLoader loader = ecj.loader()) {
      CompiledFunction loss = CompiledFunction.load(loader, "com.example.Functions",
          "com.example.FunctionsGrad", "loss", 2);
      DerivativeChecks.checkAt(loss, 0.7, -0.4);
      DerivativeChecks.checkAt(loss, -1.2, 0.9);
      double u = 0.7 * -0.4;
      double damped = Math.exp(-u) * (Math.cos(u) - Math.sin(u));
      assertThat(loss.gradient(0.7, -0.4)[0]).isWithin(1e-12).of(18 * 0.7 + damped * -0.4);
    }
  }

  @Test
  void differentiatesFunctionsWhoseMethodIsInheritedUnderEcj() throws IOException {
    // UnaryOperator and BinaryOperator inherit 'apply' from Function and BiFunction, where
    // ECJ's asMemberOf does not look: this was an internal error at each such function
    Ecj ecj = compile("com.example.Operators", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "import java.util.function.BinaryOperator;",
        "import java.util.function.UnaryOperator;",
        "",
        "final class Operators {",
        "  record Vec2(double x, double y) {}",
        "",
        "  @Differentiable",
        "  static double loss(double x, double y) {",
        "    UnaryOperator<Double> square = t -> t * t * y;",
        "    BinaryOperator<Double> product = (a, b) -> a * Math.sin(b);",
        "    UnaryOperator<Vec2> twice = v -> new Vec2(2 * v.x(), v.y() * x);",
        "    Vec2 w = twice.apply(new Vec2(x, y));",
        "    return square.apply(x) + product.apply(y, x) + w.x() * w.y();",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertThat(ecj.succeeded).isTrue();
    try (URLClassLoader loader = ecj.loader()) {
      CompiledFunction loss = CompiledFunction.load(loader, "com.example.Operators",
          "com.example.OperatorsGrad", "loss", 2);
      DerivativeChecks.checkAt(loss, 0.7, -0.4);
      DerivativeChecks.checkAt(loss, -1.2, 0.9);
      // by hand: x^2 y + y sin x + 2 x^2 y
      assertThat(loss.gradient(0.7, -0.4)).usingTolerance(1e-14)
          .containsExactly(6 * 0.7 * -0.4 - 0.4 * Math.cos(0.7), 3 * 0.49 + Math.sin(0.7))
          .inOrder();
    }
  }

  @Test
  void differentiatesInstanceMethodsReadingPrivateFieldsUnderEcj() throws Exception {
    Ecj ecj = compile("com.example.Body", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Body {",
        "  private final double mass;",
        "",
        "  Body(double mass) {",
        "    this.mass = mass;",
        "  }",
        "",
        "  @Differentiable",
        "  double energy(double v, double h) {",
        "    return 0.5 * mass * v * v + mass * 9.81 * h + this.mass * lift(h);",
        "  }",
        "",
        "  @Differentiable",
        "  double lift(double h) {",
        "    return Math.sin(h) / mass;",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertThat(ecj.succeeded).isTrue();
    try (URLClassLoader loader = ecj.loader()) {
      Class<?> body = loader.loadClass("com.example.Body");
      var constructor = body.getDeclaredConstructor(double.class);
      constructor.setAccessible(true);
      Object self = constructor.newInstance(2.5);
      java.lang.reflect.Method gradient = loader.loadClass("com.example.BodyGrad")
          .getDeclaredMethod("energyGradient", body, double.class, double.class);
      gradient.setAccessible(true);
      double[] g = (double[]) gradient.invoke(null, self, 0.8, 0.3);
      // by hand: 0.5 m v^2 + m g h + sin(h)
      assertThat(g[0]).isWithin(1e-14).of(2.5 * 0.8);
      assertThat(g[1]).isWithin(1e-14).of(2.5 * 9.81 + Math.cos(0.3));
    }
  }

  @Test
  void flattensValueRecordsUnderEcj() throws Exception {
    Ecj ecj = compile("com.example.Springs", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Springs {",
        "  record Vec2(double x, double y) {",
        "    Vec2 minus(Vec2 o) {",
        "      return new Vec2(x - o.x, y - o.y());",
        "    }",
        "",
        "    double dot(Vec2 o) {",
        "      return x * o.x + y * o.y;",
        "    }",
        "  }",
        "",
        "  @Differentiable",
        "  static double stretch(Vec2 p, Vec2 q) {",
        "    Vec2 d = p.minus(q);",
        "    return d.dot(d);",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertThat(ecj.succeeded).isTrue();
    try (URLClassLoader loader = ecj.loader()) {
      Class<?> vec = loader.loadClass("com.example.Springs$Vec2");
      var constructor = vec.getDeclaredConstructor(double.class, double.class);
      constructor.setAccessible(true);
      java.lang.reflect.Method gradient = loader.loadClass("com.example.SpringsGrad")
          .getDeclaredMethod("stretchGradient", vec, vec);
      gradient.setAccessible(true);
      double[] g = (double[]) gradient.invoke(null, constructor.newInstance(1.5, -0.5),
          constructor.newInstance(0.25, 0.75));
      // by hand: |p - q|^2, so 2 (p - q) for p and -2 (p - q) for q
      assertThat(g).usingTolerance(1e-15).containsExactly(2.5, -2.5, -2.5, 2.5).inOrder();
    }
  }

  @Test
  void usesDerivativeOfRulesUnderEcj() throws IOException {
    Ecj ecj = compile("com.example.Rules", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "",
        "final class Rules {",
        "  static double softplus(double x) {",
        "    double[] box = {x};",
        "    return Math.log1p(Math.exp(box[0]));",
        "  }",
        "",
        "  @DerivativeOf(\"softplus\")",
        "  static double softplusDerivative(double x) {",
        "    return 1 / (1 + Math.exp(-x));",
        "  }",
        "",
        "  @Differentiable",
        "  static double loss(double x, double y) {",
        "    double s = 0;",
        "    for (int i = 1; i <= 3; i++) {",
        "      s += softplus(x * i - y) * y;",
        "    }",
        "    return s;",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertThat(ecj.succeeded).isTrue();
    try (URLClassLoader loader = ecj.loader()) {
      CompiledFunction loss = CompiledFunction.load(loader, "com.example.Rules",
          "com.example.RulesGrad", "loss", 2);
      DerivativeChecks.checkAt(loss, 0.7, -1.3);
      DerivativeChecks.checkAt(loss, -0.4, 0.9);
    }
  }

  /**
   * The helpers' bodies come from the processor's own parse under ECJ: a check and a helper
   * that read their arguments only are recognized there as under javac.
   */
  @Test
  void readsHelpersThatReadTheirArgumentsOnlyUnderEcj() throws IOException {
    Ecj ecj = compile("com.example.Counts", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Counts {",
        "  static final java.util.List<String> LINES = new java.util.ArrayList<>();",
        "",
        "  static double logFactorial(int n) {",
        "    double sum = 0;",
        "    for (int i = 2; i <= n; i++) {",
        "      sum += Math.log(i);",
        "    }",
        "    return sum;",
        "  }",
        "",
        "  static void isTrue(boolean c, String message, double value) {",
        "    if (!c) {",
        "      throw new IllegalArgumentException(message + value);",
        "    }",
        "  }",
        "",
        "  static void log(String line) {",
        "    LINES.add(line);",
        "  }",
        "",
        "  @Differentiable",
        "  static double logPoisson(double mean) {",
        "    int k = 3;",
        "    isTrue(mean > 0, \"mean must be positive, is \", mean);",
        "    log(\"mean = \" + mean);",
        "    return k * Math.log(mean) - mean - logFactorial(k);",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertThat(ecj.succeeded).isTrue();
    try (URLClassLoader loader = ecj.loader()) {
      CompiledFunction logPoisson = CompiledFunction.load(loader, "com.example.Counts",
          "com.example.CountsGrad", "logPoisson", 1);
      DerivativeChecks.checkAt(logPoisson, 0.7);
      DerivativeChecks.checkAt(logPoisson, 2.5);
    }
  }

  /**
   * The members of a generated class follow the order of the user's methods under ECJ as under
   * javac. ECJ hands a processor the annotated methods as a hash set of its elements, which hash
   * by identity: the order of the members changed from one compilation to the next.
   */
  @Test
  void membersComeInTheOrderOfTheMethodsUnderEcj() throws IOException {
    String source = String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Ordered {",
        "  @Differentiable static double delta(double x) { return x * x; }",
        "  @Differentiable static double alpha(double x) { return Math.sin(x); }",
        "  @Differentiable static double charlie(double x) { return Math.exp(x); }",
        "  @Differentiable static double bravo(double x) { return x * x * x; }",
        "}");
    for (int i = 0; i < 4; i++) {
      Ecj ecj = compile("com.example.Ordered", source);
      assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
      String generated = Files.readString(
          directory.resolve("generated/com/example/OrderedGrad.java"), StandardCharsets.UTF_8);
      int delta = generated.indexOf("static double[] deltaGradient(");
      int alpha = generated.indexOf("static double[] alphaGradient(");
      int charlie = generated.indexOf("static double[] charlieGradient(");
      int bravo = generated.indexOf("static double[] bravoGradient(");
      assertWithMessage("compilation %s: members in the methods' order", i)
          .that(List.of(delta, alpha, charlie, bravo)).isInStrictOrder();
      assertThat(delta).isAtLeast(0);
    }
  }

  @Test
  void readsTheOrderOfDifferentiableUnderEcj() throws Exception {
    Ecj ecj = compile("com.example.Curved", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Curved {",
        "  @Differentiable(order = 2)",
        "  static double rosenbrock(double x, double y) {",
        "    return square(1 - x) + 100 * square(y - x * x);",
        "  }",
        "",
        "  @Differentiable(order = 2)",
        "  static double square(double t) {",
        "    return t * t;",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    try (URLClassLoader loader = ecj.loader()) {
      java.lang.reflect.Method hessian = loader.loadClass("com.example.CurvedGrad")
          .getDeclaredMethod("rosenbrockHessian", double.class, double.class);
      hessian.setAccessible(true);
      double x = 0.7;
      double y = -0.4;
      double[][] h = (double[][]) hessian.invoke(null, x, y);
      assertThat(h[0][0]).isWithin(1e-9).of(1200 * x * x - 400 * y + 2);
      assertThat(h[0][1]).isWithin(1e-9).of(-400 * x);
      assertThat(h[1][0]).isWithin(1e-9).of(-400 * x);
      assertThat(h[1][1]).isWithin(1e-9).of(200);
    }
  }

  /**
   * Under ECJ too, the members of a static method initialise its class first, as a call of the
   * method does, where the class's initializer runs code ({@code UserClassInitializationTest}):
   * without attribution, a static initializer counts as such code. {@code fValueAndGradient(1.5)}
   * called first gave 2.25 with the gradient 3, where {@code f(1.5)} is 6.75 with 9.
   */
  @Test
  void membersInitializeTheUserClassFirstUnderEcj() throws Exception {
    Ecj ecj = compile("com.example.Scaled", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Scaled {",
        "  static final class Config { static double scale = 1; }",
        "  static { Config.scale = 3; }",
        "",
        "  @Differentiable",
        "  static double f(double x) { return Config.scale * x * x; }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    try (URLClassLoader loader = ecj.loader()) {
      java.lang.reflect.Method valueAndGradient = loader.loadClass("com.example.ScaledGrad")
          .getDeclaredMethod("fValueAndGradient", double.class, double[].class);
      valueAndGradient.setAccessible(true);
      double[] gradient = new double[1];
      assertThat(valueAndGradient.invoke(null, 1.5, gradient)).isEqualTo(6.75);
      assertThat(gradient[0]).isEqualTo(9.0);
    }
  }

  @Test
  void reportsErrorsAtTheMethodWithLineAndColumn() throws IOException {
    Ecj ecj = compile("com.example.Bad", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Bad {",
        "  @Differentiable",
        "  static double f(double x) {",
        "    double noise = Math.random();",
        "    return x * noise;",
        "  }",
        "}"));

    assertThat(ecj.succeeded).isFalse();
    List<Diagnostic<? extends JavaFileObject>> errors = ecj.errors();
    assertWithMessage("errors: %s", errors).that(errors).hasSize(1);
    Diagnostic<? extends JavaFileObject> error = errors.get(0);
    assertThat(error.getMessage(Locale.ROOT)).isEqualTo("ad4j: Bad.java:8:31: call to"
        + " 'Math.random()' is not differentiable: it returns a new random number at each call,"
        + " not a function of its arguments");
    assertThat(error.getSource().getName()).endsWith("Bad.java");
    assertThat(error.getLineNumber()).isEqualTo(7); // the method's declaration
  }

  /** One ECJ compilation of one source file with the ad4j processor, on this class path. */
  /**
   * {@code break}s that leave a {@code switch} case early, in the colon and arrow forms and in
   * the last case: the generated code compiles under ECJ without warnings, and its value and
   * derivative are the method's.
   */
  @Test
  void earlyBreaksOfASwitchCompileWithoutWarnings() throws IOException {
    Ecj ecj = compile("com.example.Cases", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "",
        "final class Cases {",
        "  @Differentiable",
        "  static double f(double x, int k) {",
        "    double r = x;",
        "    switch (k) {",
        "      case 0:",
        "        r *= x;",
        "        if (k > 5) break;",
        "        r += 1;",
        "        break;",
        "      default:",
        "        r = Math.sin(r);",
        "        if (x > 2) break;",
        "    }",
        "    switch (k % 2) {",
        "      case 1 -> { r += x; if (k > 3) break; }",
        "      default -> r *= 2;",
        "    }",
        "    return r;",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertWithMessage("ECJ's warnings on generated code").that(ecj.generatedCodeWarnings())
        .isEmpty();
    try (URLClassLoader loader = ecj.loader()) {
      java.lang.reflect.Method f = loader.loadClass("com.example.Cases")
          .getDeclaredMethod("f", double.class, int.class);
      java.lang.reflect.Method valueAndGradient = loader.loadClass("com.example.CasesGrad")
          .getDeclaredMethod("fValueAndGradient", double.class, int.class, double[].class);
      f.setAccessible(true);
      valueAndGradient.setAccessible(true); // package-private, as f is
      for (int k = 0; k < 7; k++) {
        for (double x : new double[] {0.7, 2.5}) {
          double value = (Double) f.invoke(null, x, k);
          double[] gradient = new double[1];
          double returned = (Double) valueAndGradient.invoke(null, x, k, gradient);
          assertThat(returned).isEqualTo(value);
          double h = 1e-6;
          double difference = ((Double) f.invoke(null, x + h, k)
              - (Double) f.invoke(null, x - h, k)) / (2 * h);
          assertThat(gradient[0]).isWithin(1e-6 * Math.max(1, Math.abs(difference)))
              .of(difference);
        }
      }
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * An enum constant of each iteration passed to a {@code @Differentiable} method, a box of
   * data unboxed, an index found by {@code Arrays.binarySearch}: the generated code compiles
   * under ECJ without warnings, and its value and gradient are the method's.
   */
  @Test
  void objectsInLoopsUnboxedDataAndSearchedIndicesCompileWithoutWarnings() throws IOException {
    Ecj ecj = compile("com.example.Data", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "import java.util.Arrays;",
        "import java.util.List;",
        "",
        "final class Data {",
        "  enum Kernel { GAUSSIAN, LOGISTIC }",
        "  static final List<Double> WEIGHTS = List.of(0.5, 1.25);",
        "  static final double[] KNOTS = {0, 1, 2.5, 4};",
        "  @Differentiable",
        "  static double kernel(Kernel k, double u) {",
        "    return k == Kernel.GAUSSIAN ? Math.exp(-0.5 * u * u) : 1 / (1 + Math.exp(-u));",
        "  }",
        "  @Differentiable",
        "  static double f(double x) {",
        "    double s = 0;",
        "    for (Kernel k : Kernel.values()) {",
        "      s += kernel(k, x * WEIGHTS.get(k.ordinal())) * (1 + 0.1 * s);",
        "    }",
        "    int i = Arrays.binarySearch(KNOTS, x);",
        "    i = Math.max(0, Math.min(i < 0 ? -i - 2 : i, KNOTS.length - 2));",
        "    return s + (x - KNOTS[i]) / (KNOTS[i + 1] - KNOTS[i]);",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertWithMessage("ECJ's warnings on generated code").that(ecj.generatedCodeWarnings())
        .isEmpty();
    try (URLClassLoader loader = ecj.loader()) {
      java.lang.reflect.Method f = loader.loadClass("com.example.Data")
          .getDeclaredMethod("f", double.class);
      java.lang.reflect.Method valueAndGradient = loader.loadClass("com.example.DataGrad")
          .getDeclaredMethod("fValueAndGradient", double.class, double[].class);
      f.setAccessible(true);
      valueAndGradient.setAccessible(true); // package-private, as f is
      for (double x : new double[] {0.3, 1.7, 3.1}) {
        double value = (Double) f.invoke(null, x);
        double[] gradient = new double[1];
        double returned = (Double) valueAndGradient.invoke(null, x, gradient);
        assertThat(returned).isEqualTo(value);
        double h = 1e-6;
        double difference = ((Double) f.invoke(null, x + h) - (Double) f.invoke(null, x - h))
            / (2 * h);
        assertThat(gradient[0]).isWithin(1e-6 * Math.max(1, Math.abs(difference)))
            .of(difference);
      }
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Type tests and patterns' variables ({@code o instanceof Circle c}), in a branch, the right
   * operand of {@code &&} (a variable declared before the branch) and after a negated test that
   * leaves: the generated code compiles under ECJ without warnings, and its value and gradient
   * are the method's.
   */
  @Test
  void typeTestsAndPatternsCompileWithoutWarnings() throws IOException {
    Ecj ecj = compile("com.example.Kinds", String.join("\n",
        "package com.example;",
        "",
        "import ad4j.Differentiable;",
        "import java.util.List;",
        "",
        "final class Kinds {",
        "  sealed interface Shape permits Circle, Sq {}",
        "  record Circle(double r) implements Shape {}",
        "  record Sq(double side) implements Shape {}",
        "  static final List<Object> ITEMS = List.of(new Circle(0.5), new Sq(2), 1.5, \"s\");",
        "  @Differentiable",
        "  static double f(double x) {",
        "    double t = 1;",
        "    for (Object o : ITEMS) {",
        "      if (o instanceof Circle c) t = t * x * c.r();",
        "      else if (x > 0 && o instanceof Sq c) t += c.side() * x;",
        "      else if (o instanceof Double) t = Math.sin(t * x);",
        "      if (!(o instanceof Sq q)) continue;",
        "      t += q.side() * t;",
        "    }",
        "    return t;",
        "  }",
        "}"));

    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertWithMessage("ECJ's warnings on generated code").that(ecj.generatedCodeWarnings())
        .isEmpty();
    try (URLClassLoader loader = ecj.loader()) {
      java.lang.reflect.Method f = loader.loadClass("com.example.Kinds")
          .getDeclaredMethod("f", double.class);
      java.lang.reflect.Method valueAndGradient = loader.loadClass("com.example.KindsGrad")
          .getDeclaredMethod("fValueAndGradient", double.class, double[].class);
      f.setAccessible(true);
      valueAndGradient.setAccessible(true);
      for (double x : new double[] {0.3, -1.7, 3.1}) {
        double value = (Double) f.invoke(null, x);
        double[] gradient = new double[1];
        double returned = (Double) valueAndGradient.invoke(null, x, gradient);
        assertThat(returned).isEqualTo(value);
        double h = 1e-6;
        double difference = ((Double) f.invoke(null, x + h) - (Double) f.invoke(null, x - h))
            / (2 * h);
        assertThat(gradient[0]).isWithin(1e-6 * Math.max(1, Math.abs(difference)))
            .of(difference);
      }
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * The {@code char}, {@code short} and {@code byte} parameters and locals of
   * {@link NarrowIntegralParametersTest}, compiled by ECJ: the generated code keeps their types
   * without a warning, and every member agrees with the method.
   */
  @Test
  void narrowIntegralParametersUnderEcj() throws Exception {
    Ecj ecj = compile("com.example.Narrow", NarrowIntegralParametersTest.SOURCE);
    assertWithMessage("ECJ's errors").that(ecj.errorMessages()).isEmpty();
    assertWithMessage("ECJ's warnings on generated code").that(ecj.generatedCodeWarnings())
        .isEmpty();
    try (URLClassLoader loader = ecj.loader()) {
      Class<?> user = loader.loadClass("com.example.Narrow");
      Class<?> generated = loader.loadClass("com.example.NarrowGrad");
      new MemberAgreement(user, generated, "ofChar", null, true, false, true)
          .checkScalar(new Object[] {0.7, '3', -1.3}, 1, 1e-7);
      new MemberAgreement(user, generated, "ofShort", null, true, false, true)
          .checkScalar(new Object[] {0.6, (short) 3, new double[] {0.3, -0.8, 1.2, 0.5}}, 1,
              1e-7);
      new MemberAgreement(user, generated, "ofByte", null, true, false, true)
          .checkScalar(new Object[] {0.9, (byte) -7, -0.6}, 1, 1e-7);
      new MemberAgreement(user, generated, "vector", null, true, true, false, false, false)
          .checkVector(new Object[] {0.8, -1.7, 'd', (short) -300, (byte) 9});
      new MemberAgreement(user, generated, "second", null, true, true, false, false, false)
          .checkScalar(new Object[] {0.8, -1.4, 'e', (short) 3, (byte) 4}, 2, 1e-7);
      new MemberAgreement(user, generated, "viaRecord", null, true, true, false)
          .checkScalar(new Object[] {0.8, -1.4, 'c'}, 1, 1e-7);
      new MemberAgreement(user, generated, "overwritten", null, true, false, false)
          .checkScalar(new Object[] {0.7, 'c', (byte) 5}, 1, 1e-7);
    }
  }

  private Ecj compile(String qualifiedName, String source) throws IOException {
    Path sources = directory.resolve("src");
    Path file = sources.resolve(qualifiedName.replace('.', '/') + ".java");
    Files.createDirectories(file.getParent());
    Files.writeString(file, source);
    Path classes = Files.createDirectories(directory.resolve("classes"));
    Path generated = Files.createDirectories(directory.resolve("generated"));

    JavaCompiler ecj = new EclipseCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files =
        ecj.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      JavaCompiler.CompilationTask task = ecj.getTask(null, files, diagnostics, List.of(
              "-17", "-proc:full", "-d", classes.toString(), "-s", generated.toString(),
              "-classpath", System.getProperty("java.class.path")),
          null, files.getJavaFileObjects(file));
      task.setProcessors(
          List.of(GeneratedManifest.recording(new DifferentiableProcessor())));
      boolean succeeded = task.call();
      return new Ecj(succeeded, diagnostics.getDiagnostics(), classes);
    }
  }

  private record Ecj(boolean succeeded, List<Diagnostic<? extends JavaFileObject>> diagnostics,
      Path classes) {
    List<Diagnostic<? extends JavaFileObject>> errors() {
      return diagnostics.stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
          .collect(Collectors.toList());
    }

    List<String> errorMessages() {
      return errors().stream()
          .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + ": "
              + d.getMessage(Locale.ROOT))
          .collect(Collectors.toList());
    }

    /** ECJ's warnings on the generated sources (in files named {@code ...Grad.java}). */
    List<String> generatedCodeWarnings() {
      return diagnostics.stream()
          .filter(d -> d.getKind() == Diagnostic.Kind.WARNING
              || d.getKind() == Diagnostic.Kind.MANDATORY_WARNING)
          .filter(d -> d.getSource() != null && d.getSource().getName().endsWith("Grad.java"))
          .map(d -> d.getSource().getName() + ":" + d.getLineNumber() + ": "
              + d.getMessage(Locale.ROOT))
          .collect(Collectors.toList());
    }

    URLClassLoader loader() throws IOException {
      return new URLClassLoader(new URL[] {classes.toUri().toURL()},
          EcjTest.class.getClassLoader());
    }
  }
}
