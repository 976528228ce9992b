package ad4j.processor.analysis;

import static ad4j.processor.analysis.LoopCounters.counterOf;

import ad4j.processor.analysis.LoopCounters.Counter;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SlotsCall;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which values the reverse sweep of a loop computes again instead of taking them back from the
 * tape (Tapenade's to-be-recorded analysis, for the cheap cases). In
 * {@code for (int j = 0; j < n; j++) z += w[j] * x[i][j];} the forward sweep used to record,
 * per multiply-add, the slot of {@code w[j]} and the value {@code x[i][j]}; both are functions of
 * the loop counters and of arrays nothing writes, so the reverse sweep reads them again and the
 * tape stays empty.
 *
 * <p>A loop's <em>counter</em> ({@link LoopCounters}) is a variable that only its update
 * changes, by a constant step ({@code i++}, {@code i -= 2}), and whose value on entry the
 * reverse sweep can have again: then in forward iteration {@code k} (counted from 1) it is
 * {@code start + (k - 1) * step}, and the reverse loop, which counts the iterations down, knows
 * {@code k}. A value can be computed again when it is a read of such a counter inside the loop's
 * body, or an {@code int} operation, a {@code double} addition, subtraction, multiplication or
 * negation, a cast, a {@code length}, a row start, or an element read of an array that the
 * method never writes nor passes to a call (parameters, their rows, tables), over values that
 * can be computed again or are readable anywhere in the reverse sweep (constants, parameters,
 * values computed outside loops). Java's arithmetic is deterministic, so the values are the
 * same bit for bit.
 *
 * <p>Only the decision is here, and where in the reverse loops each value is best computed
 * ({@link #innermostCounter}); the reverse sweep's instructions that compute the values again
 * are {@code derive/Recomputation}'s, and which nested loops' trips it counts again {@link
 * CountedTrips}'.
 */
public final class RecomputedValues {
  private final FlowAnalysis flow;
  private final Map<Value, Instruction> definitions = new HashMap<>();
  /** Per loop id, its counter; loops without one are absent. */
  private final Map<Integer, Counter> counters = new HashMap<>();
  /** Per block inside a loop's body (at any depth), the loops whose bodies contain it. */
  private final Map<Block, List<Loop>> bodiesAround = new IdentityHashMap<>();
  /** Arrays written or passed to calls somewhere in the method: their elements may change. */
  private final Set<Value> changingArrays = new HashSet<>();
  private final Map<Value, Boolean> memo = new HashMap<>();
  /** Per loop id, how many loops enclose the loop (0 for a loop outside loops). */
  private final Map<Integer, Integer> loopDepths = new HashMap<>();
  /** Per value computed again, the innermost loop whose counter it depends on, or -1. */
  private final Map<Value, Integer> innermostCounters = new HashMap<>();

  /**
   * Whether a call run as written may change any array between the forward sweep's read of an
   * element and the reverse sweep's ({@link Function#changesState}): then no element is read
   * again.
   */
  private final boolean elementsMayChange;

  /** The values of {@code function} that its reverse sweep computes again ({@code flow}: its). */
  public RecomputedValues(Function function, FlowAnalysis flow) {
    this.flow = flow;
    this.elementsMayChange = function.changesState();
    scan(function.body(), List.of());
  }

  private void scan(Block block, List<Loop> around) {
    if (!around.isEmpty()) {
      bodiesAround.put(block, around);
    }
    List<Statement> statements = block.statements();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      if (statement instanceof Instruction instruction) {
        definitions.put(instruction.result(), instruction);
        Operation.Form form = instruction.operation().form();
        if (form == Operation.Form.STORE || form == Operation.Form.PLAIN_CALL
            || form.callsDifferentiated()) {
          for (Operand argument : instruction.arguments()) {
            if (argument instanceof Operand.Use use && use.value().type().isArray()) {
              changingArrays.add(use.value());
            }
          }
        }
      } else if (statement instanceof If branch) {
        scan(branch.thenBlock(), around);
        scan(branch.elseBlock(), around);
      } else if (statement instanceof Loop loop) {
        Counter counter = counterOf(loop, statements.subList(0, i));
        if (counter != null) {
          counters.put(loop.id(), counter);
        }
        scan(loop.condition(), List.of());
        loopDepths.put(loop.id(), around.size());
        List<Loop> inside = new ArrayList<>(around);
        inside.add(loop);
        scan(loop.body(), List.copyOf(inside));
        scan(loop.update(), List.of());
      }
    }
  }

  /** Whether the reverse sweep computes {@code value} again rather than recording it. */
  public boolean isRecomputed(Value value) {
    Boolean known = memo.get(value);
    if (known != null) {
      return known;
    }
    memo.put(value, false); // no cycles in SSA values, but stay safe
    boolean result = computable(value);
    memo.put(value, result);
    return result;
  }

  private boolean computable(Value value) {
    Instruction definition = definitions.get(value);
    if (definition == null || flow.loopDepth(flow.definingBlock(value)) == 0) {
      return false; // readable as it is: nothing to compute
    }
    Operation operation = definition.operation();
    List<Operand> arguments = definition.arguments();
    switch (operation.form()) {
      case COPY -> {
        return arguments.get(0) instanceof Operand.Read read
            && loopCounted(read.variable(), flow.definingBlock(value)) != null;
      }
      case INFIX -> {
        // int arithmetic, and the cheapest double arithmetic: one operation instead of a
        // push and a pop of eight bytes
        boolean cheap = value.type() == NumericType.INT && isArithmetic(operation)
            || value.type() == NumericType.DOUBLE && (operation.equals(Operation.ADD)
                || operation.equals(Operation.SUBTRACT)
                || operation.equals(Operation.MULTIPLY));
        if (!cheap) {
          return false;
        }
      }
      case PREFIX -> {
        if (!operation.equals(Operation.NEGATE)) {
          return false;
        }
      }
      case CAST -> {
        if (value.type() != NumericType.DOUBLE && value.type() != NumericType.INT) {
          return false;
        }
      }
      case LENGTH -> { }
      case SLOTS_CALL -> {
        if (!operation.isSlotsCall(SlotsCall.ROW_START)) {
          return false;
        }
      }
      case ELEMENT -> {
        if (elementsMayChange) {
          return false;
        }
        if (!(arguments.get(0) instanceof Operand.Constant)
            && !(arguments.get(0) instanceof Operand.Use array
                && !changingArrays.contains(array.value())
                && (array.value().origin() == Value.Origin.PARAMETER
                    || isRowOfUnchangingData(array.value())))) {
          return false;
        }
        arguments = arguments.subList(0, 2); // a slot argument is for the reverse sweep
      }
      default -> {
        return false;
      }
    }
    for (Operand argument : arguments) {
      if (!isAvailable(argument)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A row {@code m[i]} of a parameter or a table: not of a local matrix, whose rows are written
   * through other reads of them.
   */
  private boolean isRowOfUnchangingData(Value row) {
    Instruction read = flow.rowRead(row);
    return read != null && (read.arguments().get(0) instanceof Operand.Constant
        || read.arguments().get(0) instanceof Operand.Use matrix
            && matrix.value().origin() == Value.Origin.PARAMETER);
  }

  private static boolean isArithmetic(Operation operation) {
    return operation.equals(Operation.ADD) || operation.equals(Operation.SUBTRACT)
        || operation.equals(Operation.MULTIPLY) || operation.equals(Operation.DIVIDE)
        || operation.equals(Operation.REMAINDER);
  }

  /** Whether the reverse sweep can have {@code operand}: readable, or computed again. */
  public boolean isAvailable(Operand operand) {
    if (operand instanceof Operand.Constant) {
      return true;
    }
    if (!(operand instanceof Operand.Use use)) {
      return false;
    }
    Value value = use.value();
    return value.origin() == Value.Origin.PARAMETER
        || flow.definingBlock(value) != null && flow.loopDepth(flow.definingBlock(value)) == 0
        || isRecomputed(value);
  }

  /** The loop around {@code block} whose counter {@code variable} is, or null. */
  public Loop loopCounted(Variable variable, Block block) {
    for (Loop loop : bodiesAround.getOrDefault(block, List.of())) {
      Counter counter = counters.get(loop.id());
      if (counter != null && counter.variable() == variable && isAvailableStart(loop, counter)) {
        return loop;
      }
    }
    return null;
  }

  private boolean isAvailableStart(Loop loop, Counter counter) {
    return isAvailable(counter.start());
  }


  /** Whether {@code loop} has a counter that the reverse sweep rebuilds. */
  public boolean hasCounter(Loop loop) {
    Counter counter = counters.get(loop.id());
    return counter != null && isAvailableStart(loop, counter);
  }


  /** The counter of loop {@code loopId}, which {@link #hasCounter} allows. */
  public Counter counter(int loopId) {
    return counters.get(loopId);
  }

  /** The definition of {@code value}, computed again. */
  public Instruction definition(Value value) {
    return definitions.get(value);
  }

  /** The loop whose counter {@code read}, computed again, reads. */
  public Loop loopCounting(Value read) {
    Variable variable = ((Operand.Read) definitions.get(read).arguments().get(0)).variable();
    return loopCounted(variable, flow.definingBlock(read));
  }

  /** The innermost loop (by id) whose counter {@code value}, computed again, depends on; -1. */
  public int innermostCounter(Value value) {
    Integer memoized = innermostCounters.get(value);
    if (memoized != null) {
      return memoized;
    }
    Instruction definition = definitions.get(value);
    int innermost = -1;
    if (definition.operation().form() == Operation.Form.COPY) {
      Variable variable = ((Operand.Read) definition.arguments().get(0)).variable();
      innermost = loopCounted(variable, flow.definingBlock(value)).id();
    } else {
      List<Operand> arguments = definition.operation().form() == Operation.Form.ELEMENT
          ? definition.arguments().subList(0, 2) : definition.arguments();
      for (Operand argument : arguments) {
        if (argument instanceof Operand.Use use && isRecomputed(use.value())) {
          int loop = innermostCounter(use.value());
          if (loop >= 0 && (innermost < 0 || loopDepths.get(loop) > loopDepths.get(innermost))) {
            innermost = loop;
          }
        }
      }
    }
    innermostCounters.put(value, innermost);
    return innermost;
  }
}
