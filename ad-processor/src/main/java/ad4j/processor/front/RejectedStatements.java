package ad4j.processor.front;

import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.util.TreeScanner;

/**
 * What a statement reported as unsupported leaves behind ({@code try}, {@code synchronized}):
 * the locals it assigns are marked as broken, so that their later uses do not add a second error
 * ("variable 's' might not have been initialized") to the one that says what to change.
 */
final class RejectedStatements {
  private RejectedStatements() {}

  /** Marks every local of {@code scopes} that {@code statement} assigns as broken. */
  static void markAssignedLocals(Tree statement, LocalScopes scopes) {
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(AssignmentTree node, Void unused) {
        mark(node.getVariable());
        return super.visitAssignment(node, unused);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree node, Void unused) {
        mark(node.getVariable());
        return super.visitCompoundAssignment(node, unused);
      }

      @Override
      public Void visitUnary(UnaryTree node, Void unused) {
        switch (node.getKind()) {
          case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
              mark(node.getExpression());
          default -> { }
        }
        return super.visitUnary(node, unused);
      }

      private void mark(ExpressionTree target) {
        if (target instanceof IdentifierTree identifier) {
          LocalScopes.Local local = scopes.lookUp(identifier.getName().toString());
          if (local != null) {
            local.markBroken();
          }
        }
      }
    }.scan(statement, null);
  }
}
