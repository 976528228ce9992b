package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/**
 * A call between {@code @Differentiable} methods allocates nothing in reverse mode: the caller's
 * value-and-gradient and pullback, called 100,000 times from compiled code, allocate less than
 * one byte per call (a {@code new double[n]} per call for the callee's adjoints would be 24 bytes
 * or more). The same holds for calls of methods with {@code @DerivativeOf} rules, and at order 2
 * for calls that pass arrays.
 */
class CallAllocationTest {
  private static final int CALLS = 100_000;

  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Calls {",
      "  @Differentiable static double distance(double x1, double y1, double x2, double y2) {",
      "    double dx = x2 - x1;",
      "    double dy = y2 - y1;",
      "    return Math.sqrt(dx * dx + dy * dy);",
      "  }",
      "  @Differentiable static double perimeter(double ax, double ay, double bx, double by) {",
      "    return distance(ax, ay, bx, by) + distance(bx, by, 0, 0) + distance(0, 0, ax, ay);",
      "  }",
      "  @Differentiable static double looped(double a, double b) {",
      "    double s = 0;",
      "    for (int i = 0; i < 5; i++) { s += distance(a * i, b, s, 1); }",
      "    return s;",
      "  }",
      "}");

  /** Calls the generated members in a loop, in compiled code: no reflection per call. */
  private static final String DRIVER = String.join("\n",
      "package com.example;",
      "public final class Driver {",
      "  public static double perimeterValueAndGradient(int calls, double[] gradient) {",
      "    double s = 0;",
      "    for (int i = 0; i < calls; i++) {",
      "      s += CallsGrad.perimeterValueAndGradient(0.1 + i * 1e-9, 0.2, 1.3, -0.4, gradient);",
      "    }",
      "    return s;",
      "  }",
      "  public static double perimeterPullback(int calls, double[] adjoints) {",
      "    double s = 0;",
      "    for (int i = 0; i < calls; i++) {",
      "      s += CallsGrad.perimeterPullback(0.1 + i * 1e-9, 0.2, 1.3, -0.4, 1.0, adjoints);",
      "    }",
      "    return s;",
      "  }",
      "  public static double loopedPullback(int calls, double[] adjoints) {",
      "    double s = 0;",
      "    for (int i = 0; i < calls; i++) {",
      "      s += CallsGrad.loopedPullback(0.3 + i * 1e-9, 0.7, 1.0, adjoints);",
      "    }",
      "    return s;",
      "  }",
      "}");

  /** Calls of a method with @DerivativeOf rules, in straight-line code and in a loop. */
  private static final String RULED = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "final class Ruled {",
      "  static double softplus(double x, double y) { return Math.log1p(Math.exp(x * y)); }",
      "  @DerivativeOf(value = \"softplus\", wrt = \"x\")",
      "  static double softplusX(double x, double y) { return y / (1 + Math.exp(-x * y)); }",
      "  @DerivativeOf(value = \"softplus\", wrt = \"y\")",
      "  static double softplusY(double x, double y) { return x / (1 + Math.exp(-x * y)); }",
      "  @Differentiable static double f(double a, double b) {",
      "    double s = softplus(a, b) * a;",
      "    for (int i = 0; i < 4; i++) { s += softplus(s * 0.1, b - i); }",
      "    return s;",
      "  }",
      "}");

  private static final String RULED_DRIVER = String.join("\n",
      "package com.example;",
      "public final class RuledDriver {",
      "  public static double valueAndGradient(int calls, double[] gradient) {",
      "    double s = 0;",
      "    for (int i = 0; i < calls; i++) {",
      "      s += RuledGrad.fValueAndGradient(0.1 + i * 1e-9, 0.7, gradient);",
      "    }",
      "    return s;",
      "  }",
      "  public static double pullback(int calls, double[] adjoints) {",
      "    double s = 0;",
      "    for (int i = 0; i < calls; i++) {",
      "      s += RuledGrad.fPullback(0.1 + i * 1e-9, 0.7, 1.0, adjoints);",
      "    }",
      "    return s;",
      "  }",
      "  public static double tangent(int calls, double[] unused) {",
      "    double s = 0;",
      "    for (int i = 0; i < calls; i++) {",
      "      s += RuledGrad.fTangent(0.1 + i * 1e-9, 0.7, 1.0, -0.5);",
      "    }",
      "    return s;",
      "  }",
      "}");

  /** Calls at order 2 that pass arrays: a parameter, a row, an array that carries none. */
  private static final String SECOND_ORDER = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Second {",
      "  static final double[] TABLE = {0.5, -1.5};",
      "  @Differentiable(order = 2) static double dot(double[] a, double[] b) {",
      "    double s = 0;",
      "    for (int i = 0; i < a.length; i++) { s += a[i] * b[i]; }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double f(double[] x, double[][] m, double c) {",
      "    double s = Math.exp(dot(x, x) * c) + dot(TABLE, x);",
      "    for (int i = 0; i < m.length; i++) { s += Math.sin(dot(m[i], x)) * c; }",
      "    return s;",
      "  }",
      "}");

  /**
   * What an order-2 caller of {@code f} runs in its Hessian sweep: {@code fPullbackTangent},
   * whose calls of {@code dotPullbackTangent} add adjoints and their tangents into the arrays
   * passed; the driver takes back the two entries it leaves on the tape (c's adjoint and its
   * tangent).
   */
  private static final String SECOND_ORDER_DRIVER = String.join("\n",
      "package com.example;",
      "import ad4j.runtime.internal.Tape;",
      "public final class SecondDriver {",
      "  public static double pullbackTangent(int calls, double[] adjoints) {",
      "    double[] x = {0.3, -0.2};",
      "    double[][] m = {{0.1, 0.4}, {-0.7, 0.2}};",
      "    double[] xDot = {1, 0.5};",
      "    double[][] mDot = {{0, 1}, {0.5, 0}};",
      "    double[] adjointsDot = new double[adjoints.length];",
      "    Tape tape = Tape.current();",
      "    double s = 0;",
      "    for (int i = 0; i < calls; i++) {",
      "      s += SecondGradSweeps.fPullbackTangent(tape, x, m, 0.1 + i * 1e-9, adjoints, 0,",
      "          adjoints, 2, 1.0, xDot, mDot, 0.25, 0.0, adjointsDot, adjointsDot);",
      "      s += tape.popDouble() + tape.popDouble();",
      "    }",
      "    return s;",
      "  }",
      "}");

  @Test
  void callsThatPassArraysAtOrderTwoAllocateNothingPerCall()
      throws ReflectiveOperationException {
    Compiled compiled = InProcessCompiler.compile("com.example.Second", SECOND_ORDER,
        "com.example.SecondDriver", SECOND_ORDER_DRIVER);
    Method run = compiled.load("com.example.SecondDriver")
        .getMethod("pullbackTangent", int.class, double[].class);
    double[] adjoints = new double[6];
    run.invoke(null, CALLS, adjoints); // warm up: the tape grows once, classes load
    long before = allocatedBytes();
    run.invoke(null, CALLS, adjoints);
    long allocated = allocatedBytes() - before;
    assertWithMessage("bytes allocated by %s calls of fPullbackTangent", CALLS)
        .that(allocated).isLessThan((long) CALLS);
  }

  @Test
  void callsWithDerivativeOfRulesAllocateNothingPerCall() throws ReflectiveOperationException {
    Compiled compiled = InProcessCompiler.compile("com.example.Ruled", RULED,
        "com.example.RuledDriver", RULED_DRIVER);
    Class<?> driver = compiled.load("com.example.RuledDriver");
    for (String member : new String[] {"valueAndGradient", "pullback", "tangent"}) {
      Method run = driver.getMethod(member, int.class, double[].class);
      double[] array = new double[2];
      run.invoke(null, CALLS, array); // warm up: the tape grows once, classes load
      long before = allocatedBytes();
      run.invoke(null, CALLS, array);
      long allocated = allocatedBytes() - before;
      assertWithMessage("bytes allocated by %s calls of %s", CALLS, member)
          .that(allocated).isLessThan((long) CALLS);
    }
  }

  @Test
  void callerMembersAllocateNothingPerCall() throws ReflectiveOperationException {
    Compiled compiled = InProcessCompiler.compile("com.example.Calls", SOURCE,
        "com.example.Driver", DRIVER);
    Class<?> driver = compiled.load("com.example.Driver");
    for (String member : new String[] {
        "perimeterValueAndGradient", "perimeterPullback", "loopedPullback"}) {
      Method run = driver.getMethod(member, int.class, double[].class);
      double[] array = new double[4];
      run.invoke(null, CALLS, array); // warm up: the tape grows once, classes load
      long before = allocatedBytes();
      run.invoke(null, CALLS, array);
      long allocated = allocatedBytes() - before;
      assertWithMessage("bytes allocated by %s calls of %s", CALLS, member)
          .that(allocated).isLessThan((long) CALLS);
    }
  }

  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }
}
