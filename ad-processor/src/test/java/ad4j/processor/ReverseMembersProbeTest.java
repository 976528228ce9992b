package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Constructor;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A probe of the members of long methods, which share one reverse sweep
 * ({@code plan/ReverseMembers}, {@code write/MembersOverPullback}): the public
 * {@code mValueAndGradient}, {@code mGradient} and {@code mPullback} over the private
 * {@code mPullback(Tape, ...)}. Each method is compiled whole (its own sweeps) and cut into
 * parts of one and of two statements (every member over the one sweep), and every member is
 * checked against independent references by {@link MemberAgreement}: values bit for bit,
 * differences of order 8 of the user's method, the members against each other (two pullbacks
 * with different seeds onto the same adjoints, forward against reverse), the gradient again
 * after the other members ran, the Hessian against differences of the gradient and H·v, the
 * Jacobian against differences, and a method's effects run once per member call. The methods
 * hold loops with {@code break}, {@code continue} and value-dependent trip counts, early
 * returns, local arrays written in place and aliased, records, {@code float}, an instance
 * method, calls of other {@code @Differentiable} methods (one given the same array twice),
 * order 2, a vector result, a checkpointed loop and {@code long} counters. No derivative here
 * was found wrong; the class keeps the probe's strongest cases.
 */
@ExtendWith(TapeIsEmpty.class)
class ReverseMembersProbeTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.Checkpointed;",
      "final class Probe {",
      "  static int calls;",
      "  static void tick() { calls++; }",
      "  record V(double a, double b) {}",
      "  @Differentiable static double helper(double u, double[] w) {",
      "    double s = u;",
      "    for (double e : w) { s = s * Math.cos(e) + u * e; }",
      "    return s;",
      "  }",
      "  @Differentiable static double loops(double x, double[] w, int n, double y) {",
      "    tick();",
      "    double s = x * y;",
      "    long k = 0;",
      "    for (int i = 0; i < w.length; i++) {",
      "      if (w[i] > 0) { s = s * Math.sin(w[i]) + x; k += 2; }",
      "      else { s -= w[i] * y; continue; }",
      "      if (s > 5) { break; }",
      "      s = s + k * 0.01 * x;",
      "    }",
      "    int m = 0;",
      "    while (s * s < 3 + n) { s = s * 1.3 + 0.1 * y; m++; if (m > 40) break; }",
      "    if (m > 3) { return s * m + helper(x, w); }",
      "    double t = helper(s, w) * Math.exp(-y * y);",
      "    return t + s + m;",
      "  }",
      "  @Differentiable static double early(double x, double y, double z) {",
      "    double a = x * y;",
      "    if (a > 0.3) { a = a * z; if (z < 0) { return a + Math.log(1 + x * x); } }",
      "    double b = a - y * z;",
      "    for (int i = 0; i < 3; i++) { b = b * x + Math.sin(b); if (b > 2) return b * y; }",
      "    return b + a * a;",
      "  }",
      "  @Differentiable static double localArr(double[] w, double x) {",
      "    double[] c = w.clone();",
      "    double[] d = new double[w.length + 1];",
      "    for (int i = 0; i < c.length; i++) {",
      "      c[i] = c[i] * x + (i > 0 ? c[i - 1] : 0);",
      "      d[i + 1] = d[i] + c[i] * c[i];",
      "    }",
      "    c[0] += d[w.length];",
      "    double[] e = c;",
      "    e[c.length - 1] *= x;",
      "    double s = 0;",
      "    for (int i = 0; i < c.length; i++) s += c[i] * d[i];",
      "    return s + e[0];",
      "  }",
      "  @Differentiable static double recs(V v, double x) {",
      "    V u = new V(v.a() * x, v.b() + x);",
      "    if (u.a() > u.b()) { u = new V(u.b(), u.a() * u.a()); }",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      u = new V(u.a() * 0.9 + u.b() * 0.1, Math.sin(u.a()));",
      "      s += u.b();",
      "    }",
      "    return s * u.a();",
      "  }",
      "  @Differentiable static float flt(float x, float[] w, float y) {",
      "    float s = x;",
      "    for (int i = 0; i < w.length; i++) { s = s * w[i] + y; if (s > 4f) s = s * 0.5f; }",
      "    return s * (float) Math.sin(s) + x * y;",
      "  }",
      "  @Differentiable(order = 2) static double two(double x, double[] w, double y) {",
      "    double s = x * y;",
      "    for (int i = 0; i < w.length; i++) {",
      "      s = s * Math.cos(w[i] * y) + x * w[i];",
      "      if (s > 2) { s = Math.sqrt(s); }",
      "    }",
      "    x = x * s;",
      "    double r = s * s + x;",
      "    if (y > 0) { r = r * y; } else { r = r - y * x; }",
      "    return r + helper2(r, y);",
      "  }",
      "  @Differentiable(order = 2) static double helper2(double a, double b) {",
      "    a = a * b;",
      "    return a * Math.exp(-b * b) + b * a;",
      "  }",
      "  @Differentiable static double[] vec(double x, double[] w, double y) {",
      "    double[] r = new double[3];",
      "    double s = x;",
      "    for (int i = 0; i < w.length; i++) { s = s * w[i] + y; r[i % 3] += s * x; }",
      "    if (s > 1) { r[0] = r[0] * y; } else {",
      "    r[2] = Math.sin(r[1]) + s; }",
      "    return r;",
      "  }",
      "  @Checkpointed(snapshots = 2)",
      "  @Differentiable static double ckpt(double x, double y, int n) {",
      "    double s = x;",
      "    double t = y;",
      "    for (int i = 0; i < n; i++) {",
      "      double u = s;",
      "      s = s * Math.cos(t) + 0.1 * y;",
      "      t = t + 0.2 * u * x;",
      "      if (s > 3) { s = s * 0.5; }",
      "    }",
      "    return s * t;",
      "  }",
      "  @Differentiable static double trip(double x, double y) {",
      "    double s = x;",
      "    int k = 0;",
      "    double q = 0.0; while (q < y) { s = s * x + q; k++; q += 0.25; }",
      "    long big = 3000000000L;",
      "    for (long j = big; j < big + 3; j++) { s = s + (j - big) * x * 0.1; }",
      "    return s * k;",
      "  }",
      "  @Differentiable static double pair(double[] u, double[] v, double x) {",
      "    double s = x;",
      "    for (int i = 0; i < u.length; i++) { s = s * u[i] + v[i] * Math.sin(s); }",
      "    return s + helper(x * v[0], u);",
      "  }",
      "  /** The same array passed twice, to a callee whose pullback adds into both. */",
      "  @Differentiable static double aliased(double[] w, double x) {",
      "    return pair(w, w, x) * pair(w, w, -x) + helper(x, w);",
      "  }",
      "  double scale = 1.5;",
      "  @Differentiable double inst(double x, double[] w) {",
      "    double s = x * scale;",
      "    for (int i = 0; i < w.length; i++) {",
      "      s = s * w[i] + scale;",
      "      if (s < 0) { return s * x; }",
      "    }",
      "    return s + helper(x, w) * scale;",
      "  }",
      "}");

  private static final List<CompiledOnce> COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Probe", SOURCE, 1, 2);

  private static MemberAgreement method(Compiled compiled, String name, boolean... active) {
    return MemberAgreement.of(compiled, "com.example.Probe", name, active);
  }

  /** 0: whole; 1 and 2: cut into parts of that many statements. */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void loopsBranchesAndEarlyReturns(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    MemberAgreement loops = method(compiled, "loops", true, true, false, true);
    loops.checkScalar(new Object[] {0.4, new double[] {0.3, -0.7, 1.1}, 2, 0.9}, 1, 1e-7);
    loops.checkScalar(new Object[] {1.3, new double[] {0.3, 0.7, 1.1, 0.2}, 0, 0.7}, 1, 1e-7);
    MemberAgreement early = method(compiled, "early", true, true, true);
    for (double[] p : new double[][] {{0.7, 0.8, -0.5}, {0.1, 0.2, 0.3}, {1.5, 0.9, 0.9}}) {
      early.checkScalar(new Object[] {p[0], p[1], p[2]}, 1, 1e-7);
    }
    MemberAgreement trip = method(compiled, "trip", true, true);
    trip.checkScalar(new Object[] {0.7, 0.9}, 1, 1e-7);
    MemberAgreement checkpointed = method(compiled, "ckpt", true, true, false);
    for (int n : new int[] {0, 3, 20}) {
      checkpointed.checkScalar(new Object[] {0.8, 0.3, n}, 1, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void arraysRecordsFloatsAndReceivers(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    MemberAgreement arrays = method(compiled, "localArr", true, true);
    arrays.checkScalar(new Object[] {new double[] {0.3, -0.7, 1.1}, 0.8}, 1, 1e-7);
    Class<?> record = compiled.load("com.example.Probe$V");
    MemberAgreement records = method(compiled, "recs", true, true);
    records.checkScalar(new Object[] {Records.make(record, 0.4, 0.9), 0.7}, 1, 1e-7);
    // differences of a float method are rounding noise of about 1e-5 of its value
    method(compiled, "flt", true, true, true)
        .checkScalar(new Object[] {0.4f, new float[] {0.3f, 1.7f, 0.9f}, 0.9f}, 1, 2e-4);
    Constructor<?> constructor = compiled.load("com.example.Probe").getDeclaredConstructor();
    constructor.setAccessible(true);
    MemberAgreement instance = method(compiled, "inst", true, true)
        .on(constructor.newInstance());
    instance.checkScalar(new Object[] {0.5, new double[] {0.3, 0.8, 1.2}}, 1, 1e-7);
    instance.checkScalar(new Object[] {0.5, new double[] {0.3, -0.8, 1.2}}, 1, 1e-7);
    MemberAgreement aliased = method(compiled, "aliased", true, true);
    aliased.checkScalar(new Object[] {new double[] {0.3, -0.7, 1.1}, 0.6}, 1, 1e-7);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void secondOrderAndVectorResults(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    MemberAgreement two = method(compiled, "two", true, true, true);
    two.checkScalar(new Object[] {0.4, new double[] {0.3, -0.7, 1.1}, 0.9}, 2, 1e-7);
    MemberAgreement vector = method(compiled, "vec", true, true, true);
    vector.checkVector(new Object[] {0.4, new double[] {0.3, -0.7, 1.1, 0.5}, 0.9});
  }

  /** Members called in turn at two points: none reads what another left behind. */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void interleavedCallsAtTwoPoints(int options) throws Exception {
    MemberAgreement loops = method(COMPILED.get(options).get(), "loops", true, true, false,
        true);
    Object[] a = {0.4, new double[] {0.3, -0.7, 1.1}, 2, 0.9};
    Object[] b = {1.3, new double[] {0.3, 0.7, 1.1, 0.2}, 0, 0.7};
    double[] atA = (double[]) loops.member("Gradient", a);
    double[] written = new double[6];
    loops.member("ValueAndGradient", b, (Object) written);
    double[] pulled = new double[5];
    loops.member("Pullback", a, 1.0, pulled);
    double[] atB = (double[]) loops.member("Gradient", b);
    // the pullback of seed 1 may group its sums otherwise than the gradient: to rounding
    assertThat(pulled).usingTolerance(1e-12).containsExactly(atA).inOrder();
    assertThat(written).usingTolerance(1e-12).containsExactly(atB).inOrder();
  }
}
