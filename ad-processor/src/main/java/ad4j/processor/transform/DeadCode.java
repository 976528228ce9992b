package ad4j.processor.transform;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Removes the instructions of a straight-line function whose values the result does not
 * depend on, except those that may throw (with what they read), so that every member throws
 * where the user's method does. Functions with branches and loops are returned unchanged:
 * their instructions are all kept, as the user wrote them.
 */
public final class DeadCode {
  private DeadCode() {}

  public static Function removeFrom(Function function) {
    if (!function.isStraightLine()) {
      return function;
    }
    List<Statement> statements = function.body().statements();
    Set<Value> needed = new HashSet<>();
    List<Statement> kept = new ArrayList<>();
    for (int i = statements.size() - 1; i >= 0; i--) {
      Statement statement = statements.get(i);
      if (statement instanceof Return ret) {
        addUse(ret.value(), needed);
        kept.add(ret);
      } else if (statement instanceof Instruction instruction
          && (needed.contains(instruction.result()) || instruction.mayThrow())) {
        instruction.arguments().forEach(argument -> addUse(argument, needed));
        kept.add(instruction);
      }
    }
    Collections.reverse(kept);
    return function.with(function.parameters(), new Block(kept));
  }

  private static void addUse(Operand operand, Set<Value> needed) {
    if (operand instanceof Operand.Use use) {
      needed.add(use.value());
    }
  }
}
