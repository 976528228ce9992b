package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No name of the user's captures a reference of generated code: parameters named like the
 * package of a called class ({@code geo} for {@code geo.Lib}), like a generated class
 * ({@code HostileGrad}), {@code Tape}, {@code java}, {@code ad4j}, {@code Double}; and classes
 * of the user's package named {@code Tape}, {@code Generated}, {@code Double},
 * {@code IllegalArgumentException}, {@code Math}, {@code String}, {@code Throwable} and more.
 * Everything compiles without warnings and computes what it would without them.
 */
class HostileNamesTest {
  private static final List<String> HOSTILE_CLASSES = List.of("Tape", "Generated", "Double",
      "Float", "IllegalArgumentException", "Math", "StrictMath", "System", "Object", "String",
      "Throwable", "RuntimeException");

  private static final String HOSTILE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import geo.Lib;",
      "final class Hostile {",
      "  @Differentiable static double maxOf(double HostileGrad, double y) {",
      "    return java.lang.Math.max(HostileGrad * y, y);",
      "  }",
      "  @Differentiable static double calls(double geo, double Tape, double ad4j) {",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      s += Lib.square(geo * Tape) + maxOf(ad4j, s) * 0.5",
      "          + java.lang.StrictMath.sin(s + geo);",
      "    }",
      "    if (geo > 5) { throw new java.lang.IllegalArgumentException(\"too big: \" + geo); }",
      "    return s;",
      "  }",
      "  @Differentiable static double qualifiers(double java, double Double, double String) {",
      "    return java * Double + String / 2;",
      "  }",
      "}");

  private static final String LIB = String.join("\n",
      "package geo;",
      "import ad4j.Differentiable;",
      "public final class Lib {",
      "  @Differentiable public static double square(double x) { return x * x; }",
      "}");

  private static Compiled compiled;

  private static Compiled hostile() {
    if (compiled == null) {
      List<String> sources = new ArrayList<>(List.of("com.example.Hostile", HOSTILE,
          "geo.Lib", LIB));
      for (String name : HOSTILE_CLASSES) {
        sources.add("com.example." + name);
        sources.add("package com.example; final class " + name + " { }");
      }
      compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          sources.toArray(String[]::new));
    }
    return compiled;
  }

  @Test
  void derivativesAreExactDespiteHostileNames() {
    DerivativeChecks.checkAt(hostile().function("com.example.Hostile", "calls", 3),
        0.3, 0.8, -0.4);
    DerivativeChecks.checkAt(hostile().function("com.example.Hostile", "qualifiers", 3),
        1.5, -2, 0.25);
    CompiledFunction maxOf = hostile().function("com.example.Hostile", "maxOf", 2);
    assertThat(maxOf.gradient(2, 1)).usingExactEquality().containsExactly(1.0, 2.0).inOrder();
  }

  @Test
  void maxOfNaNHasNaNPartialsAlthoughAClassDoubleExists() {
    CompiledFunction maxOf = hostile().function("com.example.Hostile", "maxOf", 2);
    double[] gradient = maxOf.gradient(1, Double.NaN);
    assertThat(gradient[0]).isNaN();
    assertThat(gradient[1]).isNaN();
  }

  @Test
  void exceptionsAreJavaLangsAlthoughClassesOfThoseNamesExist() {
    CompiledFunction calls = hostile().function("com.example.Hostile", "calls", 3);
    String expected = assertThrows(IllegalArgumentException.class,
        () -> calls.value(6, 1, 0)).getMessage();
    assertThat(assertThrows(IllegalArgumentException.class, () -> calls.gradient(6, 1, 0))
        .getMessage()).isEqualTo(expected);
    assertThat(assertThrows(IllegalArgumentException.class,
        () -> calls.pullback(new double[] {6, 1, 0}, 1, new double[3])).getMessage())
        .isEqualTo(expected);
    // the length check of the generated members
    assertThat(assertThrows(IllegalArgumentException.class,
        () -> calls.valueAndGradient(new double[] {0.3, 0.8, -0.4}, new double[2]))
        .getMessage()).contains("has length 2, needs 3");
  }
}
