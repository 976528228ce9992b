package ad4j.processor;

import static ad4j.processor.testing.GeneratedClassChecks.methodText;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MixedFunction;
import ad4j.runtime.internal.Tape;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A member that ends by an exception leaves the thread's tape as it found it: what it had
 * recorded is dropped, what callers had recorded before stays. Ten thousand caught calls of
 * each member leave the tape exactly as before.
 */
class TapeAfterExceptionTest {
  private static final int CALLS = 10_000;

  private static String source() {
    StringBuilder longMethod = new StringBuilder(
        "  @Differentiable static double split(double x, int n) {\n    double v0 = x;\n");
    for (int i = 1; i <= 400; i++) {
      longMethod.append("    double v").append(i).append(" = Math.sin(v").append(i - 1)
          .append(") * x + 0.5;\n");
      if (i == 300) {
        longMethod.append("    double w = v300 + 10 / n;\n");
      }
    }
    longMethod.append("    return v400 * w;\n  }\n");
    return String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Throwing {",
        "  @Differentiable static double userThrow(double x, int n) {",
        "    double s = x;",
        "    for (int i = 0; i < 4; i++) {",
        "      s = s * x + Math.sin(s);",
        "      if (i == n) { throw new IllegalStateException(\"stop at \" + i); }",
        "    }",
        "    return s;",
        "  }",
        "  @Differentiable static double division(double x, int n) {",
        "    double s = x;",
        "    for (int i = 3; i >= 0; i--) { s = s * x + 10 / (i - n + 1); }",
        "    return s;",
        "  }",
        "  @Differentiable static double failsAt(double x, int k) {",
        "    double s = x;",
        "    for (int i = 0; i < 4; i++) { s = s * Math.cos(s) + x; }",
        "    if (k == 3) { throw new IllegalStateException(\"k is 3\"); }",
        "    return s;",
        "  }",
        "  @Differentiable static double callee(double x, int n) {",
        "    double s = x;",
        "    for (int k = 0; k < n; k++) { s = s * 0.5 + failsAt(s, k); }",
        "    return s;",
        "  }",
        longMethod.toString(),
        "}");
  }

  private static final CompiledOnce THROWING = new CompiledOnce(() ->
      InProcessCompiler.compile("com.example.Throwing", source()));

  private static Compiled throwing() {
    return THROWING.get();
  }

  @ParameterizedTest
  @ValueSource(strings = {"userThrow", "division", "callee", "split"})
  void everyMemberThatThrowsLeavesTheTapeAsItFoundIt(String name) {
    MixedFunction f = new MixedFunction(throwing(), "com.example.Throwing", name,
        double.class, int.class);
    // each function throws at this n after recording (split: in its third segment)
    int failingN = switch (name) {
      case "split" -> 0;
      case "callee" -> 5;
      default -> 2;
    };
    Object[] failing = {0.75, failingN};
    Class<? extends RuntimeException> type = name.equals("division") || name.equals("split")
        ? ArithmeticException.class : IllegalStateException.class;
    assertThrows(type, () -> f.value(failing));
    double[] direction = {1};
    List<Consumer<Object[]>> members = List.of(
        arguments -> f.gradient(arguments),
        arguments -> f.valueAndGradient(arguments, new double[1]),
        arguments -> f.pullback(arguments, 1.0, new double[1]),
        arguments -> f.tangent(arguments, direction));
    Tape tape = Tape.current();
    for (Consumer<Object[]> member : members) {
      // what an enclosing computation had recorded before
      tape.pushDouble(-2.5);
      tape.pushInt(17);
      int before = tape.size();
      for (int i = 0; i < CALLS; i++) {
        assertThrows(type, () -> member.accept(failing));
      }
      assertWithMessage("tape size after %s failing calls of a member of %s", CALLS, name)
          .that(tape.size()).isEqualTo(before);
      assertThat(tape.popInt()).isEqualTo(17);
      assertThat(tape.popDouble()).isEqualTo(-2.5);
      // and the member still works on the same tape
      Object[] fine = {0.75, -1};
      double[] gradient = f.gradient(fine);
      assertThat(gradient[0]).isFinite();
      assertThat(tape.size()).isEqualTo(0);
    }
  }

  /**
   * The handler that puts the tape back is in the member, around one call of the private
   * method that holds the sweeps; their loops run without it (it cost up to 6 % of the GMM's
   * gradient, BENCHMARKS.md). A member that records nothing has no handler and no such method.
   */
  @Test
  void theHandlerSurroundsOneCallOfTheSweepsNotTheirLoops() throws IOException {
    String code = throwing().compilation().generatedSourceFile("com.example.ThrowingGrad")
        .orElseThrow().getCharContent(true).toString();
    for (String member : List.of("userThrowValueAndGradient", "userThrowPullback",
        "calleeValueAndGradient", "calleePullback")) {
      String handler = methodText(code, "static double " + member + "(");
      assertWithMessage(member).that(handler).contains("catch (Throwable thrown)");
      assertWithMessage(member).that(handler).contains("return " + member + "OnTape(tape, x, n");
      assertWithMessage(member).that(handler).doesNotContain("for (");
      String sweeps = methodText(code, "private static double " + member + "OnTape(Tape tape, ");
      assertWithMessage(member).that(sweeps).contains("for (");
      assertWithMessage(member).that(sweeps).contains("tape.push");
      assertWithMessage(member).that(sweeps).doesNotContain("catch");
    }
    // the tangent records nothing
    assertThat(methodText(code, "static double userThrowTangent(")).doesNotContain("Tape");
    assertThat(code).doesNotContain("userThrowTangentOnTape");
  }
}
