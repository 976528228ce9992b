package ad4j.processor.transform;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Throw;
import java.util.List;
import java.util.Optional;

/**
 * The argument checks at the start of a method ({@code if (x < 0) throw new
 * IllegalArgumentException(...)}), apart from the straight-line code after them. A check is a
 * branch with no else whose then-block computes nothing that carries a derivative and ends in a
 * {@code throw}: it has no reverse, and every member runs it first, as the user's method does.
 * The rest of the method can then be cut into {@link Segments} like any straight-line method,
 * so that one check no longer keeps a long method whole (and interpreted: HotSpot compiles no
 * method over 8000 bytes).
 *
 * @param checks the leading statements: the checks, and the instructions that compute their
 *     conditions
 * @param rest the method without them: its parameters and the statements after the checks
 */
public record Guards(List<Statement> checks, Function rest) {
  /**
   * The checks at the start of {@code function} and the straight-line rest; empty when the
   * method does not start with a check or is not straight-line after its checks.
   */
  public static Optional<Guards> of(Function function) {
    List<Statement> statements = function.body().statements();
    int end = 0;
    int lastCheck = -1;
    while (end < statements.size()) {
      Statement statement = statements.get(end);
      if (statement instanceof If branch && isCheck(branch)) {
        lastCheck = end;
      } else if (!(statement instanceof Instruction instruction && isInactive(instruction))
          && !(statement instanceof Note)) {
        break;
      }
      end++;
    }
    if (lastCheck < 0) {
      return Optional.empty();
    }
    List<Statement> checks = List.copyOf(statements.subList(0, lastCheck + 1));
    Function rest = function.with(function.parameters(),
        new Block(List.copyOf(statements.subList(lastCheck + 1, statements.size()))));
    if (!rest.isStraightLine() || maxId(checks) >= Ids.next(rest)
        || readsValuesOf(rest, checks)) {
      // the programs made from the rest number their new values from above the rest's own,
      // and their analyses see only the rest
      return Optional.empty();
    }
    return Optional.of(new Guards(checks, rest));
  }

  /** {@code program}, a program of {@link #rest}, with the checks first. */
  public Function checkedFirst(Function program) {
    List<Statement> body = new java.util.ArrayList<>(checks);
    body.addAll(program.body().statements());
    return program.with(program.parameters(), new Block(body));
  }

  private static boolean isCheck(If branch) {
    List<Statement> then = branch.thenBlock().statements();
    if (!branch.elseBlock().statements().isEmpty() || then.isEmpty()
        || !(then.get(then.size() - 1) instanceof Throw)) {
      return false;
    }
    for (Statement statement : then.subList(0, then.size() - 1)) {
      if (!(statement instanceof Instruction instruction && isInactive(instruction))
          && !(statement instanceof Note)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code rest} reads a value that the checks compute. */
  private static boolean readsValuesOf(Function rest, List<Statement> checks) {
    java.util.Set<ad4j.processor.ir.Value> computed = new java.util.HashSet<>();
    for (Statement statement : checks) {
      if (statement instanceof Instruction instruction) {
        computed.add(instruction.result());
      }
    }
    for (Statement statement : rest.body().statements()) {
      List<ad4j.processor.ir.Operand> read = statement instanceof Instruction instruction
          ? instruction.arguments()
          : statement instanceof ad4j.processor.ir.Return ret && ret.value() != null
              ? List.of(ret.value()) : List.of();
      for (ad4j.processor.ir.Operand operand : read) {
        if (operand instanceof ad4j.processor.ir.Operand.Use use
            && computed.contains(use.value())) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean isInactive(Instruction instruction) {
    return !instruction.result().isActive() && !instruction.result().isActiveArray();
  }

  private static int maxId(List<Statement> checks) {
    return Ids.next(new Function("checks", List.of(), new Block(checks), List.of(),
        java.util.Set.of())) - 1;
  }
}
