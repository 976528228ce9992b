package ad4j.processor.front;

import ad4j.processor.ir.Operand;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import java.util.Optional;
import java.util.OptionalDouble;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * Whether an {@code int} operand of a {@code ?:} or {@code switch} expression is a constant
 * expression of Java (JLS 15.29), on which the type Java gives the choice depends: beside a
 * {@code char}, {@code 66} makes a {@code char} ({@code "" + (x > 0 ? c : 66)} appends
 * {@code B}), but {@code (m = 66)} or {@code m} an {@code int} ({@code 66}). Told from the tree,
 * since ad4j folds some expressions that are no constants in Java to constants (the value of
 * an assignment), and computes some that are (a read of {@code final int L = 66}) as values.
 */
final class ConstantExpressions {
  /** What an operand is. */
  enum Kind {
    /** No constant expression in Java. */
    NONE,
    /** A constant expression, which ad4j holds as a constant. */
    CONSTANT,
    /**
     * Possibly a constant expression that ad4j computes as a value (one that reads a
     * {@code final} local), or one whose form it does not tell: the type is unknown.
     */
    UNCERTAIN
  }

  private final LoweringContext context;

  ConstantExpressions(LoweringContext context) {
    this.context = context;
  }

  /** The kind of {@code operand}, lowered from {@code tree}. */
  Kind of(ExpressionTree tree, Operand operand) {
    Kind form = form(tree);
    if (form == Kind.NONE) {
      return Kind.NONE;
    }
    return form == Kind.CONSTANT && operand instanceof Operand.Constant ? Kind.CONSTANT
        : Kind.UNCERTAIN;
  }

  /**
   * NONE when the tree is no constant expression; CONSTANT when it is made of literals and
   * constant fields; UNCERTAIN when it reads a {@code final} local or a name not told.
   */
  private Kind form(Tree tree) {
    if (tree instanceof LiteralTree literal) {
      return literal.getValue() == null ? Kind.NONE : Kind.CONSTANT;
    }
    if (tree instanceof ParenthesizedTree parenthesized) {
      return form(parenthesized.getExpression());
    }
    if (tree instanceof TypeCastTree cast) {
      return form(cast.getExpression());
    }
    if (tree instanceof UnaryTree unary) {
      return switch (unary.getKind()) {
        case UNARY_PLUS, UNARY_MINUS, BITWISE_COMPLEMENT, LOGICAL_COMPLEMENT ->
            form(unary.getExpression());
        default -> Kind.NONE; // ++ and --
      };
    }
    if (tree instanceof BinaryTree binary) {
      return both(form(binary.getLeftOperand()), form(binary.getRightOperand()));
    }
    if (tree instanceof ConditionalExpressionTree choice) {
      return both(form(choice.getCondition()), both(form(choice.getTrueExpression()),
          form(choice.getFalseExpression())));
    }
    if (tree instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      LocalScopes.Local local = context.scopes().lookUp(name);
      if (local != null) {
        return local.isConstantVariable() ? Kind.UNCERTAIN : Kind.NONE;
      }
      return constantField(context.symbols().resolveField(name));
    }
    if (tree instanceof MemberSelectTree select) {
      ExpressionTree qualifier = select.getExpression();
      if (qualifier instanceof IdentifierTree name
          && context.scopes().lookUp(name.getName().toString()) != null) {
        return Kind.NONE; // 'a.length' of a local array
      }
      Optional<TypeElement> type = context.symbols().resolveType(qualifier);
      if (type.isEmpty()) {
        return Kind.UNCERTAIN;
      }
      return constantField(context.symbols().fieldOf(type.get(), select.getIdentifier()
          .toString()));
    }
    return Kind.NONE;
  }

  private static Kind constantField(Optional<VariableElement> field) {
    return field.isPresent() && field.get().getConstantValue() != null ? Kind.CONSTANT
        : Kind.NONE;
  }

  private static Kind both(Kind a, Kind b) {
    if (a == Kind.NONE || b == Kind.NONE) {
      return Kind.NONE;
    }
    return a == Kind.UNCERTAIN || b == Kind.UNCERTAIN ? Kind.UNCERTAIN : Kind.CONSTANT;
  }

  /**
   * The value of an {@code int} operand that is a constant expression of Java, from
   * {@code tree}: empty outside when it is none; empty inside when ad4j cannot evaluate it, or
   * cannot tell whether it is one.
   */
  Optional<OptionalDouble> intValue(ExpressionTree tree, Operand operand) {
    return switch (of(tree, operand)) {
      case NONE -> Optional.empty();
      case UNCERTAIN -> Optional.of(OptionalDouble.empty());
      case CONSTANT -> Optional.of(((Operand.Constant) operand).knownValue());
    };
  }
}
