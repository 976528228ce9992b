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

  /**
   * Chains of 40 pieces (past the 32 from which a chain outside loops records the number of its
   * piece) in other shapes: in a branch of an {@code if}, with pieces that assign two variables,
   * that hold a short {@code if} of their own, or read a variable the chain assigns, and, in
   * the same method, one in a loop body (which records its piece on the tape). Cut into parts of
   * three statements too ({@code -Aad4j.partSize=3}): the same derivatives, against finite
   * differences and between the members.
   */
  @Test
  void longChainsInBranchesAndLoopsGiveTheDerivativesOfThePieceTaken() throws IOException {
    StringBuilder chain = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      chain.append(i == 0 ? "      if" : "      else if").append(" (x < ").append(i - 20)
          .append(") {\n");
      switch (i % 4) {
        case 0 -> chain.append("        r = x * y + ").append(i).append(";\n");
        case 1 -> chain.append("        r = Math.exp(x * 0.01) * y;\n        s = s * x;\n");
        case 2 -> chain.append("        if (y > 0.5) { r = r + y * y; } else { r = x - y; }\n");
        default -> chain.append("        s = s + r * x;\n        r = Math.sin(x + s);\n");
      }
      chain.append("      }\n");
    }
    chain.append("      else { r = Math.cos(y) * s; }\n");
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Shapes {",
        "  @Differentiable static double branched(double x, double y) {",
        "    double r = y;",
        "    double s = x + 1;",
        "    if (y > -5) {",
        chain.toString(),
        "    }",
        "    double t = 0;",
        "    for (int k = 0; k < 3; k++) {",
        "      x = x + 0.5;",
        chain.toString().replace("r =", "t =").replace("r +", "t +").replace("r *", "t *"),
        "    }",
        "    return r * s + t;",
        "  }",
        "}",
        "");
    for (List<String> options : List.of(List.of("-Xlint:all", "-Werror"),
        List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=3"))) {
      Compiled compiled = LargeStack.run(() -> InProcessCompiler.compileWith(options,
          "com.example.Shapes", source));
      // the chain in the branch tells its pieces apart by their number
      assertThat(compiled.compilation().generatedSourceFile("com.example.ShapesGrad")
          .orElseThrow().getCharContent(true).toString()).containsMatch("chain\\d+Piece == 39");
      CompiledFunction f = compiled.function("com.example.Shapes", "branched", 2);
      // pieces of each kind, the last else, and y on both sides of the inner if's test (x and
      // the loop's x + 0.5 k away from the integers the chains test)
      for (double x : new double[] {-25.25, -18.25, -17.75, -16.25, -15.75, 0.25, 25.25}) {
        DerivativeChecks.checkAt(f, x, 0.3);
        DerivativeChecks.checkAt(f, x, 0.8);
      }
    }
  }
}
