package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
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
 * Value records whose compact constructor computes the components (DESIGN.md, part 3: "a
 * constructor that transforms values is differentiated like a helper"): {@code new V(a, b)}
 * holds what the constructor's body leaves in its parameters, differentiated through that
 * code. Where generated code would have to make such a record again of its components (passed
 * to a {@code @Differentiable} method, returned) the constructor would run again on them: still
 * an error there. Derivatives against differences of the user's own method, forward against
 * reverse, the generated code compiling under {@code -Xlint:all -Werror}.
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
  void passingOrReturningSuchARecordStaysAnErrorAtTheCallAndTheReturn() {
    String[] source = {
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) { V { a = 2 * a; } }",
        "  @Differentiable static double use(V v) { return v.a() * v.b(); }",
        "  @Differentiable static double f(double x, double y) {",
        "    return use(new V(x, y));",
        "  }",
        "  @Differentiable static V g(double x, double y) {",
        "    return new V(x * y, y);",
        "  }",
        "}"};
    Compilation compilation = compile(source);
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", source));
    assertThat(compilation).hadErrorContaining("call to 'use(...)': 'F.use' takes value record"
        + " 'V', whose constructor changes its components: generated code makes the record"
        + " again of its components to call 'F.use', and would run the constructor's code on"
        + " them again").inFile(file).onLine(7);
    assertThat(compilation).hadErrorContaining("'new V(x * y, y)' is returned as value record"
        + " 'V', whose constructor changes its components").inFile(file).onLine(10);
    assertThat(compilation.errors()).hasSize(2);
  }

  @Test
  void aRecordHoldingSuchARecordIsNotMadeAgainEither() {
    // generated code called use(new W(new V(a, b), c)), the inner constructor doubling 'a'
    // again: the tangent of f took use's value at the wrong point (1.008 where differences of f
    // give 0.504)
    String[] source = {
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) { V { a = 2 * a; } }",
        "  record W(V v, double c) {}",
        "  @Differentiable static double use(W w) { return w.v().a() * w.c(); }",
        "  @Differentiable static double f(W w) {",
        "    double u = use(w);",
        "    return u * u;",
        "  }",
        "  @Differentiable static W g(W w) {",
        "    return new W(w.v(), 2 * w.c());",
        "  }",
        "}"};
    Compilation compilation = compile(source);
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", source));
    assertThat(compilation).hadErrorContaining("call to 'use(...)': 'F.use' takes value record"
        + " 'W', which holds value record 'V', whose constructor changes its components")
        .inFile(file).onLine(8);
    assertThat(compilation).hadErrorContaining("'new W(w.v(), 2 * w.c())' is returned as value"
        + " record 'W', which holds value record 'V', whose constructor changes its components")
        .inFile(file).onLine(12);
    assertThat(compilation.errors()).hasSize(2);
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
