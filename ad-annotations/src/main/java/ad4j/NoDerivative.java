package ad4j;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a parameter of a {@code @Differentiable} method as a constant of the differentiation: it
 * takes part in the values, never in the derivatives. A {@code double}, {@code double[]} or
 * {@code double[][]} parameter marked so gets no gradient slots, no tangent parameter and no
 * adjoint; it keeps its place in every generated signature.
 *
 * <p>Typical uses are the data of a loss ({@code @NoDerivative double[][] x},
 * {@code @NoDerivative double[] y}) next to the weights that are differentiated. Without it,
 * every {@code double}, {@code double[]} and {@code double[][]} parameter is differentiated.
 *
 * <p>Passing a value that carries a derivative to a {@code @NoDerivative} parameter of a
 * {@code @Differentiable} method would drop that derivative, so it is a compile error at the
 * call.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface NoDerivative {}
