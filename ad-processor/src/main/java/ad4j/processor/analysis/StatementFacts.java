package ad4j.processor.analysis;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Counts and shapes of a run of statements, nested ones included: how often each value and
 * variable occurs, what the statements define and store into, how many there are, whether they
 * return, leave a loop or use the tape. Apart from the passes that ask them ({@code
 * methodsize/}'s cutting of long blocks, {@code optimize/}'s spreading of long sums across
 * the parts), because both read the same facts of the same statements.
 */
public final class StatementFacts {
  private StatementFacts() {}

  /** Counts each read of a value, and each read, store or declaration of a variable. */
  public static void count(Block block, Map<Object, Integer> counts) {
    for (Statement statement : block.statements()) {
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Use use) {
          counts.merge(use.value(), 1, Integer::sum);
        } else if (operand instanceof Operand.Read read) {
          counts.merge(read.variable(), 1, Integer::sum);
        }
      }
      if (statement instanceof Store store) {
        counts.merge(store.variable(), 1, Integer::sum);
      } else if (statement instanceof Declare declare) {
        counts.merge(declare.variable(), 1, Integer::sum);
      }
      for (Block nested : statement.nestedBlocks()) {
        count(nested, counts);
      }
    }
  }

  /** Adds the values the statements make and the variables they declare. */
  public static void definitions(List<Statement> statements, Set<Value> values,
      Set<Variable> variables) {
    for (Statement statement : statements) {
      if (statement instanceof Instruction instruction) {
        values.add(instruction.result());
      } else if (statement instanceof Declare declare) {
        variables.add(declare.variable());
      }
      for (Block nested : statement.nestedBlocks()) {
        definitions(nested.statements(), values, variables);
      }
    }
  }

  /** Counts the statements that store into each variable, nested ones included. */
  public static void countStores(List<Statement> statements, Map<Variable, Integer> counts) {
    for (Statement statement : statements) {
      if (statement instanceof Store store) {
        counts.merge(store.variable(), 1, Integer::sum);
      }
      for (Block nested : statement.nestedBlocks()) {
        countStores(nested.statements(), counts);
      }
    }
  }

  /** Adds the variables the statements store into, nested ones included. */
  public static void assignments(List<Statement> statements, Set<Variable> variables) {
    Map<Variable, Integer> counts = new IdentityHashMap<>();
    countStores(statements, counts);
    variables.addAll(counts.keySet());
  }

  /** Statements, nested ones included. */
  public static int size(List<Statement> statements) {
    int size = 0;
    for (Statement statement : statements) {
      size++;
      for (Block nested : statement.nestedBlocks()) {
        size += size(nested.statements());
      }
    }
    return size;
  }

  /** The number of {@code return} statements, nested ones counted. */
  public static int returns(List<Statement> statements) {
    int returns = 0;
    for (Statement statement : statements) {
      returns += statement instanceof Return ? 1 : 0;
      for (Block nested : statement.nestedBlocks()) {
        returns += returns(nested.statements());
      }
    }
    return returns;
  }

  /**
   * Whether the statements use the tape: a loop (whose sweeps record), a push, or an operation
   * that takes from the tape or leaves something there.
   */
  public static boolean usesTape(List<Statement> statements) {
    for (Statement statement : statements) {
      if (statement instanceof Loop || statement instanceof Push
          || statement instanceof Instruction instruction
              && instruction.operation().form().usesTape()
          || statement.nestedBlocks().stream().anyMatch(b -> usesTape(b.statements()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a statement can move into a method of its own: it neither returns nor leaves a loop
   * that is not nested in it ({@code loops}: the loops inside it that enclose the statement).
   */
  public static boolean movable(Statement statement, Set<Integer> loops) {
    if (statement instanceof Return) {
      return false;
    } else if (statement instanceof Jump jump) {
      return loops.contains(jump.loopId());
    } else if (statement instanceof If branch) {
      return movable(branch.thenBlock(), loops) && movable(branch.elseBlock(), loops);
    } else if (statement instanceof Loop loop) {
      Set<Integer> inner = new HashSet<>(loops);
      inner.add(loop.id());
      return movable(loop.condition(), inner) && movable(loop.body(), inner)
          && movable(loop.update(), inner);
    }
    return true;
  }

  private static boolean movable(Block block, Set<Integer> loops) {
    return block.statements().stream().allMatch(s -> movable(s, loops));
  }

  /** A new set of values or variables compared by identity. */
  public static <T> Set<T> newIdentitySet() {
    return Collections.newSetFromMap(new IdentityHashMap<>());
  }
}
