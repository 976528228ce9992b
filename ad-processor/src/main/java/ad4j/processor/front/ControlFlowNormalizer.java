package ad4j.processor.front;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.Jump;
import ad4j.processor.ir.Loop;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves the statements that follow a branch which may jump ({@code break}, {@code continue},
 * {@code return}) into the branch's paths that complete normally:
 * {@code [if (c) { break; } s]} becomes {@code [if (c) { break; } else { s }]}.
 *
 * <p>Afterwards nothing follows, in any block, a statement that may jump; so a block's reverse
 * sweep runs the reverse of all of its statements, or of none: which statements ran is told by
 * the decisions of the branches alone. Lowering has already reduced jumps to those that leave
 * only the innermost loop, and returns to the top level, so loops always complete normally.
 */
final class ControlFlowNormalizer {
  private final IrBuilder ir;

  ControlFlowNormalizer(IrBuilder ir) {
    this.ir = ir;
  }

  /**
   * The statements that follow a branch, appended to each path through it that completes
   * normally: the first path takes them, every further path a copy (single assignment: one
   * definition per value).
   */
  private final class Continuation {
    private final List<Statement> statements;
    private int uses;

    Continuation(List<Statement> statements) {
      this.statements = statements;
    }

    List<Statement> next() {
      return uses++ == 0 ? statements : new StatementCopier(ir).copy(statements);
    }
  }

  Block normalize(Block block) {
    List<Statement> statements = block.statements();
    List<Statement> result = new ArrayList<>();
    for (int i = 0; i < statements.size(); i++) {
      Statement statement = normalizeNested(statements.get(i));
      if (statement instanceof If branch && mayJump(branch) && i + 1 < statements.size()) {
        Block rest = normalize(new Block(statements.subList(i + 1, statements.size())));
        result.add(withContinuation(branch, new Continuation(rest.statements())));
        return new Block(result);
      }
      result.add(statement);
    }
    return new Block(result);
  }

  private Statement normalizeNested(Statement statement) {
    if (statement instanceof If branch) {
      return new If(branch.id(), branch.condition(), normalize(branch.thenBlock()),
          normalize(branch.elseBlock()), branch.line());
    }
    if (statement instanceof Loop loop) {
      return new Loop(loop.id(), loop.condition(), loop.test(), loop.testFirst(),
          normalize(loop.body()), loop.update(), loop.line(), loop.kind());
    }
    return statement;
  }

  /** Appends {@code rest} to every path through {@code branch} that completes normally. */
  private If withContinuation(If branch, Continuation rest) {
    return new If(branch.id(), branch.condition(), append(branch.thenBlock(), rest),
        append(branch.elseBlock(), rest), branch.line());
  }

  private Block append(Block block, Continuation rest) {
    List<Statement> statements = block.statements();
    if (statements.isEmpty()) {
      return new Block(rest.next());
    }
    Statement last = statements.get(statements.size() - 1);
    if (last instanceof Jump || last instanceof Return || last instanceof ad4j.processor.ir.Throw) {
      return block;
    }
    List<Statement> result = new ArrayList<>(statements.subList(0, statements.size() - 1));
    if (last instanceof If nested && mayJump(nested)) {
      result.add(withContinuation(nested, rest));
    } else {
      result.add(last);
      result.addAll(rest.next());
    }
    return new Block(result);
  }

  /** Whether a path through this statement can end in a jump or return. */
  static boolean mayJump(Statement statement) {
    if (statement instanceof Jump || statement instanceof Return) {
      return true;
    }
    if (statement instanceof If branch) {
      return mayJump(branch.thenBlock()) || mayJump(branch.elseBlock());
    }
    return false;
  }

  private static boolean mayJump(Block block) {
    for (Statement statement : block.statements()) {
      if (mayJump(statement)) {
        return true;
      }
    }
    return false;
  }
}
