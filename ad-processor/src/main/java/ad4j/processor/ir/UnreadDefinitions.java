package ad4j.processor.ir;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A block without the definitions that nothing reads: the {@link Instruction#isPure pure}
 * instructions, at any depth, whose values no statement reads, and the variables no statement
 * reads (their declarations and stores), until none is left (one removed may leave what it read
 * unread). Everything else stays where it is, so a program still throws where it did. In
 * {@code ir/} because both the optimisations ({@code optimize/DeadCode}) and the printer
 * ({@code emit/JavaEmitter}, which declares no local that nothing reads) use it.
 */
public final class UnreadDefinitions {
  private UnreadDefinitions() {}

  /** {@code block} without its unread definitions, as described above. */
  public static Block removedFrom(Block block) {
    return removedFrom(block, Instruction::isPure);
  }

  /**
   * {@code block} without its unread definitions, where an instruction may go when nothing
   * reads its value and {@code removable} says so.
   */
  public static Block removedFrom(Block block, Predicate<Instruction> removable) {
    Block current = block;
    int removed;
    do {
      Set<Value> read = new HashSet<>();
      Set<Variable> readVariables = new HashSet<>();
      current.walk(statement -> statement.operands().forEach(operand -> {
        if (operand instanceof Operand.Use use) {
          read.add(use.value());
        } else if (operand instanceof Operand.Read variable) {
          readVariables.add(variable.variable());
        }
      }));
      int[] count = {0};
      current = withoutUnreadOnce(current, removable, read, readVariables, count);
      removed = count[0];
    } while (removed > 0);
    return current;
  }

  private static Block withoutUnreadOnce(Block block, Predicate<Instruction> removable,
      Set<Value> read, Set<Variable> readVariables, int[] removed) {
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Instruction instruction && removable.test(instruction)
          && !read.contains(instruction.result())
          || statement instanceof Declare declare && !readVariables.contains(declare.variable())
          || statement instanceof Store store && !readVariables.contains(store.variable())) {
        removed[0]++;
        continue;
      }
      out.add(statement.withNestedBlocks(
          nested -> withoutUnreadOnce(nested, removable, read, readVariables, removed)));
    }
    return new Block(out);
  }
}
