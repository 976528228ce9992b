package ad4j.processor.optimize;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Note;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A tangent program without the calls of {@code @Differentiable} methods whose value nothing
 * reads and whose tangent call follows them: {@code HelperCalls.distance(ax, ay, bx, by);} then
 * {@code distanceTangent(ax, ay, bx, by, axDot, ...)} ran the callee's code twice where the
 * tangent alone needs it once. Its tangent member computes the callee's value on the way, bit
 * for bit, and keeps every instruction that may throw ({@link DeadCode}), so it throws what the
 * call would have thrown, before anything else has run: only pure instructions (and
 * declarations, notes) may stand between the two, since a write or another call could tell
 * the order apart. Whatever else no statement that must run depends on goes too
 * ({@link DeadCode#withoutDead}): the value's own sums in loops ({@code s += softplus(x[i])}
 * keeps its call only for {@code s}, which the tangent does not return).
 */
public final class TangentCallsAlone {
  private TangentCallsAlone() {}

  /** {@code body}, a tangent program's, without its dead definitions and such calls. */
  public static Block removedFrom(Block body) {
    Set<Instruction> repeated = Collections.newSetFromMap(new IdentityHashMap<>());
    body.walk(statement -> {
      for (Block nested : statement.nestedBlocks()) {
        findRepeated(nested.statements(), repeated);
      }
    });
    findRepeated(body.statements(), repeated);
    return DeadCode.withoutDead(body,
        instruction -> instruction.isPure() || repeated.contains(instruction));
  }

  /** The calls among {@code statements} that a tangent call of the same arguments follows. */
  private static void findRepeated(List<Statement> statements, Set<Instruction> repeated) {
    for (int i = 0; i < statements.size(); i++) {
      if (statements.get(i) instanceof Instruction call
          && call.operation().form() == Operation.Form.USER_CALL) {
        Callee callee = call.operation().callee();
        int own = callee.parameterTypes().size();
        for (int j = i + 1; j < statements.size(); j++) {
          Statement next = statements.get(j);
          if (next instanceof Instruction tangent
              && tangent.operation().form() == Operation.Form.TANGENT_CALL) {
            if (tangent.operation().callee().equals(callee)
                && tangent.arguments().size() >= own
                && tangent.arguments().subList(0, own).equals(call.arguments().subList(0, own))) {
              repeated.add(call);
            }
            break;
          }
          boolean between = next instanceof Declare || next instanceof Note
              || next instanceof Instruction instruction && instruction.isPure();
          if (!between) {
            break;
          }
        }
      }
    }
  }
}
