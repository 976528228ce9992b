package ad4j.runtime;

import java.util.Locale;
import java.util.Objects;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;

/**
 * Compares a claimed gradient (for example one produced by ad4j-generated code) with
 * high-order finite differences of the same function, in the spirit of
 * {@code torch.autograd.gradcheck} and JAX's {@code check_grads}.
 *
 * <pre>{@code
 * ToDoubleFunction<double[]> f = p -> p[0] * p[0] * Math.sin(p[1]);
 * double[] x = {3, 0.5};
 * GradientCheck.check(f, x, FooGrad.fGradient(3, 0.5)).assertWithin(1e-8);
 * }</pre>
 *
 * <h2>Numerical method</h2>
 *
 * <p>Each derivative is estimated by Richardson extrapolation of central differences
 * (Ridders' method, as in <i>Numerical Recipes</i> §5.7): the central difference
 * {@code (g(t+h) - g(t-h)) / 2h} is taken at 10 steps {@code h} shrinking geometrically by a
 * factor 1.4, and repeated extrapolation towards {@code h = 0} cancels the
 * {@code h^2, h^4, ...} terms of its error. Of the extrapolated values of order 6 or higher, the
 * one that agrees best with its two lower-order neighbours is returned.
 * This adapts to the function: a fixed stencil with a fixed step is either too coarse for
 * steep functions such as {@code exp(10 x)} or {@code tanh(20 x)}, or loses digits to rounding on
 * gentle ones, whereas the extrapolation table contains a good step for both. Each derivative
 * costs 20 evaluations of the function.
 *
 * <p>For coordinate {@code i} the largest step is {@code 0.03 * max(1, |x[i]|)}, so steps are
 * relative for large coordinates and absolute for small ones; the smallest is about
 * {@code 1.4e-3 * max(1, |x[i]|)}. Why these bounds: at the large end the truncation error is
 * big but, being a smooth series in {@code h^2}, is what the extrapolation removes; stopping at
 * {@code 1.4e-3} keeps the rounding error of each difference near {@code 1e-16 / 1.4e-3}, about
 * {@code 1e-13} relative to {@code |f|}; and keeping the largest step small (3%) means the
 * function is only evaluated close to {@code x}, so points near a domain boundary or a
 * singularity (for example {@code log} or {@code 1/x} at 0.05) still work. For smooth,
 * well-scaled functions the error is typically around {@code 1e-13}; a tolerance of
 * {@code 1e-8} is a sound default for tests.
 *
 * <p>Limits, as for any finite-difference check: the function must be smooth within that step
 * range of {@code x} (a kink or a branch inside it spoils the estimate), and a coordinate whose
 * magnitude is far larger than the scale on which the function varies in it (say {@code sin(x)}
 * at {@code x = 1e6}) needs rescaling by the caller. The rounding error is proportional to
 * {@code |f(x)|}, not to the part of {@code f} that depends on the coordinate: for
 * {@code f = 1e6 + x*x} the derivative is only good to about {@code 5e-8} absolute, and in
 * {@code exp(10 x[0]) + 1e-3 * x[1] * x[1]} at {@code x[0] = 2} (where {@code f} is about
 * {@code 5e8}) the small partial derivative in {@code x[1]} only to about {@code 2e-5}. Check such
 * terms separately, or at points where they are not swamped.
 *
 * <h2>Error measure</h2>
 *
 * <p>See {@link #relativeError(double, double)}: absolute error for magnitudes up to 1, relative
 * error above, with fixed rules for NaN and infinities.
 *
 * <p>The function is always called with a fresh array, so it may modify or keep its argument;
 * the caller's arrays are never modified.
 */
public final class GradientCheck {

    /** Number of step sizes in the extrapolation table. */
    private static final int LEVELS = 10;

    /** Factor between successive steps; 1.4 is the value Ridders and Numerical Recipes use. */
    private static final double STEP_RATIO = 1.4;

    /** Largest step, as a fraction of {@code max(1, |x[i]|)}; see the class comment for why. */
    private static final double MAX_STEP = 0.03;

    /**
     * The first extrapolation column whose values are eligible: column {@code j} has error
     * {@code O(h^(2j+2))}, so column 2 is sixth order.
     */
    private static final int MIN_COLUMN = 2;

    private GradientCheck() {}

    /**
     * Estimates the gradient of {@code f} at {@code x} by extrapolated central differences (see
     * the class comment for the method and its step sizes).
     *
     * @param f the function; called with fresh arrays of the length of {@code x}
     * @param x the point; not modified
     * @return a new array holding the estimated partial derivatives, of the length of {@code x}
     * @throws NullPointerException if {@code f} or {@code x} is null
     * @throws IllegalArgumentException if an element of {@code x} is NaN or infinite
     */
    public static double[] numericGradient(ToDoubleFunction<double[]> f, double[] x) {
        Objects.requireNonNull(f, "f (the function) must not be null");
        Objects.requireNonNull(x, "x (the point) must not be null");
        requireFinite("x", x);
        double[] gradient = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            int index = i;
            double xi = x[i];
            gradient[i] = extrapolate(h -> {
                double plus = xi + h;
                double minus = xi - h;
                // Divide by the distance between the points actually evaluated, not by 2h:
                // xi + h is rounded, and this removes that rounding from the quotient.
                return (valueWith(f, x, index, plus) - valueWith(f, x, index, minus))
                        / (plus - minus);
            }, MAX_STEP * Math.max(1.0, Math.abs(xi)));
        }
        return gradient;
    }

    /**
     * Estimates the directional derivative of {@code f} at {@code x} along {@code direction},
     * that is {@code gradient(f)(x) . direction}, the tangent forward mode computes. It uses the
     * same method as {@link #numericGradient}, applied to {@code t -> f(x + t * direction)}, with
     * steps chosen so that no coordinate {@code i} moves further than its own largest step
     * {@code 0.03 * max(1, |x[i]|)}.
     *
     * @param f the function; called with fresh arrays of the length of {@code x}
     * @param x the point; not modified
     * @param direction the direction, of the length of {@code x}; not modified and need not be a
     *     unit vector (the result scales with it); an all-zero direction gives 0 without
     *     evaluating {@code f}
     * @return the estimated directional derivative
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the lengths of {@code x} and {@code direction} differ,
     *     or an element of either is NaN or infinite
     */
    public static double numericDirectionalDerivative(
            ToDoubleFunction<double[]> f, double[] x, double[] direction) {
        Objects.requireNonNull(f, "f (the function) must not be null");
        Objects.requireNonNull(x, "x (the point) must not be null");
        Objects.requireNonNull(direction, "direction must not be null");
        requireSameLength("direction", direction, x);
        requireFinite("x", x);
        requireFinite("direction", direction);
        // Work with the direction scaled to max-norm 1 so that step sizes cannot overflow or
        // underflow for huge or tiny directions, and scale the derivative back at the end.
        double norm = 0;
        for (double d : direction) {
            norm = Math.max(norm, Math.abs(d));
        }
        if (norm == 0) {
            return 0.0;
        }
        double[] unit = new double[direction.length];
        double maxStep = Double.POSITIVE_INFINITY;
        for (int i = 0; i < unit.length; i++) {
            unit[i] = direction[i] / norm;
            if (unit[i] != 0) {
                double coordinateStep = MAX_STEP * Math.max(1.0, Math.abs(x[i]));
                maxStep = Math.min(maxStep, coordinateStep / Math.abs(unit[i]));
            }
        }
        double slope = extrapolate(
                t -> (valueAlong(f, x, unit, t) - valueAlong(f, x, unit, -t)) / (2 * t), maxStep);
        return norm * slope;
    }

    /**
     * Compares {@code claimedGradient} with {@link #numericGradient numericGradient(f, x)}.
     *
     * @param f the function whose gradient is claimed
     * @param x the point; not modified
     * @param claimedGradient the gradient to check, of the length of {@code x}; not modified (the
     *     result holds a copy)
     * @return the comparison, coordinate by coordinate
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the lengths of {@code x} and {@code claimedGradient}
     *     differ, or an element of {@code x} is NaN or infinite
     */
    public static Result check(ToDoubleFunction<double[]> f, double[] x, double[] claimedGradient) {
        Objects.requireNonNull(f, "f (the function) must not be null");
        Objects.requireNonNull(x, "x (the point) must not be null");
        Objects.requireNonNull(claimedGradient, "claimedGradient must not be null");
        requireSameLength("claimedGradient", claimedGradient, x);
        return new Result("Gradient check", claimedGradient.clone(), numericGradient(f, x));
    }

    /**
     * Compares a claimed directional derivative (a forward-mode tangent) with
     * {@link #numericDirectionalDerivative numericDirectionalDerivative(f, x, direction)}. The
     * result has a single coordinate, index 0.
     *
     * @param f the function
     * @param x the point; not modified
     * @param direction the direction, of the length of {@code x}; not modified
     * @param claimedDirectionalDerivative the value to check
     * @return the comparison, with one coordinate
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the lengths of {@code x} and {@code direction} differ,
     *     or an element of either is NaN or infinite
     */
    public static Result checkDirectional(
            ToDoubleFunction<double[]> f,
            double[] x,
            double[] direction,
            double claimedDirectionalDerivative) {
        double numeric = numericDirectionalDerivative(f, x, direction);
        return new Result(
                "Directional derivative check",
                new double[] {claimedDirectionalDerivative},
                new double[] {numeric});
    }

    /**
     * The error measure used throughout:
     * {@code |claimed - numeric| / max(|claimed|, |numeric|, 1.0)}. Values of magnitude up to 1
     * are thus compared by absolute error, larger ones by relative error, so that a derivative
     * that should be 0 is not judged by a meaningless relative error.
     *
     * <p>Non-finite values: if both are NaN, or both are the same infinity, the error is 0 (they
     * agree); if only one of them is NaN or infinite, or they are opposite infinities, the error
     * is {@code +Infinity}, so every check fails. The result is never NaN.
     *
     * @param claimed the claimed value
     * @param numeric the finite-difference value
     * @return the error, {@code >= 0}
     */
    public static double relativeError(double claimed, double numeric) {
        boolean claimedFinite = Double.isFinite(claimed);
        boolean numericFinite = Double.isFinite(numeric);
        if (!claimedFinite || !numericFinite) {
            boolean agree = (Double.isNaN(claimed) && Double.isNaN(numeric))
                    || (Double.isInfinite(claimed) && claimed == numeric);
            return agree ? 0.0 : Double.POSITIVE_INFINITY;
        }
        double scale = Math.max(1.0, Math.max(Math.abs(claimed), Math.abs(numeric)));
        double difference = Math.abs(claimed - numeric);
        if (Double.isInfinite(difference)) {
            // Only for finite values near Double.MAX_VALUE of opposite sign; scaling first
            // avoids the overflow and gives the true value (at most 2).
            return Math.abs(claimed / scale - numeric / scale);
        }
        return difference / scale;
    }

    /**
     * Ridders' extrapolation: evaluates {@code centralDifference} at 10 steps from
     * {@code maxStep} down by 1.4, builds the Richardson (Neville) table, and
     * returns the entry of order at least 6 whose difference from its lower-order neighbours
     * (the error estimate) is smallest. The whole table is always built, rather than stopping
     * when the estimate first grows as Numerical Recipes does, because for steep functions the
     * large-step rows are poor and an early stop then returns one of them.
     */
    private static double extrapolate(DoubleUnaryOperator centralDifference, double maxStep) {
        double ratioSquared = STEP_RATIO * STEP_RATIO;
        double best = Double.NaN;
        double bestError = Double.POSITIVE_INFINITY;
        double[] previous = new double[0];
        double step = maxStep;
        for (int level = 0; level < LEVELS; level++, step /= STEP_RATIO) {
            double[] row = new double[level + 1];
            row[0] = centralDifference.applyAsDouble(step);
            double factor = ratioSquared;
            for (int j = 1; j <= level; j++, factor *= ratioSquared) {
                // Eliminates the h^(2j) error term, using the same column one step larger.
                row[j] = (row[j - 1] * factor - previous[j - 1]) / (factor - 1);
                if (j >= MIN_COLUMN) {
                    double error = Math.max(
                            Math.abs(row[j] - row[j - 1]), Math.abs(row[j] - previous[j - 1]));
                    // A NaN error (f not finite nearby) never compares less, so such entries
                    // are skipped; ties keep the larger step, which carries less rounding.
                    if (error < bestError) {
                        bestError = error;
                        best = row[j];
                    }
                }
            }
            previous = row;
        }
        // No finite error estimate at all means f is not finite near x: report the plain central
        // difference at the smallest step, which is then normally NaN or infinite, so that a
        // finite claimed value fails the check.
        return bestError < Double.POSITIVE_INFINITY ? best : previous[0];
    }

    /** f at x with coordinate {@code index} replaced, on a fresh array f may keep or change. */
    private static double valueWith(
            ToDoubleFunction<double[]> f, double[] x, int index, double value) {
        double[] point = x.clone();
        point[index] = value;
        return f.applyAsDouble(point);
    }

    /** f at {@code x + t * direction}, on a fresh array. */
    private static double valueAlong(
            ToDoubleFunction<double[]> f, double[] x, double[] direction, double t) {
        double[] point = x.clone();
        for (int i = 0; i < point.length; i++) {
            point[i] += t * direction[i];
        }
        return f.applyAsDouble(point);
    }

    private static void requireSameLength(String name, double[] array, double[] x) {
        if (array.length != x.length) {
            throw new IllegalArgumentException(
                    name + " has length " + array.length + " but x has length " + x.length);
        }
    }

    private static void requireFinite(String name, double[] values) {
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException(
                        name + "[" + i + "] is " + values[i]
                                + "; finite differences need finite values");
            }
        }
    }

    /**
     * The outcome of a check: the claimed and numeric values side by side, and the coordinate
     * where they disagree most according to {@link GradientCheck#relativeError}. Immutable;
     * the array accessors return copies.
     */
    public static final class Result {

        private final String title;
        private final double[] claimed;
        private final double[] numeric;
        private final double worstError;
        private final int worstIndex;

        private Result(String title, double[] claimed, double[] numeric) {
            this.title = title;
            this.claimed = claimed;
            this.numeric = numeric;
            double worst = 0;
            int worstAt = -1;
            for (int i = 0; i < claimed.length; i++) {
                double error = relativeError(claimed[i], numeric[i]);
                // ">" keeps the first of equal errors; "worstAt < 0" picks index 0 even when
                // every error is 0, so a non-empty result always names a coordinate.
                if (worstAt < 0 || error > worst) {
                    worst = error;
                    worstAt = i;
                }
            }
            this.worstError = worst;
            this.worstIndex = worstAt;
        }

        /**
         * Returns the finite-difference estimates.
         *
         * @return a copy of the numeric gradient (one element for a directional check)
         */
        public double[] numeric() {
            return numeric.clone();
        }

        /**
         * Returns the values that were checked.
         *
         * @return a copy of the claimed gradient (one element for a directional check)
         */
        public double[] claimed() {
            return claimed.clone();
        }

        /**
         * Returns the largest {@link GradientCheck#relativeError relative error} over all
         * coordinates.
         *
         * @return the worst error; 0 if there are no coordinates, {@code +Infinity} if some
         *     coordinate has exactly one non-finite value
         */
        public double worstError() {
            return worstError;
        }

        /**
         * Returns the coordinate with the largest error (the first one, if several are equal).
         *
         * @return the index of the worst coordinate, or -1 if there are no coordinates
         */
        public int worstIndex() {
            return worstIndex;
        }

        /**
         * Tells whether every coordinate is within {@code tolerance}.
         *
         * @param tolerance the largest acceptable {@link GradientCheck#relativeError relative
         *     error}, {@code >= 0}
         * @return {@code worstError() <= tolerance}
         * @throws IllegalArgumentException if {@code tolerance} is negative or NaN
         */
        public boolean passes(double tolerance) {
            if (!(tolerance >= 0)) {
                throw new IllegalArgumentException(
                        "tolerance must be >= 0, but is " + tolerance);
            }
            return worstError <= tolerance;
        }

        /**
         * Fails with the full report unless every coordinate is within {@code tolerance}.
         *
         * @param tolerance the largest acceptable {@link GradientCheck#relativeError relative
         *     error}, {@code >= 0}
         * @return this result, for chaining
         * @throws AssertionError if {@code worstError() > tolerance}; its message states the
         *     tolerance and contains the report of {@link #toString()}
         * @throws IllegalArgumentException if {@code tolerance} is negative or NaN
         */
        public Result assertWithin(double tolerance) {
            if (!passes(tolerance)) {
                throw new AssertionError(String.format(Locale.ROOT,
                        "%s failed: worst relative error %.3e at index %d exceeds tolerance"
                                + " %.3e%n%s",
                        title, worstError, worstIndex, tolerance, this));
            }
            return this;
        }

        /**
         * Returns a multi-line report: a summary line, then one line per coordinate with its
         * index, claimed value, numeric value and relative error, the worst one marked with
         * {@code *}.
         *
         * @return the report
         */
        @Override
        public String toString() {
            StringBuilder report = new StringBuilder(title);
            if (claimed.length == 0) {
                return report.append(": no coordinates").toString();
            }
            report.append(String.format(Locale.ROOT,
                    ": %d coordinate%s, worst relative error %.3e at index %d%n",
                    claimed.length, claimed.length == 1 ? "" : "s", worstError, worstIndex));
            report.append(String.format(Locale.ROOT,
                    "    %6s  %24s  %24s  %10s%n", "index", "claimed", "numeric", "rel. error"));
            for (int i = 0; i < claimed.length; i++) {
                boolean worst = i == worstIndex;
                report.append(String.format(Locale.ROOT,
                        "  %s %6d  %24.16e  %24.16e  %10.3e%s%n",
                        worst ? "*" : " ", i, claimed[i], numeric[i],
                        relativeError(claimed[i], numeric[i]), worst ? "  <- worst" : ""));
            }
            report.append("  (rel. error = |claimed - numeric| / max(|claimed|, |numeric|, 1))");
            return report.toString();
        }
    }
}
