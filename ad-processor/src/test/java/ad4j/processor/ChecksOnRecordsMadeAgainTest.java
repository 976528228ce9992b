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
 * The checks of a value record's compact constructor run as written on the record made of its
 * leaves, which makes the value records it holds again: their constructors run a second time.
 * For one that computes a component ({@code N { n = n + 1; }}) the checks saw another record:
 * {@code new P(new N(x, 1), y)} with {@code P { if (m.n() > 2) throw ...; }} threw
 * {@code "n 3"} from every generated member where the method returns 0.91; for one that writes
 * into its array ({@code B { c[0] *= 2; }}) each member doubled an element of the caller's
 * record again ({@code new O(p, y)} of a parameter {@code p}: 1.0, 2.0, 4.0 after three calls).
 * Both are errors at the {@code new} now; a held record whose constructor only checks is made
 * again as before.
 */
@ExtendWith(TapeIsEmpty.class)
class ChecksOnRecordsMadeAgainTest {
  @Test
  void aHeldRecordWhoseConstructorComputesIsAnErrorAtTheNew() {
    SingleErrors.assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record N(double a, int n) { N { n = n + 1; } }",
        "  record P(N m, double s) {",
        "    P { if (m.n() > 2) throw new IllegalArgumentException(\"n \" + m.n()); }",
        "  }",
        "  @Differentiable static double g(double x, double y) {",
        "    P p = new P(new N(x, 1), y);",
        "    return p.m().a() * p.s();",
        "  }",
        "}"), "the constructor of 'N' would change them a second time", 9, 11);
  }

  @Test
  void aHeldRecordWhoseConstructorWritesIntoItsArrayIsAnErrorAtTheNew() {
    SingleErrors.assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record B(double[] c, int n) { B { c[0] = c[0] * 2; } }",
        "  record O(B b, double s) { O { if (s < -100) throw new IllegalArgumentException(); } }",
        "  @Differentiable static double f(B p, double y) {",
        "    O o = new O(p, y);",
        "    return y * y + o.s();",
        "  }",
        "}"), "makes the value record 'B' it holds again of its components", 7, 11);
  }

  private static final CompiledOnce CHECKED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Checked",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Checked {",
              "  record Q(double a, int n) {",
              "    Q { if (n < 0) throw new IllegalArgumentException(); }",
              "  }",
              "  record PQ(Q m, double s) {",
              "    PQ { if (m.n() > 2) throw new IllegalArgumentException(\"n \" + m.n()); }",
              "  }",
              "  @Differentiable static double h(double x, double y) {",
              "    PQ p = new PQ(new Q(x, 1), y);",
              "    return p.m().a() * p.s();",
              "  }",
              "}")));

  @Test
  void aHeldRecordWhoseConstructorOnlyChecksIsMadeAgain() {
    CompiledFunction h = CHECKED.get().function("com.example.Checked", "h", 2);
    for (double[] point : new double[][] {{1.3, 0.7}, {-0.5, 2.1}}) {
      DerivativeChecks.checkAt(h, point);
      assertThat(h.gradient(point)).usingTolerance(1e-15)
          .containsExactly(point[1], point[0]).inOrder();
    }
  }
}
