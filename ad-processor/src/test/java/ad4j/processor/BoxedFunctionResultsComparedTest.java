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
 * {@code ==} and {@code !=} on the boxes that calls of a function over boxes return. Java boxes
 * the result of {@code Function<Double, Double>.apply} at each call, so {@code id.apply(x) ==
 * id.apply(x)} of {@code id = t -> t} compares two objects and is false; ad4j specialises the
 * calls over {@code double} values and compared the numbers: {@code return id.apply(x) ==
 * id.apply(x) ? x : 3 * x;} at 0.7 gave the value 0.7 and the derivative 1 where the method
 * returns 2.1 with the derivative 3 (found by helper hunt69d). The same held for
 * {@code Supplier<Double>.get}, for such a call beside a box of data ({@code l.get(0)}), for
 * the calls in a method taking a function, and for a lambda's boxed parameters in parentheses
 * ({@code (p) == (q)}). Each is now an error at the comparison; a box compared with a number,
 * and results held in {@code double} locals, are compared as numbers, as Java does.
 */
@ExtendWith(TapeIsEmpty.class)
class BoxedFunctionResultsComparedTest {
  private static List<String> source(String... members) {
    List<String> lines = new java.util.ArrayList<>(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.List;",
        "import java.util.function.BiFunction;",
        "import java.util.function.Function;",
        "import java.util.function.Supplier;",
        "final class F {"));
    lines.addAll(List.of(members));
    lines.add("}");
    return lines;
  }

  /** The message for {@code comparison}, {@code boxed} one of its boxes. */
  private static String returnedBoxes(String comparison, String boxed, String operator) {
    return "'" + comparison + "' compares '" + boxed + "', a box in Java that a function over"
        + " boxes takes or returns, by reference (Java's '" + operator + "' compares objects,"
        + " and a function over boxes boxes its result at each call), where ad4j specialises the"
        + " function over numbers and would compare the numbers; use the primitive interface"
        + " ('DoubleUnaryOperator', 'DoubleBinaryOperator', 'DoubleSupplier'), or hold the"
        + " value in a 'double' local to compare the numbers";
  }

  /** The 1-based column of {@code text} in {@code line}. */
  private static int columnOf(String line, String text) {
    return line.indexOf(text) + 1;
  }

  @Test
  void twoResultsOfAFunctionComparedAreAnError() {
    String line = "    return id.apply(x) == id.apply(x) ? x : 3 * x;";
    assertSingleError(source(
        "  @Differentiable static double f(double x) {",
        "    Function<Double, Double> id = t -> t;",
        line,
        "  }"),
        returnedBoxes("id.apply(x) == id.apply(x)", "id.apply(x)", "=="), 10,
        columnOf(line, "=="));
  }

  @Test
  void twoResultsOfASupplierComparedAreAnError() {
    String line = "    return s.get() != s.get() ? 3 * x : x;";
    assertSingleError(source(
        "  @Differentiable static double f(double x) {",
        "    Supplier<Double> s = () -> x * x;",
        line,
        "  }"),
        returnedBoxes("s.get() != s.get()", "s.get()", "!="), 10, columnOf(line, "!="));
  }

  @Test
  void aResultComparedWithABoxOfDataIsAnError() {
    String line = "    return id.apply(x) == l.get(0) ? x : 3 * x;";
    assertSingleError(source(
        "  @Differentiable static double f(double x, List<Double> l) {",
        "    Function<Double, Double> id = t -> t;",
        line,
        "  }"),
        returnedBoxes("id.apply(x) == l.get(0)", "id.apply(x)", "=="), 10,
        columnOf(line, "=="));
  }

  @Test
  void resultsComparedInAMethodTakingAFunctionAreAnError() {
    String line = "    return g.apply(t) == g.apply(t) ? t : 3 * t;";
    assertSingleError(source(
        "  @Differentiable static double use(Function<Double, Double> g, double t) {",
        line,
        "  }",
        "  @Differentiable static double f(double x) {",
        "    return use(t -> t * t, x);",
        "  }"),
        returnedBoxes("g.apply(t) == g.apply(t)", "g.apply(t)", "=="), 9,
        columnOf(line, "=="));
  }

  @Test
  void parametersInParenthesesComparedAreAnError() {
    String line = "    BiFunction<Double, Double, Double> g = (p, q) -> (p) == (q) ? p : 2 * q;";
    assertSingleError(source(
        "  @Differentiable static double f(double x) {",
        line,
        "    return g.apply(x, x);",
        "  }"),
        "'(p) == (q)' compares boxed values of a function over boxes by reference: ad4j"
            + " specialises it over 'double' values; use the primitive interface"
            + " ('DoubleUnaryOperator', 'DoubleBinaryOperator'), whose '==' compares the"
            + " numbers", 9, columnOf(line, "=="));
  }

  private static final CompiledOnce NUMBERS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.F",
          String.join("\n", source(
              "  @Differentiable static double f(double x, double y) {",
              "    Function<Double, Double> id = t -> t * y;",
              "    double p = id.apply(x);",
              "    double q = id.apply(x);",
              "    double r = p == q ? x * x : 3 * x;",
              "    return id.apply(x) != 1e9 ? r * y : r;",
              "  }"))));

  @Test
  void resultsComparedAsNumbersStayNumbers() throws Exception {
    MemberAgreement.of(NUMBERS.get(), "com.example.F", "f", true, true)
        .checkScalarAt(new double[][] {{0.7, 1.3}, {-0.4, 2.1}}, 1, 1e-6);
  }
}
