package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.runtime.GradientCheck;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Random;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Methods with more parameters than {@code mTangent} can take (the JVM allows a method 255
 * parameter slots; the tangent takes a direction per {@code double}, so at most 63 of them):
 * they keep their other members, exact, with a warning at the method; their callers, whose
 * tangent would call the missing member, are errors at the call; order-2 methods, whose
 * Hessian sweeps take the directions too, and methods whose reverse members would pass the
 * limit as well, are errors at the method.
 */
class ManyParametersTest {
  private static final String TANGENT_WARNING = "@Differentiable method '%s' has too many"
      + " parameters for a tangent member: its generated '%sTangent' would take them and one"
      + " direction per 'double' parameter, %d parameter slots with the tape of long methods"
      + " ('double' and 'long' take two each), more than the JVM's limit of 255, so it is not"
      + " generated; the other members are, and a @Differentiable method calling '%s' is an"
      + " error, its generated tangent needing this one. With 'double' parameters only, at"
      + " most 63 fit; pass them in a 'double[]' to have '%sTangent'";

  /** {@code double x0, ..., double x(n-1)}. */
  private static String doubles(int n) {
    StringBuilder parameters = new StringBuilder();
    for (int i = 0; i < n; i++) {
      parameters.append(i == 0 ? "" : ", ").append("double x").append(i);
    }
    return parameters.toString();
  }

  /**
   * {@code f(x0, ..., x(n-1)) = sum of sin(x_i) * x_(i+1)} (indices mod n), the method on line
   * 4 of {@code com.example.F}.
   */
  private static String ring(int n, String annotation) {
    StringBuilder sum = new StringBuilder("0.0");
    for (int i = 0; i < n; i++) {
      sum.append(" + Math.sin(x").append(i).append(") * x").append((i + 1) % n);
    }
    return "package com.example;\n"
        + "import ad4j.Differentiable;\n"
        + "final class F {\n"
        + "  " + annotation + " static double f(" + doubles(n) + ") {\n"
        + "    return " + sum + ";\n"
        + "  }\n"
        + "}\n";
  }

  /** The gradient of {@link #ring}: cos(x_i) x_(i+1) + sin(x_(i-1)). */
  private static double[] ringGradient(double[] x) {
    int n = x.length;
    double[] gradient = new double[n];
    for (int i = 0; i < n; i++) {
      gradient[i] = Math.cos(x[i]) * x[(i + 1) % n] + Math.sin(x[(i + n - 1) % n]);
    }
    return gradient;
  }

  private static double[] point(int n, long seed) {
    Random random = new Random(seed);
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = random.nextDouble() * 4 - 2;
    }
    return x;
  }

  private static Object[] boxed(double[] x, Object... more) {
    Object[] arguments = new Object[x.length + more.length];
    for (int i = 0; i < x.length; i++) {
      arguments[i] = x[i];
    }
    System.arraycopy(more, 0, arguments, x.length, more.length);
    return arguments;
  }

  private static boolean hasMethod(Class<?> type, String name) {
    return Arrays.stream(type.getDeclaredMethods()).map(Method::getName).anyMatch(name::equals);
  }

  @Test
  void sixtyFourDoublesKeepEveryMemberButTheTangent() throws Exception {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        ring(64, "@Differentiable"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningContaining(
        String.format(TANGENT_WARNING, "f", "f", 257, "f", "f")).inFile(file).onLine(4);
    InProcessCompiler.Compiled compiled = InProcessCompiler.loaded(compilation);
    Class<?> grad = compiled.load("com.example.FGrad");
    assertThat(hasMethod(grad, "fTangent")).isFalse();
    assertThat(hasMethod(grad, "fGradient")).isTrue();

    double[] x = point(64, 7);
    double value = (double) compiled.invoke("com.example.F", "f", boxed(x));
    double[] gradient = (double[]) compiled.invoke("com.example.FGrad", "fGradient", boxed(x));
    double[] expected = ringGradient(x);
    for (int i = 0; i < 64; i++) {
      assertWithMessage("slot %s", i).that(gradient[i]).isWithin(1e-13).of(expected[i]);
    }
    GradientCheck.check(at -> {
      try {
        return (double) compiled.invoke("com.example.F", "f", boxed(at));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }, x, gradient).assertWithin(1e-8);

    double[] written = new double[65];
    written[64] = 42;
    double returned = (double) compiled.invoke("com.example.FGrad", "fValueAndGradient",
        boxed(x, (Object) written));
    assertThat(returned).isEqualTo(value);
    assertThat(Arrays.copyOf(written, 64)).isEqualTo(gradient);
    assertThat(written[64]).isEqualTo(42.0);

    // the pullback adds seed times the gradient to what the array holds
    double[] adjoints = new double[64];
    Arrays.fill(adjoints, 0.5);
    compiled.invoke("com.example.FGrad", "fPullback", boxed(x, 2.5, adjoints));
    for (int i = 0; i < 64; i++) {
      assertThat(adjoints[i]).isWithin(1e-13).of(0.5 + 2.5 * gradient[i]);
    }
  }

  /** Doubles and ints: 63 doubles and 3 ints take 256 slots with the tape. */
  @Test
  void theWarningCountsEveryParametersSlots() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        "package com.example;\n"
            + "import ad4j.Differentiable;\n"
            + "final class F {\n"
            + "  @Differentiable static double f(" + doubles(63) + ", int k0, int k1, int k2) {\n"
            + "    return x0 * x62 * k2;\n"
            + "  }\n"
            + "}\n");

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningContaining(
        String.format(TANGENT_WARNING, "f", "f", 256, "f", "f")).inFile(file).onLine(4);
  }

  /**
   * A vector function with 70 parameters: its Jacobian by one reverse sweep per row, also for
   * more rows (75) than slots, where a method with a tangent would run forward columns.
   */
  @Test
  void aVectorFunctionWithoutATangentHasItsJacobianByRows() throws Exception {
    int n = 70;
    StringBuilder body = new StringBuilder();
    body.append("    double[] out = new double[rows];\n");
    StringBuilder array = new StringBuilder("    double[] x = {");
    for (int i = 0; i < n; i++) {
      array.append(i == 0 ? "" : ", ").append("x").append(i);
    }
    body.append(array).append("};\n")
        .append("    for (int k = 0; k < rows; k++) {\n")
        .append("      out[k] = Math.sin(x[k % 70]) * x[(k + 1) % 70] + x[(3 * k) % 70];\n")
        .append("    }\n")
        .append("    return out;\n");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.G",
        "package com.example;\n"
            + "import ad4j.Differentiable;\n"
            + "final class G {\n"
            + "  @Differentiable static double[] g(" + doubles(n) + ", int rows) {\n"
            + body
            + "  }\n"
            + "}\n");

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningContaining("'gTangent' would take them").inFile(file)
        .onLine(4);
    InProcessCompiler.Compiled compiled = InProcessCompiler.loaded(compilation);
    assertThat(hasMethod(compiled.load("com.example.GGrad"), "gTangent")).isFalse();
    double[] x = point(n, 11);
    for (int rows : new int[] {3, 75}) {
      double[][] jacobian = (double[][]) compiled.invoke("com.example.GGrad", "gJacobian",
          boxed(x, rows));
      assertThat(jacobian.length).isEqualTo(rows);
      for (int k = 0; k < rows; k++) {
        double[] expected = new double[n];
        expected[k % n] += Math.cos(x[k % n]) * x[(k + 1) % n];
        expected[(k + 1) % n] += Math.sin(x[k % n]);
        expected[(3 * k) % n] += 1;
        for (int i = 0; i < n; i++) {
          assertWithMessage("row %s, slot %s of %s rows", k, i, rows).that(jacobian[k][i])
              .isWithin(1e-13).of(expected[i]);
        }
      }
      // the pullback of a seed is the seed times the Jacobian
      double[] seed = point(rows, rows);
      double[] product = new double[n];
      compiled.invoke("com.example.GGrad", "gPullback", boxed(x, rows, seed, product));
      for (int i = 0; i < n; i++) {
        double expected = 0;
        for (int k = 0; k < rows; k++) {
          expected += seed[k] * jacobian[k][i];
        }
        assertThat(product[i]).isWithin(1e-12).of(expected);
      }
    }
  }

  /** A caller's tangent would call the missing member: an error at the call. */
  @Test
  void aCallerOfAMethodWithoutATangentIsAnErrorAtTheCall() {
    JavaFileObject callee = JavaFileObjects.forSourceString("com.example.F",
        ring(64, "@Differentiable"));
    StringBuilder arguments = new StringBuilder();
    for (int i = 0; i < 64; i++) {
      arguments.append(i == 0 ? "" : ", ").append(i % 2 == 0 ? "a" : "1.0");
    }
    JavaFileObject caller = JavaFileObjects.forSourceString("com.example.H",
        "package com.example;\n"
            + "import ad4j.Differentiable;\n"
            + "final class H {\n"
            + "  @Differentiable static double h(double a) {\n"
            + "    double y = a * a;\n"
            + "    return y + F.f(" + arguments + ");\n"
            + "  }\n"
            + "}\n");

    Compilation compilation = InProcessCompiler.javac().compile(callee, caller);

    assertThat(compilation).hadErrorContaining("call to 'F.f(...)': 'F.f' has too many"
        + " parameters for a tangent member ('fTangent' would take 257 parameter slots, more"
        + " than the JVM's limit of 255, and is not generated), and the tangent of 'h' would"
        + " call it; pass the parameters of 'F.f' in a 'double[]'")
        .inFile(caller).onLine(6);
    assertThat(compilation).hadErrorCount(1);
  }

  /** An order-2 method: its Hessian sweeps take the directions as well. */
  @Test
  void anOrderTwoMethodWithTooManyParametersIsAnError() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        ring(64, "@Differentiable(order = 2)"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("@Differentiable method 'f' has too many"
        + " parameters: its generated 'fTangent' would take them and one direction per"
        + " 'double' parameter, 258 parameter slots with the tape of long methods ('double' and"
        + " 'long' take two each), more than the JVM's limit of 255, and its Hessian sweeps"
        + " take the directions too; with 'double' parameters only, at most 63 fit; pass them"
        + " in a 'double[]'").inFile(file).onLine(4);
    assertThat(compilation).hadErrorCount(1);
    assertThat(InProcessCompiler.generatedSourceNames(file)).isEmpty();
  }

  /** 125 doubles: the widest member but the tangent, the pullback onto the tape, takes 254. */
  @Test
  void oneHundredTwentyFiveDoublesKeepTheReverseMembers() throws Exception {
    assertRingCompilesWithItsGradient(125, 3);
  }

  /**
   * 127 doubles, 254 slots: {@code mPullback}, which every method gets, takes a seed and the
   * adjoints' array as well, 257. An error at the method, also when the class has other errors.
   */
  @Test
  void aMethodWhosePullbackWouldPassTheLimitIsAnError() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        ring(127, "@Differentiable"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("@Differentiable method 'f' has too many"
        + " parameters: its generated 'fPullback' would take them, a seed and an array of"
        + " adjoints, 257 parameter slots ('double' and 'long' take two each), more than the"
        + " JVM's limit of 255; pass them in a 'double[]'").inFile(file).onLine(4);
    assertThat(compilation).hadErrorCount(1);
  }

  /**
   * 126 doubles (252 slots): the public members fit, and this method is long enough to be
   * split: its one reverse sweep is the pullback onto the tape, which takes a tape and a seed,
   * 255, and its public {@code mValueAndGradient} and {@code mPullback} call it (before they
   * each had a private sweep of their own, which took a tape and the array as well, 256: an
   * error at the method).
   */
  @Test
  void oneHundredTwentySixDoublesOfASplitMethodCompile() throws Exception {
    assertRingCompilesWithItsGradient(126, 5);
  }

  /**
   * The ring of {@code n} doubles compiles, and its gradient at a point drawn with {@code seed}
   * is the analytic one.
   */
  private static void assertRingCompilesWithItsGradient(int n, long seed) throws Exception {
    Compilation compilation = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.F", ring(n, "@Differentiable")));

    assertThat(compilation).succeeded();
    InProcessCompiler.Compiled compiled = InProcessCompiler.loaded(compilation);
    double[] x = point(n, seed);
    double[] gradient = (double[]) compiled.invoke("com.example.FGrad", "fGradient", boxed(x));
    double[] expected = ringGradient(x);
    for (int i = 0; i < n; i++) {
      assertWithMessage("slot %s", i).that(gradient[i]).isWithin(1e-13).of(expected[i]);
    }
  }
}
