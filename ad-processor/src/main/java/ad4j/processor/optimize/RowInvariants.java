package ad4j.processor.optimize;

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
public final class RowInvariants {
  /**
   * The statements to run once before the rows, and the row's sweep without them.
   *
   * @param before what the rows share
   * @param sweep one row's sweep
   */
  public record Split(List<Statement> before, List<Statement> sweep) {}

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
  public static Split of(List<Statement> sweep, List<Statement> forward, Set<Value> invariant,
      boolean reciprocals, IrBuilder builder) {
    RowInvariants split = new RowInvariants(invariant, builder);
    // reciprocals the forward sweep makes already (thetaInverse = 1 / theta) serve the rows
    for (Statement statement : forward) {
      if (statement instanceof Instruction made && isReciprocal(made)
          && made.result().origin() != Value.Origin.FORMULA
          && made.arguments().get(1) instanceof Operand.Use divisor) {
        split.inverses.putIfAbsent(divisor.value(), made.result());
      }
    }
    List<Statement> rest = new ArrayList<>();
    for (Statement statement : sweep) {
      split.place(statement, reciprocals, rest);
    }
    // what only a reciprocal made otherwise read (2.0 * theta) is read no more
    List<Statement> all = new ArrayList<>(split.before);
    all.addAll(rest);
    Set<Statement> kept = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    kept.addAll(DeadCode.withoutUnused(all));
    return new Split(split.before.stream().filter(kept::contains).toList(), rest);
  }

  /** Whether the instruction is {@code 1 / x} of {@code double}s. */
  private static boolean isReciprocal(Instruction instruction) {
    return instruction.operation().equals(Operation.DIVIDE)
        && instruction.result().type() == NumericType.DOUBLE
        && instruction.arguments().get(0) instanceof Operand.Constant one
        && one.knownValue().orElse(0) == 1.0
        && instruction.arguments().get(1).type() == NumericType.DOUBLE;
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
      Value inverse = inverseOf(divisor.value());
      rest.add(new Instruction(instruction.result(), Operation.MULTIPLY,
          List.of(instruction.arguments().get(0), new Operand.Use(inverse)),
          instruction.line()));
      return;
    }
    rest.add(instruction);
  }

  /**
   * {@code 1 / divisor}, made once before the rows, or the one the forward sweep or an earlier
   * division made. Of {@code c * x} with {@code c} a power of two, it is {@code (1 / c) * (1 /
   * x)}, which shares {@code x}'s reciprocal and is the same number (scaling by a power of two
   * is exact, but where a value overflows or is subnormal): the derivative of {@code
   * Math.sqrt(x)}, {@code 1 / (2.0 * theta)}, then costs a multiplication, not a division.
   */
  private Value inverseOf(Value divisor) {
    Value known = inverses.get(divisor);
    if (known != null) {
      return known;
    }
    Instruction scaling = hoisted(divisor);
    Scaled scaled = scaling == null ? null : scaledByPowerOfTwo(scaling);
    Value inverse;
    if (scaled != null && scaled.x() instanceof Operand.Use x
        && invariant.contains(x.value())) {
      Value xInverse = inverseOf(x.value());
      inverse = builder.generated("reciprocal", NumericType.DOUBLE, false);
      before.add(new Instruction(inverse, Operation.MULTIPLY,
          List.of(Operand.Constant.of(1.0 / scaled.factor()), new Operand.Use(xInverse)),
          null));
    } else {
      boolean named = divisor.origin() == Value.Origin.LOCAL
          || divisor.origin() == Value.Origin.PARAMETER;
      inverse = builder.generated(named ? divisor.nameHint() + "Reciprocal" : "reciprocal",
          NumericType.DOUBLE, false);
      before.add(new Instruction(inverse, Operation.DIVIDE,
          List.of(Operand.Constant.of(1.0), new Operand.Use(divisor)), null));
    }
    inverses.put(divisor, inverse);
    return inverse;
  }

  /** The instruction hoisted before the rows that makes {@code value}; null if none. */
  private Instruction hoisted(Value value) {
    for (Statement statement : before) {
      if (statement instanceof Instruction made && made.result() == value) {
        return made;
      }
    }
    return null;
  }

  /** {@code factor * x}, {@code factor} a constant power of two. */
  private record Scaled(double factor, Operand x) {}

  /**
   * {@code c * x} or {@code x * c} of {@code double}s with {@code c} a constant power of two, as
   * {@code c} and {@code x}; null for another instruction.
   */
  private static Scaled scaledByPowerOfTwo(Instruction instruction) {
    if (!instruction.operation().equals(Operation.MULTIPLY)
        || instruction.result().type() != NumericType.DOUBLE) {
      return null;
    }
    Operand left = instruction.arguments().get(0);
    Operand right = instruction.arguments().get(1);
    if (isPowerOfTwo(left) && right.type() == NumericType.DOUBLE) {
      return new Scaled(((Operand.Constant) left).knownValue().getAsDouble(), right);
    }
    if (isPowerOfTwo(right) && left.type() == NumericType.DOUBLE) {
      return new Scaled(((Operand.Constant) right).knownValue().getAsDouble(), left);
    }
    return null;
  }

  private static boolean isPowerOfTwo(Operand operand) {
    if (!(operand instanceof Operand.Constant constant) || constant.knownValue().isEmpty()) {
      return false;
    }
    double c = constant.knownValue().getAsDouble();
    // 1 / c is exact and normal too
    return c != 0 && Math.abs(c) <= 0x1p1000 && Math.abs(c) >= 0x1p-1000
        && c == Math.copySign(Math.scalb(1.0, Math.getExponent(c)), c);
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
