package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.CompilationSubject;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code @DerivativeOf} target returning {@code double[]} must return a new array each time,
 * as the guide asks: the members differentiate each array such a call returns as one of their
 * own. One that returns an array it was given ({@code static double[] same(double[] a) { return
 * a; }}) made the caller's result the argument itself, so a write through one name is seen
 * through the other: {@code double[] a = {x, y}; double[] r = same(a); r[0] = 5 * y; return a[0]
 * * x + r[1];} had the value right (generated code runs the JVM's arrays) and the gradient wrong,
 * 3.78 for 3.05 in the first slot at (0.73, 0.61). One that returns a buffer it fills again
 * ({@code BUF[0] = x * x; BUF[1] = 3 * x; return BUF;}) gave {@code a = pair(x); b = pair(y);
 * return a[0] * b[1];} the derivative 2.67 with respect to x, where it is 0.
 *
 * <p>Where ad4j has the target's source (or a rule's returning an array), a return that may not
 * give a new array is an error at the call ({@code FreshArrayReturns}). A target compiled
 * earlier, whose body it cannot read, is checked where it runs: every member throws where it
 * returned one of its array arguments. A target returning a new array is unchanged.
 */
@ExtendWith(TapeIsEmpty.class)
class VectorTargetsReturningArgumentsTest {
  private static final String TARGETS = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "public final class Targets {",
      "  public static double[] same(double[] a) { return a; }",
      "  @DerivativeOf(\"same\") public static double[][] sameA(double[] a) {",
      "    double[][] j = new double[a.length][a.length];",
      "    for (int i = 0; i < a.length; i++) { j[i][i] = 1; }",
      "    return j;",
      "  }",
      "  public static double[] scaled(double[] a, double k) {",
      "    double[] r = a.clone();",
      "    for (int i = 0; i < r.length; i++) { r[i] *= k; }",
      "    return r;",
      "  }",
      "  @DerivativeOf(value = \"scaled\", wrt = \"a\") public static double[][] scaledA(",
      "      double[] a, double k) {",
      "    double[][] j = new double[a.length][a.length];",
      "    for (int i = 0; i < a.length; i++) { j[i][i] = k; }",
      "    return j;",
      "  }",
      "  @DerivativeOf(value = \"scaled\", wrt = \"k\") public static double[] scaledK(",
      "      double[] a, double k) {",
      "    return a.clone();",
      "  }",
      "}");

  private static final String USES = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Uses {",
      "  @Differentiable static double aliased(double x, double y) {",
      "    double[] a = {x, y};",
      "    double[] r = Targets.same(a);",
      "    r[0] = 5 * y;",
      "    return a[0] * x + r[1];",
      "  }",
      "  @Differentiable static double copied(double x, double y) {",
      "    double[] a = {x, y};",
      "    double[] r = Targets.scaled(a, x * y);",
      "    r[0] = 5 * y;",
      "    return a[0] * x + r[1] * r[0];",
      "  }",
      "}");

  private static InProcessCompiler.Compiled againstCompiledTargets(Path classes)
      throws Exception {
    // with parameter names, which rules naming 'wrt' need in a compiled library
    Compilation library = InProcessCompiler.javac("-parameters").compile(
        JavaFileObjects.forSourceString("com.example.Targets", TARGETS));
    CompilationSubject.assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    Compilation uses = InProcessCompiler.javac("-Xlint:all", "-Werror").withClasspath(classpath)
        .compile(JavaFileObjects.forSourceString("com.example.Uses", USES));
    return InProcessCompiler.loadedWithLibrary(uses, library);
  }

  @Test
  void everyMemberRefusesACompiledTargetThatReturnsItsArgument(@TempDir Path classes)
      throws Exception {
    MemberAgreement aliased = MemberAgreement.of(againstCompiledTargets(classes),
        "com.example.Uses", "aliased", true, true);
    Object[] point = {0.73, 0.61};
    for (Object[] member : List.of(new Object[] {"Gradient", new Object[0]},
        new Object[] {"ValueAndGradient", new Object[] {new double[2]}},
        new Object[] {"Pullback", new Object[] {1.0, new double[2]}},
        new Object[] {"Tangent", new Object[] {1.0, 0.0}})) {
      IllegalStateException thrown = assertThrows(IllegalStateException.class,
          () -> aliased.member((String) member[0], point, (Object[]) member[1]));
      assertThat(thrown).hasMessageThat().startsWith("Targets.same returned an array it was"
          + " given");
    }
  }

  @Test
  void aCompiledTargetReturningANewArrayIsDifferentiatedAsBefore(@TempDir Path classes)
      throws Exception {
    MemberAgreement copied = MemberAgreement.of(againstCompiledTargets(classes),
        "com.example.Uses", "copied", true, true);
    copied.checkScalarAt(new double[][] {{0.73, 0.61}, {-1.34, 1.07}}, 1, 1e-6);
  }

  @Test
  void aTargetWhoseSourceMayReturnAnOldArrayIsAnErrorAtTheCall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  private static final double[] BUF = new double[2];",
        "  static double[] pair(double x) { BUF[0] = x * x; BUF[1] = 3 * x; return BUF; }",
        "  @DerivativeOf(\"pair\") static double[] pairX(double x) {",
        "    return new double[] {2 * x, 3};",
        "  }",
        "  static double[] same(double[] a) { return a; }",
        "  @DerivativeOf(\"same\") static double[][] sameA(double[] a) {",
        "    return new double[][] {{1, 0}, {0, 1}};",
        "  }",
        "  @Differentiable static double buffer(double x, double y) {",
        "    double[] a = pair(x);",
        "    return a[0] * y;",
        "  }",
        "  @Differentiable static double argument(double x, double y) {",
        "    double[] r = same(new double[] {x, y});",
        "    return r[0] * r[1];",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    CompilationSubject.assertThat(compilation).hadErrorCount(2);
    String advice = ", which may not be a new array: ad4j differentiates each array such a call"
        + " returns as one of its own, and a buffer returned again, or an argument, would be one"
        + " array with two sets of derivatives; return a new array each time ('new double[]"
        + " {...}', 'new double[n]', a clone, or a local made so and not assigned again)";
    CompilationSubject.assertThat(compilation).hadErrorContaining("call to 'pair(...)': its"
        + " @DerivativeOf target 'F.pair' returns 'BUF' (line 6)" + advice).inFile(file)
        .onLine(15).atColumn(lines.get(14).indexOf("(x)") + 1);
    CompilationSubject.assertThat(compilation).hadErrorContaining("call to 'same(...)': its"
        + " @DerivativeOf target 'F.same' returns 'a' (line 10)" + advice).inFile(file)
        .onLine(19).atColumn(lines.get(18).indexOf("(new") + 1);
  }
}
