package ad4j.processor.derive.jacobian;

import ad4j.processor.derive.reverse.Adjoint;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.ElementStore;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Whether a vector function's reverse sweep can run once per row after one forward sweep: it
 * adds its seed once, puts no overwritten element back, writes into no array but its adjoint
 * arrays and into no variable the forward sweep declared, and uses the tape for nothing but
 * numbers the forward sweep pushed and it pops. Apart from {@link JacobianRows}, which writes the
 * rows' program, because these are facts about the pullback's pieces, not code.
 */
final class RerunnableReverse {
  private RerunnableReverse() {}
  /** Whether the reverse sweep can run once per row after one forward sweep (see {@link JacobianRows}). */
  static boolean canRunAgain(Adjoint.PullbackPieces pieces) {
    long seedings = pieces.reverse().stream().filter(statement ->
        statement instanceof Instruction instruction && JacobianRows.isSeeding(instruction, pieces.seed()))
        .count();
    if (seedings != 1 || pieces.keepsElements() || !recordsOnlyNumbers(pieces.preamble())
        || !recordsOnlyNumbers(pieces.forward()) || records(pieces.reverse())
        || !popsOnly(pieces.reverse())) {
      return false;
    }
    // the adjoint arrays are cleared at the top of each row, or made by the reverse sweep
    Set<Value> madeAtTop = madeIn(pieces.forward());
    madeAtTop.addAll(madeIn(pieces.reverse()));
    if (!madeAtTop.containsAll(pieces.adjointArrays())) {
      return false;
    }
    Set<Value> writable = new HashSet<>(pieces.adjointArrays());
    writable.add(pieces.adjoints());
    return writesOnly(pieces.reverse(), writable, new HashSet<>());
  }
  /** The values the instructions among {@code statements} make (not those of nested blocks). */
  static Set<Value> madeIn(List<Statement> statements) {
    Set<Value> made = new HashSet<>();
    for (Statement statement : statements) {
      if (statement instanceof Instruction instruction) {
        made.add(instruction.result());
      }
    }
    return made;
  }
  /**
   * Whether {@code statements} store only into {@code writable} arrays and into variables they
   * declare themselves (collected into {@code declared} on the way).
   */
  private static boolean writesOnly(List<Statement> statements, Set<Value> writable,
      Set<Variable> declared) {
    for (Statement statement : statements) {
      if (statement instanceof Declare declare) {
        declared.add(declare.variable());
      } else if (statement instanceof Store store && !declared.contains(store.variable())) {
        return false;
      } else if (statement instanceof ElementStore store && !writable.contains(store.array())) {
        return false;
      } else if (statement instanceof Instruction instruction
          && instruction.operation().form() == Operation.Form.STORE) {
        return false;
      }
      for (Block nested : statement.nestedBlocks()) {
        if (!writesOnly(nested.statements(), writable, declared)) {
          return false;
        }
      }
    }
    return true;
  }
  /** Whether the statements push anything onto the tape. */
  static boolean records(List<Statement> statements) {
    return any(statements, statement -> statement instanceof Push);
  }
  /**
   * Whether every push in the statements records a number (not an array or an object, which a
   * pop lets go of) and nothing else uses the tape: no callee's pullback, no part method, no
   * snapshot.
   */
  private static boolean recordsOnlyNumbers(List<Statement> statements) {
    return !any(statements, statement -> statement instanceof Push push
        && (push.value().type().isArray() || push.value().type().isReference())
        || usesTapeOtherwise(statement));
  }
  /** Whether the statements use the tape for nothing but pops. */
  private static boolean popsOnly(List<Statement> statements) {
    return !any(statements, RerunnableReverse::usesTapeOtherwise);
  }
  private static boolean usesTapeOtherwise(Statement statement) {
    return statement instanceof Instruction instruction
        && switch (instruction.operation().form()) {
          case TAPE_CALL, PULLBACK_CALL, LOCAL_CALL -> true;
          default -> false;
        };
  }
  /** Whether some statement in {@code statements}, at any depth, passes {@code test}. */
  private static boolean any(List<Statement> statements,
      Predicate<Statement> test) {
    for (Statement statement : statements) {
      if (test.test(statement)) {
        return true;
      }
      for (Block nested : statement.nestedBlocks()) {
        if (any(nested.statements(), test)) {
          return true;
        }
      }
    }
    return false;
  }
}
