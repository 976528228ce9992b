package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Static fields that are not {@code final} are read where the method reads them (issue 36,
 * item 1): each read is a value of its own, which the reverse sweep takes from the tape, not
 * from the field, which a call run as written may have set since. What such a call was given
 * comes back from the field as a dependence ({@code LaunderedDependence}), an error.
 */
@ExtendWith(TapeIsEmpty.class)
class MutableStaticFieldsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Mutable {",
      "  static double scale = 2;",
      "  static int calls;",
      "  static void reset() { scale = 2; }",
      "  static void change() { scale = 5; calls++; }",
      "  @Differentiable static double f(double x) {",
      "    reset();",
      "    double s = scale;",
      "    double acc = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      acc += Math.sin(x * scale) * acc + x * s;",
      "      change();",
      "    }",
      "    return acc * scale + s * x;",
      "  }",
      "}");

  private static final CompiledOnce MUTABLE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Mutable", SOURCE));

  @Test
  void eachReadIsTheValueTheFieldHeldThen() {
    CompiledFunction f = MUTABLE.get().function("com.example.Mutable", "f", 1);
    DerivativeChecks.checkAt(f, 1.5);
    DerivativeChecks.checkAt(f, -0.4);
    // by hand: scale is 2 in the first iteration, 5 after; s stays 2
    double x = 0.7;
    double acc = 0;
    double dacc = 0;
    for (int i = 0; i < 3; i++) {
      double k = i == 0 ? 2 : 5;
      double t = Math.sin(x * k);
      double dt = Math.cos(x * k) * k;
      double next = acc + t * acc + x * 2;
      dacc = dacc + dt * acc + t * dacc + 2;
      acc = next;
    }
    assertThat(f.gradient(x)[0]).isWithin(1e-12).of(dacc * 5 + 2);
  }

  @Test
  void aDerivativeCarryingValueKeptInAFieldIsAnError() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Kept {",
        "  static double last;",
        "  static void keep(double v) { last = v; }",
        "  @Differentiable static double f(double x) {",
        "    keep(x);",
        "    return x * last;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Kept",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("'last' depends on 'x' through 'Kept.keep' (line 7), which carries no"
        + " derivative, and reaches a value that carries a derivative")
        .inFile(file).onLine(8);
  }
}
