package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * The errors about function values and streams, each at its own line with a message that says
 * what is supported: a function whose code is not known (a field that is not {@code static
 * final}, a local initialised by a call), one that escapes or is assigned,
 * recursion through function values, boxed parameters compared by reference, a lambda's
 * {@code return} inside a loop, a stream operation that is not lowered and a stream that is not
 * ended.
 */
class FunctionDiagnosticsTest {

  /** The lines of {@code com.example.F}: these members from line 9 on. */
  private static List<String> classF(String... members) {
    List<String> lines = new ArrayList<>(List.of("package com.example;",
        "import ad4j.Differentiable;", "import java.util.Arrays;",
        "import java.util.function.BiFunction;", "import java.util.function.DoubleUnaryOperator;",
        "import java.util.stream.DoubleStream;", "final class F {",
        "  static double plain(double x, DoubleUnaryOperator f) { return f.applyAsDouble(x); }"));
    lines.addAll(List.of(members));
    lines.add("}");
    return lines;
  }

  /** The 1-based number of the only line holding {@code text}; the test fails without it. */
  private static int lineOf(List<String> lines, String text) {
    int found = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text)) {
        assertWithMessage("%s is on one line", text).that(found).isEqualTo(-1);
        found = i + 1;
      }
    }
    assertWithMessage("a line has %s", text).that(found).isGreaterThan(0);
    return found;
  }

  /** Compiles {@code members} and requires {@code message} at the line holding {@code at}. */
  private static void assertError(String message, String at, String... members) {
    List<String> lines = classF(members);
    JavaFileObject file =
        JavaFileObjects.forSourceString("com.example.F", String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining(message).inFile(file)
        .onLine(lineOf(lines, at));
  }

  @Test
  void aFieldThatIsNotStaticFinalIsNotKnown() {
    assertError("call to 'G.applyAsDouble(...)' is not differentiable: the code of field 'G' is"
        + " not known at compile time, and an argument carries a derivative into it; ad4j"
        + " differentiates a function value by its code",
        "G.applyAsDouble(x)",
        "  static DoubleUnaryOperator G = v -> v * v;",
        "  @Differentiable static double f(double x) {",
        "    return G.applyAsDouble(x);",
        "  }");
  }

  @Test
  void aLocalInitialisedWithUnknownCodeIsAnError() {
    assertError("the code of 'pick()' is not known at compile time: ad4j differentiates a"
        + " function value by its code, so it must be a lambda or a method reference",
        "= pick();",
        "  static DoubleUnaryOperator pick() { return Math::sin; }",
        "  @Differentiable static double f(double x) {",
        "    DoubleUnaryOperator g = pick();",
        "    return g.applyAsDouble(x);",
        "  }");
  }

  @Test
  void aFunctionValuePassedToAMethodEscapes() {
    assertError("function value 'g' escapes here: ad4j specialises a function value where its"
        + " code is known, so a lambda or method reference may initialise a local of a"
        + " functional interface type (called in this method), be given to a stream operation or"
        + " be passed to a @Differentiable method that takes a function; it cannot be stored in a"
        + " field, returned or passed to other methods; call it ('g.applyAsDouble(...)'), or"
        + " annotate 'F.plain' with @Differentiable, and ad4j differentiates it at each call for"
        + " the function passed", "plain(x, g)",
        "  @Differentiable static double f(double x) {",
        "    DoubleUnaryOperator g = v -> v * x;",
        "    return plain(x, g);",
        "  }");
  }

  @Test
  void aLambdaPassedToAMethodRunAsWrittenIsAnError() {
    // the advice to annotate the plain method: it then takes the lambda (it said "it cannot be
    // passed to a method", which is wrong for a @Differentiable one)
    assertError("lambda expression is not supported here: ad4j specialises a function value"
        + " where its code is known, so a lambda or method reference may initialise a local of a"
        + " functional interface type (called in this method), be given to a stream operation or"
        + " be passed to a @Differentiable method that takes a function; it cannot be stored in a"
        + " field, returned or passed to other methods; annotate 'F.plain' with @Differentiable,"
        + " and ad4j differentiates it at each call for the function passed", "plain(2, v",
        "  @Differentiable static double f(double x) {",
        "    return x * plain(2, v -> v + 1);",
        "  }");
  }

  @Test
  void aFunctionLocalCannotBeAssigned() {
    assertError("function value 'g' cannot be assigned", "g = v -> v;",
        "  @Differentiable static double f(double x) {",
        "    DoubleUnaryOperator g = Math::sin;",
        "    if (x > 0) { g = v -> v; }",
        "    return x;",
        "  }");
  }

  @Test
  void recursionThroughAFunctionValueIsAnError() {
    assertError("recursion through a function value is not supported", "F.R.applyAsDouble",
        "  static final DoubleUnaryOperator R = v -> v > 1 ? F.R.applyAsDouble(v / 2) : v;",
        "  @Differentiable static double f(double x) {",
        "    return R.applyAsDouble(x);",
        "  }");
  }

  @Test
  void boxedParametersComparedByReferenceAreAnError() {
    assertError("'a == b' compares boxed values of a function over boxes by reference: ad4j"
        + " specialises it over 'double' values; use the primitive interface"
        + " ('DoubleUnaryOperator', 'DoubleBinaryOperator'), whose '==' compares the numbers",
        "a == b",
        "  @Differentiable static double f(double x) {",
        "    BiFunction<Double, Double, Double> g = (a, b) -> a == b ? 1.0 : a * b;",
        "    return g.apply(x, x);",
        "  }");
  }

  @Test
  void aLambdasReturnInsideALoopIsAnError() {
    assertError("a 'return' of a lambda or of a method taking a function inside for loop is not"
        + " supported: ad4j inlines such code where it is called", "for (int i",
        "  @Differentiable static double f(double x) {",
        "    DoubleUnaryOperator g = v -> {",
        "      for (int i = 0; i < 3; i++) { if (v > i) { return v; } }",
        "      return 0;",
        "    };",
        "    return g.applyAsDouble(x);",
        "  }");
  }

  @Test
  void aStreamOperationNotListedIsAnError() {
    assertError("stream operation 'sorted' of DoubleStream is not supported: ad4j lowers"
        + " streams made by 'Arrays.stream(a)'", ".sorted()",
        "  @Differentiable static double f(double[] w) {",
        "    return Arrays.stream(w).map(v -> v * v)",
        "        .sorted()",
        "        .sum();",
        "  }");
  }

  @Test
  void aStreamThatIsNotEndedIsAnError() {
    assertError("is not ended here", "DoubleStream s =",
        "  @Differentiable static double f(double[] w) {",
        "    DoubleStream s = Arrays.stream(w);",
        "    return s.sum();",
        "  }");
  }

  @Test
  void anAnonymousClassWithMoreThanItsMethodIsAnError() {
    assertError("an anonymous class used as a function is supported when it holds only its"
        + " method 'applyAsDouble'", "double k = 3;",
        "  @Differentiable static double f(double a) {",
        "    DoubleUnaryOperator g = new DoubleUnaryOperator() {",
        "      double k = 3;",
        "      public double applyAsDouble(double t) { return k * t * a; }",
        "    };",
        "    return g.applyAsDouble(a);",
        "  }");
  }

  @Test
  void anAnonymousClassNamingItsInstanceIsAnError() {
    assertError("'this' in a class used as a function names the class's instance or"
        + " its members", "this.hashCode()",
        "  @Differentiable static double f(double a) {",
        "    DoubleUnaryOperator g = new DoubleUnaryOperator() {",
        "      public double applyAsDouble(double t) { return t * a + this.hashCode(); }",
        "    };",
        "    return g.applyAsDouble(a);",
        "  }");
    assertError("'andThen' in a class used as a function names the class's instance"
        + " or its members", "andThen(",
        "  @Differentiable static double f(double a) {",
        "    DoubleUnaryOperator g = new DoubleUnaryOperator() {",
        "      public double applyAsDouble(double t) {",
        "        return andThen(x -> x).applyAsDouble(t) * a;",
        "      }",
        "    };",
        "    return g.applyAsDouble(a);",
        "  }");
  }

  @Test
  void aClassUsedAsAFunctionMustMakeNothing() {
    assertError("'new Scaled()' as a function: ad4j inlines the method of a class used as a"
        + " function without making an instance, so the class must hold no instance fields or"
        + " initializers", "double k = 2;",
        "  static final class Scaled implements DoubleUnaryOperator {",
        "    double k = 2;",
        "    public double applyAsDouble(double t) { return k * t; }",
        "  }",
        "  @Differentiable static double f(double a) {",
        "    DoubleUnaryOperator g = new Scaled();",
        "    return g.applyAsDouble(a);",
        "  }");
    assertError("'new Loud()' as a function: ad4j inlines the method of a class used as a"
        + " function without making an instance, so the class must not declare a constructor"
        + " that takes or does anything", "Loud() {",
        "  static final class Loud implements DoubleUnaryOperator {",
        "    Loud() { System.out.println(\"made\"); }",
        "    public double applyAsDouble(double t) { return t; }",
        "  }",
        "  @Differentiable static double f(double a) {",
        "    DoubleUnaryOperator g = new Loud();",
        "    return g.applyAsDouble(a);",
        "  }");
    assertError("'twice' in a class used as a function names the class's instance or its"
        + " members", "return twice(t);",
        "  static final class Self implements DoubleUnaryOperator {",
        "    double twice(double t) { return 2 * t; }",
        "    public double applyAsDouble(double t) { return twice(t); }",
        "  }",
        "  @Differentiable static double f(double a) {",
        "    DoubleUnaryOperator g = new Self();",
        "    return g.applyAsDouble(a);",
        "  }");
  }
}
