package ad4j.processor.derive;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reuse of values the forward sweep already holds: the math calls of straight-line code by
 * their operation and operands, so that the derivative of {@code sin(t)} reads the
 * {@code cos(t)} the user computed instead of calling it again.
 */
public final class ForwardValues implements Site.Reuse {
  private final Map<List<Object>, Operand> calls = new HashMap<>();

  /** Remembers the value of {@code instruction} when it is a math call. */
  public void record(Instruction instruction) {
    if (instruction.operation().form() == Operation.Form.CALL
        && instruction.result().type() == NumericType.DOUBLE) {
      calls.putIfAbsent(key(instruction.operation(), instruction.arguments()),
          new Operand.Use(instruction.result()));
    }
  }

  @Override
  public Optional<Operand> computed(Operation operation, List<Operand> arguments) {
    return Optional.ofNullable(calls.get(key(operation, arguments)));
  }

  /** A call by its operation and operands, constants compared by their text. */
  private static List<Object> key(Operation operation, List<Operand> arguments) {
    List<Object> key = new ArrayList<>();
    key.add(operation);
    for (Operand argument : arguments) {
      key.add(argument instanceof Operand.Constant constant
          ? constant.expression().toString() : argument);
    }
    return key;
  }
}
