package ad4j.processor.ir;

import java.util.List;

/**
 * Another {@code @Differentiable} method called by the one being differentiated. Forward mode
 * calls its tangent, generated for it in {@code gradClass}; reverse mode its pullback onto the
 * tape or the halves of it, generated for callers' code in {@link #sweepsClass()}.
 *
 * @param userClass the callee's class, as generated code names it
 * @param gradClass the callee's generated class, as generated code names it
 * @param name the callee's name
 * @param parameterTypes the callee's parameter types
 * @param active per parameter, whether it carries derivatives in the callee: a {@code double},
 *     {@code float}, {@code double[]} or {@code double[][]} not marked {@code @NoDerivative}
 * @param resultType what the callee returns: {@code double}, {@code float} (its value computed
 *     in float, its tangent and adjoint doubles), {@code double[]} or {@code float[]} (a vector
 *     function)
 * @param receiverFirst whether the callee is an instance method: its receiver is its first
 *     parameter here and in its generated members, and the method itself is called on it
 * @param records the callee's value record parameters, which its generated members take
 *     flattened (one {@code double} per leaf, among {@code parameterTypes}) and the method
 *     itself as records
 * @param resultLeaves when the callee returns a value record (its members return its leaves,
 *     a {@code double[]}: {@code resultType}), the member of {@link #flatOwner()} that gives the
 *     leaves of the record the method itself returns; else null
 * @param otherClass whether the callee is in another class than its caller and takes or
 *     returns value records: its tangent over the leaves and the member that gives the leaves
 *     of its value are called in {@link #sweepsClass()}, as they are private to {@code gradClass}
 */
public record Callee(String userClass, String gradClass, String name,
    List<NumericType> parameterTypes, List<Boolean> active, NumericType resultType,
    boolean receiverFirst, List<RecordArgument> records, String resultLeaves,
    boolean otherClass) {
  /**
   * What ends the names of the private members with flat signatures of a method that returns a
   * value record ({@code fTangentFlat}), which its public members with the record's signatures
   * call; the tangent of its callers calls it too.
   */
  public static final String FLAT = "Flat";

  /**
   * A value record parameter of a callee, flattened: its leaves are the parameters from
   * {@code first} on, and {@code construction} makes the record of them where the callee itself
   * is called ({@code new Vec3(%s, %s, %s)}, one {@code %s} per leaf); null when a record made
   * again of its leaves could hold other values (its constructor changes them): the callee's
   * value is then taken from its member over the leaves ({@link #valueName()}).
   */
  public record RecordArgument(int first, int leaves, String construction) {}

  /** What ends the name of a method's value over the leaves of its records: {@code fValueFlat}. */
  public static final String VALUE_FLAT = "ValueFlat";

  /**
   * Whether the value of the callee is its member over the leaves ({@link #valueName()}) in
   * {@link #flatOwner()}, not the method itself called with its records made again.
   */
  public boolean valueOverLeaves() {
    return records.stream().anyMatch(record -> record.construction() == null);
  }

  /** The name of the callee's value over the leaves of its records ({@link #valueOverLeaves}). */
  public String valueName() {
    return name + VALUE_FLAT;
  }

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

  /** A static callee that takes no value record. */
  public Callee(String userClass, String gradClass, String name,
      List<NumericType> parameterTypes, List<Boolean> active, NumericType resultType) {
    this(userClass, gradClass, name, parameterTypes, active, resultType, false, List.of(), null,
        false);
  }

  /**
   * The class whose members the caller's forward sweep calls: the callee's tangent
   * ({@link #tangentName()}), for a value record result {@link #resultLeaves()}, and
   * {@link #valueName()}.
   */
  public String flatOwner() {
    return otherClass ? sweepsClass() : gradClass;
  }

  /** The name of the callee's tangent member that takes and returns leaves. */
  public String tangentName() {
    return name + "Tangent" + (resultLeaves != null ? FLAT : "");
  }

  /** What the name of a generated class's companion adds to it: {@code FooGradSweeps}. */
  public static final String SWEEPS = "Sweeps";

  /**
   * The companion of the callee's generated class, as generated code names it: the class of the
   * members for callers' code ({@link Operation.Form#PULLBACK_CALL}), {@code FooGradSweeps}.
   */
  public String sweepsClass() {
    return gradClass + SWEEPS;
  }

  /** Whether the callee is a vector function, returning {@code double[]} or {@code float[]}. */
  public boolean returnsArray() {
    return resultType.isArray();
  }

  /**
   * Whether parameter {@code i} is a {@code double} or {@code float} that carries a derivative
   * (a {@code double} one either way).
   */
  public boolean isActiveScalar(int i) {
    return active.get(i) && parameterTypes.get(i).isFloatingPoint();
  }

  /** Whether parameter {@code i} is an array whose elements carry derivatives. */
  public boolean isActiveArray(int i) {
    return active.get(i) && parameterTypes.get(i).isArray();
  }

  /**
   * The number of active {@code double} and {@code float} parameters: the adjoints its
   * pullback pushes onto the tape, and the scalar tangents ({@code double}s) its tangent takes.
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
