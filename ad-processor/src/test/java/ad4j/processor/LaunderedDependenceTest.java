package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MixedFunction;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Dependence laundered through code that carries no derivative (the contract's "exact or
 * rejected"): a value computed from a derivative-carrying value by an object, a string, a
 * boxed value, a static field written and read back, or a call run as written, that comes back
 * into the result or into a derivative-carrying value, is an error there naming where the
 * dependence left; an integer that a call run as written computes from one gets a warning that
 * {@code @SuppressWarnings("ad4j.zero-derivative")} silences. Each route is a method of one
 * source, its error asserted with its message and line. What stays accepted is checked against
 * the user's method, central differences and forward against reverse mode.
 */
@ExtendWith(TapeIsEmpty.class)
class LaunderedDependenceTest {
  private static final String HELPERS = String.join("\n",
      "package com.example;",
      "final class Helpers {",
      "  private Helpers() {}",
      "  static final class Pair {",
      "    final double hi;",
      "    final double lo;",
      "    Pair(double hi, double lo) { this.hi = hi; this.lo = lo; }",
      "    double doubleValue() { return hi + lo; }",
      "  }",
      "  static final class Box {",
      "    private double value;",
      "    void set(double v) { value = v; }",
      "    double get() { return value; }",
      "  }",
      "  static final class Bag {",
      "    private double sum;",
      "    void add(double v) { sum += v; }",
      "    double sum() { return sum; }",
      "  }",
      "  static double kept;",
      "  static Double last = Double.valueOf(0);",
      "  static final java.util.List<String> LINES = new java.util.ArrayList<>();",
      "  static Pair twoProd(double a, double b) {",
      "    double p = a * b;",
      "    return new Pair(p, Math.fma(a, b, -p));",
      "  }",
      "  static void keep(double v) { kept = v; last = Double.valueOf(v); }",
      "  static double kept() { return kept; }",
      "  static Box[] boxes(int n) {",
      "    Box[] boxes = new Box[n];",
      "    for (int i = 0; i < n; i++) { boxes[i] = new Box(); }",
      "    return boxes;",
      "  }",
      "  static void fill(Box[] boxes, double v) { for (Box b : boxes) { b.set(v); } }",
      "  static void log(String line) { LINES.add(line); }",
      "  static final double[] TABLE = new double[2];",
      "  static void store(double v) { TABLE[1] = v; }",
      "  static void hashInto(int[] hashes, double v) { hashes[0] = Double.hashCode(v); }",
      "  static double scale = 1.5;",
      "  static double scale() { return scale; }",
      "}");

  private static final List<String> REJECTED = List.of(
      "package com.example;",
      "import ad4j.Differentiable;",
      "import com.example.Helpers.Bag;",
      "import com.example.Helpers.Box;",
      "import com.example.Helpers.Pair;",
      "final class Laundered {",
      "  @Differentiable static double doubleDouble(double x) {",
      "    Pair p = Helpers.twoProd(x, x);",
      "    return p.doubleValue();",
      "  }",
      "  @Differentiable static double string(double x) {",
      "    String s = Double.toString(x);",
      "    double y = Double.parseDouble(s);",
      "    return y;",
      "  }",
      "  @Differentiable static double builder(double x) {",
      "    StringBuilder sb = new StringBuilder();",
      "    sb.append(x);",
      "    double y = Double.parseDouble(sb.toString());",
      "    return y + x;",
      "  }",
      "  @Differentiable static double concatenation(double x) {",
      "    String s = \"\" + x;",
      "    return Double.parseDouble(s) * 3;",
      "  }",
      "  @Differentiable static double boxed(double x) {",
      "    Double b = Double.valueOf(x);",
      "    return b.doubleValue() * x;",
      "  }",
      "  @Differentiable static double staticField(double x) {",
      "    Helpers.keep(x);",
      "    return Helpers.kept() * 2;",
      "  }",
      "  @Differentiable static double staticObjectField(double x) {",
      "    Helpers.keep(x);",
      "    Double kept = Helpers.last;",
      "    return kept.doubleValue() - x;",
      "  }",
      "  @Differentiable static double setterGetter(double x) {",
      "    Box b = new Box();",
      "    b.set(x);",
      "    return b.get() + x;",
      "  }",
      "  @Differentiable static double arrayOfObjects(double x) {",
      "    Box[] boxes = Helpers.boxes(2);",
      "    Helpers.fill(boxes, x);",
      "    return boxes[1].get() * x;",
      "  }",
      "  @Differentiable static double collection(double x) {",
      "    Bag bag = new Bag();",
      "    bag.add(x);",
      "    bag.add(2 * x);",
      "    return bag.sum();",
      "  }",
      "  @Differentiable static double bits(double x) {",
      "    return Double.longBitsToDouble(Double.doubleToRawLongBits(x) + 1);",
      "  }",
      "  @Differentiable static double roundTripInLoop(double x) {",
      "    double acc = 0;",
      "    double y = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      y = y + acc * x;",
      "      acc = Double.parseDouble(Double.toString(x));",
      "    }",
      "    return y;",
      "  }",
      "  @Differentiable static double returnedFromALoop(double x) {",
      "    for (int i = 0; i < 3; i++) {",
      "      if (i == 2) {",
      "        return Double.valueOf(x * i).doubleValue();",
      "      }",
      "    }",
      "    return x;",
      "  }",
      "  @Differentiable static double intoACallee(double x) {",
      "    double y = Double.parseDouble(String.valueOf(x));",
      "    return square(y);",
      "  }",
      "  @Differentiable static double square(double t) { return t * t; }",
      "  @Differentiable static double table(double x) {",
      "    Helpers.store(x);",
      "    return Helpers.TABLE[1] * x;",
      "  }",
      "  @Differentiable static double intArrayWritten(double x) {",
      "    int[] hashes = new int[1];",
      "    Helpers.hashInto(hashes, x);",
      "    return x + (hashes[0] & 1);",
      "  }",
      "  @Differentiable static double arrayText(double x, double y) {",
      "    double[] a = {x, y};",
      "    String text = java.util.Arrays.toString(a);",
      "    return Double.parseDouble(text.substring(1, 4)) * x;",
      "  }",
      "  @Differentiable static double arrayHash(double x, double y) {",
      "    double[] a = {x, y};",
      "    return x + (java.util.Arrays.hashCode(a) & 1);",
      "  }",
      "  @Differentiable static double hashed(double x) {",
      "    int h = Double.hashCode(x);",
      "    return x * (h & 1);",
      "  }",
      "  @SuppressWarnings(\"ad4j.zero-derivative\")",
      "  @Differentiable static double hashedSuppressed(double x) {",
      "    int h = Double.hashCode(x);",
      "    return x * (h & 1);",
      "  }",
      "}");

  private static final JavaFileObject REJECTED_FILE =
      JavaFileObjects.forSourceString("com.example.Laundered", String.join("\n", REJECTED));

  private static Compilation rejected;

  private static Compilation rejected() {
    if (rejected == null) {
      rejected = InProcessCompiler.javac().compile(REJECTED_FILE,
          JavaFileObjects.forSourceString("com.example.Helpers", HELPERS));
    }
    return rejected;
  }

  /** The 1-based line of {@link #REJECTED} that holds {@code text}, which must be unique. */
  private static int lineOf(String text) {
    int found = -1;
    for (int i = 0; i < REJECTED.size(); i++) {
      if (REJECTED.get(i).contains(text)) {
        assertThat(found).isEqualTo(-1);
        found = i + 1;
      }
    }
    assertThat(found).isAtLeast(1);
    return found;
  }

  private static void assertLaundered(String name, String source, String through,
      String leftAt, String comesBackAt) {
    assertThat(rejected()).hadErrorContaining("'" + name + "' depends on '" + source
        + "' through '" + through + "' (line " + lineOf(leftAt) + "), which carries no"
        + " derivative").inFile(REJECTED_FILE).onLine(lineOf(comesBackAt));
  }

  @Test
  void aDoubleDoubleObjectIsRejected() {
    assertLaundered("p.doubleValue()", "x", "Helpers.twoProd", "Pair p = Helpers.twoProd(x, x)",
        "return p.doubleValue()");
  }

  @Test
  void aStringIsRejected() {
    assertThat(rejected()).hadErrorContaining("'y' depends on 'x' through 'Double.toString'"
        + " (line " + lineOf("String s = Double.toString(x)") + "), which carries no derivative,"
        + " and reaches the result").inFile(REJECTED_FILE)
        .onLine(lineOf("double y = Double.parseDouble(s)") + 1);
  }

  @Test
  void aStringBuilderIsRejected() {
    assertLaundered("y", "x", "StringBuilder.append", "sb.append(x)", "return y + x");
  }

  @Test
  void aStringConcatenationIsRejected() {
    assertLaundered("Double.parseDouble(s) * 3", "x", "\"\" + x", "String s = \"\" + x",
        "return Double.parseDouble(s) * 3");
  }

  @Test
  void aBoxedValueIsRejected() {
    assertLaundered("b.doubleValue()", "x", "Double.valueOf", "Double b = Double.valueOf(x)",
        "return b.doubleValue() * x");
  }

  @Test
  void aStaticFieldWrittenAndReadBackIsRejected() {
    assertThat(rejected()).hadErrorContaining("'Helpers.kept() * 2' depends on 'x' through"
        + " 'Helpers.keep' (line " + (lineOf("return Helpers.kept() * 2") - 1) + ")")
        .inFile(REJECTED_FILE).onLine(lineOf("return Helpers.kept() * 2"));
  }

  @Test
  void aStaticObjectFieldWrittenAndReadBackIsRejected() {
    assertThat(rejected()).hadErrorContaining("'kept.doubleValue()' depends on 'x' through"
        + " 'Helpers.keep'"
        + " (line " + (lineOf("Double kept = Helpers.last") - 1) + ")").inFile(REJECTED_FILE)
        .onLine(lineOf("return kept.doubleValue() - x"));
  }

  @Test
  void aSetterThenAGetterIsRejected() {
    assertLaundered("b.get()", "x", "Box.set", "b.set(x)", "return b.get() + x");
  }

  @Test
  void aCallFillingAnArrayOfObjectsIsRejected() {
    assertLaundered("boxes[1].get()", "x", "Helpers.fill", "Helpers.fill(boxes, x)",
        "return boxes[1].get() * x");
  }

  @Test
  void anAccumulatorObjectIsRejected() {
    assertLaundered("bag.sum()", "x", "Bag.add", "bag.add(x)", "return bag.sum()");
  }

  @Test
  void aDoubleRebuiltFromItsBitsIsRejected() {
    assertLaundered("Double.longBitsToDouble(Double.doubleToRawLongBits(x) + 1)", "x",
        "Double.doubleToRawLongBits", "Double.longBitsToDouble(Double.doubleToRawLongBits(x)",
        "Double.longBitsToDouble(Double.doubleToRawLongBits(x)");
  }

  /** Lowered once, the loop's first iteration reads what its last one stored: a fixed point. */
  @Test
  void aValueCarriedRoundALoopIsRejected() {
    assertLaundered("acc", "x", "Double.toString", "acc = Double.parseDouble(", "y = y + acc * x");
  }

  /** A return inside a loop keeps its value for the return after the loop. */
  @Test
  void aValueReturnedFromInsideALoopIsRejected() {
    assertThat(rejected()).hadErrorContaining("'Double.valueOf(x * i).doubleValue()' depends on"
        + " 'x * i' through 'Double.valueOf' (line "
        + lineOf("return Double.valueOf(x * i).doubleValue()") + "), which carries no"
        + " derivative, and reaches the result").inFile(REJECTED_FILE)
        .onLine(lineOf("return Double.valueOf(x * i).doubleValue()"));
  }

  @Test
  void aValuePassedToADifferentiatedCallIsRejected() {
    assertThat(rejected()).hadErrorContaining("'y' depends on 'x' through 'String.valueOf' (line "
        + lineOf("Double.parseDouble(String.valueOf(x))") + "), which carries no derivative,"
        + " and reaches a call of a method that ad4j differentiates").inFile(REJECTED_FILE)
        .onLine(lineOf("return square(y)"));
  }

  /** A {@code static final} array is a constant table, but a call run as written can write it. */
  @Test
  void aTableWrittenByACallIsRejected() {
    assertLaundered("Helpers.TABLE[1]", "x", "Helpers.store", "Helpers.store(x)",
        "return Helpers.TABLE[1] * x");
  }

  @Test
  void anIntegerArrayWrittenByACallGetsAWarning() {
    assertThat(rejected()).hadWarningContaining("[ad4j.zero-derivative] 'hashes[0] & 1' depends"
        + " on 'x' through 'Helpers.hashInto' (line " + lineOf("Helpers.hashInto(hashes, x)")
        + ")").inFile(REJECTED_FILE).onLine(lineOf("return x + (hashes[0] & 1)"));
  }

  /** {@code Arrays.toString} may read an array that carries derivatives; its text is laundered. */
  @Test
  void theTextOfAnArrayIsRejected() {
    assertLaundered("Double.parseDouble(text.substring(1, 4))", "a", "Arrays.toString",
        "String text = java.util.Arrays.toString(a)", "return Double.parseDouble(text.substring");
  }

  @Test
  void theHashCodeOfAnArrayGetsAWarning() {
    assertThat(rejected()).hadWarningContaining("[ad4j.zero-derivative]"
        + " 'java.util.Arrays.hashCode(a) & 1' depends on 'a' through 'Arrays.hashCode' (line "
        + lineOf("return x + (java.util.Arrays.hashCode(a) & 1)") + ")").inFile(REJECTED_FILE)
        .onLine(lineOf("return x + (java.util.Arrays.hashCode(a) & 1)"));
  }

  @Test
  void everyRouteIsOneErrorAndEachIntegerRouteOneWarning() {
    assertThat(rejected()).hadErrorCount(16);
    assertThat(rejected()).hadWarningCount(3);
  }

  @Test
  void integerBitsInTheResultGetAWarning() {
    int hashed = lineOf("@Differentiable static double hashed(");
    assertThat(rejected()).hadWarningContaining("[ad4j.zero-derivative] 'h & 1' depends on"
        + " 'x' through 'Double.hashCode' (line " + (hashed + 1) + "), which carries no"
        + " derivative, and reaches a value that carries a derivative: integers carry no"
        + " derivative, so its derivative is taken as zero; suppress with"
        + " @SuppressWarnings(\"ad4j.zero-derivative\")").inFile(REJECTED_FILE)
        .onLine(hashed + 2);
  }

  @Test
  void theWarningIsSuppressedByName() {
    int suppressed = lineOf("@Differentiable static double hashedSuppressed(");
    for (Diagnostic<? extends JavaFileObject> warning : rejected().warnings()) {
      assertThat(warning.getLineNumber()).isLessThan(suppressed);
    }
  }

  @Test
  void theWarningIsSuppressedOnTheClass() {
    Compilation compilation = InProcessCompiler.javac("-Xlint:all").compile(
        JavaFileObjects.forSourceString("com.example.Hashed", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "@SuppressWarnings(\"ad4j.zero-derivative\")",
            "final class Hashed {",
            "  @Differentiable static double f(double x) {",
            "    long bits = Double.doubleToLongBits(x);",
            "    return x * (bits & 1);",
            "  }",
            "}")));
    InProcessCompiler.requireSuccess(compilation);
    assertThat(compilation.warnings()).isEmpty();
  }

  // ---- what stays accepted, and exact ------------------------------------------------------

  private static final String ACCEPTED = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Accepted {",
      "  @Differentiable static double exceptionMessage(double x) {",
      "    if (x > 1e6) {",
      "      throw new IllegalArgumentException(\"too large: \" + x);",
      "    }",
      "    return x * x;",
      "  }",
      "  @Differentiable static double logged(double x) {",
      "    Helpers.log(\"x = \" + x);",
      "    double y = Double.parseDouble(Double.toString(x));",
      "    Helpers.log(\"y = \" + y);",
      "    return Math.sin(x) * x;",
      "  }",
      "  @Differentiable static double integerPart(double x) {",
      "    int k = (int) x;",
      "    long r = Math.round(x);",
      "    return k * x + r * x * x;",
      "  }",
      "  @Differentiable static double decidedByText(double x) {",
      "    String s = Double.toString(x);",
      "    return s.length() > 100 ? x : 2 * x * x;",
      "  }",
      "  @Differentiable static double arrayLogged(double x, double y) {",
      "    double[] a = {x, y};",
      "    Helpers.log(java.util.Arrays.toString(a) + java.util.Arrays.hashCode(a));",
      "    return java.util.Arrays.equals(a, new double[] {0, 0}) ? 0 : a[0] * a[1];",
      "  }",
      "  @Differentiable static double countedBeforeLogging(double x) {",
      "    double before = Helpers.scale();",
      "    Helpers.log(String.valueOf(x));",
      "    return x * before;",
      "  }",
      "}");

  private static final CompiledOnce ACCEPTED_CLASSES = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Accepted", ACCEPTED, "com.example.Helpers", HELPERS));

  private static CompiledFunction accepted(String name) {
    return ACCEPTED_CLASSES.get().function("com.example.Accepted", name, 1);
  }

  @Test
  void anExceptionsMessageMayHoldTheValue() {
    CompiledFunction f = accepted("exceptionMessage");
    for (double x : new double[] {0.7, -2.5}) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  @Test
  void loggingWhoseTextReachesNothingIsExact() {
    CompiledFunction f = accepted("logged");
    for (double x : new double[] {0.7, -2.5}) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  @Test
  void integersOfCastsAndRoundingCarryNoDerivativeAndNoMessage() {
    CompiledFunction f = accepted("integerPart");
    for (double x : new double[] {0.7, -2.3, 3.2}) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  @Test
  void aDecisionOnLaunderedTextIsExact() {
    CompiledFunction f = accepted("decidedByText");
    for (double x : new double[] {0.7, -2.5}) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  /** Arrays.toString, hashCode and equals only read an array that carries derivatives. */
  @Test
  void anArrayReadByAReadOnlyJdkMethodIsExact() {
    CompiledFunction f = ACCEPTED_CLASSES.get().function("com.example.Accepted", "arrayLogged",
        2);
    for (double[] x : new double[][] {{0.7, -1.5}, {2.5, 0.25}}) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  /** A call run as written before any dependent value leaves: its result reaches the result. */
  @Test
  void aCallBeforeTheValueLeavesIsExact() {
    CompiledFunction f = accepted("countedBeforeLogging");
    for (double x : new double[] {0.7, -2.5}) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  // ---- callees of the sources that read their arguments only -------------------------------

  /** The guide's example: a check and logging before a helper that reads its argument only. */
  private static final String POISSON = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.logging.Logger;",
      "final class Poisson {",
      "  static final Logger LOG = Logger.getLogger(\"ad4j.test.poisson\");",
      "  static double logFactorial(int n) {",
      "    double sum = 0;",
      "    for (int i = 2; i <= n; i++) { sum += Math.log(i); }",
      "    return sum;",
      "  }",
      "  @Differentiable",
      "  static double logPoisson(double mean, int k) {",
      "    if (Double.isNaN(mean)) { return mean; }",
      "    Checks.isTrue(mean > 0, \"mean must be positive, is \", mean);",
      "    LOG.fine(\"k = \" + k + \", mean = \" + mean);",
      "    return k * Math.log(mean) - mean - logFactorial(k);",
      "  }",
      "}");

  private static final String CHECKS = String.join("\n",
      "package com.example;",
      "final class Checks {",
      "  static void isTrue(boolean c, String message, double value) {",
      "    if (!c) { throw new IllegalArgumentException(message + value); }",
      "  }",
      "}");

  private static final CompiledOnce POISSON_CLASS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Poisson",
          POISSON, "com.example.Checks", CHECKS));

  /**
   * A check and logging receive the dependent mean, and a helper of the sources that reads its
   * argument only runs after them: accepted, and exact against the analytic derivative
   * {@code k / mean - 1}, forward against reverse; each member logs once and checks once.
   */
  @Test
  void aHelperReadingItsArgumentsOnlyAfterACheckAndLoggingIsExact() {
    MixedFunction f = new MixedFunction(POISSON_CLASS.get(), "com.example.Poisson", "logPoisson",
        double.class, int.class);
    java.util.logging.Logger log = java.util.logging.Logger.getLogger("ad4j.test.poisson");
    java.util.List<String> records = new java.util.ArrayList<>();
    java.util.logging.Handler handler = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord logRecord) {
        records.add(logRecord.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    java.util.logging.Level level = log.getLevel();
    log.setLevel(java.util.logging.Level.FINE);
    log.addHandler(handler);
    try {
      for (double mean : new double[] {0.7, 3.25}) {
        for (int k : new int[] {0, 4}) {
          Object[] arguments = {mean, k};
          double expected = k / mean - 1;
          double[] gradient = f.gradient(arguments);
          assertThat(gradient[0]).isWithin(1e-12 * Math.max(1, Math.abs(expected)))
              .of(expected);
          double[] out = new double[1];
          assertThat(f.valueAndGradient(arguments, out)).isEqualTo(f.value(arguments));
          assertThat(out[0]).isWithin(1e-12).of(gradient[0]);
          assertThat(f.tangent(arguments, new double[] {1})).isWithin(1e-12).of(gradient[0]);
          double[] adjoints = new double[1];
          f.pullback(arguments, 1, adjoints);
          assertThat(adjoints[0]).isWithin(1e-12).of(gradient[0]);
        }
      }
      records.clear();
      Object[] arguments = {1.5, 2};
      f.gradient(arguments);
      f.tangent(arguments, new double[] {1});
      assertThat(records).containsExactly("k = 2, mean = 1.5", "k = 2, mean = 1.5");
      for (Runnable member : List.<Runnable>of(() -> f.gradient(new Object[] {-1.0, 2}),
          () -> f.tangent(new Object[] {-1.0, 2}, new double[] {1}))) {
        IllegalArgumentException thrown =
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                member::run);
        assertThat(thrown).hasMessageThat().isEqualTo("mean must be positive, is -1.0");
      }
    } finally {
      log.removeHandler(handler);
      log.setLevel(level);
    }
  }

  private static final String HOLDER = String.join("\n",
      "package com.example;",
      "final class Holder {",
      "  static final class Box { double value; double get() { return value; } }",
      "  static double value;",
      "  static final Box BOX = new Box();",
      "  static final double[] TABLE = new double[2];",
      "  static void set(double v) { value = v; BOX.value = v; TABLE[0] = v; }",
      "  static void put(Box box, double v) { box.value = v; }",
      "  static double get() { return value; }",
      "  static double valueOf(Box box) { return box.value; }",
      "  static double viaObject(int n) { return n * BOX.get(); }",
      "  static double first() { return TABLE[0]; }",
      "  static double viaGetter(int n) { return n * get(); }",
      "  static double twice(double t) { return 2 * t; }",
      "}");

  private static final List<String> STATEFUL = List.of(
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Stateful {",
      "  @Differentiable static double staticField(double x) {",
      "    Holder.set(x);",
      "    return Holder.get() * 2;",
      "  }",
      "  @Differentiable static double throughParameter(double x) {",
      "    Holder.Box box = new Holder.Box();",
      "    Holder.put(box, x);",
      "    return Holder.valueOf(box) * x;",
      "  }",
      "  @Differentiable static double callsAnObject(double x) {",
      "    Holder.set(x);",
      "    return Holder.viaObject(2) + x;",
      "  }",
      "  @Differentiable static double readsATable(double x) {",
      "    Holder.set(x);",
      "    return Holder.first() * x;",
      "  }",
      "  @Differentiable static double callsAGetter(double x) {",
      "    Holder.set(x);",
      "    return Holder.viaGetter(3) - x;",
      "  }",
      "  @Differentiable static double systemProperty(double x) {",
      "    System.setProperty(\"ad4j.test.scale\", Double.toString(x));",
      "    return Integer.getInteger(\"ad4j.test.scale\", 1).intValue() * x;",
      "  }",
      "  @Differentiable static double argumentOnlyButLaundered(double x) {",
      "    Holder.set(x);",
      "    double y = Double.parseDouble(String.valueOf(x));",
      "    return Holder.twice(y);",
      "  }",
      "}");

  private static final JavaFileObject STATEFUL_FILE =
      JavaFileObjects.forSourceString("com.example.Stateful", String.join("\n", STATEFUL));

  private static Compilation stateful;

  private static Compilation stateful() {
    if (stateful == null) {
      stateful = InProcessCompiler.javac().compile(STATEFUL_FILE,
          JavaFileObjects.forSourceString("com.example.Holder", HOLDER));
    }
    return stateful;
  }

  /** The 1-based line of {@link #STATEFUL} that holds {@code text}, which must be unique. */
  private static int statefulLine(String text) {
    int found = -1;
    for (int i = 0; i < STATEFUL.size(); i++) {
      if (STATEFUL.get(i).contains(text)) {
        assertThat(found).isEqualTo(-1);
        found = i + 1;
      }
    }
    assertThat(found).isAtLeast(1);
    return found;
  }

  private static void assertStateful(String name, String through, String leftAt,
      String comesBackAt) {
    assertThat(stateful()).hadErrorContaining("'" + name + "' depends on 'x' through '"
        + through + "' (line " + statefulLine(leftAt) + "), which carries no derivative")
        .inFile(STATEFUL_FILE).onLine(statefulLine(comesBackAt));
  }

  /** Callees of the sources that read state an earlier call may have written stay rejected. */
  @Test
  void aHelperReadingANonFinalStaticFieldIsRejected() {
    int set = statefulLine("return Holder.get() * 2") - 1;
    assertThat(stateful()).hadErrorContaining("'Holder.get() * 2' depends on 'x' through"
        + " 'Holder.set' (line " + set + ")").inFile(STATEFUL_FILE).onLine(set + 1);
  }

  @Test
  void aHelperReadingAFieldThroughAParameterObjectIsRejected() {
    assertStateful("Holder.valueOf(box)", "Holder.put", "Holder.put(box, x)",
        "return Holder.valueOf(box) * x");
  }

  @Test
  void aHelperCallingAMethodOfAnObjectIsRejected() {
    int set = statefulLine("return Holder.viaObject(2) + x") - 1;
    assertThat(stateful()).hadErrorContaining("'Holder.viaObject(2)' depends on 'x'"
        + " through 'Holder.set' (line " + set + ")").inFile(STATEFUL_FILE).onLine(set + 1);
  }

  @Test
  void aHelperReadingAStaticArrayElementIsRejected() {
    int set = statefulLine("return Holder.first() * x") - 1;
    assertThat(stateful()).hadErrorContaining("'Holder.first()' depends on 'x' through"
        + " 'Holder.set' (line " + set + ")").inFile(STATEFUL_FILE).onLine(set + 1);
  }

  @Test
  void aHelperCallingAHelperThatReadsStateIsRejected() {
    int set = statefulLine("return Holder.viaGetter(3) - x") - 1;
    assertThat(stateful()).hadErrorContaining("'Holder.viaGetter(3)' depends on 'x'"
        + " through 'Holder.set' (line " + set + ")").inFile(STATEFUL_FILE).onLine(set + 1);
  }

  /** Integer.getInteger reads a system property, which an earlier call may have set. */
  @Test
  void aSystemPropertyReadBackGetsAWarning() {
    int set = statefulLine("System.setProperty(");
    assertThat(stateful()).hadWarningContaining("[ad4j.zero-derivative] 'Integer.getInteger("
        + "\"ad4j.test.scale\", 1).intValue()' depends on 'x' through 'Double.toString' (line "
        + set + ")").inFile(STATEFUL_FILE).onLine(set + 1);
  }

  /** A helper that reads its arguments only still passes on what its arguments depend on. */
  @Test
  void aLaunderedArgumentOfAnArgumentOnlyHelperIsRejected() {
    assertStateful("Holder.twice(y)", "String.valueOf", "String.valueOf(x)",
        "return Holder.twice(y)");
  }

  @Test
  void eachStatefulRouteIsOneError() {
    assertThat(stateful()).hadErrorCount(6);
  }
}
