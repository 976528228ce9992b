package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The measure of issue 36: forty numerical functions written as public Java libraries write
 * them, compiled on their own with {@code @Differentiable} added, and counted: accepted with
 * derivatives that pass {@link DerivativeChecks} (fourth-order differences of the user's own
 * method, forward against reverse) at the given points, through {@code entry}, a
 * {@code double}-only method that calls the function; or rejected with the error given. The
 * count of accepted and correct ones is printed and asserted ({@link #ACCEPTED}); the README
 * gives it.
 *
 * <p>Origins. None is copied (the project copies no code): each is written for this test "in
 * the style of" the function named, keeping the shapes that matter here (argument checks,
 * exceptions with formatted messages, private static tables and constants, private helpers,
 * loggers, enums, variable arity, records, {@code float}, instance methods, streams,
 * lambdas); the formulas are textbook mathematics. The libraries named and their licences:
 * Apache Commons Math, Commons Numbers, Hipparchus, OpenGamma Strata, Apache POI, Orekit,
 * Deeplearning4j, Tribuo and Spatial4j are under the Apache License 2.0; GeographicLib-Java
 * under the MIT License; JTransforms under the BSD 2-Clause License; the JTS Topology Suite
 * under the Eclipse Public License 2.0; Smile under the GNU LGPL 3.0 (its older releases) and
 * TarsosDSP under the GNU GPL 3.0.
 */
class RealCodeCorpusTest {
  /** How many of {@link #functions()} ad4j accepts, with exact derivatives. */
  private static final int ACCEPTED = 38;

  private static final String HEADER = """
      package com.example;
      import ad4j.Differentiable;
      import ad4j.NoDerivative;
      import java.text.MessageFormat;
      import java.util.Arrays;
      import java.util.Locale;
      import java.util.Objects;
      import java.util.function.DoubleUnaryOperator;
      import java.util.logging.Level;
      import java.util.logging.Logger;
      import java.util.stream.IntStream;
      final class F {
      """;

  /** What happened to each function, by name, for the count. */
  private static final Map<String, Outcome> OUTCOMES = new ConcurrentHashMap<>();

  enum Outcome { ACCEPTED_AND_CORRECT, WRONG, REJECTED }

  /**
   * A function: {@code source} holds the members of a class {@code F} (the function, its
   * helpers, and {@code @Differentiable static double entry(double...)} of {@code arity}
   * parameters, checked at {@code points}); {@code error} is the rejection expected, or null.
   */
  record Function(String name, String origin, int arity, double[][] points, String source,
      String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Function accepted(String name, String origin, int arity, double[][] points,
      String source) {
    return new Function(name, origin, arity, points, source, null);
  }

  private static Function rejected(String name, String origin, int arity, double[][] points,
      String error, String source) {
    return new Function(name, origin, arity, points, source, error);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("functions")
  void acceptedAndExactOrRejectedWithAReason(Function function) {
    Compilation compilation = InProcessCompiler.compileUnchecked("com.example.F",
        HEADER + function.source() + "}\n");
    String errors = compilation.errors().stream()
        .map(error -> error.getLineNumber() + ": " + error.getMessage(null))
        .collect(Collectors.joining("\n"));
    if (compilation.status() != Compilation.Status.SUCCESS) {
      OUTCOMES.put(function.name(), Outcome.REJECTED);
      assertWithMessage("%s (%s) was rejected:\n%s", function, function.origin(), errors)
          .that(function.error()).isNotNull();
      assertThat(errors).contains(function.error());
      return;
    }
    OUTCOMES.put(function.name(), Outcome.WRONG);
    assertWithMessage("%s (%s) was accepted; expected: %s", function, function.origin(),
        function.error()).that(function.error()).isNull();
    assertThat(compilation.diagnostics().stream()
        .filter(d -> d.getKind() == Diagnostic.Kind.WARNING).toList()).isEmpty();
    CompiledFunction entry = InProcessCompiler.loaded(compilation)
        .function("com.example.F", "entry", function.arity());
    for (double[] x : function.points()) {
      DerivativeChecks.checkAt(entry, x);
    }
    OUTCOMES.put(function.name(), Outcome.ACCEPTED_AND_CORRECT);
  }

  @AfterAll
  static void count() {
    long total = functions().count();
    long correct = OUTCOMES.values().stream()
        .filter(outcome -> outcome == Outcome.ACCEPTED_AND_CORRECT).count();
    System.out.printf("RealCodeCorpusTest: %d of %d functions accepted and correct, %d run%n",
        correct, total, OUTCOMES.size());
    if (OUTCOMES.size() == total) {
      assertThat(correct).isEqualTo(ACCEPTED);
    }
  }

  static Stream<Function> functions() {
    return Stream.of(
        accepted("log-gamma by recurrence and Stirling's series",
            "Commons Numbers / Commons Math Gamma.logGamma", 1,
            new double[][] {{0.7}, {3.2}, {11.5}}, """
            private static final double HALF_LOG_2_PI = 0.5 * Math.log(2.0 * Math.PI);
            private static final double[] STIRLING = {1.0 / 12, -1.0 / 360, 1.0 / 1260};
            @Differentiable static double logGamma(double x) {
              if (Double.isNaN(x) || x <= 0.0) {
                return Double.NaN;
              }
              double shift = 0;
              while (x < 7) {
                shift += Math.log(x);
                x += 1;
              }
              double inverse = 1 / x;
              double inverseSquared = inverse * inverse;
              double series = 0;
              double power = inverse;
              for (int k = 0; k < STIRLING.length; k++) {
                series += STIRLING[k] * power;
                power *= inverseSquared;
              }
              return (x - 0.5) * Math.log(x) - x + HALF_LOG_2_PI + series - shift;
            }
            @Differentiable static double entry(double x) { return logGamma(x); }
            """),
        accepted("error function by a rational approximation",
            "Hipparchus / Commons Math Erf.erf", 1,
            new double[][] {{0.3}, {-1.2}, {2.4}}, """
            private static final double P = 0.3275911;
            private static final double[] A = {0.254829592, -0.284496736, 1.421413741,
                -1.453152027, 1.061405429};
            @Differentiable static double erf(double x) {
              if (Math.abs(x) > 40) {
                return x > 0 ? 1 : -1;
              }
              double sign = Math.signum(x);
              double z = Math.abs(x);
              double t = 1 / (1 + P * z);
              double poly = 0;
              for (int i = A.length - 1; i >= 0; i--) {
                poly = (poly + A[i]) * t;
              }
              return sign * (1 - poly * Math.exp(-z * z));
            }
            @Differentiable static double entry(double x) { return erf(x); }
            """),
        accepted("normal cumulative probability with a formatted check",
            "Commons Math NormalDistribution.cumulativeProbability", 3,
            new double[][] {{0.4, 0.1, 1.3}, {-0.8, 0.5, 0.7}}, """
            private static final double SQRT2 = Math.sqrt(2.0);
            @Differentiable static double erf(double x) {
              double t = 1 / (1 + 0.3275911 * Math.abs(x));
              double y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t
                  - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
              return x >= 0 ? y : -y;
            }
            @Differentiable static double cumulativeProbability(double x, double mean,
                double sd) {
              if (sd <= 0) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "standard deviation (%s) must be positive", sd));
              }
              double dev = x - mean;
              if (Math.abs(dev) > 40 * sd) {
                return dev < 0 ? 0.0 : 1.0;
              }
              return 0.5 * (1 + erf(dev / (sd * SQRT2)));
            }
            @Differentiable static double entry(double x, double m, double s) {
              return cumulativeProbability(x, m, s);
            }
            """),
        accepted("Weibull density with its domain", "Commons Math WeibullDistribution.density",
            3, new double[][] {{0.8, 1.7, 1.2}, {2.1, 0.9, 1.5}}, """
            @Differentiable static double density(double x, double shape, double scale) {
              if (shape <= 0 || scale <= 0) {
                throw new IllegalArgumentException("shape " + shape + " and scale " + scale
                    + " must be positive");
              }
              if (x < 0) {
                return 0;
              }
              double xscale = x / scale;
              double xscalepow = Math.pow(xscale, shape - 1);
              double xscalepowshape = xscalepow * xscale;
              return (shape / scale) * xscalepow * Math.exp(-xscalepowshape);
            }
            @Differentiable static double entry(double x, double k, double l) {
              return density(x, k, l);
            }
            """),
        accepted("log-beta through a private log-gamma helper",
            "Commons Math Beta.logBeta over Gamma.logGamma", 2,
            new double[][] {{1.5, 2.3}, {8.2, 0.9}}, """
            private static final double HALF_LOG_2_PI = 0.9189385332046728;
            @Differentiable private static double logGamma(double x) {
              double shift = 0;
              while (x < 8) {
                shift += Math.log(x);
                x++;
              }
              double inv = 1 / x;
              return (x - 0.5) * Math.log(x) - x + HALF_LOG_2_PI
                  + inv * (1.0 / 12 - inv * inv / 360) - shift;
            }
            @Differentiable static double logBeta(double p, double q) {
              if (Double.isNaN(p) || Double.isNaN(q) || p <= 0 || q <= 0) {
                return Double.NaN;
              }
              return logGamma(p) + logGamma(q) - logGamma(p + q);
            }
            @Differentiable static double entry(double p, double q) { return logBeta(p, q); }
            """),
        accepted("Student t log-density", "Hipparchus TDistribution.logDensity", 2,
            new double[][] {{0.4, 3.5}, {-1.3, 6.6}}, """
            private static final double LOG_PI = Math.log(Math.PI);
            @Differentiable static double logGamma(double x) {
              double shift = 0;
              while (x < 8) { shift += Math.log(x); x += 1; }
              return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI)
                  + 1 / (12 * x) - shift;
            }
            @Differentiable static double logDensity(double x, double dof) {
              double n = dof;
              double nPlus1Over2 = (n + 1) / 2;
              return logGamma(nPlus1Over2) - 0.5 * (LOG_PI + Math.log(n))
                  - logGamma(n / 2) - nPlus1Over2 * Math.log1p(x * x / n);
            }
            @Differentiable static double entry(double x, double dof) {
              return logDensity(x, dof);
            }
            """),
        accepted("variance with bias correction as a static flag",
            "Commons Math Variance.evaluate (two-pass, corrected)", 3,
            new double[][] {{0.4, 1.3, -0.7}, {2.0, 2.5, 1.0}}, """
            private static final boolean BIAS_CORRECTED = true;
            @Differentiable static double variance(double[] values) {
              Objects.requireNonNull(values, "values");
              if (values.length == 1) {
                return 0.0;
              }
              double mean = 0;
              for (double v : values) {
                mean += v;
              }
              mean /= values.length;
              double accum = 0;
              double accum2 = 0;
              for (int i = 0; i < values.length; i++) {
                double dev = values[i] - mean;
                accum += dev * dev;
                accum2 += dev;
              }
              double len = values.length;
              return BIAS_CORRECTED ? (accum - accum2 * accum2 / len) / (len - 1)
                  : (accum - accum2 * accum2 / len) / len;
            }
            @Differentiable static double entry(double a, double b, double c) {
              return variance(new double[] {a, b, c, 0.5});
            }
            """),
        accepted("Pearson correlation with a MessageFormat check",
            "Commons Math PearsonsCorrelation.correlation", 3,
            new double[][] {{0.4, 1.3, -0.7}, {2.0, 2.5, 1.0}}, """
            @Differentiable static double correlation(double[] xs, double[] ys) {
              if (xs.length != ys.length) {
                throw new IllegalArgumentException(MessageFormat.format(
                    "dimension mismatch {0} != {1}", xs.length, ys.length));
              }
              if (xs.length < 2) {
                throw new IllegalArgumentException("insufficient dimension " + xs.length);
              }
              double mx = 0;
              double my = 0;
              for (int i = 0; i < xs.length; i++) { mx += xs[i]; my += ys[i]; }
              mx /= xs.length;
              my /= ys.length;
              double sxy = 0;
              double sxx = 0;
              double syy = 0;
              for (int i = 0; i < xs.length; i++) {
                double dx = xs[i] - mx;
                double dy = ys[i] - my;
                sxy += dx * dy; sxx += dx * dx; syy += dy * dy;
              }
              return sxy / Math.sqrt(sxx * syy);
            }
            @Differentiable static double entry(double a, double b, double c) {
              return correlation(new double[] {a, b, c, 1.0}, new double[] {b, 0.3, a * c, -1});
            }
            """),
        accepted("skewness with a static minimum length",
            "Commons Math Skewness.evaluate", 3, new double[][] {{0.4, 1.3, -0.7}}, """
            private static final int MIN_LENGTH = 3;
            @Differentiable static double skewness(double[] values) {
              if (values.length < MIN_LENGTH) {
                return Double.NaN;
              }
              double m = 0;
              for (double v : values) m += v;
              m /= values.length;
              double accum = 0;
              double accum2 = 0;
              for (double v : values) {
                double d = v - m;
                accum += d * d;
                accum2 += d;
              }
              double n0 = values.length;
              double variance = (accum - (accum2 * accum2 / n0)) / (n0 - 1);
              double accum3 = 0;
              for (double v : values) {
                double d = v - m;
                accum3 += d * d * d;
              }
              accum3 /= variance * Math.sqrt(variance);
              return (n0 / ((n0 - 1) * (n0 - 2))) * accum3;
            }
            @Differentiable static double entry(double a, double b, double c) {
              return skewness(new double[] {a, b, c, 2.0, -0.1});
            }
            """),
        accepted("haversine distance with a private radius",
            "Spatial4j DistanceUtils.distHaversineRAD", 4,
            new double[][] {{0.3, 0.2, 0.5, 0.9}, {-0.4, 1.1, 0.2, -0.3}}, """
            private static final double EARTH_MEAN_RADIUS_KM = 6371.0087714;
            @Differentiable static double distHaversineRAD(double lat1, double lon1,
                double lat2, double lon2) {
              if (lat1 == lat2 && lon1 == lon2) {
                return 0.0;
              }
              double hsinX = Math.sin((lon1 - lon2) * 0.5);
              double hsinY = Math.sin((lat1 - lat2) * 0.5);
              double h = hsinY * hsinY + (Math.cos(lat1) * Math.cos(lat2) * hsinX * hsinX);
              if (h > 1) {
                h = 1;
              }
              return 2 * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
            }
            @Differentiable static double entry(double a, double b, double c, double d) {
              return EARTH_MEAN_RADIUS_KM * distHaversineRAD(a, b, c, d);
            }
            """),
        accepted("initial bearing on a record of coordinates",
            "GeographicLib-Java Geodesic.Inverse azimuth, on a sphere", 4,
            new double[][] {{0.3, 0.2, 0.5, 0.9}, {-0.4, 1.1, 0.2, -0.3}}, """
            record LatLon(double lat, double lon) {
              LatLon {
                if (Math.abs(lat) > Math.PI / 2) {
                  throw new IllegalArgumentException("latitude " + lat + " out of range");
                }
              }
            }
            @Differentiable static double bearing(LatLon from, LatLon to) {
              double dLon = to.lon() - from.lon();
              double y = Math.sin(dLon) * Math.cos(to.lat());
              double x = Math.cos(from.lat()) * Math.sin(to.lat())
                  - Math.sin(from.lat()) * Math.cos(to.lat()) * Math.cos(dLon);
              return Math.atan2(y, x);
            }
            @Differentiable static double entry(double a, double b, double c, double d) {
              return bearing(new LatLon(a, b), new LatLon(c, d));
            }
            """),
        accepted("equirectangular projection with an enum of units",
            "JTS / Spatial4j distance units, in the style of DistanceUtils", 2,
            new double[][] {{0.3, 0.2}, {-0.4, 1.1}}, """
            enum Unit {
              KILOMETERS(6371.0), MILES(3958.8);
              private final double radius;
              Unit(double radius) { this.radius = radius; }
              double radius() { return radius; }
            }
            @Differentiable static double distance(double dLat, double dLon, double lat,
                Unit unit) {
              double x = dLon * Math.cos(lat);
              return unit.radius() * Math.sqrt(x * x + dLat * dLat);
            }
            @Differentiable static double entry(double a, double b) {
              return distance(a, b, 0.7, Unit.MILES) + distance(b, a, a, Unit.KILOMETERS);
            }
            """),
        accepted("Kepler's equation by Newton's method",
            "Orekit KeplerianAnomalyUtility.ellipticMeanToEccentric", 2,
            new double[][] {{0.8, 0.1}, {2.3, 0.4}}, """
            private static final int MAX_ITERATIONS = 50;
            private static final double TOLERANCE = 1e-15;
            @Differentiable static double eccentricAnomaly(double meanAnomaly, double e) {
              if (e < 0 || e >= 1) {
                throw new IllegalArgumentException(String.format(
                    "eccentricity %f is not elliptic", e));
              }
              double ea = meanAnomaly + e * Math.sin(meanAnomaly);
              for (int i = 0; i < MAX_ITERATIONS; i++) {
                double f = ea - e * Math.sin(ea) - meanAnomaly;
                double df = 1 - e * Math.cos(ea);
                double delta = f / df;
                ea -= delta;
                if (Math.abs(delta) <= TOLERANCE) {
                  break;
                }
              }
              return ea;
            }
            @Differentiable static double entry(double m, double e) {
              return eccentricAnomaly(m, e);
            }
            """),
        accepted("true anomaly from the eccentric anomaly",
            "Orekit KeplerianAnomalyUtility.ellipticEccentricToTrue", 2,
            new double[][] {{0.8, 0.1}, {2.3, 0.4}}, """
            @Differentiable static double ellipticEccentricToTrue(double e, double ea) {
              double beta = e / (1 + Math.sqrt((1 - e) * (1 + e)));
              return ea + 2 * Math.atan(beta * Math.sin(ea) / (1 - beta * Math.cos(ea)));
            }
            @Differentiable static double entry(double ea, double e) {
              return ellipticEccentricToTrue(e, ea);
            }
            """),
        accepted("Black-Scholes call price with argument checks",
            "OpenGamma Strata BlackScholesFormulaRepository.price", 3,
            new double[][] {{100, 0.25, 0.03}, {90, 0.4, 0.01}}, """
            private static final double SMALL = 1e-13;
            @Differentiable static double normalCdf(double x) {
              double t = 1 / (1 + 0.2316419 * Math.abs(x));
              double poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937
                  + t * (-1.821255978 + t * 1.330274429))));
              double tail = Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI) * poly;
              return x >= 0 ? 1 - tail : tail;
            }
            @Differentiable static double price(double spot, double strike, double timeToExpiry,
                double vol, double rate, boolean isCall) {
              if (spot < 0 || strike < 0) {
                throw new IllegalArgumentException("negative spot " + spot + " or strike "
                    + strike);
              }
              if (timeToExpiry < SMALL) {
                return isCall ? Math.max(spot - strike, 0) : Math.max(strike - spot, 0);
              }
              double sigmaRootT = vol * Math.sqrt(timeToExpiry);
              double d1 = (Math.log(spot / strike) + (rate + 0.5 * vol * vol) * timeToExpiry)
                  / sigmaRootT;
              double d2 = d1 - sigmaRootT;
              double discount = Math.exp(-rate * timeToExpiry);
              return isCall ? spot * normalCdf(d1) - strike * discount * normalCdf(d2)
                  : strike * discount * normalCdf(-d2) - spot * normalCdf(-d1);
            }
            @Differentiable static double entry(double s, double v, double r) {
              return price(s, 95, 0.75, v, r, true) + price(s, 105, 0.5, v, r, false);
            }
            """),
        accepted("bond price from a yield over variable-arity cash flows",
            "OpenGamma Strata DiscountingFixedCouponBondProductPricer, with double...", 2,
            new double[][] {{0.03, 0.5}, {0.07, 1.5}}, """
            @Differentiable static double price(double yield, double... flows) {
              if (flows.length == 0) {
                throw new IllegalArgumentException("no cash flows");
              }
              double pv = 0;
              double df = 1;
              for (int i = 0; i < flows.length; i++) {
                df /= 1 + yield;
                pv += flows[i] * df;
              }
              return pv;
            }
            @Differentiable static double entry(double y, double c) {
              return price(y, c, c, c, 100 + c);
            }
            """),
        accepted("present value of an annuity", "Apache POI FinanceLib.pv", 2,
            new double[][] {{0.05, 12}, {0.02, 3}}, """
            @Differentiable static double pv(double r, double n, double y, double f,
                boolean t) {
              double retval = 0;
              if (r == 0) {
                retval = -1 * ((n * y) + f);
              } else {
                double r1 = r + 1;
                retval = (((1 - Math.pow(r1, n)) / r) * (t ? r1 : 1) * y - f)
                    / Math.pow(r1, n);
              }
              return retval;
            }
            @Differentiable static double entry(double r, double n) {
              return pv(r, n, 100, 1000, false) + pv(r, n, 50, 0, true);
            }
            """),
        accepted("continuously compounded forward rate",
            "OpenGamma Strata ContinuousCompoundedRates, with Math.expm1 and log1p", 2,
            new double[][] {{0.03, 2}, {0.1, 0.5}}, """
            @Differentiable static double discountFactor(double rate, double t) {
              return Math.exp(-rate * t);
            }
            @Differentiable static double simpleForward(double r1, double t1, double r2,
                double t2) {
              if (t2 <= t1) {
                throw new IllegalArgumentException(String.format(Locale.ENGLISH,
                    "end %.4f must be after start %.4f", t2, t1));
              }
              double ratio = discountFactor(r1, t1) / discountFactor(r2, t2);
              return Math.expm1(Math.log(ratio)) / (t2 - t1);
            }
            @Differentiable static double entry(double r, double t) {
              return simpleForward(r, t, r * 1.1, t + 1);
            }
            """),
        accepted("power at one frequency of a Hann-windowed signal",
            "Commons Math FastFourierTransformer / JTransforms, one bin of the DFT", 3,
            new double[][] {{0.4, 1.3, -0.7}}, """
            private static final double TWO_PI = 2 * Math.PI;
            private static double hann(int i, int n) {
              return 0.5 * (1 - Math.cos(TWO_PI * i / (n - 1)));
            }
            @Differentiable static double power(double[] signal, int bin) {
              int n = signal.length;
              if ((n & (n - 1)) != 0) {
                throw new IllegalArgumentException(n + " is not a power of 2");
              }
              double re = 0;
              double im = 0;
              for (int i = 0; i < n; i++) {
                double w = hann(i, n) * signal[i];
                re += w * Math.cos(TWO_PI * bin * i / n);
                im -= w * Math.sin(TWO_PI * bin * i / n);
              }
              return re * re + im * im;
            }
            @Differentiable static double entry(double a, double b, double c) {
              return power(new double[] {a, b, c, a * b, 0.1, c, -a, 0.3}, 2);
            }
            """),
        accepted("biquad low-pass filter as a record's instance method",
            "TarsosDSP IIRFilter / a biquad of the Audio EQ Cookbook", 3,
            new double[][] {{0.4, 1.3, -0.7}}, """
            record Biquad(double b0, double b1, double b2, double a1, double a2) {
              @Differentiable double filterLast(double[] x) {
                double x1 = 0, x2 = 0, y1 = 0, y2 = 0;
                double y = 0;
                for (int i = 0; i < x.length; i++) {
                  y = b0 * x[i] + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
                  x2 = x1; x1 = x[i];
                  y2 = y1; y1 = y;
                }
                return y;
              }
            }
            @Differentiable static double entry(double a, double b, double c) {
              Biquad lowPass = new Biquad(0.2, 0.4, 0.2, -0.3, 0.1);
              return lowPass.filterLast(new double[] {a, b, c, a + c});
            }
            """),
        accepted("root mean square level in decibels with float constants",
            "TarsosDSP SilenceDetector.soundPressureLevel", 3,
            new double[][] {{0.4, 1.3, -0.7}}, """
            private static final float REFERENCE = 1.0f;
            private static final float FLOOR_DB = -120f;
            @Differentiable static double soundPressureLevel(double[] buffer) {
              double power = 0;
              for (double element : buffer) {
                power += element * element;
              }
              double rms = Math.sqrt(power / buffer.length);
              if (rms == 0) {
                return FLOOR_DB;
              }
              return 20.0 * Math.log10(rms / REFERENCE);
            }
            @Differentiable static double entry(double a, double b, double c) {
              return soundPressureLevel(new double[] {a, b, c});
            }
            """),
        accepted("a dense layer over float weights",
            "Deeplearning4j DenseLayer.activate over float parameters, as data", 2,
            new double[][] {{0.4, -1.5}, {1.2, 0.3}}, """
            private static final float[] WEIGHTS = {0.25f, -1.5f, 0.75f};
            @Differentiable static double activate(double[] input, @NoDerivative float[] bias) {
              double z = bias[0];
              for (int i = 0; i < input.length; i++) {
                z += WEIGHTS[i] * input[i];
              }
              return Math.tanh(z);
            }
            @Differentiable static double entry(double a, double b) {
              float[] bias = {0.1f};
              return activate(new double[] {a, b, a * b}, bias);
            }
            """),
        accepted("binary cross-entropy with an enum reduction",
            "Deeplearning4j LossBinaryXENT with a reduction mode", 3,
            new double[][] {{0.4, 1.3, -0.7}}, """
            enum Reduction { SUM, MEAN }
            private static final double EPS = 1e-12;
            @Differentiable static double loss(double[] logits, @NoDerivative double[] labels,
                Reduction reduction) {
              if (logits.length != labels.length) {
                throw new IllegalStateException("labels and logits differ in length: "
                    + labels.length + " vs " + logits.length);
              }
              double total = 0;
              for (int i = 0; i < logits.length; i++) {
                double p = 1 / (1 + Math.exp(-logits[i]));
                p = Math.min(Math.max(p, EPS), 1 - EPS);
                total -= labels[i] * Math.log(p) + (1 - labels[i]) * Math.log(1 - p);
              }
              switch (reduction) {
                case MEAN:
                  return total / logits.length;
                case SUM:
                default:
                  return total;
              }
            }
            @Differentiable static double entry(double a, double b, double c) {
              double[] labels = {1, 0, 1};
              return loss(new double[] {a, b, c}, labels, Reduction.MEAN)
                  + loss(new double[] {c, a, b}, labels, Reduction.SUM);
            }
            """),
        accepted("softmax cross-entropy by log-sum-exp", "Tribuo LabelObjective / "
                + "Deeplearning4j LossMCXENT, with the maximum subtracted", 3,
            new double[][] {{0.4, 1.3, -0.7}}, """
            @Differentiable static double logSumExp(double[] x) {
              double max = Double.NEGATIVE_INFINITY;
              for (double v : x) {
                max = Math.max(max, v);
              }
              double sum = 0;
              for (double v : x) {
                sum += Math.exp(v - max);
              }
              return max + Math.log(sum);
            }
            @Differentiable static double crossEntropy(double[] logits, int label) {
              if (label < 0 || label >= logits.length) {
                throw new IndexOutOfBoundsException("label " + label);
              }
              return logSumExp(logits) - logits[label];
            }
            @Differentiable static double entry(double a, double b, double c) {
              return crossEntropy(new double[] {a, b, c}, 1);
            }
            """),
        accepted("Huber loss with a checked threshold", "Smile / Tribuo Huber loss", 2,
            new double[][] {{0.4, 1.3}, {3.0, 0.5}}, """
            private static final Logger LOG = Logger.getLogger(F.class.getName());
            @Differentiable static double huber(double residual, double delta) {
              if (!(delta > 0)) {
                throw new IllegalArgumentException("Invalid delta: " + delta);
              }
              double a = Math.abs(residual);
              if (a <= delta) {
                return 0.5 * residual * residual;
              }
              LOG.log(Level.FINEST, "linear part at {0}", residual);
              return delta * (a - 0.5 * delta);
            }
            @Differentiable static double entry(double r, double d) {
              return huber(r, d) + huber(2 * r, 1.0);
            }
            """),
        accepted("Gaussian RBF kernel", "Tribuo RBFKernel.similarity / Smile GaussianKernel", 4,
            new double[][] {{0.4, 1.3, -0.7, 0.2}}, """
            @Differentiable static double similarity(double[] a, double[] b, double gamma) {
              if (a.length != b.length) {
                throw new IllegalArgumentException(String.format(
                    "Arrays have different lengths (%d, %d)", a.length, b.length));
              }
              double squared = 0;
              for (int i = 0; i < a.length; i++) {
                double d = a[i] - b[i];
                squared += d * d;
              }
              return Math.exp(-gamma * squared);
            }
            @Differentiable static double entry(double a, double b, double c, double g) {
              return similarity(new double[] {a, b}, new double[] {c, 0.5}, g);
            }
            """),
        accepted("cosine similarity by streams", "Tribuo DenseVector.cosineSimilarity", 3,
            new double[][] {{0.4, 1.3, -0.7}}, """
            @Differentiable static double cosine(double[] a, double[] b) {
              double dot = IntStream.range(0, a.length).mapToDouble(i -> a[i] * b[i]).sum();
              double na = Math.sqrt(Arrays.stream(a).map(x -> x * x).sum());
              double nb = Math.sqrt(Arrays.stream(b).map(x -> x * x).sum());
              return dot / (na * nb);
            }
            @Differentiable static double entry(double a, double b, double c) {
              return cosine(new double[] {a, b, c}, new double[] {c, 1.0, a});
            }
            """),
        accepted("Simpson's rule over a lambda", "Commons Math SimpsonIntegrator.integrate,"
                + " a function given as a lambda", 2, new double[][] {{0.7, 1.3}}, """
            @Differentiable static double simpson(DoubleUnaryOperator f, double a, double b,
                int n) {
              if (n % 2 != 0) {
                throw new IllegalArgumentException("n must be even: " + n);
              }
              double h = (b - a) / n;
              double sum = f.applyAsDouble(a) + f.applyAsDouble(b);
              for (int i = 1; i < n; i++) {
                sum += (i % 2 == 0 ? 2 : 4) * f.applyAsDouble(a + i * h);
              }
              return sum * h / 3;
            }
            @Differentiable static double entry(double k, double b) {
              return simpson(x -> Math.exp(-k * x * x), 0, b, 10);
            }
            """),
        accepted("Horner evaluation of a polynomial with its coefficients checked",
            "Commons Math PolynomialFunction.evaluate", 2, new double[][] {{0.4, 1.3}}, """
            static final class NoDataException extends IllegalArgumentException {
              private static final long serialVersionUID = 1L;
              NoDataException() { super("empty polynomials coefficients array"); }
            }
            @Differentiable static double evaluate(double[] coefficients, double argument) {
              int n = coefficients.length;
              if (n == 0) {
                throw new NoDataException();
              }
              double result = coefficients[n - 1];
              for (int j = n - 2; j >= 0; j--) {
                result = argument * result + coefficients[j];
              }
              return result;
            }
            @Differentiable static double entry(double c, double x) {
              return evaluate(new double[] {1, c, -0.5, c * c}, x);
            }
            """),
        accepted("piecewise-linear interpolation with a binary search",
            "Commons Math PolynomialSplineFunction.value over a LinearInterpolator's knots", 2,
            new double[][] {{1.3, 0.4}, {2.6, -0.2}, {0.2, 0.9}, {3.7, 1.1}}, """
            private static final double[] KNOTS = {0, 1, 2, 3, 4};
            @Differentiable static double value(double[] values, double v) {
              if (v < KNOTS[0] || v > KNOTS[KNOTS.length - 1]) {
                throw new IllegalArgumentException(String.format(
                    "%s out of [%s, %s] range", v, KNOTS[0], KNOTS[KNOTS.length - 1]));
              }
              int i = Arrays.binarySearch(KNOTS, v);
              if (i < 0) {
                i = -i - 2;
              }
              if (i >= KNOTS.length - 1) {
                i = KNOTS.length - 2;
              }
              double t = (v - KNOTS[i]) / (KNOTS[i + 1] - KNOTS[i]);
              return values[i] + t * (values[i + 1] - values[i]);
            }
            @Differentiable static double entry(double x, double a) {
              return value(new double[] {0, a, a * a, 1, 2}, x);
            }
            """),
        accepted("gradient clipping by norm", "Deeplearning4j GradientNormalization"
                + ".ClipL2PerLayer", 3, new double[][] {{0.4, 1.3, -0.7}, {3, 4, 5}}, """
            private static final double THRESHOLD = 2.0;
            @Differentiable static double clippedSum(double[] g) {
              double norm = 0;
              for (double v : g) norm += v * v;
              norm = Math.sqrt(norm);
              double scale = norm > THRESHOLD ? THRESHOLD / norm : 1.0;
              double s = 0;
              for (int i = 0; i < g.length; i++) {
                s += (i + 1) * g[i] * scale;
              }
              return s;
            }
            @Differentiable static double entry(double a, double b, double c) {
              return clippedSum(new double[] {a, b, c});
            }
            """),
        accepted("softplus with overflow guards", "Smile MathEx.softplus / Deeplearning4j"
                + " ActivationSoftPlus", 1, new double[][] {{0.4}, {-3.5}, {25}}, """
            private static final double LIMIT = 20;
            @Differentiable static double softplus(double x) {
              if (x > LIMIT) {
                return x;
              }
              if (x < -LIMIT) {
                return Math.exp(x);
              }
              return Math.log1p(Math.exp(x));
            }
            @Differentiable static double entry(double x) { return softplus(x); }
            """),
        accepted("pinball loss for a quantile", "Tribuo / Smile quantile loss", 2,
            new double[][] {{0.4, 1.3}, {2.0, 0.5}}, """
            @Differentiable static double pinball(double y, double prediction, double tau) {
              if (tau <= 0 || tau >= 1) {
                throw new IllegalArgumentException("quantile " + tau + " not in (0, 1)");
              }
              double diff = y - prediction;
              return diff >= 0 ? tau * diff : (tau - 1) * diff;
            }
            @Differentiable static double entry(double y, double p) {
              return pinball(y, p * p, 0.3);
            }
            """),
        accepted("Lennard-Jones pair energy with physical constants",
            "a force field's van der Waals term, in the style of the Chemistry Development"
                + " Kit", 1, new double[][] {{1.1}, {1.7}}, """
            private static final double EPSILON = 0.0103;
            private static final double SIGMA = 3.4;
            private static final double SIGMA6 = Math.pow(SIGMA, 6);
            @Differentiable static double energy(double r) {
              if (r <= 0) {
                throw new IllegalArgumentException("distance must be positive: " + r);
              }
              double r6 = Math.pow(r, 6);
              double s6 = SIGMA6 / r6;
              return 4 * EPSILON * (s6 * s6 - s6);
            }
            @Differentiable static double entry(double r) { return energy(3.5 * r); }
            """),
        accepted("Planck's law of spectral radiance", "JScience / Indriya physical constants"
                + " in a radiometry function", 2, new double[][] {{0.5, 5000}, {1.2, 3000}}, """
            private static final double H = 6.62607015e-34;
            private static final double C = 299792458.0;
            private static final double K_B = 1.380649e-23;
            @Differentiable static double radiance(double wavelengthMicrons, double kelvin) {
              double lambda = wavelengthMicrons * 1e-6;
              double a = 2 * H * C * C / Math.pow(lambda, 5);
              return a / Math.expm1(H * C / (lambda * K_B * kelvin)) * 1e-13;
            }
            @Differentiable static double entry(double w, double t) { return radiance(w, t); }
            """),
        accepted("Vincenty-style iteration on a sphere with a logger",
            "GeographicLib-Java / Spatial4j iterative inverse problem, logged", 2,
            new double[][] {{0.4, 0.3}, {1.0, -0.6}}, """
            private static final Logger LOGGER = Logger.getLogger("geodesy");
            @Differentiable static double centralAngle(double lat, double dLon) {
              double lambda = dLon;
              double sigma = 0;
              for (int iter = 0; iter < 20; iter++) {
                double sinSigma = Math.hypot(Math.cos(lat) * Math.sin(lambda),
                    Math.sin(lat) - Math.sin(lat) * Math.cos(lambda));
                double cosSigma = Math.cos(lat) * Math.cos(lat) * Math.cos(lambda)
                    + Math.sin(lat) * Math.sin(lat);
                sigma = Math.atan2(sinSigma, cosSigma);
                if (LOGGER.isLoggable(Level.FINE)) {
                  LOGGER.fine("iteration " + iter + ": sigma = " + sigma);
                }
                double next = dLon + 0.001 * Math.sin(sigma);
                if (Math.abs(next - lambda) < 1e-15) {
                  break;
                }
                lambda = next;
              }
              return sigma;
            }
            @Differentiable static double entry(double lat, double d) {
              return centralAngle(lat, d);
            }
            """),
        accepted("argument checks through Objects and variable-arity formatting",
            "Hipparchus MathUtils.checkNotNull / MathIllegalArgumentException(Localizable,"
                + " Object...)", 2, new double[][] {{0.4, 1.3}}, """
            enum Formats { NUMBER_TOO_SMALL, DIMENSIONS_MISMATCH }
            static final class MathIllegalArgumentException extends IllegalArgumentException {
              private static final long serialVersionUID = 1L;
              MathIllegalArgumentException(Formats pattern, Object... arguments) {
                super(pattern + " " + Arrays.toString(arguments));
              }
            }
            @Differentiable static double norm(double[] v, double p) {
              Objects.requireNonNull(v, "v");
              if (p < 1) {
                throw new MathIllegalArgumentException(Formats.NUMBER_TOO_SMALL, p, 1);
              }
              double sum = 0;
              for (double x : v) sum += Math.pow(Math.abs(x), p);
              return Math.pow(sum, 1 / p);
            }
            @Differentiable static double entry(double a, double p) {
              return norm(new double[] {a, 2.0, -a * 0.5}, p + 1);
            }
            """),
        accepted("a coefficient table chosen by range",
            "Cephes-style rational approximations in Commons Math / Hipparchus, a table"
                + " chosen by the argument's range", 1, new double[][] {{0.4}, {2.5}}, """
            private static final double[] SMALL = {1.0, 0.5, 0.1};
            private static final double[] LARGE = {0.9, 0.7, 0.05};
            @Differentiable static double approximation(double x) {
              double[] c = x < 1 ? SMALL : LARGE;
              double r = 0;
              for (int i = c.length - 1; i >= 0; i--) {
                r = r * x + c[i];
              }
              return r;
            }
            @Differentiable static double entry(double x) { return approximation(x); }
            """),
        rejected("a private helper that squares", "Commons Math FastMath-using code with a"
                + " private helper, as in Hipparchus' Vector3D.distanceSq", 3,
            new double[][] {{0.4, 1.3, -0.7}},
            "call to 'square(...)' is not differentiable: 'x1 - 1' carries a derivative into"
                + " 'square(x1 - 1)', which ad4j cannot differentiate: annotate 'F.square' with"
                + " @Differentiable", """
            private static double square(double x) {
              return x * x;
            }
            @Differentiable static double distanceSq(double x1, double y1, double z1) {
              return square(x1 - 1) + square(y1 + 0.5) + square(z1);
            }
            @Differentiable static double entry(double a, double b, double c) {
              return distanceSq(a, b, c);
            }
            """),
        rejected("a distribution object's density as an instance method",
            "Commons Math NormalDistribution.density on an instance", 2,
            new double[][] {{0.4, 1.3}},
            "'Normal.density' is a method of an object, which ad4j runs as written; annotate"
                + " 'Normal.density' with @Differentiable (an instance method's object carries no"
                + " derivative), or give its partial derivatives with @DerivativeOf (rules that"
                + " take the object first)", """
            static final class Normal {
              private final double mean;
              private final double sd;
              Normal(double mean, double sd) {
                if (sd <= 0) {
                  throw new IllegalArgumentException("sd " + sd);
                }
                this.mean = mean;
                this.sd = sd;
              }
              double density(double x) {
                double z = (x - mean) / sd;
                return Math.exp(-0.5 * z * z) / (sd * Math.sqrt(2 * Math.PI));
              }
            }
            @Differentiable static double entry(double x, double s) {
              return new Normal(0.5, 1.2).density(x) * s;
            }
            """));
  }
}
