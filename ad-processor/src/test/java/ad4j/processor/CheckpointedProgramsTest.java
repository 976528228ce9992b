package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Random methods whose loops read locals, arrays, a matrix's rows and calls of other
 * {@code @Differentiable} methods, and whose code after each loop assigns those locals and writes
 * those arrays (in branches too), each compiled twice: as written and with
 * {@code @Checkpointed(snapshots = 2)}. The checkpointed reverse sweep computes each loop's
 * iterations again after the whole forward sweep, so it must see what the loop saw: its gradient
 * is the recorded one's. Before the snapshots held the variables a loop reads and the method
 * assigns later, and the reverse of a later write put back what it wrote over, the first method
 * already had another gradient, with no error (slot 0 0.5257853492 for 0.5257852795), and in a
 * run of 40 such methods 24 did.
 */
@ExtendWith(TapeIsEmpty.class)
class CheckpointedProgramsTest {
  private static final int METHODS = 30;

  /** What a loop's body reads: locals, elements, a row, calls, its counter. */
  private static final String[] READS = {"c", "d", "s", "w[i % 4]", "w[(i + 1) % 4]",
      "(i % n)", "(f ? 0.3 : -0.2)", "m[i % 2][1]", "g", "(q % 5)", "dot(w, s)",
      "row(m[1], c)"};

  /** Writes the methods, from its own random numbers. */
  private static final class Generator {
    private final Random random;
    /** Whether the code after a loop also writes through library calls. */
    private final boolean libraryCopies;
    private int copies;

    Generator(Random random, boolean libraryCopies) {
      this.random = random;
      this.libraryCopies = libraryCopies;
    }

    private String expression(List<String> names, int depth) {
      if (depth > 2 || random.nextDouble() < 0.3) {
        List<String> leaves = new ArrayList<>(names);
        leaves.addAll(List.of("0.5", "1.5", "x", "y"));
        return leaves.get(random.nextInt(leaves.size()));
      }
      String a = expression(names, depth + 1);
      String b = expression(names, depth + 1);
      return switch (random.nextInt(6)) {
        case 0 -> "(" + a + " + " + b + ")";
        case 1 -> "(" + a + " * " + b + ")";
        case 2 -> "(" + a + " - " + b + ")";
        case 3 -> "Math.sin(" + a + ")";
        case 4 -> "Math.cos(" + a + ") * " + b;
        default -> "(" + a + " * 0.5)";
      };
    }

    private String expression(String... names) {
      return expression(List.of(names), 0);
    }

    private List<String> body() {
      List<String> lines = new ArrayList<>();
      lines.add("double c = x * 0.5; double d = y; int n = 3; boolean f = false; double s = y;");
      lines.add("double[] w = {x, y, 0.25, x * y}; double[][] m = {{x, 0.5}, {y, x * y}};"
          + " float g = 0.5f; long q = 7;");
      if (random.nextDouble() < 0.7) {
        lines.add("if (y > 0) { c = " + expression("x", "y") + "; n = 4; f = true; }");
      }
      int loops = 1 + random.nextInt(3);
      for (int l = 0; l < loops; l++) {
        StringBuilder loopBody = new StringBuilder();
        for (int k = 0; k <= random.nextInt(3); k++) {
          loopBody.append("s = 0.6 * s + 0.3 * Math.sin(")
              .append(expression(List.of(READS), 0)).append("); ");
        }
        if (random.nextDouble() < 0.3) {
          loopBody.append("if (s < -50) { break; } ");
        }
        int trips = new int[] {0, 1, 2, 3, 5, 9, 17}[random.nextInt(7)];
        boolean inBranch = random.nextDouble() < 0.3;
        lines.add((inBranch ? "if (x > -0.9) { " : "") + "for (int i = 0; i < " + trips
            + "; i++) { " + loopBody + "}" + (inBranch ? " }" : ""));
        for (int k = random.nextInt(4); k > 0; k--) {
          if (libraryCopies && random.nextDouble() < 0.4) {
            lines.add(libraryCopy());
            continue;
          }
          double r = random.nextDouble();
          if (r < 0.25) {
            lines.add("c = " + expression("c", "s", "x") + ";");
          } else if (r < 0.4) {
            lines.add("n = n + " + (1 + random.nextInt(3)) + ";");
          } else if (r < 0.5) {
            lines.add("f = !f;");
          } else if (r < 0.7) {
            lines.add("w[" + random.nextInt(4) + "] = " + expression("c", "s", "y") + ";");
          } else if (r < 0.8) {
            lines.add("m[" + random.nextInt(2) + "][" + random.nextInt(2) + "] = "
                + expression("s", "c") + ";");
          } else if (r < 0.85) {
            lines.add("g = g * 2; q = q * 3;");
          } else if (r < 0.95) {
            lines.add("if (s > 0) { d = " + expression("s", "y") + "; } else { w["
                + random.nextInt(4) + "] += s; }");
          } else {
            lines.add("d = d * " + expression("s") + ";");
          }
        }
      }
      lines.add("return s + c * 0.1 + w[0] * w[3] + d + (n % 2) * s + m[1][0];");
      return lines;
    }

    /**
     * A write after a loop through a library call, which ad4j writes out as a loop of its own
     * that is not checkpointed: a fill of part of {@code w} or of a row of {@code m}, a copy into
     * {@code w}, or a clone of {@code w} written and read.
     */
    private String libraryCopy() {
      int from = random.nextInt(3);
      return switch (random.nextInt(4)) {
        case 0 -> "java.util.Arrays.fill(w, " + from + ", " + (from + 1 + random.nextInt(4 - from))
            + ", " + expression("s", "c") + ");";
        case 1 -> "System.arraycopy(new double[] {" + expression("s", "x") + ", "
            + expression("c", "y") + "}, 0, w, " + from + ", 2);";
        case 2 -> "java.util.Arrays.fill(m[" + random.nextInt(2) + "], " + expression("s", "y")
            + ");";
        default -> {
          String v = "v" + copies++;
          yield "double[] " + v + " = w.clone(); " + v + "[" + from + "] = s; c = c + " + v + "["
              + random.nextInt(4) + "] * 0.5;";
        }
      };
    }

    private String source() {
      StringBuilder source = new StringBuilder(String.join("\n",
          "package com.example;",
          "import ad4j.Checkpointed;",
          "import ad4j.Differentiable;",
          "final class Programs {",
          "  @Differentiable static double dot(double[] a, double s) {",
          "    return a[0] * s + a[1] * Math.sin(s) + a[3];",
          "  }",
          "  @Differentiable static double row(double[] r, double c) { return r[0] * c + r[1]; }",
          ""));
      for (int k = 0; k < METHODS; k++) {
        String body = String.join("\n", body()).indent(4);
        source.append("  @Differentiable static double m").append(k)
            .append("(double x, double y) {\n").append(body).append("  }\n");
        source.append("  @Checkpointed(snapshots = 2) @Differentiable static double m").append(k)
            .append("Checkpointed(double x, double y) {\n").append(body).append("  }\n");
      }
      return source.append("}\n").toString();
    }

    CompiledOnce compiled() {
      return new CompiledOnce(() -> InProcessCompiler.compileWith(
          List.of("-Xlint:all", "-Werror"), "com.example.Programs", source()));
    }
  }

  private final CompiledOnce programs = new Generator(new Random(20261130), false).compiled();

  @Test
  void checkpointedGradientsAreTheRecordedOnes() throws Exception {
    checkAgainstRecorded(programs.get());
  }

  /**
   * The same with library calls that copy or fill arrays after the loops
   * ({@code Arrays.fill}, {@code System.arraycopy}, {@code clone()}): rejected before at the
   * annotation, as loops that write arrays.
   */
  @Test
  void checkpointedGradientsBesideLibraryCopiesAreTheRecordedOnes() throws Exception {
    checkAgainstRecorded(new Generator(new Random(20261201), true).compiled().get());
  }

  private static void checkAgainstRecorded(InProcessCompiler.Compiled compiled)
      throws Exception {
    Random points = new Random(7);
    for (int k = 0; k < METHODS; k++) {
      for (int t = 0; t < 3; t++) {
        double x = 2 * points.nextDouble() - 1;
        double y = 2 * points.nextDouble() - 1;
        String where = "m" + k + "(" + x + ", " + y + ")";
        double[] recorded = (double[]) compiled.invoke("com.example.ProgramsGrad",
            "m" + k + "Gradient", x, y);
        double[] gradient = new double[2];
        double value = (Double) compiled.invoke("com.example.ProgramsGrad",
            "m" + k + "CheckpointedValueAndGradient", x, y, gradient);
        assertWithMessage("value, %s", where).that(value)
            .isEqualTo(compiled.invoke("com.example.Programs", "m" + k, x, y));
        for (int i = 0; i < 2; i++) {
          assertWithMessage("slot %s, %s", i, where).that(gradient[i])
              .isWithin(1e-12 * Math.max(1, Math.abs(recorded[i]))).of(recorded[i]);
        }
      }
    }
  }
}
