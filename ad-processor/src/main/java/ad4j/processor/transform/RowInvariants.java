package ad4j.processor.transform;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the reverse sweeps of a Jacobian's rows compute alike, computed once before them. The
 * rows run the same reverse sweep over one forward sweep; an expression of forward values only
 * ({@code 2.0 * theta} in {@code thetaBar / (2.0 * theta)}) is the same in every row. A division
 * by a forward value becomes a multiplication by its reciprocal, made once: a division costs
 * several multiplications, and sits on the chain each row waits for. This is what a hand-written
 * Jacobian does ({@code inverseZ = 1 / z}, then {@code g * inverseZ} in each row); the rows then
 * differ from a pullback's in the last bits, as {@code a / b} and {@code a * (1 / b)} do.
 */
final class RowInvariants {
  /**
   * The statements to run once before the rows, and the row's sweep without them.
   *
   * @param before what the rows share
   * @param sweep one row's sweep
   */
  record Split(List<Statement> before, List<Statement> sweep) {}

  private final Set<Value> invariant;
  private final IrBuilder builder;
  private final Map<Value, Operand> replaced = new HashMap<>();
  private final Map<Value, Value> inverses = new HashMap<>();
  private final List<Statement> before = new ArrayList<>();

  private RowInvariants(Set<Value> invariant, IrBuilder builder) {
    this.invariant = new HashSet<>(invariant);
    this.builder = builder;
  }

  /**
   * {@code sweep} (straight-line) split into what it computes from {@code invariant} values
   * alone and the rest, its divisions by such values turned into multiplications by
   * reciprocals when {@code reciprocals} (the rows are more than one).
   */
  static Split of(List<Statement> sweep, Set<Value> invariant, boolean reciprocals,
      IrBuilder builder) {
    RowInvariants split = new RowInvariants(invariant, builder);
    List<Statement> rest = new ArrayList<>();
    for (Statement statement : sweep) {
      split.place(statement, reciprocals, rest);
    }
    return new Split(split.before, rest);
  }

  private void place(Statement statement, boolean reciprocals, List<Statement> rest) {
    Statement mapped = statement.withOperands(this::map);
    if (!(mapped instanceof Instruction instruction)) {
      rest.add(mapped);
      return;
    }
    if (isArithmetic(instruction)
        && instruction.arguments().stream().allMatch(this::isInvariant)) {
      // a formula is written where it is read: hoisted, it becomes a value of its own
      Value result = instruction.result().origin() == Value.Origin.FORMULA
          ? builder.temporary(instruction.result().type(), false) : instruction.result();
      if (result != instruction.result()) {
        replaced.put(instruction.result(), new Operand.Use(result));
      }
      before.add(new Instruction(result, instruction.operation(), instruction.arguments(),
          null));
      invariant.add(result);
      return;
    }
    if (reciprocals && instruction.operation().equals(Operation.DIVIDE)
        && instruction.result().type() == NumericType.DOUBLE
        && instruction.arguments().get(1) instanceof Operand.Use divisor
        && divisor.type() == NumericType.DOUBLE && invariant.contains(divisor.value())) {
      Value inverse = inverses.computeIfAbsent(divisor.value(), this::reciprocal);
      rest.add(new Instruction(instruction.result(), Operation.MULTIPLY,
          List.of(instruction.arguments().get(0), new Operand.Use(inverse)),
          instruction.line()));
      return;
    }
    rest.add(instruction);
  }

  /** {@code 1 / divisor}, made once before the rows. */
  private Value reciprocal(Value divisor) {
    boolean named = divisor.origin() == Value.Origin.LOCAL
        || divisor.origin() == Value.Origin.PARAMETER;
    Value inverse = builder.generated(named ? divisor.nameHint() + "Reciprocal" : "reciprocal",
        NumericType.DOUBLE, false);
    before.add(new Instruction(inverse, Operation.DIVIDE,
        List.of(Operand.Constant.of(1.0), new Operand.Use(divisor)), null));
    return inverse;
  }

  /** Arithmetic and math functions of numbers, which throw nothing. */
  private static boolean isArithmetic(Instruction instruction) {
    return switch (instruction.operation().form()) {
      case INFIX, PREFIX, CAST, CALL -> !instruction.mayThrow()
          && !instruction.result().type().isArray();
      default -> false;
    };
  }

  private boolean isInvariant(Operand operand) {
    return operand instanceof Operand.Constant
        || operand instanceof Operand.Use use && invariant.contains(use.value());
  }

  private Operand map(Operand operand) {
    return operand instanceof Operand.Use use ? replaced.getOrDefault(use.value(), operand)
        : operand;
  }
}
