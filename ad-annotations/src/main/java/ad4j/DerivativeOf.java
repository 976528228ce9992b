package ad4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a static method as a user-supplied partial derivative (a "rule") of another method, the
 * target: ad4j then differentiates calls of the target from {@code @Differentiable} methods with
 * these partials and never looks inside the target's body. Use it for a method ad4j cannot
 * differentiate (a library special function such as Hipparchus' {@code Erf.erf} or
 * {@code Gamma.logGamma}, native or table-driven code) or whose derivative is better known in
 * closed form.
 *
 * <p>One rule per parameter of the target that carries a derivative ({@code double},
 * {@code double[]}, {@code double[][]}), returning the partial derivative of the target with
 * respect to that parameter, with exactly the target's parameter list:
 *
 * <pre>{@code
 * static double erf(double x) { return org.hipparchus.special.Erf.erf(x); }
 *
 * @DerivativeOf("erf")                     // the only double parameter: wrt may be omitted
 * static double erfDerivative(double x) { return 2 / Math.sqrt(Math.PI) * Math.exp(-x * x); }
 *
 * static double f(double x, double y) { ... }
 *
 * @DerivativeOf(value = "f", wrt = "y")    // the partial derivative of f with respect to y
 * static double fY(double x, double y) { ... }
 * }</pre>
 *
 * <p>The target returns {@code double} or {@code double[]} and takes {@code double},
 * {@code double[]}, {@code double[][]}, {@code int}, {@code long} and {@code boolean} parameters
 * (and must not write into its arrays); parameters that carry no derivative need no rule. A
 * target declared in another class names it with {@link #owner()}. A call sees the rules in the
 * target's own class, in the class of the {@code @Differentiable} method that calls it, in every
 * class of the same compilation, and in the classes listed by {@link UsesDerivatives} (rules
 * compiled earlier, in another module or a jar). A rule for a {@code java.lang.Math},
 * {@code StrictMath} or {@code FastMath} function replaces ad4j's built-in derivative for the
 * calls that see it (a straight-through estimator for {@code Math.floor}). A rule must be
 * {@code static}, not {@code private} (the generated class calls it), and return the partial:
 * {@code double} for a {@code double} parameter, {@code double[]} with one entry per element for
 * a {@code double[]} one, {@code double[][]} of the argument's shape for a {@code double[][]}
 * one. For a target returning {@code double[]} (p elements), the rule for a {@code double}
 * parameter returns {@code double[]} (element k: the partial of the result's element k) and the
 * rule for a {@code double[]} parameter {@code double[][]} (p rows, one column per element). A
 * rule in a private, local or anonymous class, which generated code cannot call, gets a
 * warning. Used from a {@code @Differentiable(order = 2)} method, the rules must be
 * {@code @Differentiable} themselves.
 *
 * <p>The target may be an instance method, called on a {@code static final} field (a
 * distribution object, say), a parameter or a local made outside loops: its rule takes the
 * receiver first, then the target's parameters, and the receiver carries no derivative:
 *
 * <pre>{@code
 * static final NormalDistribution STANDARD = new NormalDistribution(0, 1);
 *
 * @DerivativeOf(owner = NormalDistribution.class, value = "cumulativeProbability")
 * static double cdfDerivative(NormalDistribution d, double x) { return d.density(x); }
 * }</pre>
 *
 * <p>A call that passes a value carrying a derivative to a parameter of the target without a
 * rule is a compile error at the call, naming that parameter; a parameter that only ever
 * receives values without derivative (constants, integers, {@code @NoDerivative} data) needs no
 * rule. A rule that names an unknown method or parameter, whose
 * parameter list or return type does not match the target's, or that repeats another rule's
 * partial, is a compile error at the rule; two rules for the same partial that a call sees are
 * a compile error at the call, naming both.
 *
 * <p>The primal value of a call is the target's own result, bit for bit: generated code calls
 * the rules for the parameters whose arguments carry derivatives just before the target, with
 * the same arguments, so that they see the receiver and the arguments as the call does (a
 * setter called later changes nothing); both modes use those values.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface DerivativeOf {
  /**
   * The target's simple name.
   *
   * @return the name of the method this rule differentiates
   */
  String value();

  /**
   * The name of the target's parameter this rule is the partial derivative with respect to;
   * may be omitted (left empty) when the target has exactly one {@code double} parameter. For a
   * target compiled without parameter names, the rule's own parameter name at that position
   * counts; a library that ships rules naming {@code wrt} must be compiled with parameter names
   * ({@code -g}, the default of Maven and Gradle, or {@code -parameters}).
   *
   * @return the name of the target's parameter, or {@code ""} for its only {@code double} one
   */
  String wrt() default "";

  /**
   * The class declaring the target; the default, {@code void.class}, means the class declaring
   * the annotated rule.
   *
   * @return the class declaring the target, or {@code void.class} for the rule's own class
   */
  Class<?> owner() default void.class;
}
