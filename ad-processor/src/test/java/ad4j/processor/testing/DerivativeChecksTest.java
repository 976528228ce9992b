package ad4j.processor.testing;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The harness itself must be able to fail: hand-written "generated" classes with one defect each
 * (compiled without {@code @Differentiable}, so the processor writes nothing) are rejected.
 */
class DerivativeChecksTest {
  private static final String USER =
      "package com.example; final class F { static double f(double x, double y) { return x * y + x; } }";

  /** A correct FGrad for f(x, y) = x * y + x, with {@code defect} applied to its text. */
  private static String grad(String defect) {
    String correct = "package com.example; final class FGrad {\n"
        + "  static double[] fGradient(double x, double y) {"
        + " double[] g = new double[2]; fValueAndGradient(x, y, g); return g; }\n"
        + "  static double fValueAndGradient(double x, double y, double[] g) {"
        + " g[0] = y + 1; g[1] = x; return x * y + x; }\n"
        + "  static double fTangent(double x, double y, double dx, double dy) {"
        + " return (y + 1) * dx + x * dy; }\n"
        + "  static double fPullback(double x, double y, double s, double[] a) {"
        + " a[0] += s * (y + 1); a[1] += s * x; return x * y + x; }\n"
        + "}\n";
    String[] change = defect.split("=>", 2);
    return change.length == 2 ? correct.replace(change[0], change[1]) : correct;
  }

  private static CompiledFunction compile(String defect) {
    return InProcessCompiler.compile("com.example.F", USER, "com.example.FGrad", grad(defect))
        .function("com.example.F", "f", 2);
  }

  @Test
  void acceptsACorrectImplementation() {
    DerivativeChecks.checkAt(compile(""), 0.5, -1.5);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "g[0] = y + 1;=>g[0] = y + 1.001;", // wrong gradient, everywhere consistent otherwise
      "g[1] = x;=>g[1] = x; x += 1e-9;", // fine gradient, value not bit for bit
      "+ x * dy; }=>+ x * dy * 1.0000001; }", // forward mode disagrees with reverse mode
      "a[1] += s * x;=>a[1] = s * x;", // pullback overwrites instead of accumulating
  })
  void rejectsADefect(String defect) {
    CompiledFunction f = compile(defect);
    assertThrows(AssertionError.class, () -> DerivativeChecks.checkAt(f, 0.5, -1.5));
  }
}
