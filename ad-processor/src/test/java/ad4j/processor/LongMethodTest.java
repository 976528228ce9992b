package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.BytecodeSizes;
import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.runtime.internal.Tape;
import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * A straight-line method whose generated derivatives would pass HotSpot's 8000-byte limit for
 * compiling a method is split into segment methods, each under the limit, while the user's own
 * method stays under it too.
 */
class LongMethodTest {
  private static final int HOTSPOT_LIMIT = 8000;

  private static String chain(int statements) {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < statements / 2; i++) {
      body.append("    x = x * a + Math.sin(y);\n");
      body.append("    y = y * b - x * 0.001;\n");
    }
    return "package com.example;\nimport ad4j.Differentiable;\nfinal class Chain {\n"
        + "  @Differentiable static double chain(double x, double y, double a, double b) {\n"
        + body + "    return x + y;\n  }\n}\n";
  }

  @Test
  void aLongChainIsSplitIntoMethodsHotSpotCompiles() {
    Compiled compiled = InProcessCompiler.compile("com.example.Chain", chain(500));

    Map<String, Integer> user = sizes(compiled.compilation(), "com/example/Chain.class");
    Map<String, Integer> generated = sizes(compiled.compilation(), "com/example/ChainGrad.class");
    assertThat(user.get("chain(DDDD)D")).isLessThan(HOTSPOT_LIMIT);
    assertThat(generated.keySet()).contains("chainForward1(Lad4j/runtime/internal/Tape;DDDD)V");
    for (Map.Entry<String, Integer> method : generated.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
    }

    CompiledFunction f = compiled.function("com.example.Chain", "chain", 4);
    DerivativeChecks.checkAt(f, 0.3, 0.2, 0.99, 0.98);
    DerivativeChecks.checkAt(f, -0.1, 0.5, 0.97, 1.0);
    assertThat(Tape.current().size()).isEqualTo(0);
  }

  /** {@link #chain} with argument checks before the chain. */
  private static String checkedChain(int statements) {
    return chain(statements).replace("double a, double b) {\n", "double a, double b) {\n"
        + "    if (a <= 0) {\n"
        + "      throw new IllegalArgumentException(\"a must be positive: \" + a);\n"
        + "    }\n"
        + "    if (b > 2) { throw new ArithmeticException(\"b > 2\"); }\n");
  }

  @Test
  void argumentChecksAtTheStartDoNotKeepALongChainWhole() throws Exception {
    Compiled compiled = InProcessCompiler.compileWith(java.util.List.of("-Xlint:all", "-Werror"),
        "com.example.Chain", checkedChain(500));

    Map<String, Integer> generated = sizes(compiled.compilation(), "com/example/ChainGrad.class");
    assertThat(generated.keySet()).contains("chainForward1(Lad4j/runtime/internal/Tape;DDDD)V");
    for (Map.Entry<String, Integer> method : generated.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
    }
    CompiledFunction f = compiled.function("com.example.Chain", "chain", 4);
    DerivativeChecks.checkAt(f, 0.3, 0.2, 0.99, 0.98);
    DerivativeChecks.checkAt(f, -0.1, 0.5, 0.97, 1.0);

    // every member checks first, as the user's method does, and leaves the tape empty
    Class<?> grad = compiled.load("com.example.ChainGrad");
    Object[][] calls = {
        {"chainGradient", new Object[] {0.3, 0.2, -1.0, 0.9}},
        {"chainValueAndGradient", new Object[] {0.3, 0.2, -1.0, 0.9, new double[4]}},
        {"chainTangent", new Object[] {0.3, 0.2, -1.0, 0.9, 1.0, 0.0, 0.0, 0.0}},
        {"chainPullback", new Object[] {0.3, 0.2, -1.0, 0.9, 1.0, new double[4]}}};
    for (Object[] call : calls) {
      java.lang.reflect.Method member = java.util.Arrays.stream(grad.getDeclaredMethods())
          .filter(m -> m.getName().equals(call[0])
              && m.getParameterCount() == ((Object[]) call[1]).length
              && m.getParameterTypes()[0] == double.class)
          .findFirst().orElseThrow();
      member.setAccessible(true);
      java.lang.reflect.InvocationTargetException thrown = org.junit.jupiter.api.Assertions
          .assertThrows(java.lang.reflect.InvocationTargetException.class,
              () -> member.invoke(null, (Object[]) call[1]));
      assertWithMessage("%s", call[0]).that(thrown.getCause())
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(thrown.getCause()).hasMessageThat().isEqualTo("a must be positive: -1.0");
    }
    assertThat(Tape.current().size()).isEqualTo(0);
  }

  /** Three long overloads whose segment methods' parameter lists coincide across overloads. */
  private static String overloads() {
    StringBuilder source = new StringBuilder(
        "package com.example;\nimport ad4j.Differentiable;\nfinal class Chains {\n");
    String[][] overloads = {{"double x", "0.5"}, {"double x, double y", "y"},
        {"double x, double seed, double y", "seed * y"}};
    for (String[] overload : overloads) {
      source.append("  @Differentiable static double f(").append(overload[0])
          .append(") {\n    double v0 = x;\n");
      for (int i = 1; i <= 200; i++) {
        source.append("    double v").append(i).append(" = Math.sin(v").append(i - 1)
            .append(") * x * 0.5 + ").append(overload[1]).append(";\n");
      }
      source.append("    return v200;\n  }\n");
    }
    return source.append("}\n").toString();
  }

  @Test
  void splitOverloadsGetSegmentMethodsOfTheirOwn() {
    // the last reverse segment of one overload, taking (tape, x, ..., seed), and a middle
    // one of the next had the same name and parameter types: javac rejected the class
    Compiled compiled = InProcessCompiler.compile("com.example.Chains", overloads());

    Map<String, Integer> generated =
        sizes(compiled.compilation(), "com/example/ChainsGrad.class");
    assertThat(generated.keySet().stream().filter(m -> m.startsWith("fForward1Of")).count())
        .isEqualTo(3);
    CompiledFunction one = compiled.function("com.example.Chains", "f", 1);
    DerivativeChecks.checkAt(one, 0.3);
    CompiledFunction two = compiled.function("com.example.Chains", "f", 2);
    DerivativeChecks.checkAt(two, 0.3, -0.2);
    CompiledFunction three = compiled.function("com.example.Chains", "f", 3);
    DerivativeChecks.checkAt(three, 0.3, 0.7, -0.2);
    assertThat(Tape.current().size()).isEqualTo(0);
  }

  @Test
  void aShortMethodStaysWhole() {
    Compiled compiled = InProcessCompiler.compile("com.example.Chain", chain(40));

    assertThat(sizes(compiled.compilation(), "com/example/ChainGrad.class").keySet())
        .doesNotContain("chainForward1(Lad4j/runtime/internal/Tape;DDDD)V");
  }

  private static Map<String, Integer> sizes(Compilation compilation, String path) {
    JavaFileObject file = compilation.generatedFiles().stream()
        .filter(f -> f.toUri().getPath().endsWith(path))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no class file " + path));
    try (InputStream in = file.openInputStream()) {
      return BytecodeSizes.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
