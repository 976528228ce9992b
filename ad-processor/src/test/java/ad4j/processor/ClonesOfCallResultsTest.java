package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code rows.get(i).clone()}: the clone of an array that a call run as written returns (a row
 * of a {@code @NoDerivative List<double[]>}), a local array the method may write, as the clone of
 * a local's array is. Only the lowered receiver tells that it is an array, so it was the error
 * "'rows.get(0)' has type 'double[]', which has no methods". Checked against differences of the
 * user's method, forward against reverse and the pullback ({@link ArrayFunctionChecks}); the
 * list's arrays are left as the method leaves them.
 */
@ExtendWith(TapeIsEmpty.class)
class ClonesOfCallResultsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Rows",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.List;",
              "final class Rows {",
              "  @Differentiable static double first(double a, @NoDerivative List<double[]> rows) {",
              "    double[] r = rows.get(0).clone();",
              "    r[1] = r[0] * a;",
              "    return r[1] * a + r[0] * Math.sin(a);",
              "  }",
              "  @Differentiable static double inLoop(double[] x,",
              "      @NoDerivative List<double[]> rows) {",
              "    double s = 0;",
              "    for (int i = 0; i < x.length; i++) {",
              "      double[] r = rows.get(i % rows.size()).clone();",
              "      r[0] += x[i];",
              "      s += r[0] * r[0] * x[i] + r[1];",
              "    }",
              "    return s;",
              "  }",
              "}")));

  @Test
  void aCallsArrayIsClonedIntoALocalArray() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COMPILED.get(), "com.example.Rows");
    List<double[]> rows = List.of(new double[] {1.5, 2}, new double[] {-0.5, 3});
    for (double a : new double[] {0.3, -0.8, 1.7}) {
      checks.check(new Call("first", new Object[] {a, rows}, true, false));
      checks.check(new Call("inLoop", new Object[] {new double[] {a, -0.4, 1.1}, rows},
          true, false));
    }
    assertThat(rows.get(0)).isEqualTo(new double[] {1.5, 2});
    assertThat(rows.get(1)).isEqualTo(new double[] {-0.5, 3});
  }
}
