package ad4j.processor.front;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.ArrayTypeTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The row exchange of Gaussian elimination with partial pivoting, {@code double[] t = m[k];
 * m[k] = m[p]; m[p] = t;}: three statements of one block, {@code m} a name, {@code k} and
 * {@code p} names or literals (so evaluating them again gives the same rows), {@code t} read
 * nowhere after them. Java exchanges the row arrays; where the rows all have one length and no
 * other variable names a row, exchanging their elements instead computes the same values and
 * keeps the matrix's rows the arrays it was made with, as ad4j's lowering of matrices needs.
 * {@link Lowering} writes it as a loop of element exchanges, or reports at the swap why it
 * cannot.
 *
 * @param statements the three statements
 * @param matrix the matrix's name ({@code m})
 */
record RowSwaps(List<StatementTree> statements, String matrix) {
  /** The row swap that starts at {@code statements.get(i)}, if one does. */
  static Optional<RowSwaps> at(List<? extends StatementTree> statements, int i) {
    if (i + 2 >= statements.size()
        || !(statements.get(i) instanceof VariableTree declaration)
        || !(declaration.getType() instanceof ArrayTypeTree)
        || !(declaration.getInitializer() instanceof ArrayAccessTree taken)
        || !(taken.getExpression() instanceof IdentifierTree matrix)) {
      return Optional.empty();
    }
    String name = matrix.getName().toString();
    String temporary = declaration.getName().toString();
    Optional<AssignmentTree> second = assignment(statements.get(i + 1));
    Optional<AssignmentTree> third = assignment(statements.get(i + 2));
    if (second.isEmpty() || third.isEmpty() || !isIndex(taken.getIndex())
        || !isRow(second.get().getVariable(), name, taken.getIndex())
        || !(second.get().getExpression() instanceof ArrayAccessTree other)
        || !isIndex(other.getIndex()) || !isRow(other, name, other.getIndex())
        || !isRow(third.get().getVariable(), name, other.getIndex())
        || !(third.get().getExpression() instanceof IdentifierTree held)
        || !held.getName().contentEquals(temporary) || temporary.equals(name)
        || NameUses.appearsIn(statements.subList(i + 3, statements.size()), temporary)) {
      return Optional.empty();
    }
    return Optional.of(new RowSwaps(List.copyOf(statements.subList(i, i + 3)), name));
  }

  /** Every row swap in {@code body}, in its blocks. */
  static List<RowSwaps> in(Tree body) {
    List<RowSwaps> swaps = new ArrayList<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitBlock(BlockTree block, Void unused) {
        for (int i = 0; i < block.getStatements().size(); i++) {
          at(block.getStatements(), i).ifPresent(swaps::add);
        }
        return super.visitBlock(block, unused);
      }
    }.scan(body, null);
    return swaps;
  }

  /** The row {@code m[k]} the swap takes first. */
  ArrayAccessTree firstRow() {
    return (ArrayAccessTree) ((VariableTree) statements.get(0)).getInitializer();
  }

  /** The row {@code m[p]} it puts in the first's place. */
  ArrayAccessTree secondRow() {
    return (ArrayAccessTree) assignment(statements.get(1)).orElseThrow().getExpression();
  }

  /**
   * Whether {@code body} uses the matrix {@code name} only as exchanging its rows' elements
   * keeps meaning the same: its elements ({@code m[i][j]}, read or written), its length and its
   * rows' lengths, its declaration, and the statements of {@code swaps}. Any other use (a row
   * bound to a variable, iterated, passed to a method; the matrix passed or returned) could
   * name a row array itself, which the exchange does not move. Decided by name, over the whole
   * body, so a local of the same name in another block counts too.
   */
  static boolean onlyElementsUsed(Tree body, String name, List<RowSwaps> swaps) {
    List<Tree> swapTrees = new ArrayList<>();
    for (RowSwaps swap : swaps) {
      swapTrees.add(swap.statements().get(0));
      swapTrees.add(((ExpressionStatementTree) swap.statements().get(1)).getExpression());
      swapTrees.add(((ExpressionStatementTree) swap.statements().get(2)).getExpression());
    }
    return NameUses.all(body, name, (identifier, ancestors) -> allowed(identifier, ancestors,
        swapTrees));
  }

  private static boolean allowed(IdentifierTree use, Deque<Tree> ancestors,
      List<Tree> swapTrees) {
    Iterator<Tree> around = ancestors.iterator();
    Tree parent = around.hasNext() ? around.next() : null;
    if (parent instanceof VariableTree declaration) {
      return declaration.getInitializer() != use; // its own declaration
    }
    if (parent instanceof MemberSelectTree select) {
      return select.getIdentifier().contentEquals("length");
    }
    if (!(parent instanceof ArrayAccessTree row) || row.getExpression() != use) {
      return false;
    }
    Tree grandparent = around.hasNext() ? around.next() : null;
    if (grandparent instanceof ArrayAccessTree element) {
      return element.getExpression() == row; // m[i][j]
    }
    if (grandparent instanceof MemberSelectTree select) {
      return select.getIdentifier().contentEquals("length"); // m[i].length
    }
    return swapTrees.stream().anyMatch(tree -> tree == grandparent);
  }

  private static Optional<AssignmentTree> assignment(StatementTree statement) {
    return statement instanceof ExpressionStatementTree expression
        && expression.getExpression() instanceof AssignmentTree assignment
        ? Optional.of(assignment) : Optional.empty();
  }

  /** An index that gives the same row each time it is evaluated: a name or a literal. */
  private static boolean isIndex(ExpressionTree index) {
    return index instanceof IdentifierTree || index instanceof LiteralTree;
  }

  /** Whether {@code tree} is {@code name[index]}, the index written alike. */
  private static boolean isRow(ExpressionTree tree, String name, ExpressionTree index) {
    return tree instanceof ArrayAccessTree access
        && access.getExpression() instanceof IdentifierTree matrix
        && matrix.getName().contentEquals(name) && sameIndex(access.getIndex(), index);
  }

  private static boolean sameIndex(ExpressionTree a, ExpressionTree b) {
    if (a instanceof IdentifierTree x && b instanceof IdentifierTree y) {
      return x.getName().contentEquals(y.getName());
    }
    return a instanceof LiteralTree x && b instanceof LiteralTree y
        && java.util.Objects.equals(x.getValue(), y.getValue());
  }
}
