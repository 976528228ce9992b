package ad4j.processor;

import static ad4j.processor.testing.GeneratedClassChecks.methodText;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.internal.Tape;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A loop that only adds into sums whose adjoints are known before it runs
 * ({@code transform/AccumulatingLoops}) has each iteration's reverse right after the
 * iteration: the tape holds one iteration's values, not all of them. Derivatives stay those of
 * the method (finite differences, forward against reverse, pullback accumulation). Such a loop
 * is fused only when its iterations record inside loops of their own (a flat loop's two sweeps
 * run faster apart); loops that read their sum, sums read otherwise after the loop, jumps out of
 * the loop, factors made after it and variables assigned after it keep the reverse sweep after
 * the forward sweep.
 */
@ExtendWith(TapeIsEmpty.class)
class FusedLoopsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Sums {",
      "  @Differentiable static double meanLoss(double[] w, double b,",
      "      @NoDerivative double[][] x, @NoDerivative double[] y) {",
      "    double sum = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      double z = b;",
      "      for (int j = 0; j < w.length; j++) { z += Math.tanh(w[j] * x[i][j]); }",
      "      double margin = y[i] * z;",
      "      if (margin >= 0) {",
      "        sum += Math.log1p(Math.exp(-margin));",
      "      } else {",
      "        sum += Math.log1p(Math.exp(margin)) - margin;",
      "      }",
      "    }",
      "    return sum / x.length;",
      "  }",
      "  @Differentiable static double softplus(double v) { return Math.log1p(Math.exp(v)); }",
      "  @Differentiable static double withCalls(double[] w, double t) {",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) {",
      "      for (int j = 1; j < 3; j++) { s += Math.sin(softplus(w[i] * t) * j); }",
      "    }",
      "    return 2.0 * s - t;",
      "  }",
      "  @Differentiable static double twoSums(double[] w, double c) {",
      "    double scale = c * c + 1;",
      "    double shift = c;",
      "    if (c > 0) { shift = c * 2; }",
      "    double p = 0;",
      "    double q = 1;",
      "    int k = 0;",
      "    while (k < w.length) {",
      "      for (int r = 0; r < 2; r++) { p += Math.sin(w[k] * scale + shift * r); }",
      "      q = q - w[k] * w[k] * shift;",
      "      k++;",
      "    }",
      "    return -(p / scale) + q * 3;",
      "  }",
      "  @Differentiable static double picks(double[] w, @NoDerivative int[] c) {",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) {",
      "      double z0 = 0;",
      "      double z1 = 0;",
      "      double z2 = 0;",
      "      for (int j = 0; j < 2; j++) {",
      "        z0 += Math.sin(w[i] * j);",
      "        z1 += Math.cos(w[i] + j);",
      "        z2 += Math.exp(-w[i] * j);",
      "      }",
      "      double target = c[i] == 0 ? z0 : c[i] == 1 ? z1 : z2;",
      "      s += target * target;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double flat(double[] w, double t) {",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) { s += Math.sin(w[i] * t); }",
      "    return s / w.length;",
      "  }",
      "  @Differentiable static double readsItsSum(double[] w) {",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) { s = s * 0.5 + Math.sin(w[i] * s + 0.3); }",
      "    return s;",
      "  }",
      "  @Differentiable static double squaredAfter(double[] w) {",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) {",
      "      for (int j = 0; j < 2; j++) { s += Math.sin(w[i] * j); }",
      "    }",
      "    return s * s;",
      "  }",
      "  @Differentiable static double breaksOut(double[] w) {",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) {",
      "      for (int j = 0; j < 2; j++) { s += Math.exp(w[i] * j); }",
      "      if (w[i] > 0.9) { break; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double factorAfter(double[] w, double t) {",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) {",
      "      for (int j = 0; j < 2; j++) { s += Math.sin(w[i] * t + j); }",
      "    }",
      "    double u = Math.exp(t);",
      "    return s * u;",
      "  }",
      "  @Differentiable static double assignedAfter(double[] w) {",
      "    double a = w[0];",
      "    if (a > 0) { a = a * 2; }",
      "    double s = 0;",
      "    for (int i = 0; i < w.length; i++) {",
      "      for (int j = 0; j < 2; j++) { s += a * Math.cos(w[i] + j); }",
      "    }",
      "    a = a * 3;",
      "    return s + a;",
      "  }",
      "}");

  private static final CompiledOnce SUMS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Sums",
          SOURCE));

  private static final String FUSED = "// the reverse of this iteration, at once";

  private static String generated() throws Exception {
    return SUMS.get().compilation().generatedSourceFile("com.example.SumsGrad").orElseThrow()
        .getCharContent(true).toString();
  }

  @Test
  void loopsThatOnlyAddIntoTheirSumsAreReversedIterationByIteration() throws Exception {
    String generated = generated();
    for (String name : List.of("meanLoss", "withCalls", "twoSums", "picks")) {
      for (String member : List.of("ValueAndGradient", "Pullback")) {
        String body = methodText(generated, "private static double " + name + member
            + "OnTape(");
        assertWithMessage("%s%s", name, member).that(body).contains(FUSED);
        // nothing of the loop is left for the reverse sweep
        assertWithMessage("%s%s", name, member)
            .that(body.substring(body.indexOf("// reverse sweep"))).doesNotContain("for (");
      }
    }
    // what the loop's body makes itself, such as the branch's decision, is read where it is
    String meanLoss = methodText(generated,
        "private static double meanLossValueAndGradientOnTape(");
    assertThat(meanLoss).containsMatch("boolean t\\d+ = margin >= 0;");
    assertThat(meanLoss).doesNotContain("pushBoolean");
    // the sum's adjoint, the seed over the number of rows, computed before the loop
    assertThat(methodText(generated, "private static double meanLossValueAndGradientOnTape("))
        .contains("double sumBar = 1.0 / (double) x.length;\n");
    assertThat(methodText(generated, "private static double meanLossPullbackOnTape("))
        .contains("double sumBar = seed / (double) x.length;\n");
  }

  @Test
  void otherLoopsKeepTheirReverseAfterTheForwardSweep() throws Exception {
    String generated = generated();
    for (String name : List.of("flat", "readsItsSum", "squaredAfter", "breaksOut",
        "factorAfter", "assignedAfter")) {
      String body = generated.contains(name + "ValueAndGradientOnTape(")
          ? methodText(generated, "private static double " + name + "ValueAndGradientOnTape(")
          : methodText(generated, "static double " + name + "ValueAndGradient(");
      assertWithMessage(name).that(body).doesNotContain(FUSED);
      assertWithMessage(name).that(body.substring(body.indexOf("// reverse sweep")))
          .contains("for (int iteration");
    }
  }

  @Test
  void derivativesMatchDifferencesOfTheMethod() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(SUMS.get(), "com.example.Sums");
    double[][] x = {{0.5, -1.2, 0.3}, {-0.7, 0.1, 2.0}, {1.5, 0.4, -0.9}, {0.2, 0.2, 0.2}};
    double[] y = {1, -1, -1, 1};
    for (double[] w : new double[][] {{0.3, -0.4, 0.8}, {-1.1, 0.5, 0.7}, {2.0, -1.5, 0.1}}) {
      checks.check(new ArrayFunctionChecks.Call("meanLoss",
          new Object[] {w, 0.25, x, y}, true, true, false, false));
      for (double t : new double[] {0.7, -0.45}) {
        checks.check(new ArrayFunctionChecks.Call("withCalls", new Object[] {w, t}, true, true));
        checks.check(new ArrayFunctionChecks.Call("twoSums", new Object[] {w, t}, true, true));
        checks.check(new ArrayFunctionChecks.Call("factorAfter", new Object[] {w, t}, true,
            true));
        checks.check(new ArrayFunctionChecks.Call("flat", new Object[] {w, t}, true, true));
      }
      for (String name : List.of("readsItsSum", "squaredAfter", "breaksOut", "assignedAfter")) {
        checks.check(new ArrayFunctionChecks.Call(name, new Object[] {w}, true));
      }
    }
    // an if / else-if chain in the fused body, each piece taken
    checks.check(new ArrayFunctionChecks.Call("picks", new Object[] {
        new double[] {0.3, -0.4, 0.8, 1.2, -0.9}, new int[] {0, 1, 2, 1, 0}}, true, false));
    // no row at all: the loop never runs, the sum's adjoint is still made before it
    checks.check(new ArrayFunctionChecks.Call("withCalls", new Object[] {new double[0], 0.3},
        true, true));
  }

  /** Terms a generated loop adds into its sum: of {@code a}, the counter {@code j}, and {@code g}. */
  private static final List<String> TERMS = List.of("Math.exp(-a * a * (j + 1))",
      "Math.tanh(a + j * g)", "Math.sin(a * j + g) * Math.exp(a)", "a * a * g",
      "Math.log1p(Math.exp(a * g - j))");

  /** Ways the sum reaches the returned value after the loop. */
  private static final List<String> RETURNS = List.of("s / w.length", "2.0 * s - t",
      "-(s * g) + t", "s", "t - s / 4");

  /**
   * Random loops of sums (seed {@code -Dad4j.seed}, fixed otherwise): adding in the inner loop,
   * in branches, in a chain and directly, from a start that carries a derivative, reaching the
   * result through the ways of {@link #RETURNS}. Most are fused; all have the method's
   * derivatives.
   */
  @Test
  void randomLoopsOfSumsHaveTheMethodsDerivatives() throws Exception {
    java.util.Random random = new java.util.Random(Long.getLong("ad4j.seed", 20261128L));
    int count = 24;
    StringBuilder source = new StringBuilder(
        "package com.example;\nimport ad4j.Differentiable;\nfinal class Random {\n");
    for (int k = 0; k < count; k++) {
      String term = TERMS.get(random.nextInt(TERMS.size()));
      String other = TERMS.get(random.nextInt(TERMS.size()));
      source.append("  @Differentiable static double f").append(k)
          .append("(double[] w, double t) {\n")
          .append("    double s = ").append(random.nextBoolean() ? "t" : "0").append(";\n")
          .append("    double g = t * ").append(0.25 + random.nextInt(4) * 0.25).append(";\n")
          .append("    for (int i = 0; i < w.length; i++) {\n")
          .append("      double a = w[i] * t + 0.1 * i;\n")
          .append("      for (int j = 0; j < ").append(1 + random.nextInt(3)).append("; j++) {\n");
      switch (random.nextInt(3)) {
        case 0 -> source.append("        s += ").append(term).append(";\n");
        case 1 -> source.append("        s -= ").append(term).append(";\n");
        default -> source.append("        if (a > 0.1 * j) { s += ").append(term)
            .append("; } else { s -= ").append(other).append("; }\n");
      }
      source.append("      }\n");
      if (random.nextBoolean()) {
        source.append("      double q = a > 0.5 ? a * g : a > -0.2 ? Math.sin(a) : 1 - a;\n")
            .append("      s += q * g;\n");
      }
      if (random.nextBoolean()) {
        source.append("      s += Math.cos(a) * g;\n");
      }
      source.append("    }\n    return ").append(RETURNS.get(random.nextInt(RETURNS.size())))
          .append(";\n  }\n");
    }
    source.append("}\n");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Random", source.toString());
    String generated = compiled.compilation().generatedSourceFile("com.example.RandomGrad")
        .orElseThrow().getCharContent(true).toString();
    int fused = 0;
    for (int k = 0; k < count; k++) {
      String marker = "static double f" + k + "ValueAndGradientOnTape(";
      if (generated.contains(marker) && methodText(generated, "private " + marker)
          .contains(FUSED)) {
        fused++;
      }
    }
    assertWithMessage("fused methods of %s\n%s", count, source).that(fused)
        .isAtLeast(count / 2);
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(compiled, "com.example.Random");
    for (int k = 0; k < count; k++) {
      for (double[] w : new double[][] {{0.3, -0.45, 0.8, 0.05}, {1.2}, {-0.6, 1.1}}) {
        checks.check(new ArrayFunctionChecks.Call("f" + k, new Object[] {w, 0.7}, true, true));
      }
    }
  }

  /**
   * The tape of a fresh thread after one gradient of 20,000 rows: one row's values for the
   * loop that only adds into its sum, all of them for the loop that reads its sum.
   */
  @Test
  void theTapeHoldsOneIterationAtATime() throws Exception {
    Class<?> generated = SUMS.get().load("com.example.SumsGrad");
    int n = 20_000;
    double[][] x = new double[n][];
    double[] y = new double[n];
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = new double[] {Math.sin(i), Math.cos(i), 0.5};
      y[i] = i % 3 == 0 ? 1 : -1;
      w[i] = Math.sin(0.1 * i);
    }
    long fused = capacityAfter(() -> ArrayFunctionChecks.invoke(generated,
        "meanLossValueAndGradient", new double[] {0.1, -0.2, 0.3}, 0.05, x, y, new double[4]));
    long notFused = capacityAfter(() -> ArrayFunctionChecks.invoke(generated,
        "readsItsSumValueAndGradient", w, new double[n]));
    assertThat(fused).isLessThan(8_192L);
    assertThat(notFused).isAtLeast(8L * n);
  }

  /** Tape.current().capacityBytes() after {@code call} on a thread of its own. */
  private static long capacityAfter(java.util.concurrent.Callable<?> call) throws Exception {
    AtomicLong bytes = new AtomicLong();
    Exception[] failure = new Exception[1];
    Thread thread = new Thread(() -> {
      try {
        call.call();
        bytes.set(Tape.current().capacityBytes());
      } catch (Exception e) {
        failure[0] = e;
      }
    });
    thread.start();
    thread.join();
    if (failure[0] != null) {
      throw failure[0];
    }
    return bytes.get();
  }
}
