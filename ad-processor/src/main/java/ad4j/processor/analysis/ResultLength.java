package ad4j.processor.analysis;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The number of elements of a vector function's result, when the method fixes it: every
 * {@code return} returns an array made by {@code new double[c]} with a constant {@code c}
 * ({@code double[] residual = new double[2]; ... return residual;}, the local assigned only
 * there). {@code fJacobian} can then allocate its matrix before the sweeps, which give the
 * value and the rows together, instead of computing the value first to learn how many rows
 * there are.
 */
public final class ResultLength {
  /** Where each value of the program is defined. */
  private final Map<Value, Instruction> definitions = new HashMap<>();
  /** What each variable is assigned, declarations with a value and stores. */
  private final Map<Variable, List<Operand>> assignments = new HashMap<>();
  private final List<Operand> returned = new ArrayList<>();

  private ResultLength(Function primal) {
    scan(primal.body());
  }

  /** The constant length of every result of {@code primal}, or empty. */
  public static OptionalInt of(Function primal) {
    ResultLength analysis = new ResultLength(primal);
    OptionalInt length = OptionalInt.empty();
    for (Operand operand : analysis.returned) {
      OptionalInt made = analysis.madeWithLength(operand);
      if (made.isEmpty() || length.isPresent() && length.getAsInt() != made.getAsInt()) {
        return OptionalInt.empty();
      }
      length = made;
    }
    return length;
  }

  /** The constant length of the array {@code operand} holds, when it is made with one. */
  private OptionalInt madeWithLength(Operand operand) {
    if (operand instanceof Operand.Read read) {
      // a local assigned once, as it is declared: no other array can take its place
      List<Operand> values = assignments.getOrDefault(read.variable(), List.of());
      return values.size() == 1 && !(values.get(0) instanceof Operand.Read)
          ? madeWithLength(values.get(0)) : OptionalInt.empty();
    }
    if (!(operand instanceof Operand.Use use) || !definitions.containsKey(use.value())) {
      return OptionalInt.empty();
    }
    Instruction instruction = definitions.get(use.value());
    if (instruction.operation().equals(Operation.COPY)) {
      return madeWithLength(instruction.arguments().get(0));
    }
    if (instruction.operation().form() != Operation.Form.NEW_ARRAY
        || instruction.operation().makesMatrix() || instruction.arguments().size() != 1
        || !(instruction.arguments().get(0) instanceof Operand.Constant size)
        || size.knownValue().isEmpty()) {
      return OptionalInt.empty();
    }
    double length = size.knownValue().getAsDouble();
    // a negative size throws in the user's method: nothing to allocate ahead of it
    return length >= 0 && length == Math.rint(length) && length <= Integer.MAX_VALUE
        ? OptionalInt.of((int) length) : OptionalInt.empty();
  }

  private void scan(Block block) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction) {
        definitions.put(instruction.result(), instruction);
      } else if (statement instanceof Declare declare && declare.initial() != null) {
        assignments.computeIfAbsent(declare.variable(), v -> new ArrayList<>())
            .add(declare.initial());
      } else if (statement instanceof Store store) {
        assignments.computeIfAbsent(store.variable(), v -> new ArrayList<>()).add(store.value());
      } else if (statement instanceof Return exit && exit.value() != null) {
        returned.add(exit.value());
      }
      for (Block nested : statement.nestedBlocks()) {
        scan(nested);
      }
    }
  }
}
