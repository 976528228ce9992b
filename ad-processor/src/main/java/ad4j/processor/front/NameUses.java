package ad4j.processor.front;

import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreeScanner;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * The uses of a variable's name in a method's body, each seen with the trees around it: what
 * {@link ArraySwaps}, {@link RowSwaps} and {@link ArrayChoices} ask to decide whether an array variable is only
 * read. Decided by name, over the whole body, so a local of the same name in another block
 * counts too.
 */
final class NameUses {
  private NameUses() {}

  /**
   * Whether {@code allowed} holds for every identifier {@code name} in {@code body}, given the
   * trees around it, innermost first ({@code ancestors.peek()} is its parent).
   */
  static boolean all(Tree body, String name,
      BiPredicate<IdentifierTree, Deque<Tree>> allowed) {
    boolean[] other = {false};
    Deque<Tree> ancestors = new ArrayDeque<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        if (tree == null || other[0]) {
          return null;
        }
        if (tree instanceof IdentifierTree identifier && identifier.getName().contentEquals(name)
            && !allowed.test(identifier, ancestors)) {
          other[0] = true;
        }
        ancestors.push(tree);
        try {
          return super.scan(tree, unused);
        } finally {
          ancestors.pop();
        }
      }
    }.scan(body, null);
    return !other[0];
  }

  /**
   * Whether the name {@code name} appears anywhere in {@code statements}: a swap's temporary
   * read after the swap ({@link ArraySwaps}, {@link RowSwaps}) would name the array itself.
   */
  static boolean appearsIn(List<? extends com.sun.source.tree.StatementTree> statements,
      String name) {
    boolean[] found = {false};
    TreeScanner<Void, Void> scanner = new TreeScanner<>() {
      @Override
      public Void visitIdentifier(IdentifierTree identifier, Void unused) {
        found[0] |= identifier.getName().contentEquals(name);
        return null;
      }
    };
    statements.forEach(statement -> scanner.scan(statement, null));
    return found[0];
  }
}
