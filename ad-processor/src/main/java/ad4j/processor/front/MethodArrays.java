package ad4j.processor.front;

import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What lowering learns of one method's arrays as it emits them: which it made with {@code new}
 * and what gives their length, which it writes into and passes to {@code @Differentiable}
 * calls, which it reaches as written (foreign), which it must not write (its parameters and
 * their rows), and which its own double-buffer swaps exchange.
 *
 * <p>Apart from {@link LoweringContext}, which tells it of every value it emits, reads and binds,
 * because these are the facts the checks on writing, returning and swapping arrays ask
 * ({@link ArrayLowering}, {@link ArrayCopies}, {@link ReturnLowering}, {@link LoopLowering},
 * {@link ArraySwaps}), not where lowering is.
 */
final class MethodArrays {
  /**
   * The arrays the method writes into, and those it passes to calls of @Differentiable methods
   * and of methods with @DerivativeOf rules, whose reverse reads them as the call saw them.
   */
  private final Set<Value> writtenArrays = new java.util.HashSet<>();
  private final Set<Value> arraysPassedToCalls = new java.util.HashSet<>();
  /** Of {@link #arraysPassedToCalls}, those passed to a call of a method with rules. */
  private final Set<Value> arraysPassedToRuledCalls = new java.util.HashSet<>();
  /**
   * The arrays this method did not make, which it reaches as written: a field's, an object's,
   * one a call run as written returns, a {@code static final} table held in a local. They
   * carry no derivative, and a write into one changes state outside the method.
   */
  private final Set<Value> foreignArrays =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  /**
   * The rows of matrices ({@code m[i]}, and what a local bound to one holds): two of them may be
   * one array, so a copy from one into another must not read an element after writing it.
   */
  private final Set<Value> rows =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  /** The array locals that have held a row: what they hold may be a row too. */
  private final Set<Variable> rowVariables = new java.util.HashSet<>();
  /** The array locals that have held a foreign array: what they hold is foreign too. */
  private final Set<Variable> foreignArrayVariables = new java.util.HashSet<>();
  /**
   * Of the foreign arrays, those a call run as written returned after it was given an array
   * that carries derivatives ({@code Objects.requireNonNull(a)}, a check of the sources that
   * returns its argument, or a row of it): each may be that array, which a write through it
   * would change behind its derivatives. Each with what says so in an error.
   */
  private final Map<Value, String> possibleAliases = new java.util.IdentityHashMap<>();
  /** The array locals that have held such an array, with what says so. */
  private final Map<Variable, String> possibleAliasVariables = new java.util.HashMap<>();
  /** The arrays the method must not write: its array parameters and their rows. */
  private final Set<Value> readOnlyArrays =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  /** The names of the arrays the method's own double-buffer swaps exchange. */
  private Set<String> swappedArrays = Set.of();
  /**
   * The arrays the method makes with {@code new}, each with what gives its length: the value
   * of its size ({@code n}) or the text of a constant one. Two arrays with the same entry have
   * the same length ({@link ArraySwaps}).
   */
  private final Map<Value, Object> madeArrays = new java.util.IdentityHashMap<>();

  /**
   * Notes what {@code result = operation(arguments)} does to arrays: a store writes into its
   * array, a call run as written or a row of a foreign array gives a foreign one, a call of a
   * {@code @Differentiable} method is passed its array arguments.
   */
  void emitted(Value result, Operation operation, List<Operand> arguments) {
    if (operation.form() == Operation.Form.STORE && arguments.get(0) instanceof Operand.Use use) {
      writtenArrays.add(use.value());
    }
    if (result.type().isArray() && (operation.form() == Operation.Form.PLAIN_CALL
        || operation.form() == Operation.Form.ELEMENT && isForeignArray(arguments.get(0)))) {
      foreignArrays.add(result); // read as written, or a row of such a matrix
    }
    if (result.type().isArray() && operation.form() == Operation.Form.ELEMENT) {
      rows.add(result);
      possibleAlias(arguments.get(0)).ifPresent(given -> possibleAliases.put(result, given));
    }
    if (operation.form().callsDifferentiated()) {
      for (Operand argument : arguments) {
        if (argument instanceof Operand.Use use && use.value().type().isArray()) {
          arraysPassedToCalls.add(use.value());
          if (operation.form() == Operation.Form.RULED_CALL) {
            arraysPassedToRuledCalls.add(use.value());
          }
        }
      }
    }
  }

  /** Notes that {@code copy} is the value read from {@code variable}. */
  void read(Variable variable, Value copy) {
    if (foreignArrayVariables.contains(variable)) {
      foreignArrays.add(copy);
    }
    if (possibleAliasVariables.containsKey(variable)) {
      possibleAliases.put(copy, possibleAliasVariables.get(variable));
    }
    if (rowVariables.contains(variable)) {
      rows.add(copy);
    }
  }

  /** Notes that {@code variable} is assigned {@code value}. */
  void stored(Variable variable, Operand value) {
    if (isForeignArray(value)) {
      foreignArrayVariables.add(variable);
    }
    possibleAlias(value).ifPresent(given -> possibleAliasVariables.put(variable, given));
    if (isRow(value)) {
      rowVariables.add(variable);
    }
  }

  /** Notes that {@code copy} is a copy of {@code value}, a local's. */
  void copied(Operand value, Value copy) {
    if (isForeignArray(value)) {
      foreignArrays.add(copy);
    }
    possibleAlias(value).ifPresent(given -> possibleAliases.put(copy, given));
    if (isRow(value)) {
      rows.add(copy);
    }
  }

  /**
   * Notes that {@code result}, an array a call run as written returned, may be {@code given},
   * an array that carries derivatives which the call was given; {@code why} says so in an
   * error ({@link #possibleAlias}).
   */
  void returnedAfterGiven(Operand result, String why) {
    if (result instanceof Operand.Use use && use.value().type().isArray()) {
      possibleAliases.put(use.value(), why);
    }
  }

  /**
   * What says that {@code array} may be an array that carries derivatives, returned to the
   * method by a call run as written that was given it: empty for any other array. Such an array
   * carries no derivative in the method's code, so a write through it would change the other
   * behind its derivatives.
   */
  Optional<String> possibleAlias(Operand array) {
    return array instanceof Operand.Use use
        ? Optional.ofNullable(possibleAliases.get(use.value())) : Optional.empty();
  }

  /**
   * Whether {@code array} may be a row of a matrix ({@code m[i]}, or a local that has held
   * one), which another row may be too.
   */
  boolean isRow(Operand array) {
    return array instanceof Operand.Use use && rows.contains(use.value());
  }

  void swapsArrays(List<ArraySwaps> swaps) {
    Set<String> names = new java.util.HashSet<>();
    swaps.forEach(swap -> {
      names.add(swap.first());
      names.add(swap.second());
    });
    swappedArrays = names;
  }

  /**
   * The names of the arrays the method's own swaps exchange ({@link ArraySwaps}): no other
   * assignment may rebind them, since {@link VariablePlanner} gave them no variable.
   */
  Set<String> swappedArrays() {
    return swappedArrays;
  }

  /**
   * Records that {@code array} was made with {@code new} of length {@code length}; with
   * {@code lengthOf}, the length of that array, which is bound once, so that arrays made
   * with {@code new double[w.length]} at two places have the same entry though each read
   * of {@code w.length} is a value of its own.
   */
  void madeArray(Operand array, Operand length, Optional<Value> lengthOf) {
    if (array instanceof Operand.Use use) {
      madeArrays.put(use.value(), lengthOf.<Object>map(LengthOf::new)
          .orElse(length instanceof Operand.Use size ? size.value() : "constant " + length));
    }
  }

  /**
   * Records that {@code matrix} was made by the method with rows of one length: {@code new
   * double[n][m]}, or rows in braces with as many elements each ({@link RowSwaps}).
   */
  void madeRectangular(Operand matrix) {
    if (matrix instanceof Operand.Use use) {
      rectangularMatrices.add(use.value());
    }
  }

  /** Whether the method made {@code matrix} with rows of one length. */
  boolean isRectangular(Value matrix) {
    return rectangularMatrices.contains(matrix);
  }

  private final Set<Value> rectangularMatrices =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  /** The length of an array bound once: equal for the same array. */
  private record LengthOf(Value array) {}

  /** What gives the length of {@code array}, if the method made it with {@code new}. */
  java.util.Optional<Object> lengthOfMadeArray(Value array) {
    return java.util.Optional.ofNullable(madeArrays.get(array));
  }

  /**
   * Whether {@code array} is both passed to a call of another {@code @Differentiable} method (or
   * of a method with {@code @DerivativeOf} rules) and written into. The reverse sweep then puts
   * back each element written over before it reaches the call, which it must not do to an array
   * it returns.
   */
  boolean isWrittenAndPassedToCalls(Value array) {
    return writtenArrays.contains(array) && arraysPassedToCalls.contains(array);
  }

  /** Whether {@code array} is passed to a call of a method with {@code @DerivativeOf} rules. */
  boolean isPassedToRuledCalls(Value array) {
    return arraysPassedToRuledCalls.contains(array);
  }

  /**
   * Whether {@code array} is an array this method did not make and reaches as written (a
   * field's, an object's, one a call run as written returns, a {@code static final} table): it
   * carries no derivative, and writing into it changes state outside the method.
   */
  boolean isForeignArray(Operand array) {
    if (array instanceof Operand.Constant constant) {
      return constant.type().isArray();
    }
    return array instanceof Operand.Use use && foreignArrays.contains(use.value());
  }

  /** Marks an array the method must not write into (a parameter, a row of one). */
  void markReadOnly(Value array) {
    readOnlyArrays.add(array);
  }

  /** Whether {@code array} is a parameter or a row of one, which the method must not write. */
  boolean isReadOnly(Value array) {
    return readOnlyArrays.contains(array);
  }
}
