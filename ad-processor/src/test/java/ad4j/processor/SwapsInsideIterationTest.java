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
 * A double-buffer swap ({@code double[] t = u; u = v; v = t;}) inside an enhanced {@code for}
 * over one of the two arrays. ad4j writes the swap as an exchange of the arrays' elements, which
 * computes what Java's exchange of the arrays computes where nothing else names them; but Java
 * evaluates the enhanced {@code for}'s array once, and the loop goes on over the array it
 * started with, which the swap leaves in place, where the exchange fills it with the other
 * array's elements. It was taken for a swap the exchange computes: {@code iterated} below, with
 * {@code u = x * a} and {@code v = a + 3 x²} summed as {@code Σ u[k] (k + 1)}, gave the value
 * 15.1 where the method gives 4.9 at a = (0.3, 0.5, 0.7, 0.9), x = 0.7, and the gradient
 * 27.6 for ∂/∂x where the derivative is 7.0, with no error. It is now the error at the swap;
 * an enhanced {@code for} over the array that ends before the swap stays the exchange.
 */
@ExtendWith(TapeIsEmpty.class)
class SwapsInsideIterationTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Buffers {",
      "  @Differentiable static double iteratedBefore(double[] a, double x) {",
      "    double[] u = new double[a.length];",
      "    double[] v = new double[a.length];",
      "    for (int i = 0; i < a.length; i++) { u[i] = a[i] * x; v[i] = a[i] + x * x * 3; }",
      "    double s = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      for (double e : u) s += e * (k + 1);",
      "      for (int i = 0; i < a.length; i++) v[i] = u[i] * x + s * 0.1;",
      "      double[] t = u;",
      "      u = v;",
      "      v = t;",
      "    }",
      "    return s + u[1] * v[2];",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() -> InProcessCompiler
      .compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Buffers", SOURCE));

  private static List<String> iterating(String iterated, String... swap) {
    return List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double iterated(double[] a, double x) {",
        "    double[] u = new double[a.length];",
        "    double[] v = new double[a.length];",
        "    for (int i = 0; i < a.length; i++) { u[i] = a[i] * x; v[i] = a[i] + x * x * 3; }",
        "    double s = 0;",
        "    int k = 0;",
        "    for (double e : " + iterated + ") {",
        "      s += e * (k + 1);",
        "      k++;",
        swap[0],
        swap[1],
        swap[2],
        swap[3],
        "    }",
        "    return s;",
        "  }",
        "}");
  }

  @Test
  void aSwapInsideAnEnhancedForOverTheFirstArrayIsAnErrorAtTheSwap() {
    assertSingleError(iterating("u", "      double[] t = u;", "      u = v;", "      v = t;", ""),
        "the swap of array variables 'u' and 'v' is not supported here: ad4j exchanges their"
            + " elements instead, and the enhanced 'for' over 'u' that holds the swap goes on"
            + " over the array it started with",
        14, 7);
  }

  @Test
  void aSwapInABranchOfAnEnhancedForOverTheSecondArrayIsAnErrorAtTheSwap() {
    assertSingleError(iterating("v", "      if (s > 1) {", "        double[] t = u;",
            "        u = v;", "        v = t; }"),
        "the enhanced 'for' over 'v' that holds the swap goes on over the array it started with",
        15, 9);
  }

  @Test
  void anEnhancedForThatEndsBeforeTheSwapKeepsTheExchange() throws Exception {
    MemberAgreement agreement = MemberAgreement.of(COMPILED.get(), "com.example.Buffers",
        "iteratedBefore", true, true);
    agreement.checkScalar(new Object[] {new double[] {0.3, 0.5, 0.7, 0.9}, 0.7}, 1, 1e-7);
    agreement.checkScalar(new Object[] {new double[] {-0.4, 1.1, 0.2}, 1.3}, 1, 1e-7);
  }
}
