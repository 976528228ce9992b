package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The calls of a method run as written that decide whether generated code may run it again
 * (a read-only method: getters, computations on fields) are resolved as Java resolves them.
 *
 * <p>A class of the sources named {@code Math} is not {@code java.lang.Math}. A method run as
 * written that calls {@code Math.log(sd)} of such a class ({@code Model.Math}, whose
 * {@code log} counts its calls) was taken for a read-only one, which generated code may run
 * again: {@code fValueGradientAndHessian} of an order-2 method ran it twice and gave the
 * Hessian of the second result (n = 2.69) beside the value and gradient of the first (n =
 * 3.69). It is an error at the call now, as for any method run as written there; one that
 * calls {@code java.lang.Math.log} stays read-only.
 *
 * <p>A call {@code scale()} in a class that declares {@code scale(int k)} may choose a
 * {@code scale()} it inherits: only the class's own methods of the name were looked at, so a
 * method calling an inherited one that counts its calls was read-only, with the same wrong
 * Hessian (n = 4 beside n = 5). And a name is a field again after the scope of a local of
 * that name ({@code for (int calls = 0; ...) { } calls++;}): the locals of a body were one set,
 * so the field's {@code calls++} was taken for a local's (n = 1.69 beside n = 2.69). An enum's
 * method named as one of {@code Enum}'s final ones ({@code double ordinal(int k)}, counting its
 * calls) was taken for {@code Enum}'s (n = 3 beside n = 4); {@code Enum}'s own stay read-only.
 * A method that a subclass may override (neither it nor its class final) was read-only by its
 * own body, while an object of a subclass runs the override's (n = 1 beside n = 2). An object
 * declared of a final class runs the body the call chose, so such a method is judged by that
 * body there: an inherited getter called on a final class's object, on {@code this} in its
 * instance method, or on a static field of that class.
 */
class ReadOnlyCallsResolvedTest {
  private static List<String> source(String mathClass, String call) {
    List<String> lines = new ArrayList<>(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {"));
    lines.add(mathClass);
    lines.addAll(List.of(
        "  static final class Dist {",
        "    double sd = 2;",
        "    double norm() { return Math.log(sd) + 1; }",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Dist d) {",
        "    return a * a * b * " + call + ";",
        "  }",
        "}"));
    return lines;
  }

  @Test
  void aMethodCallingAClassOfTheSourcesNamedMathIsNotReadOnly() {
    assertSingleError(source("  static final class Math { static int calls;"
            + " static double log(double v) { calls++; return java.lang.Math.log(v) + calls; } }",
            "d.norm()"),
        runsAgainInTheHessianSweeps("d.norm()"),
        12, 30);
  }

  @Test
  void aCallMayChooseAnInheritedMethodOfTheName() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  static class Base { static int calls; double scale() { calls++; return 2 + calls; } }",
        "  static final class Dist extends Base {",
        "    double sd = 2;",
        "    double scale(int k) { return sd * k; }",
        "    double norm() { return scale() + 1; }",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Dist d) {",
        "    return a * a * b * d.norm();",
        "  }",
        "}"),
        runsAgainInTheHessianSweeps("d.norm()"),
        13, 30);
  }

  @Test
  void aNameIsAFieldAgainAfterTheScopeOfALocalOfThatName() {
    // 'calls++' after the loop or block that declared a local 'calls' counts in the field
    for (String scope : List.of("for (int calls = 0; calls < 1; calls++) { }",
        "{ int calls = 0; calls++; }")) {
      assertSingleError(List.of(
          "package com.example;",
          "import ad4j.Differentiable;",
          "import ad4j.NoDerivative;",
          "final class F {",
          "  static final class Dist {",
          "    int calls;",
          "    double sd = 2;",
          "    double norm() { " + scope + " calls++; return Math.log(sd) + calls; }",
          "  }",
          "  @Differentiable(order = 2)",
          "  static double f(double a, double b, @NoDerivative Dist d) {",
          "    return a * a * b * d.norm();",
          "  }",
          "}"),
          runsAgainInTheHessianSweeps("d.norm()"),
          12, 30);
    }
  }

  @Test
  void anEnumsMethodNamedLikeOneOfEnumsIsNotEnums() {
    // 'ordinal(int k)' of the enum, not Enum's final 'ordinal()'
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  enum Op {",
        "    A, B;",
        "    static int calls;",
        "    double ordinal(int k) { calls++; return k + calls; }",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Op op) {",
        "    return a * a * b * op.ordinal(2) + op.ordinal() + op.name().length();",
        "  }",
        "}"),
        runsAgainInTheHessianSweeps("op.ordinal(...)"),
        12, 34);
  }

  @Test
  void aMethodASubclassMayOverrideIsNotReadOnly() {
    // an object of Sub runs Sub.norm, which counts its calls: Dist.norm's body says nothing
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  static class Dist { double sd = 2; double norm() { return Math.log(sd) + 1; } }",
        "  static class Sub extends Dist {",
        "    static int calls;",
        "    @Override double norm() { calls++; return calls; }",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Dist d) {",
        "    return a * a * b * d.norm();",
        "  }",
        "}"),
        runsAgainInTheHessianSweeps("d.norm()"),
        12, 30);
  }

  @Test
  void anInterfacesDefaultMethodIsNotReadOnly() {
    // an object of Counting runs its own k(), which counts its calls: the default body says
    // nothing (mValueGradientAndHessian gave the value and gradient of k = 3 beside the Hessian
    // of k = 2 before OverridableMethods counted interfaces)
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  interface Scale { default double k() { return 1.5; } }",
        "  static final class Counting implements Scale {",
        "    int n;",
        "    @Override public double k() { n++; return 1.0 + n; }",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Scale s) {",
        "    return a * a * b * s.k();",
        "  }",
        "}"),
        runsAgainInTheHessianSweeps("s.k()"),
        12, 27);
  }

  private static final CompiledOnce JAVA_LANG_MATH = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n", source("", "d.norm()"))));

  @Test
  void aMethodCallingJavaLangMathStaysReadOnly() throws Exception {
    Class<?> dist = JAVA_LANG_MATH.get().load("com.example.F$Dist");
    java.lang.reflect.Constructor<?> make = dist.getDeclaredConstructor();
    make.setAccessible(true);
    Object d = make.newInstance();
    Method hessian = JAVA_LANG_MATH.get().load("com.example.FGrad").getDeclaredMethod(
        "fHessian", double.class, double.class, dist);
    hessian.setAccessible(true);
    double[][] h = (double[][]) hessian.invoke(null, 0.7, 0.3, d);
    double n = Math.log(2) + 1;
    assertThat(h[0][0]).isWithin(1e-12).of(2 * 0.3 * n);
    assertThat(h[0][1]).isWithin(1e-12).of(2 * 0.7 * n);
    assertThat(h[1][1]).isEqualTo(0.0);
  }

  private static final CompiledOnce FINAL_RECEIVERS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n", List.of(
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "final class F {",
              "  static class Base { double k = 2; double k() { return k * 1.5; } }",
              "  static final class Derived extends Base {",
              "    double m = 0.25;",
              "    @Differentiable(order = 2)",
              "    double g(double a, double b) { return a * a * b * k() + m; }",
              "  }",
              "  static final Derived D = new Derived();",
              "  @Differentiable(order = 2)",
              "  static double f(double a, double b, @NoDerivative Derived d) {",
              "    return a * a * b * d.k();",
              "  }",
              "  @Differentiable(order = 2)",
              "  static double h(double a, double b) { return a * a * b * D.k(); }",
              "}"))));

  @Test
  void anInheritedMethodOnAFinalClassesObjectIsReadOnlyByTheBodyItRuns() throws Exception {
    // Derived is final and overrides nothing: its objects run Base.k, a getter (k = 3)
    Class<?> derived = FINAL_RECEIVERS.get().load("com.example.F$Derived");
    java.lang.reflect.Constructor<?> make = derived.getDeclaredConstructor();
    make.setAccessible(true);
    Object d = make.newInstance();
    Class<?> grad = FINAL_RECEIVERS.get().load("com.example.FGrad");
    List<double[][]> hessians = new ArrayList<>();
    for (Method hessian : List.of(
        grad.getDeclaredMethod("fHessian", double.class, double.class, derived),
        grad.getDeclaredMethod("hHessian", double.class, double.class))) {
      hessian.setAccessible(true);
      hessians.add((double[][]) (hessian.getParameterCount() == 3
          ? hessian.invoke(null, 0.7, 0.3, d) : hessian.invoke(null, 0.7, 0.3)));
    }
    Class<?> derivedGrad = FINAL_RECEIVERS.get().load("com.example.F_DerivedGrad");
    Method gHessian = derivedGrad.getDeclaredMethod("gHessian", derived, double.class,
        double.class);
    gHessian.setAccessible(true);
    hessians.add((double[][]) gHessian.invoke(null, d, 0.7, 0.3));
    for (double[][] h : hessians) {
      assertThat(h[0][0]).isWithin(1e-12).of(2 * 0.3 * 3);
      assertThat(h[0][1]).isWithin(1e-12).of(2 * 0.7 * 3);
      assertThat(h[1][0]).isWithin(1e-12).of(2 * 0.7 * 3);
      assertThat(h[1][1]).isEqualTo(0.0);
    }
  }

  @Test
  void aFinalClassesOwnOverrideIsJudgedByItsBody() {
    // the call chooses Counting.k, which counts its calls: not Base's getter
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  static class Base { double k = 2; double k() { return k * 1.5; } }",
        "  static final class Counting extends Base {",
        "    int n;",
        "    @Override double k() { n++; return 1.0 + n; }",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Counting c) {",
        "    return a * a * b * c.k();",
        "  }",
        "}"),
        runsAgainInTheHessianSweeps("c.k()"),
        12, 27);
  }

  /** The error at a call that {@code f}'s Hessian sweeps would run once each. */
  private static String runsAgainInTheHessianSweeps(String call) {
    return "call to '" + call + "' runs as written and may give another result or do something"
        + " again each time it runs: mHessian and mValueGradientAndHessian of 'f' make one sweep"
        + " per slot";
  }
}
