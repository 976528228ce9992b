package ad4j.processor.front;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The user's source text of trees: literals as written, and statements for comments. */
final class SourceText {
  private static final int MAX_COMMENT_LENGTH = 90;

  private final CompilationUnitTree unit;
  private final SourcePositions positions;
  private final CharSequence content;

  SourceText(Trees trees, CompilationUnitTree unit) {
    this.unit = unit;
    this.positions = trees.getSourcePositions();
    try {
      this.content = unit.getSourceFile().getCharContent(true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + unit.getSourceFile().getName(), e);
    }
  }

  /** The exact text of a tree, as the user wrote it. */
  String of(Tree tree) {
    long start = positions.getStartPosition(unit, tree);
    long end = positions.getEndPosition(unit, tree);
    if (start < 0 || end < start || end > content.length()) {
      return tree.toString();
    }
    return content.subSequence((int) start, (int) end).toString();
  }

  /** The 1-based line a tree starts on. */
  long line(Tree tree) {
    return unit.getLineMap().getLineNumber(positions.getStartPosition(unit, tree));
  }

  /**
   * The text of a statement on one line, shortened, and safe inside a {@code //} comment: a
   * backslash-u in a comment would be read by javac as a Unicode escape, possibly a line break.
   */
  String forComment(Tree tree) {
    String text = of(tree).replaceAll("\\s+", " ").trim();
    if (text.length() > MAX_COMMENT_LENGTH) {
      text = text.substring(0, MAX_COMMENT_LENGTH - 3) + "...";
    }
    return text.replace("\\", "\\\\");
  }
}
