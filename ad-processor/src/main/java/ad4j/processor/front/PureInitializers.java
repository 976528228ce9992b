package ad4j.processor.front;

import ad4j.processor.ir.Expr;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * The initializer of a {@code static final} field that generated code cannot read (a private
 * one: {@code private static final double SQRT2PI = Math.sqrt(2 * Math.PI)}), as Java text that
 * generated code can evaluate itself with the same result: when it is pure and exact, built only
 * from literals, compile-time constants, arithmetic and functions whose result Java specifies to
 * the bit ({@code Math.sqrt}, {@code abs}, {@code min}, {@code max}, {@code floor}, {@code ceil},
 * {@code rint}, and every {@code StrictMath} function).
 */
final class PureInitializers {
  private static final Set<String> EXACT_MATH = Set.of("sqrt", "abs", "min", "max", "floor",
      "ceil", "rint");
  /** StrictMath functions of doubles returning double, specified to the bit (fdlibm). */
  private static final Set<String> STRICT_DOUBLE = Set.of("sin", "cos", "tan", "asin", "acos",
      "atan", "atan2", "sinh", "cosh", "tanh", "exp", "expm1", "log", "log10", "log1p", "cbrt",
      "pow", "hypot");

  private final LoweringContext context;

  PureInitializers(LoweringContext context) {
    this.context = context;
  }

  /**
   * The initializer's text, converted to the field's type where the assignment converts it
   * ({@code (double) (7 / 2)}), or empty when it is not pure and exact or cannot be found.
   */
  Optional<Expr> textOf(VariableElement field, NumericType type) {
    if (!StaticMembers.isStatic(field)
        || !field.getModifiers().contains(Modifier.FINAL)) {
      return Optional.empty();
    }
    if (context.trees() == null) {
      return Optional.empty(); // a compiler that gives processors no syntax trees (ECJ)
    }
    if (!(field.getEnclosingElement() instanceof TypeElement owner)
        || !StaticInitialization.onlyJdkCode(owner, context.trees())) {
      // its initialisation may run the method before the field is set, which Java then reads
      // as 0: read the field where the method reads it (PrivateFields)
      return Optional.empty();
    }
    com.sun.source.util.TreePath path = context.trees().getPath(field);
    if (path == null || !(path.getLeaf() instanceof VariableTree variable)
        || variable.getInitializer() == null) {
      return Optional.empty();
    }
    // the initializer is read in its own file, its names in its own class (a field of a
    // method taking a function, or of a record, of another file)
    context.resolution().adopt(variable, path.getCompilationUnit());
    Symbols outer = context.resolution().resolveIn(owner);
    try {
      return text(variable.getInitializer()).filter(typed -> typed.type().widensTo(type))
          .map(typed -> Expr.atom(typed.type() == type ? "(" + typed.text() + ")"
              : "((" + type.keyword() + ") (" + typed.text() + "))"));
    } finally {
      context.resolution().resolveAs(outer);
    }
  }

  /** Java text and its type. */
  private record Typed(String text, NumericType type) {}

  private Optional<Typed> text(ExpressionTree expression) {
    switch (expression.getKind()) {
      case INT_LITERAL:
        return Optional.of(new Typed(context.source().of(expression), NumericType.INT));
      case LONG_LITERAL:
        return Optional.of(new Typed(context.source().of(expression), NumericType.LONG));
      case FLOAT_LITERAL:
        return Optional.of(new Typed(context.source().of(expression), NumericType.FLOAT));
      case DOUBLE_LITERAL:
        return Optional.of(new Typed(context.source().of(expression), NumericType.DOUBLE));
      case PARENTHESIZED:
        return text(((ParenthesizedTree) expression).getExpression())
            .map(t -> new Typed("(" + t.text() + ")", t.type()));
      case UNARY_MINUS, UNARY_PLUS: {
        String sign = expression.getKind() == Tree.Kind.UNARY_MINUS ? "-" : "+";
        // '- -2.0' written without its space would be '--2.0', a decrement of a literal
        return text(((UnaryTree) expression).getExpression())
            .map(t -> new Typed(sign + (t.text().startsWith("-") || t.text().startsWith("+")
                ? "(" + t.text() + ")" : t.text()), t.type()));
      }
      case PLUS, MINUS, MULTIPLY, DIVIDE: {
        BinaryTree binary = (BinaryTree) expression;
        Optional<Typed> left = text(binary.getLeftOperand());
        Optional<Typed> right = text(binary.getRightOperand());
        String operator = OperatorLowering.operatorOf(expression.getKind());
        return left.isPresent() && right.isPresent()
            ? Optional.of(new Typed(left.get().text() + " " + operator + " " + right.get().text(),
                NumericType.promote(left.get().type(), right.get().type())))
            : Optional.empty();
      }
      case IDENTIFIER:
        return context.symbols().resolveField(((IdentifierTree) expression).getName().toString())
            .flatMap(PureInitializers::constant);
      case MEMBER_SELECT: {
        MemberSelectTree select = (MemberSelectTree) expression;
        return context.symbols().resolveType(select.getExpression())
            .flatMap(owner -> context.symbols().fieldOf(owner,
                select.getIdentifier().toString()))
            .flatMap(PureInitializers::constant);
      }
      case METHOD_INVOCATION:
        return call((MethodInvocationTree) expression);
      default:
        return Optional.empty();
    }
  }

  private Optional<Typed> call(MethodInvocationTree invocation) {
    if (!(invocation.getMethodSelect() instanceof MemberSelectTree select)
        || !Symbols.isName(select.getExpression())) {
      return Optional.empty();
    }
    Optional<MathOwner> owner = context.symbols().resolveType(select.getExpression())
        .flatMap(type -> MathOwner.named(type.getQualifiedName().toString()));
    String name = select.getIdentifier().toString();
    boolean exact = owner.isPresent() && (EXACT_MATH.contains(name)
        || owner.get() == MathOwner.STRICT_MATH && STRICT_DOUBLE.contains(name));
    if (!exact || owner.get() != MathOwner.MATH && owner.get() != MathOwner.STRICT_MATH) {
      return Optional.empty();
    }
    List<String> arguments = new ArrayList<>();
    NumericType widest = NumericType.INT;
    for (ExpressionTree argument : invocation.getArguments()) {
      Optional<Typed> typed = text(argument);
      if (typed.isEmpty()) {
        return Optional.empty();
      }
      arguments.add(typed.get().text());
      widest = NumericType.promote(widest, typed.get().type());
    }
    // abs, min and max keep their arguments' type; the others compute in double
    NumericType type = Set.of("abs", "min", "max").contains(name) ? widest : NumericType.DOUBLE;
    return Optional.of(new Typed(context.mathClassName(owner.get()) + "." + name + "("
        + String.join(", ", arguments) + ")", type));
  }

  /** A numeric compile-time constant's literal text and type. */
  private static Optional<Typed> constant(VariableElement field) {
    Object value = field.getConstantValue();
    if (value == null || value instanceof Boolean || value instanceof String
        || value instanceof Character) {
      return Optional.empty();
    }
    Optional<NumericType> type = ConstantText.valueType(field.asType().getKind());
    Optional<Expr> text = ConstantText.literal(value);
    return type.isPresent() && text.isPresent()
        ? Optional.of(new Typed(text.get().toString(), type.get())) : Optional.empty();
  }
}
