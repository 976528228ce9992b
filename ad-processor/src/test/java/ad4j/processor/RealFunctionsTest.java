package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Numerical functions as they are written in public Java code, differentiated as written: each
 * is compiled on its own, and either ad4j accepts it (and its derivatives pass
 * {@link DerivativeChecks} at the given points, through {@code entry}, a {@code double}-only
 * method that calls it) or it is rejected with the error given, which says what ad4j does not
 * support yet.
 *
 * <p>Origins. None is copied: each is written for this test after a well-known function, "in
 * the style of" its origin, keeping the shape that matters here (argument checks, predicates,
 * integer helpers, logging, exceptions, constants, objects, enums, strings). Apache Commons Math,
 * Hipparchus, Deeplearning4j, Tribuo and the JSR 385 reference implementation (Indriya) are
 * under the Apache License 2.0 (Indriya: BSD 3-Clause); the JTS Topology Suite is under the
 * Eclipse Public License 2.0 / Eclipse Distribution License 1.0.
 */
class RealFunctionsTest {
  /**
   * A function: {@code source} holds the members of a class {@code F} (the function, its
   * helpers, and an {@code @Differentiable static double entry(double...)} when accepted).
   */
  record Real(String name, String origin, String source, int arity, double[][] points,
      String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Real accepted(String name, String origin, int arity, double[][] points,
      String... members) {
    return new Real(name, origin, String.join("\n", members), arity, points, null);
  }

  private static Real rejected(String name, String origin, String error, String... members) {
    return new Real(name, origin, String.join("\n", members), 0, null, error);
  }

  static Stream<Real> functions() {
    return Stream.of(
        accepted("harmonic oscillator", "Commons Math / Hipparchus HarmonicOscillator.value", 4,
            new double[][] {{0.3, 1.5, 2.0, 0.1}},
            "@Differentiable static double value(double x, double amplitude, double omega,",
            "    double phase) {",
            "  return amplitude * Math.cos(omega * x + phase);",
            "}",
            "@Differentiable static double entry(double x, double a, double w, double p) {",
            "  return value(x, a, w, p);",
            "}"),
        accepted("sinc", "Commons Math / Hipparchus Sinc.value (normalized = false)", 1,
            new double[][] {{0.7}, {-2.5}, {1e-5}},
            "private static final double SHORTCUT = 6.0e-3;",
            "@Differentiable static double entry(double x) {",
            "  if (Math.abs(x) <= SHORTCUT) {",
            "    double x2 = x * x;",
            "    return ((x2 - 20) * x2 + 120) / 120;",
            "  }",
            "  return Math.sin(x) / x;",
            "}"),
        accepted("sigmoid with checks", "Commons Math / Hipparchus Sigmoid.value with bounds", 1,
            new double[][] {{0.7}, {-2.5}},
            "@Differentiable static double entry(double x) {",
            "  if (Double.isNaN(x)) {",
            "    return x;",
            "  }",
            "  if (Double.isInfinite(x)) {",
            "    return x > 0 ? 1 : 0;",
            "  }",
            "  return 1 / (1 + Math.exp(-x));",
            "}"),
        accepted("Poisson log-probability",
            "Commons Math / Hipparchus PoissonDistribution.logProbability", 1,
            new double[][] {{0.7}, {3.5}},
            "static double factorialLog(int n) {",
            "  if (n < 0) { throw new IllegalArgumentException(\"n < 0: \" + n); }",
            "  double log = 0;",
            "  for (int i = 2; i <= n; i++) { log += Math.log(i); }",
            "  return log;",
            "}",
            "@Differentiable static double logProbability(double mean, int x) {",
            "  if (x < 0 || x == Integer.MAX_VALUE) {",
            "    return Double.NEGATIVE_INFINITY;",
            "  } else if (x == 0) {",
            "    return -mean;",
            "  }",
            "  return -mean + x * Math.log(mean) - factorialLog(x);",
            "}",
            "@Differentiable static double entry(double mean) { return logProbability(mean, 4); }"),
        accepted("fuzzy comparison", "Commons Math / Hipparchus Precision.equals(x, y, eps)"
                + " guarding a division", 2,
            new double[][] {{0.7, 0.2}, {1.5, -0.5}},
            "static boolean equals(double x, double y, double eps) {",
            "  return Math.abs(y - x) <= eps;",
            "}",
            "@Differentiable static double entry(double a, double b) {",
            "  if (equals(a, b, 1e-12)) {",
            "    return Math.exp(a);",
            "  }",
            "  return (Math.exp(a) - Math.exp(b)) / (a - b);",
            "}"),
        accepted("angle normalisation", "JTS Angle.normalize", 1,
            new double[][] {{0.7}, {7.5}, {-9.1}},
            "static final double PI_TIMES_2 = 2.0 * Math.PI;",
            "@Differentiable static double entry(double angle) {",
            "  while (angle > Math.PI) { angle -= PI_TIMES_2; }",
            "  while (angle <= -Math.PI) { angle += PI_TIMES_2; }",
            "  return angle;",
            "}"),
        accepted("argument check", "Hipparchus MathUtils.checkFinite before a computation", 1,
            new double[][] {{0.7}, {-2.5}},
            "static void checkFinite(double x) {",
            "  if (Double.isInfinite(x) || Double.isNaN(x)) {",
            "    throw new IllegalArgumentException(\"not finite: \" + x);",
            "  }",
            "}",
            "@Differentiable static double entry(double x) {",
            "  checkFinite(x);",
            "  return Math.log1p(Math.exp(-Math.abs(x))) + Math.max(x, 0);",
            "}"),
        accepted("logged iteration", "a fixed-point iteration logging through"
                + " java.util.logging, as library code does", 1,
            new double[][] {{0.7}, {1.3}},
            "static final java.util.logging.Logger LOG =",
            "    java.util.logging.Logger.getLogger(\"F\");",
            "@Differentiable static double entry(double a) {",
            "  double x = a;",
            "  for (int i = 0; i < 30; i++) {",
            "    x = Math.cos(x) * a;",
            "    LOG.finest(\"iteration \" + i + \": \" + x);",
            "  }",
            "  return x;",
            "}"),
        accepted("periodic index", "a periodic interpolation's cell index (floorMod),"
                + " in the style of Hipparchus interpolators", 1,
            new double[][] {{0.7}, {3.3}},
            "@Differentiable static double entry(double t) {",
            "  int cell = (int) Math.floor(t);",
            "  int k = Math.floorMod(cell, 4);",
            "  double f = t - cell;",
            "  return (1 - f) * k + f * Math.floorMod(k + 1, 4);",
            "}"),
        accepted("Double.compare ordering", "Commons Math / Hipparchus FastMath.max-style"
                + " ordering with Double.compare", 2,
            new double[][] {{0.7, 0.2}, {-1.5, 0.5}},
            "@Differentiable static double entry(double a, double b) {",
            "  return Double.compare(a, b) >= 0 ? a * a : b * a;",
            "}"),
        accepted("normal density", "Commons Math / Hipparchus NormalDistribution.density", 3,
            new double[][] {{0.7, 0.2, 1.5}, {-1.3, 0.4, 0.8}},
            "private static final double SQRT2PI = Math.sqrt(2 * Math.PI);",
            "@Differentiable static double density(double x, double mean, double sd) {",
            "  double x0 = x - mean;",
            "  double x1 = x0 / sd;",
            "  return Math.exp(-0.5 * x1 * x1) / (sd * SQRT2PI);",
            "}",
            "@Differentiable static double entry(double x, double m, double s) {",
            "  return density(x, m, s);",
            "}"),
        accepted("logit with range check", "Commons Math / Hipparchus Logit.value", 1,
            new double[][] {{0.7}, {-0.4}},
            "static final class OutOfRange extends IllegalArgumentException {",
            "  private static final long serialVersionUID = 1L;",
            "  OutOfRange(double x, double lo, double hi) {",
            "    super(x + \" is outside [\" + lo + \", \" + hi + \"]\");",
            "  }",
            "}",
            "@Differentiable static double value(double x, double lo, double hi) {",
            "  if (x < lo || x > hi) {",
            "    throw new OutOfRange(x, lo, hi);",
            "  }",
            "  return Math.log((x - lo) / (hi - x));",
            "}",
            "@Differentiable static double entry(double x) { return value(x, -1, 2); }"),
        rejected("distribution object", "Commons Math / Hipparchus"
                + " NormalDistribution.cumulativeProbability on a parameter",
            "'x' carries a derivative into 'd.cumulativeProbability(x)', which ad4j cannot"
                + " differentiate: 'Distribution.cumulativeProbability' is a method of an object",
            "interface Distribution { double cumulativeProbability(double x); }",
            "@Differentiable static double tail(Distribution d, double x) {",
            "  return 1 - d.cumulativeProbability(x);",
            "}"),
        accepted("segment distance", "JTS Distance.pointToSegment on coordinate objects", 2,
            new double[][] {{0.3, -0.4}, {2.5, 1.5}},
            "record Coordinate(double x, double y) {}",
            "@Differentiable static double distance(Coordinate p, double ax, double ay) {",
            "  return Math.hypot(p.x() - ax, p.y() - ay);",
            "}",
            "@Differentiable static double entry(double ax, double ay) {",
            "  return distance(new Coordinate(1, 2), ax, ay);",
            "}"),
        accepted("assertion", "an assert-guarded helper as in JTS Assert-style code", 1,
            new double[][] {{0.7}, {2.5}},
            "@Differentiable static double entry(double x) {",
            "  assert x >= 0 : \"negative\";",
            "  return Math.sqrt(x);",
            "}"),
        // float locals that round derivative-carrying values are in FloatArithmeticTest, whose
        // reference is the same function in double: differences of a float function are noise
        accepted("float arithmetic", "single-precision code in the style of graphics libraries",
            1, new double[][] {{0.7}, {-2.5}},
            "@Differentiable static double value(double x) {",
            "  float h = 0.5f;",
            "  return x * h;",
            "}",
            "@Differentiable static double entry(double x) { return value(x); }"),
        accepted("enum parameter", "Hipparchus RoundingMode / enum-driven functions", 1,
            new double[][] {{0.7}, {-2.5}},
            "enum Mode { LINEAR, SQUARE }",
            "@Differentiable static double value(Mode mode, double x) {",
            "  return mode == Mode.LINEAR ? x : x * x;",
            "}",
            "@Differentiable static double entry(double x) {",
            "  return value(Mode.LINEAR, x) + value(Mode.SQUARE, x);",
            "}"),
        // ---- issue 15, second part: objects, enums, strings, assert, private helpers --------
        accepted("activation by enum", "Deeplearning4j Activation enum / an activation chosen"
                + " by a switch on it", 1,
            new double[][] {{0.7}, {-1.3}},
            "enum Activation { IDENTITY, RELU, SIGMOID, TANH, SOFTPLUS }",
            "@Differentiable static double activate(Activation a, double x) {",
            "  return switch (a) {",
            "    case IDENTITY -> x;",
            "    case RELU -> Math.max(0, x);",
            "    case SIGMOID -> 1 / (1 + Math.exp(-x));",
            "    case TANH -> Math.tanh(x);",
            "    case SOFTPLUS -> Math.log1p(Math.exp(x));",
            "  };",
            "}",
            "@Differentiable static double entry(double x) {",
            "  return activate(Activation.IDENTITY, x) + activate(Activation.RELU, x)",
            "      + activate(Activation.SIGMOID, x) + activate(Activation.TANH, x)",
            "      + activate(Activation.SOFTPLUS, x);",
            "}"),
        accepted("rounding mode switch", "Commons Math / Hipparchus Precision.roundUnscaled,"
                + " switching on java.math.RoundingMode", 1,
            new double[][] {{0.7}, {-2.25}},
            "@Differentiable static double roundUnscaled(double unscaled, double sign,",
            "    java.math.RoundingMode mode) {",
            "  switch (mode) {",
            "    case CEILING:",
            "      return sign == -1 ? Math.floor(unscaled) : Math.ceil(unscaled);",
            "    case FLOOR:",
            "      return sign == -1 ? Math.ceil(unscaled) : Math.floor(unscaled);",
            "    case DOWN:",
            "      return Math.floor(unscaled);",
            "    case UNNECESSARY:",
            "      if (unscaled != Math.floor(unscaled)) {",
            "        throw new ArithmeticException(\"rounding needed for \" + unscaled);",
            "      }",
            "      return unscaled;",
            "    default:",
            "      throw new IllegalArgumentException(\"mode \" + mode + \" not handled\");",
            "  }",
            "}",
            "@Differentiable static double entry(double x) {",
            "  return x * x * roundUnscaled(10 * x + 0.1, 1, java.math.RoundingMode.FLOOR);",
            "}"),
        accepted("angle unit by name", "unit conversion keyed by a unit symbol, in the style"
                + " of the JSR 385 reference implementation (Indriya)", 1,
            new double[][] {{30.0}, {-45.0}},
            "@Differentiable static double toRadians(double value, String unit) {",
            "  switch (unit) {",
            "    case \"rad\": return value;",
            "    case \"deg\": return value * Math.PI / 180;",
            "    case \"grad\": return value * Math.PI / 200;",
            "    default: throw new IllegalArgumentException(\"unknown unit: \" + unit);",
            "  }",
            "}",
            "@Differentiable static double entry(double a) {",
            "  return Math.sin(toRadians(a, \"deg\")) + toRadians(a, \"grad\");",
            "}"),
        accepted("distribution parameters as a record", "Hipparchus NormalDistribution"
                + ".logDensity with its parameters held in a value object", 2,
            new double[][] {{0.7, 0.2}, {-1.3, 0.4}},
            "record Normal(double mean, double standardDeviation) {",
            "  double logStandardDeviationPlusHalfLog2Pi() {",
            "    return Math.log(standardDeviation) + 0.5 * Math.log(2 * Math.PI);",
            "  }",
            "}",
            "@Differentiable static double logDensity(Normal n, double x) {",
            "  double x0 = x - n.mean();",
            "  double x1 = x0 / n.standardDeviation();",
            "  return -0.5 * x1 * x1 - n.logStandardDeviationPlusHalfLog2Pi();",
            "}",
            "@Differentiable static double entry(double x, double y) {",
            "  Normal standard = new Normal(0, 1.5);",
            "  return logDensity(standard, x) + logDensity(new Normal(1, 2), y);",
            "}"),
        accepted("Lanczos log-gamma with a private helper", "Commons Math / Hipparchus"
                + " Gamma.logGamma and its private Lanczos sum over a private coefficient table",
            1, new double[][] {{8.5}, {12.25}},
            "private static final double[] LANCZOS = {",
            "  0.99999999999999709182, 57.156235665862923517, -59.597960355475491248,",
            "  14.136097974741747174, -0.49191381609762019978};",
            "private static final double HALF_LOG_2_PI = 0.5 * Math.log(2.0 * Math.PI);",
            "@Differentiable private static double lanczos(double x) {",
            "  double sum = 0;",
            "  for (int i = LANCZOS.length - 1; i > 0; --i) { sum += LANCZOS[i] / (x + i); }",
            "  return sum + LANCZOS[0];",
            "}",
            "@Differentiable static double logGamma(double x) {",
            "  assert x >= 8 : \"this branch is for x >= 8, is \" + x;",
            "  double g = 607.0 / 128.0;",
            "  double tmp = x + g + .5;",
            "  return ((x + .5) * Math.log(tmp)) - tmp + HALF_LOG_2_PI + Math.log(lanczos(x) / x);",
            "}",
            "@Differentiable static double entry(double x) { return logGamma(x); }"),
        accepted("logged optimizer step", "a gradient step logging through java.util.logging"
                + " with a Level check, as optimizers in Hipparchus-based code do", 1,
            new double[][] {{0.7}, {1.3}},
            "static final java.util.logging.Logger LOG =",
            "    java.util.logging.Logger.getLogger(\"F\");",
            "@Differentiable static double entry(double x) {",
            "  double y = x;",
            "  for (int k = 0; k < 5; k++) {",
            "    y = y - 0.1 * (y - Math.cos(x));",
            "    if (LOG.isLoggable(java.util.logging.Level.FINE)) {",
            "      StringBuilder line = new StringBuilder(\"step \");",
            "      LOG.fine(line.append(k).append(\": \").append(y).toString());",
            "    }",
            "  }",
            "  return y;",
            "}"),
        accepted("power with a long exponent", "Hipparchus FastMath.pow(double, long) by"
                + " repeated squaring", 1,
            new double[][] {{0.7}, {-1.3}},
            "@Differentiable static double pow(double d, long e) {",
            "  if (e == 0) { return 1.0; }",
            "  if (e < 0) { return 1 / pow(d, -e); }",
            "  double result = 1;",
            "  double square = d;",
            "  while (e != 0) {",
            "    if ((e & 1L) != 0) { result *= square; }",
            "    square *= square;",
            "    e >>= 1;",
            "  }",
            "  return result;",
            "}",
            "@Differentiable static double entry(double x) { return pow(x, 5L) + pow(x, -3L); }"),
        accepted("weights by label table", "a loss weighted by class labels read from a static"
                + " String table, in the style of Tribuo's label-weighted losses", 2,
            new double[][] {{0.7, 0.2}, {0.3, 0.9}},
            "static final String[] LABELS = {\"negative\", \"positive\"};",
            "static final long[] COUNTS = {300L, 100L};",
            "@Differentiable static double weightedLoss(double p, int label) {",
            "  double weight = (double) (COUNTS[0] + COUNTS[1]) / COUNTS[label];",
            "  if (LABELS[label].equals(\"positive\")) {",
            "    return -weight * Math.log(p);",
            "  }",
            "  return -weight * Math.log(1 - p);",
            "}",
            "@Differentiable static double entry(double p, double q) {",
            "  return weightedLoss(p, 1) + weightedLoss(q, 0);",
            "}"),
        rejected("cumulative probability of an active value", "Commons Math / Hipparchus"
                + " NormalDistribution.cumulativeProbability on a local distribution object",
            "'Normal.cdf' is a method of an object, which ad4j runs as written",
            "static final class Normal {",
            "  double cdf(double x) { return 0.5 * (1 + Math.tanh(0.8 * x)); }",
            "}",
            "@Differentiable static double tail(double x) {",
            "  Normal n = new Normal();",
            "  return 1 - n.cdf(x);",
            "}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("functions")
  void acceptedAsWrittenOrRejectedWithAReason(Real real) {
    String source = "package com.example;\nimport ad4j.Differentiable;\nfinal class F {\n"
        + real.source() + "\n}\n";
    Compilation compilation = InProcessCompiler.compileUnchecked("com.example.F", source);
    if (real.error() != null) {
      assertThat(compilation).failed();
      assertThat(compilation).hadErrorContaining(real.error());
      return;
    }
    InProcessCompiler.requireSuccess(compilation);
    CompiledFunction entry = InProcessCompiler.loaded(compilation)
        .function("com.example.F", "entry", real.arity());
    for (double[] x : real.points()) {
      DerivativeChecks.checkAt(entry, x);
    }
  }

}
