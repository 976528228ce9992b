package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The printer writes a temporary of the user's expressions (and its derivative, {@code t1Dot})
 * that is read once inline where it is read, moving it past printed statements that assign no
 * variable it reads ({@code emit/ProgramFacts}): {@code x = x * a + Math.sin(y)} as the user
 * wrote it, not four locals. What reads a variable that a statement before its reader assigns
 * stays a local of its own, and a sum written inline into a message joined with {@code +}
 * keeps its parentheses.
 */
@ExtendWith(TapeIsEmpty.class)
class InlineTemporariesTest {
  private static final String CHAIN = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Chain {",
      "  @Differentiable static double chain(double x, double y, double a, double b, double c) {",
      "    if (c < 2) {",
      "      x = x * a + Math.sin(y);",
      "      y = Math.cos(x) * b - y * c;",
      "      x = x * a + Math.sin(y);",
      "      y = Math.cos(x) * b - y * c;",
      "      x = x * a + Math.sin(y);",
      "      y = Math.cos(x) * b - y * c;",
      "    }",
      "    return x + y;",
      "  }",
      "  @Differentiable static double checked(double x, double y) {",
      "    if (x < 0) throw new IllegalArgumentException(",
      "        \"x + 1 = \" + (x + 1) + \", y * 2 - 1 = \" + (y * 2 - 1));",
      "    return x * y;",
      "  }",
      "  @Differentiable static double counted(double x, double y) {",
      "    int n = (int) y;",
      "    if (x < 0) throw new IllegalArgumentException(\"n + 1 = \" + (n + 1));",
      "    return x * y;",
      "  }",
      "}");

  private static final double[][] POINTS = {{0.3, -0.7, 1.1, 0.9, 0.4}, {-1.2, 0.5, 0.8, -1.3, 2.1}};

  /**
   * Whole and cut into parts of one and two statements, where values and tangents are handed
   * over between parts: the members agree with each other and with differences.
   */
  @Test
  void membersAgreeWholeAndCut() {
    for (List<String> options : List.of(List.<String>of(), List.of("-Aad4j.partSize=1"),
        List.of("-Aad4j.partSize=2"))) {
      List<String> all = new ArrayList<>(List.of("-Xlint:all", "-Werror"));
      all.addAll(options);
      InProcessCompiler.Compiled compiled =
          InProcessCompiler.compileWith(all, "com.example.Chain", CHAIN);
      CompiledFunction chain = compiled.function("com.example.Chain", "chain", 5);
      for (double[] point : POINTS) {
        DerivativeChecks.checkAt(chain, point);
      }
    }
  }

  /**
   * The tangent of {@code x = x * a + Math.sin(y)} in a branch, where {@code x} is a variable:
   * the value written as the user wrote it, and {@code aDot * x}, which reads {@code x} before
   * the store, a local computed before it.
   */
  @Test
  void aTemporaryIsWrittenInlineUnlessAStoreBeforeItsReaderChangesWhatItReads()
      throws IOException {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Chain", CHAIN);
    String generated = compiled.compilation().generatedSourceFile("com.example.ChainGrad")
        .orElseThrow().getCharContent(true).toString();
    String tangent = generated.substring(generated.indexOf("static double chainTangent("));
    tangent = tangent.substring(0, tangent.indexOf("\n  }\n"));
    assertThat(tangent).containsMatch("double (t\\d+) = aDot \\* x;\n\\s*"
        + "x = x \\* a \\+ Math\\.sin\\(y\\);\n\\s*"
        + "xDot = xDot \\* a \\+ \\1 \\+ yDot \\* Math\\.cos\\(y\\);\n");
  }

  /**
   * A message {@code "x + 1 = " + (x + 1)}: the sum written inline is parenthesized, so every
   * member throws the user's message, not {@code "x + 1 = -0.51"}.
   */
  @Test
  void aSumWrittenInlineIntoAMessageKeepsItsParentheses() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Chain", CHAIN);
    CompiledFunction checked = compiled.function("com.example.Chain", "checked", 2);
    double[] point = {-0.5, 0.25};
    String expected = "x + 1 = 0.5, y * 2 - 1 = -0.5";
    assertThat(rootOf(assertThrows(Throwable.class, () -> checked.value(point))))
        .hasMessageThat().isEqualTo(expected);
    for (Supplier<Object> member : List.<Supplier<Object>>of(
        () -> checked.gradient(point),
        () -> checked.tangent(point, new double[] {1, -1}),
        () -> checked.pullback(point, 1, new double[2]))) {
      Throwable thrown = rootOf(assertThrows(Throwable.class, member::get));
      assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
      assertThat(thrown).hasMessageThat().isEqualTo(expected);
    }
    DerivativeChecks.checkAt(checked, 0.5, 0.25);
  }

  /**
   * An integer sum read once by a message, {@code "n + 1 = " + (n + 1)}, was written inline
   * before these changes too, without its parentheses: every member threw
   * {@code "n + 1 = 31"} where the user's method throws {@code "n + 1 = 4"} (bd13ee2).
   */
  @Test
  void anIntegerSumInAMessageKeepsItsParentheses() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Chain", CHAIN);
    CompiledFunction counted = compiled.function("com.example.Chain", "counted", 2);
    double[] point = {-0.5, 3.25};
    assertThat(rootOf(assertThrows(Throwable.class, () -> counted.value(point))))
        .hasMessageThat().isEqualTo("n + 1 = 4");
    for (Supplier<Object> member : List.<Supplier<Object>>of(
        () -> counted.gradient(point),
        () -> counted.tangent(point, new double[] {1, -1}),
        () -> counted.pullback(point, 1, new double[2]))) {
      assertThat(rootOf(assertThrows(Throwable.class, member::get)))
          .hasMessageThat().isEqualTo("n + 1 = 4");
    }
  }

  /** The exception behind reflection's wrappers (the user's has no cause of its own). */
  private static Throwable rootOf(Throwable thrown) {
    Throwable root = thrown;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root;
  }
}
