package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.LargeStack;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An {@code if / else if} chain inside a loop: the forward sweep records the number of the piece
 * taken once, after the chain, instead of one decision after each link (which kept every else
 * block from being an {@code else if}: 400 pieces were nested 400 deep, 5.8 MB), and the reverse
 * sweep chooses its piece by that number, flat as well.
 */
class LoopElseIfChainTest {
  private static String chain(int pieces) {
    StringBuilder source = new StringBuilder(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class ChainLoop {",
        "  @Differentiable static double piecewise(double x, double y) {",
        "    double s = 0;",
        "    for (int k = 0; k < 3; k++) {",
        "      double r;",
        ""));
    for (int i = 0; i < pieces; i++) {
      source.append(i == 0 ? "      if" : "      else if").append(" (x < ")
          .append(i - pieces / 2).append(") { r = x * y + ").append(i).append("; }\n");
    }
    return source.append("      else { r = Math.sin(y); }\n")
        .append("      s += r * x;\n      x = x + 0.125;\n    }\n    return s;\n  }\n}\n")
        .toString();
  }

  private static Compiled compile(int pieces) {
    return LargeStack.run(() -> InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.ChainLoop", chain(pieces)));
  }

  private static String generated(Compiled compiled) throws IOException {
    return compiled.compilation().generatedSourceFile("com.example.ChainLoopGrad")
        .orElseThrow().getCharContent(true).toString();
  }

  /** The user's function, written out: three trips, x grows by 0.125 each. */
  private static double[] analyticGradient(double x, double y, int pieces) {
    double dx = 0;
    double dy = 0;
    for (int k = 0; k < 3; k++) {
      double xk = x + 0.125 * k;
      int piece = 0;
      while (piece < pieces && !(xk < piece - pieces / 2)) {
        piece++;
      }
      if (piece < pieces) { // s += (xk * y + piece) * xk
        dx += 2 * xk * y + piece;
        dy += xk * xk;
      } else { // s += sin(y) * xk
        dx += Math.sin(y);
        dy += Math.cos(y) * xk;
      }
    }
    return new double[] {dx, dy};
  }

  @Test
  void aLongChainInALoopIsWrittenFlatAndLinear() throws IOException {
    int pieces = 400;
    Compiled compiled = compile(pieces);
    CompiledFunction f = compiled.function("com.example.ChainLoop", "piecewise", 2);
    // piece i is taken when x < i - 200 first; finite differences need room around x
    DerivativeChecks.checkAt(f, -250.5, 0.3); // the first piece on every trip
    DerivativeChecks.checkAt(f, 0.1, 0.3); // the middle: piece 201 on every trip
    DerivativeChecks.checkAt(f, 2.6, 0.3); // pieces 203, 203, 203
    DerivativeChecks.checkAt(f, 600.5, 0.3); // the last else
    for (double x : new double[] {-200.6, -0.6, 1.6, 198.6, 199.5, 600.5}) {
      assertThat(f.gradient(x, 0.3)).usingTolerance(1e-9)
          .containsExactly(analyticGradient(x, 0.3, pieces)).inOrder();
    }

    String generated = generated(compiled);
    int deepest = generated.lines()
        .mapToInt(line -> line.length() - line.stripLeading().length()).max().orElseThrow();
    assertThat(deepest).isAtMost(24);
    double ratio = (double) generated.length() / generated(compile(pieces / 2)).length();
    assertThat(ratio).isWithin(0.15).of(2.0);
  }
}
