package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Generated members throw exactly what the method throws, message included, where
 * {@code System.arraycopy} and {@code Arrays.copyOfRange} (written as loops in generated code)
 * reject their arguments (issue 36): each of the JVM's checks, in its order, for arrays of
 * {@code double} and {@code int}.
 */
class ArrayCopyMessagesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Copies {",
      "  @Differentiable static double copied(double[] x, int from, int to, int n) {",
      "    double[] y = new double[3];",
      "    System.arraycopy(x, from, y, to, n);",
      "    int[] k = new int[2];",
      "    System.arraycopy(new int[] {1, 2, 3}, n, k, 0, 1);",
      "    return y[0] * y[1] + y[2] * k[0];",
      "  }",
      "  @Differentiable static double range(double[] x, int from, int to) {",
      "    double[] y = java.util.Arrays.copyOfRange(x, from, to);",
      "    return y[0] * y[y.length - 1];",
      "  }",
      "}");

  private static final CompiledOnce COPIES = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Copies", SOURCE));

  @Test
  void arraycopyThrowsTheJvmsMessageFromEveryMember() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COPIES.get(), "com.example.Copies");
    double[] x = {0.3, -0.6, 0.9, 1.2};
    checks.check(new ArrayFunctionChecks.Call("copied", new Object[] {x, 1, 0, 2}, true, false,
        false, false));
    int[][] rejected = {{-1, 0, 2}, {0, -2, 2}, {0, 0, -2}, {3, 0, 2}, {0, 2, 2}, {-1, -2, -2},
        {0, 0, 4}, {0, 0, 3}, {Integer.MAX_VALUE, 0, 2}};
    for (int[] r : rejected) {
      assertSameThrown(checks, "copied", new Object[] {x, r[0], r[1], r[2]});
    }
  }

  @Test
  void copyOfRangeThrowsTheJvmsMessageFromEveryMember() throws Exception {
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(COPIES.get(), "com.example.Copies");
    double[] x = {0.3, -0.6, 0.9, 1.2};
    checks.check(new ArrayFunctionChecks.Call("range", new Object[] {x, 1, 3}, true, false,
        false));
    for (int[] r : new int[][] {{5, 7}, {-1, 2}, {3, 1}}) {
      assertSameThrown(checks, "range", new Object[] {x, r[0], r[1]});
    }
  }

  private static void assertSameThrown(ArrayFunctionChecks checks, String name,
      Object[] arguments) {
    Throwable expected = assertThrows(InvocationTargetException.class,
        () -> ArrayFunctionChecks.invoke(checks.user(), name, arguments)).getCause();
    int slots = ((double[]) arguments[0]).length;
    Object[] tangent = new Object[arguments.length + 1];
    System.arraycopy(arguments, 0, tangent, 0, arguments.length);
    tangent[arguments.length] = new double[slots];
    Object[] pullback = new Object[arguments.length + 2];
    System.arraycopy(arguments, 0, pullback, 0, arguments.length);
    pullback[arguments.length] = 1.0;
    pullback[arguments.length + 1] = new double[slots];
    for (Object[] member : List.of(new Object[] {name + "Gradient", arguments},
        new Object[] {name + "Tangent", tangent}, new Object[] {name + "Pullback", pullback})) {
      Throwable thrown = assertThrows(InvocationTargetException.class,
          () -> ArrayFunctionChecks.invoke(checks.generated(), (String) member[0],
              (Object[]) member[1])).getCause();
      assertThat(thrown.getClass()).isEqualTo(expected.getClass());
      assertThat(thrown).hasMessageThat().isEqualTo(expected.getMessage());
    }
  }
}
