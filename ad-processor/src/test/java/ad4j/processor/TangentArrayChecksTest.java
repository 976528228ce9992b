package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.GeneratedText;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code mTangent}'s tangent arrays against their arrays (DESIGN.md: a too-short array argument
 * gets an {@code IllegalArgumentException} naming the method and the lengths): a {@code double[]},
 * {@code float[]} or {@code double[][]} parameter's tangent shorter than it (for a matrix: fewer
 * rows, or a shorter row) is that exception with that message, from the tangent of a scalar and of
 * a vector function, of an order-2 method, an instance method and a method over a value record with
 * an array component, whole and cut into parts of one statement; before the check, a method that
 * reads only the first element returned as if the direction had been longer, the others threw an
 * index exception. With tangents of the right length (or longer: callers pass shared zeros of at
 * least the length) the same members agree with the gradient (the dot-product test) and with
 * fourth-order central differences of the user's method along the direction.
 */
@ExtendWith(TapeIsEmpty.class)
class TangentArrayChecksTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Tan {",
      "  record Poly(double[] c, double s) {}",
      "  private final double k;",
      "  Tan(double k) { this.k = k; }",
      "  @Differentiable static double first(double[] a, double b) {",
      "    return a[0] * a[0] * b;",
      "  }",
      "  @Differentiable static double sum(double[] a, @NoDerivative double[] y) {",
      "    double s = 0;",
      "    for (int i = 0; i < a.length; i++) { s += Math.sin(a[i]) * y[i]; }",
      "    return s;",
      "  }",
      "  @Differentiable static double jagged(double[][] m, double c) {",
      "    double s = 0;",
      "    for (int i = 0; i < m.length; i++) {",
      "      for (int j = 0; j < m[i].length; j++) { s += Math.exp(m[i][j] * c) / (i + j + 1); }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double floats(float[] q, double t) {",
      "    double s = t;",
      "    for (int i = 0; i < q.length; i++) { s += q[i] * q[i] * t; }",
      "    return s;",
      "  }",
      "  @Differentiable static double[] vec(double[] a, double b) {",
      "    return new double[] {a[0] * b, a[1] * a[2]};",
      "  }",
      "  @Differentiable(order = 2) static double second(double[] a, double b) {",
      "    return a[0] * a[1] * b + Math.cos(a[1]);",
      "  }",
      "  @Differentiable double scaled(double[] a) {",
      "    return a[0] * a[1] * k;",
      "  }",
      "  @Differentiable static double poly(Poly p, double x) {",
      "    return p.c()[0] * x + p.c()[1] * x * x + p.s();",
      "  }",
      "}");

  private static final List<CompiledOnce> COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Tan", SOURCE, 1);

  /**
   * A call of a tangent member: its name, the arguments with the direction given, and the one
   * message a too-short direction gets.
   */
  private record TooShort(String member, Object[] arguments, String message) {
    @Override
    public String toString() {
      return member + ": " + message;
    }
  }

  static Stream<Arguments> tooShort() {
    double[] a3 = {0.3, -0.7, 1.1};
    double[][] m = {{0.2, -0.4, 0.1}, {0.5, 0.6}};
    Stream<TooShort> calls = Stream.of(
        new TooShort("firstTangent", new Object[] {a3, 2.0, new double[1], 1.0},
            "TanGrad.firstTangent: 'aDot' has length 1, needs 3 (one per element of 'a')"),
        new TooShort("sumTangent", new Object[] {a3, new double[] {1, 2, 3}, new double[2]},
            "TanGrad.sumTangent: 'aDot' has length 2, needs 3 (one per element of 'a')"),
        new TooShort("jaggedTangent",
            new Object[] {m, 0.7, new double[][] {{1, 0, 0}}, 0.0},
            "TanGrad.jaggedTangent: 'mDot' has 1 rows, needs 2 (one per row of 'm')"),
        new TooShort("jaggedTangent",
            new Object[] {m, 0.7, new double[][] {{1, 0, 0}, {1}}, 0.0},
            "TanGrad.jaggedTangent: row 1 of 'mDot' has length 1, needs 2 (one per element"
                + " of row 1 of 'm')"),
        new TooShort("floatsTangent",
            new Object[] {new float[] {0.5f, 1.5f}, 0.3, new double[] {1}, 0.0},
            "TanGrad.floatsTangent: 'qDot' has length 1, needs 2 (one per element of 'q')"),
        new TooShort("vecTangent", new Object[] {a3, 2.0, new double[2], 1.0},
            "TanGrad.vecTangent: 'aDot' has length 2, needs 3 (one per element of 'a')"),
        new TooShort("secondTangent", new Object[] {a3, 2.0, new double[0], 1.0},
            "TanGrad.secondTangent: 'aDot' has length 0, needs 3 (one per element of 'a')"),
        new TooShort("scaledTangent", new Object[] {null, a3, new double[2]},
            "TanGrad.scaledTangent: 'aDot' has length 2, needs 3 (one per element of 'a')"),
        new TooShort("polyTangent", new Object[] {null, 0.4, null, 0.0},
            "TanGrad.polyTangent: 'pCDot' has length 1, needs 2 (one per element of 'pC')"));
    return calls.flatMap(call -> Stream.of(0, 1).map(k -> Arguments.of(call, k)));
  }

  @ParameterizedTest(name = "{0}, compilation {1}")
  @MethodSource("tooShort")
  void aTooShortTangentNamesTheMethodAndBothLengths(TooShort call, int compilation)
      throws Exception {
    Compiled compiled = COMPILED.get(compilation).get();
    Object[] arguments = withObjects(compiled, call.arguments());
    InvocationTargetException e = assertThrows(InvocationTargetException.class,
        () -> compiled.invoke("com.example.TanGrad", call.member(), arguments));

    assertThat(e.getCause()).isInstanceOf(IllegalArgumentException.class);
    assertThat(e.getCause()).hasMessageThat().isEqualTo(call.message());
  }

  /** The receiver and the records the calls above leave {@code null}, made here. */
  private static Object[] withObjects(Compiled compiled, Object[] arguments) throws Exception {
    Object[] filled = arguments.clone();
    if (filled.length == 3 && filled[0] == null) { // scaledTangent(self, a, aDot)
      var constructor = compiled.load("com.example.Tan").getDeclaredConstructor(double.class);
      constructor.setAccessible(true);
      filled[0] = constructor.newInstance(1.5);
    }
    if (filled.length == 4 && filled[0] == null) { // polyTangent(p, x, pDot, xDot)
      filled[0] = poly(compiled, new double[] {0.2, -0.3}, 0.8);
      filled[2] = poly(compiled, new double[] {1}, 0.0);
    }
    return filled;
  }

  private static Object poly(Compiled compiled, double[] c, double s) throws Exception {
    var constructor = compiled.load("com.example.Tan$Poly")
        .getDeclaredConstructor(double[].class, double.class);
    constructor.setAccessible(true);
    return constructor.newInstance(c, s);
  }

  /** A scalar function's point, a direction of its shape, and a longer direction. */
  static Stream<Arguments> directions() {
    return Stream.of(0, 1).flatMap(k -> Stream.of(
        Arguments.of("first", k, new Object[] {new double[] {0.3, -0.7, 1.1}, 2.0},
            new Object[] {new double[] {0.4, -0.2, 0.9}, 0.6}),
        Arguments.of("sum", k,
            new Object[] {new double[] {0.3, -0.7, 1.1}, new double[] {1.5, -2, 0.5}},
            new Object[] {new double[] {0.4, -0.2, 0.9}}),
        Arguments.of("jagged", k,
            new Object[] {new double[][] {{0.2, -0.4, 0.1}, {0.5, 0.6}}, 0.7},
            new Object[] {new double[][] {{0.3, 0.1, -0.5}, {0.8, -0.6}}, -0.4}),
        Arguments.of("second", k, new Object[] {new double[] {0.3, -0.7, 1.1}, 2.0},
            new Object[] {new double[] {0.4, -0.2, 0.9}, 0.6})));
  }

  @ParameterizedTest(name = "{0}, compilation {1}")
  @MethodSource("directions")
  void aTangentOfTheRightLengthAgreesWithTheGradientAndWithDifferences(String name,
      int compilation, Object[] point, Object[] direction) throws Exception {
    Compiled compiled = COMPILED.get(compilation).get();
    Object[] tangentCall = concat(point, direction);
    double tangent = (double) compiled.invoke("com.example.TanGrad", name + "Tangent",
        tangentCall);
    double[] gradient = (double[]) compiled.invoke("com.example.TanGrad", name + "Gradient",
        point);
    double dot = 0;
    double[] flat = flat(direction);
    assertThat(gradient.length).isEqualTo(flat.length);
    for (int i = 0; i < flat.length; i++) {
      dot += gradient[i] * flat[i];
    }
    assertWithMessage("tangent against gradient . direction").that(tangent)
        .isWithin(1e-12 * (1 + Math.abs(dot))).of(dot);
    Method user = userMethod(compiled, name, point.length);
    double h = 1e-3;
    double[] steps = {-2 * h, -h, h, 2 * h};
    double[] values = new double[4];
    for (int s = 0; s < 4; s++) {
      values[s] = (double) user.invoke(null, moved(point, direction, steps[s]));
    }
    double difference = (values[0] - 8 * values[1] + 8 * values[2] - values[3]) / (12 * h);
    assertWithMessage("tangent against central differences").that(tangent)
        .isWithin(1e-8 * (1 + Math.abs(difference))).of(difference);
    // a longer direction (as the shared zeros callers pass for an array without derivatives)
    // reads only its first elements
    Object[] longer = concat(point, lengthened(direction));
    assertThat((double) compiled.invoke("com.example.TanGrad", name + "Tangent", longer))
        .isEqualTo(tangent);
  }

  @Test
  void aVectorFunctionsTangentOfTheRightLengthIsTheJacobianTimesTheDirection() throws Exception {
    for (CompiledOnce once : COMPILED) {
      Compiled compiled = once.get();
      double[] a = {0.3, -0.7, 1.1};
      double[] aDot = {0.4, -0.2, 0.9};
      double bDot = 0.6;
      double[] tangent = (double[]) compiled.invoke("com.example.TanGrad", "vecTangent", a, 2.0,
          aDot, bDot);
      double[][] jacobian = (double[][]) compiled.invoke("com.example.TanGrad", "vecJacobian", a,
          2.0);
      double[] direction = {0.4, -0.2, 0.9, 0.6};
      for (int i = 0; i < 2; i++) {
        double expected = 0;
        for (int j = 0; j < 4; j++) {
          expected += jacobian[i][j] * direction[j];
        }
        assertThat(tangent[i]).isWithin(1e-14).of(expected);
      }
      // vec = {a0 b, a1 a2}
      assertThat(tangent).usingTolerance(1e-14).containsExactly(aDot[0] * 2.0 + bDot * a[0],
          aDot[1] * a[2] + a[1] * aDot[2]).inOrder();
    }
  }

  @Test
  void theTangentsJavadocSaysWhenItThrows() {
    String source = GeneratedText.of(COMPILED.get(0).get(), "com.example.TanGrad");
    assertThat(source).contains("   * @throws IllegalArgumentException if {@code aDot} is shorter"
        + " than {@code a}\n   */\n  static double firstTangent(");
    assertThat(source).contains("   * @throws IllegalArgumentException if {@code mDot} has fewer"
        + " rows than {@code m} or a row\n   * shorter than that row of {@code m}\n   */\n"
        + "  static double jaggedTangent(");
  }

  private static Method userMethod(Compiled compiled, String name, int arity) {
    for (Method method : compiled.load("com.example.Tan").getDeclaredMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == arity) {
        method.setAccessible(true);
        return method;
      }
    }
    throw new AssertionError("no method " + name);
  }

  private static Object[] concat(Object[] a, Object[] b) {
    Object[] all = new Object[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  /** The direction's numbers in the flat layout. */
  private static double[] flat(Object[] direction) {
    return Stream.of(direction).flatMapToDouble(d -> d instanceof Double x
        ? java.util.stream.DoubleStream.of(x)
        : d instanceof double[] v ? java.util.stream.DoubleStream.of(v)
        : Stream.of((double[][]) d).flatMapToDouble(java.util.stream.DoubleStream::of))
        .toArray();
  }

  /**
   * The point moved by {@code step} along the direction: its parameters that carry derivatives
   * (the first ones, one direction each), the rest as they are.
   */
  private static Object[] moved(Object[] point, Object[] direction, double step) {
    Object[] moved = point.clone();
    for (int k = 0; k < direction.length; k++) {
      moved[k] = movedBy(point[k], direction[k], step);
    }
    return moved;
  }

  private static Object movedBy(Object value, Object direction, double step) {
    if (value instanceof Double x) {
      return x + step * (Double) direction;
    }
    if (value instanceof double[] v) {
      double[] d = (double[]) direction;
      double[] moved = v.clone();
      for (int i = 0; i < v.length; i++) {
        moved[i] += step * d[i];
      }
      return moved;
    }
    double[][] m = (double[][]) value;
    double[][] moved = new double[m.length][];
    for (int i = 0; i < m.length; i++) {
      moved[i] = (double[]) movedBy(m[i], ((double[][]) direction)[i], step);
    }
    return moved;
  }

  /** The direction with a 5.0 after each array and each row, where no element stands. */
  private static Object[] lengthened(Object[] direction) {
    Object[] longer = direction.clone();
    for (int k = 0; k < longer.length; k++) {
      if (longer[k] instanceof double[] v) {
        longer[k] = java.util.Arrays.copyOf(v, v.length + 1);
        ((double[]) longer[k])[v.length] = 5.0;
      } else if (longer[k] instanceof double[][] m) {
        double[][] rows = new double[m.length + 1][];
        for (int i = 0; i < m.length; i++) {
          rows[i] = java.util.Arrays.copyOf(m[i], m[i].length + 1);
          rows[i][m[i].length] = 5.0;
        }
        rows[m.length] = new double[] {5.0};
        longer[k] = rows;
      }
    }
    return longer;
  }
}
