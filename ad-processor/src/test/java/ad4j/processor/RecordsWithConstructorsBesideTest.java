package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A function given as an anonymous class ({@code new DoubleUnaryOperator() { ... }}, a boxed
 * {@code Function<Double, Double>}) or as {@code new C()} of a named class, in a class that also
 * declares a record with a compact constructor. ad4j found the class such a creation names with
 * {@code Trees.getElement}, which on an unattributed method body makes javac attribute the whole
 * class during annotation processing; javac then rejected the record's compact constructor when
 * it attributed the class again ("invalid canonical constructor in record P (canonical
 * constructor must not contain explicit constructor invocation)"), and the valid class did not
 * compile. It now resolves the name as the rest of the lowering does. A private static final
 * field with an initializer that is not a constant, read by a {@code @Differentiable} method,
 * broke such a class the same way (ad4j asks javac what the initializer calls, to decide whether
 * the generated class may copy the field): in a class with a record that declares a
 * constructor, it now reads the field where the method reads it, without asking.
 */
@ExtendWith(TapeIsEmpty.class)
class RecordsWithConstructorsBesideTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Beside {",
      "  record P(double a, double b) {",
      "    P { if (a > b) { double t = a; a = b; b = t; } }",
      "  }",
      "  static final class Twice implements DoubleUnaryOperator {",
      "    public double applyAsDouble(double v) { return 2 * v * v; }",
      "  }",
      "  @Differentiable static double f(double x, double y) {",
      "    double c = y * 2;",
      "    DoubleUnaryOperator f = new DoubleUnaryOperator() {",
      "      public double applyAsDouble(double s) { return s * s * c; }",
      "    };",
      "    DoubleUnaryOperator g = new Twice();",
      "    java.util.function.Function<Double, Double> h =",
      "        new java.util.function.Function<Double, Double>() {",
      "          public Double apply(Double s) { return s * c; }",
      "        };",
      "    P p = new P(x, y);",
      "    return f.applyAsDouble(x) + f.applyAsDouble(y * x) + g.applyAsDouble(x) + h.apply(y)",
      "        + p.a() * p.b();",
      "  }",
      "}");

  private static final CompiledOnce BESIDE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Beside",
          SOURCE));

  private static final String FIELDS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Fields {",
      "  record P(double a, double b) {",
      "    P { if (a > b) { double t = a; a = b; b = t; } }",
      "  }",
      "  record Q(double a, double b) {",
      "    Q(double a, double b) { this.a = Math.min(a, b); this.b = Math.max(a, b); }",
      "  }",
      "  private static final double K = Math.sqrt(2.5);",
      "  private static final double[] T = java.util.Arrays.copyOf(new double[] {1, 2}, 3);",
      "  @Differentiable static double f(double x, double y) {",
      "    P p = new P(x, y);",
      "    return p.a() * K + T[1] * y * p.b();",
      "  }",
      "}");

  @Test
  void aPrivateFieldIsReadBesideRecordsWithConstructors() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Fields", FIELDS);
    MemberAgreement.of(compiled, "com.example.Fields", "f", true, true)
        .checkScalarAt(new double[][] {{0.3, 0.6}, {0.8, 0.6}}, 1, 1e-7);
  }

  @Test
  void theClassCompilesAndItsFunctionsAreDifferentiated() throws Exception {
    // both orders of the record's components: its constructor swaps them
    MemberAgreement.of(BESIDE.get(), "com.example.Beside", "f", true, true)
        .checkScalarAt(new double[][] {{0.3, 0.6}, {0.8, 0.6}, {-1.2, 0.4}}, 1, 1e-7);
  }
}
