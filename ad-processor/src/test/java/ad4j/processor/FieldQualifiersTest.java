package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A simple name that qualifies a field access is a variable before it is a type (JLS 6.4.2,
 * 6.5.2): {@code H.k} of a {@code static final} field {@code H} reads the field {@code k} of
 * the object it holds, even where a class {@code H} exists too. It was an error ("cannot find
 * class 'H'") before.
 */
class FieldQualifiersTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Fields {",
      "  static final class Holder {",
      "    final double k;",
      "    final Holder inner;",
      "    Holder(double k, Holder inner) { this.k = k; this.inner = inner; }",
      "  }",
      "  static final class Scale { static final double k = 100; }",
      "  static final Holder H = new Holder(2.0, new Holder(0.5, null));",
      "  static final Holder Scale = new Holder(3.0, null);",
      "  @Differentiable static double f(double x) {",
      "    return x * x * H.k + Math.sin(x) * H.inner.k + x * Scale.k;",
      "  }",
      "}");

  private static final CompiledOnce FIELDS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Fields", SOURCE));

  @Test
  void aFieldQualifierIsReadAsTheObjectItHolds() {
    CompiledFunction f = FIELDS.get().function("com.example.Fields", "f", 1);
    DerivativeChecks.checkAt(f, 0.7);
    double x = 0.7;
    assertThat(f.gradient(x)[0]).isWithin(1e-15).of(2 * x * 2.0 + Math.cos(x) * 0.5 + 3.0);
  }
}
