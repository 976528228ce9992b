package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.FlatHessianChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Order-2 callers of vector functions in the two shapes the order-2 work for records and
 * {@code float[]} covered by reasoning only: a method returning an immutable value class (not a
 * record), and a callee returning a record or a {@code float[]} compiled earlier than its
 * caller, whose sources the caller's compilation does not see (the caller's Hessian sweeps call
 * the callee's {@code mPullbackTangent} in its {@code FooGradSweeps}; such a record is made by
 * the caller's caller and passed in, since ad4j cannot see its constructor). Each Hessian against
 * differences of the generated gradient and second differences of the user's method,
 * symmetric, with the Hessian-vector product and {@code mValueGradientAndHessian}
 * ({@link FlatHessianChecks}); the caller of the {@code float[]} callee against its twin in
 * {@code double}. These guard against regressions: both shapes were right when written.
 */
@ExtendWith(TapeIsEmpty.class)
class SecondOrderVectorCalleesTest {
  private static final String VALUE_CLASSES = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Points {",
      "  static final class Pt {",
      "    private final double x, y;",
      "    Pt(double x, double y) { this.x = x; this.y = y; }",
      "    double x() { return x; }",
      "    double y() { return y; }",
      "  }",
      "  /** A vector function returning a value class. */",
      "  @Differentiable(order = 2) static Pt rotate(Pt p, double t) {",
      "    double c = Math.cos(t);",
      "    double s = Math.sin(t);",
      "    return new Pt(c * p.x() - s * p.y(), s * p.x() + c * p.y() * p.y());",
      "  }",
      "  @Differentiable(order = 2) static double area(double a, double t) {",
      "    Pt q = rotate(new Pt(a, a * t), t);",
      "    Pt r = rotate(q, a);",
      "    return q.x() * r.y() + Math.exp(r.x() * 0.3);",
      "  }",
      "}");

  private static final CompiledOnce POINTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Points",
          VALUE_CLASSES));

  @Test
  void aValueClassReturnedAtOrderTwoGivesItsCallersExactHessians() throws Exception {
    FlatHessianChecks checks = FlatHessianChecks.of(POINTS.get(), "com.example.Points");
    checks.check(new Call("area", new Object[] {0.7, 0.4}, true, true));
    checks.check(new Call("area", new Object[] {-1.1, 1.9}, true, true));
  }

  @Test
  void recordAndFloatArrayCalleesCompiledEarlierGiveTheirCallersExactHessians(
      @TempDir Path classes) throws Exception {
    Compilation library = InProcessCompiler.javac("-Xlint:all", "-Werror").compile(
        JavaFileObjects.forSourceString("com.lib.Steps", String.join("\n",
            "package com.lib;",
            "import ad4j.Differentiable;",
            "public final class Steps {",
            "  private Steps() {}",
            "  public record State(double x, double v) {}",
            "  /** A step of a damped oscillator, returning a record. */",
            "  @Differentiable(order = 2)",
            "  public static State step(State s, double h, double k) {",
            "    double a = -k * Math.sin(s.x()) - 0.1 * s.v();",
            "    return new State(s.x() + h * s.v(), s.v() + h * a);",
            "  }",
            "  /** A float[] vector function. */",
            "  @Differentiable(order = 2)",
            "  public static float[] squash(float[] y, double k) {",
            "    float[] out = new float[y.length];",
            "    for (int i = 0; i < y.length; i++) {",
            "      out[i] = (float) (y[i] * y[i] * k + Math.tanh(y[i]));",
            "    }",
            "    return out;",
            "  }",
            "  /** Its twin in double. */",
            "  @Differentiable(order = 2)",
            "  public static double[] squashTwin(double[] y, double k) {",
            "    double[] out = new double[y.length];",
            "    for (int i = 0; i < y.length; i++) {",
            "      out[i] = y[i] * y[i] * k + Math.tanh(y[i]);",
            "    }",
            "    return out;",
            "  }",
            "}")));
    assertThat(library.errors()).isEmpty();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    Compilation compilation = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .withClasspath(classpath).compile(JavaFileObjects.forSourceString("com.example.Caller",
            String.join("\n",
                "package com.example;",
                "import ad4j.Differentiable;",
                "import com.lib.Steps;",
                "final class Caller {",
                "  @Differentiable(order = 2)",
                "  static double energy(Steps.State s0, double k) {",
                "    Steps.State s = s0;",
                "    for (int i = 0; i < 3; i++) { s = Steps.step(s, 0.1, k); }",
                "    return 0.5 * s.v() * s.v() + k * (1 - Math.cos(s.x()));",
                "  }",
                "  @Differentiable(order = 2)",
                "  static double squashed(double a, double b) {",
                "    float[] y = Steps.squash(new float[] {(float) a, (float) (a * b)}, b);",
                "    return y[0] * y[1] + y[1] * b;",
                "  }",
                "  @Differentiable(order = 2)",
                "  static double squashedTwin(double a, double b) {",
                "    double[] y = Steps.squashTwin(new double[] {a, a * b}, b);",
                "    return y[0] * y[1] + y[1] * b;",
                "  }",
                "}")));
    InProcessCompiler.Compiled compiled =
        InProcessCompiler.loadedWithLibrary(compilation, library);
    FlatHessianChecks checks = FlatHessianChecks.of(compiled, "com.example.Caller");
    Object state = Records.make(compiled.load("com.lib.Steps$State"), 0.6, -0.4);
    checks.check(new Call("energy", new Object[] {state, 2.5}, true, true));
    checks.check(new Call("squashedTwin", new Object[] {0.5, 1.25}, true, true));
    // the float version computes in float, so differences of it are float's noise; its
    // derivatives, computed in double over its float values, are the twin's to float's rounding
    Class<?> grad = compiled.load("com.example.CallerGrad");
    double[][] hessian = (double[][]) Records.call(grad, "squashedHessian", 0.5, 1.25);
    double[][] twin = (double[][]) Records.call(grad, "squashedTwinHessian", 0.5, 1.25);
    double[] gradient = (double[]) Records.call(grad, "squashedGradient", 0.5, 1.25);
    double[] twinGradient = (double[]) Records.call(grad, "squashedTwinGradient", 0.5, 1.25);
    for (int i = 0; i < 2; i++) {
      assertThat(gradient[i]).isWithin(1e-5 * Math.abs(twinGradient[i])).of(twinGradient[i]);
      for (int j = 0; j < 2; j++) {
        assertThat(hessian[i][j]).isWithin(1e-5 * Math.max(1, Math.abs(twin[i][j])))
            .of(twin[i][j]);
      }
    }
    assertThat(hessian[0][1]).isEqualTo(hessian[1][0]);
    double[] v = {0.75, -1.5};
    HessianChecks.assertProduct(hessian, v,
        (double[]) Records.call(grad, "squashedHessianVector", 0.5, 1.25, v), "squashed");
  }
}
