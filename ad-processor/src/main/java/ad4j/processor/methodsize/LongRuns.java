package ad4j.processor.methodsize;

import static ad4j.processor.analysis.StatementFacts.count;
import static ad4j.processor.analysis.StatementFacts.movable;
import static ad4j.processor.analysis.StatementFacts.newIdentitySet;
import static ad4j.processor.analysis.StatementFacts.size;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.If;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Push;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Value;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Chooses the runs of statements that {@link LongBlocks#of} moves into parts: in every block
 * (the method's own, a branch, a loop body), a run of consecutive movable statements longer
 * than a part is cut into parts of about equal size, and where the parts' calls are still too
 * long they are cut in turn. Apart from {@link Outliner}, which makes each part, because this
 * is where a block is cut, not how a part hands its values over.
 */
final class LongRuns {
  /**
   * The most values and variables an {@code if} that calls parts may hand over and still move
   * into a part ({@link #handsOverLittle}).
   */
  private static final int HANDED_OVER_LITTLE = 16;

  private final Outliner outliner;
  private final int partSize;
  private final PartRegrouping regrouping;
  /**
   * Whether the parts of the method's own block leave the numbers they make for later parts on
   * the tape ({@link ValuesLeftOnTape}), instead of handing them back to the caller.
   */
  private final boolean inPlace;

  private LongRuns(Function program, String namePrefix, int partSize,
      PartRegrouping regrouping) {
    this.outliner = new Outliner(program, namePrefix);
    this.partSize = partSize;
    this.regrouping = regrouping;
    this.inPlace = ValuesLeftOnTape.mayLeaveValues(program.body().statements());
  }

  /**
   * {@code program} with its long runs of statements cut into parts named {@code namePrefix}
   * and a number, each run's parts rewritten by {@code regrouping} before they become methods;
   * empty when nothing is long enough to cut.
   */
  static Optional<LongBlocks.Cut> of(Function program, String namePrefix, int partSize,
      PartRegrouping regrouping) {
    LongRuns cut = new LongRuns(program, namePrefix, partSize, regrouping);
    Outliner outliner = cut.outliner;
    Block body = outliner.leftOnTape().finish(cut.rewrite(program.body(), false));
    if (outliner.parts().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new LongBlocks.Cut(program.with(program.parameters(), body),
        outliner.parts()));
  }

  /**
   * The block with its nested blocks rewritten first, then cut itself: every block is cut, at
   * any depth of branches and loops. The condition and the update of a loop stay whole: the
   * printer writes them in the loop's head.
   *
   * <p>Outside loops, an {@code if} that holds a part's call after its branches were cut stays
   * in its block: it is not moved into a part of the block around it. An {@code else if} chain
   * nests each {@code if} in the {@code else} of the one before; moved level by level into
   * parts, each level would hand over again, through its own part, what the levels inside it
   * hand over, which grows with the square of the chain's length.
   */
  private Block rewrite(Block block, boolean insideLoop) {
    List<Statement> statements = new ArrayList<>();
    for (Statement statement : block.statements()) {
      if (statement instanceof Loop loop) {
        statements.add(new Loop(loop.id(), loop.condition(), loop.test(), loop.testFirst(),
            rewrite(loop.body(), true), loop.update(), loop.line(), loop.kind()));
      } else if (statement instanceof If branch) {
        statements.add(new If(branch.id(), branch.condition(),
            rewrite(branch.thenBlock(), insideLoop), rewrite(branch.elseBlock(), insideLoop),
            branch.line()));
      } else {
        statements.add(statement);
      }
    }
    return cut(statements, !insideLoop);
  }

  /**
   * Cuts every run of movable statements longer than a part into parts; {@code outsideLoops}
   * for a block that no loop encloses, whose parts may leave their values on the tape ({@link
   * #inPlace}) and whose branches holding parts' calls stay where they are ({@link #rewrite}).
   */
  private Block cut(List<Statement> statements, boolean outsideLoops) {
    List<Statement> result = new ArrayList<>();
    List<Statement> run = new ArrayList<>();
    for (Statement statement : statements) {
      // the results pushed last stay in the program, above where its parts' values are dropped
      boolean resultPush = inPlace && statement instanceof Push;
      if (movable(statement, Set.of()) && !resultPush
          && !(outsideLoops && statement instanceof If && callsPart(statement.nestedBlocks())
              && !handsOverLittle(statement))) {
        run.add(statement);
      } else {
        result.addAll(cutRun(run, outsideLoops));
        run.clear();
        result.add(statement);
      }
    }
    result.addAll(cutRun(run, outsideLoops));
    return new Block(result);
  }

  /**
   * Whether an {@code if} whose branches call parts may move into a part of the block around it
   * all the same: when it hands over at most {@link #HANDED_OVER_LITTLE} values and variables,
   * and no part it calls leaves values on the tape for later statements (those are read back
   * where the program's own statements are, see {@link ValuesLeftOnTape#finish}). The links of a long
   * {@code if / else if} chain that records the number of its piece hand over only what the
   * chain assigns: moved level by level, each level hands over the same few values, and the
   * chain becomes parts that call parts, not one member as long as the chain.
   */
  private boolean handsOverLittle(Statement branch) {
    // one whose inner links were moved into parts is short; a long one is not looked through
    // (at every level of a chain that cannot be cut, that would take time quadratic in it)
    if (longerThan(branch.nestedBlocks(), 2 * Math.max(partSize, LongBlocks.PART_SIZE))
        || outliner.leftOnTape().leavesValuesInPlace(branch.nestedBlocks())) {
      return false;
    }
    // what a part of the if alone would hand over (outline's rules)
    Outliner.Handover handover = outliner.handover(List.of(branch));
    // nor may it read what parts left on the tape, through their marks
    if (outliner.leftOnTape().readsMark(handover.inside())) {
      return false;
    }
    return handover.outValues().size() + handover.outVariables().size()
        <= HANDED_OVER_LITTLE;
  }

  /** Whether the blocks hold more than {@code limit} statements, nested ones counted. */
  private static boolean longerThan(List<Block> blocks, int limit) {
    int[] left = {limit};
    return longerThan(blocks, left);
  }

  private static boolean longerThan(List<Block> blocks, int[] left) {
    for (Block block : blocks) {
      for (Statement statement : block.statements()) {
        if (--left[0] < 0 || longerThan(statement.nestedBlocks(), left)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A run of movable statements: as it is when short, else its parts' calls. */
  private List<Statement> cutRun(List<Statement> run, boolean outsideLoops) {
    int size = size(run);
    if (size <= partSize) {
      return List.copyOf(run);
    }
    int count = (size + partSize - 1) / partSize;
    int target = (size + count - 1) / count;
    List<List<Statement>> cut = new ArrayList<>();
    List<Statement> part = new ArrayList<>();
    int partStatements = 0;
    // pieces of formulas of the part not read yet: a formula is written where it is read, not
    // cut off from it (a long sum stays whole)
    Set<Value> unread = newIdentitySet();
    for (Statement statement : run) {
      part.add(statement);
      partStatements += size(List.of(statement));
      Map<Object, Integer> reads = new IdentityHashMap<>();
      count(new Block(List.of(statement)), reads);
      unread.removeAll(reads.keySet());
      if (statement instanceof Instruction instruction
          && regrouping.keepsWithReader(instruction, outliner.uses())) {
        unread.add(instruction.result());
      }
      if (partStatements >= target && unread.isEmpty()) {
        cut.add(part);
        part = new ArrayList<>();
        partStatements = 0;
      }
    }
    if (!part.isEmpty()) {
      cut.add(part);
    }
    // statements move between the parts and new ones come in: counted again
    Map<Object, Integer> before = new IdentityHashMap<>();
    count(new Block(run), before);
    Map<Object, Integer> uses = outliner.uses();
    regrouping.regroup(cut, uses, outliner.builder());
    before.forEach((used, reads) -> uses.merge(used, -reads, Integer::sum));
    for (List<Statement> statements : cut) {
      count(new Block(statements), uses);
    }
    outliner.recountStores(run, cut);
    List<Statement> result = new ArrayList<>();
    for (List<Statement> statements : cut) {
      if (!statements.isEmpty()) { // a part whose statements all moved to earlier parts
        result.addAll(outliner.outline(statements, outsideLoops && inPlace));
      }
    }
    // The parts' calls, with the values each hands back, are a run of their own. Where it is
    // still longer than a part (a loop body of some hundreds of statements, or a second-order
    // sweep's, whose parts hand back many values), it is cut in turn, into parts that call the
    // first ones; only when longer than a part of the default size, so that the tiny parts the
    // processor's tests ask for (-Aad4j.partSize=3) are not cut again and again, and only while
    // that shortens it.
    if (!(outsideLoops && inPlace) && size(result) > Math.max(partSize, LongBlocks.PART_SIZE)
        && size(result) < size) {
      return cutRun(result, outsideLoops);
    }
    return result;
  }

  /** Whether the blocks, nested ones included, hold the call of a part. */
  private static boolean callsPart(List<Block> blocks) {
    for (Block block : blocks) {
      for (Statement statement : block.statements()) {
        if (statement instanceof Instruction instruction
            && instruction.operation().form() == Operation.Form.LOCAL_CALL
            || callsPart(statement.nestedBlocks())) {
          return true;
        }
      }
    }
    return false;
  }

}
