package ad4j.processor.front;

import ad4j.processor.front.Symbols.CallTarget;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.rules.DerivativeRules;
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
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;

/**
 * Lowers expressions to operands: constant subexpressions stay Java text with resolved names;
 * everything that depends on a parameter becomes instructions. Returns null after recording an
 * error, so that callers can go on and report further errors.
 *
 * <p>This class dispatches on the kind of expression and lowers names, operators and casts
 * itself; arrays are {@link ArrayLowering}'s, assignments {@link AssignmentLowering}'s, static
 * fields {@link StaticFieldReads}', {@code &&}, {@code ||} and {@code ?:}
 * {@link ConditionalLowering}'s, calls {@link CallLowering}'s, value records
 * {@link RecordLowering}'s, function values {@link FunctionValues}' and stream pipelines
 * {@link StreamLowering}'s.
 */
final class ExpressionLowering {
  static final String STRAIGHT_LINE_ARITHMETIC = "use + - * / %";
  /** Where a function value may be, for messages. */
  static final String FUNCTION_USES = "ad4j specialises a function value where its code is"
      + " known, so a lambda or method reference may initialise a local of a functional"
      + " interface type (called in this method) or be given to a stream operation; it cannot"
      + " be stored in a field, returned or passed to a method";

  private final LoweringContext context;
  private final Diagnostics diagnostics;
  private final ObjectValues objects;
  private final RecordLowering records;
  private final FunctionValues functions;
  private final StreamLowering streams;
  private final ArrayLowering arrays;
  private final AssignmentLowering assignments;
  private final StaticFieldReads staticFields;
  private final ConditionalLowering conditionals;
  private final CallLowering calls;
  private SwitchLowering switches;
  /** The constants whose Java type is {@code char}, {@code short} or {@code byte}: {@link JavaTypes#narrowConstants}. */
  private final Map<Operand, TypeKind> narrowConstants;

  ExpressionLowering(LoweringContext context) {
    this.context = context;
    this.diagnostics = context.diagnostics();
    this.objects = new ObjectValues(context);
    this.records = new RecordLowering(context, this);
    this.narrowConstants = context.javaTypes().narrowConstants();
    this.functions = new FunctionValues(context, this);
    this.streams = new StreamLowering(context, this, functions);
    this.arrays = new ArrayLowering(context, this, objects);
    this.assignments = new AssignmentLowering(context, this, arrays);
    this.staticFields = new StaticFieldReads(context, this);
    this.conditionals = new ConditionalLowering(context, this);
    this.calls = new CallLowering(context, this, objects, arrays);
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
          return typedAs(narrowConstants.get(constant), new Operand.Constant(
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
        return identifier((IdentifierTree) expression);
      }
      case MEMBER_SELECT -> {
        return memberSelect((MemberSelectTree) expression);
      }
      case PLUS, MINUS, MULTIPLY, DIVIDE, REMAINDER, LEFT_SHIFT, RIGHT_SHIFT,
          UNSIGNED_RIGHT_SHIFT, AND, OR, XOR, LESS_THAN, GREATER_THAN, LESS_THAN_EQUAL,
          GREATER_THAN_EQUAL, EQUAL_TO, NOT_EQUAL_TO -> {
        return binary((BinaryTree) expression);
      }
      case CONDITIONAL_AND, CONDITIONAL_OR -> {
        return conditionals.shortCircuit((BinaryTree) expression);
      }
      case UNARY_MINUS, UNARY_PLUS, BITWISE_COMPLEMENT, LOGICAL_COMPLEMENT -> {
        return unary((UnaryTree) expression);
      }
      case PREFIX_INCREMENT, POSTFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_DECREMENT -> {
        return assignments.increment((UnaryTree) expression);
      }
      case TYPE_CAST -> {
        return cast((TypeCastTree) expression);
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
        NewClassTree creation = (NewClassTree) expression;
        List<Operand> arguments = new ArrayList<>();
        for (ExpressionTree argument : creation.getArguments()) {
          arguments.add(lower(argument));
        }
        return arguments.contains(null) ? null : objects.construction(creation, arguments);
      }
      case LAMBDA_EXPRESSION, MEMBER_REFERENCE -> {
        unsupported(expression, (expression.getKind() == Tree.Kind.LAMBDA_EXPRESSION
            ? "lambda expression" : "method reference '" + context.source().of(expression)
            + "'") + " is not supported here: " + FUNCTION_USES);
        return null;
      }
      case ARRAY_ACCESS -> {
        return arrays.element((ArrayAccessTree) expression);
      }
      case INSTANCE_OF -> {
        unsupported(expression, describe(expression) + " '" + context.source().of(expression)
            + "' is not supported in a differentiable method");
        // the pattern's variables ('o instanceof Double d') add no errors where they are read
        new com.sun.source.util.TreeScanner<Void, Void>() {
          @Override
          public Void visitVariable(com.sun.source.tree.VariableTree binding, Void unused) {
            context.scopes().declareBroken(binding.getName().toString());
            return super.visitVariable(binding, unused);
          }
        }.scan(expression, null);
        return null;
      }
      default -> {
        unsupported(expression, describe(expression) + " '" + context.source().of(expression)
            + "' is not supported in a differentiable method");
        return null;
      }
    }
  }

  /** Whether Java's assignment conversion takes {@code value} to {@code target}. */
  boolean assignable(Operand value, NumericType target, Tree at) {
    if (value.type().widensTo(target)) {
      return true;
    }
    if (target.isArray() && at instanceof ExpressionTree expression && isNull(expression)) {
      unsupported(at, "'null' cannot be assigned to a '" + target.keyword() + "' variable: a"
          + " differentiable method binds each array variable to an array; declare it where"
          + " its array is made, or with no initializer and assign it once where it is"
          + " declared");
      return false;
    }
    unsupported(at, "a value of type '" + value.type().keyword() + "' cannot be assigned to '"
        + target.keyword() + "'");
    return false;
  }

  /** {@code (target) value}: an instruction when the types differ and the value is not text. */
  Operand convert(Operand value, NumericType target) {
    if (value.type() == target) {
      return value;
    }
    if (value instanceof Operand.Constant constant) {
      if (value.type().widensTo(target)) {
        return constant; // Java widens a constant where it is assigned
      }
      return new Operand.Constant(castText(constant.expression(), target), target,
          OptionalDouble.empty());
    }
    boolean active = value.isActive() && target.isFloatingPoint();
    return context.emit(Operation.cast(target), List.of(value), target, active);
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
    return typedAs(literal.getKind() == Tree.Kind.CHAR_LITERAL ? TypeKind.CHAR : null,
        new Operand.Constant(Expr.atom(context.source().of(literal)), type, known));
  }

  /**
   * Marks {@code constant} as of Java type {@code kind} when that is {@code char}, {@code short}
   * or {@code byte}, which overload resolution tells from {@code int}.
   */
  Operand.Constant typedAs(TypeKind kind, Operand.Constant constant) {
    if (kind == TypeKind.CHAR || kind == TypeKind.SHORT || kind == TypeKind.BYTE) {
      narrowConstants.put(constant, kind);
    }
    return constant;
  }

  /** The Java type of {@code operand} when it is {@code char}, {@code short} or {@code byte}; else null. */
  TypeKind narrowTypeOf(Operand operand) {
    return narrowConstants.get(operand);
  }

  private Operand identifier(IdentifierTree identifier) {
    String name = identifier.getName().toString();
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local != null && local.valueRecord() != null) {
      records.locals().misused(identifier, name);
      return null;
    }
    if (local != null && local.function() != null) {
      unsupported(identifier, "function value '" + name + "' escapes here: " + FUNCTION_USES
          + "; call it ('" + name + "." + local.function().signature().name() + "(...)')");
      return null;
    }
    if (local != null) {
      ResolutionLog.local(context, identifier, name);
      return context.read(local, identifier);
    }
    Optional<TypeElement> inlined = records.inlinedRecord();
    if (inlined.isPresent()) {
      // the code of a record's method, inlined: its names are the record's
      if (records.isReceiverComponent(name)) {
        return records.receiverComponent(identifier);
      }
      if (name.equals("this")) {
        records.locals().misused(identifier, name); // the receiver, flattened
        return null;
      }
      Optional<VariableElement> own = context.symbols().fieldOf(inlined.get(), name)
          .filter(field -> StaticMembers.isStatic(field));
      if (own.isPresent()) {
        return staticFields.fieldValue(own.get(), inlined.get(), identifier);
      }
    }
    Optional<TypeElement> qualifier = context.symbols().fieldQualifier(name);
    Optional<VariableElement> field =
        qualifier.flatMap(type -> context.symbols().fieldOf(type, name));
    if (field.isPresent()) {
      ResolutionLog.resolved(context, identifier, field.get());
      Optional<Operand> receiver = StaticMembers.isStatic(field.get())
          ? Optional.empty() : implicitReceiver(qualifier.get(), identifier);
      if (receiver.isPresent()) {
        return objects.field(receiver.get(), name, identifier); // 'k' is 'this.k'
      }
      return staticFields.fieldValue(field.get(), qualifier.get(), identifier);
    }
    diagnostics.unresolved(identifier, "cannot find variable '" + name + "'");
    return null;
  }

  /**
   * The receiver of an instance method, which a member of {@code owner} named without a
   * qualifier is read through; empty in a static method, and for a member of an enclosing
   * class's instance, which the method's class does not hold.
   */
  Optional<Operand> implicitReceiver(TypeElement owner, Tree use) {
    LocalScopes.Local self = context.scopes().lookUp(Receivers.THIS);
    if (self == null || !owner.equals(context.symbols().enclosingType())) {
      return Optional.empty();
    }
    return Optional.ofNullable(context.read(self, use));
  }

  private Operand memberSelect(MemberSelectTree select) {
    if (records.handles(select)) {
      return records.memberSelect(select); // o.x of a flattened record
    }
    String member = select.getIdentifier().toString();
    if (member.equals("length") && isArrayExpression(select.getExpression())) {
      return arrays.arrayLength(select);
    }
    if (select.getExpression() instanceof IdentifierTree receiver
        && receiver.getName().contentEquals("super")) {
      unsupported(select, "field '" + member + "' read through 'super' is not supported: ad4j"
          + " reads the fields of the method's object by name or through 'this'; a field"
          + " that this class hides stays out of reach");
      return null;
    }
    if (select.getExpression() instanceof MemberSelectTree qualified
        && qualified.getIdentifier().contentEquals("this")) {
      unsupported(select, "'" + context.source().of(qualified) + "' (a qualified 'this') is not"
          + " supported: read a field of the method's own object by name or through 'this'"
          + " (an enclosing instance's fields are not passed to generated code)");
      return null;
    }
    // a variable obscures a type of the same name (JLS 6.4.2): 'H.k' of a field H is H's field k
    boolean qualifierIsLocal = startsWithLocal(select.getExpression())
        || startsWithField(select.getExpression());
    if (member.equals("class") && Symbols.isName(select.getExpression()) && !qualifierIsLocal) {
      return staticFields.classLiteral(select);
    }
    if (Symbols.isName(select.getExpression()) && !qualifierIsLocal) {
      Optional<TypeElement> owner = context.symbols().resolveType(select.getExpression());
      if (owner.isPresent()) {
        Optional<VariableElement> field = context.symbols().fieldOf(owner.get(), member);
        if (field.isPresent()) {
          ResolutionLog.resolved(context, select.getExpression(), owner.get());
          ResolutionLog.resolved(context, select, field.get());
          return staticFields.fieldValue(field.get(), owner.get(), select);
        }
        unsupported(select, "cannot find field '" + member + "' in "
            + owner.get().getQualifiedName());
        return null;
      }
      diagnostics.unresolved(select, "cannot find class '"
          + context.source().of(select.getExpression()) + "'");
      return null;
    }
    // a field of an object (a parameter, a local, what a call returns): read as written
    Operand receiver = lower(select.getExpression());
    return receiver == null ? null : objects.field(receiver, member, select);
  }

  /** Whether {@code operand} is an array of another element type or rank: {@code long[]}. */
  boolean isOtherArray(Operand operand) {
    return objects.isOtherArray(operand);
  }

  /** {@code array[index]} of such an array: its element, as written. */
  Operand otherElement(Operand array, Operand index, Tree at) {
    return objects.element(array, index, at);
  }

  /** An operand's type as messages name it: its keyword, or its class's simple name. */
  String typeName(Operand operand) {
    return context.javaTypes().referenceTypeOf(operand)
        .filter(mirror -> mirror instanceof javax.lang.model.type.DeclaredType)
        .map(mirror -> ((javax.lang.model.type.DeclaredType) mirror).asElement()
            .getSimpleName().toString())
        .orElse(operand.type().keyword());
  }

  /**
   * Whether {@code expression} is a local or parameter of array type, or an element of one (a
   * row): a name that is a type ({@code Foo.length}) or anything else is not.
   */
  boolean isArrayExpression(ExpressionTree expression) {
    if (expression instanceof ParenthesizedTree parenthesized) {
      return isArrayExpression(parenthesized.getExpression());
    }
    if (expression instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      LocalScopes.Local local = context.scopes().lookUp(name);
      if (local != null) {
        return local.type().isArray() || (local.referenceType() != null
            && local.referenceType().getKind() == TypeKind.ARRAY);
      }
      return context.symbols().resolveField(name)
          .map(field -> field.asType().getKind() == TypeKind.ARRAY).orElse(false);
    }
    if (expression instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && !startsWithLocal(select.getExpression())
        && !startsWithField(select.getExpression())) {
      // a table of another class, 'Holder.P.length'
      return context.symbols().resolveType(select.getExpression())
          .flatMap(owner -> context.symbols().fieldOf(owner, select.getIdentifier().toString()))
          .map(field -> field.asType().getKind() == TypeKind.ARRAY).orElse(false);
    }
    return expression instanceof ArrayAccessTree;
  }

  /**
   * Whether Java's assignment conversion takes {@code value} to a local of the reference type
   * {@code target}: a string or an object whose type is assignable to it.
   */
  boolean assignableReference(Operand value, javax.lang.model.type.TypeMirror target, Tree at) {
    Optional<javax.lang.model.type.TypeMirror> type = context.javaTypes().referenceTypeOf(value);
    if (value.type().isReference() && type.isPresent()
        && context.types().isAssignable(type.get(), target)) {
      return true;
    }
    unsupported(at, "a value of type '" + type.map(Object::toString)
        .orElse(value.type().keyword()) + "' cannot be assigned to '" + target + "'");
    return false;
  }

  private Operand binary(BinaryTree binary) {
    Operand left = lower(binary.getLeftOperand());
    Operand right = lower(binary.getRightOperand());
    if (left == null || right == null) {
      return null;
    }
    String operator = operatorOf(binary.getKind());
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
    return combine(Operation.infix(operator), left, right, type.get());
  }

  /**
   * {@code w == null} or {@code w != null} of an array. (Two arrays are not compared: the
   * arrays of generated code need not be the user's code's, such as a callee's result.)
   */
  private static boolean isNullTest(BinaryTree binary, Operand left, Operand right) {
    boolean equality = binary.getKind() == Tree.Kind.EQUAL_TO
        || binary.getKind() == Tree.Kind.NOT_EQUAL_TO;
    return equality
        && (left.type().isArray() && isNull(binary.getRightOperand())
            || right.type().isArray() && isNull(binary.getLeftOperand()));
  }

  private static boolean isNull(ExpressionTree expression) {
    return withoutParentheses(expression).getKind() == Tree.Kind.NULL_LITERAL;
  }

  static ExpressionTree withoutParentheses(ExpressionTree expression) {
    ExpressionTree unwrapped = expression;
    while (unwrapped instanceof ParenthesizedTree parenthesized) {
      unwrapped = parenthesized.getExpression();
    }
    return unwrapped;
  }

  private Operand unary(UnaryTree unary) {
    Operand operand = lower(unary.getExpression());
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
      return new Operand.Constant(text, constant.type(), known);
    }
    return switch (symbol) {
      case "+" -> operand;
      case "-" -> context.emit(Operation.NEGATE, List.of(operand), operand.type(),
          operand.isActive());
      case "!" -> context.emit(Operation.NOT, List.of(operand), NumericType.BOOLEAN, false);
      default -> context.emit(Operation.COMPLEMENT, List.of(operand), operand.type(), false);
    };
  }

  private Operand cast(TypeCastTree cast) {
    Operand operand = lower(cast.getExpression());
    if (operand == null) {
      return null;
    }
    Tree type = cast.getType();
    if (!(type instanceof PrimitiveTypeTree primitive)) {
      unsupported(cast, "cast to '" + type + "' is not supported: only casts to primitive"
          + " types are");
      return null;
    }
    TypeKind kind = primitive.getPrimitiveTypeKind();
    Optional<NumericType> target = ConstantText.valueType(kind);
    if (target.isEmpty() || (target.get() == NumericType.BOOLEAN)
        != (operand.type() == NumericType.BOOLEAN)) {
      unsupported(cast, "cast of '" + operand.type().keyword() + "' to '" + type
          + "' is not supported");
      return null;
    }
    boolean narrowPrimitive = kind == TypeKind.CHAR || kind == TypeKind.SHORT
        || kind == TypeKind.BYTE;
    if (operand instanceof Operand.Constant constant) {
      if (constant.type() == target.get() && !narrowPrimitive
          && !narrowConstants.containsKey(constant)) {
        return constant; // a redundant cast would draw a -Xlint:cast warning in generated code
      }
      OptionalDouble known = target.get() == NumericType.DOUBLE ? constant.knownValue()
          : OptionalDouble.empty();
      return typedAs(kind, new Operand.Constant(
          castText(constant.expression(), type.toString()), target.get(), known));
    }
    if (narrowPrimitive) {
      unsupported(cast, "cast to '" + type + "' is not supported: use 'int' or 'long'");
      return null;
    }
    if (operand.type() == target.get()) {
      return operand;
    }
    // A cast of a differentiable double to int or long is constant between integers; one to
    // float rounds the value and passes the derivative on (DerivativeRules).
    boolean active = operand.isActive() && target.get().isFloatingPoint();
    return context.emit(Operation.cast(target.get()), List.of(operand), target.get(), active);
  }

  /** Whether {@code expression} is a local's name, or a field or element of one's. */
  private boolean startsWithField(ExpressionTree expression) {
    if (expression instanceof IdentifierTree identifier) {
      return context.symbols().resolveField(identifier.getName().toString()).isPresent();
    }
    if (expression instanceof MemberSelectTree select) {
      return startsWithField(select.getExpression());
    }
    return false;
  }

  boolean startsWithLocal(ExpressionTree expression) {
    if (expression instanceof IdentifierTree identifier) {
      return context.scopes().lookUp(identifier.getName().toString()) != null;
    }
    if (expression instanceof MemberSelectTree select) {
      return startsWithLocal(select.getExpression());
    }
    return false;
  }

  // ---- what other lowerings ask of expressions -------------------------------------------

  /** {@link ArrayLowering#newArray}. */
  Operand newArray(NewArrayTree creation, NumericType declared, boolean neverWritten) {
    return arrays.newArray(creation, declared, neverWritten);
  }

  /** {@link ArrayLowering#arrayOf(List, Tree)}. */
  Operand arrayOf(List<Operand> values, Tree at) {
    return arrays.arrayOf(values, at);
  }

  /** {@link CallLowering#callArgument}. */
  Operand callArgument(ExpressionTree argument) {
    return calls.callArgument(argument);
  }

  /** {@link CallLowering#resolvedCall}. */
  Operand resolvedCall(MethodInvocationTree invocation, ExpressionTree select, String name,
      CallTarget target, List<Operand> arguments, String shown) {
    return calls.resolvedCall(invocation, select, name, target, arguments, shown);
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

  /** {@code left op right}: a constant when both are, else an instruction. */
  Operand combine(Operation operation, Operand left, Operand right, NumericType type) {
    if (left instanceof Operand.Constant l && right instanceof Operand.Constant r) {
      return new Operand.Constant(Expr.binary(operation.name(), l.expression(), r.expression()),
          type, OptionalDouble.empty());
    }
    if (type == NumericType.FLOAT && operation.form() == Operation.Form.INFIX
        && operation.name().length() == 1 && "+-*/%".contains(operation.name())) {
      left = asFloatOperand(left);
      right = asFloatOperand(right);
    }
    return combineAll(operation, List.of(left, right), type);
  }

  /**
   * An {@code int} or {@code long} operand of {@code float} arithmetic as Java's binary numeric
   * promotion makes it, rounded to {@code float} (JLS 5.6): the partial derivative that reads it
   * must read the rounded number ({@code x * n} with {@code n = 16777217} multiplies by
   * {@code 16777216f}), not the integer widened to {@code double}. A constant that a
   * {@code float} holds exactly stays as written.
   */
  Operand asFloatOperand(Operand operand) {
    if (!operand.type().isIntegral()) {
      return operand;
    }
    if (operand instanceof Operand.Constant constant) {
      OptionalDouble known = constant.knownValue();
      if (known.isPresent() && (double) (float) known.getAsDouble() == known.getAsDouble()) {
        return constant;
      }
      // past 2^53 the known double is itself rounded, and rounding it again to float may
      // differ from Java's one rounding of the long: then the partials read the cast's text
      OptionalDouble rounded = known.isPresent() && Math.abs(known.getAsDouble()) <= 0x1p53
          ? OptionalDouble.of((float) known.getAsDouble()) : OptionalDouble.empty();
      return new Operand.Constant(castText(constant.expression(), NumericType.FLOAT),
          NumericType.FLOAT, rounded);
    }
    return convert(operand, NumericType.FLOAT);
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
          ? Optional.of(left) : Optional.empty();
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

  /**
   * {@code value} as a value of {@code type}, a constant included (written with a cast): what a
   * call's result or a bound parameter is, where Java has converted it already.
   */
  Operand widened(Operand value, NumericType type) {
    return literalAs(convert(value, type), type);
  }

  static Operand literalAs(Operand operand, NumericType type) {
    if (operand instanceof Operand.Constant constant && constant.type() != type
        && type != NumericType.BOOLEAN) {
      return new Operand.Constant(castText(constant.expression(), type), type,
          type == NumericType.DOUBLE ? constant.knownValue() : OptionalDouble.empty());
    }
    return operand;
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

  private static Expr castText(Expr expression, NumericType type) {
    return castText(expression, type.keyword());
  }

  private static Expr castText(Expr expression, String type) {
    return expression.castTo(type);
  }

  static Block append(Block block, Statement statement) {
    List<Statement> statements = new ArrayList<>(block.statements());
    statements.add(statement);
    return new Block(statements);
  }

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
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

  /** A readable name for a tree's kind: {@code SWITCH_EXPRESSION} becomes "switch expression". */
  static String describe(Tree tree) {
    return tree.getKind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
