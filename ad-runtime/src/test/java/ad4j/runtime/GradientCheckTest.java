package ad4j.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

class GradientCheckTest {

    // Test functions with hand-written gradients.

    private static final ToDoubleFunction<double[]> POLYNOMIAL =
            p -> 3 * p[0] * p[0] * p[0] * p[1] - 2 * p[1] * p[1] + 5 * Math.pow(p[2], 4)
                    - p[0] * p[2] + 7;

    private static double[] polynomialGradient(double[] p) {
        return new double[] {
            9 * p[0] * p[0] * p[1] - p[2],
            3 * p[0] * p[0] * p[0] - 4 * p[1],
            20 * p[2] * p[2] * p[2] - p[0]
        };
    }

    private static final ToDoubleFunction<double[]> EXP_SIN =
            p -> Math.exp(p[0]) * Math.sin(p[1]) + Math.cos(p[0] * p[2]);

    private static double[] expSinGradient(double[] p) {
        double e = Math.exp(p[0]);
        double s = Math.sin(p[0] * p[2]);
        return new double[] {e * Math.sin(p[1]) - p[2] * s, e * Math.cos(p[1]), -p[0] * s};
    }

    private static final ToDoubleFunction<double[]> ROSENBROCK = p -> {
        double sum = 0;
        for (int i = 0; i + 1 < p.length; i++) {
            double a = p[i + 1] - p[i] * p[i];
            double b = 1 - p[i];
            sum += 100 * a * a + b * b;
        }
        return sum;
    };

    private static double[] rosenbrockGradient(double[] p) {
        double[] g = new double[p.length];
        for (int i = 0; i + 1 < p.length; i++) {
            double a = p[i + 1] - p[i] * p[i];
            g[i] += -400 * p[i] * a - 2 * (1 - p[i]);
            g[i + 1] += 200 * a;
        }
        return g;
    }

    /** Fixed-seed points in [-2, 2]^dimension, so failures reproduce. */
    private static List<double[]> points(int count, int dimension) {
        Random random = new Random(42);
        List<double[]> points = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            double[] p = new double[dimension];
            for (int i = 0; i < dimension; i++) {
                p[i] = random.nextDouble() * 4 - 2;
            }
            points.add(p);
        }
        return points;
    }

    private static double worstError(
            ToDoubleFunction<double[]> f,
            Function<double[], double[]> gradient,
            List<double[]> at) {
        double worst = 0;
        for (double[] p : at) {
            GradientCheck.Result result = GradientCheck.check(f, p, gradient.apply(p));
            worst = Math.max(worst, result.worstError());
        }
        return worst;
    }

    // Accuracy. The bounds leave a margin over what was observed on JDK 17 (in comments).

    @Test
    void polynomialGradientMatchesAnalytic() {
        List<double[]> at = points(200, 3);
        at.add(new double[] {1e3, -250.5, 40});
        // Observed: 3.4e-12.
        assertTrue(worstError(POLYNOMIAL, GradientCheckTest::polynomialGradient, at) < 1e-10);
    }

    @Test
    void expSinGradientMatchesAnalytic() {
        // Observed: 2.4e-13.
        assertTrue(worstError(EXP_SIN, GradientCheckTest::expSinGradient, points(200, 3)) < 1e-10);
    }

    @Test
    void rosenbrockGradientMatchesAnalytic() {
        List<double[]> at = points(200, 5);
        at.add(new double[] {-1.2, 1, -1.2, 1, -1.2});
        at.add(new double[] {1, 1, 1, 1, 1}); // the minimum: the gradient is exactly 0
        // Observed: 2.8e-11; the rounding error grows with |f|, which reaches ~1e4 here.
        assertTrue(worstError(ROSENBROCK, GradientCheckTest::rosenbrockGradient, at) < 1e-9);
    }

    @Test
    void expOfTenXIsRelativelyAccurateFromTinyToHugeMagnitudes() {
        // Derivatives from 2e-8 to 5e9. Measured by plain relative error |n - g| / |g|, which
        // is stricter than the check's measure for the tiny ones.
        double worst = 0;
        double worstProduct = 0;
        for (int k = 0; k <= 400; k++) {
            double x = -2 + 0.01 * k + 1e-3;
            double e = Math.exp(10 * x);
            double numeric =
                    GradientCheck.numericGradient(p -> Math.exp(10 * p[0]), new double[] {x})[0];
            worst = Math.max(worst, Math.abs(numeric - 10 * e) / (10 * e));
            for (double y : new double[] {-2, -0.7, 0.3, 1.1, 2.5}) {
                double[] n = GradientCheck.numericGradient(
                        p -> Math.exp(10 * p[0]) * (2 + Math.sin(p[1])), new double[] {x, y});
                double[] g = {10 * e * (2 + Math.sin(y)), e * Math.cos(y)};
                for (int i = 0; i < 2; i++) {
                    worstProduct = Math.max(worstProduct, Math.abs(n[i] - g[i]) / Math.abs(g[i]));
                }
            }
        }
        // Observed: 1.6e-13 and 5.3e-13.
        assertTrue(worst < 1e-10, "exp(10x): " + worst);
        assertTrue(worstProduct < 1e-10, "exp(10x) (2 + sin y): " + worstProduct);
    }

    @Test
    void stepsScaleWithLargeCoordinates() {
        // With an absolute step of 0.03, x^5 at 1e5 would drown in rounding; with a relative one
        // it is accurate.
        double x = 1e5;
        double numeric = GradientCheck.numericGradient(p -> Math.pow(p[0], 5), new double[] {x})[0];
        double exact = 5 * Math.pow(x, 4);
        assertTrue(Math.abs(numeric - exact) / exact < 1e-10, "relative error at 1e5");
    }

    @Test
    void evaluatesOnlyNearThePointAndOneCoordinateAtATime() {
        double[] x = {0.05, -40, 3};
        List<double[]> evaluated = new ArrayList<>();
        double[] gradient = GradientCheck.numericGradient(p -> {
            evaluated.add(p.clone());
            return Math.log(p[0]) + p[1] * p[2];
        }, x);
        assertEquals(3 * 20, evaluated.size());
        for (double[] p : evaluated) {
            int changed = 0;
            for (int i = 0; i < x.length; i++) {
                if (p[i] != x[i]) {
                    changed++;
                    // The slack allows for x[i] + h being rounded.
                    double maxStep = 0.03 * Math.max(1, Math.abs(x[i]));
                    assertTrue(Math.abs(p[i] - x[i]) <= maxStep * (1 + 1e-12));
                }
            }
            assertEquals(1, changed);
        }
        // log near its singularity still works because the largest step (0.03) stays clear of 0.
        assertEquals(20, gradient[0], 20 * 1e-10);
        assertEquals(3, gradient[1], 1e-10);
        assertEquals(-40, gradient[2], 40 * 1e-10);
    }

    // Detecting wrong gradients and reporting them.

    @Test
    void wrongCoordinateIsDetectedAtItsIndex() {
        double[] x = {1.3, -0.4, 0.8};
        double[] exact = expSinGradient(x);
        for (int k = 0; k < x.length; k++) {
            double[] claimed = exact.clone();
            claimed[k] *= 1 + 1e-4;
            GradientCheck.Result result = GradientCheck.check(EXP_SIN, x, claimed);
            assertEquals(k, result.worstIndex());
            // |g| * 1e-4 / max(|g| (1 + 1e-4), 1) for |g| >= 1; or |g| * 1e-4 for |g| < 1.
            double expected = Math.abs(exact[k]) * 1e-4
                    / Math.max(1, Math.abs(exact[k]) * (1 + 1e-4));
            assertEquals(expected, result.worstError(), 1e-9);
            assertFalse(result.passes(1e-6));
            assertTrue(result.passes(1e-3));
            assertThrows(AssertionError.class, () -> result.assertWithin(1e-6));
        }
        GradientCheck.Result right = GradientCheck.check(EXP_SIN, x, exact);
        assertTrue(right.passes(1e-10));
        assertSame(right, right.assertWithin(1e-10));
    }

    @Test
    void reportNamesTheWorstIndexAndEveryCoordinate() {
        double[] x = {1.3, -0.4, 0.8};
        double[] claimed = expSinGradient(x);
        claimed[2] += 0.5;
        GradientCheck.Result result = GradientCheck.check(EXP_SIN, x, claimed);
        AssertionError failure =
                assertThrows(AssertionError.class, () -> result.assertWithin(1e-8));
        String message = failure.getMessage();
        assertTrue(message.startsWith("Gradient check failed: worst relative error"), message);
        assertTrue(message.contains("at index 2 exceeds tolerance 1.000e-08"), message);
        assertTrue(message.endsWith(result.toString()), message);

        String[] lines = result.toString().split("\\R");
        assertTrue(lines[0].contains("3 coordinates") && lines[0].contains("at index 2"), lines[0]);
        List<String> marked = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String line = lines[2 + i];
            String[] fields = line.replace("*", " ").trim().split("\\s+");
            assertEquals(String.valueOf(i), fields[0], line);
            assertEquals(claimed[i], Double.parseDouble(fields[1]), 0.0, line);
            assertEquals(result.numeric()[i], Double.parseDouble(fields[2]), 0.0, line);
            if (line.contains("<- worst")) {
                marked.add(line);
                assertTrue(line.trim().startsWith("*"), line);
            }
        }
        assertEquals(1, marked.size());
        assertTrue(marked.get(0).trim().startsWith("*      2"), marked.get(0));
    }

    @Test
    void resultHoldsCopies() {
        double[] x = {1.3, -0.4, 0.8};
        double[] claimed = expSinGradient(x);
        GradientCheck.Result result = GradientCheck.check(EXP_SIN, x, claimed);
        double[] numericBefore = result.numeric();
        claimed[0] = 1e9;
        result.claimed()[1] = 1e9;
        result.numeric()[2] = 1e9;
        assertArrayEquals(expSinGradient(x), result.claimed());
        assertArrayEquals(numericBefore, result.numeric());
        assertTrue(result.passes(1e-10));
    }

    // Arguments.

    @Test
    void callersArraysAreNotModifiedEvenIfTheFunctionWritesItsArgument() {
        double[] x = {1.3, -0.4, 0.8};
        double[] claimed = expSinGradient(x);
        double[] direction = {0.5, -2, 1};
        double[] xCopy = x.clone();
        double[] claimedCopy = claimed.clone();
        double[] directionCopy = direction.clone();
        ToDoubleFunction<double[]> scribbler = p -> {
            double value = EXP_SIN.applyAsDouble(p);
            Arrays.fill(p, 1e6); // must not leak into other evaluations or the caller's x
            return value;
        };

        assertTrue(GradientCheck.check(scribbler, x, claimed).passes(1e-10));
        GradientCheck.numericGradient(scribbler, x);
        double tangent = dot(claimed, direction);
        assertTrue(GradientCheck.checkDirectional(scribbler, x, direction, tangent).passes(1e-10));
        GradientCheck.numericDirectionalDerivative(scribbler, x, direction);

        assertArrayEquals(xCopy, x);
        assertArrayEquals(claimedCopy, claimed);
        assertArrayEquals(directionCopy, direction);
    }

    @Test
    void lengthMismatchesAreReportedWithBothLengths() {
        double[] x = {1, 2};
        IllegalArgumentException gradient = assertThrows(IllegalArgumentException.class,
                () -> GradientCheck.check(POLYNOMIAL, x, new double[3]));
        assertEquals("claimedGradient has length 3 but x has length 2", gradient.getMessage());
        IllegalArgumentException direction = assertThrows(IllegalArgumentException.class,
                () -> GradientCheck.numericDirectionalDerivative(POLYNOMIAL, x, new double[1]));
        assertEquals("direction has length 1 but x has length 2", direction.getMessage());
        IllegalArgumentException directional = assertThrows(IllegalArgumentException.class,
                () -> GradientCheck.checkDirectional(POLYNOMIAL, x, new double[4], 0));
        assertEquals("direction has length 4 but x has length 2", directional.getMessage());
    }

    @Test
    void nullArgumentsAreRejectedByName() {
        double[] x = {1};
        assertNullNamed("f", () -> GradientCheck.numericGradient(null, x));
        assertNullNamed("x", () -> GradientCheck.numericGradient(POLYNOMIAL, null));
        assertNullNamed("claimedGradient", () -> GradientCheck.check(POLYNOMIAL, x, null));
        assertNullNamed("x", () -> GradientCheck.check(POLYNOMIAL, null, x));
        assertNullNamed("direction",
                () -> GradientCheck.numericDirectionalDerivative(POLYNOMIAL, x, null));
        assertNullNamed("f", () -> GradientCheck.checkDirectional(null, x, x, 0));
    }

    private static void assertNullNamed(String name, Runnable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call::run);
        assertTrue(e.getMessage().startsWith(name + " "), e.getMessage());
    }

    @Test
    void nonFinitePointsAndDirectionsAreRejected() {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> GradientCheck.numericGradient(POLYNOMIAL, new double[] {0, Double.NaN}));
        assertTrue(x.getMessage().startsWith("x[1] is NaN"), x.getMessage());
        IllegalArgumentException d = assertThrows(IllegalArgumentException.class,
                () -> GradientCheck.numericDirectionalDerivative(
                        POLYNOMIAL, new double[] {0, 0, 0},
                        new double[] {Double.NEGATIVE_INFINITY, 0, 0}));
        assertTrue(d.getMessage().startsWith("direction[0] is -Infinity"), d.getMessage());
    }

    @Test
    void toleranceMustBeNonNegative() {
        GradientCheck.Result result =
                GradientCheck.check(POLYNOMIAL, new double[] {1, 1, 1}, new double[3]);
        assertThrows(IllegalArgumentException.class, () -> result.passes(-1e-9));
        assertThrows(IllegalArgumentException.class, () -> result.assertWithin(Double.NaN));
    }

    // The error measure and non-finite values.

    @Test
    void relativeErrorIsAbsoluteBelowOneAndRelativeAbove() {
        assertEquals(2e-3, GradientCheck.relativeError(1e-3, 3e-3), 1e-18);
        assertEquals(0.5, GradientCheck.relativeError(0, 0.5), 0.0);
        assertEquals(1.0 / 1001, GradientCheck.relativeError(1000, 1001), 1e-18);
        assertEquals(1.0 / 1001, GradientCheck.relativeError(-1001, -1000), 1e-18);
        assertEquals(0.0, GradientCheck.relativeError(-0.0, 0.0), 0.0);
        // Opposite values near the overflow threshold: the true value 2, not infinity.
        assertEquals(2.0, GradientCheck.relativeError(Double.MAX_VALUE, -Double.MAX_VALUE), 0.0);
    }

    @Test
    void nonFiniteValuesAgreeOnlyWithThemselves() {
        double inf = Double.POSITIVE_INFINITY;
        double nan = Double.NaN;
        assertEquals(0.0, GradientCheck.relativeError(nan, nan), 0.0);
        assertEquals(0.0, GradientCheck.relativeError(inf, inf), 0.0);
        assertEquals(0.0, GradientCheck.relativeError(-inf, -inf), 0.0);
        assertEquals(inf, GradientCheck.relativeError(inf, -inf), 0.0);
        assertEquals(inf, GradientCheck.relativeError(nan, 1), 0.0);
        assertEquals(inf, GradientCheck.relativeError(1, nan), 0.0);
        assertEquals(inf, GradientCheck.relativeError(inf, 1e300), 0.0);
        assertEquals(inf, GradientCheck.relativeError(0, -inf), 0.0);
        assertEquals(inf, GradientCheck.relativeError(nan, inf), 0.0);
    }

    @Test
    void nonFiniteGradientsInChecks() {
        double[] x = {1, 2};
        ToDoubleFunction<double[]> undefined = p -> Double.NaN;
        GradientCheck.Result bothNaN =
                GradientCheck.check(undefined, x, new double[] {Double.NaN, Double.NaN});
        assertTrue(Double.isNaN(bothNaN.numeric()[0]) && Double.isNaN(bothNaN.numeric()[1]));
        assertEquals(0.0, bothNaN.worstError(), 0.0);
        assertTrue(bothNaN.passes(0));

        GradientCheck.Result finiteVersusNaN =
                GradientCheck.check(undefined, x, new double[] {Double.NaN, 0});
        assertEquals(Double.POSITIVE_INFINITY, finiteVersusNaN.worstError(), 0.0);
        assertEquals(1, finiteVersusNaN.worstIndex());
        assertFalse(finiteVersusNaN.passes(Double.MAX_VALUE));
        // Equal errors: the first index is the worst.
        assertEquals(0, GradientCheck.check(undefined, x, new double[2]).worstIndex());

        ToDoubleFunction<double[]> linear = p -> 2 * p[0] + 3 * p[1];
        GradientCheck.Result claimedInfinite = GradientCheck.check(
                linear, x, new double[] {2, Double.NEGATIVE_INFINITY});
        assertEquals(1, claimedInfinite.worstIndex());
        assertFalse(claimedInfinite.passes(1));
        AssertionError failure =
                assertThrows(AssertionError.class, () -> claimedInfinite.assertWithin(1));
        assertTrue(failure.getMessage().contains("-Infinity"), failure.getMessage());
        assertTrue(failure.getMessage().contains("at index 1"), failure.getMessage());
    }

    // Directional derivatives.

    @Test
    void directionalDerivativeMatchesGradientDotDirection() {
        Random random = new Random(7);
        double worst = 0;
        for (double[] p : points(200, 3)) {
            double[] d = {random.nextGaussian(), random.nextGaussian(), random.nextGaussian()};
            double numeric = GradientCheck.numericDirectionalDerivative(EXP_SIN, p, d);
            worst = Math.max(worst,
                    GradientCheck.relativeError(dot(expSinGradient(p), d), numeric));
        }
        // Observed: 7.0e-13.
        assertTrue(worst < 1e-10, "worst " + worst);
    }

    @Test
    void directionalCheckPassesTheRightTangentAndFailsAWrongOne() {
        double[] x = {0.7, -1.1, 1.9};
        double[] d = {1, 0, -3};
        double tangent = dot(expSinGradient(x), d);
        GradientCheck.Result right = GradientCheck.checkDirectional(EXP_SIN, x, d, tangent);
        assertEquals(1, right.claimed().length);
        assertEquals(0, right.worstIndex());
        right.assertWithin(1e-10);

        GradientCheck.Result wrong =
                GradientCheck.checkDirectional(EXP_SIN, x, d, tangent * (1 + 1e-4));
        assertFalse(wrong.passes(1e-6));
        AssertionError failure = assertThrows(AssertionError.class, () -> wrong.assertWithin(1e-6));
        assertTrue(failure.getMessage().startsWith("Directional derivative check failed"),
                failure.getMessage());
    }

    @Test
    void directionalDerivativeScalesWithTheDirection() {
        double[] x = {0.7, -1.1, 1.9};
        double[] unit = {0.6, 0, -0.8};
        double exact = dot(expSinGradient(x), unit);
        for (double scale : new double[] {1e-12, 1e-3, 1e4, 1e12}) {
            double[] d = {unit[0] * scale, unit[1] * scale, unit[2] * scale};
            double numeric = GradientCheck.numericDirectionalDerivative(EXP_SIN, x, d);
            assertEquals(exact * scale, numeric, Math.abs(exact * scale) * 1e-10, "scale " + scale);
        }
    }

    @Test
    void zeroDirectionGivesZeroWithoutEvaluating() {
        int[] calls = {0};
        double derivative = GradientCheck.numericDirectionalDerivative(p -> {
            calls[0]++;
            return p[0];
        }, new double[] {1, 2}, new double[] {0, -0.0});
        assertEquals(0.0, derivative, 0.0);
        assertEquals(0, calls[0]);
    }

    @Test
    void emptyPointHasNoCoordinates() {
        GradientCheck.Result result = GradientCheck.check(p -> 1, new double[0], new double[0]);
        assertEquals(0, result.numeric().length);
        assertEquals(-1, result.worstIndex());
        assertEquals(0.0, result.worstError(), 0.0);
        assertTrue(result.passes(0));
        assertEquals("Gradient check: no coordinates", result.toString());
    }

    private static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
