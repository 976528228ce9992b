package ad4j.processor.front;

import com.sun.source.tree.BreakTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreeScanner;

/**
 * Whether a statement of a {@code switch} statement's case holds a {@code break} that leaves
 * the switch before the end of the case ({@code case 1: if (x > 1) break; x = 2; break;}): an
 * unlabelled {@code break} that no loop or other {@code switch} inside the case takes.
 * {@link SwitchLowering} then runs the statements after it only while no such {@code break} ran.
 */
final class EarlyCaseBreaks {
  private EarlyCaseBreaks() {}

  /** Whether {@code statement} holds a {@code break} that leaves the switch around it. */
  static boolean in(Tree statement) {
    Boolean found = new TreeScanner<Boolean, Void>() {
      @Override
      public Boolean visitBreak(BreakTree node, Void unused) {
        return node.getLabel() == null;
      }

      // a break inside these leaves them, not the switch (or cannot appear)
      @Override
      public Boolean visitForLoop(ForLoopTree node, Void unused) {
        return false;
      }

      @Override
      public Boolean visitEnhancedForLoop(EnhancedForLoopTree node, Void unused) {
        return false;
      }

      @Override
      public Boolean visitWhileLoop(WhileLoopTree node, Void unused) {
        return false;
      }

      @Override
      public Boolean visitDoWhileLoop(DoWhileLoopTree node, Void unused) {
        return false;
      }

      @Override
      public Boolean visitSwitch(SwitchTree node, Void unused) {
        return false;
      }

      @Override
      public Boolean visitSwitchExpression(SwitchExpressionTree node, Void unused) {
        return false;
      }

      @Override
      public Boolean visitLambdaExpression(LambdaExpressionTree node, Void unused) {
        return false;
      }

      @Override
      public Boolean visitClass(ClassTree node, Void unused) {
        return false;
      }

      @Override
      public Boolean reduce(Boolean first, Boolean second) {
        return Boolean.TRUE.equals(first) || Boolean.TRUE.equals(second);
      }
    }.scan(statement, null);
    return Boolean.TRUE.equals(found);
  }
}
