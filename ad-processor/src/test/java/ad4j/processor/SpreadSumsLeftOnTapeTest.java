package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A long method with branches outside loops and no loop: its reverse sweep is cut into parts
 * that leave their numbers on the tape for later parts ({@code methodsize/ValuesLeftOnTape}),
 * and the long adjoint sums are spread across the parts ({@code optimize/SumSpreading}). A part
 * leaves a variable it declares on the tape when nothing stores into it after the part; the
 * spread adds a sum's terms into an adjoint at the end of the part that makes them, a later
 * part than the one that declares it, and the count of stores was the program's before the
 * spread. The declaring part left the adjoint on the tape, the later part's additions were
 * handed back and dropped, and the gradient was silently wrong: {@code mGradient} gave
 * 3.85958 and 0.35861 where the derivatives are 3.86080 and 0.35791 at (0.8, 0.9). The
 * program is the shrunk form of a random one of 60 locals and 400 statements (hunt67a); what
 * matters is its shape, which decides where the cut falls.
 */
@ExtendWith(TapeIsEmpty.class)
class SpreadSumsLeftOnTapeTest {
  /**
   * The statements: {@code sT,U,W} is {@code vT = 0.5 * vT + 0.3 * Math.sin(vU * vW)},
   * {@code aU} is {@code a = 0.9 * a + 0.05 * vU} and {@code bU,W,T} is {@code if (vU > vW)
   * { vT += 0.1 * vU; } else { vT *= 0.95; }}.
   */
  private static final String STATEMENTS = "s33,20,6 a39 s8,44,49 b6,31,31 b7,54,37 s39,16,45"
      + " a33 a24 s52,33,39 b13,55,34 b40,13,34 b54,34,13 b45,32,7 b21,32,48 s53,12,51"
      + " s30,6,1 b35,39,48 s57,36,30 b27,13,22 b0,40,23 s2,54,12 b29,23,26 s23,25,58"
      + " b10,6,38 s50,0,20 b53,45,51 s25,36,38 b57,21,8 a23 s48,11,25 a11 s19,30,6"
      + " b22,40,56 b14,17,3 b21,13,19 b36,11,25 a24 s41,13,44 s48,25,36 b39,6,7 a16"
      + " s32,3,48 s41,24,0 a16 a34";

  private static final int LOCALS = 60;

  private static String source() {
    StringBuilder code = new StringBuilder("package com.example;\nimport ad4j.Differentiable;\n"
        + "final class Spread {\n  @Differentiable static double m(double a, double b) {\n");
    for (int i = 0; i < LOCALS; i++) {
      code.append(String.format(Locale.ROOT, "    double v%d = a * %.2f + b * %.2f;\n", i,
          ((i * 37) % 19 - 9) / 10.0, ((i * 23) % 17 - 8) / 10.0));
    }
    code.append("    int k = 0;\n    long l = 1L << 55;\n");
    for (String statement : STATEMENTS.split(" ")) {
      String[] v = statement.substring(1).split(",");
      switch (statement.charAt(0)) {
        case 's' -> code.append(String.format(Locale.ROOT,
            "    v%s = 0.5 * v%s + 0.3 * Math.sin(v%s * v%s);\n", v[0], v[0], v[1], v[2]));
        case 'a' -> code.append(String.format(Locale.ROOT, "    a = 0.9 * a + 0.05 * v%s;\n",
            v[0]));
        default -> code.append(String.format(Locale.ROOT,
            "    if (v%s > v%s) {\n      v%s += 0.1 * v%s;\n"
                + "    } else {\n      v%s *= 0.95;\n    }\n",
            v[0], v[1], v[2], v[0], v[2]));
      }
    }
    code.append("    return ");
    for (int i = 0; i < LOCALS; i++) {
      code.append(String.format(Locale.ROOT, "v%d * %.1f + ", i,
          ((i * 7) % 11 - 5) / 5.0));
    }
    return code.append("a + k * 0.01 + (l - (1L << 55)) * 0.001;\n  }\n}\n").toString();
  }

  private static final CompiledOnce COMPILED = new CompiledOnce(() -> InProcessCompiler
      .compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Spread", source()));

  @Test
  void theReverseSweepIsCutIntoPartsThatLeaveNumbersOnTheTape() throws Exception {
    String generated = InProcessCompiler.gradSource(COMPILED.get().compilation())
        .getCharContent(true).toString();
    assertThat(generated).contains("mPullbackOntoTapePart2(");
    assertThat(generated).containsMatch("tape\\.doubleAt\\(handedAt\\d*, \\d+\\)");
  }

  @Test
  void everyContributionToASpreadAdjointReachesTheGradient() throws Exception {
    InProcessCompiler.Compiled compiled = COMPILED.get();
    for (double[] point : new double[][] {{0.8, 0.9}, {0.3, -0.7}, {-0.5, 0.4}}) {
      double[] gradient = (double[]) compiled.invoke("com.example.SpreadGrad", "mGradient",
          point[0], point[1]);
      for (int i = 0; i < 2; i++) {
        double tangent = (double) compiled.invoke("com.example.SpreadGrad", "mTangent",
            point[0], point[1], i == 0 ? 1.0 : 0.0, i == 1 ? 1.0 : 0.0);
        assertWithMessage("slot %s at (%s, %s): gradient against tangent", i, point[0],
            point[1]).that(gradient[i]).isWithin(1e-12 * Math.max(1, Math.abs(tangent)))
            .of(tangent);
      }
    }
    // and every member against differences of the method, forward against reverse
    MemberAgreement.of(COMPILED.get(), "com.example.Spread", "m", true, true)
        .checkScalarAt(new double[][] {{0.8, 0.9}, {-0.5, 0.4}}, 1, 1e-7);
  }
}
