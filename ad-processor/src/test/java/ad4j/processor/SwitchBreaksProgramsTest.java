package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Random {@code switch} statements in loops whose cases leave early by {@code break} (in an
 * {@code if}, an {@code else if}, a block, with statements after it in the block too), fall
 * through, hold loops and switches with breaks
 * of their own, in colon and arrow forms. Each method is compiled whole and cut into parts of
 * 2 statements, and checked at several selectors: values bit for bit against the user's method,
 * every member against the gradient, the gradient against differences of order 8
 * ({@link MemberAgreement}); six more of order 2, their Hessians too. The conditions of the
 * breaks read the loop's counter and the selector, not the active values, so that no point
 * sits on a jump of the function.
 */
@ExtendWith(TapeIsEmpty.class)
class SwitchBreaksProgramsTest {
  private static final int METHODS = 16;
  private static final int SECOND_ORDER_METHODS = 6;
  private static final String[] CONDITIONS = {"i == 1", "k % 2 == 0", "i + k > 4", "k > 3",
      "i % 3 == 2", "(i ^ k) % 3 == 1"};

  private final Random random = new Random(20261202);

  private String condition() {
    return CONDITIONS[random.nextInt(CONDITIONS.length)];
  }

  private String update() {
    return switch (random.nextInt(5)) {
      case 0 -> "s = 0.7 * s + 0.3 * Math.sin(t * x);";
      case 1 -> "t = t * 0.9 + Math.cos(s) * 0.2;";
      case 2 -> "s += x * y * 0.5;";
      case 3 -> "t -= Math.exp(-s * s) * y;";
      default -> "s *= 1.0 + 0.1 * t;";
    };
  }

  /** A case's statements: updates with early breaks among them. */
  private String caseBody(int depth) {
    StringBuilder body = new StringBuilder();
    for (int n = 1 + random.nextInt(4); n > 0; n--) {
      double r = random.nextDouble();
      if (r < 0.4) {
        body.append(update()).append(' ');
      } else if (r < 0.5) {
        body.append("if (").append(condition()).append(") break; ");
      } else if (r < 0.58) {
        body.append("if (").append(condition()).append(") { ").append(update())
            .append(" break; } ");
      } else if (r < 0.64) {
        body.append("if (").append(condition()).append(") { ").append(update())
            .append(" } else if (").append(condition()).append(") { break; } ");
      } else if (r < 0.7) {
        body.append("for (int j = 0; j < 3; j++) { if (j == k % 3) break; ").append(update())
            .append(" } ");
      } else if (r < 0.76 && depth == 0) {
        body.append("switch (k % 3) { case 0: ").append(caseBody(1)).append("break; case 1: ")
            .append(caseBody(1)).append("default: ").append(update()).append(" } ");
      } else if (r < 0.82) {
        body.append("{ ").append(update()).append(" if (").append(condition())
            .append(") break; } ");
      } else if (r < 0.9) {
        // statements after the break inside the block that holds it
        body.append("{ if (").append(condition()).append(") break; ").append(update())
            .append(" } ");
      } else {
        body.append("if (").append(condition()).append(") { if (").append(condition())
            .append(") break; ").append(update()).append(" } else { ").append(update())
            .append(" } ");
      }
    }
    return body.toString();
  }

  private String method(int index, int order) {
    StringBuilder body = new StringBuilder();
    body.append("double s = x; double t = y;\n");
    body.append("for (int i = 0; i < 4; i++) {\n");
    if (random.nextBoolean()) {
      body.append("  switch ((i + k) % 4) {\n");
      for (String label : List.of("case 0:", "case 1:", "case 2: case 3:", "default:")) {
        body.append("    ").append(label).append(' ').append(caseBody(0));
        if (random.nextDouble() < 0.5) {
          body.append("break;"); // else falls through
        }
        body.append('\n');
      }
      body.append("  }\n");
    } else {
      body.append("  switch ((i + k) % 3) {\n");
      for (String label : List.of("case 0 ->", "case 1 ->", "default ->")) {
        body.append("    ").append(label).append(" { ").append(caseBody(0)).append("}\n");
      }
      body.append("  }\n");
    }
    body.append("  ").append(update()).append('\n');
    body.append("}\n");
    body.append("return s + t;\n");
    return "  @SuppressWarnings(\"fallthrough\")\n"
        + "  @Differentiable" + (order == 2 ? "(order = 2)" : "") + " static double m" + index
        + "(double x, double y, int k) {\n"
        + body.toString().indent(4) + "  }\n";
  }

  private String source(int methods, int order) {
    StringBuilder source = new StringBuilder(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Breaks {",
        ""));
    for (int index = 0; index < methods; index++) {
      source.append(method(index, order));
    }
    return source.append("}\n").toString();
  }

  private final List<CompiledOnce> compiled =
      CompiledOnce.wholeAndInParts("com.example.Breaks", source(METHODS, 1), 2);
  /** Methods of order 2, from the same random numbers after the first ones. */
  private final CompiledOnce secondOrder = new CompiledOnce(() -> InProcessCompiler.compileWith(
      List.of("-Xlint:all", "-Werror"), "com.example.Breaks", source(SECOND_ORDER_METHODS, 2)));

  @Test
  void earlyBreaksLeaveTheirCasesInEveryMember() throws Exception {
    double[][] points = {{0.3, 0.7}, {-0.45, 0.6}};
    for (CompiledOnce version : compiled) {
      for (int index = 0; index < METHODS; index++) {
        MemberAgreement method = MemberAgreement.of(version.get(), "com.example.Breaks",
            "m" + index, true, true, false);
        for (int k = 0; k < 8; k++) {
          for (double[] point : points) {
            method.checkScalar(new Object[] {point[0], point[1], k}, 1, 1e-7);
          }
        }
      }
    }
  }

  /** The same at order 2: Hessians against differences of the gradient, H·v against them. */
  @Test
  void earlyBreaksLeaveTheirCasesInTheSecondOrderMembers() throws Exception {
    for (int index = 0; index < SECOND_ORDER_METHODS; index++) {
      MemberAgreement method = MemberAgreement.of(secondOrder.get(), "com.example.Breaks",
          "m" + index, true, true, false);
      for (int k = 0; k < 6; k++) {
        method.checkScalar(new Object[] {0.3, 0.7, k}, 2, 1e-7);
      }
    }
  }
}
