package ad4j.processor.front;

import com.sun.source.tree.AssertTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreeScanner;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which locals and parameters need a mutable {@link ad4j.processor.ir.Variable}: those
 * assigned inside a branch or loop nested deeper than their declaration. All others stay
 * single-assignment values, which straight-line code uses exclusively.
 *
 * <p>The decision is by name: Java forbids a local to shadow another local or a parameter, so a
 * name means one variable except in sibling blocks, where treating both as mutable is harmless.
 * A name declared more than once is compared with its shallowest declaration: an assignment
 * deeper than its own declaration is then deeper than that one too. (The first declaration met
 * may be the deeper one, in a loop's body or a branch before the other; compared with it, a
 * loop's assignments of the later local looked like straight-line ones, and were lost.)
 */
final class VariablePlanner extends TreeScanner<Void, Void> {
  private final Map<String, Integer> declarationDepth = new HashMap<>();
  private final Set<String> mutable = new HashSet<>();
  private int depth;

  private VariablePlanner() {}

  /** The names of {@code method}'s parameters and locals that need a variable. */
  static Set<String> plan(MethodTree method) {
    return plan(method, List.of());
  }

  /**
   * As {@link #plan(MethodTree)}, {@code declared} being names declared before the body as its
   * parameters are: a compact constructor's components, which its tree may not list.
   */
  static Set<String> plan(MethodTree method, List<String> declared) {
    VariablePlanner planner = new VariablePlanner();
    declared.forEach(name -> planner.declarationDepth.put(name, 0));
    for (VariableTree parameter : method.getParameters()) {
      planner.declarationDepth.put(parameter.getName().toString(), 0);
    }
    if (method.getBody() != null) {
      planner.scan(method.getBody(), null);
    }
    return planner.mutable;
  }

  /**
   * The names of {@code lambda}'s parameters and locals that need a variable, where its body is
   * inlined: a lambda written in the method is planned with it, but one read from a
   * {@code static final} field is not in the method's tree.
   */
  static Set<String> plan(LambdaExpressionTree lambda) {
    VariablePlanner planner = new VariablePlanner();
    for (VariableTree parameter : lambda.getParameters()) {
      planner.declarationDepth.put(parameter.getName().toString(), 0);
    }
    planner.scan(lambda.getBody(), null);
    return planner.mutable;
  }

  @Override
  public Void visitVariable(VariableTree variable, Void unused) {
    declarationDepth.merge(variable.getName().toString(), depth, Math::min);
    return super.visitVariable(variable, unused);
  }

  /**
   * A double-buffer swap ({@link ArraySwaps}) assigns its two arrays' variables without
   * rebinding them: {@link Lowering} exchanges the elements.
   */
  @Override
  public Void visitBlock(BlockTree block, Void unused) {
    List<? extends com.sun.source.tree.StatementTree> statements = block.getStatements();
    for (int i = 0; i < statements.size(); i++) {
      scan(statements.get(i), null);
      if (ArraySwaps.at(statements, i).isPresent()) {
        i += 2;
      }
    }
    return null;
  }

  @Override
  public Void visitAssignment(AssignmentTree assignment, Void unused) {
    assigned(assignment.getVariable());
    return super.visitAssignment(assignment, unused);
  }

  @Override
  public Void visitCompoundAssignment(CompoundAssignmentTree assignment, Void unused) {
    assigned(assignment.getVariable());
    return super.visitCompoundAssignment(assignment, unused);
  }

  @Override
  public Void visitUnary(UnaryTree unary, Void unused) {
    switch (unary.getKind()) {
      case PREFIX_INCREMENT, POSTFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_DECREMENT ->
          assigned(unary.getExpression());
      default -> { }
    }
    return super.visitUnary(unary, unused);
  }

  @Override
  public Void visitIf(IfTree tree, Void unused) {
    scan(tree.getCondition(), null);
    nested(tree.getThenStatement());
    nested(tree.getElseStatement());
    return null;
  }

  /**
   * An {@code assert}'s condition (and its detail) runs only where assertions are enabled, like
   * a branch: a local it assigns keeps its earlier value where they are not.
   */
  @Override
  public Void visitAssert(AssertTree tree, Void unused) {
    nested(tree.getCondition());
    nested(tree.getDetail());
    return null;
  }

  /** The right operand of {@code &&} and {@code ||} runs only sometimes, like a branch. */
  @Override
  public Void visitBinary(BinaryTree tree, Void unused) {
    if (tree.getKind() == Tree.Kind.CONDITIONAL_AND || tree.getKind() == Tree.Kind.CONDITIONAL_OR) {
      scan(tree.getLeftOperand(), null);
      nested(tree.getRightOperand());
      return null;
    }
    return super.visitBinary(tree, unused);
  }

  @Override
  public Void visitConditionalExpression(ConditionalExpressionTree tree, Void unused) {
    scan(tree.getCondition(), null);
    nested(tree.getTrueExpression());
    nested(tree.getFalseExpression());
    return null;
  }

  @Override
  public Void visitWhileLoop(WhileLoopTree tree, Void unused) {
    nested(tree.getCondition());
    nested(tree.getStatement());
    return null;
  }

  @Override
  public Void visitDoWhileLoop(DoWhileLoopTree tree, Void unused) {
    nested(tree.getStatement());
    nested(tree.getCondition());
    return null;
  }

  @Override
  public Void visitForLoop(ForLoopTree tree, Void unused) {
    // The initializer runs once, before the loop; everything else runs per iteration.
    scan(tree.getInitializer(), null);
    nested(tree.getCondition());
    nested(tree.getStatement());
    depth++;
    scan(tree.getUpdate(), null);
    depth--;
    return null;
  }

  @Override
  public Void visitEnhancedForLoop(EnhancedForLoopTree tree, Void unused) {
    // The array is evaluated once, before the loop; the variable and body per element.
    scan(tree.getExpression(), null);
    nested(tree.getVariable());
    nested(tree.getStatement());
    return null;
  }

  /** A case of a switch runs only for some values, like a branch. */
  @Override
  public Void visitCase(CaseTree tree, Void unused) {
    depth++;
    super.visitCase(tree, unused);
    depth--;
    return null;
  }

  private void nested(Tree tree) {
    depth++;
    scan(tree, null);
    depth--;
  }

  private void assigned(ExpressionTree target) {
    if (target instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      Integer declared = declarationDepth.get(name);
      if (declared != null && depth > declared) {
        mutable.add(name);
      }
    }
  }
}
