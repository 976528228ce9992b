package ad4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Lists classes whose {@link DerivativeOf} rules the {@code @Differentiable} methods of the
 * annotated class (and of the classes nested in it), or of every class of the annotated package
 * when it is on {@code package-info.java}, use: rules compiled earlier, in another module or a
 * jar, such as a project-wide {@code SpecialFunctionRules} class.
 *
 * <pre>{@code
 * @UsesDerivatives({SpecialFunctionRules.class, DistributionRules.class})
 * final class Pricing {
 *   @Differentiable static double price(double s, double k) { ... Erf.erf(d) ... }
 * }
 * }</pre>
 *
 * <p>A call of a target from a {@code @Differentiable} method sees the rules in the target's own
 * class, in the class of the calling method, in every class of the same compilation, and in the
 * classes listed here. A rule seen by a call for a {@code java.lang.Math}, {@code StrictMath} or
 * {@code FastMath} function replaces ad4j's built-in derivative for that call (a
 * straight-through estimator for {@code Math.floor}, say). Two rules for the same target and
 * parameter that one call sees are a compile error at the call, naming both.
 *
 * <p>Rules read from compiled classes are checked where they are used; a rule that names
 * {@code wrt} needs its class compiled with parameter names ({@code -g}, the default of Maven
 * and Gradle, or {@code -parameters}).
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.PACKAGE})
public @interface UsesDerivatives {
  /**
   * The classes whose {@code @DerivativeOf} rules calls from the annotated code see.
   *
   * @return the classes holding the rules
   */
  Class<?>[] value();
}
