package ad4j.processor.ir;

import java.util.List;
import java.util.Objects;

/**
 * {@code result = operation(arguments)}: the one place a value is defined.
 *
 * @param result the defined value
 * @param operation what is computed
 * @param arguments the operands, in Java evaluation order
 * @param line the user's statement this instruction comes from
 */
public record Instruction(Value result, Operation operation, List<Operand> arguments,
    SourceLine line) implements Statement {
  public Instruction {
    arguments = List.copyOf(arguments);
    if (arguments.size() != operation.arity()) {
      throw new IllegalArgumentException(operation + " takes " + operation.arity()
          + " arguments, got " + arguments.size());
    }
  }

  /**
   * Equal to the record's own equality (every component equal), tested cheapest first. The
   * record's generated {@code equals} compares the components last to first, so the source
   * line (its text) before the result; yet the passes look instructions up in lists of a
   * block's statements ({@code List.contains}, {@code removeAll}), where nearly every
   * comparison is with an instruction of another value, which the result, compared by
   * identity, tells apart at once. The record's {@code hashCode} stays: it agrees with this.
   */
  @Override
  public boolean equals(Object other) {
    return other == this || other instanceof Instruction that && result == that.result
        && operation.equals(that.operation) && arguments.equals(that.arguments)
        && Objects.equals(line, that.line);
  }

  /**
   * Whether evaluating this instruction may throw (or have another effect), so that it must
   * run, in order, even when nothing uses its result: a call of another {@code @Differentiable}
   * method, of a method with {@code @DerivativeOf} rules or of a method run as written (any may
   * throw anything, or count, or log), a read of an array (a null array, an index out of
   * range), an integer division or remainder by a divisor not known to be non-zero
   * ({@code ArithmeticException}), or a {@code clamp} whose bounds may be out of order
   * ({@code IllegalArgumentException}).
   */
  public boolean mayThrow() {
    boolean mayThrow = switch (operation.form().family()) {
      // a call of a method ad4j did not write may throw anything, or count, or log
      case DIFFERENTIATED_CALL, PLAIN_CALL -> true;
      // arrays: a null array, an index out of range, a negative size, a range check; a write
      // must happen
      case ARRAY -> true;
      // clamp throws IllegalArgumentException for bounds out of order or NaN
      case MATH_CALL -> operation.name().equals("clamp") && !boundsInOrder();
      case OPERATOR, GENERATED_CALL, TAPE -> false;
    };
    if (mayThrow) {
      return true;
    }
    boolean integerDivision = result.type().isIntegral()
        && (operation.equals(Operation.DIVIDE) || operation.equals(Operation.REMAINDER));
    if (!integerDivision) {
      return false;
    }
    return !(arguments.get(1) instanceof Operand.Constant divisor)
        || divisor.knownValue().isEmpty() || divisor.knownValue().getAsDouble() == 0;
  }

  /**
   * Whether the bounds of {@code clamp(v, lo, hi)} are constants in order ({@code lo <= hi},
   * neither NaN, and not {@code lo = 0.0} beside {@code hi = -0.0}): the JDK's clamp then
   * cannot throw.
   */
  private boolean boundsInOrder() {
    if (!(arguments.get(1) instanceof Operand.Constant lo)
        || !(arguments.get(2) instanceof Operand.Constant hi)
        || lo.knownValue().isEmpty() || hi.knownValue().isEmpty()) {
      return false;
    }
    double low = lo.knownValue().getAsDouble();
    double high = hi.knownValue().getAsDouble();
    return !Double.isNaN(low) && !Double.isNaN(high) && Double.compare(low, high) <= 0;
  }

  /**
   * Whether this instruction only computes its value: arithmetic, a math function, a copy or a
   * selection that cannot throw. It may be removed when nothing reads its value, or computed
   * elsewhere unless it {@link #readsState reads state}; other instructions (calls, array reads
   * and writes, the tape) must run where they stand.
   */
  public boolean isPure() {
    return switch (operation.form().family()) {
      case OPERATOR, MATH_CALL -> !mayThrow();
      case DIFFERENTIATED_CALL, GENERATED_CALL, TAPE, ARRAY, PLAIN_CALL -> false;
    };
  }

  /**
   * Whether this is a copy of a constant's text with no known value: the front end reads a
   * static field that is not final so ({@code double t1 = Foo.scale}, or a private one through
   * its handle), where the user's method reads it, since a call run as written may set it.
   * Pure as it is (it throws nothing, and may go unread), it gives its value only where it
   * stands: computed after such a call it would give the field's new value. (A copy of another
   * text without a known value counts too; computed where it stands, it is right either way.)
   */
  public boolean readsState() {
    return operation.form() == Operation.Form.COPY
        && arguments.get(0) instanceof Operand.Constant constant
        && constant.knownValue().isEmpty();
  }
}
