package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code ++}, {@code --}, compound and plain assignment used as expressions on elements of local
 * arrays ({@code s += (a[i] *= 2)}, {@code y = a[i]++}, {@code t[k] = t[k - 1] = y},
 * {@code coef[p++]}, {@code n[i] <<= 2}), in Java's evaluation order: the array and the index
 * once, the element read before the right-hand side, the right-hand side before the store. Each
 * function is checked against its own user method (values bit for bit), finite differences, and
 * forward against reverse mode; every function returns what it leaves in its arrays, so that a
 * side effect done twice, once too few or in another order changes the value.
 */
@ExtendWith(TapeIsEmpty.class)
class ArrayElementSideEffectsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Elements {",
      "  static final double[] COEF = {0.5, -1.25, 2, 0.75};",
      "  @Differentiable(order = 2) static double compoundInSum(double x) {",
      "    double[] a = {x, 2 * x, x * x};",
      "    double s = 0;",
      "    for (int i = 0; i < a.length; i++) { s += (a[i] *= 2) * x; }",
      "    return s + a[0] * a[1] - a[2];",
      "  }",
      "  @Differentiable static double incrementValues(double x) {",
      "    double[] a = {x, 2 * x};",
      "    double y = a[0]++;",
      "    double z = ++a[1] * y;",
      "    return y * z + a[0] + a[1]-- * a[1] + --a[0] * x;",
      "  }",
      "  @Differentiable static double chainedStores(double y) {",
      "    double[] t = new double[5];",
      "    t[0] = y;",
      "    for (int k = 2; k < t.length; k++) { t[k] = t[k - 1] = Math.sin(t[k - 2] * y) + 1; }",
      "    return t[1] + t[2] * t[3] - t[4] * y;",
      "  }",
      "  @Differentiable static double horner(double x) {",
      "    double[] coef = COEF.clone();",
      "    coef[1] *= x;",
      "    int p = 0;",
      "    double s = coef[p++];",
      "    while (p < coef.length) { s = s * x + coef[p++]; }",
      "    return s * p;",
      "  }",
      "  @Differentiable static double indexOnce(double x) {",
      "    double[] a = {x, x * x, 3 * x, 1};",
      "    int i = 0;",
      "    a[i++] += x * a[i];",  // a[0] += x * a[1]: the index before the right-hand side
      "    a[i] = (i = 3) * x + a[i];",  // a[1] = 3x + a[3]
      "    a[i--] -= a[i]-- * x;",  // a[3] -= a[2] * x; then a[2] is one less
      "    return a[0] * a[1] + a[2] * a[3] + i;",
      "  }",
      "  @Differentiable static double selfReference(double x) {",
      "    double[] a = {x, 2 * x};",
      "    a[0] -= a[0]-- * x;",  // the old a[0] on both sides; the decrement is overwritten
      "    a[1] = a[1]++ + a[1] * x;",  // 2x + (2x + 1) x
      "    return a[0] + a[1];",
      "  }",
      "  @Differentiable static double inConditions(double x, double y) {",
      "    double[] a = {x, y, 0};",
      "    double r = 0;",
      "    if (x > 0 && (a[0] *= y) > 1) { r = a[0]; }",
      "    double w = x > y ? (a[2] = x * y) : (a[2] += y);",
      "    return r + w * a[2] + a[0] * a[1];",
      "  }",
      "  @Differentiable(order = 2) static double inLoopCondition(double x) {",
      "    double[] a = {x, 0};",
      "    int n = 0;",
      "    while ((a[0] *= 0.5) > 0.1 && ++n < 30) { a[1] += a[0] * x; }",
      "    return a[0] + a[1] * n;",
      "  }",
      "  @Differentiable static double inDoWhileCondition(double x) {",
      "    double[] a = {x, 0};",
      "    int n = 0;",
      "    do { a[1] += a[0] * x; } while ((a[0] *= 0.8) > 0.3 && ++n < 10);",
      "    return a[1] + a[0] * n;",
      "  }",
      "  @Differentiable static double overwrittenInLoop(double x) {",
      "    double[] b = {x, 1};",
      "    for (int i = 0; i < 5; i++) {",
      "      b[i % 2] = b[(i + 1) % 2]++ * x + (b[i % 2] *= 0.5);",
      "    }",
      "    return b[0] - b[1] * x;",
      "  }",
      "  @Differentiable static double madeInLoop(double x) {",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      double[] c = {x, i};",
      "      s += c[0]++ * c[0] + (c[1] += x) * c[0];",
      "    }",
      "    return s;",
      "  }",
      // javac 20 and later warn of the narrowing in 'n[0] += 2.5 * x', which is the point here
      "  @SuppressWarnings(\"lossy-conversions\")",
      "  @Differentiable static double intElements(double x) {",
      "    int[] n = {1, 2, 3, 0};",
      "    double[] a = new double[6];",
      "    n[0] <<= 2;",
      "    int k = (n[1] |= 4) + (n[2] ^= 1) + n[0]++;",
      "    n[3] += 2.5 * x;",
      "    a[n[2]++] = x * k;",
      "    a[--n[1]] += x * x;",
      "    n[0] >>= n[3] & 1;",
      "    return x * n[0] + k * x * n[1]-- + a[2] + a[5] + n[1] + n[2] + n[3];",
      "  }",
      "}");

  private static final CompiledOnce ELEMENTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Elements", SOURCE));

  private static Compiled elements() {
    return ELEMENTS.get();
  }

  static Stream<Arguments> functions() {
    return Stream.of(
        Arguments.of("compoundInSum", new double[][] {{0.7}, {-1.3}}),
        Arguments.of("incrementValues", new double[][] {{0.6}, {-1.4}, {2}}),
        Arguments.of("chainedStores", new double[][] {{0.8}, {-0.4}}),
        Arguments.of("horner", new double[][] {{0.9}, {-2.1}}),
        Arguments.of("indexOnce", new double[][] {{0.7}, {-1.2}}),
        Arguments.of("selfReference", new double[][] {{0.7}, {-1.2}}),
        Arguments.of("inConditions", new double[][] {{2, 1}, {0.5, 1.5}, {-1, 3}, {1.5, 0.3}}),
        Arguments.of("inLoopCondition", new double[][] {{0.7}, {3.0}, {-0.2}}),
        Arguments.of("inDoWhileCondition", new double[][] {{0.7}, {2}, {0.1}}),
        Arguments.of("overwrittenInLoop", new double[][] {{0.7}, {-1.1}}),
        Arguments.of("madeInLoop", new double[][] {{0.7}, {-1.1}}),
        Arguments.of("intElements", new double[][] {{0.3}, {0.5}, {-1.1}}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("functions")
  void derivativesMatchTheUsersMethod(String name, double[][] points) {
    CompiledFunction f = elements().function("com.example.Elements", name, points[0].length);
    for (double[] x : points) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  @Test
  void evaluationOrderAsJavaDefinesIt() {
    // independent of the generated code: the expected values and derivatives are worked out
    // from JLS 15.7 and 15.26 by hand
    double x = 0.7;
    CompiledFunction indexOnce = elements().function("com.example.Elements", "indexOnce", 1);
    // a[0] = x + x * x^2; a[1] = 3x + 1; a[3] = 1 - 3x * x; a[2] = 3x - 1; i = 2
    double a0 = x + x * x * x;
    double a1 = 3 * x + 1;
    double a3 = 1 - 3 * x * x;
    double a2 = 3 * x - 1;
    assertThat(indexOnce.value(x)).isEqualTo(a0 * a1 + a2 * a3 + 2);
    double da0 = 1 + 3 * x * x;
    double da3 = -6 * x;
    assertThat(indexOnce.gradient(x)[0]).isWithin(1e-12)
        .of(da0 * a1 + a0 * 3 + 3 * a3 + a2 * da3);

    CompiledFunction self = elements().function("com.example.Elements", "selfReference", 1);
    // a[0] = x - x * x; a[1] = 2x + (2x + 1) x
    assertThat(self.value(x)).isEqualTo((x - x * x) + (2 * x + (2 * x + 1) * x));
    assertThat(self.gradient(x)[0]).isWithin(1e-12).of(1 - 2 * x + 2 + 4 * x + 1);
  }

  @Test
  void secondDerivativesThroughElementsWrittenInsideExpressions() throws Exception {
    Class<?> grad = elements().load("com.example.ElementsGrad");
    // compoundInSum: s = 2x (x + 2x + x^2), a = {2x, 4x, 2x^2}: 12 x^2 + 2 x^3
    assertThat(hessian(grad, "compoundInSum", 0.7)).isWithin(1e-10).of(24 + 12 * 0.7);
    // inLoopCondition: at 0.7 two halvings pass the test (x / 8 + 1.5 x^2), at 3 four
    // (x / 32 + 3.75 x^2)
    assertThat(hessian(grad, "inLoopCondition", 0.7)).isWithin(1e-10).of(3);
    assertThat(hessian(grad, "inLoopCondition", 3)).isWithin(1e-10).of(7.5);
  }

  private static double hessian(Class<?> grad, String name, double x) throws Exception {
    Method method = grad.getDeclaredMethod(name + "Hessian", double.class);
    method.setAccessible(true); // ElementsGrad is package-private, as Elements is
    return ((double[][]) method.invoke(null, x))[0][0];
  }

  @Test
  void intElementsNarrowAndShiftAsJavaDoes() {
    CompiledFunction ints = elements().function("com.example.Elements", "intElements", 1);
    // at x = 0.5: n = {4, 6, 2, 1}, k = 6 + 2 + 4 = 12, n[0] = 5; a[2] = 12x, n[2] = 3;
    // n[1] = 5, a[5] = x^2; n[0] = 5 >> 1 = 2; result 2x + 12 * 5x + 12x + x^2 + 4 + 3 + 1
    double x = 0.5;
    assertThat(ints.value(x)).isEqualTo(2 * x + 12 * x * 5 + 12 * x + x * x + 4 + 3 + 1);
    assertThat(ints.gradient(x)[0]).isWithin(1e-12).of(2 + 60 + 12 + 2 * x);
  }
}
