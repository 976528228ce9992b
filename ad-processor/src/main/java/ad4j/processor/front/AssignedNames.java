package ad4j.processor.front;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreeScanner;
import java.util.HashSet;
import java.util.Set;

/**
 * The simple names a piece of source assigns: the variables written by {@code =}, a compound
 * assignment ({@code +=}, ...) or {@code ++}/{@code --}, by name as written (a field's
 * {@code this.x} or an element {@code a[i]} is no name). For the questions asked of source that
 * is not lowered: which components a compact constructor changes ({@link RecordConstructors}),
 * which locals a statement reported as unsupported leaves unknown ({@link Lowering}).
 */
final class AssignedNames {
  private AssignedNames() {}

  /** The names {@code tree} assigns, anywhere inside it. */
  static Set<String> in(Tree tree) {
    Set<String> names = new HashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        add(node.getVariable());
        return super.visitAssignment(node, unused);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
        add(node.getVariable());
        return super.visitCompoundAssignment(node, unused);
      }

      @Override
      public Void visitUnary(UnaryTree node, Void unused) {
        switch (node.getKind()) {
          case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
              add(node.getExpression());
          default -> { }
        }
        return super.visitUnary(node, unused);
      }

      private void add(ExpressionTree target) {
        if (target instanceof IdentifierTree identifier) {
          names.add(identifier.getName().toString());
        }
      }
    }.scan(tree, null);
    return names;
  }
}
