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

  /**
   * {@code com.example.Chain} with one method, for the tests of long chains: its declaration
   * (on line 4, where errors point), then {@code body} as written, indented by the caller.
   */
  public static String chainClass(String declaration, String body) {
    return String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Chain {",
        "  " + declaration + " {",
        body,
        "  }",
        "}",
        "");
  }

  /**
   * {@code localMatrix(double[] w, double c)}, marked with {@code annotation}: a local matrix
   * {@code new double[n][n]} written element by element, one step of Gaussian elimination in
   * place through a row, walked by for-each, and a row cloned. Shared by the tests of order 1
   * and 2.
   */
  public static String localMatrixMethod(String annotation) {
    return String.join("\n",
        "  " + annotation + " static double localMatrix(double[] w, double c) {",
        "    int n = w.length;",
        "    double[][] a = new double[n][n];",
        "    for (int i = 0; i < n; i++) {",
        "      for (int j = 0; j < n; j++) { a[i][j] = w[i] * w[j] + (i == j ? c : 0); }",
        "    }",
        "    for (int i = 1; i < n; i++) {",
        "      double f = a[i][0] / a[0][0];",
        "      double[] row = a[i];",
        "      for (int j = 0; j < n; j++) { row[j] -= f * a[0][j]; }",
        "    }",
        "    double s = 0;",
        "    for (double[] r : a) { for (double v : r) { s += v * v; } }",
        "    double[] copy = a[n - 1].clone();",
        "    copy[0] += 1;",
        "    return s + copy[0] * copy[n - 1];",
        "  }");
  }
}
