package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A case of a colon-form {@code switch} entered by falling from the case before it, and left
 * by a {@code break} inside it on every path ({@code case 1: { s -= x; break; }}, {@code case
 * 1: if (c) { ...; break; } else { ...; break; }}), so that it never completes normally. Its
 * lowering kept the flag that the case before it fell through, and the next case ran too:
 * every member of {@code switched(0.73, 0.61, 0)} gave 0.3919 (case 2's {@code s *= y}
 * applied) where the method gives 0.6424, with that other function's derivatives.
 */
@ExtendWith(TapeIsEmpty.class)
class CasesEndedByInnerBreaksTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Cases {",
      "  @SuppressWarnings(\"fallthrough\")",
      "  @Differentiable(order = 2) static double switched(double x, double y, int k) {",
      "    double s = x;",
      "    switch (k) {",
      "      case 0: s += x * y;",
      "      case 1: { s -= x * x; break; }",
      "      case 2: s *= y;",
      "      default: s += Math.sin(s) * y;",
      "    }",
      "    return s;",
      "  }",
      "  @SuppressWarnings(\"fallthrough\")",
      "  @Differentiable(order = 2) static double inLoop(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 6; k++) {",
      "      switch (k % 4) {",
      "        case 0: s += x * y;",
      "        case 1: if (k < 3) { s -= x; break; } else { s *= y; break; }",
      "        case 2: s *= 0.5 + y * y;",
      "        default: s += Math.sin(s);",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Cases",
          SOURCE));

  @Test
  void aCaseLeftByABreakInsideItDoesNotFallIntoTheNext() throws Exception {
    MemberAgreement switched = MemberAgreement.of(COMPILED.get(), "com.example.Cases",
        "switched", true, true, false);
    for (int k = -1; k < 4; k++) {
      switched.checkScalar(new Object[] {0.73, 0.61, k}, 2, 1e-6);
      switched.checkScalar(new Object[] {-1.34, 2.07, k}, 2, 1e-6);
    }
  }

  @Test
  void inALoopEachIterationEntersOnlyItsCases() throws Exception {
    MemberAgreement inLoop = MemberAgreement.of(COMPILED.get(), "com.example.Cases",
        "inLoop", true, true);
    inLoop.checkScalarAt(new double[][] {{0.73, 0.61}, {-1.34, 2.07}, {0.33, -0.47}}, 2, 1e-6);
  }
}
