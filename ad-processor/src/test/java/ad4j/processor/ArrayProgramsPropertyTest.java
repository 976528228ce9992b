package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CentralDifferences;
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
 * Random programs over arrays: a {@code double[]} parameter read with computed indices, a local
 * array written, overwritten and read back inside a loop, branches on computed values, calls of
 * a {@code @Differentiable} method that takes the parameter and the local arrays (whose
 * elements are overwritten after the calls), arrays made inside the loop ({@code new},
 * {@code clone()}, a vector function's result, a matrix), also passed to calls and
 * overwritten between them. Each
 * program's gradient is checked against fourth-order central differences of the program itself
 * (slots where differences with two step sizes disagree lie on a kink and are skipped), forward
 * mode against reverse mode, and the value bit for bit. The programs are seeded: a failure names
 * the program, whose source is in the message. {@code -Dad4j.seed=N} draws other programs.
 */
@ExtendWith(TapeIsEmpty.class)
class ArrayProgramsPropertyTest {
  private static final int PROGRAMS = 40;
  private static final long SEED = PropertySeeds.programsSeed(20261124);
  private static final List<String> BODIES = new ArrayList<>();

  static {
    Random random = new Random(SEED);
    for (int p = 0; p < PROGRAMS; p++) {
      BODIES.add(new Generator(random).program("f" + p));
    }
  }

  /** The callee the programs call with arrays: parameters, local arrays, overwritten ones. */
  private static final String MIX = String.join("\n",
      "  @Differentiable static double mix(double[] u, double[] v, double t) {",
      "    double r = t;",
      "    for (int k = 0; k < Math.min(u.length, v.length); k++) {",
      "      r = r * 0.5 + u[k] * Math.sin(v[k] + t);",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable static double[] spread(double[] u, double t) {",
      "    double[] r = new double[u.length + 1];",
      "    for (int k = 0; k < u.length; k++) { r[k] = u[k] * t; r[k + 1] += Math.cos(u[k]); }",
      "    return r;",
      "  }\n");

  private static final CompiledOnce PROGRAMS_CLASS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.ArrayPrograms",
          "package com.example;\nimport ad4j.Differentiable;\nfinal class ArrayPrograms {\n"
              + MIX + String.join("\n", BODIES) + "\n}\n"));

  static Stream<Integer> programs() {
    return IntStream.range(0, PROGRAMS).boxed();
  }

  @ParameterizedTest(name = "f{0}")
  @MethodSource("programs")
  void gradientMatchesFiniteDifferencesAndForwardMatchesReverse(int p) throws Exception {
    String name = "f" + p;
    String source = BODIES.get(p);
    double[] x = {0.31, -0.47, 0.73, 0.12};
    double c = 0.58;
    double value = (double) invoke(name, false, x, c);
    double[] written = new double[6];
    double returned = (double) invoke(name + "ValueAndGradient", true, x, c, written);
    assertWithMessage("value of %s", source).that(Double.doubleToRawLongBits(returned))
        .isEqualTo(Double.doubleToRawLongBits(value));

    double[] gradient = (double[]) invoke(name + "Gradient", true, x, c);
    assertThat(gradient.length).isEqualTo(5);
    for (int slot = 0; slot < 5; slot++) {
      double coarse = difference(name, x, c, slot, 1e-3);
      double fine = difference(name, x, c, slot, 5e-4);
      if (Math.abs(coarse - fine) > 1e-6 * Math.max(1, Math.abs(fine))) {
        continue; // a kink (a branch or a cast) near the point: no reference here
      }
      assertWithMessage("slot %s of %s", slot, source).that(gradient[slot])
          .isWithin(1e-6 * Math.max(1, Math.abs(fine))).of(fine);
    }

    double[] xDot = {0.2, -0.7, 0.4, 1.1};
    double cDot = -0.3;
    double expected = cDot * gradient[4];
    for (int i = 0; i < 4; i++) {
      expected += xDot[i] * gradient[i];
    }
    double tangent = (double) invoke(name + "Tangent", true, x, c, xDot, cDot);
    assertWithMessage("tangent of %s", source).that(tangent)
        .isWithin(1e-11 * Math.max(1, Math.abs(expected))).of(expected);
  }

  /** Fourth-order differences of program {@code name} along {@code slot} of {@code (x, c)}. */
  private static double difference(String name, double[] x, double c, int slot, double h) {
    double[] point = java.util.Arrays.copyOf(x, 5);
    point[4] = c;
    return CentralDifferences.at(p -> {
      try {
        return (double) invoke(name, false, java.util.Arrays.copyOf(p, 4), p[4]);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }, point, slot, h);
  }

  private static Object invoke(String name, boolean generated, Object... arguments)
      throws Exception {
    return PROGRAMS_CLASS.get().invoke(
        generated ? "com.example.ArrayProgramsGrad" : "com.example.ArrayPrograms", name,
        arguments);
  }

  /** Writes one random program {@code static double name(double[] x, double c)}. */
  private static final class Generator {
    private final Random random;
    private int size;

    Generator(Random random) {
      this.random = random;
    }

    String program(String name) {
      size = 3 + random.nextInt(3);
      int trips = 2 + random.nextInt(4);
      StringBuilder out = new StringBuilder();
      out.append("  @Differentiable static double ").append(name)
          .append("(double[] x, double c) {\n");
      out.append("    double[] a = new double[").append(size).append("];\n");
      if (random.nextBoolean()) {
        out.append("    double[] b = x.clone();\n");
      } else {
        out.append("    double[] b = {c, x[1], 0.5};\n");
      }
      out.append("    double s = c;\n");
      out.append("    for (int i = 0; i < ").append(trips).append("; i++) {\n");
      int statements = 2 + random.nextInt(4);
      for (int k = 0; k < statements; k++) {
        out.append("      ").append(statement()).append("\n");
      }
      out.append("    }\n");
      out.append("    return s + a[0] * a[1] + a[").append(size - 1)
          .append("] - b[b.length - 1] * c;\n");
      out.append("  }\n");
      return out.toString();
    }

    private String statement() {
      return switch (random.nextInt(11)) {
        case 0 -> "a[" + index() + "] = " + expression(3) + ";";
        case 1 -> "a[" + index() + "] += " + expression(3) + ";";
        case 2 -> "s = s * 0.5 + " + expression(3) + ";";
        case 3 -> "if (" + expression(2) + " > 0) { a[" + index() + "] *= " + expression(2)
            + "; } else { s -= " + expression(2) + "; }";
        case 4 -> "b[i % b.length] = " + expression(2) + ";";
        // arrays made inside the loop: a new one in each iteration
        case 5 -> "{ double[] t = new double[i % 2 + 2]; t[0] = " + expression(2)
            + "; t[t.length - 1] += " + expression(2) + " * t[0]; s += t[0] * t[i % t.length]; }";
        case 6 -> "{ double[] t = a.clone(); t[" + index() + "] = " + expression(2) + "; s += t["
            + index() + "] * " + expression(1) + "; }";
        case 7 -> "{ double[] t = spread(" + array() + ", " + expression(2) + "); s += t[i % t"
            + ".length] * " + expression(1) + "; }";
        // arrays made inside the loop passed to calls, then overwritten and passed again
        case 8 -> "{ double[] t = " + (random.nextBoolean() ? "new double[i % 2 + 2]"
            : random.nextBoolean() ? "a.clone()" : "spread(" + array() + ", c)") + "; t[0] = "
            + expression(2) + "; s += mix(t, " + array() + ", " + expression(1) + "); t[i % t"
            + ".length] = " + expression(2) + "; s = s * 0.5 + mix(" + array() + ", t, "
            + expression(1) + "); }";
        // a local matrix made inside the loop, its rows passed to a call, then written
        case 9 -> "{ double[][] t = new double[2][i % 2 + 2]; t[0][0] = " + expression(2)
            + "; t[1][t[1].length - 1] += " + expression(2) + " * t[0][0]; s += mix(t[1], t[0], "
            + expression(1) + "); t[1][0] = " + expression(2) + "; s += t[1][0] * t[0][0]; }";
        default -> "for (double v : b) { s += 0.25 * v * " + expression(1) + "; }";
      };
    }

    private String index() {
      return random.nextBoolean() ? "(i + " + random.nextInt(size) + ") % " + size
          : Integer.toString(random.nextInt(size));
    }

    private String expression(int depth) {
      int choice = random.nextInt(depth <= 0 ? 5 : 10);
      return switch (choice) {
        case 0 -> "x[(i + " + random.nextInt(4) + ") % x.length]";
        case 1 -> "a[" + index() + "]";
        case 2 -> "s";
        case 3 -> "c";
        case 4 -> "b[" + random.nextInt(3) + "]";
        case 5 -> "Math.sin(" + expression(depth - 1) + ")";
        case 6 -> "(" + expression(depth - 1) + " * " + expression(depth - 1) + ")";
        case 7 -> "(" + expression(depth - 1) + " + " + expression(depth - 1) + ")";
        case 8 -> "Math.tanh(" + expression(depth - 1) + " - " + expression(depth - 1) + ")";
        default -> "mix(" + array() + ", " + array() + ", " + expression(depth - 1) + ")";
      };
    }

    private String array() {
      return switch (random.nextInt(3)) {
        case 0 -> "x";
        case 1 -> "a";
        default -> "b";
      };
    }
  }
}
