package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A parameter of a function over boxes ({@code t} of {@code Function<Double, Double> f = t ->
 * g(t) * x}) and what a call of one returns ({@code s.get()} of a {@code Supplier<Double>}) are
 * boxes in Java, which ad4j specialises as numbers; among overloads {@code g(double)} and
 * {@code g(Double)} (or {@code g(Object)}, {@code g(Number)}), Java calls the one taking the
 * object, and ad4j chose the one taking the number: {@code f.apply(2.0)} of the function above
 * gave 1.4 and the derivative 2 at 0.7 where the method returns 2.8 with the derivative 4, with
 * {@code g(Double v) { return 2 * v; }} (found by helper hunt69d). A static method reference
 * given boxes ({@code R::g} as a {@code Function<Double, Double>}) chose alike. Each is now an
 * error at the call or the reference; a cast to {@code double} calls the method taking a
 * number, as in Java, and a method without such overloads is called as before. Such a
 * parameter passed as an object ({@code same(t, t)} of {@code same(Double a, Double b) {
 * return a == b; }}) is one box in Java, where generated code boxed the number at each use:
 * {@code t -> same(t, t) ? t : 3 * t} gave 2.1 at 0.7 where the method returns 0.7; an error
 * now.
 */
@ExtendWith(TapeIsEmpty.class)
class BoxesChooseOverloadsTest {
  private static List<String> source(String... members) {
    List<String> lines = new java.util.ArrayList<>(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.function.Function;",
        "import java.util.function.Supplier;",
        "final class F {",
        "  static double g(double v) { return v; }",
        "  static double g(Double v) { return 2 * v; }",
        "  @Differentiable static double h(double v) { return v * v; }",
        "  static double h(Object o) { return 7; }"));
    lines.addAll(List.of(members));
    lines.add("}");
    return lines;
  }

  /** The message for {@code call}, which Java makes with the box {@code boxed}. */
  private static String boxChooses(String call, String boxed, String java, String ad4j) {
    return "call to '" + call + "': '" + boxed + "' is a box in Java, which a function over"
        + " boxes takes or returns, and with it Java calls '" + java + "', where ad4j, which"
        + " specialises the function over numbers, would call '" + ad4j + "'; use the primitive"
        + " interface ('DoubleUnaryOperator', 'DoubleBinaryOperator', 'DoubleSupplier'), or"
        + " write '(double) " + boxed + "' to call the method that takes a number";
  }

  /** The 1-based column of {@code text} in {@code line}. */
  private static int columnOf(String line, String text) {
    return line.indexOf(text) + 1;
  }

  @Test
  void aParameterOfAFunctionOverBoxesCallsTheOverloadTakingABox() {
    String line = "    Function<Double, Double> f = t -> g(t) * x;";
    assertSingleError(source(
        "  @Differentiable static double f(double x) {",
        line,
        "    return f.apply(2.0);",
        "  }"),
        boxChooses("g(t)", "t", "F.g(Double)", "F.g(double)"), 11, columnOf(line, "(t)"));
  }

  @Test
  void theResultOfASupplierOfBoxesCallsTheOverloadTakingAnObject() {
    String line = "    return h(s.get()) + 1;";
    List<String> lines = source(
        "  @Differentiable static double f(double x) {",
        "    Supplier<Double> s = () -> 3.0;",
        line,
        "  }");
    assertSingleError(lines, boxChooses("h(s.get())", "s.get()", "F.h(Object)",
        "F.h(double)"), 12, columnOf(line, "(s.get())"));
  }

  @Test
  void aReferenceGivenBoxesChoosesTheOverloadTakingABox() {
    String line = "    Function<Double, Double> f = F::g;";
    assertSingleError(source(
        "  @Differentiable static double f(double x) {",
        line,
        "    return f.apply(2.0) * x;",
        "  }"),
        "method reference 'F::g' is given boxes by its function over boxes, with which Java"
            + " chooses 'F.g(Double)', where ad4j, which specialises the function over numbers,"
            + " would choose 'F.g(double)'; use the primitive interface ('DoubleUnaryOperator',"
            + " 'DoubleBinaryOperator'), or write a lambda that calls the method you mean", 11,
        columnOf(line, "F::g"));
  }

  @Test
  void aParameterOfAFunctionOverBoxesPassedAsAnObjectIsAnError() {
    String line = "    Function<Double, Double> f = t -> same(t, t) ? t : 3 * t;";
    assertSingleError(source(
        "  static boolean same(Double a, Double b) { return a == b; }",
        "  @Differentiable static double f(double x) {",
        line,
        "    return f.apply(x);",
        "  }"),
        "call to 'same(t, t)': 't' is the box a function over boxes is given, one object in"
            + " Java, which this call passes as an object to 'F.same(Double, Double)'; ad4j"
            + " holds its number, and generated code would box it again at each use, another"
            + " object each time; use the primitive interface ('DoubleUnaryOperator',"
            + " 'DoubleBinaryOperator'), or pass the number ('(double) t') to a method that"
            + " takes one", 12, columnOf(line, "(t, t)"));
  }

  private static final CompiledOnce NUMBERS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n", source(
              "  @Differentiable static double f(double x, double y) {",
              "    Function<Double, Double> f = t -> h((double) t) + Math.sin(t);",
              "    Function<Double, Double> k = t -> g((double) t) * y;",
              "    return f.apply(x) + k.apply(2.0) * x;",
              "  }"))));

  @Test
  void aCastToDoubleCallsTheOverloadTakingANumber() throws Exception {
    MemberAgreement.of(NUMBERS.get(), "com.example.F", "f", true, true)
        .checkScalarAt(new double[][] {{0.7, 1.3}, {-0.4, 2.1}}, 1, 1e-6);
  }
}
