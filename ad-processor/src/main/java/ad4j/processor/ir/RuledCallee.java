package ad4j.processor.ir;

import java.util.List;
import java.util.Map;

/**
 * A method called by the one being differentiated whose partial derivatives the user supplies
 * with {@code @DerivativeOf} (the target), or one of those rules. ad4j never looks inside it:
 * the primal calls it as written. Each partial derivative is computed where the call is, before
 * it, by a call of its rule with the same arguments, so that the rule sees the arguments and the
 * receiver as the call does (a setter called later changes nothing): the target's call takes
 * those partials after its own arguments ({@link #partialArgument}), and forward and reverse
 * mode read them there, the reverse sweep as any value of the forward sweep it reads.
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
 * @param partials for a target, the rule of each parameter whose argument carries a derivative
 *     at this call, by parameter index; empty for a rule itself, which carries no derivative
 * @param leadingArgument for a rule of an instance method, the receiver, passed before the
 *     arguments; else null
 * @param receiverCheck for a call on an object of the method's of a target that a subclass may
 *     override, or of its rules, the Java text of the arguments after the receiver of
 *     {@code ad4j.runtime.internal.Overrides.ruleReceiver}, through which generated code passes
 *     the object, so that one whose class overrides the target is refused; else null (a
 *     {@code static final} field's text in {@link #qualifier} or {@link #leadingArgument} is
 *     passed through it already)
 */
public record RuledCallee(String qualifier, String name, List<NumericType> parameterTypes,
    Map<Integer, RuledCallee> partials, String leadingArgument, String receiverCheck) {
  public RuledCallee {
    parameterTypes = List.copyOf(parameterTypes);
    partials = Map.copyOf(partials);
  }

  /**
   * The number of the call's own arguments: the target's, then one partial per entry of
   * {@link #partials}. Reverse-mode programs add gradient slots after them.
   */
  public int argumentCount() {
    return parameterTypes.size() + partials.size();
  }

  /**
   * The position among the call's arguments of the partial derivative with respect to
   * parameter {@code parameter}, which has a rule: after the target's arguments, in the order
   * of the parameters.
   */
  public int partialArgument(int parameter) {
    if (!partials.containsKey(parameter)) {
      throw new IllegalArgumentException("no rule for parameter " + parameter + " of " + name);
    }
    int position = parameterTypes.size();
    for (int other : partials.keySet()) {
      if (other < parameter) {
        position++;
      }
    }
    return position;
  }

  /** Whether the target is an instance method called on its first argument. */
  public boolean onFirstArgument() {
    return qualifier == null;
  }
}
