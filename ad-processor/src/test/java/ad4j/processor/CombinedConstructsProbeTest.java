package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A probe of constructs combined that earlier probes took one at a time: {@code switch}
 * statements and expressions (colon and arrow forms, fallthrough, {@code default} first,
 * {@code yield}, loops inside switch expressions, a switch expression as a loop's condition,
 * as its bound and as a callee's argument, selectors with effects or made of doubles, on enums
 * and strings) inside {@code for}, {@code while} and {@code do} loops and inside
 * {@code @Checkpointed} loops, with labelled {@code break} and {@code continue} out of nested
 * loops (a labelled {@code continue} to a {@code do} loop's condition) and early returns and
 * throws from inside a switch; {@code int} and {@code long} counters that overflow, step by
 * more than one or geometrically, are changed in the body or by an inner loop, skip loops whose
 * span overflows, inner loops whose start or bound an iteration changes, and trip counts that
 * depend on a double; integer semantics on the way into doubles (constant expressions that
 * overflow or narrow, the {@code int} and {@code long} overloads of {@code Math.abs},
 * {@code max} and {@code min} at {@code MIN_VALUE}, shifts); {@code @DerivativeOf} rules in
 * loops, at order 2, in a checkpointed loop, given the same array twice, given arguments with
 * effects ({@code weigh(i++, x)}, {@code weigh(counted(i), y)}, also to {@code @Differentiable}
 * and vector callees), on an object a setter changes between the calls, and a target that
 * throws; lambdas whose captured array changes between their creation and their calls, lambdas
 * made in a loop, block lambdas with switches passed to a method taking a function, streams in
 * loops and over callees, a stream's compensated sum deciding a branch; narrowing compound
 * assignments ({@code int k += x}, {@code float f *= x}, on array elements with indices that
 * have effects), {@code x++} on double parameters and locals, ternaries in loop conditions
 * (with effects); local arrays read in a loop and written after it; loops that only add into
 * sums (whose reverse follows each iteration); value records as a checkpointed loop's state,
 * through labelled jumps, and their methods with loops called in switches; and {@code Math}
 * functions at their kinks. Each method is compiled whole and cut into parts of one and of two
 * statements, and every member is checked by {@link MemberAgreement} (values bit for bit,
 * differences of order 8 of the user's method, forward against reverse, the Hessian against
 * differences of the gradient, effects run once, what a throwing method throws). Points are
 * chosen where every value-dependent decision is the same within the differences' reach.
 *
 * <p>At a kink the guide's conventions (half to each argument of a tied {@code max}/{@code
 * min}, 0 for {@code abs}, {@code hypot} and {@code copySign} at 0) are what central differences
 * see where the pieces are linear; where they curve, the gradient and the Hessian at the tie
 * are checked to be the means of their values on either side, in every member, also through
 * order-2 callees. Where ties feed ties (a {@code max} of a value that is itself a tied
 * {@code max} of the same variable) the composed convention is not the mean of the one-sided
 * derivatives, nor does the guide say it is: this probe keeps ties independent.
 *
 * <p>Found: no wrong derivative and no internal error. A generated class failed to compile
 * once: cut into parts of one statement ({@code -Aad4j.partSize=1}, a testing option), the
 * generated class of one class of about 60 of these methods needed more than the 65,535
 * constants of a class file (javac: "too many constants"; 61,668 without debug information,
 * 2,047 when compiled whole), hence three classes here. A {@code switch} on an enum or a
 * string inside a {@code @Checkpointed} loop was rejected with "it calls
 * 'java.util.Objects.requireNonNull'", a call the user did not write (the null check the
 * switch lowering adds): accepted since, {@code ckptStringSwitch} (which failed to compile
 * before). Noticed and left: a call of a record-returning method in a checkpointed loop is
 * rejected with "it makes or writes an array" (the record is an array inside);
 * {@code Mode.values()} in an order-2 method was rejected as a call that may differ when run
 * again (accepted since: {@code CalleePlainCallsTest}); switch expressions and ternaries of value
 * records are rejected (assign the record in a switch statement's cases); a {@code null} enum
 * selector throws a {@code NullPointerException} without the JVM's message about
 * {@code ordinal()}.
 */
@ExtendWith(TapeIsEmpty.class)
class CombinedConstructsProbeTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import java.util.Arrays;",
      "import java.util.function.DoubleUnaryOperator;",
      "import java.util.stream.IntStream;",
      "final class Combined {",
      "  static int calls;",
      "  static int counted(int i) { calls++; return i; }",
      "  /** Targets of rules; ad4j never reads their bodies. */",
      "  static double weigh(int k, double x) { return Math.sin(x) * (k + 1); }",
      "  @DerivativeOf(\"weigh\") @Differentiable",
      "  static double weighX(int k, double x) { return Math.cos(x) * (k + 1); }",
      "  static double dot(double[] a, double[] b) {",
      "    double s = 0;",
      "    for (int i = 0; i < a.length; i++) { s += a[i] * b[i] * b[i]; }",
      "    return s;",
      "  }",
      "  @DerivativeOf(value = \"dot\", wrt = \"a\") @Differentiable",
      "  static double[] dotA(double[] a, double[] b) {",
      "    double[] r = new double[a.length];",
      "    for (int i = 0; i < a.length; i++) { r[i] = b[i] * b[i]; }",
      "    return r;",
      "  }",
      "  @DerivativeOf(value = \"dot\", wrt = \"b\") @Differentiable",
      "  static double[] dotB(double[] a, double[] b) {",
      "    double[] r = new double[a.length];",
      "    for (int i = 0; i < a.length; i++) { r[i] = 2 * a[i] * b[i]; }",
      "    return r;",
      "  }",
      // --- switches in loops
      "  @SuppressWarnings(\"fallthrough\")",
      "  @Differentiable(order = 2) static double switchLoop(double x, double y) {",
      "    double s = x;",
      "    for (int i = 0; i < 7; i++) {",
      "      switch (i % 4) {",
      "        case 0:",
      "          s = s * y + x;",
      "        case 1:",
      "          s = Math.sin(s) + y;",
      "          break;",
      "        case 2:",
      "          if (s * y > 2.5) {",
      "            return s * x;",
      "          }",
      "          continue;",
      "        default:",
      "          s = s * 0.5 + x * y;",
      "      }",
      "      s = s + 0.1 * i * x;",
      "    }",
      "    return s * s;",
      "  }",
      "  @Differentiable(order = 2) static double yieldWhile(double x, double y) {",
      "    double s = 0.1;",
      "    int k = 0;",
      "    while (s < 3 && k < 30) {",
      "      s = switch (k % 3) {",
      "        case 0 -> s + x * x;",
      "        case 1 -> {",
      "          double t = s * y;",
      "          yield t > 1 ? t * 0.5 + x : t + 0.2;",
      "        }",
      "        default -> Math.exp(s * 0.1) * y;",
      "      };",
      "      k++;",
      "    }",
      "    return s * k;",
      "  }",
      "  @Differentiable static double labeled(double[] w, double x) {",
      "    double s = x;",
      "    outer:",
      "    for (int i = 0; i < w.length; i++) {",
      "      for (int j = 0; j < 3; j++) {",
      "        switch (j) {",
      "          case 0 -> s = s * w[i] + x;",
      "          case 1 -> {",
      "            if (s > 4) {",
      "              break outer;",
      "            }",
      "            if (s < -1) {",
      "              continue outer;",
      "            }",
      "            s = Math.sin(s) * x;",
      "          }",
      "          default -> s += w[i] * w[i];",
      "        }",
      "      }",
      "      s *= 0.9;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double doSwitch(double x, double y) {",
      "    double s = x;",
      "    int k = 0;",
      "    do {",
      "      k++;",
      "      switch (k) {",
      "        case 1:",
      "          s = s * y;",
      "          break;",
      "        case 2:",
      "          if (s > 0.5) {",
      "            continue;",
      "          }",
      "          s = s + y * y;",
      "          break;",
      "        default:",
      "          s = s * 0.8 + Math.cos(x * k);",
      "      }",
      "      s += 0.01 * x;",
      "    } while (s * s < 4 + y && k < 12);",
      "    return s + k * x;",
      "  }",
      "  @Checkpointed(snapshots = 2)",
      "  @Differentiable static double ckptSwitch(double x, double y, int n) {",
      "    double s = x;",
      "    double t = y;",
      "    for (int i = 0; i < n; i++) {",
      "      switch (i % 3) {",
      "        case 0 -> s = s * Math.cos(t) + 0.1 * y;",
      "        case 1 -> t = t + 0.2 * s * x;",
      "        default -> {",
      "          if (s > 2.5) {",
      "            return s * t;",
      "          }",
      "          s = weigh(i, s) + t;",
      "        }",
      "      }",
      "      double u = switch (i % 2) { case 0 -> s; default -> t * x; };",
      "      t = t * 0.9 + 0.05 * u;",
      "    }",
      "    return s * t;",
      "  }",
      // --- counters
      "  @Differentiable static double counters(double x, double y, int n) {",
      "    double s = x;",
      "    for (int i = Integer.MAX_VALUE - 4; i > 0; i += 2) {",
      "      s = s * y + (i % 7) * 0.01 * x;",
      "    }",
      "    for (long j = Long.MAX_VALUE - 1; j > 0; j++) {",
      "      s = s + (j % 5) * 0.1 * y;",
      "    }",
      "    for (int i = n; i < n - 3; i++) {",
      "      s = s * 100;",
      "    }",
      "    for (int i = 1; i < n; i += 3) {",
      "      s = Math.sin(s) + i * x;",
      "    }",
      "    int i;",
      "    for (i = 0; s < 5 && i < 50; i++) {",
      "      s = s * 1.5 + y;",
      "    }",
      "    for (int k = 0; k < 10; k++) {",
      "      if (s > 10) {",
      "        k += 3;",
      "      }",
      "      s = s * 0.9 + x;",
      "    }",
      "    for (long m = 1; m < 200; m *= 3) {",
      "      s = s + m * 0.001 * y;",
      "    }",
      "    return s * i;",
      "  }",
      "  /** Nested loops whose trips the reverse sweep may count again. */",
      "  @Differentiable(order = 2) static double spans(double x, double y, int lo, int hi) {",
      "    double s = x;",
      "    for (int r = 0; r < 2; r++) {",
      "      for (int j = lo; j < hi; j++) {",
      "        s = s * y + 0.1 * x;",
      "      }",
      "      for (int j = hi; j >= lo; j--) {",
      "        s = s * 0.9 + Math.sin(y);",
      "      }",
      "      s = s + x * y;",
      "    }",
      "    return s;",
      "  }",
      // --- narrowing compound assignments, ++ on doubles, ternaries in conditions
      "  @SuppressWarnings(\"lossy-conversions\")",
      "  @Differentiable(order = 2) static double narrowing(double x, double y) {",
      "    int k = 1;",
      "    k += x * 3;",
      "    k *= y;",
      "    long m = 2;",
      "    m -= x;",
      "    double d = x;",
      "    d++;",
      "    double e = y;",
      "    e += e++ * x;",
      "    double g = d--;",
      "    return d * e + k * e + m * x + g * y + (++d) * x;",
      "  }",
      "  @SuppressWarnings(\"lossy-conversions\")",
      "  @Differentiable static float floats(float x, float y) {",
      "    float f = 1.5f;",
      "    f *= x;",
      "    f += y * y;",
      "    int k = 3;",
      "    k -= f;",
      "    f++;",
      "    float g = f--;",
      "    f /= 1 + g * 0.1;",
      "    return f * k + g;",
      "  }",
      "  @Differentiable(order = 2) static double ternaryConditions(double x, double y) {",
      "    double s = x;",
      "    int n = 0;",
      "    while ((s > 1 ? s * 0.5 : s + y) < (n % 2 == 0 ? 2.0 : x + 1.5) && n < 20) {",
      "      s = s + (n > 3 ? x * y : y) * 0.3;",
      "      n++;",
      "    }",
      "    for (int i = 0; i < (s > 2 ? 2 : 4); i++) {",
      "      s = s * (i % 2 == 0 ? x : y);",
      "    }",
      "    return s;",
      "  }",
      // --- rules in loops, at order 2, aliased, with effects in arguments
      "  @Differentiable(order = 2) static double ruled(double[] w, double x) {",
      "    double s = 0;",
      "    int i = 0;",
      "    while (i < w.length) {",
      "      s += weigh(i++, x * w[i - 1]);",
      "    }",
      "    s += dot(w, w) * x;",
      "    double[] c = w.clone();",
      "    c[0] = x * x;",
      "    s += dot(c, c) + dot(c, w);",
      "    for (int j = 0; j < 3; j++) {",
      "      c[j % c.length] = weigh(j, c[j % c.length]) * s;",
      "      s = s * 0.5 + dot(c, w);",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double ruledEffects(double x, double y) {",
      "    double s = 0;",
      "    int i = 0;",
      "    for (int r = 0; r < 3; r++) {",
      "      s += weigh(counted(i++), x * r + y) * weigh(i++, s);",
      "    }",
      "    return s * i;",
      "  }",
      // --- lambdas and streams
      "  @Differentiable static double lambdas(double x, double y) {",
      "    double[] c = {x, y};",
      "    DoubleUnaryOperator f = t -> t * c[0] + c[1];",
      "    double s = f.applyAsDouble(y);",
      "    c[0] = y * y;",
      "    s += f.applyAsDouble(x);",
      "    for (int i = 0; i < 3; i++) {",
      "      double a = s * 0.1 * i;",
      "      DoubleUnaryOperator g = t -> Math.sin(t + a) * x;",
      "      c[1] = c[1] + g.applyAsDouble(s);",
      "      s = f.applyAsDouble(s * 0.5);",
      "    }",
      "    return s + IntStream.range(0, c.length).mapToDouble(i -> c[i] * c[i]).sum();",
      "  }",
      "  @Differentiable static double streamsInLoop(double[] w, double x) {",
      "    double total = 0;",
      "    for (int k = 1; k <= 3; k++) {",
      "      final double scale = total * 0.1 + k * x;",
      "      total += Arrays.stream(w).map(v -> v * scale).filter(v -> v > 0).sum();",
      "    }",
      "    return total;",
      "  }",
      // --- Math functions at their kinks
      "  /** Kinks that are linear on either side at x = y (differences see the mean of the sides). */",
      "  @Differentiable(order = 2) static double kinks(double x, double y) {",
      "    double s = 3 * Math.abs(x - y) + 2 * Math.max(x, y) - Math.min(x, y) + x * x * y;",
      "    double t = 0;",
      "    for (int i = 1; i <= 3; i++) {",
      "      t += Math.max(x * i, y * i) * 0.5 + Math.abs(x - y) * i - Math.min(x, y) / i;",
      "      t = t + Math.min(t, x * y) * 0.25;",
      "    }",
      "    return s + t + Math.hypot(x - y, y - x) + 2 * Math.copySign(x - y, y);",
      "  }",
      "  /** Ties of pieces that curve: only the mean of the sides is the convention here. */",
      "  @Differentiable(order = 2) static double curvedTies(double x, double y) {",
      "    double s = Math.max(x * y, y * y) + Math.min(x, y) * x;",
      "    for (int i = 0; i < 2; i++) {",
      "      s += Math.abs(x - y) * (x + 2) * (i + 1) + Math.max(x * x, x * y);",
      "    }",
      "    return s;",
      "  }",
      "  /** The ties in callees, in a loop and straight. */",
      "  @Differentiable(order = 2) static double callsTies(double x, double y) {",
      "    double s = kinks(y, x) * 0.5;",
      "    for (int i = 0; i < 2; i++) {",
      "      s += curvedTies(x, y) * (i + 1) + s * 0.1;",
      "    }",
      "    return s - curvedTies(y, x);",
      "  }",
      "  @Differentiable(order = 2) static double smooth(double x, double y) {",
      "    return Math.floor(x * 4) * y + Math.signum(x) * x + Math.rint(y) * x",
      "        + Math.pow(x - 2, 3) + Math.pow(x - 2, -2) + Math.atan2(y, x)",
      "        + Math.fma(x, y, x * y) + Math.copySign(x, -y) * Math.copySign(y, x);",
      "  }",
      "}");

  private static final String MORE = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import java.util.function.DoubleUnaryOperator;",
      "import java.util.stream.IntStream;",
      "final class More {",
      "  static int calls;",
      "  static int counted(int i) { calls++; return i; }",
      "  static double weigh(int k, double x) { return Math.sin(x) * (k + 1); }",
      "  @DerivativeOf(\"weigh\") @Differentiable",
      "  static double weighX(int k, double x) { return Math.cos(x) * (k + 1); }",
      "  @Differentiable(order = 2) static double g(int k, double x) {",
      "    double s = x;",
      "    for (int j = 0; j <= k % 3; j++) { s = s * x + k; }",
      "    return s;",
      "  }",
      "  @Differentiable static double[] v(int k, double x) {",
      "    return new double[] {x * k, Math.sin(x) + k};",
      "  }",
      "  /** Arguments with effects, to a @Differentiable callee, a vector one and a ruled one. */",
      "  @Differentiable static double effectfulArguments(double x, double y) {",
      "    double s = 0;",
      "    int i = 0;",
      "    int k = 1;",
      "    while (i < 6) {",
      "      s += g(i++, x) * 0.1 + g(k = k + 2, s * 0.01 + y) * 0.01;",
      "      double[] r = v(i++, s * 0.1);",
      "      s = s * 0.5 + r[0] * 0.1 + r[1] + weigh(counted(i), y);",
      "    }",
      "    return s * i + k;",
      "  }",
      "  @Differentiable(order = 2) static double effectfulArguments2(double x, double y) {",
      "    double s = 0;",
      "    int i = 0;",
      "    while (i < 6) {",
      "      s += g(i++, x) * 0.1 + weigh(i++, s * y * 0.1) * g(--i, y) * 0.1;",
      "    }",
      "    return s * i;",
      "  }",
      "  /** A checkpointed do loop: a switch expression, a continue, a ruled call with i++. */",
      "  @Checkpointed(snapshots = 3)",
      "  @Differentiable static double ckptDo(double x, double y, int n) {",
      "    double s = x;",
      "    double t = y;",
      "    int i = 0;",
      "    long m = 7;",
      "    do {",
      "      double u = switch (i % 4) {",
      "        case 0 -> s * t;",
      "        case 1 -> { double q = Math.sin(s); yield q * q + x; }",
      "        case 2 -> weigh(i++, t) * 0.5;",
      "        default -> t + m * 0.001;",
      "      };",
      "      m = m * 3 % 101;",
      "      i++;",
      "      if (u > 5) {",
      "        return u * s;",
      "      }",
      "      if (i % 5 == 0) {",
      "        t = t * 0.9;",
      "        continue;",
      "      }",
      "      s = s * 0.8 + 0.1 * u;",
      "      t = t + (s > t ? 0.05 * s : -0.02 * x);",
      "    } while (i < n);",
      "    return s + t * m;",
      "  }",
      "  /** A checkpointed loop whose trips depend on a double, counted in a long by 3. */",
      "  @Checkpointed(snapshots = 2)",
      "  @Differentiable static double ckptWhile(double x, double y) {",
      "    double s = x;",
      "    long j = 0;",
      "    while (s < 20 && j < 300) {",
      "      s = s * (1 + 0.1 * y) + x * 0.01 * (j % 4);",
      "      j += 3;",
      "    }",
      "    return s * j;",
      "  }",
      "  /** x++ on parameters, %= and compound assignments inside expressions, in a loop. */",
      "  @Differentiable(order = 2) static double increments(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 0; i < 4; i++) {",
      "      s += x++ * y;",
      "      s += (y *= 0.9) * --x;",
      "      x += 0.25;",
      "    }",
      "    double r = s;",
      "    r %= y + 1.5;",
      "    return s + r * x + (x++) + x;",
      "  }",
      "  /** A ternary with effects in a loop's condition. */",
      "  @Differentiable static double effectsInConditions(double x, double y) {",
      "    double s = x;",
      "    int k = 0;",
      "    while ((k++ % 2 == 0 ? s : s * y) < 4 && k < 15) {",
      "      s = s * 1.2 + (k > 2 ? y : x) * 0.3;",
      "    }",
      "    for (int i = 0, j = 10; i < j; i += 2, j--) {",
      "      s += (i * j % 3 == 0 ? x : y) * 0.1;",
      "    }",
      "    return s * k;",
      "  }",
      "  /** Functions made in a loop, called in the next iteration; a stream over a callee. */",
      "  @Differentiable static double lambdasAcross(double x, double y) {",
      "    double s = x;",
      "    double[] box = {y, x};",
      "    DoubleUnaryOperator f = t -> t * box[0] + box[1];",
      "    for (int i = 0; i < 4; i++) {",
      "      box[i % 2] = f.applyAsDouble(s) * 0.5;",
      "      s = s + Math.sin(box[0]) * box[1];",
      "    }",
      "    final double last = s;",
      "    return s + IntStream.range(0, 3).mapToDouble(k -> g(k, last * 0.1) + weigh(k, y)).sum()",
      "        + IntStream.range(0, 3).mapToDouble(k -> box[k % 2] * last).max().getAsDouble();",
      "  }",
      "  enum Mode { SCALE, SHIFT, BOTH }",
      "  static final Mode[] MODES = Mode.values();",
      "  /** A switch on an int made of a double in a checkpointed loop. */",
      "  @Checkpointed(snapshots = 2)",
      "  @Differentiable static double ckptSelectors(double x, double y, int n) {",
      "    double s = x;",
      "    for (int i = 0; i < n; i++) {",
      "      switch ((int) (Math.abs(s) * 3) % 3) {",
      "        case 0 -> s = s * y;",
      "        case 1 -> s = s + x * 0.5;",
      "        default -> s = Math.sin(s) + y;",
      "      }",
      "      s = switch (s > 1 ? 1 : 0) { case 1 -> s * 0.5; default -> s * 1.1 + 0.01 * x; };",
      "    }",
      "    return s;",
      "  }",
      "  /** Switches on an enum and on a string in a loop, their selectors made of doubles. */",
      "  @Differentiable(order = 2) static double selectors(double x, double y) {",
      "    double s = x;",
      "    for (int i = 0; i < 6; i++) {",
      "      Mode mode = MODES[(int) (Math.abs(s) * 3) % 3];",
      "      switch (mode) {",
      "        case SCALE -> s = s * y;",
      "        case SHIFT -> s = s + x * 0.5;",
      "        default -> s = Math.sin(s) + y;",
      "      }",
      "      String tag = s > 1 ? \"big\" : \"small\";",
      "      s = switch (tag) { case \"big\" -> s * 0.5; default -> s * 1.1 + 0.01 * x; };",
      "    }",
      "    return s;",
      "  }",
      "  /** A labelled continue to a do loop's condition; a switch whose selector has effects. */",
      "  @SuppressWarnings(\"fallthrough\")",
      "  @Differentiable(order = 2) static double doLabels(double x, double y) {",
      "    double s = x;",
      "    int k = 0;",
      "    int r = 0;",
      "    outer:",
      "    do {",
      "      r++;",
      "      for (int j = 0; j < 4; j++) {",
      "        switch (k++ % 3) {",
      "          case 0:",
      "            double t = s * y;",
      "            s = t + 0.1;",
      "          case 1:",
      "            t = s * x;",
      "            if (t > 1.5) {",
      "              continue outer;",
      "            }",
      "            s = s + t * 0.2;",
      "            break;",
      "          default:",
      "            if (s < -2) {",
      "              return s * r;",
      "            }",
      "        }",
      "        s = s * 0.9 + 0.05 * y;",
      "      }",
      "    } while (r < 5 && s < 3);",
      "    return s * k;",
      "  }",
      "  /** Integer arithmetic that overflows, on counters and on locals, into doubles. */",
      "  @Differentiable(order = 2) static double wraps(double x, double y) {",
      "    double s = 0;",
      "    int p = 7;",
      "    for (int i = 1; i < 5; i++) {",
      "      for (int j = 0; j < i; j++) {",
      "        s += (i * 1_500_000_000 + j * 2_000_000_000) * 1e-9 * x * s + y * j;",
      "        p *= 100_003;",
      "        s += (p % 1000) * 1e-4 * x * y;",
      "      }",
      "      long big = Long.MAX_VALUE - i;",
      "      s = s * 0.5 + (big + 3 * i) * 1e-19 * y + (int) (i * 3_000_000_000L) * 1e-10 * x;",
      "    }",
      "    return s;",
      "  }",
      "  /** A switch expression as a callee's argument, and a nested switch expression. */",
      "  @Differentiable(order = 2) static double switchArguments(double x, double y) {",
      "    double s = x;",
      "    for (int k = 0; k < 5; k++) {",
      "      s = g(k, switch (k % 3) {",
      "        case 0 -> s * 0.5;",
      "        case 1 -> switch (k) { case 1 -> y * s; default -> { double q = s + y; yield q * q; } };",
      "        default -> weigh(k, s) * 0.3;",
      "      }) * 0.2 + s * 0.5;",
      "    }",
      "    return s;",
      "  }",
      "  /** The same switches in a checkpointed loop (an error before session 53). */",
      "  @Checkpointed(snapshots = 2)",
      "  @Differentiable static double ckptStringSwitch(double x, double y, int n, Mode first) {",
      "    double s = x;",
      "    for (int i = 0; i < n; i++) {",
      "      if (i == 0) {",
      "        switch (first) {",
      "          case SCALE -> s = s * y * 0.5;",
      "          case SHIFT -> s = s - x;",
      "          default -> s = s + y;",
      "        }",
      "      }",
      "      Mode mode = MODES[(int) (Math.abs(s) * 3) % 3];",
      "      switch (mode) {",
      "        case SCALE -> s = s * y;",
      "        case SHIFT -> s = s + x * 0.5;",
      "        default -> s = Math.sin(s) + y;",
      "      }",
      "      String tag = s > 1 ? \"big\" : \"small\";",
      "      s = switch (tag) { case \"big\" -> s * 0.5; default -> s * 1.1 + 0.01 * x; };",
      "    }",
      "    return s;",
      "  }",
      "}");

  /**
   * More of the same, in a class of its own: cut into parts of one statement, the generated
   * class of one class holding all of these needs more than the 65,535 constants a class file
   * may hold (javac: "too many constants").
   */
  private static final String THIRD = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "import java.util.function.DoubleUnaryOperator;",
      "final class Third {",
      "  static int calls;",
      "  static int counted(int i) { calls++; return i; }",
      "  static double weigh(int k, double x) { return Math.sin(x) * (k + 1); }",
      "  @DerivativeOf(\"weigh\") @Differentiable",
      "  static double weighX(int k, double x) { return Math.cos(x) * (k + 1); }",
      "  /** A checkpointed loop whose state is a parameter, a float, a narrowed int, a long. */",
      "  @SuppressWarnings(\"lossy-conversions\")",
      "  @Checkpointed(snapshots = 2)",
      "  @Differentiable static double ckptState(double x, double y, int n) {",
      "    float f = 0.5f;",
      "    int k = 3;",
      "    boolean flip = false;",
      "    long m = Long.MAX_VALUE - 5;",
      "    for (int i = 0; i < n; i++) {",
      "      x = x * 0.9 + 0.1 * Math.sin(y * f);",
      "      f *= 1.01f + (float) (0.001 * x);",
      "      k += x;",
      "      m++;",
      "      flip = !flip;",
      "      y = flip ? y + 0.01 * x : y - 0.02 * k;",
      "      if (m < 0) {",
      "        y = y * 1.5;",
      "      }",
      "    }",
      "    return x * y + f + k + (m % 7);",
      "  }",
      "  /** A throw from inside a switch in a checkpointed loop, after snapshots thinned. */",
      "  @Checkpointed(snapshots = 2)",
      "  @Differentiable static double ckptThrows(double x, double y, int n) {",
      "    double s = x;",
      "    for (int i = 0; i < n; i++) {",
      "      switch (i % 3) {",
      "        case 0 -> s = s * y + 0.1;",
      "        case 1 -> {",
      "          if (s > 5) {",
      "            throw new IllegalStateException(\"s = \" + s + \" at \" + i);",
      "          }",
      "          s += x;",
      "        }",
      "        default -> s = weigh(i, s) + s;",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "  /** A vector function: a labelled break from a colon switch in nested loops. */",
      "  @Differentiable static double[] vecSwitch(double[] w, double x) {",
      "    double[] r = new double[3];",
      "    outer:",
      "    for (int i = 0; i < w.length; i++) {",
      "      for (int j = 0; j < 3; j++) {",
      "        switch ((i + j) % 3) {",
      "          case 0:",
      "            r[j] += w[i] * x;",
      "            break;",
      "          case 1:",
      "            if (r[j] > 3) {",
      "              break outer;",
      "            }",
      "            r[j] = r[j] * 0.5 + Math.sin(w[i]);",
      "            break;",
      "          default:",
      "            r[j] -= x * x;",
      "        }",
      "      }",
      "    }",
      "    return r;",
      "  }",
      "  static double dot(double[] a, double[] b) {",
      "    double s = 0;",
      "    for (int i = 0; i < a.length; i++) { s += a[i] * b[i] * b[i]; }",
      "    return s;",
      "  }",
      "  @DerivativeOf(value = \"dot\", wrt = \"a\") @Differentiable",
      "  static double[] dotA(double[] a, double[] b) {",
      "    double[] r = new double[a.length];",
      "    for (int i = 0; i < a.length; i++) { r[i] = b[i] * b[i]; }",
      "    return r;",
      "  }",
      "  @DerivativeOf(value = \"dot\", wrt = \"b\") @Differentiable",
      "  static double[] dotB(double[] a, double[] b) {",
      "    double[] r = new double[a.length];",
      "    for (int i = 0; i < a.length; i++) { r[i] = 2 * a[i] * b[i]; }",
      "    return r;",
      "  }",
      "  /** A local array read in a loop with a switch, then written after it and in it. */",
      "  @Differentiable(order = 2) static double overwritten(double[] w, double x) {",
      "    double[] c = new double[w.length];",
      "    for (int i = 0; i < w.length; i++) {",
      "      c[i] = w[i] * x;",
      "    }",
      "    double s = x;",
      "    outer:",
      "    for (int r = 0; r < 3; r++) {",
      "      for (int i = 0; i < c.length; i++) {",
      "        switch ((r + i) % 3) {",
      "          case 0 -> s = s * 0.8 + Math.sin(c[i] * s);",
      "          case 1 -> {",
      "            s += dot(c, w) * 0.1;",
      "            c[i] = c[i] * 0.5 + s * 0.1;",
      "            if (s > 6) {",
      "              continue outer;",
      "            }",
      "          }",
      "          default -> s = s + c[(i + 1) % c.length] * x;",
      "        }",
      "      }",
      "    }",
      "    c[0] = s * 2;",
      "    java.util.Arrays.fill(c, 1, c.length, s * x);",
      "    return s + dot(c, c) * 0.01 + c[0];",
      "  }",
      "  /** The same with a function and a stream over the array, at order 1. */",
      "  @Differentiable static double overwrittenFunctions(double[] w, double x) {",
      "    double[] c = w.clone();",
      "    DoubleUnaryOperator f = t -> t * c[0] + c[c.length - 1];",
      "    double s = x;",
      "    for (int r = 0; r < 4; r++) {",
      "      s = f.applyAsDouble(s) * 0.5 + java.util.Arrays.stream(c).map(v -> v * s0(v, x)).sum() * 0.1;",
      "      c[r % c.length] = s * 0.3;",
      "    }",
      "    c[0] = -s;",
      "    return f.applyAsDouble(x) + s;",
      "  }",
      "  @Differentiable static double s0(double v, double x) { return v * x + 1; }",
      "  /** Loops inside switch expressions inside a loop; a switch expression as a condition. */",
      "  @SuppressWarnings(\"fallthrough\")",
      "  @Differentiable(order = 2) static double loopsInSwitches(double x, double y) {",
      "    double s = x;",
      "    int k = 0;",
      "    while (switch (k % 2) { case 0 -> s < 3; default -> s * y < 2.5; } && k < 9) {",
      "      s = switch (k % 3) {",
      "        case 0 -> {",
      "          double t = 0;",
      "          for (int j = 0; j < k + 1; j++) {",
      "            t += Math.sin(s * j + x);",
      "            if (t > 1.5) {",
      "              break;",
      "            }",
      "          }",
      "          yield s + t * 0.3;",
      "        }",
      "        case 1 -> {",
      "          double t = s;",
      "          int j = 0;",
      "          do {",
      "            t = t * 0.7 + y * 0.2;",
      "            j++;",
      "          } while (t > 0.5 && j < 4);",
      "          yield t + s * 0.6;",
      "        }",
      "        default -> s * 1.1 + x * y * 0.1;",
      "      };",
      "      switch (k) {",
      "        default:",
      "          s += 0.01 * x;",
      "        case 2:",
      "          for (int j = 0; j < 3; j++) {",
      "            if (j == 1) {",
      "              continue;",
      "            }",
      "            s += 0.02 * y * j;",
      "          }",
      "          break;",
      "        case 4:",
      "          s *= 1.05;",
      "      }",
      "      k++;",
      "    }",
      "    for (int i = 0; i < switch (k % 3) { case 0 -> 1; case 1 -> 2; default -> 3; }; i++) {",
      "      s = s * (0.9 + 0.01 * i) + x * 0.1;",
      "    }",
      "    return s * k;",
      "  }",
      "  /** Compound assignments to elements: narrowing, indices with effects, in a switch. */",
      "  @SuppressWarnings({\"lossy-conversions\", \"fallthrough\"})",
      "  @Differentiable(order = 2) static double elements(double[] w, double x) {",
      "    int[] k = new int[3];",
      "    double[] c = new double[4];",
      "    int i = 0;",
      "    for (int r = 0; r < 6; r++) {",
      "      switch (r % 3) {",
      "        case 0:",
      "          k[r % 3] += x * 2.5;",
      "          c[i++ % 4] += x * c[i % 4] + w[r % w.length];",
      "        case 1:",
      "          c[(i += 2) % 4] *= 1 + 0.1 * x;",
      "          c[i % 4]++;",
      "          break;",
      "        default:",
      "          c[--i & 3] -= c[(i + 1) & 3]-- * x;",
      "          k[2] *= x + 1;",
      "      }",
      "    }",
      "    double s = 0;",
      "    for (int j = 0; j < 4; j++) {",
      "      s += c[j] * c[j] * (k[j % 3] + 1);",
      "    }",
      "    return s;",
      "  }",
      "  @SuppressWarnings(\"lossy-conversions\")",
      "  @Differentiable static float floatElements(float[] w, float x) {",
      "    float[] c = new float[3];",
      "    int i = 0;",
      "    for (int r = 0; r < 5; r++) {",
      "      c[i++ % 3] += x * w[r % w.length];",
      "      c[i % 3] *= 1.5f + x;",
      "      c[(i + 1) % 3] /= 1 + c[i % 3] * c[i % 3];",
      "      c[r % 3]++;",
      "    }",
      "    return c[0] * c[1] + c[2];",
      "  }",
      "  record V(double a, double b) {",
      "    V scale(double k) { return new V(a * k, b * k); }",
      "    double dot(V o) { return a * o.a() + b * o.b(); }",
      "  }",
      "  /** A record as a checkpointed loop's state, assigned in a switch. */",
      "  @Checkpointed(snapshots = 2)",
      "  @Differentiable static double ckptRecords(double x, double y, int n) {",
      "    V v = new V(x, y);",
      "    for (int i = 0; i < n; i++) {",
      "      switch (i % 3) {",
      "        case 0 -> v = v.scale(0.9 + 0.01 * x);",
      "        case 1 -> v = new V(v.b(), Math.sin(v.a()) + y * 0.1);",
      "        default -> {",
      "          if (v.dot(v) > 1) {",
      "            v = v.scale(0.5);",
      "          } else {",
      "            v = new V(v.a() + 0.1, v.b() * 1.1);",
      "          }",
      "        }",
      "      }",
      "      if (v.a() > 3) {",
      "        return v.dot(new V(x, y));",
      "      }",
      "    }",
      "    return v.a() * v.b() + x;",
      "  }",
      "  /** Records through labelled jumps and an early return of a component, at order 2. */",
      "  @Differentiable(order = 2) static double recordJumps(V p, double x) {",
      "    V v = p;",
      "    outer:",
      "    for (int i = 0; i < 4; i++) {",
      "      for (int j = 0; j < 3; j++) {",
      "        switch (j) {",
      "          case 0: v = v.scale(x); break;",
      "          case 1: v = new V(v.b() + x, v.a()); break;",
      "          default: v = new V(v.a() * 0.5, v.b() * 0.5 + 0.1);",
      "        }",
      "        if (v.dot(p) > 4) {",
      "          return v.a() * x;",
      "        }",
      "        if (v.a() < -1) {",
      "          continue outer;",
      "        }",
      "      }",
      "      v = v.scale(0.8);",
      "    }",
      "    return v.dot(v) + p.a();",
      "  }",
      "  /** A method taking a function, inlined at each call. */",
      "  @Differentiable static double integrate(double a, double b, int n,",
      "      java.util.function.DoubleUnaryOperator f) {",
      "    double h = (b - a) / n;",
      "    double s = 0.5 * (f.applyAsDouble(a) + f.applyAsDouble(b));",
      "    for (int i = 1; i < n; i++) {",
      "      s += f.applyAsDouble(a + i * h);",
      "    }",
      "    return s * h;",
      "  }",
      "  @Differentiable(order = 2) static double[] pair(double x, double y) {",
      "    double[] r = new double[2];",
      "    for (int i = 0; i < 3; i++) {",
      "      switch (i) {",
      "        case 0 -> r[0] += x * y;",
      "        case 1 -> r[1] = Math.sin(r[0] + x);",
      "        default -> r[0] = r[0] * r[1] + y;",
      "      }",
      "    }",
      "    return r;",
      "  }",
      "  /** Block lambdas with switches and loops, passed to an inlined method in a loop. */",
      "  @Differentiable static double functionsInLoops(double x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      final int mode = k;",
      "      final double scale = s * 0.1 + x;",
      "      s += integrate(0, 1 + 0.1 * k, 4 + k, t -> {",
      "        double u = switch (mode) {",
      "          case 0 -> t * scale;",
      "          case 1 -> { double q = 0; for (int j = 0; j < 3; j++) { q += Math.sin(t * j) * y; } yield q; }",
      "          default -> t * t * y;",
      "        };",
      "        return u * u + scale;",
      "      });",
      "    }",
      "    return s;",
      "  }",
      "  /** A vector callee of order 2 in a loop, with arguments that have effects. */",
      "  @Differentiable(order = 2) static double vectorCallees(double x, double y) {",
      "    double s = 0;",
      "    double[] args = {x, y, x * y};",
      "    int i = 0;",
      "    while (i < 5) {",
      "      double[] r = pair(args[i++ % 3], args[i % 3] + s * 0.1);",
      "      switch (i % 2) {",
      "        case 0 -> s += r[0] * 0.3;",
      "        default -> s = s * 0.5 + r[1];",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "  /** Inner loops whose start or bound an iteration changes, around and inside them. */",
      "  @Differentiable(order = 2) static double movingBounds(double x, double y) {",
      "    double s = x;",
      "    int k = 0;",
      "    int m = 4;",
      "    for (int i = 0; i < 6; i++) {",
      "      for (int j = 0; j < i; j++) {",
      "        s = s * 0.9 + x * j * 0.1;",
      "        if (j == 2) {",
      "          i++;",
      "        }",
      "      }",
      "      int j = k;",
      "      for (; j < 5; j++) {",
      "        s = s * 0.95 + y * j * 0.05;",
      "      }",
      "      k += 2;",
      "      for (int q = 0; q < m; q++) {",
      "        s = s + Math.sin(s * y) * 0.1;",
      "        if (s > 2) {",
      "          m--;",
      "        }",
      "      }",
      "      for (int q = m; q >= k - 6; q--) {",
      "        s = s * 0.97 + x * 0.02;",
      "      }",
      "      m = m + 1;",
      "    }",
      "    return s * (k + m);",
      "  }",
      "  /** Loops that only add into sums (their reverse may follow each iteration). */",
      "  @Differentiable static double sums(double[] w, double x, double y) {",
      "    double total = x;",
      "    double other = 0;",
      "    double scale = x * y;",
      "    for (int i = 0; i < w.length; i++) {",
      "      double t = 0;",
      "      for (int j = 0; j <= i; j++) {",
      "        switch (j % 3) {",
      "          case 0 -> t += Math.sin(w[j] * x);",
      "          case 1 -> t += weigh(j, w[j] * y);",
      "          default -> t -= Math.max(w[j], x) * 0.1;",
      "        }",
      "      }",
      "      if (t > 0) {",
      "        total += t * t;",
      "      } else {",
      "        other -= t * scale;",
      "      }",
      "      total += x * 0.01 * t;",
      "    }",
      "    return total / w.length - other * scale + y;",
      "  }",
      "  @Differentiable(order = 2) static double sums2(double[] w, double x, double y) {",
      "    double total = 0;",
      "    double scale = x * y;",
      "    for (int i = 0; i < w.length; i++) {",
      "      double t = 0;",
      "      for (int j = 0; j <= i; j++) {",
      "        t += switch (j % 2) { case 0 -> Math.sin(w[j] * x); default -> weigh(j, w[j] * y); };",
      "      }",
      "      total = total + t * t * scale;",
      "    }",
      "    return -total * 2 / scale + y;",
      "  }",
      "  static double risky(int k, double x) {",
      "    if (x > 3) {",
      "      throw new IllegalArgumentException(\"x = \" + x + \", k = \" + k);",
      "    }",
      "    return x * x * k;",
      "  }",
      "  @DerivativeOf(\"risky\")",
      "  static double riskyX(int k, double x) { return 2 * x * k; }",
      "  /** Effects in a switch's selector and in a ruled call's arguments; the target throws. */",
      "  @Differentiable static double effectsAndThrows(double x, double y) {",
      "    double s = 0;",
      "    int k = 0;",
      "    for (int i = 0; i < 5; i++) {",
      "      switch (counted(k++) % 3) {",
      "        case 0 -> s += risky(counted(i), s * 0.5 + x * i);",
      "        case 1 -> s = s * y + risky(counted(i + 1), y);",
      "        default -> {",
      "          if (s > 10) {",
      "            throw new IllegalStateException(\"s = \" + s);",
      "          }",
      "          s += x;",
      "        }",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "  record St(double p, double q) {",
      "    @Differentiable(order = 2) St stepped(double k, int n) {",
      "      double a = p;",
      "      double b = q;",
      "      for (int i = 0; i < n % 3 + 1; i++) {",
      "        double t = a;",
      "        a = a * Math.cos(k) + 0.1 * b;",
      "        b = b - 0.2 * k * t;",
      "        if (a > 2) {",
      "          a = a * 0.5;",
      "        }",
      "      }",
      "      return new St(a, b);",
      "    }",
      "    @Differentiable(order = 2) double energy(double w) {",
      "      double e = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        e += p * p * w + q * q * (i + 1);",
      "      }",
      "      return e;",
      "    }",
      "  }",
      "  /** A record's methods with loops, called in a switch in a loop with effects, order 2. */",
      "  @Differentiable(order = 2) static double recordCalls(double x, double y) {",
      "    St s = new St(x, y);",
      "    St other = new St(y, x * y);",
      "    int k = 0;",
      "    double acc = 0;",
      "    for (int i = 0; i < 5; i++) {",
      "      switch (i % 3) {",
      "        case 0 -> s = s.stepped(x * 0.5, k++);",
      "        case 1 -> {",
      "          other = other.stepped(s.p() * 0.3 + y, k += 2);",
      "          acc += other.energy(x);",
      "        }",
      "        default -> {",
      "          if (acc > 30) {",
      "            return acc + s.energy(y);",
      "          }",
      "          s = new St(s.p() + other.q() * 0.1, s.q());",
      "        }",
      "      }",
      "    }",
      "    return acc + s.energy(x) * other.p();",
      "  }",
      "  /** A record's method with a loop, called in a checkpointed loop. */",
      "  @Checkpointed(snapshots = 2)",
      "  @Differentiable static double ckptRecordCalls(double x, double y, int n) {",
      "    St s = new St(x, y);",
      "    double acc = 0;",
      "    int k = 1;",
      "    for (int i = 0; i < n; i++) {",
      "      s = new St(s.q() * Math.cos(x + k++ * 0.1), s.p() * 0.9 + acc * 0.01);",
      "      acc += s.energy(y) * 0.1;",
      "    }",
      "    return acc + s.p();",
      "  }",
      "  static final class Dist {",
      "    private double scale;",
      "    Dist(double scale) {",
      "      this.scale = scale;",
      "    }",
      "    void setScale(double s) {",
      "      calls++;",
      "      scale = s;",
      "    }",
      "    double scale() {",
      "      return scale;",
      "    }",
      "    double cdf(double x) {",
      "      return 1 / (1 + Math.exp(-x * scale));",
      "    }",
      "  }",
      "  @DerivativeOf(owner = Dist.class, value = \"cdf\")",
      "  static double cdfX(Dist d, double x) {",
      "    double c = d.cdf(x);",
      "    return c * (1 - c) * d.scale();",
      "  }",
      "  /** A ruled method of an object a setter changes between its calls, in a switch. */",
      "  @Differentiable static double mutated(double x, double y, Dist d) {",
      "    d.setScale(2);",
      "    Dist local = new Dist(0.5);",
      "    double s = 0;",
      "    for (int i = 0; i < 5; i++) {",
      "      switch (i % 3) {",
      "        case 0 -> s += d.cdf(x * i + s * 0.1) + local.cdf(s);",
      "        case 1 -> {",
      "          d.setScale(1 + 0.5 * i);",
      "          s = s * y + d.cdf(s - y);",
      "        }",
      "        default -> {",
      "          local.setScale(i);",
      "          s = s * 0.5 + local.cdf(x * y) * d.cdf(y);",
      "        }",
      "      }",
      "    }",
      "    return s + d.cdf(x);",
      "  }",
      "  static final int SHIFTED = 1 << 33;",
      "  /** Integer constants, overloads and overflow, Java's semantics in every member. */",
      "  @SuppressWarnings(\"lossy-conversions\")",
      "  @Differentiable(order = 2) static double integers(double x, double y) {",
      "    int min = Integer.MIN_VALUE;",
      "    long big = Long.MIN_VALUE;",
      "    double s = x * (1 << 33) + y * (1_000_000 * 1_000_000) * 1e-9 + x * (-7 % 3)",
      "        + y * (byte) 200 + x * (int) 3.9e10 * 1e-9 + y * (long) 1e19 * 1e-18",
      "        + x * (0.1f + 0.2f) + y * (float) 0.1 + x * (1 / 3 * 3) + SHIFTED * y;",
      "    s += x * Math.abs(min) * 1e-9 + y * Math.abs(big) * 1e-18 + x * Math.max(min, -5)",
      "        + y * Math.min(3L, big) * 1e-18 + x * Math.abs(-0.0f) + y * Math.round(x * 10)",
      "        + x * Math.floorDiv(-7, 2) + y * Math.floorMod(-7, 3) + x * (min / -1) * 1e-9",
      "        + y * (min - 1) * 1e-9 + x * Math.abs((int) (y * 1e3 + 4e9)) * 1e-9;",
      "    int k = 5;",
      "    for (int i = 0; i < 4; i++) {",
      "      k <<= 13;",
      "      k ^= i;",
      "      long m = (long) k << 40 >>> 3;",
      "      s += ((i << 31) >> 31) * x + (k >> 3) * 1e-9 * y + (m >>> 61) * x * y",
      "          + Math.abs(k) * 1e-10 * x + (k & 0xffff) * 1e-6 * y;",
      "      k += x * 1e9 > 0 ? 7e9 : -5;",
      "    }",
      "    return s;",
      "  }",
      "  /** A stream's compensated sum decides a branch; another's only reaches the value. */",
      "  @Differentiable(order = 2) static double compensated(@NoDerivative double[] w, double y) {",
      "    double t = java.util.Arrays.stream(w).sum();",
      "    double s = t > 0.5 ? 3 * y * y : y * y;",
      "    return s + java.util.Arrays.stream(w).map(v -> v * y).sum();",
      "  }",
      "  static double scale = 1;",
      "  private static double hidden = 2;",
      "  static void reset() {",
      "    scale = 1;",
      "    hidden = 2;",
      "  }",
      "  static void bump(int i) {",
      "    calls++;",
      "    scale *= 1.5;",
      "    hidden -= 0.25 * i;",
      "  }",
      "  /** Static fields a call in the loop changes, read before and after it, in a switch. */",
      "  @Differentiable static double fieldsInLoops(double x, double y) {",
      "    reset();",
      "    double s = 0;",
      "    for (int i = 0; i < 5; i++) {",
      "      s += x * scale + y * hidden;",
      "      switch (i % 3) {",
      "        case 0 -> bump(i);",
      "        case 1 -> s = s * scale * 0.5 + Math.sin(x * hidden);",
      "        default -> {",
      "          double before = scale;",
      "          bump(i);",
      "          s = s * (scale - before) + hidden * y;",
      "        }",
      "      }",
      "    }",
      "    return s * scale + x * hidden;",
      "  }",
      "  enum Phase { SCALE, SHIFT, TURN }",
      "  /** Enum and string locals carried from one iteration to the next (not checkpointed:",
      "   *  an error, objects are no checkpoint's state). */",
      "  @Differentiable(order = 2) static double objectsInLoops(double x, double y, int n) {",
      "    Phase phase = Phase.SCALE;",
      "    String tag = \"a\";",
      "    double s = x;",
      "    for (int i = 0; i < n; i++) {",
      "      if (phase == Phase.SCALE) {",
      "        s = s * y;",
      "        phase = Phase.SHIFT;",
      "      } else if (phase == Phase.SHIFT) {",
      "        s = s + x;",
      "        if (s > 1) {",
      "          phase = Phase.TURN;",
      "        } else {",
      "          phase = Phase.SCALE;",
      "        }",
      "      } else {",
      "        s = Math.sin(s) + 0.5;",
      "        phase = Phase.SCALE;",
      "      }",
      "      if (tag == \"a\") {",
      "        s = s * 1.1;",
      "        tag = \"b\";",
      "      } else {",
      "        s = s * 0.9 + 0.01 * y;",
      "        tag = \"a\";",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "  /** Heun's method with step rejection: trips and steps that depend on the parameters. */",
      "  @Checkpointed(snapshots = 3)",
      "  @Differentiable static double adaptive(double a, double b) {",
      "    double t = 0;",
      "    double y = 1;",
      "    double h = 0.5;",
      "    int k = 0;",
      "    while (t < 2 && k < 60) {",
      "      k++;",
      "      double f1 = -a * y + Math.sin(b * t);",
      "      double yp = y + h * f1;",
      "      double f2 = -a * yp + Math.sin(b * (t + h));",
      "      double err = Math.abs(0.5 * h * (f2 - f1));",
      "      if (err > 0.01) {",
      "        h *= 0.5;",
      "        continue;",
      "      }",
      "      y = y + 0.5 * h * (f1 + f2);",
      "      t += h;",
      "      if (err < 0.002) {",
      "        h = Math.min(h * 1.5, 2 - t > 1e-9 ? 2 - t : h);",
      "      }",
      "    }",
      "    return y * t;",
      "  }",
      "}");

  private static final List<CompiledOnce> COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Combined", SOURCE, 1, 2);

  private static final List<CompiledOnce> MORE_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.More", MORE, 1, 2);
  private static final List<CompiledOnce> THIRD_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Third", THIRD, 1, 2);

  private static MemberAgreement method(Compiled compiled, String name, boolean... active) {
    return MemberAgreement.of(compiled, "com.example.Combined", name, active);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void switchesInLoops(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    // early returns at the first and the second test, none; each with the same branches
    // within the differences' reach
    for (double[] p : new double[][] {{0.4, 0.9}, {0.3, 1.7}, {-0.6, 0.8}, {1.2, 1.1},
        {0.9, 1.1}, {-1.5, 1.4}, {-1.5, -0.7}}) {
      method(compiled, "switchLoop", true, true).checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
    }
    // 12, 6, 2 and 4 trips, with and without the continue
    for (double[] p : new double[][] {{-1.4, -0.8}, {-1.5, 0.2}, {-0.6, -1.2}, {-0.6, -0.4},
        {-0.4, 1.9}, {-0.1, -0.7}}) {
      method(compiled, "doSwitch", true, true).checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
    }
    // 30, 7, 5 and 2 trips, the same branches within the differences' reach
    for (double[] p : new double[][] {{0.4, 0.9}, {-0.9, 2.0}, {0.7, 2.0}, {1.5, 1.7}}) {
      method(compiled, "yieldWhile", true, true).checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
    }
    MemberAgreement labeled = method(compiled, "labeled", true, true);
    // no jump, break outer at once, continue outer thrice, twice then break outer
    double[][] ws = {{0.3, 1.7, 0.9}, {2.3, 1.7, 0.9}, {1.7, 0.3, 0.7}, {2.5, 1.8, -1.9},
        {1.3, -2.5, -0.3}};
    double[] xs = {0.8, 1.4, -1.3, -0.7, 0.9};
    for (int i = 0; i < xs.length; i++) {
      labeled.checkScalar(new Object[] {ws[i], xs[i]}, 1, 1e-7);
    }
    MemberAgreement checkpointed = method(compiled, "ckptSwitch", true, true, false);
    for (int n : new int[] {0, 1, 5, 12}) {
      checkpointed.checkScalar(new Object[] {0.5, 0.3, n}, 1, 1e-7);
      checkpointed.checkScalar(new Object[] {1.5, 0.9, n}, 1, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void countersAndNarrowing(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    MemberAgreement counters = method(compiled, "counters", true, true, false);
    for (int n : new int[] {0, 5, 7}) {
      counters.checkScalar(new Object[] {0.4, 0.9, n}, 1, 1e-7);
      counters.checkScalar(new Object[] {0.1, 0.3, n}, 1, 1e-7);
    }
    MemberAgreement spans = method(compiled, "spans", true, true, false, false);
    int[][] bounds = {{0, 3}, {3, 0}, {Integer.MAX_VALUE - 1, Integer.MIN_VALUE + 1},
        {Integer.MIN_VALUE + 1, Integer.MIN_VALUE + 3},
        {Integer.MAX_VALUE - 2, Integer.MAX_VALUE - 1}};
    for (int[] b : bounds) {
      spans.checkScalar(new Object[] {0.4, 0.7, b[0], b[1]}, 2, 1e-7);
    }
    for (double[] p : new double[][] {{0.4, 0.9}, {1.3, -0.7}, {-0.6, 0.8}}) {
      method(compiled, "narrowing", true, true).checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
      method(compiled, "ternaryConditions", true, true)
          .checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
      method(compiled, "floats", true, true)
          .checkScalar(new Object[] {(float) p[0], (float) p[1]}, 1, 2e-3);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void rulesLambdasAndStreams(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    MemberAgreement ruled = method(compiled, "ruled", true, true);
    ruled.checkScalar(new Object[] {new double[] {0.3, -0.7, 1.1}, 0.6}, 2, 1e-7);
    ruled.checkScalar(new Object[] {new double[] {0.8, 0.2}, -0.4}, 2, 1e-7);
    MemberAgreement effects = method(compiled, "ruledEffects", true, true);
    effects.checkScalar(new Object[] {0.3, 0.8}, 1, 1e-7);
    for (double[] p : new double[][] {{0.4, 0.9}, {1.3, -0.7}}) {
      method(compiled, "lambdas", true, true).checkScalar(new Object[] {p[0], p[1]}, 1, 1e-7);
    }
    MemberAgreement streams = method(compiled, "streamsInLoop", true, true);
    streams.checkScalar(new Object[] {new double[] {0.3, -0.7, 1.1}, 0.6}, 1, 1e-7);
    streams.checkScalar(new Object[] {new double[] {0.3, -0.7, 1.1}, -0.6}, 1, 1e-7);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void kinks(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    MemberAgreement kinks = method(compiled, "kinks", true, true);
    kinks.checkScalarAt(new double[][] {{0.7, 0.7}, {-0.6, -0.6}}, 1, 1e-7);
    MemberAgreement curved = method(compiled, "curvedTies", true, true);
    for (double[] p : new double[][] {{0.4, 0.9}, {1.3, -0.7}, {0.8, 0.5}}) {
      kinks.checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
      curved.checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
    }
    MemberAgreement callees = method(compiled, "callsTies", true, true);
    callees.checkScalarAt(new double[][] {{0.4, 0.9}, {1.3, -0.7}}, 2, 1e-7);
    for (double[] p : new double[][] {{0.7, 0.7}, {-0.6, -0.6}, {1.1, 1.1}}) {
      meanOfTheSides(kinks, p[0], p[1]);
      meanOfTheSides(curved, p[0], p[1]);
      meanOfTheSides(callees, p[0], p[1]);
    }
    MemberAgreement smooth = method(compiled, "smooth", true, true);
    smooth.checkScalarAt(new double[][] {{0.4, 0.9}, {-0.7, 1.3}, {-1.3, -0.8}}, 2, 1e-7);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void selectorsLabelsAndWrapping(int options) throws Exception {
    Compiled compiled = MORE_COMPILED.get(options).get();
    // every decision the same within the differences' reach
    MemberAgreement checkpointed =
        MemberAgreement.of(compiled, "com.example.More", "ckptSelectors", true, true, false);
    for (double[] p : new double[][] {{-1.25, -0.95}, {0.8, 1.05}, {1.85, 0.85}, {-0.25, 0.65}}) {
      for (int n : new int[] {0, 3, 9}) {
        checkpointed.checkScalar(new Object[] {p[0], p[1], n}, 1, 1e-7);
      }
    }
    Object[] modes = compiled.load("com.example.More$Mode").getEnumConstants();
    MemberAgreement strings = MemberAgreement.of(compiled, "com.example.More",
        "ckptStringSwitch", true, true, false, false);
    for (double[] p : new double[][] {{-1.25, -0.95}, {0.8, 1.1}, {1.25, 1.45}, {-0.25, 0.55}}) {
      MemberAgreement.of(compiled, "com.example.More", "selectors", true, true)
          .checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
      for (int n : new int[] {0, 1, 6}) {
        strings.checkScalar(new Object[] {p[0], p[1], n, modes[n % 3]}, 1, 1e-7);
      }
    }
    // a null selector throws NullPointerException, as in Java (whose message the JVM writes,
    // naming javac's own call of ordinal())
    for (String member : List.of("Gradient", "Tangent", "Pullback")) {
      Object[] more = member.equals("Gradient") ? new Object[0]
          : member.equals("Tangent") ? new Object[] {1.0, 1.0} : new Object[] {1.0, new double[2]};
      assertThrows(NullPointerException.class,
          () -> strings.member(member, new Object[] {0.8, 1.1, 3, null}, more), member);
    }
    // returns from the switch, the labelled continue, neither
    for (double[] p : new double[][] {{0.4, 0.9}, {1.3, -0.7}, {-0.6, 0.8}, {-2.5, 1.0},
        {-1.3, 1.5}, {0.9, 2.1}}) {
      MemberAgreement.of(compiled, "com.example.More", "doLabels", true, true)
          .checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
    }
    for (double[] p : new double[][] {{0.4, 0.9}, {1.3, -0.7}, {-0.6, 0.8}, {1.2, 1.6}}) {
      MemberAgreement.of(compiled, "com.example.More", "wraps", true, true)
          .checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
      MemberAgreement.of(compiled, "com.example.More", "switchArguments", true, true)
          .checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void checkpointStateThrowsAndVectors(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement state =
        MemberAgreement.of(compiled, "com.example.Third", "ckptState", true, true, false);
    // the float in the state: differences of its rounding are noise of about 1e-6
    for (int n : new int[] {0, 1, 5, 9}) {
      state.checkScalar(new Object[] {0.5, 0.3, n}, 1, 2e-5);
      state.checkScalar(new Object[] {0.8, -0.4, n}, 1, 2e-5);
    }
    MemberAgreement throwing =
        MemberAgreement.of(compiled, "com.example.Third", "ckptThrows", true, true, false);
    throwing.checkScalar(new Object[] {0.5, 0.3, 11}, 1, 1e-7);
    throwing.checkThrows(new Object[] {2.5, 1.9, 11}, 1);
    throwing.checkThrows(new Object[] {0.3, 1.2, 40}, 1);
    MemberAgreement vector = MemberAgreement.of(compiled, "com.example.Third", "vecSwitch",
        true, true);
    vector.checkVector(new Object[] {new double[] {0.3, 0.7, -0.4, 1.1}, 0.8});
    vector.checkVector(new Object[] {new double[] {2.3, 3.7, 2.4, 1.1, 0.5}, 1.8});
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void arraysOverwrittenAfterReads(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement overwritten =
        MemberAgreement.of(compiled, "com.example.Third", "overwritten", true, true);
    overwritten.checkScalar(new Object[] {new double[] {0.3, -0.7, 1.1}, 0.6}, 2, 1e-7);
    overwritten.checkScalar(new Object[] {new double[] {0.8, 0.2, 0.5, 0.9}, 1.4}, 2, 1e-7);
    MemberAgreement functions =
        MemberAgreement.of(compiled, "com.example.Third", "overwrittenFunctions", true, true);
    functions.checkScalar(new Object[] {new double[] {0.3, -0.7, 1.1}, 0.6}, 1, 1e-7);
    functions.checkScalar(new Object[] {new double[] {0.8, 0.2}, -0.4}, 1, 1e-7);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void loopsInsideSwitches(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement loops =
        MemberAgreement.of(compiled, "com.example.Third", "loopsInSwitches", true, true);
    // 9, 9 (an inner break), 4, 6 and 5 trips, the same within the differences' reach
    loops.checkScalarAt(new double[][] {{-0.6, 0.8}, {0.2, 0.6}, {-0.1, 2.0}, {1.4, 0.8},
        {-2.0, -0.6}}, 2, 1e-7);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void elementCompoundAssignments(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement elements =
        MemberAgreement.of(compiled, "com.example.Third", "elements", true, true);
    elements.checkScalar(new Object[] {new double[] {0.3, -0.7, 1.1}, 0.6}, 2, 1e-7);
    elements.checkScalar(new Object[] {new double[] {0.8, 0.2}, -0.3}, 2, 1e-7);
    elements.checkScalar(new Object[] {new double[] {0.8, 0.2}, 1.3}, 2, 1e-7);
    MemberAgreement floats =
        MemberAgreement.of(compiled, "com.example.Third", "floatElements", true, true);
    floats.checkScalar(new Object[] {new float[] {0.3f, -0.7f, 1.1f}, 0.6f}, 1, 2e-3);
    floats.checkScalar(new Object[] {new float[] {0.8f, 0.2f}, -0.3f}, 1, 2e-3);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void recordsInJumpsAndCheckpoints(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement checkpointed =
        MemberAgreement.of(compiled, "com.example.Third", "ckptRecords", true, true, false);
    for (int n : new int[] {0, 2, 7, 13}) {
      checkpointed.checkScalar(new Object[] {0.5, 0.3, n}, 1, 1e-7);
      checkpointed.checkScalar(new Object[] {1.2, 0.9, n}, 1, 1e-7);
    }
    Class<?> record = compiled.load("com.example.Third$V");
    MemberAgreement jumps =
        MemberAgreement.of(compiled, "com.example.Third", "recordJumps", true, true);
    for (double[] p : new double[][] {{0.4, 0.9, 0.7}, {1.3, -0.7, 1.1}, {-0.6, 0.8, -1.2}}) {
      jumps.checkScalar(new Object[] {Records.make(record, p[0], p[1]), p[2]}, 2, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void functionsAndVectorCallees(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    for (double[] p : new double[][] {{0.4, 0.9}, {1.3, -0.7}, {-0.6, 0.8}}) {
      MemberAgreement.of(compiled, "com.example.Third", "functionsInLoops", true, true)
          .checkScalar(new Object[] {p[0], p[1]}, 1, 1e-7);
      MemberAgreement.of(compiled, "com.example.Third", "vectorCallees", true, true)
          .checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void movingStartsAndBounds(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    for (double[] p : new double[][] {{0.4, 0.9}, {1.3, -0.7}, {-0.6, 0.8}, {2.5, 1.5}}) {
      MemberAgreement.of(compiled, "com.example.Third", "movingBounds", true, true)
          .checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void loopsThatOnlyAdd(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement sums =
        MemberAgreement.of(compiled, "com.example.Third", "sums", true, true, true);
    MemberAgreement sums2 =
        MemberAgreement.of(compiled, "com.example.Third", "sums2", true, true, true);
    for (double[] w : new double[][] {{0.3, -0.7, 1.1, 0.5}, {-0.8, -0.2, -1.5}}) {
      sums.checkScalar(new Object[] {w, 0.6, 0.9}, 1, 1e-7);
      sums.checkScalar(new Object[] {w, -0.4, 1.3}, 1, 1e-7);
      sums2.checkScalar(new Object[] {w, 0.6, 0.9}, 2, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void effectsBeforeThrows(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement members =
        MemberAgreement.of(compiled, "com.example.Third", "effectsAndThrows", true, true);
    members.checkScalar(new Object[] {0.4, 0.9}, 1, 1e-7);
    members.checkScalar(new Object[] {-0.6, 1.3}, 1, 1e-7);
    // the target throws in the second iteration, in the fourth; the method in the third
    members.checkThrows(new Object[] {0.4, 3.5}, 1);
    members.checkThrows(new Object[] {1.2, 0.9}, 1);
    members.checkThrows(new Object[] {0.5, 2.5}, 1);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void recordMethodsWithLoops(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement calls =
        MemberAgreement.of(compiled, "com.example.Third", "recordCalls", true, true);
    calls.checkScalarAt(new double[][] {{0.4, 0.9}, {1.3, -0.7}, {-0.6, 0.8}}, 2, 1e-7);
    MemberAgreement checkpointed =
        MemberAgreement.of(compiled, "com.example.Third", "ckptRecordCalls", true, true, false);
    for (int n : new int[] {0, 1, 6}) {
      checkpointed.checkScalar(new Object[] {0.4, 0.9, n}, 1, 1e-7);
      checkpointed.checkScalar(new Object[] {-0.6, 0.8, n}, 1, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void effectsCheckpointsAndIncrements(int options) throws Exception {
    Compiled compiled = MORE_COMPILED.get(options).get();
    for (double[] p : new double[][] {{0.4, 0.9}, {1.3, -0.7}, {-0.6, 0.8}}) {
      Object[] arguments = {p[0], p[1]};
      MemberAgreement.of(compiled, "com.example.More", "effectfulArguments", true, true)
          .checkScalar(arguments, 1, 1e-7);
      MemberAgreement.of(compiled, "com.example.More", "effectfulArguments2", true, true)
          .checkScalar(arguments, 2, 1e-7);
      MemberAgreement.of(compiled, "com.example.More", "increments", true, true)
          .checkScalar(arguments, 2, 1e-7);
      MemberAgreement.of(compiled, "com.example.More", "effectsInConditions", true, true)
          .checkScalar(arguments, 1, 1e-7);
      MemberAgreement.of(compiled, "com.example.More", "lambdasAcross", true, true)
          .checkScalar(arguments, 1, 1e-7);
    }
    // 24, 42 and 300 trips (by 3), the same within the differences' reach
    for (double[] p : new double[][] {{2.8, 2.8}, {1.3, 2.2}, {0.1, -0.8}}) {
      MemberAgreement.of(compiled, "com.example.More", "ckptWhile", true, true)
          .checkScalar(new Object[] {p[0], p[1]}, 1, 1e-7);
    }
    MemberAgreement checkpointed =
        MemberAgreement.of(compiled, "com.example.More", "ckptDo", true, true, false);
    for (int n : new int[] {0, 1, 4, 11}) {
      checkpointed.checkScalar(new Object[] {0.5, 0.3, n}, 1, 1e-7);
      checkpointed.checkScalar(new Object[] {1.2, 0.9, n}, 1, 1e-7);
    }
    // all 23 trips, a return in the 15th and in the first
    for (double[] p : new double[][] {{1.3, -0.3}, {0.7, -0.9}, {-0.5, 0.7}, {2.5, 2.4}}) {
      checkpointed.checkScalar(new Object[] {p[0], p[1], 23}, 1, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void ruledObjectsChangedBetweenCalls(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    java.lang.reflect.Constructor<?> constructor =
        compiled.load("com.example.Third$Dist").getDeclaredConstructor(double.class);
    constructor.setAccessible(true);
    MemberAgreement members =
        MemberAgreement.of(compiled, "com.example.Third", "mutated", true, true, false);
    for (double[] p : new double[][] {{0.4, 0.9}, {1.3, -0.7}, {-0.6, 0.8}}) {
      members.checkScalar(new Object[] {p[0], p[1], constructor.newInstance(3.0)}, 1, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void integerSemantics(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement members =
        MemberAgreement.of(compiled, "com.example.Third", "integers", true, true);
    members.checkScalarAt(new double[][] {{0.4, 0.9}, {1.3, -0.7}, {-0.6, 0.8}}, 2, 1e-7);
  }

  /**
   * {1e16, 1, 1, -1e16} sums to 2 with the stream's compensation and to 0 without it: every
   * member takes the branch the method takes, also mGradient, which leaves out the other
   * stream's compensation (only the value reads it).
   */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void compensatedSumsDecideBranches(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement members =
        MemberAgreement.of(compiled, "com.example.Third", "compensated", false, true);
    double y = 0.7;
    double[] w = {1e16, 1, 1, -1e16};
    assertWithMessage("the compensated sum").that(java.util.Arrays.stream(w).sum()).isEqualTo(2);
    double value = (double) members.value(new Object[] {w, y});
    double[] written = new double[1];
    assertWithMessage("mValueAndGradient's value")
        .that((double) members.member("ValueAndGradient", new Object[] {w, y}, (Object) written))
        .isEqualTo(value);
    // d/dy: 6y from the branch taken (2y from the other), plus the other sum's derivative,
    // the plain sum of w, between 0 and 2 as rounding goes
    double[] gradient = (double[]) members.member("Gradient", new Object[] {w, y});
    assertWithMessage("mGradient").that(gradient[0]).isWithin(1.01).of(6 * y + 1);
    assertWithMessage("mValueAndGradient").that(written[0]).isWithin(1.01).of(6 * y + 1);
    double tangent = (double) members.member("Tangent", new Object[] {w, y}, 1.0);
    assertWithMessage("mTangent").that(tangent).isWithin(1.01).of(6 * y + 1);
    double[][] hessian = (double[][]) members.member("Hessian", new Object[] {w, y});
    assertWithMessage("mHessian").that(hessian[0][0]).isEqualTo(6.0);
    double[] product = (double[]) members.member("HessianVector", new Object[] {w, y},
        (Object) new double[] {1});
    assertWithMessage("mHessianVector").that(product[0]).isEqualTo(6.0);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void fieldsChangedInLoops(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement members =
        MemberAgreement.of(compiled, "com.example.Third", "fieldsInLoops", true, true);
    members.checkScalarAt(new double[][] {{0.4, 0.9}, {1.3, -0.7}, {-0.6, 0.8}}, 1, 1e-7);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void objectsCarriedThroughIterations(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement members =
        MemberAgreement.of(compiled, "com.example.Third", "objectsInLoops", true, true, false);
    for (int n : new int[] {0, 1, 2, 5, 11}) {
      members.checkScalar(new Object[] {0.4, 0.9, n}, 2, 1e-7);
      members.checkScalar(new Object[] {0.8, 1.3, n}, 2, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void adaptiveStepsCheckpointed(int options) throws Exception {
    Compiled compiled = THIRD_COMPILED.get(options).get();
    MemberAgreement members =
        MemberAgreement.of(compiled, "com.example.Third", "adaptive", true, true);
    // 9 to 26 trips, 1 to 4 steps rejected, 0 to 5 grown, every decision the same at every
    // point of the differences
    members.checkScalarAt(new double[][] {{0.1, -0.2}, {0.4, 1.5}, {0.8, -1.8}, {1.1, 0.7},
        {1.4, -1.1}, {2.1, 0.2}}, 1, 1e-7);
  }

  /**
   * At a tie x = y of a method of two doubles whose kinks all meet there: the gradient and
   * the Hessian are the means of their values just off the tie on either side (the guide's
   * half to each argument, 0 for abs, whose derivatives are the pieces' own), and every member
   * keeps that convention: mValueAndGradient, mPullback, mTangent along each axis,
   * mHessianVector along each axis and mValueGradientAndHessian.
   */
  private static void meanOfTheSides(MemberAgreement members, double x, double y)
      throws Exception {
    String where = members.name() + " at (" + x + ", " + y + ")";
    Object[] tie = {x, y};
    double delta = 1e-9;
    double[] above = (double[]) members.member("Gradient", new Object[] {x + delta, y});
    double[] below = (double[]) members.member("Gradient", new Object[] {x - delta, y});
    double[][] hAbove = (double[][]) members.member("Hessian", new Object[] {x + delta, y});
    double[][] hBelow = (double[][]) members.member("Hessian", new Object[] {x - delta, y});
    double[] gradient = (double[]) members.member("Gradient", tie);
    double[][] hessian = (double[][]) members.member("Hessian", tie);
    double[] written = new double[2];
    members.member("ValueAndGradient", tie, (Object) written);
    double[] pulled = new double[2];
    members.member("Pullback", tie, 1.0, pulled);
    double[] gradientOfHessian = new double[2];
    double[][] writtenHessian = new double[2][2];
    members.member("ValueGradientAndHessian", tie, gradientOfHessian, writtenHessian);
    for (int i = 0; i < 2; i++) {
      double mean = (above[i] + below[i]) / 2;
      assertWithMessage("gradient[%s] against the sides %s and %s, %s", i, above[i], below[i],
          where).that(gradient[i])
          .isWithin(1e-6 * Math.max(1, Math.abs(above[i]) + Math.abs(below[i]))).of(mean);
      assertWithMessage("mValueAndGradient[%s], %s", i, where).that(written[i])
          .isWithin(1e-12).of(gradient[i]);
      assertWithMessage("mPullback[%s], %s", i, where).that(pulled[i])
          .isWithin(1e-12).of(gradient[i]);
      assertWithMessage("mValueGradientAndHessian's gradient[%s], %s", i, where)
          .that(gradientOfHessian[i]).isWithin(1e-12).of(gradient[i]);
      double[] unit = new double[2];
      unit[i] = 1;
      double tangent = ((Number) members.member("Tangent", tie, unit[0], unit[1])).doubleValue();
      assertWithMessage("mTangent along axis %s, %s", i, where).that(tangent)
          .isWithin(1e-12).of(gradient[i]);
      double[] column = (double[]) members.member("HessianVector", tie, (Object) unit);
      for (int j = 0; j < 2; j++) {
        double meanH = (hAbove[j][i] + hBelow[j][i]) / 2;
        assertWithMessage("H[%s][%s] against the sides %s and %s, %s", j, i, hAbove[j][i],
            hBelow[j][i], where).that(hessian[j][i])
            .isWithin(1e-6 * Math.max(1, Math.abs(hAbove[j][i]) + Math.abs(hBelow[j][i])))
            .of(meanH);
        assertWithMessage("(H e%s)[%s], %s", i, j, where).that(column[j])
            .isWithin(1e-12).of(hessian[j][i]);
        assertWithMessage("mValueGradientAndHessian's H[%s][%s], %s", j, i, where)
            .that(writtenHessian[j][i]).isWithin(1e-12).of(hessian[j][i]);
      }
    }
  }
}
