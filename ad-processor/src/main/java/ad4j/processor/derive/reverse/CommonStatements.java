package ad4j.processor.derive.reverse;

import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import ad4j.processor.rules.Site;
import java.util.ArrayList;
import java.util.List;

/**
 * The small statements both sweeps write: a counter's step, a pop from the tape, a tape call,
 * a named value. Apart so that every class writes them the same way.
 */
final class CommonStatements {
  private final SweepState s;

  CommonStatements(SweepState s) {
    this.s = s;
  }

  /** {@code tape.method(arguments)}, written where the next statement reads it. */
  Operand tapeCall(String method, NumericType type, List<Operand> arguments,
      SourceLine line, List<Statement> out) {
    Value value = s.builder.formula(type, false);
    out.add(new Instruction(value, Operation.tapeCall(method, arguments.size()), arguments,
        line));
    return new Operand.Use(value);
  }

  /** {@code hint = operation(arguments)}, a value of its own that may be read many times. */
  Operand named(String hint, NumericType type, Operation operation,
      List<Operand> arguments, SourceLine line, List<Statement> out) {
    Value value = s.builder.generated(hint, type, false);
    out.add(new Instruction(value, operation, arguments, line));
    return new Operand.Use(value);
  }

  /** {@code counter = counter ± 1}. */
  List<Statement> step(Variable counter, Operation operation, SourceLine line) {
    Site site = Site.formulas(s.builder, line);
    Operand next = site.apply(operation, counter.type(), new Operand.Read(counter),
        Operand.Constant.of(1));
    List<Statement> out = new ArrayList<>(site.instructionsFor(List.of(next)));
    out.add(new Store(counter, next, line));
    return out;
  }

  Operand pop(NumericType type, SourceLine line, List<Statement> out) {
    return pop(type, false, line, out);
  }

  /** As {@link #pop(NumericType, SourceLine, List)}, of a value that may carry a tangent. */
  Operand pop(NumericType type, boolean active, SourceLine line, List<Statement> out) {
    Value value = s.builder.formula(type, active);
    out.add(new Instruction(value, Operation.POP, List.of(), line));
    return new Operand.Use(value);
  }
}
