package ad4j.processor.derive.jacobian;

import ad4j.processor.analysis.ResultLength;
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
import ad4j.processor.optimize.DeadCode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The body of {@code fJacobian} where the method fixes its result's length: the program of
 * {@link JacobianRows#intoNewRows}, writing into the rows {@code fJacobian} has just made,
 * without the result array the method makes, its element stores and what only they read
 * ({@code double[] residual = new double[2]; ... residual[1] = w * t59;}). {@code fJacobian}
 * returns the matrix and never the value; the program reads the array's length only to choose
 * between the modes, and that length is the constant the method fixes ({@link ResultLength}).
 *
 * <p>The array is left out only where that changes nothing the caller can see: it is made by
 * {@code new double[n]} with the constant {@code n}, held only by locals that hold nothing
 * else, and otherwise only written at constant indices below {@code n} (no store can throw)
 * and asked its length. Any other use (an element read back, a compound assignment, an index
 * computed at run time, a call it is passed to) keeps the value, and {@code fJacobian} calls
 * the rows program, which returns it. In the bundle-adjustment benchmark the array, made in
 * the middle of the forward sweep and returned to {@code fJacobian} from a method too large to
 * inline (so never removed by escape analysis), and that call took a tenth of the Jacobian's
 * time.
 */
public final class RowsWithoutValue {
  /** The values that are the result array: what makes it and the copies of it. */
  private final Set<Value> arrayValues = new HashSet<>();
  /** The locals that hold the result array. */
  private final Set<Variable> arrayVariables = new HashSet<>();
  private final int length;

  private RowsWithoutValue(int length) {
    this.length = length;
  }

  /**
   * {@code rows} returning nothing, without its result array, when the array goes only where
   * leaving it out is invisible (above); empty otherwise.
   *
   * @param rows a program of {@link JacobianRows#intoNewRows}, which ends by returning the
   *     method's value
   * @param length the length every result of the method has ({@link ResultLength})
   */
  public static Optional<Function> of(Function rows, int length) {
    List<Statement> body = rows.body().statements();
    if (body.isEmpty() || !(body.get(body.size() - 1) instanceof Return exit)
        || exit.value() == null) {
      return Optional.empty();
    }
    RowsWithoutValue analysis = new RowsWithoutValue(length);
    analysis.addAlias(exit.value());
    analysis.collectAliases(rows.body());
    if (!analysis.isMadeOnceWithItsLength(rows.body())
        || !analysis.isOnlyWrittenAndMeasured(rows.body(), exit)) {
      return Optional.empty();
    }
    List<Statement> without = new ArrayList<>(analysis.rewrite(rows.body()).statements());
    without.set(without.size() - 1, new Return(null, exit.line()));
    return Optional.of(rows.with(rows.parameters(), DeadCode.withoutUnread(new Block(without))));
  }

  private void addAlias(Operand operand) {
    if (operand instanceof Operand.Use use) {
      arrayValues.add(use.value());
    } else if (operand instanceof Operand.Read read) {
      arrayVariables.add(read.variable());
    }
  }

  /** Follows the declarations of the array's locals and the copies of it to where it is made. */
  private void collectAliases(Block body) {
    int known;
    do {
      known = arrayValues.size() + arrayVariables.size();
      body.walk(statement -> {
        if (statement instanceof Declare declare && arrayVariables.contains(declare.variable())
            && declare.initial() != null) {
          addAlias(declare.initial());
        } else if (statement instanceof Store store
            && arrayVariables.contains(store.variable())) {
          addAlias(store.value());
        } else if (statement instanceof Instruction instruction
            && arrayValues.contains(instruction.result())
            && instruction.operation().equals(Operation.COPY)) {
          addAlias(instruction.arguments().get(0));
        }
      });
    } while (arrayValues.size() + arrayVariables.size() > known);
  }

  /**
   * Whether one {@code new double[length]} makes every value that is the array, and each of
   * its locals is declared once and holds nothing else (the {@code result} a method's single
   * return assigns starts as {@code null}).
   */
  private boolean isMadeOnceWithItsLength(Block body) {
    int[] made = {0};
    boolean[] fits = {true};
    Set<Variable> declared = new HashSet<>();
    body.walk(statement -> {
      if (statement instanceof Instruction instruction
          && arrayValues.contains(instruction.result())) {
        Operation operation = instruction.operation();
        if (operation.form() == Operation.Form.NEW_ARRAY && !operation.makesMatrix()
            && instruction.arguments().size() == 1
            && isConstant(instruction.arguments().get(0), length)) {
          made[0]++;
        } else if (!operation.equals(Operation.COPY)) {
          fits[0] = false;
        }
      } else if (statement instanceof Declare declare
          && arrayVariables.contains(declare.variable())) {
        fits[0] &= declared.add(declare.variable()) && declare.initial() != null;
      }
    });
    return fits[0] && made[0] == 1 && declared.equals(arrayVariables)
        && arrayValues.stream().allMatch(value -> value.origin() != Value.Origin.PARAMETER);
  }

  /**
   * Whether the array is read only to be copied, declared, written at a constant index below
   * its length (by a store whose own value nobody reads), asked its length and returned.
   */
  private boolean isOnlyWrittenAndMeasured(Block body, Return exit) {
    Set<Value> stores = new HashSet<>();
    boolean[] fits = {true};
    body.walk(statement -> {
      if (statement == exit || !statement.operands().stream().anyMatch(this::isArray)) {
        return;
      }
      if (statement instanceof Declare declare && arrayVariables.contains(declare.variable())
          || statement instanceof Store store && arrayVariables.contains(store.variable())) {
        return;
      }
      if (statement instanceof Instruction instruction) {
        if (arrayValues.contains(instruction.result())
            || isLength(instruction)) {
          return;
        }
        if (isStoreIntoArray(instruction)
            && !isArray(instruction.arguments().get(2))) {
          stores.add(instruction.result());
          return;
        }
      }
      fits[0] = false;
    });
    if (!fits[0]) {
      return false;
    }
    // a store's value is the stored number, which code such as x = (r[0] = y) reads
    body.walk(statement -> fits[0] &= statement.operands().stream()
        .noneMatch(operand -> operand instanceof Operand.Use use
            && stores.contains(use.value())));
    return fits[0];
  }

  private boolean isArray(Operand operand) {
    return operand instanceof Operand.Use use && arrayValues.contains(use.value())
        || operand instanceof Operand.Read read && arrayVariables.contains(read.variable());
  }

  private boolean isLength(Instruction instruction) {
    return instruction.operation().equals(Operation.LENGTH)
        && isArray(instruction.arguments().get(0));
  }

  private boolean isStoreIntoArray(Instruction instruction) {
    List<Operand> arguments = instruction.arguments();
    return instruction.operation().equals(Operation.STORE) && isArray(arguments.get(0))
        && arguments.get(1) instanceof Operand.Constant index
        && index.knownValue().isPresent() && index.knownValue().getAsDouble() >= 0
        && index.knownValue().getAsDouble() < length
        && index.knownValue().getAsDouble() == Math.rint(index.knownValue().getAsDouble());
  }

  private static boolean isConstant(Operand operand, int value) {
    return operand instanceof Operand.Constant constant && constant.knownValue().isPresent()
        && constant.knownValue().getAsDouble() == value;
  }

  /**
   * {@code block} without what makes, holds and writes the array; its length read as the
   * constant.
   */
  private Block rewrite(Block block) {
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Declare declare && arrayVariables.contains(declare.variable())
          || statement instanceof Store store && arrayVariables.contains(store.variable())) {
        continue;
      }
      if (statement instanceof Instruction instruction) {
        if (arrayValues.contains(instruction.result()) || isStoreIntoArray(instruction)) {
          continue;
        }
        if (isLength(instruction)) {
          out.add(new Instruction(instruction.result(), Operation.COPY,
              List.of(Operand.Constant.of(length)), instruction.line()));
          continue;
        }
      }
      out.add(statement.withNestedBlocks(this::rewrite));
    }
    return new Block(out);
  }
}
