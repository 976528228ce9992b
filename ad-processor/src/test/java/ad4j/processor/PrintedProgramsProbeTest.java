package ad4j.processor;

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
 * A probe of the printer ({@code emit/ProgramFacts}, {@code emit/PrintedStatements}), which
 * writes a temporary read once inline where it is read, drops unread definitions, keeps an
 * element read only for where it throws and checks a repeated one once. Each method is compiled
 * with {@code -Xlint:all -Werror}, whole and cut into parts of one and two statements, and each
 * member checked by {@link MemberAgreement}: values bit for bit, differences of order 8, the
 * members against each other and forward against reverse, order 2, effects run as often as the
 * method runs them; where the method throws, every member throws the same exception with the
 * same message after the same effects. The methods store between a temporary and its reader
 * (swaps, assignments inside expressions, elements written, loop-carried values), read fields
 * and counters that calls run as written set, mix integer, {@code long}, {@code float} and
 * {@code double} arithmetic with casts, compound assignments and strings, and throw from integer
 * divisions and element reads (rows of a matrix too) around calls with effects, in else-if
 * chains and behind {@code &&} and {@code ?:}.
 *
 * <p>The probe found one wrong derivative: a read of a static field that is not final, which a
 * call run as written sets ({@code double r = x * scale + bump();}), was written inline in the
 * tangent after the call ({@code Printed.bump(); double rDot = xDot * Printed.scale;}): the
 * tangent read the field's new value (failed before the fix: the tangent against the gradient).
 */
@ExtendWith(TapeIsEmpty.class)
class PrintedProgramsProbeTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "import java.util.stream.IntStream;",
      // compound assignments that narrow (i += x * 1.5), as javac 20+ warns under -Xlint:all
      "@SuppressWarnings(\"lossy-conversions\") final class Printed {",
      "  static int calls;",
      "  static double scale = 1.0;",
      "  static int bump() { calls++; scale *= 2; return 1; }",
      "  static int tick() { calls++; return 1; }",
      "  static void reset() { scale = 1.0; count = 2; flag = true; hidden = 0.5; }",
      "  static int count;",
      "  static boolean flag;",
      "  private static double hidden;",
      "  static int step() { calls++; count += 3; flag = !flag; hidden *= 3; return 0; }",
      "  void resetW() { w = 0.75; }",
      "  record P(double u, double v) {}",
      "  double w = 0.75;",
      "  void grow() { calls++; w = w * 2; }",
      "  double grown() { grow(); return w; }",
      "  static int tickTo(int v) { calls++; return v; }",
      "  static int counter;",
      "  static int next() { calls++; return counter++; }",
      "  static void resetCounter() { counter = 0; }",
      "",
      "  @Differentiable static double staticField(double x) {",
      "    reset();",
      "    double r = x * scale + bump();",
      "    double q = scale * x;",
      "    double s = x * scale * x + bump() * x;",
      "    return r + q + s + scale;",
      "  }",
      "  @Differentiable static double intField(double x, int n) {",
      "    reset();",
      "    double s = x;",
      "    for (int i = 0; i < n; i++) {",
      "      int c = count * 2;",
      "      double h = hidden * x;",
      "      boolean f = flag;",
      "      step();",
      "      s = s * x + c * s * 0.1 + h + (f ? x : -x) + count;",
      "    }",
      "    double u = x * count + step() + x * hidden;",
      "    boolean g = flag;",
      "    double v = hidden * x * x;",
      "    step();",
      "    return s + u + (g ? v : -v) + count * x;",
      "  }",
      "  @Differentiable double instanceField(double x) {",
      "    resetW();",
      "    double r = x * w + grown();",
      "    double s = w * x * grown() + w;",
      "    return r * s;",
      "  }",
      "  @Differentiable static double elementWrite(double x, @NoDerivative int[] idx0, double[] v0) {",
      "    int[] idx = idx0.clone();",
      "    double[] v = v0.clone();",
      "    idx[0] = 2;",
      "    int r = idx[0] * 3 + (idx[0] = 5) + idx[0];",
      "    double s = v[0] * x + (v[0] = x * x) * v[0];",
      "    return r * x + s + idx[0];",
      "  }",
      "  @Differentiable static double swaps(double a, double b, int n) {",
      "    for (int i = 0; i < n; i++) {",
      "      double t = a;",
      "      a = b * 1.5 - t;",
      "      b = t;",
      "      double u = a * b;",
      "      b = a;",
      "      a = u + Math.sin(b);",
      "    }",
      "    return a * 2 + b;",
      "  }",
      "  @Differentiable static double nested(double s, double a) {",
      "    for (int i = 0; i < 3; i++) { s = s * a + (a = a * 0.5 + s * 0.1); }",
      "    double r = a * s - (s = s * s) * a + (a = s - a) * s;",
      "    return r + s * a;",
      "  }",
      "  @Differentiable static double narrowing(double x, int n) {",
      "    int i = n;",
      "    i += x * 1.5;",
      "    i -= 0.5;",
      "    long k = 3000000000L;",
      "    k *= n + 1;",
      "    k += i;",
      "    k -= k / 7 * 7;",
      "    float f = 1.5f;",
      "    f += x;",
      "    f *= (float) x;",
      "    f -= 0.1;",
      "    double d = 2;",
      "    d /= i + 0.5;",
      "    d %= 0.7;",
      "    return f * x + k * 1e-9 + i * x + d * x;",
      "  }",
      "  @Differentiable static double precedence(double x, int a, int b, int c) {",
      "    int d = a - (b - c);",
      "    int e = -(-a) - -b;",
      "    int f = (a << 2) + (b >> 1) - (c >>> 1) + (a << b + 1);",
      "    int g = a % (b + 1) * c - a * (b % 3) - a / (c / 2);",
      "    long h = (long) a * b * 1000000000 + (long) (a * b * 1000000000);",
      "    double m = (double) (a / (b + 1)) + (double) a / (b + 1);",
      "    double q = (int) (x * a) + (int) x * a + (int) -x;",
      "    double p = -(-x) - -x - (x - (x - 1));",
      "    int bits = ~a & b | c ^ a;",
      "    boolean z = a > b == b > c;",
      "    String s = \"\" + (a + b) + a + b + (a - b) + -a;",
      "    return x * d + e + f * x + g + h * 1e-12 + m + q + p * x + bits + (z ? x : -x)",
      "        + s.length() * x;",
      "  }",
      "  @Differentiable static double throwsInOrder(double x, @NoDerivative int[] idx, int d,",
      "      double[] w) {",
      "    double r = x * tick() + idx[0] / d;",
      "    double s = idx[1] / d + x * tick();",
      "    int k = idx[2] % d + idx[idx[0]];",
      "    return r * w[k] + s * w[idx[3] - d] + w[k] * w[k];",
      "  }",
      "  @Differentiable static double repeatedReads(double[] u, double[] v, int i, double x) {",
      "    double s = u[i] * x;",
      "    double[] a = i > 0 ? u : v;",
      "    int j = i;",
      "    for (int k = 0; k < 2; k++) {",
      "      s += a[j] * a[j] + x * u[i];",
      "      j = j + 1;",
      "    }",
      "    return s + a[j] * u[i] + v[i] * v[i];",
      "  }",
      "  @Differentiable static double shortCircuit(double x, @NoDerivative int[] idx, double[] w) {",
      "    double s = x;",
      "    int k = 0;",
      "    while (k < idx.length && idx[k] >= 0) { s += x * idx[k]; k++; }",
      "    int j = k < idx.length ? idx[k] : -1;",
      "    boolean ok = k >= 0 && k < w.length && w[k] > 0;",
      "    if (k < w.length && w[k] > 0.5) s = s * w[k];",
      "    else if (j >= 0 && idx[j] > 0) s = s - x;",
      "    int i = 0;",
      "    while (i * i < 10 && i * i > -1) { s = s + x * i; i++; }",
      "    return (ok ? s * x : s) + j;",
      "  }",
      "  @Differentiable static float floats(float x, float[] w, float y) {",
      "    float s = x;",
      "    for (int i = 0; i < w.length; i++) {",
      "      s = s * w[i] + y / (i + 1);",
      "      float t = s;",
      "      s = y;",
      "      y = t * 0.5f;",
      "    }",
      "    float q = (float) (x * 1e-3) + x * y;",
      "    return s * y + q - -x + (float) Math.sin(s) * (x - (y - s));",
      "  }",
      "  @Differentiable static double stream(double[] w, double x) {",
      "    return IntStream.range(0, w.length).mapToDouble(i -> w[i] * x + i).sum() * x;",
      "  }",
      "  @Differentiable static double rec(P p, double x) {",
      "    P q = new P(p.u() * x, p.v() - x);",
      "    double t = q.u();",
      "    q = new P(q.v(), t + q.u() * q.v());",
      "    return q.u() * q.v() + t;",
      "  }",
      "  @Differentiable(order = 2) static double second(double x, double y, double[] w) {",
      "    double s = x;",
      "    for (int i = 0; i < w.length; i++) {",
      "      double t = s;",
      "      s = s * w[i] + y;",
      "      y = t - (y - s) * 0.5;",
      "      if (s > 3) s = s - (s - 2) * 0.5;",
      "    }",
      "    return s * y - (x - (y - s));",
      "  }",
      "  @Differentiable static double messages(double x, int n, long m) {",
      "    int k = n * 2;",
      "    if (x < -1) throw new IllegalArgumentException(\"n - 1 = \" + (n - 1) + \", -n = \" + -n",
      "        + \", n*2 = \" + n * 2 + (k - 1) + k + 1);",
      "    if (x > 100) throw new IllegalStateException(\"\" + (m + n) + m + n + (x > 50) + (m << 2)",
      "        + (n >> 1) + (n / 2) % 3);",
      "    if (x == 7) throw new IllegalArgumentException(n + m + \"|\" + (float) x * 2 + \"|\" + (x - -1));",
      "    return x * k;",
      "  }",
      "  @Differentiable static double chains(double x, @NoDerivative int[] idx, int d, double[] w) {",
      "    double s = x;",
      "    int k = 0;",
      "    for (int i = 0; i < w.length; i++) {",
      "      if (w[i] > 1) { s = s * w[i]; }",
      "      else if (idx[k] > 0) { s = s + x * idx[k]; k++; }",
      "      else if (idx[k + 1] / d > 1) { s = s - w[i] * x; }",
      "      else if (tickTo(idx[k]) < -5 && idx[k + 2] % d == 0) { s = s * 0.5; }",
      "      else { s = Math.sin(s) + w[i]; }",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double matrix(double[][] m, @NoDerivative int i, @NoDerivative int j, double x) {",
      "    double[] row = m[i];",
      "    double s = row[j] * x + m[i][j] * m[i][j];",
      "    s += m[j][i] * x;",
      "    double[][] loc = new double[2][3];",
      "    loc[1][2] = s * x;",
      "    s += loc[i][j] + m[i].length + m.length;",
      "    return s * m[i][j];",
      "  }",
      "  @Differentiable static double counters(double x, int n) {",
      "    resetCounter();",
      "    double s = x;",
      "    int c = counter;",
      "    int a = next();",
      "    int b = counter + next() * 2 + counter;",
      "    s = s * x + c + a + b + counter;",
      "    for (int i = 0; i < n; i++) {",
      "      int before = counter;",
      "      s = s * x + before * x + next() + counter * x;",
      "    }",
      "    return s + counter * x;",
      "  }",
      "  @Differentiable static double conditionals(double x, double y, @NoDerivative int[] idx, int d) {",
      "    double s = x > y ? x * y : y / x;",
      "    int k = idx.length > 2 ? idx[2] / d : idx[0];",
      "    int m = d != 0 && idx[0] / d > 1 ? idx[1] : -1;",
      "    boolean b = d == 0 || idx[idx.length - 1] % d == 0;",
      "    s += b ? k * x : m * y;",
      "    s = (s > 1 ? s : 1 - s) * (k > 0 ? x : y);",
      "    return s;",
      "  }",
      "  @Differentiable static double namedLikeDerivatives(double xDot, double[] aBar, double Dot,",
      "      @NoDerivative int[] rowBar2, double Bar) {",
      "    double xBar = xDot * Dot;",
      "    double aDot = aBar[rowBar2[0]] * xBar;",
      "    double[] tDot = new double[rowBar2.length];",
      "    for (int i = 0; i < tDot.length; i++) {",
      "      tDot[i] = aBar[rowBar2[i]] * Bar;",
      "    }",
      "    double sBar2 = 0;",
      "    for (int i = 0; i < tDot.length; i++) { sBar2 += tDot[i] * tDot[rowBar2[i] % tDot.length]; }",
      "    return xBar * aDot + sBar2 + Dot * Bar;",
      "  }",
      "  @Differentiable(order = 2) static double secondNamed(double xDot, double yBar, double[] wDot) {",
      "    double s = xDot * yBar;",
      "    for (int i = 0; i < wDot.length; i++) {",
      "      double t = s;",
      "      s = s * wDot[i] + yBar;",
      "      yBar = t * 0.5 + Math.sin(yBar);",
      "    }",
      "    return s * yBar + wDot[wDot.length - 1] * xDot;",
      "  }",
      "}");

  private static final List<CompiledOnce> COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Printed", SOURCE, 1, 2);

  private static MemberAgreement method(Compiled compiled, String name, boolean... active) {
    return MemberAgreement.of(compiled, "com.example.Printed", name, active);
  }

  /** Fields that a call run as written sets are read where the method reads them. */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void fieldsThatACallSetsAreReadWhereTheMethodReadsThem(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    method(compiled, "staticField", true).checkScalar(new Object[] {0.7}, 1, 1e-7);
    MemberAgreement fields = method(compiled, "intField", true, false);
    fields.checkScalar(new Object[] {0.7, 3}, 1, 1e-7);
    fields.checkScalar(new Object[] {0.7, 0}, 1, 1e-7);
    Constructor<?> constructor = compiled.load("com.example.Printed").getDeclaredConstructor();
    constructor.setAccessible(true);
    method(compiled, "instanceField", true).on(constructor.newInstance())
        .checkScalar(new Object[] {0.6}, 1, 1e-7);
  }

  /** Stores between a temporary and its reader: swaps, nested assignments, elements. */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void storesBetweenATemporaryAndItsReader(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    method(compiled, "elementWrite", true, false, true)
        .checkScalar(new Object[] {0.7, new int[] {1, 2}, new double[] {0.4, 0.9}}, 1, 1e-7);
    MemberAgreement swaps = method(compiled, "swaps", true, true, false);
    swaps.checkScalar(new Object[] {0.7, -0.3, 3}, 1, 1e-7);
    swaps.checkScalar(new Object[] {0.2, 0.9, 0}, 1, 1e-7);
    method(compiled, "nested", true, true).checkScalar(new Object[] {0.7, -0.3}, 1, 1e-7);
    // differences of a float method are rounding noise of about 1e-5 of its value
    method(compiled, "floats", true, true, true)
        .checkScalar(new Object[] {0.4f, new float[] {0.3f, 1.7f, 0.9f}, 0.9f}, 1, 2e-4);
    method(compiled, "stream", true, true)
        .checkScalar(new Object[] {new double[] {0.3, -0.6, 0.9}, 0.7}, 1, 1e-7);
    Class<?> record = compiled.load("com.example.Printed$P");
    method(compiled, "rec", true, true)
        .checkScalar(new Object[] {Records.make(record, 0.4, 0.9), 0.7}, 1, 1e-7);
    MemberAgreement second = method(compiled, "second", true, true, true);
    second.checkScalar(new Object[] {0.4, 0.9, new double[] {0.3, -0.7, 1.1}}, 2, 1e-7);
    second.checkScalar(new Object[] {1.4, 1.9, new double[] {1.3, 0.7, 1.1}}, 2, 1e-7);
  }

  /** Integer, long and float arithmetic with casts and compound assignments, and messages. */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void integerArithmeticCastsAndMessages(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    MemberAgreement narrowing = method(compiled, "narrowing", true, false);
    narrowing.checkScalar(new Object[] {0.3, 2}, 1, 2e-4);
    narrowing.checkScalar(new Object[] {-1.23, -3}, 1, 2e-4);
    MemberAgreement precedence = method(compiled, "precedence", true, false, false, false);
    precedence.checkScalar(new Object[] {0.37, 7, 3, 5}, 1, 1e-7);
    precedence.checkScalar(new Object[] {-1.37, -7, 2, -9}, 1, 1e-7);
    precedence.checkThrows(new Object[] {1.37, 7, -1, 5}, 1); // a % 0
    precedence.checkThrows(new Object[] {1.37, 7, 3, 1}, 1); // a / (c / 2) = a / 0
    MemberAgreement messages = method(compiled, "messages", true, false, false);
    messages.checkScalar(new Object[] {0.7, 5, 9L}, 1, 1e-7);
    for (Object[] thrown : new Object[][] {{-1.7, 5, 9L}, {-1.7, -5, -9L},
        {170.0, -5, 3000000000L}, {250.0, 7, -3000000000L}, {7.0, 5, 3000000000L}}) {
      messages.checkThrows(thrown, 1);
    }
  }

  /** Integer divisions and element reads throw where and what the method throws. */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void exceptionsInTheMethodsOrder(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    MemberAgreement ordered = method(compiled, "throwsInOrder", true, false, false, true);
    double[] five = {0.5, 1.5, 2.5, 3.5, 4.5};
    ordered.checkScalar(new Object[] {0.7, new int[] {1, 2, 3, 4}, 2, five}, 1, 1e-7);
    for (Object[] thrown : new Object[][] {{0.7, new int[] {1, 2, 3, 4}, 0, five},
        {0.7, new int[] {1}, 0, five}, {0.7, new int[] {1}, 1, five},
        {0.7, new int[] {1, 2, 3, 4}, 3, new double[] {0.5, 1.5}},
        {0.7, new int[] {1, 2, 3, 9}, 3, five}, {0.7, new int[] {7, 2, 3, 4}, 3, five}}) {
      ordered.checkThrows(thrown, 1);
    }
    MemberAgreement repeated = method(compiled, "repeatedReads", true, true, false, true);
    double[] u = {0.3, 0.6, 0.9, 1.2};
    double[] v = {1.1, 0.2, 0.3, 0.4};
    repeated.checkScalar(new Object[] {u, v, 0, 0.8}, 1, 1e-7);
    repeated.checkScalar(new Object[] {u, v, 1, 0.8}, 1, 1e-7);
    repeated.checkThrows(new Object[] {u, v, 2, 0.8}, 1);
    repeated.checkThrows(new Object[] {u, new double[] {1.1, 0.2}, 0, 0.8}, 1);
    repeated.checkThrows(new Object[] {new double[] {0.3, 0.6}, v, 1, 0.8}, 1);
    repeated.checkThrows(new Object[] {new double[] {0.3, 0.6}, v, -1, 0.8}, 1);
    MemberAgreement shortCircuit = method(compiled, "shortCircuit", true, false, true);
    shortCircuit.checkScalar(
        new Object[] {0.7, new int[] {1, 2, 3}, new double[] {0.3, 0.6, 0.9, 1.2}}, 1, 1e-7);
    shortCircuit.checkScalar(
        new Object[] {0.7, new int[] {1, -2, 3}, new double[] {0.3, 0.6, 0.9, 1.2}}, 1, 1e-7);
    // k runs past both arrays: the reads behind && and ?: must not run
    shortCircuit.checkScalar(
        new Object[] {0.7, new int[] {1, 2, 3}, new double[] {0.3, 0.6}}, 1, 1e-7);
  }

  /**
   * An else-if chain whose conditions read elements and divide (its effects in a condition),
   * reads of a counter that calls set, short-circuit divisions, and a matrix's rows read again
   * at the same index (ragged rows throw where the method throws).
   */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void chainsCountersConditionalsAndRows(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    MemberAgreement chains = method(compiled, "chains", true, false, false, true);
    double[] w = {0.3, 1.6, 0.2, 0.8};
    chains.checkScalar(new Object[] {0.7, new int[] {1, 0, 4, 0, 3, 9}, 2, w}, 1, 1e-7);
    chains.checkScalar(new Object[] {0.7, new int[] {0, 0, -6, 4, 3, 9}, 2, w}, 1, 1e-7);
    chains.checkScalar(new Object[] {0.7, new int[] {-7, 0, 3}, 3, w}, 1, 1e-7);
    for (Object[] thrown : new Object[][] {{0.7, new int[] {0, 0, 4, 0, 3, 9}, 0, w},
        {0.7, new int[] {-7, 0, 4, 0, 3, 9}, 0, w}, {0.7, new int[] {-7, 0}, 3, w},
        {0.7, new int[] {0}, 1, w}}) {
      chains.checkThrows(thrown, 1);
    }
    method(compiled, "counters", true, false).checkScalar(new Object[] {0.7, 3}, 1, 1e-7);
    MemberAgreement conditionals = method(compiled, "conditionals", true, true, false, false);
    conditionals.checkScalar(new Object[] {0.7, 0.3, new int[] {4, 5, 6}, 2}, 1, 1e-7);
    // d = 0: the divisions behind && and || do not run
    conditionals.checkScalar(new Object[] {0.3, 0.7, new int[] {4, 5}, 0}, 1, 1e-7);
    conditionals.checkThrows(new Object[] {0.3, 0.7, new int[] {4, 5, 6}, 0}, 1);
    conditionals.checkThrows(new Object[] {0.3, 0.7, new int[] {}, 0}, 1);
    MemberAgreement matrix = method(compiled, "matrix", true, false, false, true);
    double[][] m = {{0.3, 0.6, 0.9}, {1.2, 1.5, 1.8}};
    matrix.checkScalar(new Object[] {m, 1, 0, 0.7}, 1, 1e-7);
    matrix.checkScalar(new Object[] {m, 0, 1, 0.7}, 1, 1e-7);
    for (Object[] thrown : new Object[][] {{m, 0, 2, 0.7}, {m, 2, 0, 0.7},
        {new double[][] {{0.3, 0.6, 0.9}, {1.2}}, 1, 1, 0.7},
        {new double[][] {{0.3}, {1.2, 1.5, 1.8}}, 1, 0, 0.7}}) {
      matrix.checkThrows(thrown, 1);
    }
  }

  /**
   * The user's own names like those of derivatives ({@code xDot}, {@code aBar}, {@code Dot},
   * {@code rowBar2}): their arrays' reads are the user's, kept where they throw, at order 1 and
   * 2.
   */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void usersNamesLikeDerivatives(int options) throws Exception {
    Compiled compiled = COMPILED.get(options).get();
    MemberAgreement named = method(compiled, "namedLikeDerivatives", true, true, true, false,
        true);
    double[] a = {0.3, 0.6, 0.9};
    named.checkScalar(new Object[] {0.7, a, 1.3, new int[] {2, 0, 1}, -0.4}, 1, 1e-7);
    named.checkThrows(new Object[] {0.7, a, 1.3, new int[] {2, 0, 3}, -0.4}, 1);
    named.checkThrows(new Object[] {0.7, a, 1.3, new int[] {5, 0, 1}, -0.4}, 1);
    MemberAgreement second = method(compiled, "secondNamed", true, true, true);
    second.checkScalar(new Object[] {0.4, 0.9, new double[] {0.3, -0.7, 1.1}}, 2, 1e-7);
    second.checkThrows(new Object[] {0.4, 0.9, new double[0]}, 2);
  }
}
