package ad4j.processor.front;

import ad4j.processor.front.Symbols.CallTarget;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Expr;
import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Lowers expressions to operands: constant subexpressions stay Java text with resolved names;
 * everything that depends on a parameter becomes instructions. Returns null after recording an
 * error, so that callers can go on and report further errors.
 *
 * <p>This class dispatches on the kind of expression and lowers literals itself; names are
 * {@link NameLowering}'s, operators {@link OperatorLowering}'s, casts and the conversions
 * between types {@link Conversions}', arrays {@link ArrayLowering}'s, assignments
 * {@link AssignmentLowering}'s, static fields {@link StaticFieldReads}', {@code &&}, {@code ||}
 * and {@code ?:}
 * {@link ConditionalLowering}'s, calls {@link CallLowering}'s, value records
 * {@link RecordLowering}'s, function values {@link FunctionValues}', stream pipelines
 * {@link StreamLowering}'s and {@code instanceof} {@link TypeTests}'.
 */
final class ExpressionLowering {
  /** Where a function value may be, for messages. */
  static final String FUNCTION_USES = "ad4j specialises a function value where its code is"
      + " known, so a lambda or method reference may initialise a local of a functional"
      + " interface type (called in this method), be given to a stream operation or be passed"
      + " to a @Differentiable method that takes a function; it cannot be stored in a field,"
      + " returned or passed to other methods";

  private final LoweringContext context;
  private final Diagnostics diagnostics;
  private final ObjectValues objects;
  private final Unboxing unboxing;
  private final RecordLowering records;
  private final FunctionValues functions;
  private final StreamLowering streams;
  private final ArrayLowering arrays;
  private final AssignmentLowering assignments;
  private final StaticFieldReads staticFields;
  private final ConditionalLowering conditionals;
  private final CallLowering calls;
  private SwitchLowering switches;
  private final Conversions conversions;
  private final OperatorLowering operators;
  private final NameLowering names;
  private final TypeTests typeTests;

  ExpressionLowering(LoweringContext context) {
    this.context = context;
    this.diagnostics = context.diagnostics();
    this.conversions = new Conversions(context, this);
    this.operators = new OperatorLowering(context, this);
    this.objects = new ObjectValues(context);
    this.unboxing = new Unboxing(context);
    this.records = new RecordLowering(context, this);
    this.functions = new FunctionValues(context, this);
    this.streams = new StreamLowering(context, this, functions);
    this.arrays = new ArrayLowering(context, this, objects);
    this.assignments = new AssignmentLowering(context, this, arrays);
    this.staticFields = new StaticFieldReads(context, this);
    this.conditionals = new ConditionalLowering(context, this);
    this.calls = new CallLowering(context, this, objects, arrays);
    this.names = new NameLowering(context, this, objects, arrays, staticFields);
    this.typeTests = new TypeTests(context, this);
  }

  /** Where values are converted between types, as Java's conversions do. */
  Conversions conversions() {
    return conversions;
  }

  /** Where operators are lowered and operands combined. */
  OperatorLowering operators() {
    return operators;
  }

  /** Where values of objects and strings are read and their methods called. */
  ObjectValues objects() {
    return objects;
  }

  /** Where simple and qualified names are lowered. */
  NameLowering names() {
    return names;
  }

  /** Where stream pipelines are lowered to loops. */
  StreamLowering streams() {
    return streams;
  }

  /** Where calls of function values with known code are lowered. */
  FunctionValues functions() {
    return functions;
  }

  /** Where values of value records are lowered, flattened. */
  RecordLowering records() {
    return records;
  }

  /** Where switch expressions are lowered: with the statements of their cases. */
  void useSwitches(SwitchLowering switchLowering) {
    this.switches = switchLowering;
  }

  /** Where switch expressions are lowered (a value record's too: {@link RecordChoices}). */
  SwitchLowering switches() {
    return switches;
  }

  /** Java's unboxing where code takes a number ({@link Unboxing}). */
  Unboxing unboxing() {
    return unboxing;
  }

  Operand lower(ExpressionTree expression) {
    Tree outer = context.enterExpression(expression);
    try {
      return lowerExpression(expression);
    } finally {
      context.leaveExpression(outer);
    }
  }

  private Operand lowerExpression(ExpressionTree expression) {
    switch (expression.getKind()) {
      case PARENTHESIZED -> {
        Operand inner = lower(((ParenthesizedTree) expression).getExpression());
        if (inner instanceof Operand.Constant constant && !constant.type().isReference()) {
          return conversions.typedAs(conversions.narrowTypeOf(constant), new Operand.Constant(
              Expr.atom("(" + constant.expression() + ")"), constant.type(),
              constant.knownValue()));
        }
        return inner;
      }
      case INT_LITERAL, LONG_LITERAL, FLOAT_LITERAL, DOUBLE_LITERAL, CHAR_LITERAL -> {
        return literal((LiteralTree) expression);
      }
      case BOOLEAN_LITERAL -> {
        return new Operand.Constant(Expr.atom(context.source().of(expression)),
            NumericType.BOOLEAN, OptionalDouble.empty());
      }
      case STRING_LITERAL -> {
        // a String carries no derivative: an argument of a call run as written, or text joined
        // to other values with '+'
        return new Operand.Constant(Expr.atom(context.source().of(expression)),
            NumericType.STRING, OptionalDouble.empty());
      }
      case NULL_LITERAL -> {
        // no object: compared with '==', assigned to a local of a reference type
        return context.javaTypes().referenceConstant("null", context.types().getNullType());
      }
      case IDENTIFIER -> {
        return names.identifier((IdentifierTree) expression);
      }
      case MEMBER_SELECT -> {
        return names.memberSelect((MemberSelectTree) expression);
      }
      case PLUS, MINUS, MULTIPLY, DIVIDE, REMAINDER, LEFT_SHIFT, RIGHT_SHIFT,
          UNSIGNED_RIGHT_SHIFT, AND, OR, XOR, LESS_THAN, GREATER_THAN, LESS_THAN_EQUAL,
          GREATER_THAN_EQUAL, EQUAL_TO, NOT_EQUAL_TO -> {
        return operators.binary((BinaryTree) expression);
      }
      case CONDITIONAL_AND, CONDITIONAL_OR -> {
        return conditionals.shortCircuit((BinaryTree) expression);
      }
      case UNARY_MINUS, UNARY_PLUS, BITWISE_COMPLEMENT, LOGICAL_COMPLEMENT -> {
        return operators.unary((UnaryTree) expression);
      }
      case PREFIX_INCREMENT, POSTFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_DECREMENT -> {
        return assignments.increment((UnaryTree) expression);
      }
      case TYPE_CAST -> {
        return conversions.cast((TypeCastTree) expression);
      }
      case METHOD_INVOCATION -> {
        return calls.call((MethodInvocationTree) expression);
      }
      case CONDITIONAL_EXPRESSION -> {
        return conditionals.conditional((ConditionalExpressionTree) expression);
      }
      case SWITCH_EXPRESSION -> {
        return switches.expression((SwitchExpressionTree) expression);
      }
      case ASSIGNMENT -> {
        return assignments.assignment((AssignmentTree) expression);
      }
      case PLUS_ASSIGNMENT, MINUS_ASSIGNMENT, MULTIPLY_ASSIGNMENT, DIVIDE_ASSIGNMENT,
          REMAINDER_ASSIGNMENT -> {
        return assignments.compoundAssignment((CompoundAssignmentTree) expression);
      }
      case AND_ASSIGNMENT, OR_ASSIGNMENT, XOR_ASSIGNMENT, LEFT_SHIFT_ASSIGNMENT,
          RIGHT_SHIFT_ASSIGNMENT, UNSIGNED_RIGHT_SHIFT_ASSIGNMENT -> {
        // e >>= 1, flags |= bit, n[i] <<= 2: on integers and booleans
        return assignments.bitwiseAssignment((CompoundAssignmentTree) expression);
      }
      case NEW_ARRAY -> {
        return arrays.newArray((NewArrayTree) expression, null, false);
      }
      case NEW_CLASS -> {
        return creation((NewClassTree) expression, null);
      }
      case LAMBDA_EXPRESSION, MEMBER_REFERENCE -> {
        unsupported(expression, (expression.getKind() == Tree.Kind.LAMBDA_EXPRESSION
            ? "lambda expression" : "method reference '" + context.source().of(expression)
            + "'") + " is not supported here: " + FUNCTION_USES
            + annotateTakerAdvice(context, expression).map(advice -> "; " + advice).orElse(""));
        return null;
      }
      case ARRAY_ACCESS -> {
        return arrays.element((ArrayAccessTree) expression);
      }
      case INSTANCE_OF -> {
        return typeTests.lower((com.sun.source.tree.InstanceOfTree) expression);
      }
      default -> {
        unsupported(expression, describe(expression) + " '" + context.source().of(expression)
            + "' is not supported in a differentiable method");
        return null;
      }
    }
  }

  // ---- expression kinds --------------------------------------------------------------------

  private Operand literal(LiteralTree literal) {
    NumericType type = switch (literal.getKind()) {
      case LONG_LITERAL -> NumericType.LONG;
      case FLOAT_LITERAL -> NumericType.FLOAT;
      case DOUBLE_LITERAL -> NumericType.DOUBLE;
      default -> NumericType.INT;
    };
    Object value = literal.getValue();
    OptionalDouble known = value == null
        ? OptionalDouble.empty() : OptionalDouble.of(ConstantText.asDouble(value));
    return conversions.typedAs(
        literal.getKind() == Tree.Kind.CHAR_LITERAL ? TypeKind.CHAR : null,
        new Operand.Constant(Expr.atom(context.source().of(literal)), type, known));
  }

  /** Whether {@code operand} is an array of another element type or rank: {@code long[]}. */
  boolean isOtherArray(Operand operand) {
    return objects.isOtherArray(operand);
  }

  /** {@code array[index]} of such an array: its element, as written. */
  Operand otherElement(Operand array, Operand index, Tree at) {
    return objects.element(array, index, at);
  }

  /** Whether {@code expression} is {@code null}, in parentheses or not. */
  static boolean isNull(ExpressionTree expression) {
    return withoutParentheses(expression).getKind() == Tree.Kind.NULL_LITERAL;
  }

  static ExpressionTree withoutParentheses(ExpressionTree expression) {
    ExpressionTree unwrapped = expression;
    while (unwrapped instanceof ParenthesizedTree parenthesized) {
      unwrapped = parenthesized.getExpression();
    }
    return unwrapped;
  }

  // ---- what other lowerings ask of expressions -------------------------------------------

  /**
   * {@code new Type(arguments)} of an object, initializing a variable declared of type
   * {@code target} (null: anywhere else; {@link ObjectValues#construction}).
   */
  Operand creation(NewClassTree creation, TypeMirror target) {
    List<Operand> arguments = new ArrayList<>();
    for (ExpressionTree argument : creation.getArguments()) {
      arguments.add(lower(argument));
    }
    return arguments.contains(null) ? null
        : objects.construction(creation, arguments, target);
  }

  /** {@link ArrayLowering#newArray}. */
  Operand newArray(NewArrayTree creation, NumericType declared, boolean neverWritten) {
    return arrays.newArray(creation, declared, neverWritten);
  }

  /** {@link ArrayLowering#cloneOf(MethodInvocationTree, ExpressionTree, boolean)}. */
  Operand cloneOf(MethodInvocationTree invocation, ExpressionTree receiver, boolean onlyRead) {
    return arrays.cloneOf(invocation, receiver, onlyRead);
  }

  /** {@link ArrayLowering#cloneOf(MethodInvocationTree, Operand, boolean)}. */
  Operand cloneOf(MethodInvocationTree invocation, Operand array) {
    return arrays.cloneOf(invocation, array, false);
  }

  /** {@link ArrayLowering#arrayOf(List, Tree)}. */
  Operand arrayOf(List<Operand> values, Tree at) {
    return arrays.arrayOf(values, at);
  }

  /** {@link CallLowering#callArgument}. */
  Operand callArgument(ExpressionTree argument) {
    return calls.callArgument(argument);
  }

  /** {@link NamedMethodCalls#resolvedCall}. */
  Operand resolvedCall(MethodInvocationTree invocation, ExpressionTree select, String name,
      CallTarget target, List<Operand> arguments, String shown) {
    return calls.namedCalls().resolvedCall(invocation, select, name, target, arguments, shown);
  }

  /** {@link InstanceCalls#recordMethodCall}. */
  Operand recordMethodCall(TypeElement record, ExecutableElement method,
      List<Operand> arguments, MethodInvocationTree invocation, String shown) {
    return calls.recordMethodCall(record, method, arguments, invocation, shown);
  }

  /** {@link CallLowering#lowerForEffect}. */
  void lowerForEffect(MethodInvocationTree invocation) {
    calls.lowerForEffect(invocation);
  }

  /** {@link MathCalls#mathFunction}. */
  Operand mathFunction(String name, List<Operand> arguments, MethodInvocationTree at) {
    return calls.mathFunction(name, arguments, at);
  }

  // ---- helpers -----------------------------------------------------------------------------

  static Block append(Block block, Statement statement) {
    List<Statement> statements = new ArrayList<>(block.statements());
    statements.add(statement);
    return new Block(statements);
  }

  /**
   * Advice for a function passed to a method of the sources that is not
   * {@code @Differentiable}, an integrator or a root finder written as a plain helper: annotated,
   * it is differentiated at each call for the function passed. Empty for anything else.
   */
  static java.util.Optional<String> annotateTakerAdvice(LoweringContext context,
      ExpressionTree function) {
    com.sun.source.util.TreePath path = context.resolution().pathIn(function);
    if (path == null || path.getParentPath() == null
        || !(path.getParentPath().getLeaf() instanceof MethodInvocationTree invocation)
        || !invocation.getArguments().contains(function)
        || !(context.trees().getElement(path.getParentPath())
            instanceof javax.lang.model.element.ExecutableElement method)
        || CalleeResolver.isDifferentiable(method) || !StaticMembers.isStatic(method)
        || context.trees().getPath(method) == null) {
      return java.util.Optional.empty();
    }
    String taker = method.getEnclosingElement().getSimpleName() + "." + method.getSimpleName();
    return java.util.Optional.of("annotate '" + taker + "' with @Differentiable, and ad4j"
        + " differentiates it at each call for the function passed");
  }

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }

  /** A readable name for a tree's kind: {@code SWITCH_EXPRESSION} becomes "switch expression". */
  static String describe(Tree tree) {
    return tree.getKind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
