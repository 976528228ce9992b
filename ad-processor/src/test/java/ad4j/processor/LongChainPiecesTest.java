package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.BytecodeSizes;
import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.LargeStack;
import ad4j.processor.testing.Sources;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Long chains whose pieces make values their reverse reads ({@code Math.exp(x * y)}, whose
 * derivative is itself), branch inside, loop inside, or return: the pieces share the variables
 * that carry those values and the loops' trip counts from the forward to the reverse sweep, and
 * a method of many {@code return}s returns once in its forward mode, so that every generated
 * method is cut under HotSpot's limit. Before, each piece's values were locals of their own,
 * handed from part to part: 450 {@code ?:} pieces of {@code Math.exp(x * y) + i} made members
 * of 55 KB that ran interpreted, 520 did not compile; 300 else-if pieces with a loop each made
 * members of 41 KB; 600 {@code if (x < i) return ...;} did not compile; 300 pieces that each
 * made a local array did not either.
 */
class LongChainPiecesTest {
  /** Pieces per chain: each chain below made members past HotSpot's limit before. */
  private static final int PIECES = 300;
  private static final double Y = 0.01;

  /** {@code x < 1 ? piece(1) : x < 2 ? piece(2) : ... : Math.sin(y)}. */
  private static String conditional(int pieces, IntFunction<String> piece) {
    StringBuilder chain = new StringBuilder();
    for (int i = 1; i < pieces; i++) {
      chain.append("x < ").append(i).append(" ? ").append(piece.apply(i)).append("\n        : ");
    }
    return chain.append("Math.sin(y)").toString();
  }

  private static Compiled compile(String source) {
    return LargeStack.run(() -> InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Chain", source));
  }

  /** Every method of the generated class is under HotSpot's limit for compiling it. */
  private static void assertAllCompilable(Compiled compiled) {
    Map<String, Integer> sizes = BytecodeSizes.of(compiled.compilation(),
        "com/example/ChainGrad.class");
    assertThat(sizes.keySet().stream().anyMatch(name -> name.contains("Part"))).isTrue();
    for (Map.Entry<String, Integer> method : sizes.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(8000);
    }
  }

  /**
   * At a point deep in the chain, where finite differences' steps (which grow with x) would
   * cross into the next piece: the gradient against the analytic one, and forward mode against
   * reverse mode (the tangent along each unit vector is the gradient's component).
   */
  private static void checkDeepIn(CompiledFunction f, double x, double y, double... expected) {
    double[] gradient = f.gradient(x, y);
    for (int i = 0; i < 2; i++) {
      assertWithMessage("partial %s at (%s, %s)", i, x, y).that(gradient[i])
          .isWithin(1e-12 * Math.max(1, Math.abs(expected[i]))).of(expected[i]);
      double[] unit = new double[2];
      unit[i] = 1.0;
      assertWithMessage("tangent along e%s at (%s, %s)", i, x, y)
          .that(f.tangent(new double[] {x, y}, unit))
          .isWithin(1e-12 * Math.max(1, Math.abs(gradient[i]))).of(gradient[i]);
    }
  }

  /**
   * {@code static double name(double x, double y)} with {@code body}, compiled with every
   * generated method under HotSpot's limit.
   */
  private static CompiledFunction compileCut(String name, String body) {
    Compiled compiled = compile(Sources.chainClass(
        "@Differentiable static double " + name + "(double x, double y)", body));
    assertAllCompilable(compiled);
    return compiled.function("com.example.Chain", name, 2);
  }

  /**
   * The checks at both ends of a chain of {@link #PIECES}: all of {@link DerivativeChecks} in
   * the first piece and the fourth (finite differences need room), and past the last link, where
   * every chain here is {@code Math.sin(y)}, the gradient (0, cos y).
   */
  private static void checkEnds(CompiledFunction f, double y) {
    for (double x : new double[] {-0.5, 2.5}) {
      DerivativeChecks.checkAt(f, x, y);
    }
    checkDeepIn(f, PIECES + 0.5, y, 0.0, Math.cos(y));
  }

  @Test
  void piecesThatMakeWhatTheirReverseReadsAreCut() {
    CompiledFunction f = compileCut("returned",
        "    return " + conditional(PIECES, i -> "Math.exp(x * y) + " + i) + ";");
    checkEnds(f, Y);
    // x < 151: e^(xy) + 151, whose gradient is (y e^(xy), x e^(xy))
    double x = 150.5;
    double e = Math.exp(x * Y);
    checkDeepIn(f, x, Y, Y * e, x * e);
  }

  @Test
  void piecesWithBranchesInsideAreCut() {
    CompiledFunction f = compileCut("returned", "    return " + conditional(PIECES,
        i -> "(y > 0 ? Math.exp(x * y) : Math.exp(y) * x) + " + i) + ";");
    for (double y : new double[] {Y, -0.3}) {
      checkEnds(f, y);
    }
    double x = 150.5;
    double e = Math.exp(x * Y);
    checkDeepIn(f, x, Y, Y * e, x * e);
    // y < 0, x < 151: e^y x + 151, whose gradient is (e^y, x e^y)
    double ey = Math.exp(-0.3);
    checkDeepIn(f, x, -0.3, ey, x * ey);
  }

  /** {@code if (x < 1) { ... } else if (x < 2) { ... } ... else { r = Math.sin(y); }}. */
  private static String elseIf(int pieces, IntFunction<String> piece) {
    StringBuilder chain = new StringBuilder("    double r = y;\n");
    for (int i = 1; i < pieces; i++) {
      chain.append(i == 1 ? "    if" : "    } else if").append(" (x < ").append(i)
          .append(") {\n").append(piece.apply(i)).append('\n');
    }
    return chain.append("    } else {\n      r = Math.sin(y);\n    }\n    return r;").toString();
  }

  /** A value made in the piece, read in a loop of the piece: 3 steps of r += e r + i. */
  private static String loopPiece(int i) {
    return String.join("\n",
        "      double e = Math.exp(x * y);",
        "      for (int j = 0; j < 3; j++) {",
        "        r += e * r + " + i + ";",
        "      }");
  }

  @Test
  void piecesWithLoopsInsideShareTheirTripCounts() {
    CompiledFunction f = compileCut("looped", elseIf(PIECES, LongChainPiecesTest::loopPiece));
    checkEnds(f, Y);
    // x < 151: three steps r += e r + 151 from r = y, e = e^(xy): r3 = a³ y + 151 (a² + a + 1)
    // with a = 1 + e, whose partials are r3'(a) e y (by x) and r3'(a) e x + a³ (by y)
    double x = 150.5;
    double a = 1 + Math.exp(x * Y);
    double slope = 3 * a * a * Y + 151 * (2 * a + 1);
    double e = a - 1;
    checkDeepIn(f, x, Y, slope * e * Y, slope * e * x + a * a * a);
  }

  /** {@code if (x < 1) { return piece(1); } if (x < 2) { ... } ... return Math.sin(y);}. */
  private static String returns(int pieces, IntFunction<String> piece) {
    StringBuilder chain = new StringBuilder();
    for (int i = 1; i < pieces; i++) {
      chain.append("    if (x < ").append(i).append(") {\n      return ").append(piece.apply(i))
          .append(";\n    }\n");
    }
    return chain.append("    return Math.sin(y);").toString();
  }

  @Test
  void manyReturnsAreCutInEveryMember() {
    CompiledFunction f = compileCut("guarded", returns(PIECES, i -> "Math.exp(x * y) + " + i));
    checkEnds(f, Y);
    double x = 150.5;
    double e = Math.exp(x * Y);
    checkDeepIn(f, x, Y, Y * e, x * e);
  }

  /**
   * At second order: the forward-over-reverse sweeps of 300 returns and of 150 pieces with a
   * loop or a local array each are cut too, every method under HotSpot's limit, and the Hessian
   * is the central difference of the gradient.
   */
  @Test
  void theSecondOrderSweepsAreCutToo() throws Exception {
    Compiled compiled = compile(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Chain {",
        "  @Differentiable(order = 2) static double guarded(double x, double y) {",
        returns(300, i -> "Math.exp(x * y) + " + i),
        "  }",
        "  @Differentiable(order = 2) static double looped(double x, double y) {",
        elseIf(150, LongChainPiecesTest::loopPiece),
        "  }",
        "  @Differentiable(order = 2) static double arrays(double x, double y) {",
        elseIf(150, LongChainPiecesTest::arrayPiece),
        "  }",
        "}",
        ""));
    assertAllCompilable(compiled);
    for (String name : List.of("guarded", "looped", "arrays")) {
      for (double x : new double[] {-0.5, 100.5, 400.5}) {
        double[][] hessian = (double[][]) compiled.invoke("com.example.ChainGrad",
            name + "Hessian", x, Y);
        double h = 1e-5;
        for (int k = 0; k < 2; k++) {
          double[] plus = (double[]) compiled.invoke("com.example.ChainGrad", name + "Gradient",
              x + (k == 0 ? h : 0), Y + (k == 1 ? h : 0));
          double[] minus = (double[]) compiled.invoke("com.example.ChainGrad",
              name + "Gradient", x - (k == 0 ? h : 0), Y - (k == 1 ? h : 0));
          for (int i = 0; i < 2; i++) {
            double expected = (plus[i] - minus[i]) / (2 * h);
            assertWithMessage("%s: H[%s][%s] at x = %s", name, i, k, x).that(hessian[i][k])
                .isWithin(1e-5 * Math.max(1, Math.abs(expected))).of(expected);
          }
        }
      }
    }
  }

  /**
   * A caller's members call a long chain's split halves ({@code mRecord}, which leaves on the
   * tape what the reverse reads, the variables its pieces share included, and {@code mReplay}):
   * the caller's derivatives are those of the composition, in every kind of piece.
   */
  @Test
  void aCallerOfALongChainGetsItsDerivatives() throws java.io.IOException {
    Compiled compiled = compile(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Chain {",
        "  @Differentiable static double conditional(double x, double y) {",
        "    return " + conditional(40, i -> i % 2 == 0 ? "Math.exp(x * y) + " + i
            : "(y > 0 ? Math.exp(x * y) : Math.exp(y) * x) + " + i) + ";",
        "  }",
        "  @Differentiable static double looped(double x, double y) {",
        elseIf(40, LongChainPiecesTest::loopPiece),
        "  }",
        "  @Differentiable static double guarded(double x, double y) {",
        returns(40, i -> "Math.exp(x * y) + " + i),
        "  }",
        "  @Differentiable static double caller(double x, double y) {",
        "    double a = conditional(x, y) * looped(y, x);",
        "    return a + guarded(x * y, y) * Math.sin(x);",
        "  }",
        "}",
        ""));
    String code = compiled.compilation().generatedSourceFile("com.example.ChainGrad")
        .orElseThrow().getCharContent(true).toString();
    assertThat(code).contains("conditionalReplay(");
    CompiledFunction f = compiled.function("com.example.Chain", "caller", 2);
    for (double[] point : new double[][] {{0.3, 0.7}, {2.5, -0.4}, {-0.6, 0.2}}) {
      DerivativeChecks.checkAt(f, point);
    }
  }

  /** A local array made in the piece: f = xy (x + y) + (x − y) x² + i = xy² + x³ + i. */
  private static String arrayPiece(int i) {
    return String.join("\n",
        "      double[] a = {x * y, x + y, x - y, x * x};",
        "      r = a[0] * a[1] + a[2] * a[3] + " + i + ";");
  }

  /**
   * Pieces that make a local array: its adjoint array is made in the piece's reverse sweep,
   * not in the forward sweep and handed from part to part (300 such pieces were past the JVM's
   * limit).
   */
  @Test
  void piecesThatMakeArraysAreCut() {
    CompiledFunction f = compileCut("arrays", elseIf(PIECES, LongChainPiecesTest::arrayPiece));
    checkEnds(f, Y);
    double x = 150.5;
    checkDeepIn(f, x, Y, Y * Y + 3 * x * x, 2 * x * Y);
  }

  /**
   * A member past the JVM's limit for one method is one error at the user's method that says
   * why and what to do (before, javac rejected the generated class with "code too large" at
   * lines the user did not write). No program known to the tests stays past that limit once
   * cut, so the test lowers it ({@code -Aad4j.methodLimit}).
   */
  @Test
  void aMemberPastTheJvmsLimitIsAnErrorAtTheMethod() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Chain", Sources.chainClass(
        "@Differentiable static double returned(double x, double y)",
        "    return " + conditional(40, i -> "Math.exp(x * y) + " + i) + ";"));
    Compilation compilation = LargeStack.run(() ->
        InProcessCompiler.javac("-Aad4j.methodLimit=500").compile(file));
    assertThat(compilation).hadErrorContaining("ad4j: @Differentiable method 'returned' is too"
        + " long to differentiate: its generated returned").inFile(file).onLine(4);
    assertThat(compilation).hadErrorContaining("bytes of bytecode, past the JVM's limit of 65535"
        + " for one method, and ad4j cannot cut it into parts that fit; move parts of the method"
        + " into methods of their own");
    assertThat(compilation.errors()).hasSize(1);
  }
}
