package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Code ad4j inlines into generated code (a value record made or whose static method is called,
 * a function's class made, a template of another class) touches nothing of its class that
 * would initialise it, where Java initialises the class first (JLS 12.4.1). So a record whose
 * static initializer set what its method reads ({@code static { Config.scale = 3; }}) gave,
 * called first, 2.25 with the gradient 3 where the method returns 6.75 with the derivative 9.
 * Such a construct is now an error; records whose static fields hold constants, records made of
 * constants by the compiler's constructor, JDK computations, and interfaces of constants
 * initialise nothing else, and stay accepted.
 */
class InlinedClassInitializationTest {
  private static final String MESSAGE_END = "first, and its static initializer or static"
      + " fields run code that may set what the code reads or what a caller sees; ad4j inlines";

  /** Class {@code F} with {@code members}, beside {@code Config} and {@code declarations}. */
  private static List<String> source(List<String> declarations, String... members) {
    List<String> lines = new ArrayList<>(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "class Config { static double scale = 1; }"));
    lines.addAll(declarations);
    lines.add("final class F {");
    lines.addAll(List.of(members));
    lines.add("}");
    return lines;
  }

  @Test
  void aRecordWhoseInitializerSetsStateIsAnErrorWhereItIsMade() {
    assertSingleError(source(List.of(
        "record R(double a) {",
        "  static { Config.scale = 3; }",
        "  double m() { return a * Config.scale; }",
        "}"),
        "  @Differentiable static double f(double x) {",
        "    R r = new R(x);",
        "    return r.m() * x;",
        "  }"),
        "'new R(...)' initialises class 'R' " + MESSAGE_END, 11, 11);
  }

  @Test
  void aStaticMethodOfSuchARecordIsAnErrorWhereItIsCalled() {
    assertSingleError(source(List.of(
        "record Q(double a) {",
        "  static double twice(double v) { return 2 * v * Config.scale; }",
        "  static final double SCALE = Config.scale = 4;",
        "}"),
        "  @Differentiable static double f(double x) { return Q.twice(x) * x; }"),
        "'Q.twice(...)' initialises class 'Q' " + MESSAGE_END, 10, 61);
  }

  @Test
  void aFunctionsClassWhoseInitializerSetsStateIsAnErrorWhereItIsMade() {
    assertSingleError(source(List.of(
        "final class Scaled implements DoubleUnaryOperator {",
        "  static { Config.scale = 5; }",
        "  public double applyAsDouble(double u) { return u * Config.scale; }",
        "}"),
        "  @Differentiable static double f(double x) {",
        "    DoubleUnaryOperator g = new Scaled();",
        "    return g.applyAsDouble(x) * x;",
        "  }"),
        "'new Scaled()' initialises class 'Scaled' " + MESSAGE_END, 11, 29);
  }

  @Test
  void aTemplateOfSuchAClassIsAnErrorWhereItIsCalled() {
    assertSingleError(source(List.of(
        "final class T {",
        "  static { Config.scale = 6; }",
        "  @Differentiable static double apply(DoubleUnaryOperator g, double x) {",
        "    return g.applyAsDouble(x) * Config.scale;",
        "  }",
        "}"),
        "  @Differentiable static double f(double x) { return T.apply(u -> u * u, x); }"),
        "'T.apply(...)' initialises class 'T' " + MESSAGE_END, 12, 61);
  }

  /** What initialises nothing else stays accepted, and exact. */
  @Test
  void recordsOfConstantsAndJdkComputationsStayAccepted() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.F", String.join("\n", source(List.of(),
            "  interface Sized { int DIMENSIONS = 2; double size(); }",
            "  record V(double x, double y) implements Sized {",
            "    static final V ZERO = new V(0, -1.5);",
            "    static final double ROOT_TWO = Math.sqrt(2);",
            "    static final String NAME = \"v\" + DIMENSIONS;",
            "    static final DoubleUnaryOperator SQUARE = u -> u * u;",
            "    public double size() { return Math.hypot(x, y) * ROOT_TWO; }",
            "    static V scaled(V v, double s) { return new V(v.x() * s, v.y() * s); }",
            "    double dot(V o) { return x * o.x + y * o.y; }",
            "  }",
            "  static final class Half implements DoubleUnaryOperator {",
            "    static final double HALF = Math.scalb(1.0, -1);",
            "    static final DoubleUnaryOperator ROOT = Math::sqrt;",
            "    public double applyAsDouble(double u) { return u * u * HALF; }",
            "  }",
            "  @Differentiable static double f(double x, double y) {",
            "    V v = V.scaled(new V(x, x * y), y);",
            "    DoubleUnaryOperator half = new Half();",
            "    return v.dot(V.ZERO) + v.size() + half.applyAsDouble(x + y);",
            "  }")));
    MemberAgreement agreement = MemberAgreement.of(compiled, "com.example.F", "f", true, true);
    agreement.checkScalar(new Object[] {0.7, 1.3}, 1, 1e-6);
    double x = 0.7;
    double y = 1.3;
    // v = (x y, x y²): v·(0, -1.5) = -1.5 x y²; |v| √2 = √2 x y √(1 + y²); (x + y)² / 2
    double root = Math.sqrt(1 + y * y);
    double[] expected = {
        -1.5 * y * y + Math.sqrt(2) * y * root + (x + y),
        -3 * x * y + Math.sqrt(2) * x * (root + y * y / root) + (x + y)};
    double[] gradient = (double[]) agreement.member("Gradient", new Object[] {x, y});
    assertThat(gradient[0]).isWithin(1e-12).of(expected[0]);
    assertThat(gradient[1]).isWithin(1e-12).of(expected[1]);
  }
}
