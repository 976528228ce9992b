package ad4j.processor.emit;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.BytecodeSizes;
import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.tools.JavaFileObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The estimate that decides whether to split a method is close to the bytecode javac really
 * makes, for small methods and for methods with thousands of locals (where loads and stores
 * take the 4-byte wide form).
 */
class BytecodeEstimateTest {

  private static String chain(int statements) {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < statements / 2; i++) {
      body.append("    x = x * a + Math.sin(y);\n");
      body.append("    y = Math.cos(x) * b - y / a;\n");
    }
    return "package com.example;\nimport ad4j.Differentiable;\nfinal class Chain {\n"
        + "  @Differentiable static double chain(double x, double y, double a, double b) {\n"
        + body + "    return x + y;\n  }\n}\n";
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 40, 60})
  void estimatesTheGeneratedMethodsWithinAQuarter(int statements) throws IOException {
    Compilation compilation = InProcessCompiler.compileUnchecked("com.example.Chain",
        chain(statements));
    InProcessCompiler.requireSuccess(compilation);
    String source = compilation.generatedSourceFile("com.example.ChainGrad").orElseThrow()
        .getCharContent(true).toString();
    Map<String, Integer> actual = sizes(compilation);

    for (String method : List.of("chainValueAndGradient", "chainTangent", "chainPullback")) {
      int estimate = BytecodeEstimate.of(parameters(source, method), body(source, method));
      int real = actual.entrySet().stream()
          .filter(e -> e.getKey().startsWith(method + "("))
          .findFirst().orElseThrow().getValue();
      assertWithMessage(method + " of " + statements + " statements: estimate " + estimate
          + ", javac " + real).that((double) estimate).isWithin(0.25 * real + 100).of(real);
    }
  }

  private static List<String[]> parameters(String source, String method) {
    int start = source.indexOf("static double " + method + "(") + method.length() + 15;
    String list = source.substring(start, source.indexOf(')', start));
    List<String[]> parameters = new ArrayList<>();
    for (String parameter : list.split(",")) {
      String[] parts = parameter.trim().split("\\s+");
      parameters.add(new String[] {parts[0], parts[1]});
    }
    return parameters;
  }

  private static String body(String source, String method) {
    int start = source.indexOf("{", source.indexOf("static double " + method + "(")) + 1;
    return source.substring(start, source.indexOf("\n  }\n", start));
  }

  private static Map<String, Integer> sizes(Compilation compilation) {
    JavaFileObject file = compilation.generatedFiles().stream()
        .filter(f -> f.toUri().getPath().endsWith("com/example/ChainGrad.class"))
        .findFirst().orElseThrow();
    try (InputStream in = file.openInputStream()) {
      return BytecodeSizes.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
