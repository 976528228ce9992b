package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code static final byte} or {@code short} compile-time constant passed to a method run as
 * written: generated code must call the overload the method's call chose.
 */
@ExtendWith(TapeIsEmpty.class)
class NarrowConstantFieldsRunAsWrittenTest {
  /**
   * A {@code static final byte} or {@code short} constant was written as an {@code int}
   * literal, so that generated code's call of a method run as written chose {@code w(int)}
   * where the method's chose {@code w(byte)}: {@code fGradient} of {@code w(B) * x} was 3.0
   * where the derivative is 2.0.
   */
  @Test
  void aNarrowConstantFieldPassedToACallRunAsWrittenKeepsItsType() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Fields", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Fields {",
            "  static final byte B = 3;",
            "  static final short S = -4;",
            "  static double w(byte c) { return 2; }",
            "  static double w(short c) { return 5; }",
            "  static double w(int c) { return 3; }",
            "  @Differentiable static double f(double x) {",
            "    return w(B) * x + w(S) * x * x + B * x + S;",
            "  }",
            "}"));
    MemberAgreement agreement = MemberAgreement.of(compiled, "com.example.Fields", "f", true);
    agreement.checkScalar(new Object[] {1.5}, 1, 1e-9);
    assertThat((double[]) agreement.member("Gradient", new Object[] {1.5}))
        .isEqualTo(new double[] {2 + 5 * 2 * 1.5 + 3});
  }
}
