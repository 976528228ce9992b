package ad4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method over {@code double}s whose derivatives the ad4j annotation processor writes at
 * compile time.
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
 * <p>Every {@code double}, {@code double[]} and {@code double[][]} parameter is differentiated
 * unless it is marked {@link NoDerivative}. Parameters of other types ({@code int},
 * {@code long}, {@code boolean}, other arrays, objects, enums, strings) carry no derivative; they,
 * and {@code @NoDerivative} ones, keep their places in the generated signatures but get no
 * derivative. Gradient entries and adjoints are laid out flat over the parameters that carry
 * derivatives, in order (a {@code double} one slot, a {@code double[] w} {@code w.length} slots,
 * a {@code double[][]} its elements row by row); their tangent parameters are arrays of the same
 * shape.
 *
 * <p>A method returning {@code double[]} is a vector function: for it the processor writes
 * {@code mJacobian}, {@code mValueAndJacobian}, {@code mTangent} (the Jacobian-vector product)
 * and {@code mPullback} (adding {@code seed}-transposed times the Jacobian), and no gradient
 * members.
 *
 * <p>The method returns {@code double} or {@code double[]} and has at least one parameter that
 * carries derivatives. It may be static or an instance method: for an instance method every
 * generated member is static and takes the receiver first ({@code mGradient(Foo self, p1, ...,
 * pn)}), and the receiver and the fields read through it carry no derivative. What is active (depends on such a parameter) is
 * differentiated: arithmetic, {@code float} and {@code double} locals, local arrays (inside
 * loops too), branches, {@code switch}, loops with {@code break} and {@code continue},
 * {@code return} anywhere; the elementary functions of {@link Math} and {@link StrictMath}
 * ({@code sin}, {@code exp}, {@code log}, {@code sqrt}, {@code pow}, {@code min}, ...), and of
 * Hipparchus' and Commons Math 3's {@code FastMath} when on the class path; calls to other
 * {@code @Differentiable} methods, in this class or another, recursion included; and calls of
 * methods whose derivatives {@link DerivativeOf} rules give, which ad4j finds in every class of
 * the compilation and in the classes {@link UsesDerivatives} lists. Code that carries no derivative (argument
 * checks, {@code throw}, {@code assert}, logging, calls whose result is a {@code boolean}, an
 * integer, an object or nothing) runs as written, once per call of each generated member. An
 * active construct ad4j cannot differentiate exactly (a call of another method, a value put into
 * an object or a field, {@code try}, {@code synchronized}, a lambda, a write into an array
 * parameter) is a compile error at the offending code, saying what to do. The whole language is
 * the user guide's language reference ({@code docs/guide/language.md} in the repository).
 *
 * <p>Every generated class refers to {@code ad4j.runtime.internal.Tape}, on which loops, calls
 * between
 * {@code @Differentiable} methods and very long methods record values in reverse mode, so
 * generated code needs the {@code ad-runtime} artifact at compile time and at run time (a
 * normal, compile-scope dependency); {@link Checkpointed} bounds what long loops record.
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
   * <p>{@code N} and the order of the slots are those of the gradient. A method of order 2
   * may call other {@code @Differentiable} methods only when they are of order 2 too, vector
   * functions included: {@code 2} on a method returning {@code double[]}, {@code float[]} or a
   * value record gives it no Hessian members, only the second-order code its callers' Hessians
   * call. {@link DerivativeOf} rules it uses must be {@code @Differentiable} themselves. Each is
   * otherwise a compile error at the call. Any other value is a compile error at the
   * annotation.
   *
   * @return 1 or 2
   */
  int order() default 1;
}
