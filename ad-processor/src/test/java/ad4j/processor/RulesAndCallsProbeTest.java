package ad4j.processor;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An adversarial hunt for silently wrong derivatives in the derivative rules and where they are
 * found: every {@code Math} and {@code StrictMath} function ad4j differentiates, at points of
 * its domain and near its edges, to second order; {@code @DerivativeOf} rules in other classes,
 * for overloads, for array and variable arity parameters, beside {@code @Differentiable}
 * targets; calls across classes (hidden static methods, static imports, overloads chosen by
 * the argument's type, generic and interface static methods, classes compiled earlier). Every
 * member against differences of order 8 of the user's own method and forward against reverse
 * ({@link MemberAgreement}).
 */
@ExtendWith(TapeIsEmpty.class)
class RulesAndCallsProbeTest {

  /** A function of (x, y) written with one math function, and the points to check it at. */
  private record Case(String name, String body, double[][] points) {}

  private static double[][] at(double... xy) {
    double[][] points = new double[xy.length / 2][];
    for (int i = 0; i < points.length; i++) {
      points[i] = new double[] {xy[2 * i], xy[2 * i + 1]};
    }
    return points;
  }

  private static final List<Case> MATH = List.of(
      new Case("sin", "return M.sin(x * y) + M.cos(x - y) + M.tan(0.5 * x + 0.1 * y);",
          at(0.3, 0.7, -1.2, 0.4, 2.5, -0.6)),
      new Case("asinAcos", "return M.asin(x) * y + M.acos(0.5 * y) + M.atan(x * y);",
          at(0.2, 0.4, -0.9, 1.7, 0.93, -1.8, 0.0, 0.0)),
      new Case("atan2", "return M.atan2(x, y) * (1 + 0.1 * x);",
          at(0.5, 0.7, 0.5, -0.7, -0.5, -0.7, -0.5, 0.7, 0.3, -2.0, 3.0, 1e-3, -2.0, -1e-3)),
      new Case("atan2Swapped", "return M.atan2(y * y + 0.1, x) + M.atan2(-y, x * x + 1);",
          at(0.5, 0.7, -0.5, -0.7)),
      new Case("hyperbolic", "return M.sinh(x) * M.cosh(y) + M.tanh(x * y);",
          at(0.3, 0.7, -1.2, 0.4, 3.0, -2.0)),
      new Case("expLog", "return M.exp(x) * M.log(y) + M.log10(x * y) + M.expm1(x - y)"
          + " + M.log1p(x * y);", at(0.3, 0.7, 1.2, 2.4, 0.5, 0.05)),
      new Case("roots", "return M.sqrt(x * y) + M.cbrt(x - y) + M.cbrt(x);",
          at(0.3, 0.7, 1.2, 2.4, 0.2, 0.5, -0.3, -0.9)),
      new Case("powBoth", "return M.pow(x, y);",
          at(0.3, 0.7, 1.2, -2.4, 2.0, 0.0, 0.5, 3.0, 3.0, 1.0)),
      new Case("powIntegerExponent", "return M.pow(x, 3) * y + M.pow(x, -2) + M.pow(y, 2);",
          at(-0.7, 0.3, -1.3, -0.4, 0.8, 2.0)),
      new Case("powHalf", "return M.pow(x, 0.5) * y + M.pow(y * y, 1.5) + M.pow(x, 1.0);",
          at(0.7, 0.3, 1.3, -0.4)),
      new Case("powZeroAndOne", "return M.pow(x, 0) * y + M.pow(x * y, 0.0) + M.pow(x, 1) * y;",
          at(0.7, 0.3, -1.3, -0.4)),
      new Case("powConstantBase", "return M.pow(2.0, x * y) + M.pow(0.5, x) + M.pow(10, y);",
          at(0.7, 0.3, -1.3, -0.4)),
      new Case("powNegativeBaseCube", "return M.pow(x - 2, 3.0) * y;",
          at(0.7, 0.3, -1.3, -0.4)),
      new Case("hypot", "return M.hypot(x, y) + M.hypot(x * y, 3.0);",
          at(0.3, 0.7, -1.2, 0.4, 3.0, -4.0)),
      new Case("fma", "return M.fma(x, y, x * x) + M.fma(2.0, x, y) + M.fma(x, 3.0, y * y);",
          at(0.3, 0.7, -1.2, 0.4)),
      new Case("copySign", "return M.copySign(x * y, y) + M.copySign(x, -2.0) * y"
          + " + M.copySign(2.0, x) * x;", at(0.3, 0.7, -1.2, 0.4, 1.5, -0.8, -0.7, -0.2)),
      new Case("scalb", "return M.scalb(x * y, 3) + M.scalb(x, -2) * y;",
          at(0.3, 0.7, -1.2, 0.4)),
      new Case("remainders", "return M.IEEEremainder(x, y) + x % y + (3 * x) % 1.0;",
          at(2.3, 0.7, -3.6, 1.3, 7.1, -2.1)),
      new Case("kinks", "return M.abs(x) * y + M.max(x, y) * x + M.min(x * x, y);",
          at(0.3, 0.7, -1.2, 0.4, 2.0, -1.0)),
      new Case("piecewiseConstant", "return M.floor(x) * y + M.ceil(y) * x + M.rint(x * y)"
          + " + M.signum(x) * y * y;", at(0.3, 0.7, -1.2, 0.4, 2.3, -1.7)),
      new Case("angles", "return M.toRadians(x * y) + M.toDegrees(x) * y;",
          at(0.3, 0.7, -1.2, 0.4)),
      new Case("nested", "return M.exp(M.sin(x) * M.sqrt(y)) / M.hypot(x, M.atan2(y, x));",
          at(0.3, 0.7, -1.2, 0.4)));

  private static String source(String owner, List<Case> cases) {
    List<String> lines = new ArrayList<>(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class " + owner + "Functions {"));
    for (Case c : cases) {
      lines.add("  @Differentiable(order = 2) static double " + c.name()
          + "(double x, double y) { " + c.body().replace("M.", owner + ".") + " }");
    }
    lines.add("}");
    return String.join("\n", lines);
  }

  /**
   * Each function of {@code Math} and {@code StrictMath} with a rule, in expressions of two
   * active parameters: values, gradients, tangents, pullbacks and Hessians against
   * differences, at points in every quadrant, near 0 and near the edges of domains.
   */
  @Test
  void everyMathFunctionToSecondOrder() throws Exception {
    for (String owner : List.of("Math", "StrictMath")) {
      InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
          List.of("-Xlint:all", "-Werror"), "com.example." + owner + "Functions",
          source(owner, MATH));
      for (Case c : MATH) {
        MemberAgreement method = MemberAgreement.of(compiled,
            "com.example." + owner + "Functions", c.name(), true, true);
        method.checkScalarAt(c.points(), 2, 1e-7);
      }
    }
  }

  // ---- @DerivativeOf rules: which method a rule is for -----------------------------------

  /**
   * Targets whose bodies ad4j cannot differentiate (their value goes through a boxed list), so
   * that only their rules give derivatives: a static method and the one of a subclass that
   * hides it, each with a rule of its own class (the subclass's rule hides the base's too).
   */
  private static final String HIDDEN_BASE = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "class Base {",
      "  static double f(double x) {",
      "    java.util.List<Double> box = java.util.List.of(x);",
      "    return Math.sin(box.get(0));",
      "  }",
      "  @ad4j.Differentiable @DerivativeOf(\"f\") static double fDerivative(double x) { return Math.cos(x); }",
      "}");

  private static final String HIDDEN_SUB = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "final class Sub extends Base {",
      "  static double f(double x) {",
      "    java.util.List<Double> box = java.util.List.of(x);",
      "    return box.get(0) * box.get(0) * box.get(0);",
      "  }",
      "  @ad4j.Differentiable @DerivativeOf(\"f\") static double fDerivative(double x) { return 3 * x * x; }",
      "}");

  private static final String HIDDEN_CALLER = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class HidingCaller {",
      "  @Differentiable(order = 2) static double both(double x, double y) {",
      "    return Sub.f(x * y) + 10 * Base.f(x - y);",
      "  }",
      "  @Differentiable(order = 2) static double sub(double x, double y) {",
      "    return Sub.f(x) * y;",
      "  }",
      "  @Differentiable(order = 2) static double base(double x, double y) {",
      "    return Base.f(x) * y;",
      "  }",
      "}");

  @Test
  void aHiddenStaticMethodAndTheOneHidingItEachUseTheirOwnRule() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Base", HIDDEN_BASE,
        "com.example.Sub", HIDDEN_SUB, "com.example.HidingCaller", HIDDEN_CALLER);
    for (String name : List.of("both", "sub", "base")) {
      MemberAgreement.of(compiled, "com.example.HidingCaller", name, true, true)
          .checkScalarAt(new double[][] {{0.3, 0.7}, {-1.2, 0.4}}, 2, 1e-7);
    }
  }

  /**
   * A rule on a method that is {@code @Differentiable} itself (a straight-through estimator:
   * the body's derivative is 0, the rule's 1), and a rule for {@code Math.floor}: every way of
   * calling them uses the rule (a direct call, a static import, a method reference, a lambda,
   * a stream's map), or is an error.
   */
  private static final String STRAIGHT_THROUGH = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Straight {",
      "  @Differentiable static double q(double x) { return Math.floor(x); }",
      "  @Differentiable @DerivativeOf(\"q\") static double qDerivative(double x) { return 1; }",
      "  @Differentiable static double direct(double x) { return q(x) * x; }",
      "  @Differentiable static double qualified(double x) { return Straight.q(x) * x; }",
      "  @Differentiable static double reference(double x) {",
      "    DoubleUnaryOperator op = Straight::q;",
      "    return op.applyAsDouble(x) * x;",
      "  }",
      "  @Differentiable static double lambda(double x) {",
      "    DoubleUnaryOperator op = t -> q(t);",
      "    return op.applyAsDouble(x) * x;",
      "  }",
      "  @Differentiable static double stream(double[] a) {",
      "    return java.util.Arrays.stream(a).map(Straight::q).sum() * a[0];",
      "  }",
      "  @Differentiable static double apply(DoubleUnaryOperator f, double x) { return f.applyAsDouble(x); }",
      "  @Differentiable static double template(double x) {",
      "    return apply(Straight::q, x) * x;",
      "  }",
      "}");

  @Test
  void aRuleOnADifferentiableMethodIsUsedByEveryKindOfCall() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Straight", STRAIGHT_THROUGH);
    for (double x : new double[] {0.3, 1.7, -2.4}) {
      // q' taken as 1: d/dx (q(x) x) = x + floor(x)
      double expected = x + Math.floor(x);
      for (String name : List.of("direct", "qualified", "reference", "lambda", "template")) {
        double[] gradient = (double[]) compiled.invoke("com.example.StraightGrad",
            name + "Gradient", x);
        org.junit.jupiter.api.Assertions.assertEquals(expected, gradient[0], 1e-12,
            name + " at " + x);
        double tangent = (double) compiled.invoke("com.example.StraightGrad",
            name + "Tangent", x, 1.0);
        org.junit.jupiter.api.Assertions.assertEquals(expected, tangent, 1e-12,
            name + " tangent at " + x);
      }
    }
    double[] a = {0.3, 1.7, -2.4};
    double[] gradient = (double[]) compiled.invoke("com.example.StraightGrad",
        "streamGradient", (Object) a);
    double sum = Math.floor(0.3) + Math.floor(1.7) + Math.floor(-2.4);
    org.junit.jupiter.api.Assertions.assertArrayEquals(
        new double[] {sum + 0.3, 0.3, 0.3}, gradient, 1e-12);
  }

  private static final String FLOOR_RULE = String.join("\n",
      "package com.example;",
      "import static java.lang.Math.floor;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Floors {",
      "  @DerivativeOf(owner = Math.class, value = \"floor\")",
      "  static double floorStraightThrough(double x) { return 1; }",
      "  @Differentiable static double direct(double x) { return Math.floor(x) * x; }",
      "  @Differentiable static double imported(double x) { return floor(x) * x; }",
      "  @Differentiable static double reference(double x) {",
      "    DoubleUnaryOperator op = Math::floor;",
      "    return op.applyAsDouble(x) * x;",
      "  }",
      "  @Differentiable static double lambda(double x) {",
      "    DoubleUnaryOperator op = t -> Math.floor(t);",
      "    return op.applyAsDouble(x) * x;",
      "  }",
      "  @Differentiable static double apply(DoubleUnaryOperator f, double x) { return f.applyAsDouble(x); }",
      "  @Differentiable static double template(double x) {",
      "    return apply(Math::floor, x) * x;",
      "  }",
      "  @Differentiable static double stream(double[] a) {",
      "    return java.util.Arrays.stream(a).map(Math::floor).sum() * a[0];",
      "  }",
      "}");

  @Test
  void aRuleForMathFloorIsUsedByEveryKindOfCall() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Floors", FLOOR_RULE);
    for (double x : new double[] {0.3, 1.7, -2.4}) {
      double expected = x + Math.floor(x);
      for (String name : List.of("direct", "imported", "reference", "lambda", "template")) {
        double[] gradient = (double[]) compiled.invoke("com.example.FloorsGrad",
            name + "Gradient", x);
        org.junit.jupiter.api.Assertions.assertEquals(expected, gradient[0], 1e-12,
            name + " at " + x);
        double tangent = (double) compiled.invoke("com.example.FloorsGrad",
            name + "Tangent", x, 1.0);
        org.junit.jupiter.api.Assertions.assertEquals(expected, tangent, 1e-12,
            name + " tangent at " + x);
      }
    }
    double[] a = {0.3, 1.7, -2.4};
    double[] gradient = (double[]) compiled.invoke("com.example.FloorsGrad",
        "streamGradient", (Object) a);
    double sum = Math.floor(0.3) + Math.floor(1.7) + Math.floor(-2.4);
    org.junit.jupiter.api.Assertions.assertArrayEquals(
        new double[] {sum + 0.3, 0.3, 0.3}, gradient, 1e-12);
  }

  /**
   * A static method {@code f(Foo, double)} and an instance method {@code f(double)} of the same
   * class: a rule {@code (Foo, double)} fits both (an instance target's rule takes the receiver
   * first), and which one it is for cannot be told. Before the fix the rule went to the last
   * one declared, here the instance method, whose calls then took the static one's partial
   * {@code 2 k x} for their own {@code k cos(x)}: at x = 0.3 with k = 1.5 the gradient of
   * {@code viaInstance} was 0.9 against differences of 1.433, without a word; the static
   * method's call, left without a rule, was an error saying to give one with @DerivativeOf.
   * Now the rule is an error saying why and what to do.
   */
  @Test
  void aRuleThatFitsAStaticAndAnInstanceMethodIsAnErrorAtTheRule() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class Foo {",
        "  static final Foo ONE = new Foo(1.5);",
        "  final double k;",
        "  Foo(double k) { this.k = k; }",
        "  static double f(Foo a, double x) {",
        "    java.util.List<Double> box = java.util.List.of(x);",
        "    return a.k * box.get(0) * box.get(0);",
        "  }",
        "  double f(double x) {",
        "    java.util.List<Double> box = java.util.List.of(x);",
        "    return k * Math.sin(box.get(0));",
        "  }",
        "  @DerivativeOf(\"f\") static double fDerivative(Foo a, double x) { return 2 * a.k * x; }",
        "  @Differentiable static double viaInstance(double x) { return ONE.f(x); }",
        "}");
    javax.tools.JavaFileObject file = com.google.testing.compile.JavaFileObjects
        .forSourceLines("com.example.Foo", lines);
    com.google.testing.compile.Compilation compilation = InProcessCompiler.javac().compile(file);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorContaining(
        "ad4j: @DerivativeOf rule 'fDerivative': its parameters (com.example.Foo, double) fit"
        + " 'Foo.f(com.example.Foo, double)' (static) and 'Foo.f(double)' (an instance method,"
        + " whose rules take the receiver first), and ad4j cannot tell which one it is for;"
        + " rename one of them").inFile(file).onLine(16)
        .atColumn(lines.get(15).indexOf("fDerivative") + 1);
    // the call finds no rule now, and says so at the call
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorContaining(
        "call to 'ONE.f(...)' is not differentiable").inFile(file).onLine(17);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorCount(2);
  }

  /**
   * Variable arity targets with rules for their array parameter, called with elements one by
   * one, with none, with one, with an array, through method references. Before the fix the
   * elements were passed as the target's parameters one for one: {@code weighted(x * y)} took
   * the array's partial for a number and dropped it ({@code one} at (0.3, 0.7): gradient 0.7
   * against differences of 0.994, without a word), and {@code weighted(x, y * x, 3.0)} and
   * {@code weighted()} were internal errors; now the call makes the array Java makes, which
   * the target and its rule take. An array whose elements are all constants needs no rule.
   */
  private static final String VARIABLE_ARITY = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class Sums {",
      "  static double weighted(double... xs) {",
      "    java.util.List<Double> box = new java.util.ArrayList<>();",
      "    for (double x : xs) box.add(x);",
      "    double s = 0;",
      "    for (int i = 0; i < box.size(); i++) s += (i + 1) * box.get(i) * box.get(i);",
      "    return s;",
      "  }",
      "  @DerivativeOf(\"weighted\") static double[] weightedDerivative(double... xs) {",
      "    double[] d = new double[xs.length];",
      "    for (int i = 0; i < xs.length; i++) d[i] = 2 * (i + 1) * xs[i];",
      "    return d;",
      "  }",
      "  static double scaled(double c, double... xs) {",
      "    java.util.List<Double> box = new java.util.ArrayList<>();",
      "    for (double x : xs) box.add(x);",
      "    double s = 0;",
      "    for (int i = 0; i < box.size(); i++) s += (i + 1) * box.get(i);",
      "    return c * s;",
      "  }",
      "  @DerivativeOf(value = \"scaled\", wrt = \"c\") static double scaledC(double c, double... xs) {",
      "    double s = 0;",
      "    for (int i = 0; i < xs.length; i++) s += (i + 1) * xs[i];",
      "    return s;",
      "  }",
      "  @DerivativeOf(value = \"scaled\", wrt = \"xs\")",
      "  static double[] scaledXs(double c, double... xs) {",
      "    double[] d = new double[xs.length];",
      "    for (int i = 0; i < xs.length; i++) d[i] = c * (i + 1);",
      "    return d;",
      "  }",
      "  @Differentiable static double elements(double x, double y) {",
      "    return weighted(x, y * x, 3.0) + scaled(y, x, x * y);",
      "  }",
      "  @Differentiable static double one(double x, double y) {",
      "    return weighted(x * y) + scaled(x, y);",
      "  }",
      "  @Differentiable static double none(double x, double y) {",
      "    return weighted() + scaled(x * y) + x;",
      "  }",
      "  @Differentiable static double array(double x, double y) {",
      "    double[] a = {x, y, x * y};",
      "    return weighted(a) + scaled(x, a);",
      "  }",
      "  static double lin(double c, double... xs) {",
      "    java.util.List<Double> box = java.util.List.of(c);",
      "    return box.get(0) * xs.length;",
      "  }",
      "  @DerivativeOf(value = \"lin\", wrt = \"c\") static double linC(double c, double... xs) {",
      "    return xs.length;",
      "  }",
      "  @Differentiable static double constants(double x, double y) {",
      "    return lin(x * y, 1.0, 2.0) + lin(y) + lin(x, new double[] {1, 2, 3});",
      "  }",
      "  @Differentiable static double reference(double x, double y) {",
      "    java.util.function.DoubleUnaryOperator op = Sums::weighted;",
      "    java.util.function.DoubleBinaryOperator two = Sums::weighted;",
      "    return op.applyAsDouble(x * y) + two.applyAsDouble(x, y);",
      "  }",
      "  @Differentiable static double made(double x, double y) {",
      "    return weighted(new double[] {y, x}) + scaled(y, new double[] {x * x, y});",
      "  }",
      "}");

  @Test
  void aVariableArityTargetsRuleSeesTheElementsAsAnArray() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Sums", VARIABLE_ARITY);
    for (String name : List.of("array", "made", "one", "elements", "none", "constants",
        "reference")) {
      MemberAgreement.of(compiled, "com.example.Sums", name, true, true)
          .checkScalarAt(new double[][] {{0.3, 0.7}, {-1.2, 0.4}}, 1, 1e-7);
    }
  }

  /**
   * Targets in an interface (static), in a nested class and in a generic class, their rules
   * in the caller's class with {@code owner}.
   */
  private static final String OWNERS = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "interface Shapes {",
      "  static double bump(double x) {",
      "    java.util.List<Double> box = java.util.List.of(x);",
      "    return Math.exp(-box.get(0) * box.get(0));",
      "  }",
      "  final class Inner {",
      "    static double cube(double x) {",
      "      java.util.List<Double> box = java.util.List.of(x);",
      "      return box.get(0) * box.get(0) * box.get(0);",
      "    }",
      "  }",
      "}");

  private static final String GENERIC_OWNER = String.join("\n",
      "package com.example;",
      "final class Holder<T> {",
      "  static double twice(double x) {",
      "    java.util.List<Double> box = java.util.List.of(x);",
      "    return 2 * box.get(0) + Math.sin(box.get(0));",
      "  }",
      "  static <U> U same(U u) { return u; }",
      "}");

  private static final String OWNERS_CALLER = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import static com.example.Shapes.Inner.cube;",
      "final class OwnersCaller {",
      "  @DerivativeOf(owner = Shapes.class, value = \"bump\")",
      "  static double bumpDerivative(double x) { return -2 * x * Math.exp(-x * x); }",
      "  @DerivativeOf(owner = Shapes.Inner.class, value = \"cube\")",
      "  static double cubeDerivative(double x) { return 3 * x * x; }",
      "  @DerivativeOf(owner = Holder.class, value = \"twice\")",
      "  static double twiceDerivative(double x) { return 2 + Math.cos(x); }",
      "  @Differentiable static double g(double x, double y) {",
      "    return Shapes.bump(x * y) + Shapes.Inner.cube(y) + cube(x) + Holder.twice(x - y);",
      "  }",
      "}");

  @Test
  void rulesForTargetsOfInterfacesNestedAndGenericClasses() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Shapes", OWNERS,
        "com.example.Holder", GENERIC_OWNER, "com.example.OwnersCaller", OWNERS_CALLER);
    MemberAgreement.of(compiled, "com.example.OwnersCaller", "g", true, true)
        .checkScalarAt(new double[][] {{0.3, 0.7}, {-1.2, 0.4}}, 1, 1e-7);
  }

  /**
   * A value record's own methods with {@code @DerivativeOf} rules (straight-through estimators:
   * the code's derivative is 0, the rule's 1). ad4j inlines a record's methods; before the fix
   * it did so for these too and ignored their rules without a word: {@code Vec.step(t) * a} at
   * (0.3, 0.7) had gradient (0, 0) where the rule gives (0, 0.3). A static one now uses its
   * rules, also when called unqualified from the record's own code that ad4j inlines (where
   * the caller's class has a method of the same name, which must not be taken).
   */
  private static final String RECORD_RULES = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class RecordRules {",
      "  record Vec(double x, double y) {",
      "    static double step(double t) { return Math.floor(t); }",
      "    double scaledStep(double t) { return x * step(t) + y; }",
      "  }",
      "  @DerivativeOf(owner = Vec.class, value = \"step\")",
      "  static double stepStraightThrough(double t) { return 1; }",
      "  static double step(double t) { return 100 * t; }",
      "  @Differentiable static double qualified(double a, double t) {",
      "    return Vec.step(t) * a;",
      "  }",
      "  @Differentiable static double inlined(double a, double t) {",
      "    Vec v = new Vec(a, 2 * a);",
      "    return v.scaledStep(t);",
      "  }",
      "}");

  @Test
  void aStaticMethodOfAValueRecordUsesItsRules() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.RecordRules", RECORD_RULES);
    for (double[] p : new double[][] {{0.3, 0.7}, {-1.2, 2.4}}) {
      double a = p[0];
      double t = p[1];
      // step' taken as 1: d(step(t) a) = (floor(t), a); d(a step(t) + 2a) = (floor(t) + 2, a)
      double[][] expected = {{Math.floor(t), a}, {Math.floor(t) + 2, a}};
      List<String> names = List.of("qualified", "inlined");
      for (int m = 0; m < names.size(); m++) {
        String name = names.get(m);
        double[] gradient = (double[]) compiled.invoke("com.example.RecordRulesGrad",
            name + "Gradient", a, t);
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected[m], gradient, 1e-12,
            name + " at " + a + ", " + t);
        double tangent = (double) compiled.invoke("com.example.RecordRulesGrad",
            name + "Tangent", a, t, 0.25, -0.5);
        org.junit.jupiter.api.Assertions.assertEquals(
            0.25 * expected[m][0] - 0.5 * expected[m][1], tangent, 1e-12, name + " tangent");
        double[] adjoints = {1, 2};
        compiled.invoke("com.example.RecordRulesGrad", name + "Pullback", a, t, 3.0, adjoints);
        org.junit.jupiter.api.Assertions.assertArrayEquals(
            new double[] {1 + 3 * expected[m][0], 2 + 3 * expected[m][1]}, adjoints, 1e-12,
            name + " pullback");
      }
    }
  }

  /**
   * An instance method of a value record with a rule, called on a record that carries
   * derivatives: the rule takes the receiver as an object without derivative, so ad4j cannot
   * use it; before the fix the method's code was inlined and the rule ignored (gradient
   * (2.0, 0) at (0.3, 0.7) where the rule gives (2.0, 0.3) in the t slot, as the code's
   * derivative x floor'(t) is 0), now the call is an error that says why and what to do.
   */
  @Test
  void anInstanceMethodOfAValueRecordWithRulesIsAnErrorAtTheCall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class RecordRule {",
        "  record Vec(double x, double y) {",
        "    double dot(double t) { return x * Math.floor(t) + y; }",
        "  }",
        "  @DerivativeOf(owner = Vec.class, value = \"dot\", wrt = \"t\")",
        "  static double dotT(Vec v, double t) { return v.x(); }",
        "  @Differentiable static double g(double a, double t) {",
        "    Vec v = new Vec(a, 2 * a);",
        "    return v.dot(t);",
        "  }",
        "}");
    javax.tools.JavaFileObject file = com.google.testing.compile.JavaFileObjects
        .forSourceLines("com.example.RecordRule", lines);
    com.google.testing.compile.Compilation compilation = InProcessCompiler.javac().compile(file);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorContaining(
        "ad4j: call to 'v.dot(...)': 'Vec.dot' has @DerivativeOf rules, which take its receiver"
        + " as an object that carries no derivative, but here the receiver is value record"
        + " 'Vec', whose components ad4j differentiates, so ad4j cannot use them; remove the"
        + " rules, for ad4j to differentiate the method's code, or give the rules to a static"
        + " method that takes the components as parameters").inFile(file).onLine(12)
        .atColumn(lines.get(11).indexOf("(t)") + 1);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorCount(1);
  }

  /**
   * The {@code float} overloads of {@code Math}'s functions with rules ({@code abs},
   * {@code max}, {@code min}, {@code copySign}, {@code scalb}, {@code signum}, {@code fma}),
   * {@code double} functions of {@code float} arguments, {@code %} and {@code round} of floats,
   * and {@code max} of a {@code float} and a {@code double}: against differences of the user's
   * method (in {@code float}, so to a tolerance of 1e-4).
   */
  @Test
  void floatOverloadsOfMathFunctions() throws Exception {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Floats {",
        "  @Differentiable(order = 2) static float a(float x, float y) {",
        "    return Math.abs(x) * y + Math.max(x, y) * x + Math.min(x * x, y);",
        "  }",
        "  @Differentiable(order = 2) static float b(float x, float y) {",
        "    return Math.copySign(x * y, y) + Math.scalb(x, 2) * y + Math.signum(x) * y;",
        "  }",
        "  @Differentiable(order = 2) static float c(float x, float y) {",
        "    return Math.fma(x, y, x * x) + Math.fma(x, 3, y);",
        "  }",
        "  @Differentiable(order = 2) static float d(float x, float y) {",
        "    return (float) Math.sin(x) * y + x % y + Math.round(x) * y;",
        "  }",
        "  @Differentiable(order = 2) static double e(float x, double y) {",
        "    return Math.max(x, y) + Math.pow(x, 2) * y + Math.hypot(x, y);",
        "  }",
        "}");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Floats", source);
    for (String name : List.of("a", "b", "c", "d")) {
      MemberAgreement method = MemberAgreement.of(compiled, "com.example.Floats", name,
          true, true);
      method.checkScalar(new Object[] {0.3f, 0.7f}, 1, 1e-4);
      method.checkScalar(new Object[] {-1.1f, 0.4f}, 1, 1e-4);
    }
    MemberAgreement e = MemberAgreement.of(compiled, "com.example.Floats", "e", true, true);
    e.checkScalar(new Object[] {0.3f, 0.7}, 1, 1e-4);
    e.checkScalar(new Object[] {-1.1f, 0.4}, 1, 1e-4);
  }

  /**
   * At order 2 the tangent of a rule's partial comes from the rule's own generated members,
   * which differentiate its code. A rule that has rules of its own: calls of it from an order-1
   * method use them, and before the fix the order-2 method differentiated its code instead,
   * without a word: here {@code fD} is {@code 3x² + floor(x)} with the rule {@code fDD = 6x +
   * 1}; {@code firstGradient} at 0.7 is 5.2 (the rule) while {@code gHessian} was 4.2 (the
   * code). Now the order-2 call is an error saying so.
   */
  @Test
  void aRuleWithRulesOfItsOwnUsedAtOrderTwoIsAnErrorAtTheCall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class RuleOfRule {",
        "  static double f(double x) {",
        "    java.util.List<Double> b = java.util.List.of(x);",
        "    return b.get(0) * b.get(0) * b.get(0);",
        "  }",
        "  @Differentiable @DerivativeOf(\"f\")",
        "  static double fD(double x) { return 3 * x * x + Math.floor(x); }",
        "  @DerivativeOf(\"fD\") static double fDD(double x) { return 6 * x + 1; }",
        "  @Differentiable static double first(double x) { return fD(x); }",
        "  @Differentiable(order = 2) static double g(double x) { return f(x); }",
        "}");
    javax.tools.JavaFileObject file = com.google.testing.compile.JavaFileObjects
        .forSourceLines("com.example.RuleOfRule", lines);
    com.google.testing.compile.Compilation compilation = InProcessCompiler.javac().compile(file);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorContaining(
        "ad4j: call to 'f(...)' from method 'g', which is @Differentiable(order = 2): its"
        + " @DerivativeOf rule 'RuleOfRule.fD' has @DerivativeOf rules of its own"
        + " ('RuleOfRule.fDD'), and at order 2 ad4j differentiates the rule's code instead,"
        + " which may not agree with them; remove the rules of 'fD', or give 'RuleOfRule.f' a"
        + " rule that is a copy of 'fD' without rules of its own").inFile(file).onLine(13)
        .atColumn(lines.get(12).indexOf("(x); }") + 1);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorCount(1);
  }

  /**
   * A rule in a local class (which may declare static methods since Java 16): javac enters
   * local classes after annotation processing, so ad4j never saw the rule; before the fix a
   * straight-through rule for {@code Math.floor} there was silently ignored (with it in such a
   * class, {@code Math.floor(x) * x} had gradient 0.0 at 0.3, floor's built-in derivative,
   * where the rule gives 0.3), and a
   * rule for a method of the user's an error at the call that said to give one. Now the rule
   * is an error saying that rules are found in top-level and member classes only.
   */
  @Test
  void aRuleInALocalClassIsAnErrorAtTheRule() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class LocalRules {",
        "  static Object rules() {",
        "    class Rules {",
        "      @DerivativeOf(owner = Math.class, value = \"floor\")",
        "      static double floorStraightThrough(double x) { return 1; }",
        "    }",
        "    return new Rules();",
        "  }",
        "  @Differentiable static double quantized(double x) { return Math.floor(x) + x; }",
        "}");
    javax.tools.JavaFileObject file = com.google.testing.compile.JavaFileObjects
        .forSourceLines("com.example.LocalRules", lines);
    com.google.testing.compile.Compilation compilation = InProcessCompiler.javac().compile(file);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorContaining(
        "ad4j: @DerivativeOf rule 'floorStraightThrough' is in a local class: ad4j finds rules"
        + " in top-level and nested (member) classes only, and would use no rule of it; move it"
        + " into one").inFile(file).onLine(8)
        .atColumn(lines.get(7).indexOf("floorStraightThrough") + 1);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorCount(1);
  }

  /**
   * A rule for {@code Math.abs(double)} and a call {@code Math.abs(x)} of a {@code float}, which
   * chooses {@code abs(float)}, for which no rule can be written (a rule cannot take a float).
   * Before the fix the call took the built-in derivative and ignored the rule without a word
   * (gradient -1.0 at -0.5 where the rule gives 1.0; the {@code double} call used the rule);
   * now it is an error saying to pass a {@code double}.
   */
  @Test
  void aRuleForAMathFunctionOfDoublesMeetingACallOfItsFloatOverloadIsAnError() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class FloatAbs {",
        "  @DerivativeOf(owner = Math.class, value = \"abs\")",
        "  static double absStraightThrough(double x) { return 1; }",
        "  @Differentiable static float g(float x) { return Math.abs(x) * x; }",
        "  @Differentiable static double h(double x) { return Math.abs(x) * x; }",
        "}");
    javax.tools.JavaFileObject file = com.google.testing.compile.JavaFileObjects
        .forSourceLines("com.example.FloatAbs", lines);
    com.google.testing.compile.Compilation compilation = InProcessCompiler.javac().compile(file);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorContaining(
        "ad4j: call to 'Math.abs(...)' calls 'Math.abs(float)', and the @DerivativeOf rules"
        + " this call sees are for 'Math.abs(double)', which ad4j uses for calls of that method"
        + " only (a rule cannot take a 'float'); pass 'double' arguments, as in"
        + " 'Math.abs((double) ...)', to use the rules").inFile(file).onLine(7)
        .atColumn(lines.get(6).indexOf("(x) * x") + 1);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorCount(1);
  }

  // ---- calls across classes ----------------------------------------------------------------

  /**
   * {@code @Differentiable} static methods of an interface, of an inner (non-static) class, of
   * a class and a subclass that hides it (called as {@code Sub.f}, {@code Base.f}, and as
   * {@code Sub2.f} of a subclass that inherits it), and rules declared in an interface and in
   * an enum nested in the caller.
   */
  @Test
  void staticMethodsOfInterfacesInnerClassesAndHidingSubclasses() throws Exception {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class Across {",
        "  interface Shapes {",
        "    @Differentiable static double bump(double x) { return Math.exp(-x * x); }",
        "  }",
        "  class Inner { @Differentiable static double cube(double x) { return x * x * x; } }",
        "  static class Base { @Differentiable static double f(double x) { return Math.sin(x); } }",
        "  static class Sub extends Base {",
        "    @Differentiable static double f(double x) { return x * x; }",
        "  }",
        "  static class Sub2 extends Base { }",
        "  static double opaque(double x) {",
        "    java.util.List<Double> b = java.util.List.of(x);",
        "    return Math.sin(b.get(0));",
        "  }",
        "  static double other(double x) {",
        "    java.util.List<Double> b = java.util.List.of(x);",
        "    return Math.exp(b.get(0));",
        "  }",
        "  interface R {",
        "    @DerivativeOf(owner = Across.class, value = \"opaque\")",
        "    static double opaqueDerivative(double x) { return Math.cos(x); }",
        "  }",
        "  enum E {",
        "    A;",
        "    @DerivativeOf(owner = Across.class, value = \"other\")",
        "    static double otherDerivative(double x) { return Math.exp(x); }",
        "  }",
        "  @Differentiable static double g(double x, double y) {",
        "    return Shapes.bump(x * y) + Inner.cube(y) + Sub.f(x) + Base.f(y) + Sub2.f(x * y)",
        "        + opaque(x) * y + other(y);",
        "  }",
        "}");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Across", source);
    MemberAgreement.of(compiled, "com.example.Across", "g", true, true)
        .checkScalarAt(new double[][] {{0.3, 0.7}, {-1.2, 0.4}}, 1, 1e-7);
  }

  /**
   * Methods of classes compiled earlier (a library on the class path, with its generated
   * classes): a static method and the one of a subclass that hides it, an overload of another
   * arity, called qualified and through a static import, at order 2.
   */
  @Test
  void hiddenAndOverloadedMethodsOfALibraryCompiledEarlier(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path classes) throws Exception {
    String base = String.join("\n",
        "package com.lib;",
        "import ad4j.Differentiable;",
        "public class Base {",
        "  @Differentiable(order = 2) public static double f(double x) { return Math.sin(x); }",
        "}");
    String sub = String.join("\n",
        "package com.lib;",
        "import ad4j.Differentiable;",
        "public class Sub extends Base {",
        "  @Differentiable(order = 2) public static double f(double x) { return x * x * x; }",
        "  @Differentiable(order = 2) public static double f(double x, double y) { return x * y; }",
        "}");
    String user = String.join("\n",
        "package com.example;",
        "import static com.lib.Sub.f;",
        "import ad4j.Differentiable;",
        "final class User {",
        "  @Differentiable(order = 2) static double g(double x, double y) {",
        "    return com.lib.Sub.f(x) + 10 * com.lib.Base.f(y) + f(x, y) + f(y);",
        "  }",
        "}");
    com.google.testing.compile.Compilation library = InProcessCompiler.javac().compile(
        com.google.testing.compile.JavaFileObjects.forSourceString("com.lib.Base", base),
        com.google.testing.compile.JavaFileObjects.forSourceString("com.lib.Sub", sub));
    InProcessCompiler.requireSuccess(library);
    com.google.testing.compile.Compilation compilation = InProcessCompiler.javac()
        .withClasspath(InProcessCompiler.classpathWithClassesOf(library, classes))
        .compile(com.google.testing.compile.JavaFileObjects.forSourceString(
            "com.example.User", user));
    MemberAgreement.of(InProcessCompiler.loadedWithLibrary(compilation, library),
        "com.example.User", "g", true, true)
        .checkScalarAt(new double[][] {{0.3, 0.7}, {-1.2, 0.4}}, 2, 1e-7);
  }

  /** A vector target of variable arity, its rule giving the Jacobian of the array. */
  @Test
  void aVariableArityVectorTargetsRuleSeesTheElementsAsAnArray() throws Exception {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class Squares {",
        "  static double[] squares(double... xs) {",
        "    java.util.List<Double> b = new java.util.ArrayList<>();",
        "    for (double x : xs) b.add(x);",
        "    double[] r = new double[b.size()];",
        "    for (int i = 0; i < r.length; i++) r[i] = b.get(i) * b.get(i);",
        "    return r;",
        "  }",
        "  @DerivativeOf(\"squares\") static double[][] squaresDerivative(double... xs) {",
        "    double[][] d = new double[xs.length][xs.length];",
        "    for (int i = 0; i < xs.length; i++) d[i][i] = 2 * xs[i];",
        "    return d;",
        "  }",
        "  @Differentiable static double two(double x, double y) {",
        "    double[] r = squares(x, x * y);",
        "    return r[0] + 3 * r[1];",
        "  }",
        "  @Differentiable static double one(double x, double y) {",
        "    double[] r = squares(x * y);",
        "    return r[0] * y;",
        "  }",
        "}");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Squares", source);
    for (String name : List.of("two", "one")) {
      MemberAgreement.of(compiled, "com.example.Squares", name, true, true)
          .checkScalarAt(new double[][] {{0.3, 0.7}, {-1.2, 0.4}}, 1, 1e-7);
    }
  }

  /**
   * A {@code @Differentiable} callee whose variable arity parameter is {@code @NoDerivative},
   * called with constant elements: before the fix the array made for the call carried
   * derivatives whatever its elements, and the call was the error "'1.0' carries derivatives
   * into parameter 'cs' ..., which is @NoDerivative"; now it compiles and agrees with
   * differences, and an element that carries a derivative is still that error, naming it.
   */
  @Test
  void constantsPassToAVariableArityNoDerivativeParameter() throws Exception {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class Weights {",
        "  @Differentiable static double h(double x, @NoDerivative double... cs) {",
        "    return x * cs.length + cs[0] * x * x;",
        "  }",
        "  @Differentiable static double b(double x, double y) { return h(x, 1.0, 2.0) * y; }",
        "}");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Weights", source);
    MemberAgreement.of(compiled, "com.example.Weights", "b", true, true)
        .checkScalarAt(new double[][] {{0.3, 0.7}, {-1.2, 0.4}}, 1, 1e-7);

    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class Weights {",
        "  @Differentiable static double h(double x, @NoDerivative double... cs) {",
        "    return x * cs.length + cs[0] * x * x;",
        "  }",
        "  @Differentiable static double c(double x, double y) { return h(x, y, 2.0); }",
        "}");
    javax.tools.JavaFileObject file = com.google.testing.compile.JavaFileObjects
        .forSourceLines("com.example.Weights", lines);
    com.google.testing.compile.Compilation compilation = InProcessCompiler.javac().compile(file);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorContaining(
        "ad4j: call to 'h(...)': 'y' carries derivatives into parameter 'cs' of 'Weights.h',"
        + " which is @NoDerivative and would drop them; remove @NoDerivative from 'cs', or pass"
        + " a value that carries no derivative").inFile(file).onLine(8)
        .atColumn(lines.get(7).indexOf("(x, y, 2.0)") + 1);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorCount(1);
  }

  /**
   * Rules for overloads of one name ({@code f(double)}, {@code f(double[])},
   * {@code f(double, double)}, {@code f(int, double)}), each call taking the rule of the
   * overload Java chooses (a {@code char} argument widening to {@code int}); and a variable
   * arity instance target with a rule, on a {@code static final} field and on a local object.
   */
  @Test
  void overloadedTargetsAndVariableArityInstanceTargets() throws Exception {
    String overloads = String.join("\n",
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class Overloads {",
        "  static double f(double x) {",
        "    java.util.List<Double> b = java.util.List.of(x);",
        "    return Math.sin(b.get(0));",
        "  }",
        "  static double f(double[] a) {",
        "    java.util.List<Double> b = java.util.List.of(a[0], a[1]);",
        "    return b.get(0) * b.get(1);",
        "  }",
        "  static double f(double x, double y) {",
        "    java.util.List<Double> b = java.util.List.of(x, y);",
        "    return b.get(0) * b.get(0) * b.get(1);",
        "  }",
        "  static double f(int n, double x) {",
        "    java.util.List<Double> b = java.util.List.of(x);",
        "    return n * b.get(0);",
        "  }",
        "  @DerivativeOf(\"f\") static double f1(double x) { return Math.cos(x); }",
        "  @DerivativeOf(\"f\") static double[] fa(double[] a) { return new double[] {a[1], a[0]}; }",
        "  @DerivativeOf(value = \"f\", wrt = \"x\") static double fx(double x, double y) {",
        "    return 2 * x * y;",
        "  }",
        "  @DerivativeOf(value = \"f\", wrt = \"y\") static double fy(double x, double y) {",
        "    return x * x;",
        "  }",
        "  @DerivativeOf(\"f\") static double fn(int n, double x) { return n; }",
        "  @Differentiable static double g(double x, double y) {",
        "    double[] a = {x, y};",
        "    return f(x) + f(a) + f(y, x) + f(3, y) + f(2, 1) + f('c', x);",
        "  }",
        "}");
    MemberAgreement.of(InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
            "com.example.Overloads", overloads), "com.example.Overloads", "g", true, true)
        .checkScalarAt(new double[][] {{0.3, 0.7}, {-1.2, 0.4}}, 1, 1e-7);

    String instance = String.join("\n",
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class Scaled {",
        "  static final Scaled ONE = new Scaled(2.0);",
        "  final double k;",
        "  Scaled(double k) { this.k = k; }",
        "  double weighted(double... xs) {",
        "    java.util.List<Double> b = new java.util.ArrayList<>();",
        "    for (double x : xs) b.add(x);",
        "    double s = 0;",
        "    for (int i = 0; i < b.size(); i++) s += k * (i + 1) * b.get(i) * b.get(i);",
        "    return s;",
        "  }",
        "  @DerivativeOf(\"weighted\") static double[] weightedDerivative(Scaled o, double... xs) {",
        "    double[] d = new double[xs.length];",
        "    for (int i = 0; i < xs.length; i++) d[i] = 2 * o.k * (i + 1) * xs[i];",
        "    return d;",
        "  }",
        "  @Differentiable static double field(double x, double y) {",
        "    return ONE.weighted(x, y * x) + ONE.weighted(y);",
        "  }",
        "  @Differentiable static double local(double x, double y) {",
        "    Scaled o = new Scaled(3.0);",
        "    return o.weighted(x, y * x) + o.weighted(y) + o.weighted();",
        "  }",
        "}");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Scaled", instance);
    for (String name : List.of("field", "local")) {
      MemberAgreement.of(compiled, "com.example.Scaled", name, true, true)
          .checkScalarAt(new double[][] {{0.3, 0.7}, {-1.2, 0.4}}, 1, 1e-7);
    }
  }

  /**
   * A method reference passed to a method that is not {@code @Differentiable}: the error said a
   * function value "cannot be ... passed to a method", which it can, to a
   * {@code @Differentiable} one; it now says which, and to annotate this one.
   */
  @Test
  void aMethodReferencePassedToAPlainMethodSaysWhereItMayBePassed() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "final class Passed {",
        "  static double apply(DoubleUnaryOperator f, double x) { return f.applyAsDouble(x); }",
        "  @Differentiable static double g(double x) { return apply(Math::sin, x) * x; }",
        "}");
    javax.tools.JavaFileObject file = com.google.testing.compile.JavaFileObjects
        .forSourceLines("com.example.Passed", lines);
    com.google.testing.compile.Compilation compilation = InProcessCompiler.javac().compile(file);
    com.google.testing.compile.CompilationSubject.assertThat(compilation).hadErrorContaining(
        "ad4j: method reference 'Math::sin' is not supported here: ad4j specialises a function"
        + " value where its code is known, so a lambda or method reference may initialise a"
        + " local of a functional interface type (called in this method), be given to a stream"
        + " operation or be passed to a @Differentiable method that takes a function; it cannot"
        + " be stored in a field, returned or passed to other methods; annotate 'Passed.apply'"
        + " with @Differentiable, and ad4j differentiates it at each call for the function"
        + " passed")
        .inFile(file).onLine(6).atColumn(lines.get(5).indexOf("Math::sin") + 1);
  }
}
