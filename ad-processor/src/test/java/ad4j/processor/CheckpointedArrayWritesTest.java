package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A local array that a {@code @Checkpointed} loop reads and that the method writes into after
 * the loop. The reverse sweep computes the loop's iterations again from its snapshots after the
 * whole forward sweep ran, so the reverse of each later write puts back the element it wrote
 * over before the loop is computed again, as it does for an array passed to a
 * {@code @Differentiable} call. Before, the iterations computed again read the elements the
 * writes left, and the gradient was another function's: {@code aliased} at (0.3, 0.7) gave
 * {@code [1295.13, -15.95]} for {@code [2.4922, 0.24407]}, with no error. A vector function
 * that returns such an array itself is an error at the return ({@code
 * front/CheckpointedReturnedArrays}); it may return a copy.
 */
@ExtendWith(TapeIsEmpty.class)
class CheckpointedArrayWritesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.Differentiable;",
      "final class Written {",
      "  @Differentiable static double dot(double[] w, double s) {",
      "    return w[0] * s + w[1] * Math.sin(s);",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double aliased(double x, double y) {",
      "    double[] w = {1, 2, 3};",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * w[i % 3] + 0.3 * s; }",
      "    double[] v = w;",
      "    v[0] = 100;",
      "    return s;",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double branch(double x, double y) {",
      "    double[] w = {1, 2, 3};",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * w[i % 3] + 0.3 * s; }",
      "    if (s > -100) { w[2] = 50; w[1] += s; }",
      "    return s * w[1];",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double active(double x, double y) {",
      "    double[] w = {x, y, x * y};",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * w[i % 3] + 0.3 * s; }",
      "    w[0] = 3 * x;",
      "    w[2]++;",
      "    return s + w[0] * w[2];",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double rows(double x, double y) {",
      "    double[][] m = {{1, 2}, {3, y}};",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * m[i % 2][1] + 0.3 * s; }",
      "    double[] r = m[1];",
      "    r[1] = -9;",
      "    m[0][1] = x;",
      "    return s + m[0][1];",
      "  }",
      "  @Checkpointed(snapshots = 4) @Differentiable static double twoLoops(double x, double y) {",
      "    double[] w = {1, 2, 3};",
      "    double s = y;",
      "    for (int i = 0; i < 37; i++) { s = Math.sin(s * x) * w[i % 3] * 0.4 + 0.3 * s; }",
      "    w[0] = s;",
      "    int j = 0;",
      "    while (true) {",
      "      if (j >= 3) { break; }",
      "      s = s * w[j] * 0.5 + x;",
      "      j++;",
      "    }",
      "    w[2] = 9;",
      "    w[0] = -w[0];",
      "    return s;",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double called(double x, double y) {",
      "    double[] w = {1, 2, 3};",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = 0.5 * dot(w, s) + x * w[2]; }",
      "    w[1] = -3;",
      "    w[2] = 4;",
      "    return s;",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double[] copied(double x, double y) {",
      "    double[] w = {x, y, 0.5};",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * w[i % 3] + 0.3 * s; }",
      "    w[0] = s;",
      "    w[2] = s * x;",
      "    return w.clone();",
      "  }",
      "  @Differentiable static double caller(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 2; k++) { s = s * y + active(x + 0.1 * k, y) + rows(y, x); }",
      "    return s + twoLoops(x, s);",
      "  }",
      "}");

  private static final CompiledOnce WRITTEN = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Written",
          SOURCE));

  private static final double[][] POINTS = {{0.3, 0.7}, {0.4, 1.2}, {-0.6, 0.5}};

  /** A vector function returning a copy of such an array: its value and its Jacobian. */
  @Test
  void aCopyOfTheArrayIsReturnedAsItWasWritten() throws Exception {
    for (double[] point : POINTS) {
      MemberAgreement.of(WRITTEN.get(), "com.example.Written", "copied", true, true)
          .checkVector(new Object[] {point[0], point[1]});
    }
  }

  /**
   * Returned itself, the array would come back from {@code mPullback} and
   * {@code mValueAndJacobian} with the elements the writes wrote over put back: an error at the
   * return, as for an array passed to a call and written into. (Before, it compiled, and
   * {@code mPullback}'s adjoints were those of the loop reading the written elements: 0.002543
   * for 0.015201.)
   */
  @Test
  void returningTheArrayItselfIsAnErrorThatSaysToReturnACopy() {
    String source = SOURCE.replace("return w.clone();", "return w;");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Written", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("'w' is read by a @Checkpointed loop and"
        + " written into after it, and ad4j cannot return such an array yet (the reverse sweep"
        + " puts back what the writes wrote over, for the loop computed again): return a copy"
        + " ('w.clone()')").inFile(file).onLine(lineOf(source, "    return w;"));
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  private static int lineOf(String source, String line) {
    return List.of(source.split("\n")).indexOf(line) + 1;
  }

  @ParameterizedTest
  @ValueSource(strings = {"aliased", "branch", "active", "rows", "twoLoops", "called", "caller"})
  void theLoopComputedAgainReadsTheElementsItReadFirst(String name) throws Exception {
    MemberAgreement.of(WRITTEN.get(), "com.example.Written", name, true, true)
        .checkScalarAt(POINTS, 1, 1e-7);
  }
}
