package ad4j.processor.methodsize;

import ad4j.processor.analysis.Ids;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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
      } else if (!computesNothingActive(statement)) {
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
    List<Statement> body = new ArrayList<>(checks);
    body.addAll(program.body().statements());
    return program.with(program.parameters(), new Block(body));
  }

  private static boolean isCheck(If branch) {
    List<Statement> then = branch.thenBlock().statements();
    if (!branch.elseBlock().statements().isEmpty() || then.isEmpty()
        || !(then.get(then.size() - 1) instanceof Throw)) {
      return false;
    }
    return then.subList(0, then.size() - 1).stream().allMatch(Guards::computesNothingActive);
  }

  /** An instruction whose result carries no derivative, or a note. */
  private static boolean computesNothingActive(Statement statement) {
    return statement instanceof Note || statement instanceof Instruction instruction
        && !instruction.result().isActive() && !instruction.result().isActiveArray();
  }

  /** Whether {@code rest} reads a value that the checks compute. */
  private static boolean readsValuesOf(Function rest, List<Statement> checks) {
    Set<Value> computed = new HashSet<>();
    for (Statement statement : checks) {
      if (statement instanceof Instruction instruction) {
        computed.add(instruction.result());
      }
    }
    return rest.body().statements().stream().flatMap(s -> s.operands().stream())
        .anyMatch(operand -> operand instanceof Operand.Use use
            && computed.contains(use.value()));
  }

  private static int maxId(List<Statement> checks) {
    return Ids.next(new Function("checks", List.of(), new Block(checks), List.of(), Set.of()))
        - 1;
  }
}
