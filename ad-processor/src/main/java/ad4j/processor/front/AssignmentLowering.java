package ad4j.processor.front;

import ad4j.processor.ir.Expr;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Lowers assignments to locals and to elements of local arrays: {@code x = e}, {@code x op= e}
 * (arithmetic, shift and bitwise), {@code ++x} and {@code x--}, with Java's conversions and
 * order of evaluation (JLS 15.26, 15.14, 15.15). Apart from {@link ExpressionLowering} because
 * what may be assigned at all is a rule of ad4j's (a differentiable method assigns only its own
 * locals and parameters, and binds an array variable to one array at each point of the code).
 */
final class AssignmentLowering {
  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final ArrayLowering arrays;

  AssignmentLowering(LoweringContext context, ExpressionLowering expressions,
      ArrayLowering arrays) {
    this.context = context;
    this.expressions = expressions;
    this.arrays = arrays;
  }

  /** The local or parameter an assignment writes, or null after reporting why it cannot. */
  LocalScopes.Local assignmentTarget(ExpressionTree variable) {
    if (variable instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      LocalScopes.Local local = context.scopes().lookUp(name);
      // An array variable assigned where it was declared (not in a branch or loop inside its
      // scope) is bound to the new array from there on: the old array stays as it is, and any
      // other variable bound to it too, as in Java. Assigned deeper, it would stand for one
      // array or another depending on the path taken, which ad4j does not follow.
      if (local != null && local.type().isArray() && !local.isBroken()
          && (local.variable() != null || context.variables().needsVariable(name)
              || context.arrays().swappedArrays().contains(name))) {
        unsupported(variable, "array variable '" + name + "' cannot be assigned in a branch or"
            + " loop inside its scope: a differentiable method binds an array variable to one"
            + " array at each point of the code; assign it outside the branch or loop, declare"
            + " another local there, or copy the elements into it ('System.arraycopy')");
        return null;
      }
      if (local != null && local.function() != null) {
        unsupported(variable, "function value '" + name + "' cannot be assigned: ad4j"
            + " specialises a function value by the code it is declared with; declare another"
            + " local");
        return null;
      }
      if (local != null) {
        return local.isBroken() ? null : local;
      }
      if (context.symbols().resolveField(name).isPresent()) {
        unsupported(variable, "assignment to field '" + name + "': a differentiable method may"
            + " assign only its own locals and parameters");
      } else {
        unsupported(variable, "cannot find variable '" + name + "'");
      }
      return null;
    }
    if (variable instanceof MemberSelectTree) {
      unsupported(variable, "assignment to field '" + context.source().of(variable) + "': a"
          + " differentiable method may assign only its own locals and parameters");
    } else if (variable instanceof ArrayAccessTree) {
      unsupported(variable, "this assignment to an array element is not supported: use '=',"
          + " '+=', '-=', '*=', '/=' or '%='");
    } else {
      unsupported(variable, "assignment to " + ExpressionLowering.describe(variable)
          + " is not supported: a"
          + " differentiable method may assign only its own locals and parameters");
    }
    return null;
  }

  /**
   * {@code target = value}, also inside an expression: the value is evaluated, converted to the
   * target's type and stored; the expression's value is the value stored (JLS 15.26.1).
   */
  Operand assignment(AssignmentTree assignment) {
    if (assignment.getVariable() instanceof ArrayAccessTree access) {
      ArrayLowering.ArrayTarget target = arrays.arrayTarget(access);
      Operand value = expressions.lower(assignment.getExpression());
      return target == null || value == null ? null
          : target.store(value, assignment.getExpression());
    }
    LocalScopes.Local target = assignmentTarget(assignment.getVariable());
    if (target != null && target.valueRecord() != null) {
      unsupported(assignment, "an assignment to value record local '" + target.name()
          + "' is supported as a statement of its own, not inside an expression");
      return null;
    }
    ExpressionTree assigned = ExpressionLowering.withoutParentheses(assignment.getExpression());
    if (target == null && (assigned.getKind() == Tree.Kind.LAMBDA_EXPRESSION
        || assigned.getKind() == Tree.Kind.MEMBER_REFERENCE)) {
      // 'f = v -> ...' of a function value is the error at 'f'; lowered, the lambda would add
      // that a lambda may initialise a local, as if that were not what the user means
      return null;
    }
    Operand value = expressions.lower(assignment.getExpression());
    if (target == null) {
      return null;
    }
    if (target.type().isNumeric()) {
      value = expressions.unboxing().number(value); // v = xs.get(i)
    } else if (value != null && value.type().isNumeric() && boxLocal(target, assignment)) {
      target.markBroken();
      return null;
    }
    if (value == null
        || !expressions.conversions()
            .assignable(value, target.type(), assignment.getExpression())) {
      target.markBroken(); // its uses must not add "might not have been initialized"
      return null;
    }
    Operand stored = expressions.conversions().convert(value, target.type());
    context.bind(target, stored);
    // A constant is stored as written, since Java widens it there, but the expression has the
    // target's type: with a double d, (d = 1) / 2 is 0.5 and Math.min(1, d = 1) is a double.
    return Conversions.literalAs(stored, target.type());
  }

  /**
   * {@code v op= e} of a shift or bitwise operator on a local: {@code int}s, {@code long}s and
   * {@code boolean}s, which carry no derivative; narrowed to the local's type as Java does.
   */
  Operand bitwiseAssignment(CompoundAssignmentTree assignment) {
    if (assignment.getVariable() instanceof ArrayAccessTree access) {
      // n[i] op= v on an int[]: n and i once, the element read before v (JLS 15.26.2)
      ArrayLowering.ArrayTarget element = arrays.arrayTarget(access);
      Operand current = element == null ? null : element.read();
      Operand operand = expressions.lower(assignment.getExpression());
      if (current == null || operand == null) {
        return null;
      }
      Operand combined = bitwise(assignment, current, operand);
      return combined == null ? null
          : element.store(expressions.conversions().convert(combined, current.type()), null);
    }
    LocalScopes.Local target = assignmentTarget(assignment.getVariable());
    Operand current = target == null ? null : context.read(target, assignment.getVariable());
    // s += xs.get(i) adds the number (a string local is no target here)
    Operand operand =
        expressions.unboxing().number(expressions.lower(assignment.getExpression()));
    if (current == null || operand == null) {
      if (target != null) {
        target.markBroken(); // its uses must not add "might not have been initialized"
      }
      return null;
    }
    Operand combined = bitwise(assignment, current, operand);
    if (combined == null) {
      target.markBroken();
      return null;
    }
    Operand stored = expressions.conversions().convert(combined, target.type());
    context.bind(target, stored);
    return stored;
  }

  /** {@code current op operand} of a shift or bitwise compound assignment, or null. */
  private Operand bitwise(CompoundAssignmentTree assignment, Operand current, Operand operand) {
    String operator = OperatorLowering.operatorOf(assignment.getKind());
    Optional<NumericType> type =
        OperatorLowering.resultType(operator, current.type(), operand.type());
    if (type.isEmpty() || current.isActive() || operand.isActive()) {
      unsupported(assignment, "compound assignment '" + operator + "=' cannot be applied to '"
          + expressions.operators().typeName(current) + "' and '"
          + expressions.operators().typeName(operand)
          + "': it applies to 'int',"
          + " 'long' and 'boolean' values, which carry no derivative");
      return null;
    }
    return expressions.operators().combine(Operation.infix(operator), current, operand, type.get());
  }

  /**
   * {@code target op= operand} (JLS 15.26.2): the target's value is read before the operand is
   * evaluated, the result is narrowed to the target's type, stored, and is the expression's
   * value.
   */
  Operand compoundAssignment(CompoundAssignmentTree assignment) {
    if (assignment.getVariable() instanceof ArrayAccessTree access) {
      // a[i] op= v: a and i once, the element read before v is evaluated (JLS 15.26.2)
      ArrayLowering.ArrayTarget target = arrays.arrayTarget(access);
      Operand current = target == null ? null : target.read();
      Operand operand =
        expressions.unboxing().number(expressions.lower(assignment.getExpression()));
      if (current == null || operand == null) {
        return null;
      }
      Operand combined = expressions.operators().arithmetic(
          OperatorLowering.operatorOf(assignment.getKind()), current, operand, assignment);
      return combined == null ? null
          : target.store(expressions.conversions().convert(combined, current.type()), null);
    }
    LocalScopes.Local target = assignmentTarget(assignment.getVariable());
    if (target != null && boxLocal(target, assignment)) {
      target.markBroken();
      return null;
    }
    if (target != null && target.type() == NumericType.STRING
        && assignment.getKind() == Tree.Kind.PLUS_ASSIGNMENT) {
      return stringAppend(target, assignment);
    }
    Operand current = target == null ? null : context.read(target, assignment.getVariable());
    // s += xs.get(i) adds the number (a string local is no target here)
    Operand operand =
        expressions.unboxing().number(expressions.lower(assignment.getExpression()));
    if (current == null || operand == null) {
      return null;
    }
    Operand combined = expressions.operators().arithmetic(
        OperatorLowering.operatorOf(assignment.getKind()), current, operand, assignment);
    if (combined == null) {
      return null;
    }
    // Compound assignment narrows implicitly: int i; i += 0.5 is legal.
    Operand stored = expressions.conversions().convert(combined, target.type());
    context.bind(target, stored);
    return stored;
  }

  /**
   * {@code ++x}, {@code x++}, {@code --x}, {@code x--} on a numeric local (JLS 15.14, 15.15):
   * {@code x + 1} converted to x's type is stored; a prefix expression's value is the new value,
   * a postfix expression's the value before.
   */
  Operand increment(UnaryTree increment) {
    Tree.Kind kind = increment.getKind();
    String symbol = kind == Tree.Kind.PREFIX_INCREMENT || kind == Tree.Kind.POSTFIX_INCREMENT
        ? "++" : "--";
    boolean postfix = kind == Tree.Kind.POSTFIX_INCREMENT || kind == Tree.Kind.POSTFIX_DECREMENT;
    Operand one = new Operand.Constant(Expr.atom("1"), NumericType.INT, OptionalDouble.of(1));
    if (increment.getExpression() instanceof ArrayAccessTree access) {
      ArrayLowering.ArrayTarget element = arrays.arrayTarget(access);
      Operand current = element == null ? null : element.read();
      if (current == null) {
        return null;
      }
      Operand next = expressions.operators()
          .arithmetic(symbol.equals("++") ? "+" : "-", current, one, increment);
      Operand stored = next == null ? null
          : element.store(expressions.conversions().convert(next, current.type()), null);
      return postfix || stored == null ? current : stored;
    }
    LocalScopes.Local target = assignmentTarget(increment.getExpression());
    if (target == null) {
      return null;
    }
    if (!target.type().isNumeric() && boxLocal(target, increment)) {
      target.markBroken();
      return null;
    }
    if (!target.type().isNumeric()) {
      unsupported(increment, "operator '" + symbol + "' cannot be applied to '"
          + target.type().keyword() + "'");
      target.markBroken();
      return null;
    }
    Operand current = context.read(target, increment.getExpression());
    if (current == null) {
      return null;
    }
    Operand next = expressions.operators()
        .arithmetic(symbol.equals("++") ? "+" : "-", current, one, increment);
    if (next == null) {
      return null;
    }
    Operand stored = expressions.conversions().convert(next, target.type());
    context.bind(target, stored);
    return postfix ? current : stored;
  }

  /**
   * {@code s += v} of a string local: {@code s = s + v} (JLS 15.26.2), a concatenation whose
   * right operand Java converts to a string as it is (a box's text, not its number unboxed).
   */
  private Operand stringAppend(LocalScopes.Local target, CompoundAssignmentTree assignment) {
    Operand current = context.read(target, assignment.getVariable());
    Operand operand = expressions.lower(assignment.getExpression());
    if (current == null || operand == null) {
      return null;
    }
    Operand joined = expressions.operators().concatenation(assignment,
        assignment.getVariable(), current, assignment.getExpression(), operand);
    if (joined == null) {
      return null;
    }
    context.bind(target, joined);
    return joined;
  }

  /**
   * Reports arithmetic stored into {@code target} when it is a local of a box type ({@code
   * Double d = xs.get(0); d += a;}), which Java unboxes and boxes again: ad4j keeps numbers in
   * primitive locals, since a box is an object and carries no derivative. Whether it did.
   */
  private boolean boxLocal(LocalScopes.Local target, Tree at) {
    if (target.type().isNumeric() || target.referenceType() == null) {
      return false;
    }
    Optional<javax.lang.model.type.PrimitiveType> primitive =
        Unboxing.unboxedType(context.types(), target.referenceType());
    if (primitive.isEmpty()) {
      return false;
    }
    unsupported(at, "'" + target.name() + "' is a local of type '" + target.javaType()
        + "', a box, and this stores a number into it: ad4j computes with numbers in primitive"
        + " locals, and a box (an object) carries no derivative; declare '" + target.name()
        + "' as '" + primitive.get() + "'");
    return true;
  }

  private void unsupported(Tree tree, String message) {
    context.diagnostics().error(tree, message);
  }
}
