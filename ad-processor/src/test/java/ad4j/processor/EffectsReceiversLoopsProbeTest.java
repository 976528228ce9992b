package ad4j.processor;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.FreshStateChecks;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Probes of session 58 (hunt for silently wrong derivatives) that found nothing wrong, kept so
 * that they stay so: methods with effects (counters, a mutable static field read after helpers
 * change it, a {@code @NoDerivative} array a helper writes, a seeded generator, an iterator),
 * instance methods whose receiver's fields change during the call and fields a subclass hides,
 * loops (a recurrence through an array, triangular and labeled nests, counters stepped by other
 * than 1, changed in the body or overflowing, long counters, {@code while (true)} with several
 * breaks), and {@code @Checkpointed} loops with state of every kind, a bound changed in the
 * body, parameters and a value record assigned after the loop. Each method is compiled whole
 * and cut into parts of 2 statements; every member from the same fresh state, against
 * differences of order 8 and forward against reverse, leaving the state one run leaves
 * ({@link FreshStateChecks}).
 */
@ExtendWith(TapeIsEmpty.class)
class EffectsReceiversLoopsProbeTest {
  private static final String EFFECTS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Effects {",
      "  static int calls;",
      "  static double scale;",
      "  static double[] buffer;",
      "  static java.util.Random random;",
      "  static void reset() { calls = 0; scale = 1.25; buffer = new double[] {1, 2, 3}; random = new java.util.Random(5); }",
      "  static String state() { return calls + \" \" + scale + \" \" + java.util.Arrays.toString(buffer) + \" \" + random.nextInt(); }",
      "  static Object argument2() { return buffer; }",
      "  static void grow() { calls++; scale = scale * 1.5 + 0.1; }",
      "  static double current() { return scale; }",
      "  static int bump() { return ++calls; }",
      "  static final double[] TABLE = {0.5, -1, 2};",
      "  static void add(double[] into, int i) { into[i] += scale; calls++; }",
      "  @Differentiable static double loop(double x, double y, @NoDerivative double[] b) {",
      "    double s = y * scale;",
      "    for (int i = 0; i < 6; i++) {",
      "      double t = Math.sin(s * x) * b[i % 3] + scale * x;",
      "      grow();",
      "      add(b, (i + 1) % 3);",
      "      s = t * 0.5 + s * current() * 0.1 + random.nextDouble() * y;",
      "      if (calls % 4 == 1) { s = s * b[0] * 0.1; }",
      "    }",
      "    grow();",
      "    return s * scale + b[1] * x;",
      "  }",
      "  @Differentiable static double counted(double x, double y) {",
      "    double s = x;",
      "    int k = bump();",
      "    for (int i = 0; i < k + 3; i++) {",
      "      s = s * y + calls * x;",
      "      grow();",
      "      if (calls % 2 == 0) { s += random.nextDouble() * x; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double iterated(double x, double y) {",
      "    double s = 0;",
      "    java.util.Iterator<Integer> values = java.util.List.of(1, 2, 3).iterator();",
      "    while (values.hasNext()) { int v = values.next().intValue(); s += v * x * y; grow(); }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double readsOnly(double x, double y) {",
      "    double s = x * x * scale;",
      "    for (int i = 0; i < 3; i++) { s = s * y * 0.5 + TABLE[i] * Math.sin(x * scale); }",
      "    return s;",
      "  }",
      "}",
      "");

  private static final String RECEIVERS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Receivers {",
      "  static class Base {",
      "    double k = 1.5;",
      "    int n;",
      "    double[] table = {1, 2, 3};",
      "    static Base last;",
      "    static Object receiver() { last = new Base(); return last; }",
      "    static void reset() { last = null; }",
      "    static String state() { return last == null ? \"-\" : last.k + \" \" + last.n + \" \" + java.util.Arrays.toString(last.table); }",
      "    void bump() { k = k * 2 + 0.25; n++; }",
      "    final double k() { return k; }",
      "    void poke() { table[n % 3] += k; }",
      "    @Differentiable(order = 2) double scaled(double x) { return x * x * k + 0.5 * x; }",
      "    @Differentiable double changing(double x, double y) {",
      "      double s = x * k;",
      "      bump();",
      "      s += y * k + x * k();",
      "      for (int i = 0; i < 4; i++) { s = s * 0.5 + Math.sin(x * this.k) * table[i % 3]; bump(); poke(); }",
      "      return s * n + table[1] * x;",
      "    }",
      "    @Differentiable double untilFive(double x, double y) {",
      "      double s = x;",
      "      while (n < 5) { s = s * k * 0.3 + y * table[n % 3]; bump(); if (s > 1e3) { break; } }",
      "      return s;",
      "    }",
      "  }",
      "  static final class Derived extends Base {",
      "    double k = -3;",
      "    static Derived lastDerived;",
      "    static Object receiver() { lastDerived = new Derived(); return lastDerived; }",
      "    static void reset() { lastDerived = null; }",
      "    static String state() { return lastDerived == null ? \"-\" : lastDerived.k + \" \" + ((Base) lastDerived).k + \" \" + lastDerived.n; }",
      "    @Differentiable double hidden(double x, double y) {",
      "      double s = x * k + scaled(y) * x;",
      "      return s + scaled(x * y) * k + k() * y;",
      "    }",
      "    @Differentiable(order = 2) double hiddenTwice(double x, double y) {",
      "      return scaled(x) * y + k * x * y * y;",
      "    }",
      "  }",
      "}",
      "");

  private static final String LOOPS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Loops {",
      "  static void reset() {}",
      "  static String state() { return \"\"; }",
      "  @Differentiable(order = 2) static double recurrence(double x, double y) {",
      "    double[] a = new double[12];",
      "    a[0] = y;",
      "    for (int i = 1; i < a.length; i++) { a[i] = a[i - 1] * x + Math.sin(a[i / 2]) * 0.1; }",
      "    double s = 0;",
      "    for (int i = 0; i < a.length; i += 3) { s += a[i] * a[a.length - 1 - i]; }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double triangular(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 0; i < 6; i++) {",
      "      for (int j = i; j >= 0; j -= 2) { s = s * 0.7 + Math.cos(x * i - y * j) * (i + 1); }",
      "    }",
      "    for (long i = 3_000_000_000L; i < 3_000_000_005L; i++) {",
      "      for (long j = 2_999_999_998L; j < i; j++) { s = s * 0.9 + x * y * (j % 5); }",
      "    }",
      "    for (int i = 0; i < 6; i++) {",
      "      for (int j = 0; j < i; j += 2) {",
      "        for (int k = j; k <= i; k++) { s = s * 0.95 + Math.cos(x * k + y * j); }",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double labeled(double x, double y) {",
      "    double s = x;",
      "    outer:",
      "    for (int i = 0; i < 7; i++) {",
      "      for (int j = 0; j < 7; j++) {",
      "        if (j > i) { continue outer; }",
      "        if ((i + j) % 4 == 3) { continue; }",
      "        if (i * j == 12) { break outer; }",
      "        s = s * 0.9 + x * y * j - Math.sin(s) * 0.1;",
      "      }",
      "      s += y;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double changedCounters(double x, double y) {",
      "    double s = 0;",
      "    for (long i = 5_000_000_000L; i < 5_000_000_040L; i += 3) {",
      "      s = s * 0.8 + x * (i % 7) + y * y;",
      "      if (i % 5 == 0) { i += 4; }",
      "    }",
      "    int n = 10;",
      "    for (int k = 0; k < n; k++) { s = s + x * k; if (k == 3) { n = 6; } }",
      "    for (int i = 0; i < 20; i++) {",
      "      s = s * 0.9 + x * i;",
      "      if (i % 3 == 0) { i += 2; }",
      "      if (s > 1e9) { i = 100; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double breaks(double x, double y) {",
      "    double s = x;",
      "    int k = 0;",
      "    while (true) {",
      "      k++;",
      "      if (k > 50) { break; }",
      "      if (s > 40) { s = s - y; break; }",
      "      if (k % 3 == 0) { s = s * 1.1 + y; continue; }",
      "      s = s + x * y * 0.3;",
      "      if (s < -40) { break; }",
      "    }",
      "    return s * k;",
      "  }",
      "  @Differentiable(order = 2) static double steps(double x, double y) {",
      "    double s = y;",
      "    for (int i = Integer.MAX_VALUE - 5; i > 0; i += 2) { s = s * x + i * 1e-9 * y; }",
      "    for (long i = Long.MAX_VALUE - 10; i > 0; i += 4) { s = s * x + (i % 7) * y; }",
      "    for (int i = 10; i >= 0; i -= 3) { s = s * x + i * y; }",
      "    for (int i = -3; i < 20; i += 7) { for (int j = i; j < 2 * i; j++) { s += Math.sin(x * j) * y; } }",
      "    for (int i = 1; i < 100; i *= 2) { s = s + x * i * y; }",
      "    for (int i = 1000; i > 1; i /= 3) { s = s * 0.5 + Math.sqrt(i) * x; }",
      "    for (int i = 0, j = 10; i < j; i++, j--) { s += i * j * x * y; }",
      "    int m = 20;",
      "    do { s = s * x + 1; m -= 3; } while (m > 0);",
      "    for (int j = 10; j-- > 0;) { s += Math.sqrt(j + x * x) * y; }",
      "    return s;",
      "  }",
      "}",
      "");

  private static final String CHECKPOINTED = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.Differentiable;",
      "final class Snapshots {",
      "  static void reset() {}",
      "  static String state() { return \"\"; }",
      "  static int argument2() { return 9; }",
      "  @Checkpointed(snapshots = 4) @Differentiable static double replaced(double x, double y) {",
      "    double[] w = {1, 2, 3};",
      "    double s = y;",
      "    for (int i = 0; i < 23; i++) { s = Math.sin(s * x) * w[i % 3] + 0.3 * s; }",
      "    w = new double[] {5, 6, 7};",
      "    return s * w[0];",
      "  }",
      "  @Checkpointed(snapshots = 4) @Differentiable static double mixedState(double x, double y) {",
      "    double s = y;",
      "    long n = 3_000_000_000L;",
      "    int k = 0;",
      "    float f = 0.5f;",
      "    while (true) {",
      "      if (k > 40) { break; }",
      "      k += 3;",
      "      if (s > 100) { break; }",
      "      n -= 7;",
      "      if (n % 5 == 0) { s = s * 1.01; continue; }",
      "      f = f * 0.99f + (float) (0.001 * k);",
      "      s = Math.sin(s * x) + y * 0.5 * s + f * 1e-3;",
      "      if (k == 19) { k = 25; }",
      "    }",
      "    return s + n % 11;",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double bound(double x, double y) {",
      "    double s = y;",
      "    int bound = 10;",
      "    for (int i = 0; i < bound; i += 2) {",
      "      s = s * Math.cos(x * i) + y;",
      "      if (i == 4) { bound = 16; }",
      "      if (s > 1e6) { return s * x; }",
      "    }",
      "    return s;",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double longCounter(double x, double y) {",
      "    double s = 0;",
      "    double t = x;",
      "    for (long i = 10_000_000_000L; i > 10_000_000_000L - 9; i--) { t = t * 0.9 + y * (i % 3); s += t * t; }",
      "    return s;",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double parameters(double x, double y, int n) {",
      "    double s = y;",
      "    for (int i = 0; i < n; i++) { s = Math.sin(s * x) + 0.3 * s * y; }",
      "    x = 100;",
      "    y *= 3;",
      "    n = 0;",
      "    return s + x + y + n;",
      "  }",
      "  @Checkpointed(snapshots = 2) @Differentiable static double record(double x, double y) {",
      "    Pair v = new Pair(x, y);",
      "    if (y > 0) { v = new Pair(y, x * 2); }",
      "    double s = y;",
      "    for (int i = 0; i < 7; i++) { s = Math.sin(s * v.a()) + 0.3 * s * v.b(); }",
      "    v = new Pair(1, 2);",
      "    return s + v.a();",
      "  }",
      "  record Pair(double a, double b) {}",
      "}",
      "");

  private static final List<CompiledOnce> EFFECTS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Effects", EFFECTS, 2);
  private static final List<CompiledOnce> RECEIVERS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Receivers", RECEIVERS, 2);
  private static final List<CompiledOnce> LOOPS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Loops", LOOPS, 2);
  private static final List<CompiledOnce> CHECKPOINTED_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Snapshots", CHECKPOINTED, 2);

  private static final double[][] POINTS = {{0.3, 0.7}, {0.45, -0.6}};

  static Stream<Arguments> methods() {
    List<Arguments> cases = new ArrayList<>();
    for (int version = 0; version < 2; version++) {
      for (String name : List.of("loop", "counted", "iterated", "readsOnly")) {
        cases.add(Arguments.of(EFFECTS_COMPILED.get(version), "com.example.Effects", name));
      }
      for (String name : List.of("changing", "untilFive")) {
        cases.add(Arguments.of(RECEIVERS_COMPILED.get(version), "com.example.Receivers$Base",
            name));
      }
      for (String name : List.of("hidden", "hiddenTwice")) {
        cases.add(Arguments.of(RECEIVERS_COMPILED.get(version),
            "com.example.Receivers$Derived", name));
      }
      for (String name : List.of("recurrence", "triangular", "labeled", "changedCounters",
          "breaks", "steps")) {
        cases.add(Arguments.of(LOOPS_COMPILED.get(version), "com.example.Loops", name));
      }
      for (String name : List.of("replaced", "mixedState", "bound", "longCounter",
          "parameters", "record")) {
        cases.add(Arguments.of(CHECKPOINTED_COMPILED.get(version), "com.example.Snapshots",
            name));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{1}.{2}, {0}")
  @MethodSource("methods")
  void everyMemberAgreesAndLeavesTheStateOneRunLeaves(CompiledOnce compiled, String userClass,
      String name) throws Exception {
    for (double[] point : POINTS) {
      FreshStateChecks.check(compiled.get(), userClass, name, point);
    }
  }
}
