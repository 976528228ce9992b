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
 * An {@code if / else if} chain of 400 pieces: the processor does not overflow its stack, and
 * the generated members write the chain as {@code else if}, one level deep, so that the
 * generated file grows linearly with the chain (it was nested 400 deep and quadratic in size,
 * and javac could not compile it).
 */
class ElseIfChainTest {
  private static final int PIECES = 400;

  private static String chain() {
    StringBuilder source = new StringBuilder(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Chain {",
        "  @Differentiable static double piecewise(double x, double y) {",
        "    double r;",
        ""));
    for (int i = 0; i < PIECES; i++) {
      source.append(i == 0 ? "    if" : "    else if").append(" (x < ").append(i)
          .append(") { r = x * y + ").append(i).append("; }\n");
    }
    return source.append("    else { r = Math.sin(y); }\n    return r * x;\n  }\n}\n")
        .toString();
  }

  @Test
  void aLongChainIsWrittenFlatAndLinear() throws IOException {
    Compiled compiled = LargeStack.run(() -> InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Chain", chain()));
    CompiledFunction f = compiled.function("com.example.Chain", "piecewise", 2);
    DerivativeChecks.checkAt(f, -0.5, 0.3); // the first piece
    DerivativeChecks.checkAt(f, 2.5, 0.3); // the fourth piece (finite differences need room)
    DerivativeChecks.checkAt(f, 800.5, 0.3); // the last else
    assertThat(f.gradient(200.5, 0.3)).usingTolerance(1e-9) // a middle piece, analytically
        .containsExactly(2 * 200.5 * 0.3 + 201, 200.5 * 200.5).inOrder(); // r = x * y + 201

    String generated = compiled.compilation().generatedSourceFile("com.example.ChainGrad")
        .orElseThrow().getCharContent(true).toString();
    int deepest = generated.lines()
        .mapToInt(line -> line.length() - line.stripLeading().length()).max().orElseThrow();
    assertThat(deepest).isAtMost(16);
    // five members of 400 pieces each, each piece a few short lines
    assertThat(generated.length()).isLessThan(5_000 * PIECES);
  }
}
