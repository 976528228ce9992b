package ad4j.processor.ir;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
   *
   * <p>One pass removes what is unread when it begins; most programs (the printer asks this of
   * every program it measures, cleaned already) have nothing more to lose, and one pass is
   * all they cost. Where it removed something, what that leaves unread is followed by
   * counting ({@link #removedByCounting}) instead of passing over the whole block again until
   * nothing goes, which removed one link of a chain of unread values per pass.
   */
  public static Block removedFrom(Block block, Predicate<Instruction> removable) {
    Set<Value> read = new HashSet<>();
    Set<Variable> readVariables = new HashSet<>();
    block.walk(statement -> statement.operands().forEach(operand -> {
      if (operand instanceof Operand.Use use) {
        read.add(use.value());
      } else if (operand instanceof Operand.Read variable) {
        readVariables.add(variable.variable());
      }
    }));
    int[] removed = {0};
    Block once = withoutUnreadOnce(block, removable, read, readVariables, removed);
    return removed[0] == 0 ? once : removedByCounting(once, removable);
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

  /**
   * {@code block} without its unread definitions, found by counting the reads once and
   * following each removal to what it read. A definition unread once stays unread, whatever
   * else goes, so the definitions that go are the same in any order, the same as pass after
   * pass would remove.
   */
  private static Block removedByCounting(Block block, Predicate<Instruction> removable) {
    Map<Value, Integer> reads = new HashMap<>();
    Map<Variable, Integer> variableReads = new HashMap<>();
    Map<Value, List<Instruction>> definitions = new HashMap<>();
    Map<Variable, List<Statement>> assignments = new HashMap<>();
    List<Statement> definitionsInOrder = new ArrayList<>();
    // a statement may stand in several places: its reads go with all of them
    Map<Statement, Integer> places = new IdentityHashMap<>();
    block.walk(statement -> {
      places.merge(statement, 1, Integer::sum);
      statement.operands().forEach(operand -> {
        if (operand instanceof Operand.Use use) {
          reads.merge(use.value(), 1, Integer::sum);
        } else if (operand instanceof Operand.Read variable) {
          variableReads.merge(variable.variable(), 1, Integer::sum);
        }
      });
      if (statement instanceof Instruction instruction) {
        definitions.computeIfAbsent(instruction.result(), v -> new ArrayList<>())
            .add(instruction);
        definitionsInOrder.add(statement);
      } else if (statement instanceof Declare declare) {
        assignments.computeIfAbsent(declare.variable(), v -> new ArrayList<>()).add(statement);
        definitionsInOrder.add(statement);
      } else if (statement instanceof Store store) {
        assignments.computeIfAbsent(store.variable(), v -> new ArrayList<>()).add(statement);
        definitionsInOrder.add(statement);
      }
    });
    Set<Statement> removed = Collections.newSetFromMap(new IdentityHashMap<>());
    Deque<Statement> unread = new ArrayDeque<>();
    for (Statement statement : definitionsInOrder) {
      if (isUnread(statement, removable, reads, variableReads)) {
        unread.add(statement);
      }
    }
    while (!unread.isEmpty()) {
      Statement statement = unread.poll();
      if (!removed.add(statement)) {
        continue;
      }
      int times = places.get(statement);
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Use use
            && reads.merge(use.value(), -times, Integer::sum) == 0) {
          for (Instruction definition : definitions.getOrDefault(use.value(), List.of())) {
            if (isUnread(definition, removable, reads, variableReads)) {
              unread.add(definition);
            }
          }
        } else if (operand instanceof Operand.Read variable
            && variableReads.merge(variable.variable(), -times, Integer::sum) == 0) {
          unread.addAll(assignments.getOrDefault(variable.variable(), List.of()));
        }
      }
    }
    return without(block, removed);
  }

  /** Whether a definition goes: an instruction that may, or a variable's, unread now. */
  private static boolean isUnread(Statement statement, Predicate<Instruction> removable,
      Map<Value, Integer> reads, Map<Variable, Integer> variableReads) {
    if (statement instanceof Instruction instruction) {
      return removable.test(instruction) && reads.getOrDefault(instruction.result(), 0) == 0;
    }
    Variable variable = statement instanceof Declare declare ? declare.variable()
        : ((Store) statement).variable();
    return variableReads.getOrDefault(variable, 0) == 0;
  }

  private static Block without(Block block, Set<Statement> removed) {
    List<Statement> out = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (!removed.contains(statement)) {
        out.add(statement.withNestedBlocks(nested -> without(nested, removed)));
      }
    }
    return new Block(out);
  }
}
