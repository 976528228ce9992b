package ad4j.processor;

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
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random long chains (32 to 44 links, past the length from which {@code Adjoint} tells their
 * pieces apart by a number and the pieces share the variables that carry their values to the
 * reverse sweep): {@code ?:} chains, {@code else if} chains over a running local and chains of
 * {@code if (k < i) return ...;}, chosen by an {@code int} k so that finite differences in x and
 * y never cross into another piece. Pieces make values their reverse reads ({@code Math.exp},
 * {@code Math.sqrt}, {@code Math.log}), branch on y inside, loop, make a local array, or declare
 * a value read in a later statement of the piece. Each program's gradient is checked against
 * fourth-order central differences of the program itself (where two step sizes disagree, a
 * branch lies near the point and the slot is skipped), forward mode against reverse mode, and
 * the value bit for bit, in the first pieces, the middle, the last and past it; every fourth
 * program is of order 2, and its Hessian is checked against central differences of its
 * gradient. {@code -Dad4j.seed=N} draws other programs.
 */
@ExtendWith(TapeIsEmpty.class)
class LongChainProgramsPropertyTest {
  /** 12 programs; {@code -Dad4j.programs=N} for a long run. */
  private static final int PROGRAMS = Integer.getInteger("ad4j.programs", 12);
  private static final long SEED = PropertySeeds.programsSeed(20261128);
  private static final List<String> BODIES = new ArrayList<>();
  private static final List<Integer> LINKS = new ArrayList<>();

  static {
    Random random = new Random(SEED);
    for (int p = 0; p < PROGRAMS; p++) {
      int links = 32 + random.nextInt(13);
      LINKS.add(links);
      BODIES.add(new Generator(random).program("f" + p, links, p % 4 == 0));
    }
  }

  private static final CompiledOnce PROGRAMS_CLASS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Chains",
          "package com.example;\nimport ad4j.Differentiable;\nfinal class Chains {\n"
              + String.join("\n", BODIES) + "\n}\n"));

  private static final double[][] POINTS = {{0.31, 0.57}, {-0.42, 0.23}, {0.66, -0.35}};

  static Stream<Integer> programs() {
    return IntStream.range(0, PROGRAMS).boxed();
  }

  @ParameterizedTest(name = "f{0}")
  @MethodSource("programs")
  void gradientMatchesFiniteDifferencesAndForwardMatchesReverse(int p) throws Exception {
    String name = "f" + p;
    String source = BODIES.get(p);
    int links = LINKS.get(p);
    for (int k : new int[] {0, 1, links / 2, links - 1, links + 2}) {
      for (double[] point : POINTS) {
        double x = point[0];
        double y = point[1];
        String where = String.format("k = %d, x = %s, y = %s in %s", k, x, y, source);
        double value = (double) invoke(name, false, x, y, k);
        double[] written = new double[2];
        double returned = (double) invoke(name + "ValueAndGradient", true, x, y, k, written);
        assertWithMessage("value, %s", where).that(Double.doubleToRawLongBits(returned))
            .isEqualTo(Double.doubleToRawLongBits(value));
        double[] gradient = (double[]) invoke(name + "Gradient", true, x, y, k);
        assertWithMessage("gradient, %s", where).that(gradient).usingExactEquality()
            .containsExactly(written[0], written[1]).inOrder();
        for (int slot = 0; slot < 2; slot++) {
          double coarse = difference(name, x, y, k, slot, 1e-3);
          double fine = difference(name, x, y, k, slot, 5e-4);
          if (Math.abs(coarse - fine) > 1e-6 * Math.max(1, Math.abs(fine))) {
            continue; // a branch near the point: no reference here
          }
          assertWithMessage("slot %s, %s", slot, where).that(gradient[slot])
              .isWithin(1e-6 * Math.max(1, Math.abs(fine))).of(fine);
        }
        double xDot = 0.7;
        double yDot = -1.3;
        double expected = xDot * gradient[0] + yDot * gradient[1];
        double tangent = (double) invoke(name + "Tangent", true, x, y, k, xDot, yDot);
        assertWithMessage("tangent, %s", where).that(tangent)
            .isWithin(1e-11 * Math.max(1, Math.abs(expected))).of(expected);
        if (p % 4 == 0) {
          checkHessian(name, x, y, k, where);
        }
      }
    }
  }

  /** The Hessian against central differences of the generated gradient, where they agree. */
  private static void checkHessian(String name, double x, double y, int k, String where)
      throws Exception {
    double[][] hessian = (double[][]) invoke(name + "Hessian", true, x, y, k);
    assertThat(hessian.length).isEqualTo(2);
    for (int column = 0; column < 2; column++) {
      double[] coarse = gradientDifference(name, x, y, k, column, 1e-4);
      double[] fine = gradientDifference(name, x, y, k, column, 5e-5);
      for (int row = 0; row < 2; row++) {
        if (Math.abs(coarse[row] - fine[row]) > 1e-5 * Math.max(1, Math.abs(fine[row]))) {
          continue;
        }
        assertWithMessage("H[%s][%s], %s", row, column, where).that(hessian[row][column])
            .isWithin(1e-5 * Math.max(1, Math.abs(fine[row]))).of(fine[row]);
      }
    }
  }

  private static double[] gradientDifference(String name, double x, double y, int k,
      int slot, double h) throws Exception {
    double[] plus = (double[]) invoke(name + "Gradient", true, x + (slot == 0 ? h : 0),
        y + (slot == 1 ? h : 0), k);
    double[] minus = (double[]) invoke(name + "Gradient", true, x - (slot == 0 ? h : 0),
        y - (slot == 1 ? h : 0), k);
    return new double[] {(plus[0] - minus[0]) / (2 * h), (plus[1] - minus[1]) / (2 * h)};
  }

  private static double difference(String name, double x, double y, int k, int slot,
      double h) throws Exception {
    double[] f = new double[4];
    double[] steps = {-2 * h, -h, h, 2 * h};
    for (int s = 0; s < 4; s++) {
      f[s] = (double) invoke(name, false, x + (slot == 0 ? steps[s] : 0),
          y + (slot == 1 ? steps[s] : 0), k);
    }
    return (f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h);
  }

  private static Object invoke(String name, boolean generated, Object... arguments)
      throws Exception {
    return PROGRAMS_CLASS.get().invoke(
        generated ? "com.example.ChainsGrad" : "com.example.Chains", name, arguments);
  }

  /** Writes one random program {@code static double name(double x, double y, int k)}. */
  private static final class Generator {
    private final Random random;

    Generator(Random random) {
      this.random = random;
    }

    String program(String name, int links, boolean secondOrder) {
      String annotation = secondOrder ? "@Differentiable(order = 2)" : "@Differentiable";
      StringBuilder out = new StringBuilder("  " + annotation + " static double " + name
          + "(double x, double y, int k) {\n");
      switch (random.nextInt(3)) {
        case 0 -> conditional(links, out);
        case 1 -> elseIf(links, out);
        default -> returns(links, out);
      }
      return out.append("  }\n").toString();
    }

    /** {@code double r = k < 1 ? e1 : k < 2 ? e2 : ... : e; return r * y + x;}. */
    private void conditional(int links, StringBuilder out) {
      out.append("    double r = ");
      for (int i = 1; i <= links; i++) {
        out.append("k < ").append(i).append(" ? ").append(expression(1)).append(" + ")
            .append(i).append("\n        : ");
      }
      out.append(expression(1)).append(";\n    return r * y + x;\n");
    }

    /** {@code double r = x; if (k < 1) { ... } else if (k < 2) { ... } ... return r * y;}. */
    private void elseIf(int links, StringBuilder out) {
      out.append("    double r = x;\n");
      for (int i = 1; i <= links; i++) {
        out.append(i == 1 ? "    if" : "    } else if").append(" (k < ").append(i)
            .append(") {\n").append(piece(i));
      }
      out.append("    } else {\n").append(piece(links + 1)).append("    }\n")
          .append("    return r * y + x;\n");
    }

    /** {@code if (k < 1) { return ...; } ... return ...;}. */
    private void returns(int links, StringBuilder out) {
      for (int i = 1; i <= links; i++) {
        out.append("    if (k < ").append(i).append(") {\n");
        if (random.nextBoolean()) {
          out.append("      double e = ").append(expression(1)).append(";\n")
              .append("      return e * y + e * e + ").append(i).append(";\n");
        } else {
          out.append("      return ").append(expression(1)).append(" + ").append(i)
              .append(";\n");
        }
        out.append("    }\n");
      }
      out.append("    return ").append(expression(1)).append(";\n");
    }

    /** One piece of an {@code else if} chain, which updates {@code r}. */
    private String piece(int i) {
      String e = "      double e = " + expression(1) + ";\n";
      return switch (random.nextInt(6)) {
        case 0 -> "      r = " + expression(1) + " + " + i + ";\n";
        case 1 -> e + "      r = r * e + " + i + ";\n";
        case 2 -> e + "      for (int j = 0; j < " + (1 + random.nextInt(3)) + "; j++) {\n"
            + "        r = r * 0.5 + e * Math.sin(r + j);\n      }\n";
        case 3 -> e + "      if (y > " + constant() + ") {\n        r = e * r + " + i
            + ";\n      } else {\n        r = r + e * e;\n      }\n";
        case 4 -> "      double[] a = {" + expression(0) + ", r};\n"
            + "      r = a[0] * a[1] + " + i + ";\n";
        default -> e + "      double f = Math.exp(e * r);\n      r = f * e + " + i + ";\n";
      };
    }

    /** An expression in x and y that makes a value its reverse reads, or not. */
    private String expression(int depth) {
      int choice = random.nextInt(depth > 0 ? 7 : 6);
      return switch (choice) {
        case 0 -> "Math.exp(" + constant() + " * x * y)";
        case 1 -> "Math.sin(x + " + constant() + ") * y";
        case 2 -> "x * y + " + constant();
        case 3 -> "Math.log(1 + x * x + y * y)";
        case 4 -> "Math.sqrt(2 + x * y)";
        case 5 -> "x / (2 + y)";
        default -> "(y > " + constant() + " ? " + expression(depth - 1) + " : "
            + expression(depth - 1) + ")";
      };
    }

    private String constant() {
      return String.valueOf(Math.round((random.nextDouble() * 1.2 - 0.6) * 100) / 100.0);
    }
  }
}
