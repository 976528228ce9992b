package ad4j.processor.front;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * An array local declared with a choice between two arrays, {@code double[] t = c ? u : v}.
 * Java binds {@code t} to the array chosen; ad4j binds each array variable to one array at each
 * point of the code, so it makes {@code t} a copy of the chosen array's elements instead. The
 * copy computes what the alias computes when neither can see a write the other does not: when
 * {@code t}, {@code u} and {@code v} are only read in the whole method ({@link #onlyRead}), no
 * other name reaches {@code u}'s or {@code v}'s array ({@link #ownsItsArray}), and no call run
 * as written after the choice can write a parameter's or a field's array chosen from
 * ({@link ArrayCopies} checks the last two).
 */
final class ArrayChoices {
  /** Calls that read their first argument only and keep no reference to it. */
  private static final Set<String> READING_CALLS = Set.of("System.arraycopy",
      "java.lang.System.arraycopy", "Arrays.copyOf", "java.util.Arrays.copyOf",
      "Arrays.copyOfRange", "java.util.Arrays.copyOfRange");

  private ArrayChoices() {}

  /**
   * Whether {@code body} uses the variable {@code name} only to read the array it names: indexed
   * (not as the target of an assignment, compound assignment, {@code ++} or {@code --}), its
   * {@code length} read, iterated by {@code for}, chosen by {@code ?:}, or copied from (the
   * first argument of {@code System.arraycopy}, {@code Arrays.copyOf} or
   * {@code Arrays.copyOfRange}), and with {@code passed} an argument of any call but
   * {@code System.arraycopy} and {@code Arrays.fill}, which ad4j writes as element stores (a
   * {@code @Differentiable} method never writes into its array parameters, and what a method
   * run as written writes there carries no derivative: LaunderedDependence reports its reads). Any other use (assigned, bound to another variable,
   * returned; passed to a method, without {@code passed}) could write the array or name it.
   * Decided by name over the whole method, so a local of the same name in another block counts
   * too.
   */
  static boolean onlyRead(Tree body, String name, boolean passed) {
    return NameUses.all(body, name, (identifier, ancestors) -> reads(identifier, ancestors,
        passed));
  }

  /**
   * As {@link #onlyRead} without {@code passed}, and also compared with {@code null}
   * ({@code w == null}, {@code w != null}) where {@code before} says the comparison comes
   * before the choice in the source: the argument checks of an array that a choice copies
   * from ({@code if (w == null) return 0;}), which read the reference, not the elements, and
   * see the same array whatever the choice binds.
   */
  static boolean onlyReadOrComparedWithNull(Tree body, String name, Predicate<Tree> before) {
    return NameUses.all(body, name, (identifier, ancestors) ->
        reads(identifier, ancestors, false)
            || comparedWithNull(identifier, ancestors) && before.test(identifier));
  }

  /**
   * The declarations of variables {@code name} in {@code body}: none for a parameter or a
   * field. Decided by name, as {@link #onlyRead} is.
   */
  static List<VariableTree> declarations(Tree body, String name) {
    List<VariableTree> found = new ArrayList<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree declaration, Void unused) {
        if (declaration.getName().contentEquals(name)) {
          found.add(declaration);
        }
        return super.visitVariable(declaration, unused);
      }
    }.scan(body, null);
    return found;
  }

  /**
   * Whether {@code declaration} binds its variable to an array made for it ({@code new},
   * another choice, itself a copy, or a call's result, which the caller checks is not an array
   * a call run as written returned), which only the variable names while {@link #onlyRead}
   * holds for it. Not so for one bound to another variable's array or a row
   * ({@code double[] u = w}, {@code double[] u = m[0]}), a {@code for} loop's element or a
   * lambda's parameter: a write through the other name after a choice changes what Java's
   * {@code t} reads, while the copy keeps the old elements.
   */
  static boolean ownsItsArray(VariableTree declaration) {
    ExpressionTree value = declaration.getInitializer() == null ? null
        : ExpressionLowering.withoutParentheses(declaration.getInitializer());
    return value instanceof NewArrayTree || value instanceof ConditionalExpressionTree
        || value instanceof MethodInvocationTree;
  }

  /** {@code w == null} or {@code w != null}, either way round. */
  private static boolean comparedWithNull(IdentifierTree identifier, Deque<Tree> ancestors) {
    Tree parent = ancestors.peek();
    return parent instanceof BinaryTree comparison
        && (comparison.getKind() == Tree.Kind.EQUAL_TO
            || comparison.getKind() == Tree.Kind.NOT_EQUAL_TO)
        && (comparison.getLeftOperand() == identifier
            ? comparison.getRightOperand() : comparison.getLeftOperand()).getKind()
            == Tree.Kind.NULL_LITERAL;
  }

  private static boolean reads(IdentifierTree identifier, Deque<Tree> ancestors,
      boolean passed) {
    Iterator<Tree> up = ancestors.iterator();
    Tree use = identifier; // the identifier, with the parentheses around it
    Tree parent = up.hasNext() ? up.next() : null;
    while (parent instanceof ParenthesizedTree && up.hasNext()) {
      use = parent;
      parent = up.next();
    }
    Tree grandparent = up.hasNext() ? up.next() : null;
    if (parent instanceof ArrayAccessTree access) {
      return access.getExpression() == use && !writes(grandparent, access);
    }
    if (parent instanceof MemberSelectTree select) {
      return select.getIdentifier().contentEquals("length");
    }
    if (parent instanceof EnhancedForLoopTree loop) {
      return loop.getExpression() == use;
    }
    if (parent instanceof ConditionalExpressionTree choice) {
      return choice.getTrueExpression() == use || choice.getFalseExpression() == use;
    }
    if (parent instanceof MethodInvocationTree call) {
      if (passed && call.getArguments().contains(use) && !isWritingCall(call)) {
        return true;
      }
      return READING_CALLS.contains(call.getMethodSelect().toString())
          && !call.getArguments().isEmpty() && call.getArguments().get(0) == use;
    }
    return false;
  }

  /**
   * Whether {@code call} may be {@code System.arraycopy} or {@code Arrays.fill}, which ad4j
   * writes as element stores into an array argument (whatever their qualifier).
   */
  private static boolean isWritingCall(MethodInvocationTree call) {
    Tree select = call.getMethodSelect();
    String name = select instanceof MemberSelectTree member ? member.getIdentifier().toString()
        : select instanceof IdentifierTree identifier ? identifier.getName().toString() : "";
    return name.equals("arraycopy") || name.equals("fill");
  }

  /** Whether {@code tree} writes the element {@code access}. */
  private static boolean writes(Tree tree, ArrayAccessTree access) {
    if (tree instanceof AssignmentTree assignment) {
      return assignment.getVariable() == access;
    }
    if (tree instanceof CompoundAssignmentTree assignment) {
      return assignment.getVariable() == access;
    }
    if (tree instanceof UnaryTree unary) {
      return unary.getExpression() == access && switch (unary.getKind()) {
        case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT -> true;
        default -> false;
      };
    }
    return false;
  }
}
