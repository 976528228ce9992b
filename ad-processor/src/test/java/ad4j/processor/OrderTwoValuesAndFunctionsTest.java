package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Constructor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hessians of order-2 methods over value records, functions, streams and instances, with
 * arrays of 1 to 6 elements beside them, so that {@code mHessian}'s lanes meet record leaves,
 * a record's {@code double[]} component, a value record's receiver, lambdas applied in a loop,
 * stream pipelines and an ordinary object's fields. Each against differences of order 8 of the
 * gradient, with {@code mHessianVector} and {@code mValueGradientAndHessian}
 * ({@link MemberAgreement}); an instance method of a value record against a static method that
 * calls it (whose Hessian takes one sweep per slot through the callee).
 */
@ExtendWith(TapeIsEmpty.class)
class OrderTwoValuesAndFunctionsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.Arrays;",
      "import java.util.function.DoubleBinaryOperator;",
      "import java.util.function.DoubleUnaryOperator;",
      "import java.util.stream.IntStream;",
      "final class Q {",
      "  record V(double x, double y) {",
      "    @Differentiable(order = 2) double dot(V o) { return x * o.x + y * o.y * x; }",
      "  }",
      "  record W(double[] xs, double c) {}",
      "  /** A value record, the array, a value record, and an instance method of the first. */",
      "  @Differentiable(order = 2) static double recs(V v, double[] x, V w) {",
      "    double s = v.x() * w.y();",
      "    for (int i = 0; i < x.length; i++) { s += x[i] * v.y() * x[i] + w.x() * x[i]; }",
      "    return s * v.dot(w);",
      "  }",
      "  /** A value record with a double[] component. */",
      "  @Differentiable(order = 2) static double arrRec(W w, double a) {",
      "    double s = 0;",
      "    for (int i = 0; i < w.xs().length; i++) { s += w.xs()[i] * w.xs()[i] * w.c() * a; }",
      "    return s * s;",
      "  }",
      "  /** Lambdas capturing an active parameter, applied in a loop. */",
      "  @Differentiable(order = 2) static double lambdas(double[] x, double a) {",
      "    DoubleUnaryOperator f = t -> Math.exp(t * a) * t;",
      "    DoubleBinaryOperator g = (p, q) -> p * q * a;",
      "    double s = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      s = g.applyAsDouble(s + f.applyAsDouble(x[i]), x[i]);",
      "    }",
      "    return s;",
      "  }",
      "  /** map and sum, a range's max, filter and reduce. */",
      "  @Differentiable(order = 2) static double streams(double[] x, double a) {",
      "    double s = Arrays.stream(x).map(t -> t * t * a).sum();",
      "    double m = IntStream.range(0, x.length)",
      "        .mapToDouble(i -> x[i] * x[(i + 1) % x.length]).max().getAsDouble();",
      "    return s * m + Arrays.stream(x).filter(t -> t > 0.5).map(t -> t * a)",
      "        .reduce(1.0, (p, q) -> p * q);",
      "  }",
      "  final double k;",
      "  Q(double k) { this.k = k; }",
      "  /** An instance method reading a field, which carries no derivative. */",
      "  @Differentiable(order = 2) double inst(double[] x, double a) {",
      "    double s = 0;",
      "    for (int i = 0; i < x.length; i++) { s += k * x[i] * a * x[i]; }",
      "    return s * a;",
      "  }",
      "}");

  private static final String RECEIVER_SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "record R(double x, double[] ws, double y) {",
      "  /** The receiver's leaves first in the flat layout, then w and c. */",
      "  @Differentiable(order = 2) double e(double[] w, double c) {",
      "    double s = x * c;",
      "    for (int i = 0; i < w.length; i++) {",
      "      s += w[i] * ws[i % ws.length] * y + x * w[i] * w[i];",
      "    }",
      "    return s * y;",
      "  }",
      "  @Differentiable(order = 2) static double twin(R self, double[] w, double c) {",
      "    return self.e(w, c);",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Q", SOURCE));

  private static final CompiledOnce RECEIVER = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.R",
          RECEIVER_SOURCE));

  private static MemberAgreement method(String name, boolean... active) {
    return MemberAgreement.of(COMPILED.get(), "com.example.Q", name, active);
  }

  @Test
  void valueRecordsBesideAnArray() throws Exception {
    Class<?> v = COMPILED.get().load("com.example.Q$V");
    Class<?> w = COMPILED.get().load("com.example.Q$W");
    for (int n = 1; n <= 6; n++) {
      method("recs", true, true, true).checkScalar(new Object[] {Records.make(v, 0.6, -0.3),
          point(n), Records.make(v, 1.1, 0.4)}, 2, 1e-6);
      method("arrRec", true, true).checkScalar(new Object[] {Records.make(w, point(n), 0.7),
          0.9}, 2, 1e-6);
    }
  }

  @Test
  void lambdasAndStreams() throws Exception {
    for (int n = 1; n <= 6; n++) {
      method("lambdas", true, true).checkScalar(new Object[] {point(n), 0.9}, 2, 1e-6);
      method("streams", true, true).checkScalar(new Object[] {point(n), 0.9}, 2, 1e-6);
    }
  }

  @Test
  void anInstanceMethod() throws Exception {
    Constructor<?> constructor = COMPILED.get().load("com.example.Q")
        .getDeclaredConstructor(double.class);
    constructor.setAccessible(true);
    Object q = constructor.newInstance(1.3);
    for (int n = 1; n <= 6; n++) {
      method("inst", true, true).on(q).checkScalar(new Object[] {point(n), 0.9}, 2, 1e-6);
    }
  }

  @Test
  void aValueRecordsReceiverFirst() throws Exception {
    Class<?> r = RECEIVER.get().load("com.example.R");
    Class<?> generated = RECEIVER.get().load("com.example.RGrad");
    for (int n = 1; n <= 6; n++) {
      for (int m = 1; m <= 3; m++) {
        Object receiver = Records.make(r, 0.7, point(m), -0.4);
        MemberAgreement.of(RECEIVER.get(), "com.example.R", "twin", true, true, true)
            .checkScalar(new Object[] {receiver, point(n), 0.9}, 2, 1e-6);
        double[][] hessian = (double[][]) Records.call(generated, "eHessian", receiver,
            point(n), 0.9);
        double[][] twin = (double[][]) Records.call(generated, "twinHessian", receiver,
            point(n), 0.9);
        assertWithMessage("slots, n = %s, m = %s", n, m).that(hessian.length)
            .isEqualTo(m + 3 + n);
        for (int i = 0; i < twin.length; i++) {
          for (int j = 0; j < twin.length; j++) {
            assertWithMessage("H[%s][%s], n = %s, m = %s", i, j, n, m).that(hessian[i][j])
                .isWithin(1e-12 * Math.max(1, Math.abs(twin[i][j]))).of(twin[i][j]);
          }
        }
      }
    }
  }

  private static double[] point(int n) {
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = 0.35 + 0.13 * i + 0.01 * i * i;
    }
    return x;
  }
}
