package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
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
   * A class with each method of {@code methods} twice: {@code m} as written, and
   * {@code mCheckpointed} marked {@code @Checkpointed(snapshots = 2)}.
   */
  private static String twins(String className, String methods) {
    String checkpointed = methods.replaceAll("@Differentiable static (\\S+) (\\w+)\\(",
        "@Checkpointed(snapshots = 2) @Differentiable static $1 $2Checkpointed(");
    return String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class " + className + " {",
        methods,
        checkpointed,
        "}");
  }

  private static final List<CompiledOnce> IN_BRANCHES =
      CompiledOnce.wholeAndInParts("com.example.InBranches", twins("InBranches", BRANCHES), 2);

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
    for (CompiledOnce version : IN_BRANCHES) {
      checkTwins(version.get(), "com.example.InBranches", names, new int[] {0, 1, 2, 3, 4, 6});
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
