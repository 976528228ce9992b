package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MixedFunction;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Code whose value nothing uses but that can throw — a call of another {@code @Differentiable}
 * method, an integer division or remainder — runs, in order, in every generated member, so that
 * each member throws where the user's method throws. A call may also stand alone as a statement.
 */
class DeadThrowingCodeTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Dead {",
      "  @Differentiable static double check(double x) {",
      "    if (x < 0) { throw new IllegalArgumentException(\"negative: \" + x); }",
      "    return x;",
      "  }",
      "  @Differentiable static double unusedCall(double x) {",
      "    double c = check(x);",
      "    return x * x;",
      "  }",
      "  @Differentiable static double callStatement(double x) {",
      "    check(x - 1);",
      "    return 3 * x;",
      "  }",
      "  @Differentiable static double unusedDivision(double x, int n) {",
      "    int q = 10 / n;",
      "    return x * x * x;",
      "  }",
      "  @Differentiable static double unusedRemainder(double x, long n) {",
      "    long r = 7L % n;",
      "    return Math.sin(x);",
      "  }",
      "  @Differentiable static double inOrder(double x, int n) {",
      "    int q = 1 / n;",
      "    double c = check(x);",
      "    return 2 * x;",
      "  }",
      "  static final int NONE = 0;",
      "  @SuppressWarnings(\"divzero\")",
      "  @Differentiable static double unusedConstantArithmetic(double x, int which) {",
      "    if (which == 0) { int perPart = 12 / NONE; }",
      "    if (which == 1) { long rest = 7L % NONE; }",
      "    if (which == 2) { int q = Math.floorDiv(12, NONE); }",
      "    if (which == 3) { int m = Math.floorMod(7L, NONE); }",
      "    if (which == 4) { int n = Math.toIntExact(1L << 40); }",
      "    if (which == 5) { int p = Math.multiplyExact(1 << 20, 1 << 20); }",
      "    if (which == 6) { int s = Math.addExact(Integer.MAX_VALUE, 1); }",
      "    if (which == 7) { int d = 12 / (NONE + 4); }",
      "    return x * x;",
      "  }",
      "  @Differentiable static double callStatementInLoop(double x, int n) {",
      "    double s = 0;",
      "    for (int i = 0; i < n; i++) { check(x - i); s += x; }",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce DEAD = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Dead", SOURCE));

  private static Compiled dead() {
    return DEAD.get();
  }

  private static MixedFunction function(String name, Class<?>... types) {
    return new MixedFunction(dead(), "com.example.Dead", name, types);
  }

  @Test
  void anUnusedCallStillThrowsInEveryMember() {
    MixedFunction f = function("unusedCall", double.class);
    assertEveryMemberThrowsAsTheMethod(f, IllegalArgumentException.class, -2.0);
    assertThat(f.gradient(new Object[] {1.5})).usingExactEquality().containsExactly(3.0);
  }

  @Test
  void aCallStatementIsAcceptedAndRunsInEveryMember() {
    MixedFunction f = function("callStatement", double.class);
    assertEveryMemberThrowsAsTheMethod(f, IllegalArgumentException.class, 0.5);
    assertThat(f.gradient(new Object[] {1.5})).usingExactEquality().containsExactly(3.0);
    assertThat(f.tangent(new Object[] {1.5}, new double[] {2})).isEqualTo(6.0);
  }

  @Test
  void anUnusedIntegerDivisionStillThrowsInEveryMember() {
    MixedFunction f = function("unusedDivision", double.class, int.class);
    assertEveryMemberThrowsAsTheMethod(f, ArithmeticException.class, 2.0, 0);
    assertThat(f.gradient(new Object[] {2.0, 3})).usingExactEquality().containsExactly(12.0);
  }

  @Test
  void anUnusedLongRemainderStillThrowsInEveryMember() {
    MixedFunction f = function("unusedRemainder", double.class, long.class);
    assertEveryMemberThrowsAsTheMethod(f, ArithmeticException.class, 2.0, 0L);
    assertThat(f.gradient(new Object[] {0.5, 3L})).usingExactEquality()
        .containsExactly(Math.cos(0.5));
  }

  @Test
  void unusedConstantArithmeticThatThrowsStillThrowsInEveryMember() {
    // of constants only ('12 / NONE', 'Math.floorDiv(12, NONE)', 'Math.toIntExact(1L << 40)'):
    // each was a constant's text, written only where used, so every member returned normally
    MixedFunction f = function("unusedConstantArithmetic", double.class, int.class);
    for (int which = 0; which <= 6; which++) {
      assertEveryMemberThrowsAsTheMethod(f, ArithmeticException.class, 1.5, which);
    }
    // 12 / 4 cannot throw
    assertThat(f.value(new Object[] {1.5, 7})).isEqualTo(2.25);
    assertThat(f.gradient(new Object[] {1.5, 7})).usingExactEquality().containsExactly(3.0);
  }

  @Test
  void throwingCodeRunsInTheUsersOrder() {
    MixedFunction f = function("inOrder", double.class, int.class);
    // both would throw: the division comes first
    assertEveryMemberThrowsAsTheMethod(f, ArithmeticException.class, -1.0, 0);
    assertEveryMemberThrowsAsTheMethod(f, IllegalArgumentException.class, -1.0, 1);
    assertThat(f.gradient(new Object[] {1.0, 1})).usingExactEquality().containsExactly(2.0);
  }

  @Test
  void aCallStatementInALoopRunsAtEachIteration() {
    MixedFunction f = function("callStatementInLoop", double.class, int.class);
    assertEveryMemberThrowsAsTheMethod(f, IllegalArgumentException.class, 2.5, 4);
    assertThat(f.gradient(new Object[] {3.5, 4})).usingExactEquality().containsExactly(4.0);
  }

  /** The method throws {@code type} at {@code arguments}, and each member the same. */
  private static void assertEveryMemberThrowsAsTheMethod(MixedFunction f,
      Class<? extends RuntimeException> type, Object... arguments) {
    RuntimeException expected = assertThrows(type, () -> f.value(arguments));
    double[] direction = new double[f.doubles()];
    java.util.Arrays.fill(direction, 1);
    List<Supplier<Executable>> members = List.of(
        () -> () -> f.gradient(arguments),
        () -> () -> f.valueAndGradient(arguments, new double[f.doubles()]),
        () -> () -> f.tangent(arguments, direction),
        () -> () -> f.pullback(arguments, 1.0, new double[f.doubles()]));
    String[] names = {"Gradient", "ValueAndGradient", "Tangent", "Pullback"};
    for (int i = 0; i < members.size(); i++) {
      RuntimeException thrown = assertThrows(RuntimeException.class, members.get(i).get(),
          f.name() + names[i] + " returned normally");
      assertWithMessage(f.name() + names[i]).that(thrown.getClass()).isEqualTo(type);
      assertWithMessage(f.name() + names[i]).that(thrown.getMessage())
          .isEqualTo(expected.getMessage());
    }
  }
}
