package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Activity analysis at calls: calls of methods that are not {@code @Differentiable} and carry no
 * derivative (a {@code boolean}, {@code int}, {@code long} or {@code void} result, or no
 * argument that carries a derivative) run as written in every generated member. Each function
 * is checked against its own user method (values bit for bit), finite differences, and forward
 * against reverse mode; the side effects of such calls happen exactly as often as in the
 * user's method, once per call of a generated member.
 */
@ExtendWith(TapeIsEmpty.class)
class InactiveCodeTest {
  private static final String COUNTER = String.join("\n",
      "package com.example;",
      "final class Counter {",
      "  static int count;",
      "  static long sum;",
      "  private Counter() {}",
      "  static void tick() { count++; }",
      "  static void add(int k) { sum += k; }",
      "  static int next() { return ++count; }",
      "  static double last;",
      "  static double record(double v) { last = v; return v; }",
      "}");

  private static final String LOG = String.join("\n",
      "package com.example;",
      "final class Log {",
      "  final java.util.List<String> lines = new java.util.ArrayList<>();",
      "  void fine(String message) { lines.add(message); }",
      "}");

  private static final String NORMAL = String.join("\n",
      "package com.example;",
      "final class Normal {",
      "  private final double mean;",
      "  private final double sd;",
      "  Normal(double mean, double sd) { this.mean = mean; this.sd = sd; }",
      "  double density(double x) {",
      "    double z = (x - mean) / sd;",
      "    return Math.exp(-0.5 * z * z) / (sd * Math.sqrt(2 * Math.PI));",
      "  }",
      "}");

  private static final String CHECKS = String.join("\n",
      "package com.example.checks;",
      "public final class Checks {",
      "  private Checks() {}",
      "  public static void isTrue(boolean condition, String message, double value) {",
      "    if (!condition) { throw new IllegalArgumentException(message + value); }",
      "  }",
      "  public static void isTrue(boolean condition) {",
      "    if (!condition) { throw new IllegalArgumentException(\"check failed\"); }",
      "  }",
      "}");

  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import com.example.checks.Checks;",
      "final class Inactive {",
      "  static boolean fuzzyEquals(double a, double b, double tolerance) {",
      "    return Math.abs(a - b) <= tolerance;",
      "  }",
      "  static double logFactorial(int n) {",
      "    double s = 0;",
      "    for (int i = 2; i <= n; i++) { s += Math.log(i); }",
      "    return s;",
      "  }",
      "  static double twoPi() { return 2 * Math.PI; }",
      "  static final Log LOG = new Log();",
      "  static final Normal STANDARD = new Normal(0, 1);",
      "  @Differentiable static double logged3(double x) {",
      "    int n = 3;",
      "    double s = 0;",
      "    for (int i = 1; i <= n; i++) {",
      "      s += Math.sqrt(x + i);",
      "      LOG.fine(\"step \" + i + \" of \" + n + \": s = \" + s);",
      "    }",
      "    Checks.isTrue(s > 0, \"s must be positive, is \", s);",
      "    return s;",
      "  }",
      "  @Differentiable static double mixture(double x, int k) {",
      "    double weight = STANDARD.density(0.5 * k);",
      "    return weight * Math.exp(-x * x) + (1 - weight) * x;",
      "  }",
      "  @Differentiable static double discardedResult(double x) {",
      "    Counter.record(x * x);",
      "    return 3 * x;",
      "  }",
      "  @Differentiable static double mixture2(double x) { return mixture(x, 2); }",
      "  @Differentiable static double guarded(double x) {",
      "    if (Double.isNaN(x) || Double.isInfinite(x)) { return 0; }",
      "    return x * Math.sin(x);",
      "  }",
      "  @Differentiable static double fuzzy(double a, double b) {",
      "    if (fuzzyEquals(a, b, 1e-9)) { return a * a; }",
      "    return (a - b) * Math.exp(b);",
      "  }",
      "  @Differentiable static double logPoisson(double lambda, int k) {",
      "    return k * Math.log(lambda) - lambda - logFactorial(k);",
      "  }",
      "  @Differentiable static double logPoisson4(double lambda) { return logPoisson(lambda, 4); }",
      "  @Differentiable static double normalised(double x) {",
      "    return Math.exp(-0.5 * x * x) / Math.sqrt(twoPi());",
      "  }",
      "  @Differentiable static double counted(double x) {",
      "    Counter.tick();",
      "    double y = x * Math.cos(x);",
      "    Counter.add(3);",
      "    return y * y;",
      "  }",
      "  @Differentiable static double countedInLoop(double x) {",
      "    double s = 0;",
      "    for (int i = 0; i < 5; i++) {",
      "      if (i % 2 == 0) { Counter.tick(); }",
      "      s += Math.sin(x * i) * Counter.next();",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double checkedLog(double x) {",
      "    Checks.isTrue(x > 0);",
      "    return Math.log(x) * x;",
      "  }",
      "  static final class OutOfRange extends IllegalArgumentException {",
      "    private static final long serialVersionUID = 1L;",
      "    final double value;",
      "    OutOfRange(String what, double value, int limit) {",
      "      super(what + \" = \" + value + \" > \" + limit);",
      "      this.value = value;",
      "    }",
      "  }",
      "  private static final double SQRT2PI = Math.sqrt(2 * Math.PI);",
      "  private static final double HALF_SEVEN = 7 / 2;",
      "  private static final float TENTH = 0.1f;",
      "  @Differentiable static double privateConstants(double x) {",
      "    return Math.exp(-x * x / HALF_SEVEN) / SQRT2PI + HALF_SEVEN / 2 * x + TENTH * x;",
      "  }",
      "  @Differentiable static double bounded(double x) {",
      "    double y = x * x;",
      "    if (y > 4) { throw new OutOfRange(\"x * x\", y, 4); }",
      "    return Math.sqrt(4 - y);",
      "  }",
      "  @Differentiable static double rounded(double x) {",
      "    long r = Math.round(x);",
      "    return x * r + Math.floorMod(r, 3);",
      "  }",
      "}");

  private static final CompiledOnce INACTIVE = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Counter", COUNTER, "com.example.checks.Checks", CHECKS,
          "com.example.Log", LOG, "com.example.Normal", NORMAL, "com.example.Inactive", SOURCE));

  private static Compiled inactive() {
    return INACTIVE.get();
  }

  static Stream<Arguments> functions() {
    return Stream.of(
        Arguments.of("guarded", new double[][] {{0.7}, {-1.3}}),
        Arguments.of("fuzzy", new double[][] {{0.7, 0.2}, {-1.3, 0.4}}),
        Arguments.of("logPoisson4", new double[][] {{0.7}, {3.5}}),
        Arguments.of("normalised", new double[][] {{0.7}, {-1.3}}),
        Arguments.of("checkedLog", new double[][] {{0.7}, {2.5}}),
        Arguments.of("rounded", new double[][] {{0.7}, {-1.3}, {4.2}}),
        Arguments.of("logged3", new double[][] {{0.7}, {4.2}}),
        Arguments.of("mixture2", new double[][] {{0.7}, {-1.3}}),
        Arguments.of("discardedResult", new double[][] {{0.7}}),
        Arguments.of("bounded", new double[][] {{0.7}, {-1.5}}),
        Arguments.of("privateConstants", new double[][] {{0.7}, {-1.5}}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("functions")
  void derivativesMatchTheUsersMethod(String name, double[][] points) {
    CompiledFunction f = inactive().function("com.example.Inactive", name, points[0].length);
    for (double[] x : points) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  @Test
  void derivativesAgainstTheirFormulas() {
    CompiledFunction poisson = inactive().function("com.example.Inactive", "logPoisson4", 1);
    assertThat(poisson.gradient(2.5)[0]).isWithin(1e-15).of(4 / 2.5 - 1);
    CompiledFunction fuzzy = inactive().function("com.example.Inactive", "fuzzy", 2);
    assertThat(fuzzy.gradient(0.5, 0.5)).usingTolerance(1e-15).containsExactly(1.0, 0.0)
        .inOrder();
    CompiledFunction guarded = inactive().function("com.example.Inactive", "guarded", 1);
    assertThat(guarded.gradient(Double.NaN)[0]).isEqualTo(0.0);
    assertThat(guarded.value(Double.POSITIVE_INFINITY)).isEqualTo(0.0);
  }

  /** Each generated member runs the user's side effects once per call, in no sweep but one. */
  @Test
  void sideEffectsHappenOncePerCall() throws ReflectiveOperationException {
    CompiledFunction counted = inactive().function("com.example.Inactive", "counted", 1);
    assertEffects(counted, 1, 3);
    CompiledFunction loop = inactive().function("com.example.Inactive", "countedInLoop", 1);
    // three ticks (i = 0, 2, 4) and five calls of next(): count grows by 8 per call
    assertEffects(loop, 8, 0);
  }

  private void assertEffects(CompiledFunction f, int count, long sum)
      throws ReflectiveOperationException {
    Class<?> counter = inactive().load("com.example.Counter");
    Field countField = counter.getDeclaredField("count");
    Field sumField = counter.getDeclaredField("sum");
    countField.setAccessible(true);
    sumField.setAccessible(true);
    List<Consumer<double[]>> members = List.of(
        f::value,
        f::gradient,
        x -> f.valueAndGradient(x, new double[1]),
        x -> f.tangent(x, new double[] {1}),
        x -> f.pullback(x, 1, new double[1]));
    for (Consumer<double[]> member : members) {
      int countBefore = countField.getInt(null);
      long sumBefore = sumField.getLong(null);
      member.accept(new double[] {0.8});
      assertThat(countField.getInt(null) - countBefore).isEqualTo(count);
      assertThat(sumField.getLong(null) - sumBefore).isEqualTo(sum);
    }
  }

  /** A call whose result nothing reads carries no derivative, whatever its arguments carry. */
  @Test
  void aCallStatementRunsForItsEffect() throws ReflectiveOperationException {
    CompiledFunction discarded = inactive().function("com.example.Inactive", "discardedResult", 1);
    Field last = inactive().load("com.example.Counter").getDeclaredField("last");
    last.setAccessible(true);
    assertThat(discarded.gradient(0.7)[0]).isEqualTo(3.0);
    assertThat(last.getDouble(null)).isEqualTo(0.7 * 0.7);
    discarded.tangent(new double[] {1.5}, new double[] {1});
    assertThat(last.getDouble(null)).isEqualTo(1.5 * 1.5);
  }

  /** An argument that carries a derivative into a call ad4j cannot differentiate: the chain. */
  @Test
  void namesTheArgumentThatCarriesADerivativeIntoACall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final Normal STANDARD = new Normal(0, 1);",
        "  @Differentiable static double f(double x) {",
        "    double t = 2 * x;",
        "    return STANDARD.density(t) + java.awt.geom.Point2D.distance(1, x, 0, 0);",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file,
        JavaFileObjects.forSourceString("com.example.Normal", NORMAL));

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("call to 'STANDARD.density(...)' is not"
        + " differentiable: 't' carries a derivative into 'STANDARD.density(t)', which ad4j"
        + " cannot differentiate: 'F.STANDARD' holds an object, and ad4j runs its methods as"
        + " written; give the partial derivatives of 'Normal.density' with @DerivativeOf(owner"
        + " = Normal.class, value = \"density\")").inFile(file).onLine(7)
        .atColumn(lines.get(6).indexOf("(t)") + 1);
    assertThat(compilation).hadErrorContaining("call to 'java.awt.geom.Point2D.distance(...)'"
        + " is not differentiable: 'x' carries a derivative into"
        + " 'java.awt.geom.Point2D.distance(1, x, 0, 0)'").inFile(file)
        .onLine(7).atColumn(lines.get(6).indexOf("(1, x, 0, 0)") + 1);
  }

  /**
   * A private non-constant field, whose pure initializer generated code evaluates itself: the
   * values are the user's bit for bit (checked above), and its derivative is the analytic one.
   */
  @Test
  void privateFieldsWithPureInitializers() {
    CompiledFunction f = inactive().function("com.example.Inactive", "privateConstants", 1);
    double x = 0.7;
    // HALF_SEVEN is 3.0 (integer division, then widened), TENTH is the float 0.1f
    double expected = -2 * x / 3.0 * Math.exp(-x * x / 3.0) / Math.sqrt(2 * Math.PI) + 1.5
        + (double) 0.1f;
    assertThat(f.gradient(x)[0]).isWithin(1e-15).of(expected);
  }

  /** One whose initializer is not exact arithmetic is copied by the generated class, bit for bit. */
  @Test
  void aPrivateFieldWhoseInitializerIsNotExactIsCopied() throws Exception {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.F", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class F {",
            "  private static final double S = Math.sin(1.0);",
            "  @Differentiable static double f(double x) {",
            "    return S * x;",
            "  }",
            "}"));
    assertThat(compiled.function("com.example.F", "f", 1).gradient(0.7)[0])
        .isEqualTo(Math.sin(1.0));
  }

  /**
   * An array that carries no derivative may be passed to a call run as written; one that carries
   * derivatives may not, since the callee could write into it.
   */
  @Test
  void arraysPassedToCallsRunAsWritten() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static int count(int[] labels, int label) {",
        "    int n = 0;",
        "    for (int l : labels) { if (l == label) { n++; } }",
        "    return n;",
        "  }",
        "  static void scale(double[] v) { v[0] *= 2; }",
        "  @Differentiable static double share(double x, int[] labels) {",
        "    return x * count(labels, 1) / labels.length;",
        "  }",
        "  @Differentiable static double scaled(double[] w) {",
        "    scale(w);",
        "    return w[0];",
        "  }",
        "  static double sum(double[] v) { return v[0] + v[1]; }",
        "  @Differentiable static double summed(double[] w) {",
        "    return sum(w);",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("call to 'sum(...)' is not differentiable: 'w'"
        + " carries a derivative into 'sum(w)', which ad4j cannot differentiate: annotate"
        + " 'F.sum' with @Differentiable, so that ad4j generates the derivatives this call"
        + " needs").inFile(file).onLine(19)
        .atColumn(15);
    assertThat(compilation).hadErrorContaining("call to 'scale(...)' passes 'w', an array that"
        + " carries derivatives, to 'F.scale', which ad4j would run as written and which could"
        + " write into it").inFile(file).onLine(14).atColumn(10);
  }

  @Test
  void anIntArrayReachesACallRunAsWritten() throws ReflectiveOperationException {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.F", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class F {",
            "  static int count(int[] labels, int label) {",
            "    int n = 0;",
            "    for (int l : labels) { if (l == label) { n++; } }",
            "    return n;",
            "  }",
            "  @Differentiable static double share(double x, int[] labels) {",
            "    return x * x * count(labels, 1) / labels.length;",
            "  }",
            "}"));
    int[] labels = {1, 0, 1, 1};
    java.lang.reflect.Method shareGradient = compiled.load("com.example.FGrad")
        .getDeclaredMethod("shareGradient", double.class, int[].class);
    shareGradient.setAccessible(true);
    double[] gradient = (double[]) shareGradient.invoke(null, 0.5, labels);
    assertThat(gradient).usingExactEquality().containsExactly(2 * 0.5 * 3 / 4.0);
  }

  /** A logger held in a static field logs each line once per member call, as written. */
  @Test
  @SuppressWarnings("unchecked")
  void loggingRunsAsWritten() throws ReflectiveOperationException {
    CompiledFunction logged = inactive().function("com.example.Inactive", "logged3", 1);
    Field logField = inactive().load("com.example.Inactive").getDeclaredField("LOG");
    logField.setAccessible(true);
    Object log = logField.get(null);
    Field linesField = log.getClass().getDeclaredField("lines");
    linesField.setAccessible(true);
    List<String> lines = (List<String>) linesField.get(log);
    lines.clear();
    double[] gradient = new double[1];
    double value = logged.valueAndGradient(new double[] {0.7}, gradient);
    double s1 = Math.sqrt(1.7);
    double s2 = s1 + Math.sqrt(2.7);
    assertThat(lines).containsExactly("step 1 of 3: s = " + s1, "step 2 of 3: s = " + s2,
        "step 3 of 3: s = " + value).inOrder();
    assertThat(gradient[0]).isWithin(1e-15)
        .of(0.5 / Math.sqrt(1.7) + 0.5 / Math.sqrt(2.7) + 0.5 / Math.sqrt(3.7));
    lines.clear();
    logged.tangent(new double[] {0.7}, new double[] {1});
    logged.pullback(new double[] {0.7}, 1, new double[1]);
    assertThat(lines).hasSize(6);
  }

  /** Values that depend on a call's side effects are those of the user's method. */
  @Test
  void valuesDependingOnSideEffectsMatch() {
    CompiledFunction loop = inactive().function("com.example.Inactive", "countedInLoop", 1);
    // count differs at each call; the value of each member is checked against its own call
    // of the user's method made in the same state of the counter
    double[] gradient = new double[1];
    double first = loop.value(0.8);
    double second = loop.valueAndGradient(new double[] {0.8}, gradient);
    // 8 more per call: the multipliers of the second call are the first's plus 8
    double expected = 0;
    double expectedDerivative = 0;
    int count = (int) Math.round(solveCount(first));
    int c = count + 8;
    for (int i = 0; i < 5; i++) {
      if (i % 2 == 0) {
        c++;
      }
      c++;
      expected += Math.sin(0.8 * i) * c;
      expectedDerivative += i * Math.cos(0.8 * i) * c;
    }
    assertThat(second).isEqualTo(expected);
    assertThat(gradient[0]).isWithin(1e-12).of(expectedDerivative);
  }

  /** The counter's value before a call of countedInLoop at 0.8 that returned {@code value}. */
  private static double solveCount(double value) {
    // value = sum_i sin(0.8 i) * (c0 + k_i), linear in c0
    double slope = 0;
    double offset = 0;
    int k = 0;
    for (int i = 0; i < 5; i++) {
      if (i % 2 == 0) {
        k++;
      }
      k++;
      slope += Math.sin(0.8 * i);
      offset += Math.sin(0.8 * i) * k;
    }
    return (value - offset) / slope;
  }

  @Test
  void exceptionsOfACallRunAsWrittenReachTheCaller() {
    CompiledFunction checked = inactive().function("com.example.Inactive", "checkedLog", 1);
    for (Runnable member : List.<Runnable>of(
        () -> checked.gradient(-1),
        () -> checked.tangent(new double[] {-1}, new double[] {1}),
        () -> checked.pullback(new double[] {-1}, 1, new double[1]))) {
      Throwable thrown = assertThrows(Throwable.class, member::run);
      Throwable cause = thrown instanceof InvocationTargetException
          || thrown.getCause() instanceof InvocationTargetException
          ? rootOf(thrown) : thrown;
      assertThat(cause).isInstanceOf(IllegalArgumentException.class);
      assertThat(cause).hasMessageThat().isEqualTo("check failed");
    }
  }

  /** An exception built with several arguments is built as written in every member. */
  @Test
  void exceptionsOfAnyConstructor() {
    CompiledFunction bounded = inactive().function("com.example.Inactive", "bounded", 1);
    for (Runnable member : List.<Runnable>of(
        () -> bounded.value(3),
        () -> bounded.gradient(3),
        () -> bounded.tangent(new double[] {3}, new double[] {1}),
        () -> bounded.pullback(new double[] {3}, 1, new double[1]))) {
      Throwable cause = rootOf(assertThrows(Throwable.class, member::run));
      assertThat(cause.getClass().getName()).isEqualTo("com.example.Inactive$OutOfRange");
      assertThat(cause).hasMessageThat().isEqualTo("x * x = 9.0 > 4");
    }
  }

  private static Throwable rootOf(Throwable thrown) {
    Throwable t = thrown;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
