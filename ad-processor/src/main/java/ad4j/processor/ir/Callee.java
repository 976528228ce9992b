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
 * @param active per parameter, whether it carries derivatives in the callee: a {@code double},
 *     {@code double[]} or {@code double[][]} not marked {@code @NoDerivative}
 * @param returnsArray whether the callee is a vector function, returning {@code double[]}
 * @param receiverFirst whether the callee is an instance method: its receiver is its first
 *     parameter here and in its generated members, and the method itself is called on it
 * @param records the callee's value record parameters, which its generated members take
 *     flattened (one {@code double} per leaf, among {@code parameterTypes}) and the method
 *     itself as records
 */
public record Callee(String userClass, String gradClass, String name,
    List<NumericType> parameterTypes, List<Boolean> active, boolean returnsArray,
    boolean receiverFirst, List<RecordArgument> records) {
  /**
   * A value record parameter of a callee, flattened: its leaves are the parameters from
   * {@code first} on, and {@code construction} makes the record of them where the callee itself
   * is called ({@code new Vec3(%s, %s, %s)}, one {@code %s} per leaf).
   */
  public record RecordArgument(int first, int leaves, String construction) {}

  public Callee {
    parameterTypes = List.copyOf(parameterTypes);
    active = List.copyOf(active);
    records = List.copyOf(records);
    if (active.size() != parameterTypes.size()) {
      throw new IllegalArgumentException("one activity per parameter of " + name);
    }
    if (receiverFirst && (parameterTypes.isEmpty() || parameterTypes.get(0) != NumericType.OBJECT
        || active.get(0))) {
      throw new IllegalArgumentException("the receiver of " + name + " is an object first");
    }
  }

  /** A static callee. */
  public Callee(String userClass, String gradClass, String name,
      List<NumericType> parameterTypes, List<Boolean> active, boolean returnsArray) {
    this(userClass, gradClass, name, parameterTypes, active, returnsArray, false, List.of());
  }

  /** Whether parameter {@code i} is a {@code double} that carries a derivative. */
  public boolean isActiveScalar(int i) {
    return active.get(i) && parameterTypes.get(i) == NumericType.DOUBLE;
  }

  /** Whether parameter {@code i} is an array whose elements carry derivatives. */
  public boolean isActiveArray(int i) {
    return active.get(i) && parameterTypes.get(i).isArray();
  }

  /**
   * The number of active {@code double} parameters: the adjoints its pullback pushes onto the
   * tape, and the scalar tangents its tangent takes.
   */
  public int differentiableParameterCount() {
    int count = 0;
    for (int i = 0; i < parameterTypes.size(); i++) {
      count += isActiveScalar(i) ? 1 : 0;
    }
    return count;
  }

  /** The number of active array parameters: each gets a tangent array, and adjoint targets. */
  public int activeArrayCount() {
    int count = 0;
    for (int i = 0; i < parameterTypes.size(); i++) {
      count += isActiveArray(i) ? 1 : 0;
    }
    return count;
  }
}
