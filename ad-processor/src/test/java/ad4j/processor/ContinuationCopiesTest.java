package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Arrays made or read after a branch that may jump ({@code if (c) { if (d) { return y; } }}):
 * the lowering moves the statements after it into each path that completes normally, and the
 * paths after the first take a copy ({@code front/StatementCopier}). The copy of an array whose
 * elements carry derivatives (a matrix's row, a new array, a clone) stays such an array. Before,
 * {@code IrBuilder.copyOf} took {@code Value.isActive()}, false for every array, so the copied
 * array carried no derivative while what was read from it did, and each of these methods was an
 * internal error ("no tangent for the array of t#22"; the vector function's
 * IndexOutOfBoundsException).
 */
@ExtendWith(TapeIsEmpty.class)
class ContinuationCopiesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Continued {",
      "  @Differentiable(order = 2) static double row(double x, double y) {",
      "    double[][] m = {{x, 0.5}, {y, x * y}};",
      "    if (x > -0.9) { if (y > 30) { return y; } }",
      "    return y * m[1][1] + m[0][0] * m[1][0];",
      "  }",
      "  @Differentiable(order = 2) static double made(double x, double y) {",
      "    double s = x;",
      "    if (x > -0.9) { if (y > 30) { return y; } s = s * y; }",
      "    double[] w = {x * s, y};",
      "    double[] v = w.clone();",
      "    return w[0] * v[1] + Math.sin(w[1]);",
      "  }",
      "  @Differentiable static double[] vector(double x, double y) {",
      "    double s = x;",
      "    for (int i = 0; i < 3; i++) {",
      "      if (s > 0) { if (s > 100) { break; } s = s * 1.5 + y; }",
      "      double[] t = {s, y};",
      "      s = s + t[0] * t[1] * 0.1;",
      "    }",
      "    double[] w = {s, x * y};",
      "    return w;",
      "  }",
      "}",
      "");

  private static final List<CompiledOnce> COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Continued", SOURCE, 2);

  private static final double[][] POINTS = {{0.3, 0.7}, {-0.95, 0.7}, {0.4, -0.6}};

  @ParameterizedTest
  @ValueSource(ints = {0, 1})
  void copiedArraysCarryTheirDerivatives(int version) throws Exception {
    for (String name : List.of("row", "made")) {
      MemberAgreement.of(COMPILED.get(version).get(), "com.example.Continued", name, true, true)
          .checkScalarAt(POINTS, 2, 1e-7);
    }
    for (double[] point : new double[][] {{0.3, 0.7}, {-0.3, 0.7}, {0.5, 0.2}}) {
      MemberAgreement.of(COMPILED.get(version).get(), "com.example.Continued", "vector", true,
          true).checkVector(new Object[] {point[0], point[1]});
    }
  }
}
