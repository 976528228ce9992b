package ad4j.processor.front;

import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The user's source text of trees: literals as written, and statements for comments. Trees of
 * other files that the lowering reads (a value record's methods) are read in their own file,
 * which {@code homes} tells.
 */
final class SourceText {
  private static final int MAX_COMMENT_LENGTH = 90;

  private final CompilationUnitTree unit;
  private final SourcePositions positions;
  private final Function<Tree, CompilationUnitTree> homes;
  private final Map<CompilationUnitTree, CharSequence> contents = new IdentityHashMap<>();
  private final Map<CompilationUnitTree, int[]> lineStarts = new IdentityHashMap<>();

  SourceText(Trees trees, CompilationUnitTree unit, Function<Tree, CompilationUnitTree> homes) {
    this.unit = unit;
    this.positions = trees.getSourcePositions();
    this.homes = homes;
    content(unit);
  }

  private CharSequence content(CompilationUnitTree file) {
    return contents.computeIfAbsent(file, f -> {
      try {
        return f.getSourceFile().getCharContent(true);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + f.getSourceFile().getName(), e);
      }
    });
  }

  /** Where a tree starts: its offset in the source file. */
  long start(Tree tree) {
    return positions.getStartPosition(homes.apply(tree), tree);
  }

  /** Where a tree ends: the offset after its last character. */
  long end(Tree tree) {
    return positions.getEndPosition(homes.apply(tree), tree);
  }

  /** The source file's URI, as the compiler names it. */
  String file() {
    return unit.getSourceFile().toUri().toString();
  }

  /** Whether {@code tree} is in the method's own file (not a record's of another file). */
  boolean isOwn(Tree tree) {
    return homes.apply(tree) == unit;
  }

  /** The name of the file {@code tree} is in ({@code Vec3.java}), as messages name it. */
  String fileName(Tree tree) {
    String path = homes.apply(tree).getSourceFile().toUri().getPath();
    return path == null ? homes.apply(tree).getSourceFile().getName()
        : path.substring(path.lastIndexOf('/') + 1);
  }

  /** The exact text of a tree, as the user wrote it. */
  String of(Tree tree) {
    CompilationUnitTree home = homes.apply(tree);
    CharSequence content = content(home);
    long start = positions.getStartPosition(home, tree);
    long end = positions.getEndPosition(home, tree);
    if (start < 0 || end < start || end > content.length()) {
      return tree.toString();
    }
    return content.subSequence((int) start, (int) end).toString();
  }

  /**
   * The 1-based line a tree starts on, in its file. Counted in the source text itself: javac
   * keeps no line map when compiling without line numbers ({@code -g:none}, {@code -g:source},
   * {@code -g:vars}).
   */
  long line(Tree tree) {
    CompilationUnitTree home = homes.apply(tree);
    long position = positions.getStartPosition(home, tree);
    int[] starts = lineStarts.computeIfAbsent(home, f -> lineStarts(content(f)));
    int index = Arrays.binarySearch(starts, (int) Math.max(0, position));
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
   * The text of an expression on one line, shortened, for a message that quotes it: a {@code
   * switch} or a chain of {@code ?:} spans lines, which a quote in a message should not.
   */
  String quoted(Tree tree) {
    String text = of(tree).replaceAll("\\s+", " ").trim();
    return text.length() > MAX_COMMENT_LENGTH
        ? text.substring(0, MAX_COMMENT_LENGTH - 3) + "..." : text;
  }

  /**
   * The text of a statement on one line, shortened, and safe inside a {@code //} comment: a
   * backslash-u in a comment would be read by javac as a Unicode escape, possibly a line break.
   */
  String forComment(Tree tree) {
    return quoted(tree).replace("\\", "\\\\");
  }
}
