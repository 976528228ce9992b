package ad4j.processor.derive.forward;

import ad4j.processor.ir.Function;

/**
 * Forward mode: the primal program with a tangent beside each active value. The result takes
 * the primal's parameters, then one tangent per active parameter ({@code xDot}), and returns
 * the result's tangent. Every statement of the primal is kept in place; an active instruction
 * is followed by its tangent, {@code sum of partial * argumentTangent}, built from the rule
 * table; a store to an active variable by a store to its tangent.
 *
 * <p>The input may itself be a derivative program: any IR function whose active values have
 * rules can be transformed, which is how second derivatives are built.
 *
 * <p>This class is the entry; the classes of this package, one job each, share a {@link
 * TangentState}.
 */
public final class Tangent {
  /** The note that opens a tangent program. */
  public static final String NOTE = "forward sweep: values and tangents";

  /** The tangent program of {@code function}. */
  public static Function of(Function function) {
    return new TangentState(function).walk.transform(function);
  }
}
