package ad4j.processor.ir;

import java.util.List;
import java.util.Map;

/**
 * A method called by the one being differentiated whose partial derivatives the user supplies
 * with {@code @DerivativeOf} (the target), or one of those rules. ad4j never looks inside it:
 * the primal calls it as written, and the partial with respect to argument {@code i} is a call
 * of {@code partials().get(i)} with the same arguments.
 *
 * @param ownerClass the class declaring the method, as generated code names it
 * @param name the method's name
 * @param parameterTypes its parameter types
 * @param partials for a target, the rule of each parameter that has one, by parameter index;
 *     empty for a rule itself, which carries no derivative
 */
public record RuledCallee(String ownerClass, String name, List<NumericType> parameterTypes,
    Map<Integer, RuledCallee> partials) {
  public RuledCallee {
    parameterTypes = List.copyOf(parameterTypes);
    partials = Map.copyOf(partials);
  }
}
