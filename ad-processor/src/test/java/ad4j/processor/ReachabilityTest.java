package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Java's reachability rules (JLS 14.22), in the user's method and in generated code: a loop
 * without a test that is left only by {@code return} ends the method; a method that only throws,
 * or loops forever, gets members with no code after the forward sweep.
 */
@ExtendWith(TapeIsEmpty.class)
class ReachabilityTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Reach {",
      "  @Differentiable static double forEver(double x, double y) {",
      "    for (;;) {",
      "      if (x > 4) { return x * y; }",
      "      x = x * 1.5 + Math.sin(y);",
      "    }",
      "  }",
      "  @Differentiable static double whileTrue(double x, double y) {",
      "    int k = 0;",
      "    while (true) {",
      "      k++;",
      "      x = x * y + 0.25;",
      "      if (k == 3) { return x; }",
      "    }",
      "  }",
      "  @Differentiable static double doWhileTrue(double x, double y) {",
      "    do {",
      "      x = x + y * x;",
      "      if (x > 2) { return Math.log(x); }",
      "    } while (true);",
      "  }",
      "  @Differentiable static double nested(double x, double y) {",
      "    outer:",
      "    for (;;) {",
      "      for (int i = 0; i < 3; i++) {",
      "        x = x * 1.25 + y;",
      "        if (x > 6) { return x * x; }",
      "        if (x < -50) { continue outer; }",
      "      }",
      "    }",
      "  }",
      "  @Differentiable static double stub(double x, double y) {",
      "    throw new UnsupportedOperationException(\"not yet: \" + x);",
      "  }",
      "  @Differentiable static double spins(double x, double y) {",
      "    if (x > 1e300) { while (true) { x = x * 0.5; } }",
      "    return x * y;",
      "  }",
      "  @Differentiable static double spinsForever(double x, double y) {",
      "    while (true) { x = x * y; }",
      "  }",
      "}");

  private static final CompiledOnce REACH = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Reach", SOURCE));

  private static Compiled reach() {
    return REACH.get();
  }

  @ParameterizedTest
  @ValueSource(strings = {"forEver", "whileTrue", "doWhileTrue", "nested", "spins"})
  void loopsLeftOnlyByReturnAreDifferentiated(String name) {
    CompiledFunction f = reach().function("com.example.Reach", name, 2);
    DerivativeChecks.checkAt(f, 1.1, 0.7);
    DerivativeChecks.checkAt(f, 0.6, 1.3);
  }

  @Test
  void aStubThrowsFromEveryMember() {
    CompiledFunction f = reach().function("com.example.Reach", "stub", 2);
    String expected = assertThrows(UnsupportedOperationException.class,
        () -> f.value(2, 3)).getMessage();
    assertThat(expected).isEqualTo("not yet: 2.0");
    assertThat(assertThrows(UnsupportedOperationException.class, () -> f.gradient(2, 3))
        .getMessage()).isEqualTo(expected);
    assertThat(assertThrows(UnsupportedOperationException.class,
        () -> f.tangent(new double[] {2, 3}, new double[] {1, 0})).getMessage())
        .isEqualTo(expected);
    assertThat(assertThrows(UnsupportedOperationException.class,
        () -> f.pullback(new double[] {2, 3}, 1, new double[2])).getMessage())
        .isEqualTo(expected);
  }

  @Test
  void aMethodThatLoopsForeverStillGetsItsMembers() {
    CompiledFunction f = reach().function("com.example.Reach", "spinsForever", 2);
    assertThat(f.gradientMethod()).isNotNull();
    assertThat(f.pullbackMethod()).isNotNull();
  }
}
