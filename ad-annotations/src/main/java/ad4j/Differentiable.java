package ad4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a static method over {@code double}s whose derivatives the ad4j annotation processor
 * writes at compile time.
 *
 * <p>For a method {@code m(double p1, ..., double pn)} returning {@code double} in class
 * {@code Foo}, the processor generates a class {@code FooGrad} in the same package (for a nested
 * class {@code Outer.Inner}, {@code Outer_InnerGrad}) holding:
 *
 * <ul>
 *   <li>{@code double[] mGradient(p1, ..., pn)}: a new array of the partial derivatives, by
 *       reverse mode;
 *   <li>{@code double mValueAndGradient(p1, ..., pn, double[] gradient)}: the value of {@code m},
 *       bit for bit, and the partial derivatives written into {@code gradient};
 *   <li>{@code double mTangent(p1, ..., pn, dp1, ..., dpn)}: the directional derivative
 *       {@code sum(dm/dpi * dpi)}, by forward mode;
 *   <li>{@code double mPullback(p1, ..., pn, double seed, double[] adjoints)}: the value of
 *       {@code m}, adding {@code seed * dm/dpi} to {@code adjoints[i]}.
 * </ul>
 *
 * <p>The method body must be straight-line code over {@code double} parameters and locals,
 * arithmetic operators, compile-time constants and {@link Math}/{@link StrictMath} functions.
 * Anything else is a compile error at the offending expression, saying what is supported.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Differentiable {}
