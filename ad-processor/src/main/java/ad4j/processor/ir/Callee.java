package ad4j.processor.ir;

import java.util.List;

/**
 * Another {@code @Differentiable} method called by the one being differentiated. Forward mode
 * calls its tangent, reverse mode its pullback; both are generated for it in {@code gradClass}.
 *
 * @param userClass the callee's class, as generated code names it
 * @param gradClass the callee's generated class, as generated code names it
 * @param name the callee's name
 * @param parameterTypes the callee's parameter types; its {@code double} ones get derivatives
 */
public record Callee(String userClass, String gradClass, String name,
    List<NumericType> parameterTypes) {
  public Callee {
    parameterTypes = List.copyOf(parameterTypes);
  }

  /** The number of {@code double} parameters: the length of the callee's adjoint array. */
  public int differentiableParameterCount() {
    return (int) parameterTypes.stream().filter(t -> t == NumericType.DOUBLE).count();
  }
}
