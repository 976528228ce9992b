package ad4j.processor.front;

import com.sun.source.tree.ArrayTypeTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import java.util.List;

/**
 * {@code double[] a = null;} whose variable the block assigns next, before any other mention
 * ({@code a = new double[n];}), as code written for older compilers or by habit does. No
 * statement can see the {@code null}, so the declaration means what {@code double[] a;} means,
 * and {@link Lowering} lowers it so: an array variable is bound to an array wherever it is
 * read. Any other {@code null} for an array stays an error.
 */
final class NullArrayDeclarations {
  private NullArrayDeclarations() {}

  /** Whether {@code statements.get(i)} is such a declaration. */
  static boolean assignedBeforeUse(List<? extends StatementTree> statements, int i) {
    if (!(statements.get(i) instanceof VariableTree declaration)
        || !(declaration.getType() instanceof ArrayTypeTree)
        || declaration.getInitializer() == null
        || declaration.getInitializer().getKind() != Tree.Kind.NULL_LITERAL) {
      return false;
    }
    String name = declaration.getName().toString();
    for (StatementTree later : statements.subList(i + 1, statements.size())) {
      if (!mentions(later, name)) {
        continue;
      }
      return later instanceof ExpressionStatementTree statement
          && statement.getExpression() instanceof AssignmentTree assignment
          && assignment.getVariable() instanceof IdentifierTree target
          && target.getName().contentEquals(name)
          && !mentions(assignment.getExpression(), name);
    }
    return false; // never assigned: every read would be of null
  }

  private static boolean mentions(Tree tree, String name) {
    return !NameUses.all(tree, name, (use, around) -> false);
  }
}
