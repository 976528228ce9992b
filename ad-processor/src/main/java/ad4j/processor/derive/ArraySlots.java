package ad4j.processor.derive;

import ad4j.processor.analysis.Ids;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Prepares a function with array parameters for reverse mode: each read {@code w[i]} of an array
 * that carries derivatives learns the gradient slot of its element ({@link
 * Operation#ELEMENT_AT_SLOT}), so that the reverse sweep adds the element's adjoint straight into
 * the output array ({@code gradient[slot] += vBar}) and needs no adjoint array of its own.
 *
 * <p>The slots are {@code int} values of the primal: the starts of the parameters
 * ({@link FlatLayout}) at the top, {@code wStart + i} before each read, and for a row
 * {@code m[i]} of a matrix, where the row starts ({@code ad4j.runtime.internal.Slots.rowStart}).
 * Being
 * values, they are recorded on the tape inside loops like any value a derivative reads; being
 * integers, nothing of Java's floating-point semantics changes.
 */
public final class ArraySlots {
  private final IrBuilder builder;
  /**
   * Per array that carries derivatives, the slot of its first element: in the output array for
   * parameters and their rows, 0 for local arrays (in their own adjoint arrays).
   */
  private final Map<Value, Operand> starts = new HashMap<>();
  /** The local arrays (created by the method), whose adjoints are arrays of their own. */
  private final java.util.Set<Value> local = new java.util.HashSet<>();
  /**
   * Per local {@code double[][]}, its rows' common length or -1: its adjoints are in one flat
   * array, row after row, at the slots {@code Slots.rowStart} gives, as a parameter's are.
   */
  private final Map<Value, Operand> localRowLengths = new HashMap<>();
  private FlatLayout layout;

  /**
   * Whether each array parameter's adjoints go to an array of its own, at a start of its own,
   * both parameters of the program ({@link #perParameter}); else to one output array, in the
   * flat layout.
   */
  private final boolean perParameter;

  private ArraySlots(Function function, boolean perParameter) {
    this.builder = new IrBuilder(Ids.next(function));
    this.perParameter = perParameter;
  }

  /** {@code function} with slots on its reads of arrays; itself when it has no active array. */
  public static Function of(Function function) {
    if (!function.hasActiveArrays() && !readsLocalArrays(function.body())) {
      return function;
    }
    return new ArraySlots(function, false).transform(function);
  }

  /**
   * {@code function} with slots on its reads of arrays, for the pullback that the generated
   * code of callers calls: after the user's parameters, each active array parameter {@code a}
   * gets two more, the array its elements' adjoints are added into and the slot of
   * {@code a[0]} there ({@code aAdjoints[aStart + i] += ...}). A caller passes its own gradient
   * and the argument's slot, or the adjoint array of a local array and 0; see
   * {@link #adjointTargets}.
   */
  public static Function perParameter(Function function) {
    return new ArraySlots(function, true).transform(function);
  }

  /**
   * For a program made by {@link #perParameter}: per active array parameter, the parameter
   * its elements' adjoints are added into.
   */
  public static Map<Value, Value> adjointTargets(Function function) {
    Map<Value, Value> targets = new HashMap<>();
    List<Value> parameters = function.parameters();
    List<Value> arrays = parameters.stream()
        .filter(p -> p.origin() == Value.Origin.PARAMETER && p.isActiveArray()).toList();
    int next = (int) parameters.stream().filter(p -> p.origin() == Value.Origin.PARAMETER)
        .count();
    for (Value array : arrays) {
      targets.put(array, parameters.get(next));
      next += 2;
    }
    return targets;
  }

  /** Whether some instruction reads or writes an array the method makes itself. */
  private static boolean readsLocalArrays(Block block) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction
          && (instruction.result().isActiveArray()
              || instruction.operation().form() == Operation.Form.STORE
              || instruction.operation().form() == Operation.Form.RULED_CALL)) {
        return true;
      }
      if (statement instanceof If branch
          && (readsLocalArrays(branch.thenBlock()) || readsLocalArrays(branch.elseBlock()))) {
        return true;
      }
      if (statement instanceof Loop loop && (readsLocalArrays(loop.condition())
          || readsLocalArrays(loop.body()) || readsLocalArrays(loop.update()))) {
        return true;
      }
    }
    return false;
  }

  private Function transform(Function function) {
    List<Statement> body = new ArrayList<>();
    layout = perParameter ? FlatLayout.rowLengthsOnly(function, builder, body)
        : new FlatLayout(function, Value::isActiveArray, true, builder, body);
    List<Value> parameters = new ArrayList<>(function.parameters());
    for (Value parameter : function.parameters()) {
      if (parameter.isActiveArray() && perParameter) {
        Value target = builder.derived(parameter, "Adjoints", NumericType.DOUBLE_ARRAY);
        Value start = builder.derived(parameter, "Start", NumericType.INT);
        parameters.add(target);
        parameters.add(start);
        starts.put(parameter, new Operand.Use(start));
      } else if (parameter.isActiveArray()) {
        starts.put(parameter, layout.start(parameter));
      }
    }
    body.addAll(transform(function.body()).statements());
    return function.with(parameters, new Block(body));
  }

  private Block transform(Block block) {
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.ELEMENT
          && instruction.arguments().get(0) instanceof Operand.Use array
          && array.value().isActiveArray()) {
        element(instruction, array.value(), out);
      } else if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.CLONE
          && instruction.arguments().get(0) instanceof Operand.Use array
          && array.value().isActiveArray() && isParameterData(array.value())) {
        // w.clone() of a parameter's elements: its reverse adds into the parameter's slots
        out.add(new Instruction(instruction.result(), Operation.CLONE_AT_SLOT,
            List.of(array, starts.get(array.value())), instruction.line()));
        starts.put(instruction.result(), Operand.Constant.of(0));
        local.add(instruction.result());
      } else if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.USER_CALL) {
        call(instruction, out);
      } else if (statement instanceof Instruction instruction
          && instruction.operation().form().makesArray()
          && instruction.result().isActiveArray()) {
        // a local array: its elements' adjoints are in an adjoint array of its own
        out.add(instruction);
        starts.put(instruction.result(), Operand.Constant.of(0));
        local.add(instruction.result());
        if (instruction.operation().makesMatrix()) {
          localRowLengths.put(instruction.result(), rowLengthOf(instruction));
        }
      } else if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.STORE
          && instruction.arguments().get(0) instanceof Operand.Use array
          && array.value().isActiveArray() && !local.contains(array.value())
          && starts.containsKey(array.value())) {
        // a[i] = v into a row of a local matrix: the element's slot in the matrix's adjoints
        Operand slot = FlatLayout.plus(starts.get(array.value()),
            instruction.arguments().get(1),
            builder.derived(instruction.result(), "Slot", NumericType.INT), out);
        List<Operand> arguments = new ArrayList<>(instruction.arguments());
        arguments.add(slot);
        out.add(new Instruction(instruction.result(), Operation.STORE_AT_SLOT, arguments,
            instruction.line()));
      } else if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.RULED_CALL) {
        out.add(ruledCall(instruction));
      } else if (statement instanceof If || statement instanceof Loop) {
        out.add(statement.withNestedBlocks(this::transform));
      } else {
        out.add(statement);
      }
    }
    return new Block(out);
  }

  /**
   * A call of another {@code @Differentiable} method: per array argument for a parameter that
   * carries derivatives in the callee, the slot of its first element (in the output array for
   * a parameter or a row of one, 0 in a local array's own adjoint array, and 0 for an array that
   * carries none here), appended after the call's own arguments for its reverse. The array a
   * vector function returns is a local array of the caller's.
   */
  private void call(Instruction call, List<Statement> out) {
    Callee callee = call.operation().callee();
    List<Operand> arguments = new ArrayList<>(call.arguments());
    for (int i = 0; i < callee.parameterTypes().size(); i++) {
      if (callee.isActiveArray(i)) {
        Operand start = call.arguments().get(i) instanceof Operand.Use use
            ? starts.get(use.value()) : null;
        arguments.add(start != null ? start : Operand.Constant.of(0));
      }
    }
    out.add(new Instruction(call.result(), Operation.callWithSlots(callee), arguments,
        call.line()));
    if (call.result().isActiveArray()) {
      starts.put(call.result(), Operand.Constant.of(0));
      local.add(call.result());
    }
  }

  /**
   * A call with {@code @DerivativeOf} rules learns the slot of the first element of each array
   * argument that carries derivatives, after its arguments: its reverse adds the adjoint times
   * the rule's partials there (into the output array for parameters and their rows, into the
   * adjoint array for local arrays). Unchanged when it passes no such array.
   */
  private Instruction ruledCall(Instruction call) {
    if (call.operation().ruled().partials().isEmpty()) {
      return call; // a rule, computing a partial where its target is called: no reverse
    }
    List<Operand> arguments = new ArrayList<>(call.arguments());
    for (Operand argument : call.arguments()) {
      if (argument instanceof Operand.Use use && use.value().isActiveArray()) {
        arguments.add(starts.get(use.value()));
      }
    }
    if (call.result().isActiveArray()) {
      // a vector target's result: like a local array, its adjoints are in an array of its own
      starts.put(call.result(), Operand.Constant.of(0));
      local.add(call.result());
    }
    int slots = arguments.size() - call.arguments().size();
    return slots == 0 ? call : new Instruction(call.result(),
        Operation.callAtSlots(call.operation().ruled(), slots), arguments, call.line());
  }

  /**
   * The common row length of a local matrix as it is made: {@code m} of {@code new
   * double[n][m]}; of rows written out, their length when all have the same, else -1.
   */
  private static Operand rowLengthOf(Instruction making) {
    if (making.operation().arity() == 2 && making.operation().name().equals("double[][]")) {
      return making.arguments().get(1);
    }
    java.util.Set<Double> lengths = new java.util.HashSet<>();
    for (Operand length : making.arguments()) {
      lengths.add(((Operand.Constant) length).knownValue().orElseThrow());
    }
    return Operand.Constant.of(lengths.size() <= 1 && !lengths.isEmpty()
        ? lengths.iterator().next().intValue() : lengths.isEmpty() ? 0 : -1);
  }

  /** Whether {@code array} is a parameter or a row of one, not a local array. */
  private boolean isParameterData(Value array) {
    return !local.contains(array);
  }

  private void element(Instruction read, Value array, List<Statement> out) {
    Operand index = read.arguments().get(1);
    Value result = read.result();
    if (result.type().isFloatingPoint()) { // an element of a double[] or a float[]
      Operand slot = FlatLayout.plus(starts.get(array), index,
          builder.derived(result, "Slot", NumericType.INT), out);
      out.add(new Instruction(result, Operation.ELEMENT_AT_SLOT,
          List.of(read.arguments().get(0), index, slot), read.line()));
      return;
    }
    // a row m[i]: read first (it throws where the user's method does), then where it starts
    out.add(read);
    Value matrix = array;
    Value rowStart = builder.derived(result, "RowStart", NumericType.INT);
    Operand rowLength = localRowLengths.containsKey(matrix) ? localRowLengths.get(matrix)
        : layout.rowLength(matrix);
    out.add(new Instruction(rowStart, Operation.slotsCall(SlotsCall.ROW_START, 3), List.of(
        new Operand.Use(matrix), rowLength, index), read.line()));
    starts.put(result, FlatLayout.plus(starts.get(matrix), new Operand.Use(rowStart),
        builder.derived(result, "Start", NumericType.INT), out));
  }
}
