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
 * An enhanced {@code for} in the body of a method run as written walks an {@code Iterable}
 * through its {@code iterator()}, {@code hasNext()} and {@code next()}, methods of an object
 * that may give other elements each time (a source of draws): such a method is not read-only,
 * and an order-2 method calling it is the error its Hessian sweeps would run it again. It was
 * taken for a read-only getter: {@code a * a * b * d.mean()} over a source whose elements count
 * up, {@code fValueGradientAndHessian} ran {@code mean()} twice, and gave the value 0.735 and
 * the gradient of the second mean (5) beside the Hessian of the first (2): H[0][0] = 1.2 where
 * the method's mean gives 2 b m = 3.0 at (0.7, 0.3). A getter walking an array (a field's, a
 * local's) stays read-only.
 */
@ExtendWith(TapeIsEmpty.class)
class IterationInReadOnlyMethodsTest {
  @Test
  void aGetterWalkingAnIterableIsNotReadOnly() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.Iterator;",
        "final class F {",
        "  static final class Draws implements Iterable<Double> {",
        "    int n;",
        "    @Override public Iterator<Double> iterator() {",
        "      return new Iterator<Double>() {",
        "        int i;",
        "        @Override public boolean hasNext() { return i < 3; }",
        "        @Override public Double next() { i++; n++; return (double) n; }",
        "      };",
        "    }",
        "  }",
        "  static final class Source {",
        "    final Draws draws = new Draws();",
        "    double mean() { double s = 0; for (double v : draws) { s += v; } return s / 3; }",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Source d) {",
        "    return a * a * b * d.mean();",
        "  }",
        "}"),
        "call to 'd.mean()' runs as written and may give another result or do something"
            + " again each time it runs: mHessian and mValueGradientAndHessian of 'f' make one"
            + " sweep per slot",
        22, 30);
  }

  private static final CompiledOnce ARRAYS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Weights",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "final class Weights {",
              "  static final class Table {",
              "    final double[] w = {0.5, 1.5, 2.0};",
              "    double total() { double s = 0; for (double v : w) { s += v; } return s; }",
              "    double spread() {",
              "      double[] d = w;",
              "      double m = 0;",
              "      for (double v : (d)) { m = Math.max(m, v); }",
              "      for (double v : this.w) { m += v * 0.125; }",
              "      return m;",
              "    }",
              "  }",
              "  @Differentiable(order = 2)",
              "  static double f(double a, double b, @NoDerivative Table t) {",
              "    return a * a * b * t.total() + Math.sin(a * t.spread()) * b;",
              "  }",
              "}")));

  @Test
  void aGetterWalkingAnArrayStaysReadOnly() throws Exception {
    java.lang.reflect.Constructor<?> make = ARRAYS.get().load("com.example.Weights$Table")
        .getDeclaredConstructor();
    make.setAccessible(true);
    Object table = make.newInstance();
    MemberAgreement f = MemberAgreement.of(ARRAYS.get(), "com.example.Weights", "f",
        true, true, false);
    for (double[] at : new double[][] {{0.7, 0.3}, {-1.2, 0.45}}) {
      f.checkScalar(new Object[] {at[0], at[1], table}, 2, 1e-6);
    }
  }
}
