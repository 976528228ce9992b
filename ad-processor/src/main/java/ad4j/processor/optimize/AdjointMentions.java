package ad4j.processor.optimize;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Derivative;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What {@link AdjointSums} needs to know of a whole program before it rewrites its blocks:
 * how often each value and variable is read, which variables are stored into, and which
 * adjoints each statement, nested ones included, mentions and assigns (remembered per statement
 * with nested blocks). Apart from the rewrites because it is counted once per program and read
 * by all of them; it is also where an adjoint is told from other variables ({@link
 * #isAdjoint}).
 */
final class AdjointMentions {
  /** The number of uses of each value in the whole program. */
  private final Map<Value, Integer> uses = new HashMap<>();
  /** The number of reads of each variable in the whole program. */
  private final Map<Variable, Integer> readCounts = new HashMap<>();
  /** The variables the whole program stores into, besides declaring them. */
  private final Set<Variable> stored = new HashSet<>();
  /**
   * Per statement with nested blocks, the adjoint variables they mention and those they
   * assign, not counting those they declare ({@link #visible}).
   */
  private final Map<Statement, Set<Variable>> nestedMentions = new IdentityHashMap<>();
  private final Map<Statement, Set<Variable>> nestedAssigned = new IdentityHashMap<>();

  /** The facts of the whole of {@code program}. */
  AdjointMentions(Function program) {
    countUses(program.body());
  }

  /** The number of uses of each value in the whole program. */
  Map<Value, Integer> uses() {
    return uses;
  }

  /** The number of uses of {@code value} in the whole program. */
  int uses(Value value) {
    return uses.getOrDefault(value, 0);
  }

  /** The number of reads of {@code variable} in the whole program. */
  int reads(Variable variable) {
    return readCounts.getOrDefault(variable, 0);
  }

  /** Whether the whole program stores into {@code variable}, besides declaring it. */
  boolean isStored(Variable variable) {
    return stored.contains(variable);
  }

  /** Whether {@code variable} is an adjoint that a reverse sweep sums into. */
  static boolean isAdjoint(Variable variable) {
    return variable.role() == Derivative.ADJOINT && variable.type() == NumericType.DOUBLE;
  }

  /**
   * Adds the variables the statement, nested ones included, assigns; not those declared in its
   * nested blocks, which the block around the statement cannot name.
   */
  void assigned(Statement statement, Set<Variable> into) {
    if (statement instanceof Declare declare) {
      into.add(declare.variable());
    } else if (statement instanceof Store store) {
      into.add(store.variable());
    }
    if (!statement.nestedBlocks().isEmpty()) {
      into.addAll(memo(nestedAssigned, statement, this::assigned));
    }
  }

  /**
   * Adds the adjoint variables the statement, nested ones included, reads or assigns; not those
   * declared in its nested blocks.
   */
  void mentions(Statement statement, Set<Variable> into) {
    if (statement instanceof Declare declare && isAdjoint(declare.variable())) {
      into.add(declare.variable());
    } else if (statement instanceof Store store && isAdjoint(store.variable())) {
      into.add(store.variable());
    }
    for (Operand operand : statement.operands()) {
      if (operand instanceof Operand.Read read && isAdjoint(read.variable())) {
        into.add(read.variable());
      }
    }
    if (!statement.nestedBlocks().isEmpty()) {
      into.addAll(memo(nestedMentions, statement, this::mentions));
    }
  }

  /**
   * What {@code collect} gathers from the statements of {@code statement}'s nested blocks, less
   * the variables declared in those blocks, kept per statement in {@code memo} ({@link
   * #nestedMentions}, {@link #nestedAssigned}): each
   * block's pass asks about the statements of the blocks around it again, so that a chain of
   * {@code else if} nested n deep was walked n times over (quadratic in the chain), and what a
   * level declares is all but the whole of it.
   */
  private static Set<Variable> memo(Map<Statement, Set<Variable>> memo, Statement statement,
      BiConsumer<Statement, Set<Variable>> collect) {
    // not computeIfAbsent: collecting asks the memo about the nested statements
    Set<Variable> known = memo.get(statement);
    if (known == null) {
      known = visible(statement, collect);
      memo.put(statement, known);
    }
    return known;
  }

  private static Set<Variable> visible(Statement statement,
      BiConsumer<Statement, Set<Variable>> collect) {
    Set<Variable> found = new HashSet<>();
    for (Block nested : statement.nestedBlocks()) {
      Set<Variable> declared = new HashSet<>();
      for (Statement inner : nested.statements()) {
        collect.accept(inner, found);
        if (inner instanceof Declare declare) {
          declared.add(declare.variable());
        }
      }
      found.removeAll(declared);
    }
    return found;
  }

  private void countUses(Block block) {
    for (Statement statement : block.statements()) {
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Use use) {
          uses.merge(use.value(), 1, Integer::sum);
        } else if (operand instanceof Operand.Read read) {
          readCounts.merge(read.variable(), 1, Integer::sum);
        }
      }
      if (statement instanceof Store store) {
        stored.add(store.variable());
      }
      for (Block nested : statement.nestedBlocks()) {
        countUses(nested);
      }
    }
  }
}
