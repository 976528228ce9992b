package ad4j.processor.front;

import ad4j.processor.ir.Expr;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.rules.DerivativeRules;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Lowers Java's unary and binary operators: the type of an operator's result (numeric promotion,
 * string concatenation, comparisons), the operators that are not differentiable rejected on
 * values that carry derivatives, and an operation on constants kept as Java text while one on
 * anything else becomes an instruction, active when a derivative can flow from an operand.
 *
 * <p>Apart from {@link ExpressionLowering} because compound assignments, {@code &&}, {@code ||}
 * and the {@code Math} functions combine operands with the same rules, without an operator
 * tree of their own.
 */
final class OperatorLowering {
  static final String STRAIGHT_LINE_ARITHMETIC = "use + - * / %";

  private final LoweringContext context;
  private final Diagnostics diagnostics;
  private final ExpressionLowering expressions;

  OperatorLowering(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.diagnostics = context.diagnostics();
    this.expressions = expressions;
  }

  /** {@code left op right} for an arithmetic operator, both operands numeric. */
  Operand arithmetic(String operator, Operand left, Operand right, Tree at) {
    if (!left.type().isNumeric() || !right.type().isNumeric()) {
      unsupported(at, "operator '" + operator + "' needs numeric operands");
      return null;
    }
    return combine(Operation.infix(operator), left, right,
        NumericType.promote(left.type(), right.type()));
  }

  /** An operand's type as messages name it: its keyword, or its class's simple name. */
  String typeName(Operand operand) {
    return context.javaTypes().referenceTypeOf(operand)
        .filter(mirror -> mirror instanceof javax.lang.model.type.DeclaredType)
        .map(mirror -> ((javax.lang.model.type.DeclaredType) mirror).asElement()
            .getSimpleName().toString())
        .orElse(operand.type().keyword());
  }

  Operand binary(BinaryTree binary) {
    String operator = operatorOf(binary.getKind());
    // Java unboxes an operand of these as soon as it is evaluated; '+' and '==' only where the
    // other operand turns out to be a number
    boolean onNumbers = !operator.equals("+") && !operator.equals("==")
        && !operator.equals("!=");
    Unboxing unboxing = expressions.unboxing();
    Operand left = expressions.lower(binary.getLeftOperand());
    if (onNumbers) {
      left = unboxing.number(left);
    }
    Operand right = expressions.lower(binary.getRightOperand());
    if (onNumbers) {
      right = unboxing.number(right);
    }
    if (left == null || right == null) {
      return null;
    }
    if (!onNumbers && !operator.equals("+") && comparesReturnedBoxes(binary, left, right)) {
      return null;
    }
    boolean leftBox = !onNumbers && unboxing.isBox(left);
    boolean rightBox = !onNumbers && unboxing.isBox(right);
    // a box beside a number, or two boxes added (neither is a String): numbers; two boxes
    // compared with '==' are compared as references
    if (leftBox && rightBox ? operator.equals("+")
        : leftBox && right.type().isNumeric() || rightBox && left.type().isNumeric()) {
      left = unboxing.number(left);
      right = unboxing.number(right);
    }
    Optional<NumericType> type = isNullTest(binary, left, right)
        ? Optional.of(NumericType.BOOLEAN) : resultType(operator, left.type(), right.type());
    if (type.isEmpty()) {
      unsupported(binary, "operator '" + operator + "' cannot be applied to '"
          + typeName(left) + "' and '" + typeName(right) + "'");
      return null;
    }
    boolean differentiable = "+-*/%".contains(operator) || isComparison(operator);
    if ((left.isActive() || right.isActive()) && !differentiable) {
      unsupported(binary, "operator '" + operator + "' is not differentiable: "
          + STRAIGHT_LINE_ARITHMETIC);
      return null;
    }
    if (type.get() == NumericType.STRING) {
      return concatenation(binary, left, right);
    }
    return combine(Operation.infix(operator), left, right, type.get());
  }

  /**
   * {@code a == b} or {@code a != b} where Java compares two objects and one of them is a box
   * that ad4j holds as its number ({@link JavaBoxes}: {@code f.apply(x) == f.apply(x)} of a
   * {@code Function<Double, Double> f}, two boxes made by two calls, not the same object): ad4j
   * would compare numbers. An error, true; false where the other operand is a number, which
   * Java compares with the box's number as ad4j does.
   */
  private boolean comparesReturnedBoxes(BinaryTree binary, Operand left, Operand right) {
    boolean leftBoxed = JavaBoxes.isBoxInJava(context, binary.getLeftOperand());
    boolean rightBoxed = JavaBoxes.isBoxInJava(context, binary.getRightOperand());
    boolean leftObject = leftBoxed || expressions.unboxing().isBox(left)
        || ExpressionLowering.isNull(binary.getLeftOperand());
    boolean rightObject = rightBoxed || expressions.unboxing().isBox(right)
        || ExpressionLowering.isNull(binary.getRightOperand());
    if (!(leftBoxed || rightBoxed) || !leftObject || !rightObject) {
      return false;
    }
    ExpressionTree boxed = leftBoxed ? binary.getLeftOperand() : binary.getRightOperand();
    unsupported(binary, "'" + context.source().of(binary) + "' compares '"
        + context.source().of(boxed) + "', a box in Java that a function over boxes takes or"
        + " returns, by reference (Java's '"
        + (binary.getKind() == Tree.Kind.EQUAL_TO ? "==" : "!=") + "' compares objects, and"
        + " a function over boxes boxes its result at each call), where ad4j specialises the"
        + " function over numbers and would compare the numbers; use the primitive interface"
        + " ('DoubleUnaryOperator', 'DoubleBinaryOperator', 'DoubleSupplier'), or hold the"
        + " value in a 'double' local to compare the numbers");
    return true;
  }

  /**
   * {@code left + right}, a string concatenation. Java calls {@code toString()} on an operand
   * that is an object (JLS 5.1.11), run as written: one that may change state or give another
   * string each time ({@code "v" + counter}, a class whose {@code toString()} counts its calls)
   * makes the concatenation code run as written like an explicit call, an error where a member
   * would run it more than once per call ({@link RepeatedRuns}: an order-2 method's Hessian
   * sweeps, a {@code @Checkpointed} loop's reverse sweep), and never a constant that generated
   * code would write out again at each use. Null after an error.
   */
  private Operand concatenation(BinaryTree binary, Operand left, Operand right) {
    return concatenation(binary, binary.getLeftOperand(), left, binary.getRightOperand(), right);
  }

  /**
   * {@code left + right} as above, written as {@code at} ({@code s + n}, or {@code s += n} of a
   * string local), its operands' trees {@code leftTree} and {@code rightTree}.
   */
  Operand concatenation(Tree at, Tree leftTree, Operand left, Tree rightTree, Operand right) {
    Optional<String> called = changingToString(leftTree, left)
        .or(() -> changingToString(rightTree, right));
    if (called.isEmpty()) {
      return combine(Operation.infix("+"), left, right, NumericType.STRING);
    }
    Operand result = combineAll(Operation.infix("+"), List.of(left, right), NumericType.STRING);
    context.dependences().runsAsWritten(result, called.get(), false);
    if (new RepeatedRuns(context).rejectImplicitCall(at, called.get(),
        context.source().of(at))) {
      return null;
    }
    return result;
  }

  /**
   * {@code operand.toString()}, as a concatenation calls it on {@code value}, where that may
   * change state or give another string when it runs again; empty for a string, a number, a
   * box, {@code null}, an array (its identity), and a method of a class no subclass can
   * override that reads state and changes none ({@link ReadOnlyMethods}), {@code Object}'s and
   * {@code Enum}'s included.
   */
  private Optional<String> changingToString(Tree operand, Operand value) {
    if (!value.type().isReference() || value.type() == NumericType.STRING) {
      return Optional.empty();
    }
    Optional<javax.lang.model.type.TypeMirror> mirror =
        context.javaTypes().referenceTypeOf(value);
    if (mirror.isEmpty()
        || !(mirror.get() instanceof javax.lang.model.type.DeclaredType declared)) {
      return Optional.empty();
    }
    javax.lang.model.element.TypeElement type =
        (javax.lang.model.element.TypeElement) declared.asElement();
    if (expressions.unboxing().isBox(value)
        || type.getQualifiedName().contentEquals("java.lang.String")) {
      return Optional.empty();
    }
    String shown = context.source().of(operand) + ".toString()";
    javax.lang.model.element.ExecutableElement toString = null;
    for (javax.lang.model.element.ExecutableElement method : javax.lang.model.util
        .ElementFilter.methodsIn(context.elements().getAllMembers(type))) {
      if (method.getSimpleName().contentEquals("toString") && method.getParameters().isEmpty()) {
        toString = method;
      }
    }
    if (toString == null) {
      return Optional.of(shown); // an interface: whatever class implements it
    }
    // no subclass (an enum without constant bodies is final too)
    boolean closed = type.getModifiers().contains(javax.lang.model.element.Modifier.FINAL);
    String owner = ((javax.lang.model.element.TypeElement) toString.getEnclosingElement())
        .getQualifiedName().toString();
    if (closed && (owner.equals("java.lang.Object") || owner.equals("java.lang.Enum"))) {
      return Optional.empty(); // the class's name and identity, or the constant's name
    }
    return context.calleeServices().readOnlyMethods().test(toString) && !isRecordsOwn(toString)
        ? Optional.empty() : Optional.of(shown);
  }

  /**
   * A record's {@code toString()} as javac writes it, which calls its components'
   * {@code toString()}: not judged read-only by its (absent) body.
   */
  private static boolean isRecordsOwn(javax.lang.model.element.ExecutableElement method) {
    return method.getEnclosingElement().getKind() == javax.lang.model.element.ElementKind.RECORD
        && method.getModifiers().contains(javax.lang.model.element.Modifier.PUBLIC)
        && method.getSimpleName().contentEquals("toString");
  }

  /**
   * {@code w == null} or {@code w != null} of an array. (Two arrays are not compared: the
   * arrays of generated code need not be the user's code's, such as a callee's result.)
   */
  private static boolean isNullTest(BinaryTree binary, Operand left, Operand right) {
    boolean equality = binary.getKind() == Tree.Kind.EQUAL_TO
        || binary.getKind() == Tree.Kind.NOT_EQUAL_TO;
    return equality
        && (left.type().isArray() && ExpressionLowering.isNull(binary.getRightOperand())
            || right.type().isArray() && ExpressionLowering.isNull(binary.getLeftOperand()));
  }

  Operand unary(UnaryTree unary) {
    Operand operand = expressions.unboxing().number(expressions.lower(unary.getExpression()));
    if (operand == null) {
      return null;
    }
    String symbol = operatorOf(unary.getKind());
    boolean logical = symbol.equals("!");
    if (logical != (operand.type() == NumericType.BOOLEAN)
        || (symbol.equals("~") && !operand.type().isIntegral())) {
      unsupported(unary, "operator '" + symbol + "' cannot be applied to '"
          + operand.type().keyword() + "'");
      return null;
    }
    if (operand instanceof Operand.Constant constant) {
      String inner = constant.expression().toString();
      boolean wrap = inner.startsWith("-") || inner.startsWith("+");
      Expr text = Expr.source(symbol + (wrap ? "(" + inner + ")" : inner),
          Expr.unaryPrecedence());
      OptionalDouble known = constant.knownValue();
      if (symbol.equals("-") && known.isPresent()) {
        known = OptionalDouble.of(negated(known.getAsDouble(), constant.type()));
      } else if (!symbol.equals("+")) {
        known = OptionalDouble.empty();
      }
      return new Operand.Constant(text, constant.type().promoted(), known);
    }
    // unary numeric promotion (JLS 5.6.1): -c, ~c and +c of a char are ints
    NumericType promoted = operand.type().promoted();
    return switch (symbol) {
      case "+" -> expressions.conversions().convert(operand, promoted);
      case "-" -> context.emit(Operation.NEGATE, List.of(operand), promoted,
          operand.isActive());
      case "!" -> context.emit(Operation.NOT, List.of(operand), NumericType.BOOLEAN, false);
      default -> context.emit(Operation.COMPLEMENT, List.of(operand), promoted, false);
    };
  }

  /**
   * {@code left op right}: a constant when both are, else an instruction. The constant's value
   * is known where Java's is an {@code int} of two known {@code int}s ({@code 1 / 1}), which
   * decides the type of a {@code ?:} beside a {@code char} (JLS 15.25) as it does in javac.
   */
  Operand combine(Operation operation, Operand left, Operand right, NumericType type) {
    if (left instanceof Operand.Constant l && right instanceof Operand.Constant r
        && !mayDivideByZero(operation, r, type)) {
      return new Operand.Constant(Expr.binary(operation.name(), l.expression(), r.expression()),
          type, intValue(operation.name(), l, r, type));
    }
    if (type == NumericType.FLOAT && operation.form() == Operation.Form.INFIX
        && operation.name().length() == 1 && "+-*/%".contains(operation.name())) {
      left = expressions.conversions().asFloatOperand(left);
      right = expressions.conversions().asFloatOperand(right);
    }
    return combineAll(operation, List.of(left, right), type);
  }

  /**
   * Whether {@code left op right} is an integer division or remainder by {@code divisor}, a
   * constant not known to be non-zero ({@code 3 / Z} of a static final {@code Z = 0}): it
   * throws where the user's method computes it, so it is an instruction, which runs there
   * even when nothing uses its value, not a constant's text, written only where it is used.
   */
  private static boolean mayDivideByZero(Operation operation, Operand.Constant divisor,
      NumericType type) {
    return type.isIntegral()
        && (operation.equals(Operation.DIVIDE) || operation.equals(Operation.REMAINDER))
        && (divisor.knownValue().isEmpty() || divisor.knownValue().getAsDouble() == 0);
  }

  /**
   * {@code -value} as Java negates a constant of {@code type}: the least {@code int} or
   * {@code long} negated is itself (JLS 15.15.4), not its opposite, which that type cannot hold;
   * an integer's {@code -0} is {@code 0}, not the {@code double} -0.0.
   */
  private static double negated(double value, NumericType type) {
    if (type == NumericType.INT && value == Integer.MIN_VALUE
        || type == NumericType.LONG && value == Long.MIN_VALUE) {
      return value;
    }
    return type.isIntegral() && value == 0 ? 0.0 : -value;
  }

  /**
   * The value of {@code left op right} in {@code int} arithmetic (wrapping, truncating, as
   * Java computes it), when both are {@code int} constants of known value and the result is an
   * {@code int}; empty otherwise, and for a division or remainder by zero, which throws.
   */
  private static OptionalDouble intValue(String operator, Operand.Constant left,
      Operand.Constant right, NumericType type) {
    if (type != NumericType.INT || left.type() != NumericType.INT
        || right.type() != NumericType.INT || left.knownValue().isEmpty()
        || right.knownValue().isEmpty()) {
      return OptionalDouble.empty();
    }
    int a = (int) left.knownValue().getAsDouble();
    int b = (int) right.knownValue().getAsDouble();
    return switch (operator) {
      case "+" -> OptionalDouble.of(a + b);
      case "-" -> OptionalDouble.of(a - b);
      case "*" -> OptionalDouble.of(a * b);
      case "/" -> b == 0 ? OptionalDouble.empty() : OptionalDouble.of(a / b);
      case "%" -> b == 0 ? OptionalDouble.empty() : OptionalDouble.of(a % b);
      case "<<" -> OptionalDouble.of(a << b);
      case ">>" -> OptionalDouble.of(a >> b);
      case ">>>" -> OptionalDouble.of(a >>> b);
      case "&" -> OptionalDouble.of(a & b);
      case "|" -> OptionalDouble.of(a | b);
      case "^" -> OptionalDouble.of(a ^ b);
      default -> OptionalDouble.empty();
    };
  }

  /** An instruction whose result is active when derivatives can flow from an argument. */
  Operand combineAll(Operation operation, List<Operand> arguments, NumericType type) {
    Optional<DerivativeRules.Rule> rule = DerivativeRules.forOperation(operation);
    boolean active = false;
    for (int i = 0; i < arguments.size(); i++) {
      int index = i;
      active |= arguments.get(i).isActive()
          && rule.map(r -> r.carriesDerivative(index)).orElse(true);
    }
    return context.emit(operation, arguments, type, active && type.isFloatingPoint());
  }

  static Optional<NumericType> resultType(String operator, NumericType left,
      NumericType right) {
    if (operator.equals("+") && (left == NumericType.STRING || right == NumericType.STRING)
        && left != NumericType.VOID && right != NumericType.VOID) {
      return Optional.of(NumericType.STRING); // string concatenation
    }
    boolean bothNumeric = left.isNumeric() && right.isNumeric();
    boolean bothBoolean = left == NumericType.BOOLEAN && right == NumericType.BOOLEAN;
    return switch (operator) {
      case "+", "-", "*", "/", "%" ->
          bothNumeric ? Optional.of(NumericType.promote(left, right)) : Optional.empty();
      case "<", ">", "<=", ">=" -> bothNumeric ? Optional.of(NumericType.BOOLEAN) : Optional.empty();
      case "==", "!=" -> bothNumeric || bothBoolean
          || (left.isReference() && right.isReference())
          ? Optional.of(NumericType.BOOLEAN) : Optional.empty();
      case "<<", ">>", ">>>" -> left.isIntegral() && right.isIntegral()
          ? Optional.of(left.promoted()) : Optional.empty();
      case "&", "|", "^" -> {
        if (bothBoolean) {
          yield Optional.of(NumericType.BOOLEAN);
        }
        yield left.isIntegral() && right.isIntegral()
            ? Optional.of(NumericType.promote(left, right)) : Optional.empty();
      }
      default -> Optional.empty();
    };
  }

  private static boolean isComparison(String operator) {
    return switch (operator) {
      case "<", ">", "<=", ">=", "==", "!=" -> true;
      default -> false;
    };
  }

  static String operatorOf(Tree.Kind kind) {
    return switch (kind) {
      case PLUS, PLUS_ASSIGNMENT, UNARY_PLUS -> "+";
      case MINUS, MINUS_ASSIGNMENT, UNARY_MINUS -> "-";
      case MULTIPLY, MULTIPLY_ASSIGNMENT -> "*";
      case DIVIDE, DIVIDE_ASSIGNMENT -> "/";
      case REMAINDER, REMAINDER_ASSIGNMENT -> "%";
      case LEFT_SHIFT, LEFT_SHIFT_ASSIGNMENT -> "<<";
      case RIGHT_SHIFT, RIGHT_SHIFT_ASSIGNMENT -> ">>";
      case UNSIGNED_RIGHT_SHIFT, UNSIGNED_RIGHT_SHIFT_ASSIGNMENT -> ">>>";
      case AND, AND_ASSIGNMENT -> "&";
      case OR, OR_ASSIGNMENT -> "|";
      case XOR, XOR_ASSIGNMENT -> "^";
      case BITWISE_COMPLEMENT -> "~";
      case LESS_THAN -> "<";
      case GREATER_THAN -> ">";
      case LESS_THAN_EQUAL -> "<=";
      case GREATER_THAN_EQUAL -> ">=";
      case EQUAL_TO -> "==";
      case NOT_EQUAL_TO -> "!=";
      case CONDITIONAL_AND -> "&&";
      case CONDITIONAL_OR -> "||";
      case LOGICAL_COMPLEMENT -> "!";
      default -> kind.toString();
    };
  }


  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
