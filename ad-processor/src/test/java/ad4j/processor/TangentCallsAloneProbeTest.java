package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An adversarial probe of {@code optimize/TangentCallsAlone}, which drops a callee's value call
 * from a tangent member where nothing reads the value and the callee's tangent call follows:
 * values read only in a branch, only in the next iteration of a loop, only through an
 * {@code int} cast or a comparison, or by a {@code @NoDerivative} argument; the same callee
 * called thrice, twice with the same arguments; a vector callee; recursion whose values go
 * unread; an array argument changed between two calls; a discarded call before its argument
 * changes. Every member against differences of the user's method and forward against
 * reverse, at order 2 where the callee allows, whole and in parts of one statement; where the
 * callee throws, every member throws what the method throws.
 */
@ExtendWith(TapeIsEmpty.class)
class TangentCallsAloneProbeTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Calls {",
      "  @Differentiable(order = 2) static double g(double x) {",
      "    if (x > 3) {",
      "      throw new IllegalArgumentException(\"large \" + x);",
      "    }",
      "    double s = 0;",
      "    for (int i = 1; i <= 2; i++) {",
      "      s += Math.sin(x * i + x);",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double[] vg(double x, double y) {",
      "    return new double[] {x * y, Math.exp(x) * g(y)};",
      "  }",
      "  @Differentiable(order = 2) static double sum(double[] x) {",
      "    double s = 0;",
      "    for (double v : x) {",
      "      s += v * v * v;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double h(double x, @NoDerivative double w) {",
      "    double s = 0;",
      "    for (int i = 0; i < 2; i++) {",
      "      s += x * x * w;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double rec(double x, int n) {",
      "    if (n == 0) {",
      "      return x;",
      "    }",
      "    double unused = rec(x * 0.5, n - 1);",
      "    return rec(x * x * 0.3, n - 1) + Math.sin(x);",
      "  }",
      "  /** A discarded call, then its argument changed, then a call of the same. */",
      "  @Differentiable(order = 2) static double discarded(double a, double b) {",
      "    g(a);",
      "    a = a - 10;",
      "    return g(a) + b;",
      "  }",
      "  /** The value read only in a branch. */",
      "  @Differentiable(order = 2) static double branch(double a, double b) {",
      "    double v = g(a);",
      "    if (b > 0) {",
      "      return b * b + g(b);",
      "    }",
      "    return v * b;",
      "  }",
      "  /** The value read in the next iteration. */",
      "  @Differentiable(order = 2) static double carried(double a, double b) {",
      "    double v = 0;",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      s += v * b;",
      "      v = g(a * i + b);",
      "    }",
      "    return s;",
      "  }",
      "  /** The same callee three times, two with the same arguments. */",
      "  @Differentiable(order = 2) static double twice(double a, double b) {",
      "    return g(a) + g(b) + g(a);",
      "  }",
      "  /** The value to an int and to a comparison. */",
      "  @Differentiable(order = 2) static double cast(double a, double b) {",
      "    int n = (int) g(a);",
      "    double s = g(b);",
      "    if (g(a) > 0.5) {",
      "      s += b;",
      "    }",
      "    for (int i = 0; i < Math.abs(n) % 3; i++) {",
      "      s += a * s;",
      "    }",
      "    return s;",
      "  }",
      "  /** A vector callee. */",
      "  @Differentiable static double vec(double a, double b) {",
      "    double[] u = vg(a, b);",
      "    return u[0] + vg(b, a)[1];",
      "  }",
      "  /** Recursion whose values go unread. */",
      "  @Differentiable(order = 2) static double recursive(double a, double b) {",
      "    return rec(a * b, 3);",
      "  }",
      "  /** The value read by a @NoDerivative argument. */",
      "  @Differentiable(order = 2) static double data(double a, double b) {",
      "    double v = g(a);",
      "    return h(b, (int) v) + h(a, (int) g(b));",
      "  }",
      "  /** An array argument changed between two calls. */",
      "  @Differentiable(order = 2) static double changed(double a, double b) {",
      "    double[] x = {a, b};",
      "    double u = sum(x);",
      "    x[0] = b * u;",
      "    double w = sum(x);",
      "    x[1] = a;",
      "    return w + sum(x);",
      "  }",
      "}");

  private static final CompiledOnce WHOLE = compiled(0);
  private static final CompiledOnce PARTS_OF_1 = compiled(1);

  private static CompiledOnce compiled(int partSize) {
    return new CompiledOnce(() -> InProcessCompiler.compileWith(partSize == 0
        ? List.of("-Xlint:all", "-Werror")
        : List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=" + partSize), "com.example.Calls",
        SOURCE));
  }

  private static MemberAgreement members(int partSize, String name) {
    return MemberAgreement.of(partSize == 0 ? WHOLE.get() : PARTS_OF_1.get(),
        "com.example.Calls", name, true, true);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1})
  void scalars(int partSize) throws Exception {
    for (String name : List.of("branch", "carried", "twice", "cast", "recursive", "data",
        "changed", "discarded")) {
      MemberAgreement members = members(partSize, name);
      members.checkScalar(new Object[] {0.4, 1.3}, 2, 1e-7);
      members.checkScalar(new Object[] {-0.8, -0.6}, 2, 1e-7);
    }
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1})
  void vectors(int partSize) throws Exception {
    MemberAgreement members = members(partSize, "vec");
    members.checkScalar(new Object[] {0.4, 1.3}, 1, 1e-7);
    members.checkScalar(new Object[] {-0.8, -0.6}, 1, 1e-7);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1})
  void throwing(int partSize) throws Exception {
    members(partSize, "discarded").checkThrows(new Object[] {3.5, 1.3}, 2);
    for (String name : List.of("branch", "carried", "twice", "cast", "data")) {
      members(partSize, name).checkThrows(new Object[] {3.5, 1.3}, 2);
      members(partSize, name).checkThrows(new Object[] {0.5, 3.3}, 2);
    }
    members(partSize, "vec").checkThrows(new Object[] {0.5, 3.3}, 1);
  }
}
