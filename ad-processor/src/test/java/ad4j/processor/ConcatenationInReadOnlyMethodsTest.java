package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A string concatenation with an object in the body of a method run as written calls the
 * object's {@code toString()}, which may count or draw: such a method is not read-only, and an
 * order-2 method calling it is the error its Hessian sweeps would run it again. It was taken for
 * a read-only getter: {@code a * a * b * d.label().length()} with {@code label()} returning
 * {@code "k" + tag}, whose {@code toString()} counts ("t9", then "t10"),
 * {@code fValueGradientAndHessian} ran {@code label()} twice and gave the value 0.588 of the
 * second length (4) beside the Hessian of the first (3): H[0][0] = 1.8 where the method gives
 * 2 b 4 = 2.4 at (0.7, 0.3). Concatenations of numbers, booleans, strings and boxes (literals,
 * primitive locals and fields, elements of arrays of numbers, arithmetic, {@code Math}'s and
 * the class's own number-returning methods, {@code var} locals of numbers and strings) and
 * additions of numbers read through other objects' fields stay read-only.
 */
@ExtendWith(TapeIsEmpty.class)
class ConcatenationInReadOnlyMethodsTest {
  private static List<String> source(String getter, String use) {
    List<String> lines = new ArrayList<>(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  static final class Tag {",
        "    int n;",
        "    @Override public String toString() { n++; return \"t\" + n; }",
        "  }",
        "  static final class Source {",
        "    final Tag tag = new Tag();"));
    lines.add(getter);
    lines.addAll(List.of(
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Source d) {",
        "    return a * a * b * " + use + ";",
        "  }",
        "}"));
    return lines;
  }

  @Test
  void aGetterConcatenatingAnObjectIsNotReadOnly() {
    assertSingleError(source("    String label() { return \"k\" + tag; }",
            "d.label().length()"),
        runsAgainInTheHessianSweeps("d.label()"), 15, 31);
  }

  @Test
  void aGetterAppendingAnObjectToAStringLocalIsNotReadOnly() {
    assertSingleError(source(
            "    int width() { String s = \"k\"; s += tag; return s == null ? 1 : 2; }", "d.width()"),
        runsAgainInTheHessianSweeps("d.width()"), 15, 31);
  }

  private static final CompiledOnce PLAIN = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Plain",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "final class Plain {",
              "  static final class Link { double k = 0.5; }",
              "  static final class Table {",
              "    final Link link = new Link();",
              "    final double[] w = {0.5, 1.5};",
              "    final String name = \"tbl\";",
              "    double k = 1.25;",
              "    int n = 3;",
              "    Double boxed = 2.0;",
              "    int size() { return n * 2; }",
              "    double scaled(Double f, double g) { return k * f + g + (\"\" + f == null ? 0 : 1); }",
              "    String describe() {",
              "      int m = n + 1;",
              "      String s = \"k=\" + k + \", n=\" + n + (k > 1 ? \"!\" : \"\") + Math.abs(k);",
              "      s += w[0] + name + boxed + this.size() + m + 'c' + (long) k;",
              "      return s;",
              "    }",
              "    double total() { return k + w[0] + w[1] + link.k + this.link.k + w.length; }",
              "    double sum() {",
              "      var s = 0.0;",
              "      s += k;",
              "      for (var v : w) { s += v; }",
              "      var label = \"n\";",
              "      label += n;",
              "      return s + (label == null ? 0 : 1);",
              "    }",
              "  }",
              "  @Differentiable(order = 2)",
              "  static double f(double a, double b, @NoDerivative Table t) {",
              "    return a * a * b * t.describe().length() + Math.sin(a * t.total()) * b",
              "        + t.sum() * a + t.scaled(2.0, 0.5) * b;",
              "  }",
              "}")));

  @Test
  void concatenationsOfNumbersAndStringsStayReadOnly() throws Exception {
    java.lang.reflect.Constructor<?> make = PLAIN.get().load("com.example.Plain$Table")
        .getDeclaredConstructor();
    make.setAccessible(true);
    Object table = make.newInstance();
    MemberAgreement f = MemberAgreement.of(PLAIN.get(), "com.example.Plain", "f",
        true, true, false);
    for (double[] at : new double[][] {{0.7, 0.3}, {-1.2, 0.45}}) {
      f.checkScalar(new Object[] {at[0], at[1], table}, 2, 1e-6);
    }
  }

  /** The error at a call that {@code f}'s Hessian sweeps would run once each. */
  private static String runsAgainInTheHessianSweeps(String call) {
    return "call to '" + call + "' runs as written and may give another result or do something"
        + " again each time it runs: mHessian and mValueGradientAndHessian of 'f' make one sweep"
        + " per slot";
  }
}
