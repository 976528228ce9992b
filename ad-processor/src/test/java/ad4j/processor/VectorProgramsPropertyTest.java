package ad4j.processor;

import static ad4j.processor.testing.GeneratedClassChecks.methodText;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.PropertySeeds;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random vector functions {@code double[] v(double[] x, double c)} with three results and five
 * slots, so that their Jacobian is taken by rows: straight-line or with a loop, local arrays
 * written, overwritten, made in the loop and read back, branches on computed values. Their
 * Jacobian members run the reverse sweep once per row after one forward sweep ({@code
 * JacobianRows}, taking what loops recorded back from the tape for each row; {@code
 * mJacobian} of a straight-line program that only writes its result holds the sweeps itself,
 * without making the result, and must equal {@code mValueAndJacobian}'s); each row is
 * checked against the pullback of its unit seed (a whole reverse sweep of its own), against
 * fourth-order central differences of the user's method (slots where two step sizes disagree
 * lie on a kink and are skipped), and the Jacobian against the tangent (forward mode) along a
 * direction; the value bit for bit. {@code -Dad4j.seed=N} draws other programs; a failure
 * shows the program's source.
 */
@ExtendWith(TapeIsEmpty.class)
class VectorProgramsPropertyTest {
  private static final int PROGRAMS = 40;
  private static final long SEED = PropertySeeds.programsSeed(20261127);
  private static final List<String> BODIES = new ArrayList<>();

  static {
    Random random = new Random(SEED);
    for (int p = 0; p < PROGRAMS; p++) {
      BODIES.add(new Generator(random).program("v" + p));
    }
  }

  private static final CompiledOnce PROGRAMS_CLASS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.VectorPrograms", "package com.example;\nimport ad4j.Differentiable;\n"
              + "final class VectorPrograms {\n" + String.join("\n", BODIES) + "\n}\n"));

  private static final double[] X = {0.31, -0.47, 0.73, 0.12};
  private static final double C = 0.58;

  static Stream<Integer> programs() {
    return IntStream.range(0, PROGRAMS).boxed();
  }

  @Test
  void everyProgramTakesItsRowsAfterOneForwardSweep() throws Exception {
    String generated = InProcessCompiler.gradSource(PROGRAMS_CLASS.get().compilation())
        .getCharContent(true).toString();
    for (int p = 0; p < PROGRAMS; p++) {
      assertWithMessage(BODIES.get(p)).that(generated)
          .contains("private static double[] v" + p + "JacobianRows(");
      // mJacobian holds the sweeps and makes no result array where the method only writes it
      // and the forward sweep records nothing on the tape (no loop)
      boolean readsBack = BODIES.get(p).lines().anyMatch(line -> line.strip().matches(
          "out\\[\\d\\] \\+= .*"));
      boolean records = generated.contains("v" + p + "JacobianRowsOnTape(");
      String member = methodText(generated, "static double[][] v" + p + "Jacobian(");
      assertWithMessage(BODIES.get(p)).that(member.contains("v" + p + "JacobianRows("))
          .isEqualTo(readsBack || records);
    }
  }

  @ParameterizedTest(name = "v{0}")
  @MethodSource("programs")
  void rowsArePullbacksAndMatchDifferencesAndTheTangent(int p) throws Exception {
    String name = "v" + p;
    String source = BODIES.get(p);
    double[] value = (double[]) invoke(name, false, X, C);
    double[][] jacobian = new double[3][5];
    double[] returned = (double[]) invoke(name + "ValueAndJacobian", true, X, C, jacobian);
    for (int i = 0; i < 3; i++) {
      assertWithMessage("value of %s", source).that(Double.doubleToRawLongBits(returned[i]))
          .isEqualTo(Double.doubleToRawLongBits(value[i]));
    }
    double[][] allocated = (double[][]) invoke(name + "Jacobian", true, X, C);
    assertWithMessage("mJacobian of %s", source).that(allocated).isEqualTo(jacobian);

    for (int i = 0; i < 3; i++) {
      double[] seed = new double[3];
      seed[i] = 1;
      double[] row = new double[5];
      invoke(name + "Pullback", true, X, C, seed, row);
      for (int slot = 0; slot < 5; slot++) {
        assertWithMessage("[%s][%s] of %s against the pullback", i, slot, source)
            .that(jacobian[i][slot])
            .isWithin(1e-12 * Math.max(1, Math.abs(row[slot]))).of(row[slot]);
      }
    }

    for (int slot = 0; slot < 5; slot++) {
      double[] coarse = difference(name, slot, 1e-3);
      double[] fine = difference(name, slot, 5e-4);
      for (int i = 0; i < 3; i++) {
        if (Math.abs(coarse[i] - fine[i]) > 1e-6 * Math.max(1, Math.abs(fine[i]))) {
          continue; // a kink (a branch) near the point: no reference here
        }
        assertWithMessage("[%s][%s] of %s against differences", i, slot, source)
            .that(jacobian[i][slot]).isWithin(1e-6 * Math.max(1, Math.abs(fine[i])))
            .of(fine[i]);
      }
    }

    double[] xDot = {0.2, -0.7, 0.4, 1.1};
    double cDot = -0.3;
    double[] tangent = (double[]) invoke(name + "Tangent", true, X, C, xDot, cDot);
    for (int i = 0; i < 3; i++) {
      double expected = cDot * jacobian[i][4];
      for (int k = 0; k < 4; k++) {
        expected += xDot[k] * jacobian[i][k];
      }
      assertWithMessage("tangent %s of %s", i, source).that(tangent[i])
          .isWithin(1e-11 * Math.max(1, Math.abs(expected))).of(expected);
    }
    assertThat(tangent).hasLength(3);
  }

  private static double[] difference(String name, int slot, double h) throws Exception {
    double[][] f = new double[4][];
    double[] steps = {-2 * h, -h, h, 2 * h};
    for (int s = 0; s < 4; s++) {
      double[] moved = X.clone();
      double movedC = C;
      if (slot < 4) {
        moved[slot] += steps[s];
      } else {
        movedC += steps[s];
      }
      f[s] = (double[]) invoke(name, false, moved, movedC);
    }
    double[] d = new double[3];
    for (int i = 0; i < 3; i++) {
      d[i] = (f[0][i] - 8 * f[1][i] + 8 * f[2][i] - f[3][i]) / (12 * h);
    }
    return d;
  }

  private static Object invoke(String name, boolean generated, Object... arguments)
      throws Exception {
    return PROGRAMS_CLASS.get().invoke(
        generated ? "com.example.VectorProgramsGrad" : "com.example.VectorPrograms", name,
        arguments);
  }

  /** Writes one random program {@code static double[] name(double[] x, double c)}. */
  private static final class Generator {
    private final Random random;
    private int size;
    private boolean inLoop;

    Generator(Random random) {
      this.random = random;
    }

    String program(String name) {
      size = 3 + random.nextInt(3);
      StringBuilder out = new StringBuilder();
      out.append("  @Differentiable static double[] ").append(name)
          .append("(double[] x, double c) {\n");
      out.append("    double[] a = new double[").append(size).append("];\n");
      out.append(random.nextBoolean() ? "    double[] b = x.clone();\n"
          : "    double[] b = {c, x[1], 0.5};\n");
      out.append("    double s = c;\n");
      if (random.nextInt(3) == 0) {
        // straight-line: no tape at all
        int statements = 3 + random.nextInt(5);
        for (int k = 0; k < statements; k++) {
          out.append("    ").append(statement()).append("\n");
        }
      } else {
        inLoop = true;
        out.append("    for (int i = 0; i < ").append(2 + random.nextInt(4)).append("; i++) {\n");
        int statements = 2 + random.nextInt(4);
        for (int k = 0; k < statements; k++) {
          out.append("      ").append(statement()).append("\n");
        }
        out.append("    }\n");
        inLoop = false;
      }
      out.append("    double[] out = new double[3];\n");
      out.append("    out[0] = s + a[0] * a[1];\n");
      out.append("    out[1] = a[").append(size - 1).append("] - b[b.length - 1] * c;\n");
      out.append("    out[2] = ").append(expression(2)).append(";\n");
      // an element added to reads the result back; one overwritten only writes it
      out.append("    out[").append(random.nextInt(3))
          .append(random.nextBoolean() ? "] += " : "] = ").append(expression(2)).append(";\n");
      out.append("    return out;\n");
      out.append("  }\n");
      return out.toString();
    }

    private String statement() {
      return switch (random.nextInt(8)) {
        case 0 -> "a[" + index() + "] = " + expression(3) + ";";
        case 1 -> "a[" + index() + "] += " + expression(3) + ";";
        case 2 -> "s = s * 0.5 + " + expression(3) + ";";
        case 3 -> "if (" + expression(2) + " > 0) { a[" + index() + "] *= " + expression(2)
            + "; } else { s -= " + expression(2) + "; }";
        case 4 -> "b[" + counter() + " % b.length] = " + expression(2) + ";";
        case 5 -> "{ double[] t = new double[" + counter() + " % 2 + 2]; t[0] = "
            + expression(2) + "; t[t.length - 1] += " + expression(2) + " * t[0]; s += t[0] * t["
            + counter() + " % t.length]; }";
        case 6 -> "{ double[] t = a.clone(); t[" + index() + "] = " + expression(2) + "; s += t["
            + index() + "] * " + expression(1) + "; }";
        default -> "for (double v : b) { s += 0.25 * v * " + expression(1) + "; }";
      };
    }

    /** The loop's counter, or a constant in straight-line programs. */
    private String counter() {
      return inLoop ? "i" : Integer.toString(random.nextInt(4));
    }

    private String index() {
      return random.nextBoolean() ? "(" + counter() + " + " + random.nextInt(size) + ") % " + size
          : Integer.toString(random.nextInt(size));
    }

    private String expression(int depth) {
      int choice = random.nextInt(depth <= 0 ? 5 : 9);
      return switch (choice) {
        case 0 -> "x[(" + counter() + " + " + random.nextInt(4) + ") % x.length]";
        case 1 -> "a[" + index() + "]";
        case 2 -> "s";
        case 3 -> "c";
        case 4 -> "b[" + random.nextInt(3) + "]";
        case 5 -> "Math.sin(" + expression(depth - 1) + ")";
        case 6 -> "(" + expression(depth - 1) + " * " + expression(depth - 1) + ")";
        case 7 -> "(" + expression(depth - 1) + " + " + expression(depth - 1) + ")";
        default -> "Math.tanh(" + expression(depth - 1) + " - " + expression(depth - 1) + ")";
      };
    }
  }
}
