package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code System.arraycopy} between two rows of a local matrix, which may be one array
 * ({@code m[i]} and {@code m[j]} with {@code i == j}, or a local holding a row): the library
 * copies overlapping ranges as if through a temporary array. Generated code copied element by
 * element from the first up, so where the target started after the source it read elements it
 * had just written: {@code System.arraycopy(m[0], 0, m[0], 1, 2)} of the row {x, y, x * y}
 * gave {x, x, x} instead of {x, x, y}, and every member returned another value and its
 * derivative (0.9782 for 0.905 at (0.73, 0.61)). Only one array named twice was an error
 * before.
 */
@ExtendWith(TapeIsEmpty.class)
class OverlappingRowCopiesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class RowCopies {",
      "  @Differentiable(order = 2) static double shifted(double x, double y) {",
      "    double[][] m = {{x, y, x * y}, {y, x, 1}};",
      "    System.arraycopy(m[0], 0, m[0], 1, 2);",
      "    return m[0][0] * m[0][1] + m[0][2] * y;",
      "  }",
      "  @Differentiable(order = 2) static double throughLocal(double x, double y, int i,",
      "      int j) {",
      "    double[][] m = {{x, y, x * y, x - y}, {y, x, 1, 2}};",
      "    double[] r = m[i];",
      "    System.arraycopy(r, 0, m[j], 1, 3);",
      "    System.arraycopy(m[j], 1, r, 0, 2);",
      "    return m[0][0] * m[0][1] + m[0][2] * m[0][3] + m[1][1] * m[1][3];",
      "  }",
      "  @Differentiable static double inLoop(double x, double y, int i, int j) {",
      "    double[][] m = new double[3][4];",
      "    for (int r = 0; r < 3; r++) {",
      "      for (int c = 0; c < 4; c++) { m[r][c] = Math.sin(x * (r + 1) + y * c); }",
      "    }",
      "    double s = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      System.arraycopy(m[i], 0, m[j], 1, 3);",
      "      System.arraycopy(m[j], 1, m[i], 0, 3);",
      "      s += m[0][0] * m[1][1] + m[2][3] * m[0][2] * y;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double[] vector(double x, double y, int i, int j) {",
      "    double[][] m = {{x, y, x * y, x - y}, {y, x, 1, 2}};",
      "    System.arraycopy(m[i], 1, m[j], 0, 3);",
      "    System.arraycopy(m[j], 0, m[i], 1, 2);",
      "    return new double[] {m[0][0] * m[0][1], m[0][2] + m[1][0] * m[0][3], m[1][3]};",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.RowCopies", SOURCE));

  @Test
  void aCopyWithinOneRowKeepsWhatItReads() throws Exception {
    MemberAgreement shifted = MemberAgreement.of(COMPILED.get(), "com.example.RowCopies",
        "shifted", true, true);
    shifted.checkScalarAt(new double[][] {{0.73, 0.61}, {-1.34, 2.07}}, 2, 1e-6);
  }

  @Test
  void rowsThatMayBeOneArrayAreCopiedAsTheLibraryDoes() throws Exception {
    for (String name : List.of("throughLocal", "inLoop", "vector")) {
      MemberAgreement member = MemberAgreement.of(COMPILED.get(), "com.example.RowCopies",
          name, true, true, false, false);
      for (int i = 0; i < 2; i++) {
        for (int j = 0; j < 2; j++) {
          Object[] arguments = {0.73, -0.61, i, j};
          if (name.equals("vector")) {
            member.checkVector(arguments);
          } else {
            member.checkScalar(arguments, name.equals("throughLocal") ? 2 : 1, 1e-6);
          }
        }
      }
    }
  }
}
