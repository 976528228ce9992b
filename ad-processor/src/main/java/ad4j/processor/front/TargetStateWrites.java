package ad4j.processor.front;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;

/**
 * The first write of a {@code @DerivativeOf} target's body to state that outlives the call: a
 * field ({@code k++}, {@code this.total += x}, {@code Owner.k = 1}) or an element of an array
 * the body did not declare (a parameter's, a field's). Such a target gives another result, or
 * changes something again, each time it runs, and the members that make one sweep per slot
 * call it in every sweep ({@link RepeatedRuns}). Read from the source text, without
 * attribution (the same under ECJ's parsed trees): a name that is none of the body's
 * parameters and locals is a field's. Calls the body makes are not followed; a target is
 * otherwise taken for the function of its arguments that its rules differentiate.
 */
final class TargetStateWrites {
  private TargetStateWrites() {}

  /** The first such write of {@code target}'s body; empty without one, or without source. */
  static Optional<Tree> first(Trees trees, ExecutableElement target) {
    TreePath path = trees.getPath(target);
    if (path == null || !(path.getLeaf() instanceof MethodTree method)
        || method.getBody() == null) {
      return Optional.empty();
    }
    Set<String> parameters = new HashSet<>();
    method.getParameters().forEach(parameter -> parameters.add(parameter.getName().toString()));
    Set<String> locals = new HashSet<>(parameters);
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree variable, Void unused) {
        locals.add(variable.getName().toString()); // locals, lambdas' and catches' parameters
        return super.visitVariable(variable, unused);
      }
    }.scan(method.getBody(), null);
    Tree[] found = new Tree[1];
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitAssignment(AssignmentTree assignment, Void unused) {
        written(assignment.getVariable(), assignment);
        return super.visitAssignment(assignment, unused);
      }

      @Override
      public Void visitCompoundAssignment(CompoundAssignmentTree assignment, Void unused) {
        written(assignment.getVariable(), assignment);
        return super.visitCompoundAssignment(assignment, unused);
      }

      @Override
      public Void visitUnary(UnaryTree unary, Void unused) {
        switch (unary.getKind()) {
          case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT ->
              written(unary.getExpression(), unary);
          default -> { }
        }
        return super.visitUnary(unary, unused);
      }

      private void written(ExpressionTree variable, Tree write) {
        if (found[0] == null && outlivesTheCall(variable)) {
          found[0] = write;
        }
      }

      /** A field, or an element of an array that is a parameter's or a field's. */
      private boolean outlivesTheCall(ExpressionTree variable) {
        ExpressionTree target = unwrapped(variable);
        if (target instanceof ArrayAccessTree element) {
          ExpressionTree array = unwrapped(element.getExpression());
          while (array instanceof ArrayAccessTree row) {
            array = unwrapped(row.getExpression());
          }
          return !(array instanceof IdentifierTree name)
              || parameters.contains(name.getName().toString())
              || !locals.contains(name.getName().toString());
        }
        return !(target instanceof IdentifierTree name)
            || !locals.contains(name.getName().toString());
      }
    }.scan(method.getBody(), null);
    return Optional.ofNullable(found[0]);
  }

  private static ExpressionTree unwrapped(ExpressionTree tree) {
    ExpressionTree e = tree;
    while (e instanceof ParenthesizedTree parenthesized) {
      e = parenthesized.getExpression();
    }
    return e;
  }
}
