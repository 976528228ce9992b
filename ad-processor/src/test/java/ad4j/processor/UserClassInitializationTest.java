package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Calling a static method initialises its class first (JLS 12.4.1); a generated member read
 * nothing of the class that would initialise it, so where the class's initializer set what the
 * method reads, the first call of a member computed with what was there before: with
 * {@code static { Config.scale = 3; }} in {@code P} and {@code f(x) = Config.scale * x * x},
 * {@code fValueAndGradient(1.5)} called first returned 2.25 with the gradient 3, where
 * {@code P.f(1.5)} returns 6.75 with the derivative 9. Each member of such a class's static
 * methods now initialises it first; so do a callee's, whose class the caller's code
 * initialises at the call.
 */
class UserClassInitializationTest {
  /** {@code P} with {@code members}, beside its nested class {@code Config}. */
  private static Compiled compile(String... members) {
    return InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.P",
        String.join("\n", "package com.example;", "import ad4j.Differentiable;",
            "final class P {", "  static final class Config { static double scale = 1; }",
            String.join("\n", members), "}"));
  }

  private static final String[] SETS_SCALE = {
      "  static { Config.scale = 3; }",
      "  @Differentiable static double f(double x) { return Config.scale * x * x; }"};

  @Test
  void theValueAndGradientCalledFirstSeeTheInitializersWork() throws Exception {
    Compiled compiled = compile(SETS_SCALE);
    double[] gradient = new double[1];

    double value = (double) compiled.invoke("com.example.PGrad", "fValueAndGradient", 1.5,
        gradient);

    assertThat(value).isEqualTo(6.75);
    assertThat(gradient[0]).isEqualTo(9.0);
    assertThat(compiled.invoke("com.example.P", "f", 1.5)).isEqualTo(6.75);
  }

  @Test
  void theTangentCalledFirstSeesTheInitializersWork() throws Exception {
    Compiled compiled = compile(SETS_SCALE);

    assertThat(compiled.invoke("com.example.PGrad", "fTangent", 1.5, 1.0)).isEqualTo(9.0);
  }

  @Test
  void aCalleesClassIsInitializedAtTheCall() throws Exception {
    Compiled compiled = compile(
        "  static final class Q {",
        "    static { Config.scale = 3; }",
        "    @Differentiable static double g(double x) { return x * x; }",
        "  }",
        "  @Differentiable static double f(double x) {",
        "    double before = Config.scale * x;",
        "    return before + Q.g(x) * Config.scale;",
        "  }");
    double[] gradient = new double[1];

    double value = (double) compiled.invoke("com.example.PGrad", "fValueAndGradient", 1.5,
        gradient);

    // Config.scale is 1 before the call of Q.g, 3 after it
    assertThat(value).isEqualTo(1.5 + 6.75);
    assertThat(gradient[0]).isEqualTo(1 + 9.0);
    // from now on Config.scale is 3 throughout, as it is in the method
    assertThat(compiled.invoke("com.example.PGrad", "fTangent", 1.5, 1.0)).isEqualTo(12.0);
    assertThat(compiled.invoke("com.example.P", "f", 1.5)).isEqualTo(4.5 + 6.75);
  }

  /** An initializer that calls the generated class computes as the method would there. */
  @Test
  void anInitializerCallingTheGeneratedClass() throws Exception {
    Compiled compiled = compile(
        "  static double scale = 2;",
        "  static final double EARLY = PGrad.fGradient(1.5)[0];",
        "  @Differentiable static double f(double x) { return scale * x * x; }");

    assertThat(compiled.invoke("com.example.PGrad", "fTangent", 1.5, 1.0)).isEqualTo(6.0);
    java.lang.reflect.Field early = compiled.load("com.example.P").getDeclaredField("EARLY");
    early.setAccessible(true);
    assertThat(early.getDouble(null)).isEqualTo(6.0);
  }
}
