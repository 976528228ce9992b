package ad4j.processor.ir;

import java.util.List;
import java.util.Set;

/**
 * A lowered {@code @Differentiable} method.
 *
 * @param name the method's name
 * @param parameters one value per parameter, in order
 * @param body the statements
 * @param userNames every name the user's method wrote that generated code must not take: its
 *     parameters and locals, and the types it refers to
 * @param qualifiedOwners the math classes that a class of the user's package shadows, which
 *     generated code must therefore write as {@code java.lang.Math}
 * @param snapshots for a method marked {@code @ad4j.Checkpointed}, the most snapshots of the
 *     state of each of its loops outside loops that its reverse mode holds (even, at least 2);
 *     0 for any other method, whose loops record every value their reverse needs
 * @param changesState whether the method makes calls that run as written and may change what
 *     it reads (a setter, a counter, a log line): then no derivative program reads an array
 *     element again after the forward sweep read it, it takes the value from the tape
 * @param resultType the type the user's method returns: {@code double}, {@code float} (computed
 *     in float, its derivatives doubles), {@code double[]} or {@code float[]}; a program derived
 *     from the method keeps it, as the type of the method's value that it computes
 */
public record Function(String name, List<Value> parameters, Block body, List<String> userNames,
    Set<MathOwner> qualifiedOwners, int snapshots, boolean changesState,
    NumericType resultType) {
  public Function {
    parameters = List.copyOf(parameters);
    userNames = List.copyOf(userNames);
    qualifiedOwners = Set.copyOf(qualifiedOwners);
  }

  /** A function whose loops are not checkpointed. */
  public Function(String name, List<Value> parameters, Block body, List<String> userNames,
      Set<MathOwner> qualifiedOwners) {
    this(name, parameters, body, userNames, qualifiedOwners, 0, false, NumericType.DOUBLE);
  }

  /** Whether the reverse mode checkpoints the loops outside loops ({@link #snapshots}). */
  public boolean isCheckpointed() {
    return snapshots > 0;
  }

  /**
   * The parameters that receive derivatives, in order: active {@code double}s, each one gradient
   * slot, and active arrays, each as many slots as elements (the flat layout).
   */
  public List<Value> differentiableParameters() {
    return parameters.stream().filter(p -> p.isActive() || p.isActiveArray()).toList();
  }

  /**
   * Whether this is a vector function: it returns a {@code double[]} or a {@code float[]},
   * once, as its last statement.
   */
  public boolean returnsArray() {
    List<Statement> statements = body.statements();
    return !statements.isEmpty() && statements.get(statements.size() - 1) instanceof Return ret
        && ret.value() != null && (ret.value().type() == NumericType.DOUBLE_ARRAY
            || ret.value().type() == NumericType.FLOAT_ARRAY);
  }

  /**
   * The type of the value a function's programs compute and hand on before they return it:
   * {@code float} or {@code double}; {@code double[]} or {@code float[]} for a vector function.
   */
  public NumericType valueType() {
    if (returnsArray()) {
      return resultType == NumericType.FLOAT_ARRAY ? resultType : NumericType.DOUBLE_ARRAY;
    }
    return resultType == NumericType.FLOAT ? NumericType.FLOAT : NumericType.DOUBLE;
  }

  /** Whether some parameter is an active array, so that gradient slots are known at run time. */
  public boolean hasActiveArrays() {
    return parameters.stream().anyMatch(Value::isActiveArray);
  }

  /** The same function with other parameters and body: what a transform returns. */
  public Function with(List<Value> newParameters, Block newBody) {
    return new Function(name, newParameters, newBody, userNames, qualifiedOwners, snapshots,
        changesState, resultType);
  }

  /** How generated code writes the name of {@code owner}. */
  public String mathClassName(MathOwner owner) {
    return qualifiedOwners.contains(owner) ? owner.qualifiedName() : owner.simpleName();
  }

  /**
   * Whether the body is straight-line: instructions (and notes) and one final return. Such
   * methods keep every intermediate in a local and need no tape.
   */
  public boolean isStraightLine() {
    List<Statement> statements = body.statements();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      boolean last = i == statements.size() - 1;
      if (!(statement instanceof Instruction) && !(statement instanceof Note)
          && !(last && statement instanceof Return)) {
        return false;
      }
    }
    return true;
  }
}
