package ad4j.processor;

import static ad4j.processor.testing.GeneratedClassChecks.methodText;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.runtime.internal.Tape;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A method whose reverse sweep is long (cut into parts, or split into segments) has one
 * reverse body, that of {@code mPullback(Tape, ...)}: its public {@code mValueAndGradient} and
 * {@code mPullback} call it and take the adjoints off the tape. The members still keep their
 * contract: values bit for bit, the gradient against differences of the user's method, the
 * gradient equal to the pullback of seed 1, the pullback accumulating, the tape as found after
 * a throw, any number of threads at once. The same method, short and whole, keeps its own
 * sweeps, and both give the same derivatives, to rounding.
 */
class OneReverseSweepTest {
  /** Cuts every block into parts of this many statements: a short method then shares. */
  private static final List<String> CUT = List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=2");

  private static final String MIXED = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Mixed {",
      "  @Differentiable static double mixed(double x, double[] w, int n, double y) {",
      "    if (n < 0) { throw new IllegalArgumentException(\"n < 0: \" + n); }",
      "    double s = x * y;",
      "    for (int i = 0; i < w.length; i++) {",
      "      s = s * Math.sin(w[i]) + x * w[i];",
      "    }",
      "    double t = Math.exp(-s * s) + y / (1 + x * x);",
      "    if (s > 0.5) {",
      "      t = t * Math.cos(y * s) + n;",
      "    } else {",
      "      t = t / (2 + Math.sin(x * y));",
      "    }",
      "    return s * t + n * y;",
      "  }",
      "}");

  private static final CompiledOnce WHOLE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Mixed",
          MIXED));
  private static final CompiledOnce PARTED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(CUT, "com.example.Mixed", MIXED));

  private static final double[] W = {0.3, -0.7, 1.1};
  private static final double[][] POINTS = {{0.4, 0.9}, {-0.3, 1.3}, {0.8, -0.45}};

  private static String generated(Compiled compiled) throws IOException {
    return InProcessCompiler.gradSource(compiled.compilation()).getCharContent(true).toString();
  }

  @Test
  void aCutMethodsPublicMembersCallThePullbackOntoTheTape() throws IOException {
    String parted = generated(PARTED.get());
    String gradient = methodText(parted, "static double mixedValueAndGradient(");
    assertThat(gradient).contains("mixedPullback(tape, x, w, n, y, gradient, 1, 1.0)");
    assertThat(gradient).contains("gradient[0] = tape.popDouble()");
    assertThat(gradient).contains("gradient[1 + w.length] = tape.popDouble()");
    String pullback = methodText(parted, "static double mixedPullback(double x,");
    assertThat(pullback).contains("mixedPullback(tape, x, w, n, y, adjoints, 1, seed)");
    assertThat(pullback).contains("adjoints[0] += tape.popDouble()");
    // no second or third copy of the sweep, nor of its parts
    assertThat(parted).doesNotContain("mixedValueAndGradientOnTape(");
    assertThat(parted).doesNotContain("mixedPullbackOnTape(");
    assertThat(parted).doesNotContain("mixedValueAndGradientPart");
    assertThat(parted).doesNotContain("mixedPullbackPart");
    assertThat(parted).contains("mixedPullbackOntoTapePart1(");

    // whole and short, each member keeps its own sweep, the seed folded into the gradient's
    String whole = generated(WHOLE.get());
    assertThat(methodText(whole, "static double mixedValueAndGradient("))
        .doesNotContain("mixedPullback(tape");
    assertThat(methodText(whole, "static double mixedPullback(double x,"))
        .doesNotContain("mixedPullback(tape");
  }

  @Test
  void cutAndWholeGiveTheSameValuesAndDerivativesAgainstDifferences() throws Exception {
    Mixed parted = new Mixed(PARTED.get());
    Mixed whole = new Mixed(WHOLE.get());
    for (double[] point : POINTS) {
      double x = point[0];
      double y = point[1];
      for (int n : new int[] {0, 2}) {
        double value = whole.value(x, W, n, y);
        double[] gradient = new double[2 + W.length];
        Arrays.fill(gradient, Double.NaN); // every slot must be written
        assertThat(parted.valueAndGradient(x, W, n, y, gradient)).isEqualTo(value);
        double[] wholeGradient = new double[2 + W.length];
        assertThat(whole.valueAndGradient(x, W, n, y, wholeGradient)).isEqualTo(value);
        for (int i = 0; i < gradient.length; i++) {
          // the sweeps' sums of adjoints may be grouped otherwise with a seed than with the
          // seed 1 folded in: the same derivative, to rounding
          assertWithMessage("slot %s, cut against whole at %s, n = %s", i,
              Arrays.toString(point), n).that(gradient[i])
              .isWithin(1e-15 * Math.max(1, Math.abs(wholeGradient[i])))
              .of(wholeGradient[i]);
        }
        assertThat(parted.gradient(x, W, n, y)).usingExactEquality()
            .containsExactly(gradient).inOrder();

        double[] differences = parted.differences(x, W, n, y);
        for (int i = 0; i < gradient.length; i++) {
          assertWithMessage("slot %s at %s, n = %s", i, Arrays.toString(point), n)
              .that(gradient[i]).isWithin(1e-8 * Math.max(1, Math.abs(gradient[i])))
              .of(differences[i]);
        }
      }
    }
  }

  @Test
  void theGradientIsThePullbackOfSeedOneAndThePullbackAccumulates() throws Exception {
    Mixed parted = new Mixed(PARTED.get());
    for (double[] point : POINTS) {
      double x = point[0];
      double y = point[1];
      double[] gradient = new double[2 + W.length];
      double value = parted.valueAndGradient(x, W, 2, y, gradient);

      double[] seedOne = new double[gradient.length];
      assertThat(parted.pullback(x, W, 2, y, 1.0, seedOne)).isEqualTo(value);
      assertThat(seedOne).usingExactEquality().containsExactly(gradient).inOrder();

      double seed = -1.75;
      double[] adjoints = new double[gradient.length];
      for (int i = 0; i < adjoints.length; i++) {
        adjoints[i] = 0.5 * i - 0.25;
      }
      double[] before = adjoints.clone();
      assertThat(parted.pullback(x, W, 2, y, seed, adjoints)).isEqualTo(value);
      for (int i = 0; i < adjoints.length; i++) {
        // adjoints[i] += seed * partial: one product and one sum, rounded once each
        assertWithMessage("slot %s", i).that(adjoints[i])
            .isWithin(1e-15 * Math.max(1, Math.abs(seed * gradient[i])))
            .of(before[i] + seed * gradient[i]);
      }
    }
  }

  @Test
  void aThrowLeavesTheTapeAsFoundAndTheArraysAsChecked() throws Exception {
    Mixed parted = new Mixed(PARTED.get());
    Tape tape = Tape.current();
    tape.pushDouble(42.5); // a caller's recording, which must stay
    int size = tape.size();
    double[] gradient = new double[2 + W.length];
    for (int k = 0; k < 1000; k++) {
      InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
          () -> parted.valueAndGradient(0.4, W, -1, 0.9, gradient));
      assertThat(thrown.getCause()).hasMessageThat().isEqualTo("n < 0: -1");
      thrown = assertThrows(InvocationTargetException.class,
          () -> parted.pullback(0.4, W, -3, 0.9, 2.0, gradient));
      assertThat(thrown.getCause()).hasMessageThat().isEqualTo("n < 0: -3");
    }
    assertThat(tape.size()).isEqualTo(size);
    // too short an array: the check comes first, as the member's own sweep would check
    InvocationTargetException thrown = assertThrows(InvocationTargetException.class,
        () -> parted.valueAndGradient(0.4, W, 1, 0.9, new double[4]));
    assertThat(thrown.getCause()).isInstanceOf(IllegalArgumentException.class);
    assertThat(thrown.getCause()).hasMessageThat().contains("'gradient' has length 4, needs");
    assertThat(tape.size()).isEqualTo(size);
    assertThat(tape.popDouble()).isEqualTo(42.5);
  }

  @Test
  void threadsAtOnceGetTheirOwnDerivatives() throws Exception {
    Mixed parted = new Mixed(PARTED.get());
    double[][] expected = new double[POINTS.length][];
    for (int p = 0; p < POINTS.length; p++) {
      expected[p] = parted.gradient(POINTS[p][0], W, 1, POINTS[p][1]);
    }
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> runs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int first = t;
        runs.add(threads.submit(() -> {
          for (int k = 0; k < 2000; k++) {
            int p = (first + k) % POINTS.length;
            double[] gradient = new double[2 + W.length];
            parted.valueAndGradient(POINTS[p][0], W, 1, POINTS[p][1], gradient);
            double[] adjoints = new double[2 + W.length];
            parted.pullback(POINTS[p][0], W, 1, POINTS[p][1], 1.0, adjoints);
            if (!Arrays.equals(gradient, expected[p]) || !Arrays.equals(adjoints, expected[p])) {
              return false;
            }
          }
          return true;
        }));
      }
      for (Future<Boolean> run : runs) {
        assertThat(run.get()).isTrue();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /** A long chain with branches, cut into parts without the option; a long straight chain, split. */
  private static String longMethods() {
    StringBuilder source = new StringBuilder(
        "package com.example;\nimport ad4j.Differentiable;\nfinal class Long {\n"
        + "  @Differentiable static double branches(double x, double y) {\n"
        + "    double s = 0.25;\n");
    for (int i = 0; i < 300; i++) {
      // branches on y alone, at 0.05, 0.25, ..., 1.25: the points below are far from them
      source.append("    if (y < ").append(0.05 + 0.2 * (i % 7))
          .append(") { s = s * x + Math.sin(y * s); }")
          .append(" else { s = s * 0.5 - x * y; }\n");
    }
    source.append("    return s;\n  }\n"
        + "  @Differentiable static double chain(double x, double y, double a, double b) {\n");
    for (int i = 0; i < 250; i++) {
      source.append("    x = x * a + Math.sin(y);\n    y = y * b - x * 0.001;\n");
    }
    return source.append("    return x + y;\n  }\n}\n").toString();
  }

  @Test
  void longMethodsShareTheirSweepWithoutTheOption() throws IOException {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Long", longMethods());
    String generated = generated(compiled);
    assertThat(methodText(generated, "static double branchesValueAndGradient("))
        .contains("branchesPullback(tape, x, y, 1.0)");
    assertThat(methodText(generated, "static double chainValueAndGradient("))
        .contains("chainPullback(tape, x, y, a, b, 1.0)");
    assertThat(generated).doesNotContain("branchesValueAndGradientPart");
    assertThat(generated).doesNotContain("branchesPullbackPart");
    assertThat(generated).contains("branchesPullbackOntoTapePart1(");

    CompiledFunction branches = compiled.function("com.example.Long", "branches", 2);
    DerivativeChecks.checkAt(branches, 0.3, 0.7);
    DerivativeChecks.checkAt(branches, -0.2, 0.4);
    CompiledFunction chain = compiled.function("com.example.Long", "chain", 4);
    DerivativeChecks.checkAt(chain, 0.3, 0.2, 0.99, 0.98);
    DerivativeChecks.checkAt(chain, -0.1, 0.5, 0.97, 1.0);
    assertThat(Tape.current().size()).isEqualTo(0);
  }

  /** The user's method and its members, called reflectively. */
  private static final class Mixed {
    private final Method value;
    private final Method gradient;
    private final Method valueAndGradient;
    private final Method pullback;

    Mixed(Compiled compiled) throws NoSuchMethodException {
      Class<?> user = compiled.load("com.example.Mixed");
      Class<?> grad = compiled.load("com.example.MixedGrad");
      Class<?>[] parameters = {double.class, double[].class, int.class, double.class};
      value = user.getDeclaredMethod("mixed", parameters);
      value.setAccessible(true);
      gradient = grad.getDeclaredMethod("mixedGradient", parameters);
      valueAndGradient = grad.getDeclaredMethod("mixedValueAndGradient", double.class,
          double[].class, int.class, double.class, double[].class);
      pullback = grad.getDeclaredMethod("mixedPullback", double.class, double[].class,
          int.class, double.class, double.class, double[].class);
      for (Method member : List.of(gradient, valueAndGradient, pullback)) {
        member.setAccessible(true);
      }
    }

    double value(double x, double[] w, int n, double y) throws Exception {
      return (double) value.invoke(null, x, w, n, y);
    }

    double[] gradient(double x, double[] w, int n, double y) throws Exception {
      return (double[]) gradient.invoke(null, x, w, n, y);
    }

    double valueAndGradient(double x, double[] w, int n, double y, double[] out)
        throws Exception {
      return (double) valueAndGradient.invoke(null, x, w, n, y, out);
    }

    double pullback(double x, double[] w, int n, double y, double seed, double[] adjoints)
        throws Exception {
      return (double) pullback.invoke(null, x, w, n, y, seed, adjoints);
    }

    /** Central differences of order 4 of the user's method, slot by slot: x, w, then y. */
    double[] differences(double x, double[] w, int n, double y) throws Exception {
      double[] slots = new double[2 + w.length];
      for (int slot = 0; slot < slots.length; slot++) {
        double h = 1e-3;
        double[] f = new double[4];
        double[] steps = {-2 * h, -h, h, 2 * h};
        for (int k = 0; k < 4; k++) {
          double[] moved = w.clone();
          double xs = x;
          double ys = y;
          if (slot == 0) {
            xs += steps[k];
          } else if (slot == slots.length - 1) {
            ys += steps[k];
          } else {
            moved[slot - 1] += steps[k];
          }
          f[k] = value(xs, moved, n, ys);
        }
        slots[slot] = (f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h);
      }
      return slots;
    }
  }
}
