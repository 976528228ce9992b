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

/**
 * An adversarial hunt over {@code @Checkpointed} loops (session 61): state the loop carries in
 * other forms than {@code double} locals (counters changed in the body, {@code float},
 * {@code long}, {@code boolean}, value records, parameters), array elements read at indices the
 * loop computes, local {@code int[]} and {@code double[]} arrays written after the loop,
 * {@code break}, {@code continue}, labelled exits and {@code return} inside, {@code while} and
 * {@code do} forms, trip counts of 0, 1, 2 and many, loops in branches (several in one branch,
 * nested, sharing variables the branch declares), loops in callees called from loops, vector
 * functions, switches, lambdas and streams beside them, and calls the loop makes that compute
 * from their arguments alone. Each method is compiled twice in one class, as written and
 * with {@code @Checkpointed(snapshots = 2)}, whole and cut into parts of 2 statements; every
 * member of the checkpointed one is checked against differences of order 8 of the user's method
 * and forward against reverse ({@link MemberAgreement}), and its gradient against the recorded
 * one's.
 */
@ExtendWith(TapeIsEmpty.class)
class CheckpointedLoopsProbeTest {
  /**
   * Methods of {@code (double x, double y, int n)} whose checkpointed loops sit in a branch and
   * use variables that the branch declares: two loops carrying the same variable, a loop in a
   * nested branch before one in the branch, a loop that only reads what an earlier loop of the
   * branch assigned, and a variable the branch assigns between its loops.
   */
  private static final String BRANCHES = String.join("\n",
      "  @Differentiable static double twoInBranch(double x, double y, int n) {",
      "    double r = y;",
      "    if (n % 2 == 0) {",
      "      double u = x;",
      "      for (int i = 0; i < n + 1; i++) { u = u * r + 0.1; }",
      "      for (int i = 0; i < n + 2; i++) { u = Math.sin(u) * x; }",
      "      r = u;",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable static double nestedThenOuter(double x, double y, int n) {",
      "    double r = y;",
      "    if (n % 2 == 0) {",
      "      double u = x; int k = 1;",
      "      if (n > 2) { for (int i = 0; i < n + 1; i++) { u = u * r + 0.1 * k; k++; } }",
      "      for (int i = 0; i < n + 2; i++) { u = Math.sin(u) * x + k; }",
      "      r = u;",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable static double carriedThenRead(double x, double y, int n) {",
      "    double r = y;",
      "    if (n % 2 == 0) {",
      "      double u = x; int k = 1; double c = y;",
      "      for (int i = 0; i < n + 1; i++) { c = c * 0.9 + 0.1 * x; k++; }",
      "      for (int i = 0; i < n + 2; i++) { u = Math.sin(u) * c + k; }",
      "      r = u;",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable static double assignedBetween(double x, double y, int n) {",
      "    double r = y;",
      "    if (n % 2 == 0) {",
      "      double u = x; double c = y;",
      "      for (int i = 0; i < n + 2; i++) { u = Math.sin(u) * c + 0.2; }",
      "      if (n > 2) { for (int i = 0; i < n + 1; i++) { u = u * r + 0.1 * c; } c = 3; }",
      "      else { c = u; }",
      "      r = u + c;",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable static double twoNested(double x, double y, int n) {",
      "    double r = y;",
      "    if (n < 5) {",
      "      double u = x;",
      "      if (n > 1) { for (int i = 0; i < n + 1; i++) { u = u * r + 0.1; } }",
      "      else { for (int i = 0; i < 3; i++) { u = u * x + 0.2; } }",
      "      if (n > 2) { for (int i = 0; i < n; i++) { u = Math.cos(u) * y; } }",
      "      r = u * r;",
      "    }",
      "    return r;",
      "  }");

  /**
   * The probes of this hunt that found nothing wrong, kept as a regression net: state of every
   * kind, exits, loop forms, switches, records, arrays written after the loop, calls of a
   * checkpointed callee, a lambda reading an array written after the loop.
   */
  private static final String PROBES = String.join("\n",
      "  @Differentiable static double intCarried(double x, double y, int n) {",
      "    double s = y; int j = 1;",
      "    for (int i = 0; i < n; i++) { s = s * x + j; j = (j * 3) % 7; }",
      "    return s + j;",
      "  }",
      "  @Differentiable static double doWhile(double x, double y, int n) {",
      "    double s = y; int i = 0;",
      "    do { s = Math.cos(s * x) + s * 0.5; i++; } while (i < n);",
      "    return s;",
      "  }",
      "  @Differentiable static double exits(double x, double y, int n) {",
      "    double s = y;",
      "    for (int i = 0; i < 9; i++) {",
      "      s = s * x + 0.3;",
      "      if (i % 3 == n % 3) { continue; }",
      "      if (i == n + 4) { return s * y; }",
      "      if (i == 2 * n + 1) { break; }",
      "      s += 0.1 * y * s;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double labelled(double x, double y, int n) {",
      "    double s = y;",
      "    outer:",
      "    for (int i = 0; i < 8; i++) {",
      "      switch (i % 3) {",
      "        case 0: s *= x; continue outer;",
      "        case 1: if (i > n) { break outer; } s += y; break;",
      "        default: s = Math.sin(s);",
      "      }",
      "      s += 0.1 * s;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double whileTrue(double x, double y, int n) {",
      "    double s = y; int i = 0;",
      "    while (true) { s = s * x + 0.2; if (++i > n) { break; } s = Math.sin(s); }",
      "    return s;",
      "  }",
      "  @Differentiable static double beforeInAfter(double x, double y, int n) {",
      "    double s = y * x; double p = s * y; int k = n % 3;",
      "    double[] w = {x, y, x * y};",
      "    double q = w[k] * x;",
      "    for (int i = 0; i < n; i++) { s = s * x + p + w[k]; k = (k + 1) % 3; }",
      "    s = s * s + p; k = 0;",
      "    return s + p * x + q + k;",
      "  }",
      "  @Differentiable static double kinds(double x, double y, int n) {",
      "    float f = 0.75f; boolean flip = false; double s = x * y; long m = 3;",
      "    for (long i = 0; i < n * 3L; i++) {",
      "      f = f * 0.5f + 0.25f; flip = !flip; m = m * 3 % 1000;",
      "      if (flip) { s += 0.1 * f * s; } else { s = s * 0.9 + x * 0.01 * (m % 7); }",
      "    }",
      "    return s + f;",
      "  }",
      "  @Differentiable static double twoLoops(double x, double y, int n) {",
      "    double s = y, t = x;",
      "    for (int i = 0; i < n; i++) { s = s * x + t; }",
      "    for (int i = 0; i < n + 1; i++) { t = t * s + 0.1; s = s * 0.5; }",
      "    return s + t;",
      "  }",
      "  @Differentiable static double switches(double x, double y, int n) {",
      "    double s = y;",
      "    for (int i = 0; i < n + 3; i++) {",
      "      double f = switch (i % 3) {",
      "        case 0 -> x;",
      "        case 1 -> { double t = s * 0.5; yield t + y; }",
      "        default -> 0.25;",
      "      };",
      "      switch (i % 2) { case 0: s = s * f + 0.1; break; default: s += Math.sin(s); }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double records(double x, double y, int n) {",
      "    V v = new V(x, y); double s = y;",
      "    for (int i = 0; i < n + 2; i++) { v = v.step(x); s = s * v.a() + v.b(); }",
      "    v = new V(100, 200);",
      "    return s + v.a();",
      "  }",
      "  @Differentiable static double arraysAfter(double x, double y, int n) {",
      "    int[] idx = {0, 1, 2};",
      "    double[] w = {x, y, x * y};",
      "    double[][] m = {{x, y}, {y, x * y}};",
      "    double s = y;",
      "    for (int i = 0; i < n + 2; i++) { s = s * 0.5 + w[idx[i % 3]] * s + m[i % 2][1]; }",
      "    idx[0] = 2; w[2] = s; m[1][1] = 3;",
      "    for (double[] row : m) { s = s * row[0] + row[1]; }",
      "    return s + w[idx[0]];",
      "  }",
      "  @Differentiable static double callees(double x, double y, int n) {",
      "    double a = inner(x, y, n);",
      "    double s = a;",
      "    for (int k = 0; k < n + 2; k++) { s = inner(0.5 * x, s, k % 3) * 0.5 + a * 0.1; }",
      "    return s + inner(s, a, 1);",
      "  }",
      "  @Differentiable static double lambdaArray(double x, double y, int n) {",
      "    double[] w = {x, y};",
      "    DoubleUnaryOperator f = v -> v * w[0] + w[1];",
      "    double s = y;",
      "    for (int i = 0; i < n + 2; i++) { s = f.applyAsDouble(s) * 0.5; }",
      "    w[0] = 5; w[1] = s;",
      "    return s + f.applyAsDouble(1.0);",
      "  }",
      "  @Differentiable static double parameters(double x, double y, int n) {",
      "    double s = y * x;",
      "    for (int i = 0; i < n + 2; i++) { s = s * x + y; x = x * 0.9 + s * 0.01; n--; }",
      "    y = s * 2;",
      "    return s + x * y + n;",
      "  }");

  /**
   * Checkpointed loops calling what computes from numbers alone: functions of {@code Math},
   * {@code Integer} and {@code Long}, an argument-only static method of the class (itself a
   * loop, run as written), the unboxing of a {@code Double} parameter.
   */
  private static final String NUMBERS = String.join("\n",
      "  @Differentiable static double counters(double x, double y, int n) {",
      "    double s = y; int k = 7; long m = 3;",
      "    for (int i = 0; i < n + 2; i++) {",
      "      k = Math.floorMod(k * 5 + i, 11);",
      "      m = Math.max(m, k) + Long.rotateLeft(m, 1) % 5;",
      "      s = s * x + Math.floorDiv(k, 2) + Integer.bitCount(k) * 0.01 + m * 0.001"
          + " + steps(k) * 0.001;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double boxed(double x, double y, Double tol, int n) {",
      "    double s = y;",
      "    for (int i = 0; i < n + 2; i++) {",
      "      s = s * x + tol;",
      "      if (Math.abs(s) > 100 * tol) { break; }",
      "    }",
      "    return s;",
      "  }");

  /** An argument-only static method, which ad4j runs as written. */
  private static final String STEPS = "  static int steps(int k) { int r = 0;"
      + " for (int i = 0; i < k; i++) { r += i % 3; } return r; }";

  /** What the probes share: a record, and a checkpointed method that they call. */
  private static final String SHARED = String.join("\n",
      "  record V(double a, double b) {",
      "    V step(double x) { return new V(a * x + b * 0.1, b * 0.9 + a * 0.01); }",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double inner(double x, double y,",
      "      int n) {",
      "    double s = y;",
      "    for (int i = 0; i < n + 2; i++) { s = Math.sin(s * x) + 0.5 * s; }",
      "    return s * y;",
      "  }");

  /**
   * A class with each method of {@code methods} twice: {@code m} as written, and
   * {@code mCheckpointed} marked {@code @Checkpointed(snapshots = 2)}; and {@code shared}
   * once.
   */
  private static String twins(String className, String shared, String methods) {
    String checkpointed = methods.replaceAll("@Differentiable static (\\S+) (\\w+)\\(",
        "@Checkpointed(snapshots = 2) @Differentiable static $1 $2Checkpointed(");
    return String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "final class " + className + " {",
        shared,
        methods,
        checkpointed,
        "}");
  }

  private static final String CLASS = "com.example.Probes";

  /** Every method twice, with what they share, whole and cut into parts of 2 statements. */
  private static final List<CompiledOnce> PROBES_TWICE = CompiledOnce.wholeAndInParts(CLASS,
      twins("Probes", SHARED + "\n" + STEPS, BRANCHES + "\n" + NUMBERS + "\n" + PROBES), 2);

  /**
   * The variables a branch declares and its checkpointed loops use are one variable for the
   * forward and the reverse sweep, declared at the top of the generated member. Before the
   * fix the reverse of each loop declared the variables its snapshots hold again, in its own
   * scope, and generated code did not compile: {@code twoInBranch} "variable u is already
   * defined in method twoInBranchCheckpointedValueAndGradientOnTape", {@code nestedThenOuter}
   * that and "cannot find symbol: variable k", {@code carriedThenRead} "cannot find symbol:
   * variable c" (and k): the second loop reads what the first assigned, which its own snapshots
   * need not hold. (Declared
   * once in the reverse of the branch instead, with no value, they compiled and were silently
   * wrong: {@code carriedThenRead(0.3, 0.7, 2)} gave slot 0 0.0 for -0.2332, the second
   * loop's reverse reading c = 0 and k = 0.)
   */
  @Test
  void variablesABranchDeclaresAreOneForTheSweepsOfItsCheckpointedLoops() throws Exception {
    List<String> names = List.of("twoInBranch", "nestedThenOuter", "carriedThenRead",
        "assignedBetween", "twoNested");
    for (CompiledOnce version : PROBES_TWICE) {
      checkTwins(version.get(), CLASS, names, new int[] {0, 1, 2, 3, 4, 6});
    }
  }

  /**
   * Calls that compute from numbers alone, in checkpointed loops: functions of {@code Math},
   * {@code Integer} and {@code Long} on counters the loop carries, an argument-only static
   * method of the class (itself a loop, run as written), and the unboxing of a {@code Double}
   * parameter ({@link #NUMBERS}). Before, each loop was rejected at the loop: "loop of method
   * 'countersCheckpointed' cannot be checkpointed (@Checkpointed): it calls 'Math.floorMod'
   * (line N), which is not @Differentiable and would run again when the reverse sweep computes
   * iterations anew"; for the box "it calls 'doubleValue'", a call the user never wrote.
   */
  @Test
  void callsThatComputeFromNumbersAloneMayRunAgain() throws Exception {
    for (CompiledOnce version : PROBES_TWICE) {
      checkTwins(version.get(), CLASS, List.of("counters"), new int[] {0, 1, 2, 5});
      MemberAgreement boxed = MemberAgreement.of(version.get(), CLASS,
          "boxedCheckpointed", true, true, false, false);
      for (double tol : new double[] {0.25, 0.01}) {
        for (int n : new int[] {0, 3, 6}) {
          boxed.checkScalar(new Object[] {0.8, 1.1, tol, n}, 1, 1e-7);
        }
      }
    }
  }

  /**
   * Calls that take an array or an object stay errors at the loop: {@code Arrays.binarySearch}
   * reads an array that code after the loop may write, and a getter reads an object's state,
   * which no snapshot holds.
   */
  @Test
  void callsThatTakeAnArrayOrAnObjectStayErrors() {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "import java.util.Arrays;",
        "final class Rejected {",
        "  static final class Rate { double k = 1; double get() { return k; } }",
        "  @Checkpointed(snapshots = 2) @Differentiable static double search(double x, int n) {",
        "    double[] knots = {0, 0.5, 1, 2};",
        "    for (int i = 0; i < n; i++) { x = x * 0.5 + Arrays.binarySearch(knots, 0.7); }",
        "    knots[0] = -1;",
        "    return x;",
        "  }",
        "  @Checkpointed(snapshots = 2) @Differentiable static double getter(double x, int n,",
        "      Rate rate) {",
        "    for (int i = 0; i < n; i++) { x = x * 0.5 + rate.get(); }",
        "    return x;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Rejected", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("loop of method 'search' cannot be checkpointed"
        + " (@Checkpointed): it calls 'java.util.Arrays.binarySearch' (line 9), which is not"
        + " @Differentiable and would run again when the reverse sweep computes iterations"
        + " anew").inFile(file).onLine(9).atColumn(5);
    assertThat(compilation).hadErrorContaining("loop of method 'getter' cannot be checkpointed"
        + " (@Checkpointed): it calls 'get' (line 15)").inFile(file).onLine(15).atColumn(5);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(2);
  }

  /** The probes that found nothing wrong ({@link #PROBES}): each as its recorded twin. */
  @Test
  void probesOfStateExitsFormsRecordsArraysAndCallees() throws Exception {
    List<String> names = List.of("intCarried", "doWhile", "exits", "labelled", "whileTrue",
        "beforeInAfter", "kinds", "twoLoops", "switches", "records", "arraysAfter", "callees",
        "lambdaArray", "parameters");
    for (CompiledOnce version : PROBES_TWICE) {
      checkTwins(version.get(), CLASS, names, new int[] {0, 1, 2, 5});
    }
  }

  /**
   * Every member of each {@code nameCheckpointed} against differences and forward against
   * reverse, and its gradient against {@code name}'s (recorded in full), at points of
   * {@code (x, y, n)} for each {@code n} of {@code counts}.
   */
  private static void checkTwins(InProcessCompiler.Compiled compiled, String className,
      List<String> names, int[] counts) throws Exception {
    double[][] points = {{0.3, 0.7}, {-0.45, 0.6}, {0.8, 1.1}};
    for (String name : names) {
      MemberAgreement checkpointed = MemberAgreement.of(compiled, className,
          name + "Checkpointed", true, true, false);
      MemberAgreement recorded = MemberAgreement.of(compiled, className, name, true, true,
          false);
      for (double[] point : points) {
        for (int n : counts) {
          Object[] arguments = {point[0], point[1], n};
          checkpointed.checkScalar(arguments, 1, 1e-7);
          double[] expected = (double[]) recorded.member("Gradient", arguments);
          double[] gradient = (double[]) checkpointed.member("Gradient", arguments);
          for (int i = 0; i < expected.length; i++) {
            assertWithMessage("slot %s of %sCheckpointed(%s, %s, %s)", i, name, point[0],
                point[1], n).that(gradient[i])
                .isWithin(1e-12 * Math.max(1, Math.abs(expected[i]))).of(expected[i]);
          }
        }
      }
    }
  }
}
