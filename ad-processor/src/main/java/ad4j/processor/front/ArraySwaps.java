package ad4j.processor.front;

import com.sun.source.tree.ArrayTypeTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import java.util.List;
import java.util.Optional;

/**
 * The double-buffer swap of stencils and ODE steppers, {@code double[] tmp = cur; cur = next;
 * next = tmp;}, three statements of one block, {@code tmp} read nowhere after them. Java
 * exchanges the arrays the two variables name; where no other variable names either array and
 * both have the same length, exchanging their elements instead computes the same values, and
 * keeps each variable bound to one array, as ad4j's lowering needs: {@link VariablePlanner}
 * gives the two variables no mutable variable for it, and {@link Lowering} writes it as a loop
 * of element exchanges, or reports at the swap why it cannot.
 *
 * @param temporary the local declared by the first statement
 * @param first the variable assigned by the second statement ({@code cur})
 * @param second the variable assigned by the third ({@code next})
 */
record ArraySwaps(String temporary, String first, String second) {
  /** The swap that starts at {@code statements.get(i)}, if one does. */
  static Optional<ArraySwaps> at(List<? extends StatementTree> statements, int i) {
    if (i + 2 >= statements.size()
        || !(statements.get(i) instanceof VariableTree declaration)
        || !(declaration.getType() instanceof ArrayTypeTree)
        || !(declaration.getInitializer() instanceof IdentifierTree initial)) {
      return Optional.empty();
    }
    String temporary = declaration.getName().toString();
    String first = initial.getName().toString();
    Optional<String[]> second = assignment(statements.get(i + 1));
    Optional<String[]> third = assignment(statements.get(i + 2));
    if (second.isEmpty() || third.isEmpty() || !second.get()[0].equals(first)
        || !third.get()[0].equals(second.get()[1]) || !third.get()[1].equals(temporary)
        || first.equals(second.get()[1]) || temporary.equals(first)
        || temporary.equals(second.get()[1])
        || NameUses.appearsIn(statements.subList(i + 3, statements.size()), temporary)) {
      return Optional.empty();
    }
    return Optional.of(new ArraySwaps(temporary, first, second.get()[1]));
  }

  /** Every swap in {@code body}, in its blocks. */
  static List<ArraySwaps> in(com.sun.source.tree.Tree body) {
    List<ArraySwaps> swaps = new java.util.ArrayList<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitBlock(com.sun.source.tree.BlockTree block, Void unused) {
        for (int i = 0; i < block.getStatements().size(); i++) {
          at(block.getStatements(), i).ifPresent(swaps::add);
        }
        return super.visitBlock(block, unused);
      }
    }.scan(body, null);
    return swaps;
  }

  /**
   * Whether {@code body} uses the variable {@code name} only as exchanging elements keeps
   * meaning the same: indexed ({@code a[i]}), its {@code length} read, iterated by
   * {@code for}, passed to {@code System.arraycopy} or {@code Arrays.fill} (which ad4j writes
   * as loops of elements), declared, or assigned by a swap. Any other use (passed to a method,
   * bound to another variable, returned) could name the array itself, which the exchange
   * does not move. Decided by name, over the whole method, so a local of the same name in
   * another block counts too.
   */
  static boolean onlyIndexed(com.sun.source.tree.Tree body, String name,
      List<ArraySwaps> swaps) {
    java.util.Set<String> arrays = new java.util.HashSet<>();
    java.util.Set<String> temporaries = new java.util.HashSet<>();
    swaps.forEach(swap -> {
      arrays.add(swap.first());
      arrays.add(swap.second());
      temporaries.add(swap.temporary());
    });
    return NameUses.all(body, name,
        (identifier, ancestors) -> allowed(identifier, ancestors.peek(), arrays, temporaries));
  }

  /**
   * Whether an enhanced {@code for} over the variable {@code name} holds a swap of it, in
   * {@code body}: Java evaluates the loop's array once, and the loop goes on over the array it
   * started with, which after Java's swap the other variable names; exchanging the elements
   * under it instead, the loop would read the other array's elements from then on. Decided by
   * name, as {@link #onlyIndexed} is.
   */
  static boolean iteratedAcrossSwap(com.sun.source.tree.Tree body, String name) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitEnhancedForLoop(com.sun.source.tree.EnhancedForLoopTree loop,
          Void unused) {
        if (loop.getExpression() instanceof IdentifierTree iterated
            && iterated.getName().contentEquals(name)
            && in(loop.getStatement()).stream()
                .anyMatch(swap -> swap.first().equals(name) || swap.second().equals(name))) {
          found[0] = true;
        }
        return super.visitEnhancedForLoop(loop, unused);
      }
    }.scan(body, null);
    return found[0];
  }

  private static boolean allowed(com.sun.source.tree.Tree use, com.sun.source.tree.Tree parent,
      java.util.Set<String> arrays, java.util.Set<String> temporaries) {
    if (parent instanceof com.sun.source.tree.ArrayAccessTree access) {
      return access.getExpression() == use;
    }
    if (parent instanceof com.sun.source.tree.MemberSelectTree select) {
      return select.getIdentifier().contentEquals("length");
    }
    if (parent instanceof com.sun.source.tree.EnhancedForLoopTree loop) {
      return loop.getExpression() == use;
    }
    if (parent instanceof AssignmentTree assignment) {
      // assigned (only swaps may: the lowering rejects any other assignment), or read by a
      // swap's 'cur = next'
      return assignment.getVariable() == use
          || assignment.getVariable() instanceof IdentifierTree target
              && arrays.contains(target.getName().toString());
    }
    if (parent instanceof VariableTree declaration) {
      // its own declaration, or a swap's 'double[] tmp = cur'
      return declaration.getInitializer() != use
          || temporaries.contains(declaration.getName().toString());
    }
    if (parent instanceof com.sun.source.tree.MethodInvocationTree call) {
      String callee = call.getMethodSelect().toString();
      return callee.equals("System.arraycopy") || callee.equals("java.lang.System.arraycopy")
          || callee.equals("Arrays.fill") || callee.equals("java.util.Arrays.fill");
    }
    return false;
  }

  /** {@code {a, b}} for a statement {@code a = b;} of two plain names. */
  private static Optional<String[]> assignment(StatementTree statement) {
    if (statement instanceof ExpressionStatementTree expression
        && expression.getExpression() instanceof AssignmentTree assignment
        && assignment.getVariable() instanceof IdentifierTree target
        && assignment.getExpression() instanceof IdentifierTree source) {
      return Optional.of(new String[] {target.getName().toString(),
          source.getName().toString()});
    }
    return Optional.empty();
  }
}
