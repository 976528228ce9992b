package ad4j.processor.ir;

import java.util.List;
import java.util.function.Consumer;

/** A sequence of statements, executed in order. */
public record Block(List<Statement> statements) {
  public Block {
    statements = List.copyOf(statements);
  }

  /**
   * Whether some statement in this block, nested ones included, is a jump of one of these
   * kinds to the loop {@code loopId}.
   */
  public boolean jumpsTo(int loopId, Jump.Kind... kinds) {
    for (Statement statement : statements) {
      if (statement instanceof Jump jump && jump.loopId() == loopId
          && List.of(kinds).contains(jump.kind())) {
        return true;
      }
      if (statement instanceof If branch && (branch.thenBlock().jumpsTo(loopId, kinds)
          || branch.elseBlock().jumpsTo(loopId, kinds))) {
        return true;
      }
      if (statement instanceof Loop inner && inner.body().jumpsTo(loopId, kinds)) {
        return true;
      }
    }
    return false;
  }

  /** Runs {@code visitor} on every statement of this block and of the blocks inside it, in order. */
  public void walk(Consumer<Statement> visitor) {
    for (Statement statement : statements) {
      visitor.accept(statement);
      for (Block nested : statement.nestedBlocks()) {
        nested.walk(visitor);
      }
    }
  }
}
