package ad4j.processor.analysis;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A loop's counter, and the facts about a loop that both the values the reverse sweep computes
 * again ({@link RecomputedValues}, {@link CountedTrips}) and the loops counted in {@code int}s
 * ({@link TripBounds}) read: what stores into a variable, what leaves a loop early. Apart from
 * those analyses because it is their common ground, syntactic and stateless.
 *
 * <p>A loop's <em>counter</em> is a variable that only its update changes, by a constant step
 * ({@code i++}, {@code i -= 2}), from a start the statement before the loop gives it.
 */
public final class LoopCounters {
  /** A loop counter: the variable, the operand it holds on entry, its constant step. */
  public record Counter(Variable variable, Operand start, int step) {}

  private LoopCounters() {}


  /**
   * The counter of {@code loop}, or null: its update is exactly {@code v = v + c} (or
   * {@code - c}), nothing else in the loop stores {@code v}, and the statement before the loop
   * gives {@code v} its start.
   */
  public static Counter counterOf(Loop loop, List<Statement> before) {
    List<Statement> update = loop.update().statements();
    if (update.size() != 3 || !(update.get(0) instanceof Instruction read)
        || !(update.get(1) instanceof Instruction step)
        || !(update.get(2) instanceof Store store)
        || read.operation() != Operation.COPY
        || !(read.arguments().get(0) instanceof Operand.Read counter)
        || counter.variable() != store.variable()
        || counter.variable().type() != NumericType.INT
        || !(store.value() instanceof Operand.Use stored) || stored.value() != step.result()
        || step.arguments().size() != 2
        || !(step.arguments().get(0) instanceof Operand.Use from) || from.value() != read.result()
        || !(step.arguments().get(1) instanceof Operand.Constant by)
        || by.knownValue().isEmpty()) {
      return null;
    }
    int sign;
    if (step.operation().equals(Operation.ADD)) {
      sign = 1;
    } else if (step.operation().equals(Operation.SUBTRACT)) {
      sign = -1;
    } else {
      return null;
    }
    Variable variable = counter.variable();
    if (stores(loop.condition(), variable) || stores(loop.body(), variable)) {
      return null;
    }
    for (int i = before.size() - 1; i >= 0; i--) {
      Statement statement = before.get(i);
      if (statement instanceof Note) {
        continue;
      }
      if (statement instanceof Declare declare && declare.variable() == variable) {
        return new Counter(variable, declare.initial(), sign * (int) by.knownValue().getAsDouble());
      }
      if (statement instanceof Store start && start.variable() == variable) {
        return new Counter(variable, start.value(), sign * (int) by.knownValue().getAsDouble());
      }
      return null;
    }
    return null;
  }

  /** Whether a statement of {@code block}, nested ones included, stores {@code variable}. */
  public static boolean stores(Block block, Variable variable) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Store store && store.variable() == variable
          || statement instanceof Declare declare && declare.variable() == variable) {
        return true;
      }
      if (statement instanceof If branch
          && (stores(branch.thenBlock(), variable) || stores(branch.elseBlock(), variable))) {
        return true;
      }
      if (statement instanceof Loop loop && (stores(loop.condition(), variable)
          || stores(loop.body(), variable) || stores(loop.update(), variable))) {
        return true;
      }
    }
    return false;
  }


  /**
   * Whether a statement in {@code block}, the body of loop {@code loopId} or a block in it,
   * leaves that loop other than by its test: a {@code return}, a {@code break} of the loop or of
   * one around it, a {@code continue} of one around it ({@code inside}: the loops within the
   * body, whose own jumps stay in it).
   */
  public static boolean leavesEarly(Block block, int loopId, Set<Integer> inside) {
    for (Statement statement : block.statements()) {
      if (statement instanceof Return) {
        return true;
      }
      if (statement instanceof Jump jump && !inside.contains(jump.loopId())
          && !(jump.loopId() == loopId && jump.kind() == Jump.Kind.CONTINUE)) {
        return true;
      }
      if (statement instanceof If branch && (leavesEarly(branch.thenBlock(), loopId, inside)
          || leavesEarly(branch.elseBlock(), loopId, inside))) {
        return true;
      }
      if (statement instanceof Loop inner) {
        Set<Integer> deeper = new HashSet<>(inside);
        deeper.add(inner.id());
        if (leavesEarly(inner.body(), loopId, deeper)) {
          return true;
        }
      }
    }
    return false;
  }
}
