package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.SingleErrors;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A value record with a {@code double[]} component whose compact constructor assigns no
 * component runs that constructor as written where the record is made, on the array itself.
 * One that writes into the array ({@code B { c[0] = c[0] * 2; }}, {@code Arrays.sort(c)}, a
 * helper that writes) changed elements that carry derivatives behind the derivatives' back:
 * {@code double[] w = {x, y}; B r = new B(w, 2); return r.c()[0] * w[0] + r.c()[1];} gave the
 * value {@code 4x² + y} but the gradient {@code (4x, 1)} where it is {@code (8x, 1)}. That is
 * now an error at the {@code new}; constructors that only check (with
 * {@code Objects.requireNonNull}, {@code Arrays.toString} in a thrown message, a static helper
 * that reads) or change other state ({@code COUNT++}) run as before, with exact derivatives.
 */
@ExtendWith(TapeIsEmpty.class)
class ArrayWritingRecordConstructorsTest {
  private static final String MESSAGE = "the compact constructor of value record 'B' may write"
      + " into an array it is given";

  private static List<String> making(String constructor) {
    return List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.Arrays;",
        "final class F {",
        "  record B(double[] c, int n) { B { " + constructor + " } }",
        "  static void twice(double[] a) { a[0] *= 2; }",
        "  @Differentiable static double f(double x, double y) {",
        "    double[] w = {x, y};",
        "    B r = new B(w, 2);",
        "    return r.c()[0] * w[0] + r.c()[1];",
        "  }",
        "}");
  }

  @Test
  void aConstructorSettingAnElementOfTheArrayIsAnErrorAtTheNew() {
    SingleErrors.assertSingleError(making("c[0] = c[0] * 2;"), MESSAGE, 9, 11);
  }

  @Test
  void aConstructorWritingThroughAnAliasIsAnErrorAtTheNew() {
    SingleErrors.assertSingleError(making("double[] d = c; d[0] *= 2;"), MESSAGE, 9, 11);
  }

  @Test
  void aConstructorPassingTheArrayToACallThatWritesIsAnErrorAtTheNew() {
    SingleErrors.assertSingleError(making("Arrays.sort(c);"), MESSAGE, 9, 11);
    SingleErrors.assertSingleError(making("twice(c);"), MESSAGE, 9, 11);
  }

  private static final CompiledOnce CHECKING = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Checked",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import java.util.Arrays;",
              "import java.util.Objects;",
              "final class Checked {",
              "  static int made;",
              "  record B(double[] c, int n) {",
              "    B {",
              "      Objects.requireNonNull(c);",
              "      if (c.length != n) {",
              "        throw new IllegalArgumentException(\"n \" + Arrays.toString(c));",
              "      }",
              "      sameLength(c, n);",
              "      made++;",
              "    }",
              "  }",
              "  record T(double[] c, int n) { T { c[0] *= 2; n = n + 1; } }",
              "  static void sameLength(double[] a, int n) {",
              "    if (a.length != n) {",
              "      throw new IllegalArgumentException();",
              "    }",
              "  }",
              "  @Differentiable static double f(double x, double y) {",
              "    double[] w = {x, y};",
              "    B r = new B(w, 2);",
              "    return r.c()[0] * w[0] + r.c()[1];",
              "  }",
              "  @Differentiable static double g(double x, double y) {",
              "    double[] w = {x, y};",
              "    T r = new T(w, 2);",
              "    return r.c()[0] * w[0] + r.c()[1] * r.n();",
              "  }",
              "}")));

  @Test
  void constructorsThatOnlyCheckTheArrayRunAsBefore() {
    CompiledFunction f = CHECKING.get().function("com.example.Checked", "f", 2);
    for (double[] point : new double[][] {{1.3, 0.7}, {-0.5, 2.1}}) {
      DerivativeChecks.checkAt(f, point);
      // by hand: x² + y
      assertThat(f.gradient(point)).usingTolerance(1e-15)
          .containsExactly(2 * point[0], 1.0).inOrder();
    }
  }

  @Test
  void aConstructorThatAlsoComputesAComponentIsDifferentiatedWithItsWrites() {
    CompiledFunction g = CHECKING.get().function("com.example.Checked", "g", 2);
    for (double[] point : new double[][] {{1.3, 0.7}, {-0.5, 2.1}}) {
      DerivativeChecks.checkAt(g, point);
      // by hand: the constructor doubles w[0], so 4x² + 3y
      assertThat(g.gradient(point)).usingTolerance(1e-14)
          .containsExactly(8 * point[0], 3.0).inOrder();
    }
  }
}
