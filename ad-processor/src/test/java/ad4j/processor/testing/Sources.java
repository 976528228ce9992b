package ad4j.processor.testing;

/** Builds small compilation units for tests. */
public final class Sources {
  private Sources() {}

  /**
   * {@code package com.example;}, {@code import ad4j.Differentiable;}, the extra import lines,
   * then {@code header { body }}, e.g. {@code unit("final class F", "...")}.
   */
  public static String unit(String header, String body, String... imports) {
    StringBuilder source = new StringBuilder("package com.example;\n\nimport ad4j.Differentiable;\n");
    for (String line : imports) {
      source.append(line).append('\n');
    }
    return source.append('\n').append(header).append(" {\n").append(body).append("\n}\n")
        .toString();
  }
}
