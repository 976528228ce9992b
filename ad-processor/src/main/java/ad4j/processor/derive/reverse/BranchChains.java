package ad4j.processor.derive.reverse;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Throw;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * Which {@code if / else if} chains the sweeps treat as one statement numbered by piece: a
 * chain inside a loop (one decision recorded instead of one per link) and a long chain outside
 * loops. Apart because both sweeps and the top-level counters ask it the same questions.
 */
final class BranchChains {
  private final SweepState s;

  BranchChains(SweepState s) {
    this.s = s;
  }

  /**
   * The links of an {@code if / else if} chain inside a loop whose pieces the sweeps can tell
   * apart by one number, or none: each else block but the last is only the computation of the
   * next condition (inactive, recording nothing) and the next link, and no piece leaves the
   * chain other than by its end. Recording one decision per link after the link (as
   * {@link ForwardWalk#forwardIf} does) would put a push after each nested link, so that no else
   * block could be written as {@code else if}: 400 pieces were nested 400 deep, quadratic in size.
   */
  List<If> chain(If branch, Block block) {
    // a checkpointed iteration computed anew reads its decisions where they were made, as
    // outside loops
    if (s.flow.loopDepth(block) == 0 || s.flow.isConditionBlock(block) || s.iterationInLocals
        || s.tape.keepsInLocals(block)) {
      return List.of();
    }
    return links(branch, false);
  }

  /**
   * The links of a long {@code if / else if} chain outside loops ({@link Adjoint#LONG_CHAIN} links
   * or more), or none. Its sweeps tell the pieces apart by one number as a chain in a loop does,
   * kept in a variable instead of on the tape ({@link SweepState#longChains}): the reverse sweep
   * then reads no condition of the forward sweep, one per link, and {@code methodsize/LongBlocks}
   * can cut both chains into parts that hand over a few values each (a {@code ?:} chain of hundreds
   * of pieces, each a short branch nested in the one before, made members past the JVM's limit).
   * Its pieces may end in a {@code return} ({@code if (x < 1) return a; if (x < 2) return b; ...},
   * which Java's lowering nests as such a chain): the forward sweep only stores the result there,
   * and the piece's number after it.
   */
  List<If> longChain(If branch, Block block) {
    if (s.flow.loopDepth(block) != 0 || s.flow.isConditionBlock(block) || s.iterationInLocals) {
      return List.of();
    }
    List<If> links = links(branch, true);
    return links.size() >= Adjoint.LONG_CHAIN ? links : List.of();
  }

  /**
   * The links of the chain that starts at {@code branch}, as {@link #chain} describes them;
   * with {@code returns}, a piece may also end in a {@code return} ({@link #longChain}).
   */
  private List<If> links(If branch, boolean returns) {
    List<If> links = new ArrayList<>();
    If link = branch;
    while (true) {
      links.add(link);
      if (!leavesOnlyByItsEnd(link.thenBlock(), returns)) {
        return List.of();
      }
      List<Statement> next = link.elseBlock().statements();
      if (next.isEmpty() || !(next.get(next.size() - 1) instanceof If nested)
          || !onlyComputesCondition(next.subList(0, next.size() - 1), link.elseBlock())) {
        break;
      }
      link = nested;
    }
    return links.size() > 1 && leavesOnlyByItsEnd(link.elseBlock(), returns) ? links
        : List.of();
  }

  /**
   * Whether {@code statements} of {@code block} only compute a condition and so have no
   * reverse: nothing recorded, and an active value (a read of a variable) read only there and
   * only by inactive values (comparisons, which pass no adjoint on).
   */
  private boolean onlyComputesCondition(List<Statement> statements, Block block) {
    for (Statement statement : statements) {
      if (!(statement instanceof Instruction instruction)
          || !s.tape.recordedAfter(instruction, block).isEmpty()) {
        return false;
      }
      Value value = instruction.result();
      if (value.isActive() && !s.flow.isUsedOnlyIn(value, block)) {
        return false;
      }
    }
    for (Statement statement : statements) {
      Instruction reader = (Instruction) statement;
      if (reader.result().isActive() && reader.arguments().stream()
          .anyMatch(argument -> argument instanceof Operand.Use use && use.isActive())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether no statement of {@code block}, at any depth, jumps, returns or throws; with {@code
   * finalReturn}, but for a {@code return} that is the block's last statement.
   */
  private static boolean leavesOnlyByItsEnd(Block block, boolean finalReturn) {
    List<Statement> statements = block.statements();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = statements.get(i);
      if (statement instanceof Return && finalReturn && i == statements.size() - 1) {
        continue;
      }
      if (statement instanceof Jump || statement instanceof Return
          || statement instanceof Throw) {
        return false;
      }
      if (statement instanceof If branch && !(leavesOnlyByItsEnd(branch.thenBlock(), false)
          && leavesOnlyByItsEnd(branch.elseBlock(), false))) {
        return false;
      }
      if (statement instanceof Loop loop && !(leavesOnlyByItsEnd(loop.condition(), false)
          && leavesOnlyByItsEnd(loop.body(), false)
          && leavesOnlyByItsEnd(loop.update(), false))) {
        return false;
      }
    }
    return true;
  }
}
