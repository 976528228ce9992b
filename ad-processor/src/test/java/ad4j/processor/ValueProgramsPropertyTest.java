package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CentralDifferences;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.PropertySeeds;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random programs that mix value records and functions with arrays and control flow (issue
 * 35): a value record parameter and a record local assigned again in a loop, made with
 * {@code new}, with the record's static and instance methods and its accessors; lambdas that
 * capture the record parameter and a {@code double} parameter, applied with computed
 * arguments, a method reference, a stream over the array parameter with a capturing lambda;
 * a local array written and read back; branches on computed values. Each program,
 * {@code static double fN(Vec2 p, double[] x, double c)}, is checked against fourth-order
 * central differences of itself in each of its six slots (slots where two step sizes disagree
 * lie on a kink and are skipped), forward mode against reverse mode (the tangent along a
 * random direction against the gradient's dot product with it), and its value bit for bit.
 * The programs are seeded: a failure names the program, whose source is in the message;
 * {@code -Dad4j.seed=N} draws other programs.
 */
@ExtendWith(TapeIsEmpty.class)
class ValueProgramsPropertyTest {
  private static final int PROGRAMS = 30;
  private static final long SEED = PropertySeeds.programsSeed(20261129);
  private static final List<String> BODIES = new ArrayList<>();

  static {
    Random random = new Random(SEED);
    for (int p = 0; p < PROGRAMS; p++) {
      BODIES.add(new Generator(random).program("f" + p));
    }
  }

  /** The value record of the programs, with methods of its own, and a helper to refer to. */
  private static final String VEC2 = String.join("\n",
      "  record Vec2(double x, double y) {",
      "    static Vec2 of(double a, double b) { return new Vec2(a, b); }",
      "    Vec2 plus(Vec2 o) { return new Vec2(x + o.x(), y + o.y); }",
      "    Vec2 scale(double k) { return new Vec2(k * x, k * y()); }",
      "    double dot(Vec2 o) { return x * o.x + y * o.y(); }",
      "  }",
      "  @Differentiable static double damp(double t) { return t / (1 + t * t); }\n");

  private static final CompiledOnce PROGRAMS_CLASS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.ValuePrograms",
          "package com.example;\n"
              + "import ad4j.Differentiable;\n"
              + "import java.util.Arrays;\n"
              + "import java.util.function.DoubleBinaryOperator;\n"
              + "import java.util.function.DoubleUnaryOperator;\n"
              + "final class ValuePrograms {\n"
              + VEC2 + String.join("\n", BODIES) + "\n}\n"));

  static Stream<Integer> programs() {
    return IntStream.range(0, PROGRAMS).boxed();
  }

  @ParameterizedTest(name = "f{0}")
  @MethodSource("programs")
  void gradientMatchesFiniteDifferencesAndForwardMatchesReverse(int p) throws Exception {
    String name = "f" + p;
    String source = BODIES.get(p);
    double[] point = {0.41, -0.27, 0.31, -0.47, 0.73, 0.58}; // p.x, p.y, x[0..2], c
    double value = (double) invoke(name, false, arguments(point));
    double[] written = new double[7];
    written[6] = 42;
    Object[] withArray = append(arguments(point), written);
    double returned = (double) invoke(name + "ValueAndGradient", true, withArray);
    assertWithMessage("value of %s", source).that(Double.doubleToRawLongBits(returned))
        .isEqualTo(Double.doubleToRawLongBits(value));
    assertWithMessage("past the slots, %s", source).that(written[6]).isEqualTo(42.0);

    double[] gradient = (double[]) invoke(name + "Gradient", true, arguments(point));
    assertThat(gradient.length).isEqualTo(6);
    for (int slot = 0; slot < 6; slot++) {
      assertWithMessage("valueAndGradient slot %s of %s", slot, source).that(written[slot])
          .isEqualTo(gradient[slot]);
      double coarse = difference(name, point, slot, 1e-3);
      double fine = difference(name, point, slot, 5e-4);
      if (Math.abs(coarse - fine) > 1e-6 * Math.max(1, Math.abs(fine))) {
        continue; // a kink (a branch) near the point: no reference here
      }
      assertWithMessage("slot %s of %s", slot, source).that(gradient[slot])
          .isWithin(1e-6 * Math.max(1, Math.abs(fine))).of(fine);
    }

    double[] direction = {0.2, -0.7, 0.4, 1.1, -0.6, -0.3};
    double expected = 0;
    for (int slot = 0; slot < 6; slot++) {
      expected += direction[slot] * gradient[slot];
    }
    Object[] primal = arguments(point);
    Object[] tangents = arguments(direction);
    Object[] all = new Object[6];
    System.arraycopy(primal, 0, all, 0, 3);
    System.arraycopy(tangents, 0, all, 3, 3);
    double tangent = (double) invoke(name + "Tangent", true, all);
    assertWithMessage("tangent of %s", source).that(tangent)
        .isWithin(1e-11 * Math.max(1, Math.abs(expected))).of(expected);
  }

  /** {@code (Vec2 p, double[] x, double c)} from the six slots. */
  private static Object[] arguments(double[] slots) throws Exception {
    Constructor<?> vec2 = PROGRAMS_CLASS.get().load("com.example.ValuePrograms$Vec2")
        .getDeclaredConstructor(double.class, double.class);
    vec2.setAccessible(true);
    return new Object[] {vec2.newInstance(slots[0], slots[1]),
        new double[] {slots[2], slots[3], slots[4]}, slots[5]};
  }

  private static Object[] append(Object[] arguments, Object last) {
    Object[] all = java.util.Arrays.copyOf(arguments, arguments.length + 1);
    all[arguments.length] = last;
    return all;
  }

  /** Fourth-order differences of program {@code name} along {@code slot} of its six. */
  private static double difference(String name, double[] point, int slot, double h) {
    return CentralDifferences.at(p -> {
      try {
        return (double) invoke(name, false, arguments(p));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }, point, slot, h);
  }

  private static Object invoke(String name, boolean generated, Object... arguments)
      throws Exception {
    return PROGRAMS_CLASS.get().invoke(
        generated ? "com.example.ValueProgramsGrad" : "com.example.ValuePrograms", name,
        arguments);
  }

  /** Writes one random program {@code static double name(Vec2 p, double[] x, double c)}. */
  private static final class Generator {
    private final Random random;

    Generator(Random random) {
      this.random = random;
    }

    String program(String name) {
      int trips = 2 + random.nextInt(3);
      StringBuilder out = new StringBuilder();
      out.append("  @Differentiable static double ").append(name)
          .append("(Vec2 p, double[] x, double c) {\n");
      // functions first: they capture parameters, which the body never assigns
      out.append("    DoubleUnaryOperator g = t -> ").append(captured()).append(";\n");
      out.append("    DoubleBinaryOperator h = (u, w) -> u * w * ")
          .append(random.nextBoolean() ? "c" : "p.y()").append(" + ")
          .append(random.nextBoolean() ? "Math.sin(u)" : "w").append(";\n");
      out.append("    DoubleUnaryOperator k = ")
          .append(random.nextBoolean() ? "ValuePrograms::damp" : "Math::tanh").append(";\n");
      out.append("    double[] a = new double[3];\n");
      out.append("    Vec2 v = ").append(random.nextBoolean() ? "new Vec2(c, p.x())"
          : "p.scale(0.5)").append(";\n");
      out.append("    double s = ").append(random.nextBoolean() ? "c"
          : "Arrays.stream(x).map(t -> t * c).sum()").append(";\n");
      out.append("    for (int i = 0; i < ").append(trips).append("; i++) {\n");
      int statements = 2 + random.nextInt(4);
      for (int n = 0; n < statements; n++) {
        out.append("      ").append(statement()).append("\n");
      }
      out.append("    }\n");
      out.append("    return s + v.dot(p) + a[0] * a[1] - a[2] * ")
          .append(random.nextBoolean() ? "c" : "v.y()").append(";\n");
      out.append("  }\n");
      return out.toString();
    }

    /** The body of {@code g}: its argument and captured parameters. */
    private String captured() {
      return switch (random.nextInt(3)) {
        case 0 -> "t * c + Math.sin(t * p.x())";
        case 1 -> "Math.cos(t) * p.y() + x[1] * t";
        default -> "t * t * 0.5 + c";
      };
    }

    private String statement() {
      return switch (random.nextInt(8)) {
        case 0 -> "s = 0.5 * s + " + expression(3) + ";";
        case 1 -> "v = v.plus(new Vec2(" + expression(2) + ", " + expression(2)
            + ")).scale(0.5);";
        case 2 -> "a[" + index() + "] = " + expression(3) + ";";
        case 3 -> "a[" + index() + "] += " + expression(2) + ";";
        case 4 -> "if (" + expression(2) + " > 0) { s += " + expression(2) + "; } else { v = "
            + "new Vec2(v.y(), " + expression(2) + "); }";
        case 5 -> "s += h.applyAsDouble(" + expression(2) + ", v.x());";
        case 6 -> "v = Vec2.of(" + expression(2) + ", v.x());";
        default -> "s -= 0.25 * k.applyAsDouble(" + expression(2) + ");";
      };
    }

    private String index() {
      return random.nextBoolean() ? "(i + " + random.nextInt(3) + ") % 3"
          : Integer.toString(random.nextInt(3));
    }

    private String expression(int depth) {
      int choice = random.nextInt(depth <= 0 ? 7 : 13);
      return switch (choice) {
        case 0 -> "x[(i + " + random.nextInt(3) + ") % x.length]";
        case 1 -> "a[" + index() + "]";
        case 2 -> "s";
        case 3 -> "c";
        case 4 -> "v.x()";
        case 5 -> "v.y()";
        case 6 -> "p.x()";
        case 7 -> "Math.sin(" + expression(depth - 1) + ")";
        case 8 -> "(" + expression(depth - 1) + " * " + expression(depth - 1) + ")";
        case 9 -> "(" + expression(depth - 1) + " + " + expression(depth - 1) + ")";
        case 10 -> "g.applyAsDouble(" + expression(depth - 1) + ")";
        case 11 -> "v.dot(new Vec2(" + expression(depth - 1) + ", p.y()))";
        default -> "Math.tanh(" + expression(depth - 1) + " - " + expression(depth - 1) + ")";
      };
    }
  }
}
