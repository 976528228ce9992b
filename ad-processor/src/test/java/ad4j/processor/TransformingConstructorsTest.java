package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Value records whose compact constructor computes the components (DESIGN.md, part 3: "a
 * constructor that transforms values is differentiated like a helper"): {@code new V(a, b)}
 * holds what the constructor's body leaves in its parameters, differentiated through that
 * code. Passed to a {@code @Differentiable} method, such a record is not made again of its
 * components (the constructor would run again on them): callers take the callee's value over
 * the leaves. Returned, it is still an error, for {@code mTangent} would make the record of the
 * tangents with that constructor. Derivatives against differences of the user's own method (or
 * by hand), forward against reverse, the generated code compiling under
 * {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class TransformingConstructorsTest {
  private static final CompiledOnce SCALED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Scaled",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Scaled {",
              "  record V(double a, double b) {",
              "    V {",
              "      double s = a + b;",
              "      a = 2 * a * s;",
              "      b -= Math.sin(a);",
              "    }",
              "    double dot(V o) { return a * o.a + b * o.b; }",
              "    V twice() { return new V(a, b); }",
              "  }",
              "  record W(V v, double c, int n) {",
              "    W { c = c * v.a() + n; }",
              "  }",
              "  @Differentiable(order = 2) static double f(double x, double y) {",
              "    V v = new V(x, y);",
              "    W w = new W(v, x, 3);",
              "    return v.dot(v.twice()) + w.c() * w.v().b();",
              "  }",
              "  @Differentiable static double g(double x, double y) {",
              "    V v = new V(x, y);",
              "    for (int i = 0; i < 3; i++) {",
              "      v = new V(v.b(), 0.5 * v.a());",
              "    }",
              "    return v.a() + v.b();",
              "  }",
              "}")));

  @Test
  void theConstructorsCodeIsDifferentiatedWhereTheRecordIsMade() throws Exception {
    CompiledFunction f = SCALED.get().function("com.example.Scaled", "f", 2);
    Class<?> grad = SCALED.get().load("com.example.ScaledGrad");
    for (double[] point : new double[][] {{0.4, -0.7}, {-1.1, 0.6}}) {
      DerivativeChecks.checkAt(f, point);
      HessianChecks.checkAt(f, grad, point);
    }
  }

  @Test
  void recordsMadeAgainInALoop() {
    CompiledFunction g = SCALED.get().function("com.example.Scaled", "g", 2);
    DerivativeChecks.checkAt(g, 0.4, -0.7);
    DerivativeChecks.checkAt(g, -1.1, 0.6);
  }

  private static Compilation compile(String... lines) {
    return InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.F", String.join("\n", lines)));
  }

  @Test
  void returningSuchARecordStaysAnErrorAtTheReturn() {
    // mTangent returns the record of tangents, made with the constructor, which would change
    // them; and the values, made again of their leaves, would be changed twice
    String[] source = {
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) { V { a = 2 * a; } }",
        "  record W(V v, double c) {}",
        "  @Differentiable static V g(double x, double y) {",
        "    return new V(x * y, y);",
        "  }",
        "  @Differentiable static W h(W w) {",
        "    return new W(w.v(), 2 * w.c());",
        "  }",
        "}"};
    Compilation compilation = compile(source);
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", source));
    assertThat(compilation).hadErrorContaining("'new V(x * y, y)' is returned as value record"
        + " 'V', whose constructor changes its components: the generated members make the"
        + " record of the result's components and of its tangents, and would run its code on"
        + " them again").inFile(file).onLine(7);
    assertThat(compilation).hadErrorContaining("'new W(w.v(), 2 * w.c())' is returned as value"
        + " record 'W', which holds value record 'V', whose constructor changes its components")
        .inFile(file).onLine(10);
    assertThat(compilation.errors()).hasSize(2);
  }

  /**
   * Records whose constructor changes the components, alone and inside another record, passed
   * to {@code @Differentiable} methods of the same class and of another: generated code made
   * them again of their leaves to call the method for its value ({@code use(new W(new V(a, b),
   * c))}), which ran the constructor a second time on what it had changed (the tangent of
   * {@code u * u} took 1.008 where differences give 0.504), and was an error at the call since.
   * Now callers take the value from the callee's member over the leaves.
   */
  private static final CompiledOnce PASSED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Passed",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Passed {",
              "  record V(double a, double b) {",
              "    V {",
              "      if (a < 0) {",
              "        a = -a;",
              "      }",
              "      a = 2 * a + b;",
              "    }",
              "  }",
              "  record W(V v, double c) {}",
              "  @Differentiable static double use(W w) {",
              "    return w.v().a() * w.c() + Math.sin(w.v().b());",
              "  }",
              "  @Differentiable static double twice(V v, double s) { return v.a() * s + v.b(); }",
              "  @Differentiable static double f(double x, double y) {",
              "    W w = new W(new V(x, y), y);",
              "    double u = use(w);",
              "    double t = 0;",
              "    for (int i = 0; i < 2; i++) {",
              "      t += twice(new V(t - x, y), u);",
              "    }",
              "    return u * u + t * use(new W(new V(y, x), x));",
              "  }",
              "  @Differentiable static double g(W w) {",
              "    double u = use(w);",
              "    return u * u;",
              "  }",
              "}",
              "final class Other {",
              "  @Differentiable static double h(double x, double y) {",
              "    double u = Passed.use(new Passed.W(new Passed.V(x, y), x));",
              "    return u * Passed.twice(new Passed.V(y, u), x);",
              "  }",
              "}")));

  @Test
  void suchRecordsPassedToDifferentiableMethodsAreNotMadeAgain() {
    CompiledFunction f = PASSED.get().function("com.example.Passed", "f", 2);
    CompiledFunction h = PASSED.get().function("com.example.Other", "h", 2);
    for (double[] point : new double[][] {{0.4, -0.7}, {-1.1, 0.6}, {0.9, 0.3}}) {
      DerivativeChecks.checkAt(f, point);
      DerivativeChecks.checkAt(h, point);
    }
  }

  @Test
  void aParameterHoldingSuchARecordPassedOn() throws Exception {
    Class<?> user = PASSED.get().load("com.example.Passed");
    Class<?> grad = PASSED.get().load("com.example.PassedGrad");
    Class<?> v = PASSED.get().load("com.example.Passed$V");
    Class<?> w = PASSED.get().load("com.example.Passed$W");
    Object record = Records.make(w, Records.make(v, -0.3, 0.8), 1.7);
    Object direction = Records.make(w, Records.make(v, 0.5, -0.25), 0.75);
    // g(w) = u^2, u = a c + sin(b) of w's components (a = 2 * 0.3 + 0.8 = 1.4, b = 0.8, c = 1.7)
    double a = 1.4;
    double b = 0.8;
    double c = 1.7;
    double u = a * c + Math.sin(b);
    assertThat((Double) Records.call(user, "g", record)).isEqualTo(u * u);
    double[] gradient = (double[]) Records.call(grad, "gGradient", record);
    assertThat(gradient).usingTolerance(1e-13)
        .containsExactly(2 * u * c, 2 * u * Math.cos(b), 2 * u * a).inOrder();
    // the direction's components: da = 2 * 0.5 - 0.25 = 0.75, db = -0.25, dc = 0.75
    double tangent = (Double) Records.call(grad, "gTangent", record, direction);
    assertThat(tangent).isWithin(1e-13)
        .of(gradient[0] * 0.75 + gradient[1] * -0.25 + gradient[2] * 0.75);
  }

  /**
   * A record compiled earlier, whose constructor doubles a component, passed on to a
   * {@code @Differentiable} method: ad4j cannot see its constructor, and generated code made
   * the record again of its leaves to call the method for its value, doubling again ({@code
   * fTangent} gave 1.176 where the derivative is 0.588). Callers take the value over the leaves
   * for such records too.
   */
  @Test
  void aRecordCompiledEarlierPassedOnIsNotMadeAgain(@TempDir Path classes) throws Exception {
    Compilation library = InProcessCompiler.javac().compile(JavaFileObjects.forSourceString(
        "com.lib.V", String.join("\n",
            "package com.lib;",
            "public record V(double a, double b) {",
            "  public V { a = 2 * a; }",
            "}")));
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    Compilation compilation = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .withClasspath(classpath).compile(JavaFileObjects.forSourceString("com.example.F",
            String.join("\n",
                "package com.example;",
                "import ad4j.Differentiable;",
                "import com.lib.V;",
                "final class F {",
                "  @Differentiable static double use(V v) { return v.a() * v.b(); }",
                "  @Differentiable static double f(V v) {",
                "    double u = use(v);",
                "    return u * u;",
                "  }",
                "}")));
    InProcessCompiler.Compiled compiled =
        InProcessCompiler.loadedWithLibrary(compilation, library);
    Class<?> grad = compiled.load("com.example.FGrad");
    Class<?> v = compiled.load("com.lib.V");
    Object record = Records.make(v, 0.3, 0.7); // components a = 0.6, b = 0.7
    double u = 0.6 * 0.7;
    double[] gradient = (double[]) Records.call(grad, "fGradient", record);
    assertThat(gradient).usingTolerance(1e-15)
        .containsExactly(2 * u * 0.7, 2 * u * 0.6).inOrder();
    // the direction's components: (1.0, 0.25)
    double tangent = (Double) Records.call(grad, "fTangent", record,
        Records.make(v, 0.5, 0.25));
    assertThat(tangent).isWithin(1e-15).of(gradient[0] * 1.0 + gradient[1] * 0.25);
  }

  /**
   * The same record passed to a callee compiled earlier with it: the caller takes the callee's
   * value from the member over the leaves its generated class holds.
   */
  @Test
  void aRecordPassedToACalleeCompiledEarlierIsNotMadeAgain(@TempDir Path classes)
      throws Exception {
    Compilation library = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.lib.L", String.join("\n",
            "package com.lib;",
            "import ad4j.Differentiable;",
            "public final class L {",
            "  public record V(double a, double b) { public V { a = 2 * a; } }",
            "  @Differentiable public static double use(V v) { return v.a() * v.b(); }",
            "}")));
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    Compilation compilation = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .withClasspath(classpath).compile(JavaFileObjects.forSourceString("com.example.F",
            String.join("\n",
                "package com.example;",
                "import ad4j.Differentiable;",
                "import com.lib.L;",
                "final class F {",
                "  @Differentiable static double f(L.V v) {",
                "    double u = L.use(v);",
                "    return u * u;",
                "  }",
                "}")));
    InProcessCompiler.Compiled compiled =
        InProcessCompiler.loadedWithLibrary(compilation, library);
    Class<?> grad = compiled.load("com.example.FGrad");
    Class<?> v = compiled.load("com.lib.L$V");
    Object record = Records.make(v, 0.3, 0.7); // components a = 0.6, b = 0.7
    double u = 0.6 * 0.7;
    double[] gradient = (double[]) Records.call(grad, "fGradient", record);
    assertThat(gradient).usingTolerance(1e-15)
        .containsExactly(2 * u * 0.7, 2 * u * 0.6).inOrder();
    double tangent = (Double) Records.call(grad, "fTangent", record,
        Records.make(v, 0.5, 0.25)); // components (1.0, 0.25)
    assertThat(tangent).isWithin(1e-15).of(gradient[0] * 1.0 + gradient[1] * 0.25);
  }

  /**
   * A callee compiled earlier by a version of ad4j that wrote no value over the leaves
   * ({@code useValueFlat}): its callers cannot take its value without making the record again,
   * which its constructor, unseen here, may change; an error at the call.
   */
  @Test
  void aCalleeCompiledEarlierWithoutItsValueOverTheLeavesIsAnErrorAtTheCall(
      @TempDir Path classes) throws Exception {
    // the generated classes as an earlier ad4j wrote them, without the member
    Compilation library = InProcessCompiler.javac("-proc:none").compile(
        JavaFileObjects.forSourceString("com.lib.L", String.join("\n",
            "package com.lib;",
            "import ad4j.Differentiable;",
            "public final class L {",
            "  public record V(double a, double b) { public V { a = 2 * a; } }",
            "  @Differentiable public static double use(V v) { return v.a() * v.b(); }",
            "}")),
        JavaFileObjects.forSourceString("com.lib.LGrad",
            "package com.lib; public final class LGrad { private LGrad() {} }"),
        JavaFileObjects.forSourceString("com.lib.LGradSweeps",
            "package com.lib; public final class LGradSweeps { private LGradSweeps() {} }"));
    assertThat(library).succeeded();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    JavaFileObject caller = JavaFileObjects.forSourceString("com.example.F", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "import com.lib.L;",
        "final class F {",
        "  @Differentiable static double f(L.V v) {",
        "    double u = L.use(v);",
        "    return u * u;",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().withClasspath(classpath).compile(caller);
    assertThat(compilation).hadErrorContaining("call to 'L.use(...)': 'L.use' takes value record"
        + " 'V', whose constructor, compiled without its source here, may change its"
        + " components, and 'com.lib.LGrad', compiled earlier, has no member 'useValueFlat'"
        + " that computes its value of their leaves").inFile(caller).onLine(6);
    assertThat(compilation.errors()).hasSize(1);
  }

  private static final CompiledOnce BRANCHING = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Branching",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Branching {",
              "  record V(double a, double b) {",
              "    V {",
              "      if (b < -50) {",
              "        throw new IllegalArgumentException(\"b is \" + b);",
              "      }",
              "      if (a < 0) {",
              "        a = -a;",
              "      } else if (a > 2) {",
              "        double t = a * b;",
              "        a = 2 + Math.sin(t);",
              "        b = b * a;",
              "      }",
              "      b = b > 1 ? 1 : b * b;",
              "    }",
              "  }",
              "  record W(V v, double c) {",
              "    W {",
              "      if (v.a() > c) {",
              "        v = new V(c, v.b() + c);",
              "      }",
              "      for (int k = 0; k < 2; k++) {",
              "        c = 0.5 * c + Math.cos(c);",
              "      }",
              "    }",
              "  }",
              "  @Differentiable static double f(double x, double y) {",
              "    V v = new V(x, y);",
              "    double s = 0;",
              "    for (int i = 0; i < 3; i++) {",
              "      v = new V(v.b() - 0.3, v.a() * x);",
              "      s += v.a();",
              "    }",
              "    W w = new W(v, y);",
              "    return v.a() * v.b() + s + w.v().a() * w.v().b() + w.c();",
              "  }",
              "}")));

  @Test
  void aConstructorWithBranchesIsDifferentiatedWhereTheRecordIsMade() {
    CompiledFunction f = BRANCHING.get().function("com.example.Branching", "f", 2);
    // through each branch of V's constructor (a < 0, a > 2, neither; b over 1 or not) and W's
    for (double[] point : new double[][] {
        {-0.7, 0.4}, {2.5, 0.3}, {0.6, 0.45}, {1.3, -0.8}, {0.5, 1.5}, {-0.4, 1.2}}) {
      DerivativeChecks.checkAt(f, point);
    }
  }

  @Test
  void aCheckInSuchAConstructorThrowsWhereTheUsersCodeThrows() throws Exception {
    Class<?> user = BRANCHING.get().load("com.example.Branching");
    Class<?> grad = BRANCHING.get().load("com.example.BranchingGrad");
    java.lang.reflect.Method f = user.getDeclaredMethod("f", double.class, double.class);
    f.setAccessible(true);
    java.lang.reflect.Method gradient = grad.getDeclaredMethod("fGradient", double.class,
        double.class);
    gradient.setAccessible(true);
    Throwable expected = org.junit.jupiter.api.Assertions.assertThrows(
        java.lang.reflect.InvocationTargetException.class, () -> f.invoke(null, 0.5, -60.0))
        .getCause();
    Throwable thrown = org.junit.jupiter.api.Assertions.assertThrows(
        java.lang.reflect.InvocationTargetException.class, () -> gradient.invoke(null, 0.5, -60.0))
        .getCause();
    assertThat(expected).isInstanceOf(IllegalArgumentException.class);
    assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
    assertThat(thrown).hasMessageThat().isEqualTo(expected.getMessage());
  }

  @Test
  void aConstructorThatAlwaysThrowsIsAnErrorWhereTheRecordIsMade() {
    String[] source = {
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {",
        "    V {",
        "      a = 2 * a;",
        "      throw new IllegalStateException();",
        "    }",
        "  }",
        "  @Differentiable static double f(double x, double y) {",
        "    V v = new V(x, y);",
        "    return v.a() * v.b();",
        "  }",
        "}"};
    Compilation compilation = compile(source);
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", source));
    assertThat(compilation).hadErrorContaining("'new V(...)': the constructor of value record"
        + " 'V' always throws").inFile(file).onLine(11);
    assertThat(compilation.errors()).hasSize(1);
  }
}
