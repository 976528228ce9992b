package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Library calls that copy or fill arrays ({@code Arrays.fill}, {@code Arrays.copyOf},
 * {@code System.arraycopy}, {@code clone()}), and the swap of two array variables, beside the
 * loops of a {@code @Checkpointed} method. ad4j writes such a call out as a loop of element reads and writes; that loop is no
 * loop of the user's, and is recorded on the tape as in any method, while the user's loops keep
 * their snapshots. Before, every loop outside loops of the method was taken for one to
 * checkpoint, so a method with such a call anywhere outside its loops was rejected with "loop
 * of method 'fillAfter' cannot be checkpointed (@Checkpointed): it makes or writes an array
 * (line 14)" at the annotation, naming a loop that does not exist; inside a checkpointed loop
 * it was "loop inside a checkpointed loop ... is not supported", also at the annotation.
 */
@ExtendWith(TapeIsEmpty.class)
class CheckpointedLibraryCopiesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.Differentiable;",
      "import java.util.Arrays;",
      "final class Copies {",
      "  @Checkpointed(snapshots = 2) @Differentiable static double fillBefore(double x,",
      "      double y) {",
      "    double[] w = new double[3];",
      "    Arrays.fill(w, x * y);",
      "    w[1] = y;",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * w[i % 3] + 0.3 * s; }",
      "    return s;",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double fillAfter(double x,",
      "      double y) {",
      "    double[] w = {1, 2, 3};",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * w[i % 3] + 0.3 * s; }",
      "    Arrays.fill(w, 5.0);",
      "    return s + w[0] * x;",
      "  }",
      "  @Checkpointed(snapshots = 4) @Differentiable static double copies(double x, double y) {",
      "    double[] w = {x, y, x * y};",
      "    double s = y;",
      "    for (int i = 0; i < 37; i++) { s = Math.sin(s * x) * w[i % 3] * 0.4 + 0.3 * s; }",
      "    double[] v = Arrays.copyOf(w, 4);",
      "    double[] u = {s, s * s};",
      "    System.arraycopy(u, 0, w, 1, 2);",
      "    double[] c = w.clone();",
      "    Arrays.fill(w, 0, 2, y);",
      "    return s + v[1] * v[3] + w[1] * c[2] + w[0] * w[2];",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double twoLoops(double x, double y) {",
      "    double[] w = {x, 2, y};",
      "    double s = y;",
      "    for (int i = 0; i < 9; i++) { s = Math.sin(s * x) * w[i % 3] + 0.3 * s; }",
      "    double[] v = w.clone();",
      "    Arrays.fill(w, s);",
      "    for (int i = 0; i < 5; i++) { s = s * 0.5 + Math.cos(x * i) * 0.1; }",
      "    return s * v[0] + w[2];",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double swapped(double x, double y) {",
      "    double[] cur = {x, y, 1};",
      "    double[] next = {y * y, x, 2};",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) {",
      "      s = Math.sin(s * x) * cur[i % 3] + 0.3 * s * next[(i + 1) % 3];",
      "    }",
      "    double[] tmp = cur;",
      "    cur = next;",
      "    next = tmp;",
      "    cur[0] = s;",
      "    return s * cur[1] + next[2] * cur[0];",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double[] vector(double x,",
      "      double y) {",
      "    double[] w = {x, y, 0.5};",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * w[i % 3] + 0.3 * s; }",
      "    Arrays.fill(w, 1, 3, s);",
      "    return w.clone();",
      "  }",
      "  @Differentiable static double caller(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 2; k++) { s = s * y + fillAfter(x + 0.1 * k, y) + copies(y, x); }",
      "    return s + twoLoops(x, s);",
      "  }",
      "}");

  private static final List<CompiledOnce> COPIES =
      CompiledOnce.wholeAndInParts("com.example.Copies", SOURCE, 2);

  private static final double[][] POINTS = {{0.3, 0.7}, {0.4, 1.2}, {-0.6, 0.5}};

  static Stream<Arguments> methods() {
    List<Arguments> cases = new ArrayList<>();
    for (CompiledOnce compiled : COPIES) {
      for (String name : List.of("fillBefore", "fillAfter", "copies", "twoLoops", "swapped",
          "caller")) {
        cases.add(Arguments.of(compiled, name));
      }
    }
    return cases.stream();
  }

  /**
   * Gradient against eighth-order differences of the method, the other members against it,
   * whole and cut into parts of 2 statements.
   */
  @ParameterizedTest
  @MethodSource("methods")
  void theCopiesAreDifferentiatedBesideTheCheckpointedLoops(CompiledOnce compiled, String name)
      throws Exception {
    MemberAgreement.of(compiled.get(), "com.example.Copies", name, true, true)
        .checkScalarAt(POINTS, 1, 1e-7);
  }

  @Test
  void aVectorFunctionReturnsACopyOfTheFilledArray() throws Exception {
    for (CompiledOnce compiled : COPIES) {
      for (double[] point : POINTS) {
        MemberAgreement.of(compiled.get(), "com.example.Copies", "vector", true, true)
            .checkVector(new Object[] {point[0], point[1]});
      }
    }
  }

  /** The user's loops keep their snapshots; the loops of the copies record on the tape. */
  @Test
  void theUsersLoopsAreStillCheckpointed() throws IOException {
    String grad = InProcessCompiler.gradSource(COPIES.get(0).get().compilation())
        .getCharContent(true).toString();
    String fillAfter = grad.substring(grad.indexOf("static double fillAfterPullbackOnTape("));
    fillAfter = fillAfter.substring(0, fillAfter.indexOf("\n  }\n"));
    assertWithMessage(fillAfter).that(fillAfter).contains("loop1Snapshots = tape.mark();");
    assertWithMessage(fillAfter).that(fillAfter).doesNotContain("loop2Snapshots");
  }

  /** A fill inside a checkpointed loop is an error at that loop, naming the call's line. */
  @Test
  void aFillInsideTheLoopIsAnErrorAtTheLoop() {
    String source = SOURCE.replace(
        "    for (int i = 0; i < 7; i++) { s = Math.sin(s * x) * w[i % 3] + 0.3 * s; }\n"
            + "    Arrays.fill(w, 5.0);",
        "    for (int i = 0; i < 7; i++) {\n"
            + "      Arrays.fill(w, s);\n"
            + "      s = Math.sin(s * x) * w[i % 3] + 0.3 * s;\n"
            + "    }");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Copies", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    int loop = lineOf(source, "    for (int i = 0; i < 7; i++) {");
    assertThat(compilation).hadErrorContaining("loop of method 'fillAfter' cannot be"
        + " checkpointed (@Checkpointed): it makes or writes an array (line " + (loop + 1)
        + "); the state a checkpoint holds must be variables of type double, float, int, long"
        + " or boolean").inFile(file).onLine(loop);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  /**
   * A vector function returning the filled array itself is an error at the return: the reverse
   * of the fill puts back the elements the loop read, for the loop computed again.
   */
  @Test
  void returningTheFilledArrayItselfIsAnError() {
    String source = SOURCE.replace("    return w.clone();", "    return w;");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Copies", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("'w' is read by a @Checkpointed loop and"
        + " written into after it, and ad4j cannot return such an array yet").inFile(file)
        .onLine(lineOf(source, "    return w;"));
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  /** A method whose only loop is a library call's has nothing to checkpoint. */
  @Test
  void aMethodWithOnlyACopyHasNoLoopToCheckpoint() {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "import java.util.Arrays;",
        "final class OnlyFill {",
        "  @Checkpointed @Differentiable static double f(double x, double y) {",
        "    double[] w = new double[3];",
        "    Arrays.fill(w, x * y);",
        "    return w[0] + w[2];",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.OnlyFill", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("@Checkpointed on method 'f' has no effect: the"
        + " method has no loop; remove the annotation").inFile(file).onLine(6);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  private static int lineOf(String source, String line) {
    return List.of(source.split("\n")).indexOf(line) + 1;
  }
}
