package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.BytecodeSizes;
import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.LargeStack;
import ad4j.processor.testing.MixedFunction;
import ad4j.processor.testing.Sources;
import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A {@code ?:} chain of 400 pieces, returned, as an initializer and assigned: every level
 * stores into the one result variable of the outermost, so the generated members write the
 * chain as {@code else if}, one level deep, and the generated file grows linearly with the
 * chain (each level declared a variable of its own in the else block of the level around it:
 * nested 400 deep and quadratic in size). Also the types Java gives the levels of a chain.
 */
class ConditionalChainTest {
  private static final int PIECES = 400;

  /** {@code x < 0 ? x * y + 0 : x < 1 ? x * y + 1 : ... : Math.sin(y)}. */
  private static String chain(int pieces) {
    StringBuilder chain = new StringBuilder();
    for (int i = 0; i < pieces; i++) {
      chain.append("x < ").append(i).append(" ? x * y + ").append(i).append("\n        : ");
    }
    return chain.append("Math.sin(y)").toString();
  }

  private static String source(int pieces) {
    String chain = chain(pieces);
    return String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Chain {",
        "  @Differentiable static double returned(double x, double y) {",
        "    return " + chain + ";",
        "  }",
        "  @Differentiable static double initialized(double x, double y) {",
        "    double r = " + chain + ";",
        "    return r * x;",
        "  }",
        "  @Differentiable static double assigned(double x, double y) {",
        "    double r = y;",
        "    r = " + chain + ";",
        "    return r * x;",
        "  }",
        "}",
        "");
  }

  private static Compiled compile(int pieces) {
    return LargeStack.run(() -> InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Chain", source(pieces)));
  }

  private static String generated(Compilation compilation) throws IOException {
    return compilation.generatedSourceFile("com.example.ChainGrad").orElseThrow()
        .getCharContent(true).toString();
  }

  @Test
  void aLongChainIsWrittenFlatAndLinear() throws IOException {
    Compiled compiled = compile(PIECES);
    double middle = 200.5; // in the piece x < 201: x * y + 201
    double last = PIECES + 0.5; // past every piece: Math.sin(y)
    double y = 0.3;

    CompiledFunction returned = compiled.function("com.example.Chain", "returned", 2);
    DerivativeChecks.checkAt(returned, -0.5, y); // the first piece
    DerivativeChecks.checkAt(returned, 2.5, y); // the fourth (finite differences need room)
    DerivativeChecks.checkAt(returned, last, y);
    assertThat(returned.gradient(middle, y)).usingTolerance(1e-12)
        .containsExactly(y, middle).inOrder();
    assertThat(returned.gradient(last, y)).usingTolerance(1e-12)
        .containsExactly(0.0, Math.cos(y)).inOrder();

    for (String name : List.of("initialized", "assigned")) {
      CompiledFunction f = compiled.function("com.example.Chain", name, 2); // r * x
      DerivativeChecks.checkAt(f, -0.5, y);
      DerivativeChecks.checkAt(f, 2.5, y);
      DerivativeChecks.checkAt(f, last, y);
      assertWithMessage(name).that(f.gradient(middle, y)).usingTolerance(1e-9)
          .containsExactly(2 * middle * y + 201, middle * middle).inOrder();
      assertWithMessage(name).that(f.gradient(last, y)).usingTolerance(1e-12)
          .containsExactly(Math.sin(y), last * Math.cos(y)).inOrder();
    }

    String generated = generated(compiled.compilation());
    int deepest = generated.lines()
        .mapToInt(line -> line.length() - line.stripLeading().length()).max().orElseThrow();
    assertThat(deepest).isAtMost(16);
    // each method has five members, each piece a few short lines in each
    assertThat(generated.length()).isLessThan(3 * 5_000 * PIECES);
  }

  @Test
  void theGeneratedSizeIsLinearInTheChain() throws IOException {
    // both past the size where the pullback is cut into parts that the public members share
    // (below it each member prints its own sweep: more text per piece)
    int half = generated(compile(3 * PIECES / 4).compilation()).length();
    int full = generated(compile(3 * PIECES / 2).compilation()).length();
    // linear: twice the pieces, twice the code (quadratic growth gave four times)
    assertThat((double) full / half).isWithin(0.1).of(2.0);
  }

  /**
   * 1,000 pieces, past where the generated members passed the JVM's 65,535 bytes per method
   * (600 pieces compiled into members of 61.6 KB that ran interpreted, 650 did not compile):
   * the chain records the number of its piece, and its levels move into parts that call parts,
   * each handing over the chain's value and that number. Every method stays under HotSpot's
   * limit, and the derivatives are those of the piece taken.
   */
  @Test
  void aChainOfAThousandPiecesIsCutIntoPartsThatCallParts() {
    Compiled compiled = LargeStack.run(() -> InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Chain",
        Sources.chainClass("@Differentiable static double returned(double x, double y)",
            "    return " + chain(1_000) + ";")));
    Map<String, Integer> sizes = BytecodeSizes.of(compiled.compilation(),
        "com/example/ChainGrad.class");
    assertThat(sizes.keySet().stream().filter(m -> m.startsWith("returnedPullbackOntoTapePart"))
        .count()).isGreaterThan(10L);
    for (Map.Entry<String, Integer> method : sizes.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(8000);
    }
    CompiledFunction returned = compiled.function("com.example.Chain", "returned", 2);
    double y = 0.3;
    // finite differences need room: their steps grow with x and would cross into the next piece
    for (double x : new double[] {-0.5, 2.5, 1_200.0}) {
      DerivativeChecks.checkAt(returned, x, y);
    }
    // x < 501 ? x * y + 501 and x < 999 ? x * y + 999: the gradient is (y, x)
    assertThat(returned.gradient(500.5, y)).usingTolerance(1e-12)
        .containsExactly(y, 500.5).inOrder();
    assertThat(returned.gradient(998.5, y)).usingTolerance(1e-12)
        .containsExactly(y, 998.5).inOrder();
    double[] gradient = new double[2];
    assertThat(returned.valueAndGradient(new double[] {998.5, y}, gradient))
        .isEqualTo(returned.value(998.5, y));
    assertThat(gradient).usingTolerance(1e-12).containsExactly(y, 998.5).inOrder();
    assertThat(returned.gradient(1_000.5, y)).usingTolerance(1e-12)
        .containsExactly(0.0, Math.cos(y)).inOrder();
  }

  /**
   * The same at second order: 300 pieces, whose forward-over-reverse sweep, about three times as
   * long as the gradient, was past the JVM's limit (an error at the method before the chain's
   * levels were cut). Every method stays under HotSpot's limit, and the Hessian is the central
   * difference of the gradient.
   */
  @Test
  void theSecondOrderSweepOfALongChainIsCutToo() throws Exception {
    Compiled compiled = LargeStack.run(() -> InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Chain",
        Sources.chainClass("@Differentiable(order = 2) static double squared(double x, double y)",
            "    double r = " + chain(300) + ";\n    return r * r;")));
    for (Map.Entry<String, Integer> method : BytecodeSizes.of(compiled.compilation(),
        "com/example/ChainGrad.class").entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(8000);
    }
    double y = 0.3;
    for (double x : new double[] {-0.5, 150.5, 320.0}) {
      double[][] hessian = (double[][]) compiled.invoke("com.example.ChainGrad",
          "squaredHessian", x, y);
      double h = 1e-4;
      for (int k = 0; k < 2; k++) {
        double[] plus = (double[]) compiled.invoke("com.example.ChainGrad", "squaredGradient",
            x + (k == 0 ? h : 0), y + (k == 1 ? h : 0));
        double[] minus = (double[]) compiled.invoke("com.example.ChainGrad", "squaredGradient",
            x - (k == 0 ? h : 0), y - (k == 1 ? h : 0));
        for (int i = 0; i < 2; i++) {
          // the gradient is quadratic in x and y within a piece: central differences are exact
          // up to rounding
          double expected = (plus[i] - minus[i]) / (2 * h);
          assertWithMessage("H[%s][%s] at x = %s", i, k, x).that(hessian[i][k])
              .isWithin(1e-6 * Math.max(1, Math.abs(expected))).of(expected);
        }
      }
    }
  }

  @Test
  void theLevelsOfAChainHaveTheTypesJavaGivesThem() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Types", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Types {",
            // 'c ? 1 : x' is double; an int piece of a double chain is widened to double
            "  @Differentiable static double mixed(double x, int n) {",
            "    return x < 0 ? 1 : x < 1 ? n / 2 : x < 2 ? n * x : x < 3 ? 2L * n",
            "        : Math.sin(x);",
            "  }",
            // an int chain, then used in double arithmetic
            "  @Differentiable static double integral(double x, int n) {",
            "    int k = n < 0 ? -n : n < 1 ? 7 : n < 2 ? n * 3 : n % 5;",
            "    return k * x;",
            "  }",
            // a float level inside a double chain, its int and long operands rounded to float
            // by a cast (without it, an error: IntegerBesideFloatChoicesTest)
            "  @Differentiable static double rounded(double x, int n) {",
            "    return x < 0 ? x * x : x < 1 ? 0.5f : (float) (x < 2 ? n + 1 : n * 3L);",
            "  }",
            "}",
            ""));
    MixedFunction mixed = new MixedFunction(compiled, "com.example.Types", "mixed",
        double.class, int.class);
    MixedFunction integral = new MixedFunction(compiled, "com.example.Types", "integral",
        double.class, int.class);
    MixedFunction rounded = new MixedFunction(compiled, "com.example.Types", "rounded",
        double.class, int.class);
    for (double x : new double[] {-0.5, 0.5, 1.5, 2.5, 3.5}) {
      for (int n : new int[] {-3, 0, 1, 7, 16_777_216, 16_777_217}) {
        Object[] arguments = {x, n};
        for (MixedFunction f : List.of(mixed, integral, rounded)) {
          assertWithMessage("%s at %s, %s", f, x, n)
              .that(f.valueAndGradient(arguments, new double[1])).isEqualTo(f.value(arguments));
        }
      }
    }
    // what tells the float level's rounding from a widening straight to double
    assertThat(rounded.valueAndGradient(new Object[] {1.5, 16_777_216}, new double[1]))
        .isEqualTo(16_777_216.0); // 16,777,217 rounded to float
    assertThat(rounded.valueAndGradient(new Object[] {2.5, 16_777_217}, new double[1]))
        .isEqualTo(50_331_652.0); // 50,331,651 rounded to float

    assertThat(mixed.gradient(new Object[] {1.5, 7})).usingExactEquality()
        .containsExactly(7.0);
    assertThat(mixed.gradient(new Object[] {3.5, 7})).usingExactEquality()
        .containsExactly(Math.cos(3.5));
    assertThat(mixed.gradient(new Object[] {0.5, 7})).usingExactEquality()
        .containsExactly(0.0);
    assertThat(integral.gradient(new Object[] {0.5, 7})).usingExactEquality()
        .containsExactly(2.0); // k = 7 % 5
    assertThat(rounded.gradient(new Object[] {-0.5, 7})).usingExactEquality()
        .containsExactly(-1.0);
  }
}
