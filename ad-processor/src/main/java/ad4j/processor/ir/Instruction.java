package ad4j.processor.ir;

import java.util.List;

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
}
