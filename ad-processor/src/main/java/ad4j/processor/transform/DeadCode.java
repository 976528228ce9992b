package ad4j.processor.transform;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operand;
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
    return function.with(function.parameters(),
        new Block(withoutUnused(function.body().statements())));
  }

  /**
   * {@code statements} (straight-line: no branch, no loop) without the {@link
   * Instruction#isPure pure} instructions whose values no later statement reads; every other
   * statement stays, and what it reads is read.
   */
  static List<Statement> withoutUnused(List<Statement> statements) {
    Set<Value> read = new HashSet<>();
    List<Statement> kept = new ArrayList<>();
    for (int i = statements.size() - 1; i >= 0; i--) {
      Statement statement = statements.get(i);
      if (statement instanceof Instruction instruction && !read.contains(instruction.result())
          && instruction.isPure()) {
        continue;
      }
      kept.add(statement);
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Use use) {
          read.add(use.value());
        }
      }
    }
    Collections.reverse(kept);
    return kept;
  }
}
