package ad4j.processor.optimize;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.UnreadDefinitions;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Removes the instructions of a straight-line function whose values the result does not
 * depend on, except those that may throw (with what they read), so that every member throws
 * where the user's method does. Functions with branches and loops are returned unchanged:
 * their instructions are all kept, as the user wrote them. Transforms that make programs of
 * their own drop what those no longer read, in branches and loops too ({@link #withoutUnread}).
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
   * {@code statements} without the {@link Instruction#isPure pure} instructions whose values
   * no statement reads; every other statement stays, and what it reads is read.
   */
  static List<Statement> withoutUnused(List<Statement> statements) {
    return withoutUnread(new Block(statements)).statements();
  }

  /**
   * {@code block} without the {@link Instruction#isPure pure} instructions, at any depth, whose
   * values no statement reads, and without the variables no statement reads (their declarations
   * and stores: a tangent member computes the value's variables for the tangents' sake and may
   * read only the tangents), until none is left (one removed may leave what it read unread).
   */
  public static Block withoutUnread(Block block) {
    return UnreadDefinitions.removedFrom(block);
  }

  /**
   * {@code block} without what nothing it must run depends on: the {@link Instruction#isPure
   * pure} instructions and the variables (declarations and stores) that reach no statement
   * that must run (a return, a loop, a jump, a store into an array, a push, a throw, an
   * instruction that is not pure), however many of them read each other, and the branches
   * left with nothing that must run. Unlike {@link #withoutUnread}, it removes a variable that
   * only its own updates read, such as a sum a loop accumulates that nothing reads after it,
   * and the tests only such a variable's value reaches: liveness is marked from what must run,
   * through every block, until nothing more is marked. Loops stay, emptied or not: whether
   * one ends is something the caller sees.
   */
  public static Block withoutDead(Block block) {
    return withoutDead(block, Instruction::isPure);
  }

  /**
   * As {@link #withoutDead(Block)}, where an instruction may go when nothing that must run
   * depends on it and {@code removable} says so (it says so of the pure ones at least).
   */
  public static Block withoutDead(Block block, Predicate<Instruction> removable) {
    Liveness liveness = new Liveness(removable);
    int marked;
    do {
      marked = liveness.size();
      liveness.markBackwards(block);
    } while (liveness.size() > marked);
    return liveness.withoutDead(block);
  }

  /** The values and variables that what must run depends on, as marked so far. */
  private static final class Liveness {
    private final Set<Value> live = new HashSet<>();
    private final Set<Variable> liveVariables = new HashSet<>();
    private final Predicate<Instruction> removable;

    Liveness(Predicate<Instruction> removable) {
      this.removable = removable;
    }

    int size() {
      return live.size() + liveVariables.size();
    }

    /** Whether {@code statement} must run; a branch must where a statement in it must. */
    boolean isNeeded(Statement statement) {
      if (statement instanceof Instruction instruction) {
        return !removable.test(instruction) || live.contains(instruction.result());
      } else if (statement instanceof Declare declare) {
        return liveVariables.contains(declare.variable());
      } else if (statement instanceof Store store) {
        return liveVariables.contains(store.variable());
      } else if (statement instanceof Note) {
        return false; // a comment keeps nothing alive
      } else if (statement instanceof If) {
        return statement.nestedBlocks().stream()
            .anyMatch(nested -> nested.statements().stream().anyMatch(this::isNeeded));
      }
      return true;
    }

    /**
     * Marks what the statements of {@code block} that must run read, last statement first
     * (and a statement's nested blocks, last first, before the statement): a value is read
     * after it is made, so that one pass marks a whole chain of values that read each other,
     * where a pass in program order marked one link of it per pass (quadratic in a long
     * straight-line sweep). Marking only grows, so the passes end with the same marks in any
     * order; only a loop's body read in its next iteration takes another pass.
     */
    void markBackwards(Block block) {
      List<Statement> statements = block.statements();
      for (int i = statements.size() - 1; i >= 0; i--) {
        Statement statement = statements.get(i);
        List<Block> nested = statement.nestedBlocks();
        for (int j = nested.size() - 1; j >= 0; j--) {
          markBackwards(nested.get(j));
        }
        if (isNeeded(statement)) {
          markRead(statement);
        }
      }
    }

    void markRead(Statement statement) {
      for (Operand operand : statement.operands()) {
        if (operand instanceof Operand.Use use) {
          live.add(use.value());
        } else if (operand instanceof Operand.Read read) {
          liveVariables.add(read.variable());
        }
      }
    }

    Block withoutDead(Block block) {
      List<Statement> out = new ArrayList<>();
      for (Statement statement : block.statements()) {
        if (statement instanceof Note || isNeeded(statement)) {
          out.add(statement.withNestedBlocks(this::withoutDead));
        }
      }
      return new Block(out);
    }
  }
}
