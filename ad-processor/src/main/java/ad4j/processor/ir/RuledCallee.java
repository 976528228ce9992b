package ad4j.processor.ir;

import java.util.List;
import java.util.Map;

/**
 * A method called by the one being differentiated whose partial derivatives the user supplies
 * with {@code @DerivativeOf} (the target), or one of those rules. ad4j never looks inside it:
 * the primal calls it as written, and the partial with respect to argument {@code i} is a call
 * of {@code partials().get(i)} with the same arguments.
 *
 * <p>An instance method is called on a receiver: a {@code static final} field, written as the
 * qualifier, the target called as {@code receiver.name(a, ...)} and its rules as
 * {@code Rules.rule(receiver, a, ...)}; or an object the method has (a parameter or a local),
 * which is then the call's first argument, of type {@code OBJECT} ({@link #onFirstArgument}).
 *
 * @param qualifier what generated code writes before {@code .name(...)}: the class declaring
 *     the method, or the receiver of an instance method; null when the receiver is the first
 *     argument
 * @param name the method's name
 * @param parameterTypes its parameter types (the receiver is not one)
 * @param partials for a target, the rule of each parameter that has one, by parameter index;
 *     empty for a rule itself, which carries no derivative
 * @param leadingArgument for a rule of an instance method, the receiver, passed before the
 *     arguments; else null
 * @param differentiable for a rule used by a method of order 2, the rule as the
 *     {@code @Differentiable} method it must then be: the derivative programs call it as a
 *     {@link Callee}, so that its own generated tangent gives the partial's derivative; else
 *     null
 */
public record RuledCallee(String qualifier, String name, List<NumericType> parameterTypes,
    Map<Integer, RuledCallee> partials, String leadingArgument, Callee differentiable) {
  public RuledCallee {
    parameterTypes = List.copyOf(parameterTypes);
    partials = Map.copyOf(partials);
  }

  /** Whether the target is an instance method called on its first argument. */
  public boolean onFirstArgument() {
    return qualifier == null;
  }
}
