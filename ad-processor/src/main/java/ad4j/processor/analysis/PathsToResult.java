package ad4j.processor.analysis;

import ad4j.processor.analysis.AccumulatingLoops.Accumulator;
import ad4j.processor.analysis.AccumulatingLoops.Step;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How a loop's sum reaches the returned value after the loop: its one read, then instructions
 * each read once that pass its adjoint on as a factor known before the loop ({@code return sum
 * / n}), with what must be computed before the loop too to know that factor. Apart from {@link
 * AccumulatingLoops}, which looks at the loop itself, because this looks only at the code after
 * it.
 */
final class PathsToResult {
  /** What an instruction after the loop may be to be computed before it as well. */
  private static final Set<Operation.Form> COMPUTED_AGAIN = Set.of(Operation.Form.LENGTH,
      Operation.Form.CAST, Operation.Form.INFIX, Operation.Form.PREFIX);

  /** How many operands read each value, anywhere in the method. */
  private final Map<Value, Integer> uses;
  /** The instruction that makes each value. */
  private final Map<Value, Instruction> makers;
  /** The instructions of the method's own block, outside its branches and loops. */
  private final Set<Instruction> topLevel;

  PathsToResult(Map<Value, Integer> uses, Map<Value, Instruction> makers,
      Set<Instruction> topLevel) {
    this.uses = uses;
    this.makers = makers;
    this.topLevel = topLevel;
  }

  /**
   * The instructions through which the sum's one read after the loop reaches the returned
   * value, or empty when it is read or assigned otherwise.
   */
  Optional<Accumulator> of(Variable variable, Loop loop, List<Statement> after,
      Set<Value> madeBefore) {
    Instruction read = null;
    for (Statement statement : after) {
      if (statement instanceof Store store && store.variable() == variable) {
        return Optional.empty();
      }
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Read reading && reading.variable() == variable) {
          if (read != null || !(statement instanceof Instruction copy)
              || copy.operation().form() != Operation.Form.COPY
              || !topLevel.contains(copy)) {
            return Optional.empty();
          }
          read = copy;
        }
      }
    }
    if (read == null) {
      return Optional.empty();
    }
    List<Step> path = new ArrayList<>();
    Value current = read.result();
    while (true) {
      if (uses.getOrDefault(current, 0) != 1) {
        return Optional.empty();
      }
      Statement user = null;
      for (Statement statement : after) {
        for (Operand operand : statement.operands()) {
          if (operand instanceof Operand.Use use && use.value() == current) {
            user = statement;
          }
        }
      }
      if (user instanceof Return) {
        return Optional.of(new Accumulator(variable, read, path));
      }
      if (!(user instanceof Instruction instruction) || !topLevel.contains(instruction)
          || instruction.result().type() != NumericType.DOUBLE) {
        return Optional.empty();
      }
      int position = instruction.arguments().indexOf(new Operand.Use(current));
      List<Instruction> again = new ArrayList<>();
      if (!passesAdjointOn(instruction, position, madeBefore, loop, again)) {
        return Optional.empty();
      }
      path.add(new Step(instruction, position, again));
      current = instruction.result();
    }
  }

  /**
   * Whether the adjoint that {@code instruction}'s result receives reaches its argument at
   * {@code position} as a factor known before the loop: through {@code +}, {@code -}, unary
   * {@code -}, and {@code *} or {@code /} (the dividend) by a constant or a value made before.
   */
  private boolean passesAdjointOn(Instruction instruction, int position,
      Set<Value> madeBefore, Loop loop, List<Instruction> again) {
    Operation operation = instruction.operation();
    List<Operand> arguments = instruction.arguments();
    if (operation.equals(Operation.NEGATE)) {
      return true;
    }
    if (arguments.size() != 2) {
      return false;
    }
    if (operation.equals(Operation.ADD) || operation.equals(Operation.SUBTRACT)) {
      return true;
    }
    boolean factor = operation.equals(Operation.MULTIPLY)
        || operation.equals(Operation.DIVIDE) && position == 0;
    return factor && knownBefore(arguments.get(1 - position), madeBefore, loop, again);
  }

  /**
   * Whether {@code operand} can be had before the loop: a constant, a value made before it, or
   * one that carries no derivative made after it by an arithmetic, a cast or an array's length
   * of such operands, which is then added to {@code again}. Made before the loop, it must throw
   * nothing the method would not have thrown by then: no integer division, and only the length
   * of an array whose length the loop's test or the code before it reads already.
   */
  private boolean knownBefore(Operand operand, Set<Value> madeBefore, Loop loop,
      List<Instruction> again) {
    if (operand instanceof Operand.Constant
        || operand instanceof Operand.Use use && madeBefore.contains(use.value())) {
      return true;
    }
    if (!(operand instanceof Operand.Use use) || use.isActive()) {
      return false;
    }
    Instruction maker = makers.get(use.value());
    if (maker == null || !topLevel.contains(maker)
        || !COMPUTED_AGAIN.contains(maker.operation().form())
        || maker.operation().equals(Operation.DIVIDE)
        || maker.operation().equals(Operation.REMAINDER)
        || maker.operation().form() == Operation.Form.LENGTH
            && !lengthReadBefore(maker.arguments().get(0), madeBefore, loop)) {
      return false;
    }
    for (Operand argument : maker.arguments()) {
      if (!knownBefore(argument, madeBefore, loop, again)) {
        return false;
      }
    }
    if (!again.contains(maker)) {
      again.add(maker);
    }
    return true;
  }

  /** Whether the loop's test or an instruction before the loop reads {@code array.length}. */
  private boolean lengthReadBefore(Operand array, Set<Value> madeBefore, Loop loop) {
    List<Statement> candidates = new ArrayList<>(loop.condition().statements());
    for (Value value : madeBefore) {
      Instruction maker = makers.get(value);
      if (maker != null) {
        candidates.add(maker);
      }
    }
    for (Statement statement : candidates) {
      if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.LENGTH
          && instruction.arguments().get(0).equals(array)) {
        return true;
      }
    }
    return false;
  }
}
