package ad4j.processor.transform;

import ad4j.processor.ir.Block;
import ad4j.processor.ir.SourceLine;
import java.util.Optional;

/** The user's lines of statements, for the notes and statements transforms add. */
final class SourceLines {
  private SourceLines() {}

  /** The line of the first statement of {@code block}. */
  static Optional<SourceLine> first(Block block) {
    return block.statements().stream().findFirst().map(s -> s.line());
  }
}
