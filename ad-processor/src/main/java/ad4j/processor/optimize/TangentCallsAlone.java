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
import java.util.function.BiConsumer;

/**
 * A tangent program that runs each {@code @Differentiable} callee's code once per call: where
 * a call of the callee for its value is followed by a call of its tangent with the same
 * arguments, one of the two goes when nothing that must run reads its result.
 *
 * <p>The value call, where nothing reads the value: {@code HelperCalls.distance(ax, ay, bx,
 * by);} then {@code distanceTangent(ax, ay, bx, by, axDot, ...)} ran the callee's code twice
 * where the tangent alone needs it once. Its tangent member computes the callee's value on the
 * way, bit for bit, and keeps every instruction that may throw ({@link DeadCode}), so it throws
 * what the call would have thrown, before anything else has run. Whatever else no statement
 * that must run depends on goes too ({@link DeadCode#withoutDead}): the value's own sums in
 * loops ({@code s += softplus(x[i])} keeps its call only for {@code s}, which the tangent does
 * not return).
 *
 * <p>The tangent call, where the value is read and the tangent is not ({@code if (f(x) > 0)},
 * {@code (int) f(x)}): the value call has run the same code on the same arguments, thrown what
 * it throws and done what it does, so the tangent call, whose result nothing reads, would only
 * run it again.
 *
 * <p>Only pure instructions (and declarations, notes) may stand between the two calls of a
 * pair, since a write or another call could tell the order apart.
 */
public final class TangentCallsAlone {
  private TangentCallsAlone() {}

  /** {@code body}, a tangent program's, without its dead definitions and such calls. */
  public static Block removedFrom(Block body) {
    Set<Instruction> values = Collections.newSetFromMap(new IdentityHashMap<>());
    forEachPair(body, (value, tangent) -> values.add(value));
    Block withoutValues = DeadCode.withoutDead(body,
        instruction -> instruction.isPure() || values.contains(instruction));
    // the pairs left are those whose value is read: their tangents go where nothing reads them
    Set<Instruction> tangents = Collections.newSetFromMap(new IdentityHashMap<>());
    forEachPair(withoutValues, (value, tangent) -> tangents.add(tangent));
    return tangents.isEmpty() ? withoutValues : DeadCode.withoutDead(withoutValues,
        instruction -> instruction.isPure() || tangents.contains(instruction));
  }

  /** Each value call and the tangent call of the same arguments that follows it, in any block. */
  private static void forEachPair(Block body, BiConsumer<Instruction, Instruction> pair) {
    body.walk(statement -> {
      for (Block nested : statement.nestedBlocks()) {
        forEachPair(nested.statements(), pair);
      }
    });
    forEachPair(body.statements(), pair);
  }

  private static void forEachPair(List<Statement> statements,
      BiConsumer<Instruction, Instruction> pair) {
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
              pair.accept(call, tangent);
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
