package ad4j.processor.front;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The user's source text of trees: literals as written, and statements for comments. */
final class SourceText {
  private static final int MAX_COMMENT_LENGTH = 90;

  private final CompilationUnitTree unit;
  private final SourcePositions positions;
  private final CharSequence content;
  private int[] lineStarts;

  SourceText(Trees trees, CompilationUnitTree unit) {
    this.unit = unit;
    this.positions = trees.getSourcePositions();
    try {
      this.content = unit.getSourceFile().getCharContent(true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + unit.getSourceFile().getName(), e);
    }
  }

  /** Where a tree starts: its offset in the source file. */
  long start(Tree tree) {
    return positions.getStartPosition(unit, tree);
  }

  /** Where a tree ends: the offset after its last character. */
  long end(Tree tree) {
    return positions.getEndPosition(unit, tree);
  }

  /** The source file's URI, as the compiler names it. */
  String file() {
    return unit.getSourceFile().toUri().toString();
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

  /**
   * The 1-based line a tree starts on. Counted in the source text itself: javac keeps no line
   * map when compiling without line numbers ({@code -g:none}, {@code -g:source}, {@code -g:vars}).
   */
  long line(Tree tree) {
    long position = positions.getStartPosition(unit, tree);
    if (lineStarts == null) {
      lineStarts = lineStarts(content);
    }
    int index = Arrays.binarySearch(lineStarts, (int) Math.max(0, position));
    return index >= 0 ? index + 1 : -index - 1;
  }

  /** The offset at which each line starts; a line ends at \n, \r or \r\n, as in javac. */
  private static int[] lineStarts(CharSequence text) {
    List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n'))) {
        starts.add(i + 1);
      }
    }
    return starts.stream().mapToInt(Integer::intValue).toArray();
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
