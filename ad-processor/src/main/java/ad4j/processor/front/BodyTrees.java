package ad4j.processor.front;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;

/**
 * Static questions of a body's trees, read without attribution: whether a local or parameter
 * of a name is in scope at a place (else the name is a field's), a tree without its parentheses
 * or type arguments, {@code this} or {@code super}, the class of a declared type. They need no
 * state of the body they are asked of, so {@link BodyWrites} and {@link BodyLocals} share them.
 */
final class BodyTrees {
  private BodyTrees() {
  }

  /**
   * Whether a local or parameter named {@code name} is in scope at {@code at}: declared
   * before it in a block around it, by a loop, a lambda, a catch or a switch around it, or a
   * parameter of the method around it. Otherwise the name is a field's (a block's local of
   * that name may have ended: '{ int k = 0; } k++;').
   */
  static boolean declaredInScope(TreePath at, String name) {
    Tree child = at.getLeaf();
    for (TreePath p = at.getParentPath(); p != null; child = p.getLeaf(), p = p.getParentPath()) {
      Tree tree = p.getLeaf();
      if (tree instanceof BlockTree block && declaresBefore(block.getStatements(), child, name)
          || tree instanceof CaseTree branch && branch.getStatements() != null
              && declaresBefore(branch.getStatements(), child, name)
          || tree instanceof SwitchTree choice && earlierCasesDeclare(choice.getCases(), child,
              name)
          || tree instanceof ForLoopTree loop
              && declaresBefore(loop.getInitializer(), null, name)
          || tree instanceof EnhancedForLoopTree loop && child != loop.getExpression()
              && loop.getVariable().getName().contentEquals(name)
          || tree instanceof LambdaExpressionTree lambda && lambda.getParameters().stream()
              .anyMatch(parameter -> parameter.getName().contentEquals(name))
          || tree instanceof CatchTree handler
              && handler.getParameter().getName().contentEquals(name)
          || tree instanceof TryTree attempt
              && declaresBefore(attempt.getResources(), null, name)) {
        return true;
      }
      if (tree instanceof MethodTree method) {
        return method.getParameters().stream()
            .anyMatch(parameter -> parameter.getName().contentEquals(name));
      }
      if (tree instanceof ClassTree) {
        return false; // a field of the class, or of a class around it
      }
    }
    return false;
  }

  /** Whether {@code trees} declare {@code name} before {@code until} (null: any of them). */
  static boolean declaresBefore(List<? extends Tree> trees, Tree until, String name) {
    for (Tree tree : trees) {
      if (tree == until) {
        return false;
      }
      if (tree instanceof VariableTree variable && variable.getName().contentEquals(name)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the cases of a switch before the one holding {@code child} declare {@code name}. */
  static boolean earlierCasesDeclare(List<? extends CaseTree> cases, Tree child,
      String name) {
    for (CaseTree branch : cases) {
      if (branch == child) {
        return false;
      }
      if (branch.getStatements() != null && declaresBefore(branch.getStatements(), null, name)) {
        return true;
      }
    }
    return false;
  }

  /** {@code this} or {@code super}. */
  static boolean isSelf(ExpressionTree receiver) {
    return receiver instanceof IdentifierTree self
        && (self.getName().contentEquals("this") || self.getName().contentEquals("super"));
  }

  /** The class of a declared type; empty for arrays, primitives and type variables. */
  static Optional<TypeElement> classOf(TypeMirror type) {
    return type instanceof DeclaredType declared
        && declared.asElement() instanceof TypeElement element
        ? Optional.of(element) : Optional.empty();
  }

  static ExpressionTree withoutTypeArguments(Tree type) {
    return type instanceof ParameterizedTypeTree parameterized
        ? (ExpressionTree) parameterized.getType()
        : type instanceof ExpressionTree expression ? expression : null;
  }

  static List<TypeElement> concat(List<TypeElement> a, List<TypeElement> b) {
    List<TypeElement> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  static ExpressionTree unwrapped(ExpressionTree tree) {
    ExpressionTree e = tree;
    while (e instanceof ParenthesizedTree parenthesized) {
      e = parenthesized.getExpression();
    }
    return e;
  }
}
