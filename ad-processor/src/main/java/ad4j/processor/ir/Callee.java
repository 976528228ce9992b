package ad4j.processor.ir;

import java.util.List;

/**
 * Another {@code @Differentiable} method called by the one being differentiated. Forward mode
 * calls its tangent, reverse mode its pullback; both are generated for it in {@code gradClass}.
 *
 * @param userClass the callee's class, as generated code names it
 * @param gradClass the callee's generated class, as generated code names it
 * @param name the callee's name
 * @param parameterTypes the callee's parameter types
 * @param derivatives for each parameter, whether it is a {@code double} that carries a
 *     derivative (not {@code @NoDerivative}): the callee's tangent takes a direction for each of
 *     these and its pullback gives back an adjoint for each, and for no other parameter
 */
public record Callee(String userClass, String gradClass, String name,
    List<NumericType> parameterTypes, List<Boolean> derivatives) {
  public Callee {
    parameterTypes = List.copyOf(parameterTypes);
    derivatives = List.copyOf(derivatives);
    if (derivatives.size() != parameterTypes.size()) {
      throw new IllegalArgumentException("one flag per parameter: " + derivatives + " for "
          + parameterTypes);
    }
  }

  /** Whether parameter {@code i} carries a derivative into and out of the callee. */
  public boolean carriesDerivative(int i) {
    return derivatives.get(i);
  }

  /** The number of parameters that carry derivatives: the length of the callee's adjoint array. */
  public int differentiableParameterCount() {
    return (int) derivatives.stream().filter(d -> d).count();
  }
}
