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
 * <p>{@code int}, {@code long}, {@code boolean} and {@code int[]} parameters, and parameters
 * marked {@link NoDerivative}, keep their places in these signatures but get no derivative.
 * {@code double[]} and {@code double[][]} parameters carry derivatives like {@code double}s:
 * gradient entries and adjoints are laid out flat over the parameters that carry derivatives,
 * in order (a {@code double} one slot, a {@code double[] w} {@code w.length} slots, a
 * {@code double[][]} its elements row by row); their tangent parameters are arrays of the same
 * shape.
 *
 * <p>A method returning {@code double[]} is a vector function: for it the processor writes
 * {@code mJacobian}, {@code mValueAndJacobian}, {@code mTangent} (the Jacobian-vector product)
 * and {@code mPullback} (adding {@code seed}-transposed times the Jacobian), and no gradient
 * members.
 *
 * <p>The method must be {@code static}, return {@code double} or {@code double[]} and have at
 * least one parameter that carries derivatives. Its body may use locals of type {@code double},
 * {@code int}, {@code long} and {@code boolean}; elements and {@code length} of array
 * parameters, which it only reads; local {@code double[]} and {@code int[]} arrays made outside
 * loops ({@code new}, initializers, {@code clone()}), whose elements it may write; assignments, compound assignments, {@code ++} and
 * {@code --}, also inside expressions; {@code if}/{@code else}; {@code switch} statements and
 * expressions on {@code int} values; {@code for}, {@code while} and {@code do} loops with
 * {@code break} and {@code continue};
 * {@code return} anywhere; {@code throw} of an unchecked exception for argument checks;
 * arithmetic, comparison, logical and bit operators, casts and the conditional operator;
 * compile-time constants; the elementary functions of {@link Math} and {@link StrictMath}
 * ({@code sin}, {@code exp}, {@code log}, {@code sqrt}, {@code pow}, {@code min}, ...), and of
 * Hipparchus' and Commons Math 3's {@code FastMath} when on the class path; and
 * calls to other {@code @Differentiable} methods (not {@code private} ones), in this class or
 * another, recursion included; and calls of methods whose derivatives {@link DerivativeOf}
 * rules give. Anything else is a compile error at the offending code, saying what is supported.
 *
 * <p>Straight-line methods need nothing at run time. Reverse mode of methods with loops (and of
 * very long methods) records values on {@code ad4j.runtime.Tape}, so those need the
 * {@code ad-runtime} artifact at run time; {@link Checkpointed} bounds what long loops record.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Differentiable {
  /**
   * The highest order of derivatives to generate: {@code 1} (the default) for the members
   * above, or {@code 2} for a method returning {@code double}, which also gets its Hessian:
   *
   * <ul>
   *   <li>{@code double[][] mHessian(p1, ..., pn)}: a new {@code N x N} matrix of the second
   *       partial derivatives, exactly symmetric;
   *   <li>{@code double[] mHessianVector(p1, ..., pn, double[] v)}: a new array, the Hessian
   *       times {@code v}, by one forward-over-reverse sweep;
   *   <li>{@code double mValueGradientAndHessian(p1, ..., pn, double[] gradient,
   *       double[][] hessian)}: the value of {@code m}, bit for bit, with its gradient and
   *       Hessian written into the arrays.
   * </ul>
   *
   * <p>{@code N} and the order of the slots are those of the gradient. Any other value is a
   * compile error at the annotation, and so is {@code 2} on a method returning
   * {@code double[]}. A method of order 2 may call other {@code @Differentiable} methods only
   * when they are of order 2 too (otherwise a compile error at the call).
   *
   * @return 1 or 2
   */
  int order() default 1;
}
