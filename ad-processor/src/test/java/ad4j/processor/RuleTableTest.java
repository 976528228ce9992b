package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every entry of the rule table, applied to parameters and checked at several points inside its
 * domain: the generated gradient against finite differences of the user's method, values bit for
 * bit, and forward against reverse mode. Each function is used through {@code Math} and through
 * {@code StrictMath}. All methods are compiled in one compilation.
 */
class RuleTableTest {
  /** One @Differentiable method: {@code expression} of parameters a, b, c, and test points. */
  record Entry(String function, String expression, double[][] points) {
    int arity() {
      return points[0].length;
    }
  }

  private static final List<Entry> ENTRIES = new ArrayList<>();

  private static void op(String operator, String expression, double[]... points) {
    ENTRIES.add(new Entry(operator, expression, points));
  }

  /** name/arity of every function the entries call, e.g. {@code pow/2}. */
  private static final Set<String> FUNCTIONS = new TreeSet<>();

  /** A function, used once through Math and once through StrictMath. */
  private static void fn(String function, String arguments, double[]... points) {
    FUNCTIONS.add(function + "/" + arguments.split(",").length);
    for (String owner : List.of("Math", "StrictMath")) {
      ENTRIES.add(new Entry(function, owner + "." + function + "(" + arguments + ")", points));
    }
  }

  private static double[][] at(double... xs) {
    return Stream.of(xs).flatMapToDouble(java.util.Arrays::stream)
        .mapToObj(x -> new double[] {x}).toArray(double[][]::new);
  }

  private static double[] p(double... x) {
    return x;
  }

  static {
    op("+", "a + b", p(1.5, -2.25), p(-0.5, 3.0));
    op("-", "a - b", p(1.5, -2.25), p(-0.5, 3.0));
    op("*", "a * b", p(1.5, -2.25), p(-0.5, 3.0), p(0.0, 2.0));
    op("/", "a / b", p(1.5, -2.25), p(-0.5, 3.0), p(0.0, 0.75));
    op("%", "a % b", p(5.3, 2.1), p(-7.4, 3.0), p(1.2, -0.5));
    op("unary -", "-a", p(1.5), p(-0.25));
    op("chain", "Math.sin(a * b) / (1 + a * a) - Math.exp(-b) * a", p(0.4, 1.3), p(-1.1, 0.2));
    op("fan-out", "a * a * a + a", p(0.7), p(-1.3));

    fn("sin", "a", at(-2.1, -0.3, 0.7, 1.9));
    fn("cos", "a", at(-2.1, -0.3, 0.7, 1.9));
    fn("tan", "a", at(-1.2, -0.3, 0.7, 1.1));
    fn("asin", "a", at(-0.8, -0.2, 0.3, 0.85));
    fn("acos", "a", at(-0.8, -0.2, 0.3, 0.85));
    fn("atan", "a", at(-3.0, -0.3, 0.7, 5.0));
    fn("atan2", "a, b", p(1.0, 2.0), p(-0.5, 0.3), p(0.7, -1.2), p(-2.0, -0.1));
    fn("toRadians", "a", at(-90.0, 12.5));
    fn("toDegrees", "a", at(-1.5, 0.25));
    fn("sinh", "a", at(-2.0, 0.3, 1.7));
    fn("cosh", "a", at(-2.0, 0.3, 1.7));
    fn("tanh", "a", at(-2.0, 0.3, 1.7));
    fn("exp", "a", at(-2.0, 0.3, 3.1));
    fn("expm1", "a", at(-2.0, 1e-3, 0.3, 3.1));
    fn("log", "a", at(0.2, 1.0, 7.5));
    fn("log10", "a", at(0.2, 1.0, 7.5));
    fn("log1p", "a", at(-0.5, 1e-3, 7.5));
    fn("sqrt", "a", at(0.3, 2.0, 16.0));
    fn("cbrt", "a", at(-8.0, -0.4, 0.3, 27.0));
    fn("pow", "a, b", p(1.5, 2.5), p(0.4, -1.3), p(3.0, 0.5), p(2.0, 3.0));
    fn("pow", "a, 3", at(-1.5, 0.5, 2.0));
    fn("pow", "a, 2", at(-1.5, 0.5));
    fn("pow", "a, 0.5", at(0.5, 4.0));
    fn("pow", "a, 1", at(-1.5, 0.5));
    fn("pow", "a, 0", at(-1.5, 0.5));
    fn("pow", "2.5, a", at(-1.5, 0.5));
    fn("hypot", "a, b", p(3.0, 4.0), p(-0.5, 1.2), p(2.0, -0.1));
    fn("fma", "a, b, c", p(1.5, -2.0, 0.25), p(-0.3, 0.7, 4.0));
    fn("fma", "a, 2.0, b", p(1.5, -2.0));
    fn("scalb", "a, 3", at(-1.5, 0.7));
    fn("abs", "a", at(-2.5, 0.3));
    fn("min", "a, b", p(1.0, 2.0), p(2.0, -1.0));
    fn("max", "a, b", p(1.0, 2.0), p(2.0, -1.0));
    fn("copySign", "a, b", p(1.5, -2.0), p(-1.5, 2.0), p(-0.7, -0.2));
    fn("IEEEremainder", "a, b", p(5.3, 2.5), p(-7.3, 3.0), p(1.1, -0.5));
    fn("floor", "a", at(-1.5, 0.25, 2.7));
    fn("ceil", "a", at(-1.5, 0.25, 2.7));
    fn("rint", "a", at(-1.3, 0.25, 2.7));
    fn("signum", "a", at(-1.5, 0.25));
    fn("ulp", "a", at(-1.5, 0.25, 3.0e10));
    fn("nextUp", "a", at(-1.5, 0.25));
    fn("nextDown", "a", at(-1.5, 0.25));
    fn("nextAfter", "a, b", p(1.5, -2.0), p(-0.3, 4.0));
  }

  private static Compiled compiled;

  @BeforeAll
  static void compileAllEntries() {
    compiled = compile(ENTRIES);
  }

  private static Compiled compile(List<Entry> entries) {
    StringBuilder source = new StringBuilder("package com.example;\n"
        + "import ad4j.Differentiable;\n"
        + "final class Rules {\n");
    for (int i = 0; i < entries.size(); i++) {
      Entry entry = entries.get(i);
      String parameters = String.join(", ",
          List.of("double a", "double b", "double c").subList(0, entry.arity()));
      source.append("  @Differentiable static double m").append(i).append('(').append(parameters)
          .append(") { return ").append(entry.expression()).append("; }\n");
    }
    source.append("}\n");
    return InProcessCompiler.compile("com.example.Rules", source.toString());
  }

  @TestFactory
  Stream<DynamicTest> everyEntryAtEveryPoint() {
    return checks(compiled, ENTRIES);
  }

  private static Stream<DynamicTest> checks(Compiled compiled, List<Entry> entries) {
    return IntStream.range(0, entries.size()).mapToObj(i -> {
      Entry entry = entries.get(i);
      return DynamicTest.dynamicTest(entry.expression(), () -> {
        CompiledFunction f = compiled.function("com.example.Rules", "m" + i, entry.arity());
        for (double[] point : entry.points()) {
          DerivativeChecks.checkAt(f, point);
        }
      });
    });
  }

  @Test
  void everyFunctionOfTheRuleTableIsTested() {
    Set<String> tested = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    FUNCTIONS.forEach(f -> tested.add(f.substring(0, f.indexOf('/'))));
    // functions only FastMath has, tested in FastMathTest
    tested.addAll(List.of("asinh", "acosh", "atanh"));
    // Java 21's, tested in ClampTest on JDK 21 and later
    tested.add("clamp");

    assertThat(tested).containsExactlyElementsIn(DerivativeRules.differentiableFunctionNames());
  }

  @Test
  void everyTestedFunctionHasARuleOfItsArity() {
    for (String function : FUNCTIONS) {
      String name = function.substring(0, function.indexOf('/'));
      int arity = Integer.parseInt(function.substring(function.indexOf('/') + 1));
      assertThat(DerivativeRules.isDifferentiableFunction(name, arity)).isTrue();
      assertThat(DerivativeRules.arityOf(name)).isEqualTo(arity);
    }
  }
}
