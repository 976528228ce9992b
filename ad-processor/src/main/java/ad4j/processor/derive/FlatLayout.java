package ad4j.processor.derive;

import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Where each differentiable parameter's derivatives lie in a flat gradient (DESIGN.md, "the flat
 * layout"): over the active parameters in declaration order, a {@code double} takes one slot, a
 * {@code double[] a} takes {@code a.length} slots and a {@code double[][] m} takes the sum of its
 * rows' lengths, row by row. Before the first array every start is a constant; after it, an
 * {@code int} computed at run time by the instructions this class writes.
 */
public final class FlatLayout {
  /** Per differentiable parameter, the slot of its first element. */
  private final Map<Value, Operand> starts = new LinkedHashMap<>();
  /** Per {@code double[][]} parameter, its common row length or -1 ({@code Slots.rowLength}). */
  private final Map<Value, Operand> rowLengths = new LinkedHashMap<>();

  /**
   * Computes the starts of the parameters that {@code wanted} selects (and of none after the
   * last of them), appending to {@code out} the instructions that compute those known only at
   * run time; with {@code rowLengths}, also each {@code double[][]} parameter's row length.
   */
  public FlatLayout(Function function, Predicate<Value> wanted, boolean rowLengths, IrBuilder builder,
      List<Statement> out) {
    List<Value> parameters = function.differentiableParameters();
    int last = -1;
    for (int i = 0; i < parameters.size(); i++) {
      if (wanted.test(parameters.get(i))) {
        last = i;
      }
    }
    Operand next = Operand.Constant.of(0);
    for (int i = 0; i <= last; i++) {
      Value parameter = parameters.get(i);
      starts.put(parameter, next);
      if (rowLengths && parameter.type() == NumericType.DOUBLE_MATRIX) {
        this.rowLengths.put(parameter, define(
            builder.derived(parameter, "RowLength", NumericType.INT),
            Operation.slotsCall(SlotsCall.ROW_LENGTH, 1), List.of(new Operand.Use(parameter)), out));
      }
      if (i == last) {
        break; // nothing lies beyond: no size needed
      }
      Operand size;
      if (parameter.type().isFloatingPoint()) {
        size = Operand.Constant.of(1);
      } else if (parameter.type().isFloatingPointArray()) {
        size = define(builder.derived(parameter, "Length", NumericType.INT), Operation.LENGTH,
            List.of(new Operand.Use(parameter)), out);
      } else {
        size = define(builder.derived(parameter, "Count", NumericType.INT),
            Operation.slotsCall(SlotsCall.COUNT, 1), List.of(new Operand.Use(parameter)), out);
      }
      next = plus(next, size, builder.derived(parameters.get(i + 1), "Start", NumericType.INT),
          out);
    }
  }

  /**
   * No starts, only each active {@code double[][]} parameter's row length: for programs whose
   * callers pass each array parameter's start ({@link ArraySlots#perParameter}).
   */
  static FlatLayout rowLengthsOnly(Function function, IrBuilder builder, List<Statement> out) {
    FlatLayout layout = new FlatLayout(function, parameter -> false, false, builder, out);
    for (Value parameter : function.differentiableParameters()) {
      if (parameter.type() == NumericType.DOUBLE_MATRIX) {
        layout.rowLengths.put(parameter, define(
            builder.derived(parameter, "RowLength", NumericType.INT),
            Operation.slotsCall(SlotsCall.ROW_LENGTH, 1), List.of(new Operand.Use(parameter)), out));
      }
    }
    return layout;
  }

  /** The slot of the parameter's first element (its only one, for a {@code double}). */
  public Operand start(Value parameter) {
    return starts.get(parameter);
  }

  /** For a {@code double[][]} parameter: its common row length, or -1 when rows differ. */
  Operand rowLength(Value matrix) {
    return rowLengths.get(matrix);
  }

  /** {@code a + b}, folded when both are constants, written to {@code out} otherwise. */
  static Operand plus(Operand a, Operand b, Value result, List<Statement> out) {
    if (a instanceof Operand.Constant x && b instanceof Operand.Constant y
        && x.knownValue().isPresent() && y.knownValue().isPresent()) {
      return Operand.Constant.of((int) (x.knownValue().getAsDouble() + y.knownValue().getAsDouble()));
    }
    if (isZero(a)) {
      return b;
    }
    if (isZero(b)) {
      return a;
    }
    return define(result, Operation.ADD, List.of(a, b), out);
  }

  private static boolean isZero(Operand operand) {
    return operand instanceof Operand.Constant constant && constant.knownValue().isPresent()
        && constant.knownValue().getAsDouble() == 0;
  }

  private static Operand define(Value result, Operation operation, List<Operand> arguments,
      List<Statement> out) {
    out.add(new Instruction(result, operation, arguments, null));
    return new Operand.Use(result);
  }
}
