package ad4j.processor.front;

import ad4j.processor.front.Symbols.CallTarget;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Callee;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Statement;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Value;
import ad4j.processor.ir.Variable;
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
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;

/**
 * Lowers expressions to operands: constant subexpressions stay Java text with resolved names;
 * everything that depends on a parameter becomes instructions. Returns null after recording an
 * error, so that callers can go on and report further errors.
 */
final class ExpressionLowering {
  static final String STRAIGHT_LINE_ARITHMETIC = "use + - * / %";
  /** Where a function value may be, for messages. */
  static final String FUNCTION_USES = "ad4j specialises a function value where its code is"
      + " known, so a lambda or method reference may initialise a local of a functional"
      + " interface type (called in this method) or be given to a stream operation; it cannot"
      + " be stored in a field, returned or passed to a method";

  private final LoweringContext context;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  private final CalleeResolver callees;
  private final RuledCalls ruledCalls;
  private final InactiveCalls inactiveCalls;
  private final ObjectValues objects;
  private final RecordLowering records;
  private final FunctionValues functions;
  private final StreamLowering streams;
  /** The call being lowered as a statement, whose value nothing reads; null otherwise. */
  private MethodInvocationTree discarded;
  private SwitchLowering switches;
  /** The constants whose Java type is {@code char}: {@link LoweringContext#charConstants}. */
  private final Set<Operand> charConstants;

  ExpressionLowering(LoweringContext context) {
    this.context = context;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
    this.callees = new CalleeResolver(context);
    this.ruledCalls = new RuledCalls(context, callees);
    this.inactiveCalls = new InactiveCalls(context);
    this.objects = new ObjectValues(context);
    this.records = new RecordLowering(context, this);
    this.charConstants = context.charConstants();
    this.functions = new FunctionValues(context, this);
    this.streams = new StreamLowering(context, this, functions);
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
          return charTypedIf(charConstants.contains(constant), new Operand.Constant(
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
        return context.referenceConstant("null", context.types().getNullType());
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
        return shortCircuit((BinaryTree) expression);
      }
      case UNARY_MINUS, UNARY_PLUS, BITWISE_COMPLEMENT, LOGICAL_COMPLEMENT -> {
        return unary((UnaryTree) expression);
      }
      case PREFIX_INCREMENT, POSTFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_DECREMENT -> {
        return increment((UnaryTree) expression);
      }
      case TYPE_CAST -> {
        return cast((TypeCastTree) expression);
      }
      case METHOD_INVOCATION -> {
        return call((MethodInvocationTree) expression);
      }
      case CONDITIONAL_EXPRESSION -> {
        return conditional((ConditionalExpressionTree) expression);
      }
      case SWITCH_EXPRESSION -> {
        return switches.expression((SwitchExpressionTree) expression);
      }
      case ASSIGNMENT -> {
        return assignment((AssignmentTree) expression);
      }
      case PLUS_ASSIGNMENT, MINUS_ASSIGNMENT, MULTIPLY_ASSIGNMENT, DIVIDE_ASSIGNMENT,
          REMAINDER_ASSIGNMENT -> {
        return compoundAssignment((CompoundAssignmentTree) expression);
      }
      case AND_ASSIGNMENT, OR_ASSIGNMENT, XOR_ASSIGNMENT, LEFT_SHIFT_ASSIGNMENT,
          RIGHT_SHIFT_ASSIGNMENT, UNSIGNED_RIGHT_SHIFT_ASSIGNMENT -> {
        // e >>= 1, flags |= bit, n[i] <<= 2: on integers and booleans
        return bitwiseAssignment((CompoundAssignmentTree) expression);
      }
      case NEW_ARRAY -> {
        return newArray((NewArrayTree) expression, null, false);
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
        return element((ArrayAccessTree) expression);
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
          && (local.variable() != null || context.needsVariable(name)
              || context.swappedArrays().contains(name))) {
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
      unsupported(variable, "assignment to " + describe(variable) + " is not supported: a"
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
      ArrayTarget target = arrayTarget(access);
      Operand value = lower(assignment.getExpression());
      return target == null || value == null ? null
          : target.store(value, assignment.getExpression());
    }
    LocalScopes.Local target = assignmentTarget(assignment.getVariable());
    if (target != null && target.valueRecord() != null) {
      unsupported(assignment, "an assignment to value record local '" + target.name()
          + "' is supported as a statement of its own, not inside an expression");
      return null;
    }
    Operand value = lower(assignment.getExpression());
    if (target == null) {
      return null;
    }
    if (value == null || !assignable(value, target.type(), assignment.getExpression())) {
      target.markBroken(); // its uses must not add "might not have been initialized"
      return null;
    }
    Operand stored = convert(value, target.type());
    context.bind(target, stored);
    // A constant is stored as written, since Java widens it there, but the expression has the
    // target's type: with a double d, (d = 1) / 2 is 0.5 and Math.min(1, d = 1) is a double.
    return literalAs(stored, target.type());
  }

  /**
   * {@code v op= e} of a shift or bitwise operator on a local: {@code int}s, {@code long}s and
   * {@code boolean}s, which carry no derivative; narrowed to the local's type as Java does.
   */
  private Operand bitwiseAssignment(CompoundAssignmentTree assignment) {
    if (assignment.getVariable() instanceof ArrayAccessTree access) {
      // n[i] op= v on an int[]: n and i once, the element read before v (JLS 15.26.2)
      ArrayTarget element = arrayTarget(access);
      Operand current = element == null ? null : element.read();
      Operand operand = lower(assignment.getExpression());
      if (current == null || operand == null) {
        return null;
      }
      Operand combined = bitwise(assignment, current, operand);
      return combined == null ? null : element.store(convert(combined, current.type()), null);
    }
    LocalScopes.Local target = assignmentTarget(assignment.getVariable());
    Operand current = target == null ? null : context.read(target, assignment.getVariable());
    Operand operand = lower(assignment.getExpression());
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
    Operand stored = convert(combined, target.type());
    context.bind(target, stored);
    return stored;
  }

  /** {@code current op operand} of a shift or bitwise compound assignment, or null. */
  private Operand bitwise(CompoundAssignmentTree assignment, Operand current, Operand operand) {
    String operator = operatorOf(assignment.getKind());
    Optional<NumericType> type = resultType(operator, current.type(), operand.type());
    if (type.isEmpty() || current.isActive() || operand.isActive()) {
      unsupported(assignment, "compound assignment '" + operator + "=' cannot be applied to '"
          + typeName(current) + "' and '" + typeName(operand) + "': it applies to 'int',"
          + " 'long' and 'boolean' values, which carry no derivative");
      return null;
    }
    return combine(Operation.infix(operator), current, operand, type.get());
  }

  /**
   * {@code target op= operand} (JLS 15.26.2): the target's value is read before the operand is
   * evaluated, the result is narrowed to the target's type, stored, and is the expression's
   * value.
   */
  Operand compoundAssignment(CompoundAssignmentTree assignment) {
    if (assignment.getVariable() instanceof ArrayAccessTree access) {
      // a[i] op= v: a and i once, the element read before v is evaluated (JLS 15.26.2)
      ArrayTarget target = arrayTarget(access);
      Operand current = target == null ? null : target.read();
      Operand operand = lower(assignment.getExpression());
      if (current == null || operand == null) {
        return null;
      }
      Operand combined = arithmetic(operatorOf(assignment.getKind()), current, operand,
          assignment);
      return combined == null ? null : target.store(convert(combined, current.type()), null);
    }
    LocalScopes.Local target = assignmentTarget(assignment.getVariable());
    Operand current = target == null ? null : context.read(target, assignment.getVariable());
    Operand operand = lower(assignment.getExpression());
    if (current == null || operand == null) {
      return null;
    }
    Operand combined = arithmetic(operatorOf(assignment.getKind()), current, operand,
        assignment);
    if (combined == null) {
      return null;
    }
    // Compound assignment narrows implicitly: int i; i += 0.5 is legal.
    Operand stored = convert(combined, target.type());
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
      ArrayTarget element = arrayTarget(access);
      Operand current = element == null ? null : element.read();
      if (current == null) {
        return null;
      }
      Operand next = arithmetic(symbol.equals("++") ? "+" : "-", current, one, increment);
      Operand stored = next == null ? null : element.store(convert(next, current.type()), null);
      return postfix || stored == null ? current : stored;
    }
    LocalScopes.Local target = assignmentTarget(increment.getExpression());
    if (target == null) {
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
    Operand next = arithmetic(symbol.equals("++") ? "+" : "-", current, one, increment);
    if (next == null) {
      return null;
    }
    Operand stored = convert(next, target.type());
    context.bind(target, stored);
    return postfix ? current : stored;
  }

  /** The local a plain name denotes, or null. */
  private LocalScopes.Local localNamed(ExpressionTree variable) {
    return variable instanceof IdentifierTree identifier
        ? context.scopes().lookUp(identifier.getName().toString()) : null;
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
    return charTypedIf(literal.getKind() == Tree.Kind.CHAR_LITERAL,
        new Operand.Constant(Expr.atom(context.source().of(literal)), type, known));
  }

  /** Marks {@code constant} as of Java type {@code char} when {@code isChar}. */
  private Operand.Constant charTypedIf(boolean isChar, Operand.Constant constant) {
    if (isChar) {
      charConstants.add(constant);
    }
    return constant;
  }

  private Operand identifier(IdentifierTree identifier) {
    String name = identifier.getName().toString();
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local != null && local.valueRecord() != null) {
      records.misused(identifier, name);
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
        records.misused(identifier, name); // the receiver, flattened
        return null;
      }
      Optional<VariableElement> own = context.symbols().fieldOf(inlined.get(), name)
          .filter(field -> StaticMembers.isStatic(field));
      if (own.isPresent()) {
        return fieldValue(own.get(), inlined.get(), identifier);
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
      return fieldValue(field.get(), qualifier.get(), identifier);
    }
    diagnostics.unresolved(identifier, "cannot find variable '" + name + "'");
    return null;
  }

  /**
   * The receiver of an instance method, which a member of {@code owner} named without a
   * qualifier is read through; empty in a static method, and for a member of an enclosing
   * class's instance, which the method's class does not hold.
   */
  private Optional<Operand> implicitReceiver(TypeElement owner, Tree use) {
    LocalScopes.Local self = context.scopes().lookUp(Receivers.THIS);
    if (self == null || !owner.equals(context.symbols().enclosingType())) {
      return Optional.empty();
    }
    return Optional.ofNullable(context.read(self, use));
  }

  /**
   * {@code a[i]}: an element of an array parameter, or a row of a matrix. What is read from an
   * array that carries derivatives carries them too.
   */
  private Operand element(ArrayAccessTree access) {
    Operand array = lower(access.getExpression());
    Operand index = lower(access.getIndex());
    if (array == null || index == null) {
      return null;
    }
    if (!array.type().isArray() && !objects.isOtherArray(array)) {
      unsupported(access, "'" + context.source().of(access.getExpression()) + "' is not an"
          + " array: it has type '" + array.type().keyword() + "'");
      return null;
    }
    if (!index.type().widensTo(NumericType.INT)) {
      unsupported(access.getIndex(), "array index '" + context.source().of(access.getIndex())
          + "' has type '" + index.type().keyword() + "': an index must be an 'int'");
      return null;
    }
    if (objects.isOtherArray(array)) {
      return objects.element(array, index, access); // long[], int[][], String[]: as written
    }
    boolean active = array instanceof Operand.Use use && use.value().isActiveArray();
    NumericType element = array.type().elementType();
    Operand read = context.emit(Operation.ELEMENT, List.of(array, index), element, active);
    if (element.isArray() && array instanceof Operand.Use matrix
        && context.isReadOnly(matrix.value())) {
      context.markReadOnly(((Operand.Use) read).value());
    }
    return read;
  }

  /** An element about to be written: the array and the index, each evaluated once. */
  private final class ArrayTarget {
    private final Operand array;
    private final Operand index;
    private final ArrayAccessTree access;

    ArrayTarget(Operand array, Operand index, ArrayAccessTree access) {
      this.array = array;
      this.index = index;
      this.access = access;
    }

    /** The element's current value. */
    Operand read() {
      boolean active = ((Operand.Use) array).value().isActiveArray();
      return context.emit(Operation.ELEMENT, List.of(array, index), array.type().elementType(),
          active);
    }

    /**
     * {@code a[i] = value}, converted to the element type; the expression's value is the value
     * stored. {@code valueTree} is where a type error is reported, null when none can occur.
     */
    Operand store(Operand value, Tree valueTree) {
      NumericType element = array.type().elementType();
      if (!assignable(value, element, valueTree == null ? access : valueTree)) {
        return null;
      }
      Operand stored = convert(value, element);
      boolean active = element.isFloatingPoint()
          && ((Operand.Use) array).value().isActiveArray();
      if (context.isForeignArray(array) && !stored.isActive() && access != null
          && new RepeatedRuns(context).rejectOwnWrite(access, "the write into '"
              + context.source().of(access) + "'", context.source().of(access) + " = ...",
              context.source().of(access.getExpression()))) {
        return null;
      }
      if (!active && stored.isActive()
          && (context.isForeignArray(array) || !context.diagnostics().hasErrors())) {
        // an array this method did not make (a field's, or one reached through an object or
        // returned by a call run as written) carries no derivative: the element read back
        // would have lost the value's, silently. Another array that carries none stands for
        // one whose making was an error already: no second error for it
        Tree at = access != null ? access : valueTree;
        String shownArray = access != null ? context.source().of(access.getExpression())
            : "the array";
        String what = valueTree != null ? "'" + context.source().of(valueTree) + "'"
            : "the value stored";
        unsupported(at, what + " carries a derivative into '" + (access != null
                ? context.source().of(access) : shownArray) + "', an element of an array that"
            + " this method did not make (a field's array, or one reached through an object or"
            + " returned by a call run as written), which carries no derivative; copy it into a"
            + " local array first ('" + shownArray + ".clone()') and write there");
        return null;
      }
      return context.emit(Operation.STORE, List.of(array, index, stored), element, active);
    }
  }

  /**
   * The element {@code a[i]} an assignment writes: {@code a} must be a local array of one
   * dimension, not a parameter (which a differentiable method only reads) or a row of one.
   */
  private ArrayTarget arrayTarget(ArrayAccessTree access) {
    Operand array = lower(access.getExpression());
    Operand index = lower(access.getIndex());
    if (array == null || index == null) {
      return null;
    }
    if (array.type() == NumericType.DOUBLE_MATRIX) {
      unsupported(access, "write into '" + context.source().of(access) + "' is not supported: a"
          + " matrix keeps the rows it was made with; write their elements ('"
          + context.source().of(access) + "[j] = ...')");
      return null;
    }
    if (!array.type().isArray() || !(array instanceof Operand.Use use)) {
      unsupported(access, "write into '" + context.source().of(access.getExpression())
          + "' is not supported: only elements of local 'double[]' and 'int[]' arrays can be"
          + " assigned");
      return null;
    }
    if (context.isReadOnly(use.value())) {
      unsupported(access, "write into array '" + context.source().of(access.getExpression())
          + "' is not supported: a differentiable method reads its array parameters and never"
          + " writes into them; copy it into a local array first ('"
          + context.source().of(access.getExpression()) + ".clone()')");
      return null;
    }
    if (!index.type().widensTo(NumericType.INT)) {
      unsupported(access.getIndex(), "array index '" + context.source().of(access.getIndex())
          + "' has type '" + index.type().keyword() + "': an index must be an 'int'");
      return null;
    }
    return new ArrayTarget(array, index, access);
  }

  /**
   * {@code new Object[] {a, b}}, {@code new String[] {...}}: an array of objects, made as
   * written, to pass to a call run as written or an exception ({@code MessageFormat.format(p,
   * new Object[] {x, n})}, {@code logger.log(level, p, new Object[] {x, n})}); it carries no
   * derivative. Numbers that carry one go into it boxed, as into a call's {@code Object...}
   * parameter: {@link LaunderedDependence} follows the array and rejects what comes back from
   * it, or from the calls it is given to, into the result. An array that carries derivatives
   * may be an element only where it builds a thrown exception (the member ends there): code run
   * as written could write into it. Null after an error.
   */
  private Operand objectArray(NewArrayTree creation, javax.lang.model.type.TypeMirror component) {
    String shown = context.source().of(creation);
    List<Operand> elements = new ArrayList<>();
    for (ExpressionTree initializer : creation.getInitializers()) {
      Operand element = lower(initializer);
      if (element == null) {
        return null;
      }
      if (!context.buildingThrown() && isActiveArray(element)) {
        unsupported(initializer, "'" + context.source().of(initializer) + "' is an array that"
            + " carries derivatives, put into '" + shown + "', which ad4j cannot differentiate:"
            + " code run as written could write into it through the array of objects (it may"
            + " hold such arrays only to build a thrown exception); pass its elements instead");
        return null;
      }
      elements.add(element);
    }
    Optional<String> text = context.javaText(component);
    javax.lang.model.type.TypeMirror arrayType = context.types().getArrayType(component);
    Optional<Operand> made = text.isEmpty() ? Optional.empty() : context.emitReference(
        Operation.arrayCreation(text.get(), elements.size()), elements, arrayType);
    if (made.isEmpty()) {
      unsupported(creation, "'" + shown + "': generated code cannot name its type: "
          + context.typeProblem(component));
      return null;
    }
    return made.get();
  }

  /**
   * {@code new double[n]}, {@code new double[] {a, b}} or, in a declaration of type
   * {@code declared}, {@code {a, b}}: a local array of one dimension, created outside loops.
   */
  /**
   * {@code new double[] {a, b}}, {@code new double[n]}, or {@code {a, b}} declared as a
   * {@code declared} local. With {@code neverWritten} (the array is bound to a local that is
   * only read: {@link ArrayChoices#onlyRead}, or made as a call's argument), an array whose elements all carry no derivative
   * carries none either, so that it may go to a @NoDerivative parameter or a call's argument
   * that needs no rule ({@code double[] c = {1.0, 2.0}}).
   */
  /**
   * For a size {@code w.length}, {@code w} a local or parameter array bound to one array for
   * the whole method (no variable of its own), that array.
   */
  private Optional<Value> lengthOfBoundArray(ExpressionTree size) {
    if (size instanceof com.sun.source.tree.MemberSelectTree select
        && select.getIdentifier().contentEquals("length")
        && select.getExpression() instanceof com.sun.source.tree.IdentifierTree name) {
      LocalScopes.Local local = context.scopes().lookUp(name.getName().toString());
      if (local != null && !local.isBroken() && local.type().isArray()
          && local.variable() == null && local.value() != null) {
        return Optional.of(local.value());
      }
    }
    return Optional.empty();
  }

  Operand newArray(NewArrayTree creation, NumericType declared, boolean neverWritten) {
    Optional<javax.lang.model.type.TypeMirror> component = creation.getType() == null
        ? Optional.empty() : context.typeMirrorOf(creation.getType());
    if (component.isPresent() && component.get().getKind() == javax.lang.model.type.TypeKind.DECLARED
        && creation.getDimensions().isEmpty()) {
      return objectArray(creation, component.get());
    }
    NumericType type = declared;
    if (creation.getType() != null) {
      type = creation.getDimensions().size() > 1 ? NumericType.DOUBLE_MATRIX
          : LoweringContext.typeOf(creation.getType()).map(this::arrayOf).orElse(null);
    }
    if (type == NumericType.DOUBLE_MATRIX && isDoubles(creation.getType())
        || type == null && isMatrixOfDoubles(creation.getType())
        || declared == NumericType.DOUBLE_MATRIX) {
      return newMatrix(creation);
    }
    if (type == null || type == NumericType.DOUBLE_MATRIX
        || (creation.getType() instanceof com.sun.source.tree.ArrayTypeTree)) {
      unsupported(creation, "array creation '" + context.source().of(creation) + "' is not"
          + " supported: local arrays are 'double[]', 'float[]' or 'int[]' of one dimension");
      return null;
    }
    List<? extends ExpressionTree> initializers =
        creation.getInitializers() == null ? List.of() : creation.getInitializers();
    Operand length;
    if (creation.getDimensions().isEmpty()) {
      length = Operand.Constant.of(initializers.size());
    } else {
      length = lower(creation.getDimensions().get(0));
      if (length == null) {
        return null;
      }
      if (!length.type().widensTo(NumericType.INT)) {
        unsupported(creation.getDimensions().get(0), "array size '"
            + context.source().of(creation.getDimensions().get(0)) + "' has type '"
            + length.type().keyword() + "': a size must be an 'int'");
        return null;
      }
    }
    NumericType element = type.elementType();
    List<Operand> values = new ArrayList<>();
    if (neverWritten) {
      // the elements first, to know whether any carries a derivative (Java's order of
      // evaluation is the same: the array is made before its elements are stored)
      for (ExpressionTree initializer : initializers) {
        Operand value = lower(initializer);
        if (value == null) {
          return null;
        }
        values.add(value);
      }
    }
    boolean active = element.isFloatingPoint()
        && (!neverWritten || values.stream().anyMatch(Operand::isActive));
    Operand array = context.emit(Operation.newArray(element), List.of(length), type, active);
    context.madeArray(array, length, creation.getDimensions().isEmpty() ? Optional.empty()
        : lengthOfBoundArray(creation.getDimensions().get(0)));
    for (int k = 0; k < initializers.size(); k++) {
      Operand value = neverWritten ? values.get(k) : lower(initializers.get(k));
      if (value == null) {
        return null;
      }
      if (new ArrayTarget(array, Operand.Constant.of(k), null).store(value, initializers.get(k))
          == null) {
        return null;
      }
    }
    return array;
  }

  /**
   * A new {@code double[]} of {@code values}, in order, as {@code new double[] {a, b}} makes
   * it: the leaves of a value record a method returns. Null after an error.
   */
  Operand arrayOf(List<Operand> values, Tree at) {
    Operand array = context.emit(Operation.newArray(NumericType.DOUBLE),
        List.of(Operand.Constant.of(values.size())), NumericType.DOUBLE_ARRAY, true);
    for (int k = 0; k < values.size(); k++) {
      if (new ArrayTarget(array, Operand.Constant.of(k), null).store(values.get(k), at)
          == null) {
        return null;
      }
    }
    return array;
  }

  private static boolean isDoubles(Tree type) {
    return type instanceof com.sun.source.tree.PrimitiveTypeTree primitive
        && primitive.getPrimitiveTypeKind() == javax.lang.model.type.TypeKind.DOUBLE;
  }

  /** {@code double[]}: the element type of {@code new double[][] {...}}. */
  private static boolean isMatrixOfDoubles(Tree type) {
    return type instanceof com.sun.source.tree.ArrayTypeTree array && isDoubles(array.getType());
  }

  /**
   * {@code new double[n][m]}, {@code new double[][] {{a, b}, {c}}} or, in a declaration of a
   * {@code double[][]}, {@code {{a, b}, {c}}}: a local matrix whose rows keep their arrays
   * (only their elements are written). Its adjoints are kept in one flat array, row after row,
   * as a {@code double[][]} parameter's are in the gradient (for a matrix made inside a loop,
   * one flat array as long as the largest, as for other arrays made in loops).
   */
  private Operand newMatrix(NewArrayTree creation) {
    List<? extends ExpressionTree> initializers =
        creation.getInitializers() == null ? List.of() : creation.getInitializers();
    if (creation.getInitializers() == null) {
      if (creation.getDimensions().size() != 2) {
        unsupported(creation, "matrix creation '" + context.source().of(creation) + "' is not"
            + " supported: give both sizes ('new double[n][m]'), or the rows"
            + " ('{{a, b}, {c, d}}')");
        return null;
      }
      List<Operand> sizes = new ArrayList<>();
      for (ExpressionTree dimension : creation.getDimensions()) {
        Operand size = lower(dimension);
        if (size == null) {
          return null;
        }
        if (!size.type().widensTo(NumericType.INT)) {
          unsupported(dimension, "array size '" + context.source().of(dimension) + "' has type '"
              + size.type().keyword() + "': a size must be an 'int'");
          return null;
        }
        sizes.add(size);
      }
      return context.emit(Operation.newMatrix(), sizes, NumericType.DOUBLE_MATRIX, true);
    }
    List<Operand> rowLengths = new ArrayList<>();
    for (ExpressionTree row : initializers) {
      if (!(row instanceof NewArrayTree rowCreation) || rowCreation.getInitializers() == null
          || rowCreation.getType() != null && !isDoubles(rowCreation.getType())) {
        unsupported(row, "row '" + context.source().of(row) + "' of a local matrix is not"
            + " supported: write each row's elements in braces ('{a, b}')");
        return null;
      }
      rowLengths.add(Operand.Constant.of(rowCreation.getInitializers().size()));
    }
    Operand matrix = context.emit(Operation.newRows(rowLengths.size()), rowLengths,
        NumericType.DOUBLE_MATRIX, true);
    for (int i = 0; i < initializers.size(); i++) {
      Operand row = context.emit(Operation.ELEMENT, List.of(matrix, Operand.Constant.of(i)),
          NumericType.DOUBLE_ARRAY, true);
      List<? extends ExpressionTree> elements =
          ((NewArrayTree) initializers.get(i)).getInitializers();
      for (int j = 0; j < elements.size(); j++) {
        Operand value = lower(elements.get(j));
        if (value == null
            || new ArrayTarget(row, Operand.Constant.of(j), null).store(value, elements.get(j))
                == null) {
          return null;
        }
      }
    }
    return matrix;
  }

  private NumericType arrayOf(NumericType element) {
    return switch (element) {
      case DOUBLE -> NumericType.DOUBLE_ARRAY;
      case FLOAT -> NumericType.FLOAT_ARRAY;
      case INT -> NumericType.INT_ARRAY;
      default -> null;
    };
  }

  /** {@code a.clone()} of a one-dimensional array: a local array with the same elements. */
  private Operand cloneOf(MethodInvocationTree invocation, ExpressionTree receiver) {
    Operand array = lower(receiver);
    if (array == null) {
      return null;
    }
    if (array.type() == NumericType.DOUBLE_MATRIX) {
      unsupported(invocation, "'" + context.source().of(invocation) + "' is not supported: only"
          + " arrays of one dimension can be cloned");
      return null;
    }
    return context.emit(Operation.CLONE, List.of(array), array.type(),
        array.type().isArray() && array.type().elementType().isFloatingPoint());
  }

  /** {@code a.length} of an array. */
  private Operand arrayLength(MemberSelectTree select) {
    Operand array = lower(select.getExpression());
    if (array == null) {
      return null;
    }
    if (!array.type().isArray()) {
      return objects.field(array, "length", select);
    }
    return context.emit(Operation.LENGTH, List.of(array), NumericType.INT, false);
  }

  private Operand memberSelect(MemberSelectTree select) {
    if (records.handles(select)) {
      return records.memberSelect(select); // o.x of a flattened record
    }
    String member = select.getIdentifier().toString();
    if (member.equals("length") && isArrayExpression(select.getExpression())) {
      return arrayLength(select);
    }
    // a variable obscures a type of the same name (JLS 6.4.2): 'H.k' of a field H is H's field k
    boolean qualifierIsLocal = startsWithLocal(select.getExpression())
        || startsWithField(select.getExpression());
    if (member.equals("class") && Symbols.isName(select.getExpression()) && !qualifierIsLocal) {
      return classLiteral(select);
    }
    if (Symbols.isName(select.getExpression()) && !qualifierIsLocal) {
      Optional<TypeElement> owner = context.symbols().resolveType(select.getExpression());
      if (owner.isPresent()) {
        Optional<VariableElement> field = context.symbols().fieldOf(owner.get(), member);
        if (field.isPresent()) {
          ResolutionLog.resolved(context, select.getExpression(), owner.get());
          ResolutionLog.resolved(context, select, field.get());
          return fieldValue(field.get(), owner.get(), select);
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
  private String typeName(Operand operand) {
    return context.referenceTypeOf(operand)
        .filter(mirror -> mirror instanceof javax.lang.model.type.DeclaredType)
        .map(mirror -> ((javax.lang.model.type.DeclaredType) mirror).asElement()
            .getSimpleName().toString())
        .orElse(operand.type().keyword());
  }

  /** {@code Owner.class}: a constant of type {@code Class<Owner>}. */
  private Operand classLiteral(MemberSelectTree select) {
    Optional<TypeElement> owner = context.symbols().resolveType(select.getExpression());
    if (owner.isEmpty()) {
      diagnostics.unresolved(select, "cannot find class '"
          + context.source().of(select.getExpression()) + "'");
      return null;
    }
    Optional<String> unreachable = context.reachability().ofType(owner.get());
    if (unreachable.isPresent()) {
      unsupported(select, "generated code cannot name '" + context.source().of(select) + "': "
          + unreachable.get());
      return null;
    }
    TypeElement classType = context.elements().getTypeElement("java.lang.Class");
    return context.referenceConstant(context.referenceTo(owner.get()) + ".class",
        context.types().getDeclaredType(classType,
            context.types().erasure(owner.get().asType())));
  }

  /**
   * Whether {@code expression} is a local or parameter of array type, or an element of one (a
   * row): a name that is a type ({@code Foo.length}) or anything else is not.
   */
  private boolean isArrayExpression(ExpressionTree expression) {
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
   * A {@code static final} array field, a table of coefficients: read by its name, its
   * elements carry no derivative.
   */
  private Operand tableValue(VariableElement field, TypeElement qualifier, Tree use) {
    String name = field.getSimpleName().toString();
    Optional<NumericType> type = arrayTypeOf(field.asType());
    if (!field.getModifiers().contains(Modifier.FINAL)) {
      unsupported(use, "field '" + name + "' of type '" + field.asType() + "' cannot be read:"
          + " only 'static final' arrays are supported, read as constants");
      return null;
    }
    if (type.isEmpty()) {
      return referenceField(field, qualifier, use); // long[], String[], int[][]: as written
    }
    TypeElement owner = context.qualifyingType(field, qualifier);
    Optional<String> unreachable = context.memberReachability(field, qualifier);
    Optional<Expr> copy = privateCopy(field, unreachable);
    if (copy.isPresent()) {
      return new Operand.Constant(copy.get(), type.get(), OptionalDouble.empty());
    }
    if (unreachable.isPresent()) {
      unsupported(use, "table '" + name + "' cannot be read by generated code: "
          + unreachable.get());
      return null;
    }
    return new Operand.Constant(Expr.atom(context.referenceTo(owner) + "." + name), type.get(),
        OptionalDouble.empty());
  }

  /**
   * A static field of a reference type (an enum constant, an object, a string, an array of
   * another type): a {@code final} one is a constant that generated code reads by its name;
   * another is read once, where the user's method reads it.
   */
  private Operand referenceField(VariableElement field, TypeElement qualifier, Tree use) {
    String name = field.getSimpleName().toString();
    if (field.getConstantValue() instanceof String text) {
      // a compile-time constant: its literal, as javac inlines it
      return new Operand.Constant(Expr.atom(context.elements().getConstantExpression(text)),
          NumericType.STRING, OptionalDouble.empty());
    }
    Optional<String> unreachable = context.memberReachability(field, qualifier);
    Optional<Expr> copy = privateCopy(field, unreachable);
    if (copy.isPresent()) {
      return context.referenceConstant(copy.get().toString(), field.asType());
    }
    if (unreachable.isPresent()) {
      unsupported(use, "field '" + name + "' carries no derivative and would be read as"
          + " written, but generated code cannot read it: " + unreachable.get());
      return null;
    }
    TypeElement owner = context.qualifyingType(field, qualifier);
    if (context.javaText(field.asType()).isEmpty()) {
      unsupported(use, "field '" + name + "' has type '" + field.asType() + "', which"
          + " generated code cannot name: " + context.typeProblem(field.asType()));
      return null;
    }
    Operand.Constant constant = context.referenceConstant(context.referenceTo(owner) + "."
        + name, field.asType());
    if (field.getModifiers().contains(Modifier.FINAL)) {
      return constant;
    }
    Operand value = context.emitReference(Operation.COPY, List.of(constant), field.asType())
        .orElseThrow();
    context.readsState(value); // a call run as written may have set it
    return value;
  }

  /**
   * Whether Java's assignment conversion takes {@code value} to a local of the reference type
   * {@code target}: a string or an object whose type is assignable to it.
   */
  boolean assignableReference(Operand value, javax.lang.model.type.TypeMirror target, Tree at) {
    Optional<javax.lang.model.type.TypeMirror> type = context.referenceTypeOf(value);
    if (value.type().isReference() && type.isPresent()
        && context.types().isAssignable(type.get(), target)) {
      return true;
    }
    unsupported(at, "a value of type '" + type.map(Object::toString)
        .orElse(value.type().keyword()) + "' cannot be assigned to '" + target + "'");
    return false;
  }

  private static Optional<NumericType> arrayTypeOf(javax.lang.model.type.TypeMirror type) {
    if (!(type instanceof javax.lang.model.type.ArrayType array)) {
      return Optional.empty();
    }
    TypeKind element = array.getComponentType().getKind();
    if (element == TypeKind.DOUBLE) {
      return Optional.of(NumericType.DOUBLE_ARRAY);
    }
    if (element == TypeKind.INT) {
      return Optional.of(NumericType.INT_ARRAY);
    }
    if (element == TypeKind.ARRAY && ((javax.lang.model.type.ArrayType) array.getComponentType())
        .getComponentType().getKind() == TypeKind.DOUBLE) {
      return Optional.of(NumericType.DOUBLE_MATRIX);
    }
    return Optional.empty();
  }

  /** A static final field: inlined when a compile-time constant, else read by its name. */
  private Operand fieldValue(VariableElement field, TypeElement qualifier, Tree use) {
    String name = field.getSimpleName().toString();
    if (!StaticMembers.isStatic(field)) {
      unsupported(use, "instance field '" + name + "' cannot be read: "
          + (context.scopes().lookUp(Receivers.THIS) == null ? "the method is static"
              : "it is a field of " + context.enclosingInstance()));
      return null;
    }
    TypeKind kind = field.asType().getKind();
    if (kind == TypeKind.ARRAY) {
      return tableValue(field, qualifier, use);
    }
    Optional<NumericType> type = ConstantText.valueType(kind);
    if (type.isEmpty() && kind == TypeKind.DECLARED) {
      return referenceField(field, qualifier, use); // an enum constant, an object, a string
    }
    if (type.isEmpty()) {
      unsupported(use, "field '" + name + "' has type '" + field.asType()
          + "': only numeric and boolean constants are supported");
      return null;
    }
    if (!field.getModifiers().contains(Modifier.FINAL)) {
      return mutableField(field, qualifier, use, type.get(), kind == TypeKind.CHAR);
    }
    TypeElement owner = (TypeElement) field.getEnclosingElement();
    Object constant = field.getConstantValue();
    if (constant != null) {
      Optional<MathOwner> math = MathOwner.named(owner.getQualifiedName().toString());
      Expr text;
      if (math.isPresent()) {
        text = Expr.atom(context.mathClassName(math.get()) + "." + name);
      } else if (constant instanceof Boolean flag) {
        text = Expr.atom(flag.toString());
      } else {
        text = ConstantText.literal(constant).orElseThrow();
      }
      OptionalDouble known = constant instanceof Boolean
          ? OptionalDouble.empty() : OptionalDouble.of(ConstantText.asDouble(constant));
      return charTypedIf(kind == TypeKind.CHAR, new Operand.Constant(text, type.get(), known));
    }
    Optional<String> unreachable = context.memberReachability(field, qualifier);
    Optional<Expr> initializer = unreachable.isPresent()
        ? new PureInitializers(context).textOf(field, type.get()) : Optional.empty();
    if (initializer.isPresent()) {
      // generated code evaluates the same initializer, with the same result
      return new Operand.Constant(initializer.get(), type.get(), OptionalDouble.empty());
    }
    Optional<Expr> copy = privateCopy(field, unreachable);
    if (copy.isPresent()) {
      // the generated class's copy, read from the field once
      return charTypedIf(kind == TypeKind.CHAR,
          new Operand.Constant(copy.get(), type.get(), OptionalDouble.empty()));
    }
    if (unreachable.isPresent()) {
      unsupported(use, "field '" + name + "' is not a compile-time constant and generated code"
          + " cannot read it: " + unreachable.get() + ", or make the field a constant");
      return null;
    }
    return charTypedIf(kind == TypeKind.CHAR, new Operand.Constant(
        Expr.atom(context.referenceTo(context.qualifyingType(field, qualifier)) + "." + name),
        type.get(), OptionalDouble.empty()));
  }

  /**
   * The generated class's copy of a {@code private static final} field that generated code
   * cannot read ({@code unreachable} says why), when {@link PrivateFields} can make one.
   */
  private Optional<Expr> privateCopy(VariableElement field, Optional<String> unreachable) {
    return unreachable.isPresent() ? new PrivateFields(context).read(field)
        : Optional.empty();
  }

  /**
   * A static field that is not {@code final}, read where the method reads it, as written: a
   * value of its own, which no derivative program reads again from the field (a call run as
   * written may set it in between: {@link LaunderedDependence}, {@link StateReadAgain}).
   */
  private Operand mutableField(VariableElement field, TypeElement qualifier, Tree use,
      NumericType type, boolean isChar) {
    String name = field.getSimpleName().toString();
    Optional<String> unreachable = context.memberReachability(field, qualifier);
    // a private field of a class generated code can name: through the generated class's handle
    Optional<Expr> handle = unreachable.isPresent() && !isChar
        ? new PrivateFields(context).staticHandleRead(field) : Optional.empty();
    if ((unreachable.isPresent() && handle.isEmpty()) || isChar) {
      unsupported(use, "field '" + name + "' is not final, and generated code cannot read it"
          + (isChar ? " as a 'char'" : ": " + unreachable.get()));
      return null;
    }
    Operand.Constant text = new Operand.Constant(handle.orElseGet(() ->
        Expr.atom(context.referenceTo(context.qualifyingType(field, qualifier)) + "." + name)),
        type, OptionalDouble.empty());
    Operand value = context.emit(Operation.COPY, List.of(text), type, false);
    context.readsState(value); // a call run as written may have set it
    return value;
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

  /** {@code a && b}, {@code a || b}: b is evaluated only when Java would evaluate it. */
  private Operand shortCircuit(BinaryTree binary) {
    String operator = operatorOf(binary.getKind());
    Operand left = lower(binary.getLeftOperand());
    ir.openBlock();
    Operand right = lower(binary.getRightOperand());
    Block rightBlock = ir.closeBlock();
    if (left == null || right == null) {
      return null;
    }
    if (left.type() != NumericType.BOOLEAN || right.type() != NumericType.BOOLEAN) {
      unsupported(binary, "operator '" + operator + "' needs boolean operands");
      return null;
    }
    if (rightBlock.statements().isEmpty()) {
      return combine(Operation.infix(operator), left, right, NumericType.BOOLEAN);
    }
    Variable result = ir.variable("condition", NumericType.BOOLEAN, null);
    ir.add(new Declare(result, left, context.line()));
    Block evaluateRight = append(rightBlock, new Store(result, right, context.line()));
    Block empty = new Block(List.of());
    boolean isAnd = operator.equals("&&");
    ir.add(new If(ir.nextStatementId(), left, isAnd ? evaluateRight : empty,
        isAnd ? empty : evaluateRight, context.line()));
    return new Operand.Use(context.readVariable(result));
  }

  /**
   * {@code c ? a : b}. When neither branch computes anything, a select instruction keeps the
   * code straight-line; otherwise a branch evaluates only the chosen operand, as Java does.
   *
   * <p>A chain {@code c0 ? a0 : c1 ? a1 : ... : z} is lowered level by level in a loop, not by
   * recursion, and every level lowered as a branch stores into the one result variable of the
   * outermost: the else block of each branch is then only the computation of the next
   * condition and the next branch, which is written as {@code else if}. (A variable of its own
   * per level, assigned to the outer one after the inner branch, nested the chain as deep as
   * it is long and made its code quadratic in its length.)
   */
  private Operand conditional(ConditionalExpressionTree outermost) {
    List<ChainLevel> levels = new ArrayList<>();
    ExpressionTree falseOperand = outermost;
    while (withoutParentheses(falseOperand) instanceof ConditionalExpressionTree conditional) {
      Operand condition = lower(conditional.getCondition());
      ir.openBlock();
      Operand whenTrue = lower(conditional.getTrueExpression());
      Block trueBlock = ir.closeBlock();
      levels.add(new ChainLevel(conditional, condition, whenTrue, trueBlock));
      ir.openBlock(); // the else block: the next level's condition is computed in it
      falseOperand = conditional.getFalseExpression();
    }
    Operand last = lower(falseOperand);
    NumericType[] types = chainTypes(levels, last);
    if (types == null) {
      for (int i = 0; i < levels.size(); i++) {
        ir.closeBlock();
      }
      return null;
    }
    // From the innermost level out: each level's else block is closed, and its result (a
    // constant, a select, or a branch) goes into the else block of the level around it.
    Variable result = null; // the variable the branches of the current levels store into
    Operand whenFalse = last; // null while the levels below stored into the result
    for (int i = levels.size() - 1; i >= 0; i--) {
      ChainLevel level = levels.get(i);
      Block falseBlock = ir.closeBlock();
      NumericType type = types[i];
      Operand whenTrue = literalAs(level.whenTrue(), type);
      if (whenFalse != null) {
        whenFalse = literalAs(whenFalse, type);
        if (level.trueBlock().statements().isEmpty() && falseBlock.statements().isEmpty()) {
          whenFalse = choose(level.condition(), whenTrue, whenFalse, type);
          continue;
        }
      }
      int sharing = outermostSharing(types, i);
      if (result == null) {
        result = ir.variable("choice", types[sharing], null);
      }
      Block thenBlock = append(level.trueBlock(), new Store(result, whenTrue, context.line()));
      Block elseBlock = whenFalse == null ? falseBlock
          : append(falseBlock, new Store(result, whenFalse, context.line()));
      if (sharing == i) {
        ir.add(new Declare(result, Operand.Constant.zero(result.type()), context.line()));
      }
      ir.add(new If(ir.nextStatementId(), level.condition(), thenBlock, elseBlock,
          context.line()));
      if (sharing == i) {
        whenFalse = new Operand.Use(context.readVariable(result));
        result = null;
      } else {
        whenFalse = null; // the level around stores into the same result
      }
    }
    return whenFalse; // the outermost level's result
  }

  /**
   * The outermost level of a chain that shares the result variable of the level {@code level}:
   * the outermost of all, but for a {@code float} level inside a {@code double} one, which
   * stores into a {@code float} variable of its own, since JLS 15.25 rounds an {@code int} or
   * {@code long} operand of it to {@code float} on its way to the {@code double} result, as ecj
   * does (javac's bytecode widens it straight to {@code double}). This happens once in a chain
   * at most: the types of the levels only widen outwards.
   */
  private static int outermostSharing(NumericType[] types, int level) {
    int outermost = level;
    while (outermost > 0
        && !(types[outermost] == NumericType.FLOAT && types[outermost - 1] == NumericType.DOUBLE)) {
      outermost--;
    }
    return outermost;
  }

  /** One {@code c ? a :} of a chain, lowered: its condition and its true operand. */
  private record ChainLevel(ConditionalExpressionTree tree, Operand condition, Operand whenTrue,
      Block trueBlock) {}

  /**
   * The type of each level of a {@code ?:} chain, from the outermost, whose false operand at the
   * innermost is {@code last}; null after reporting the first error from the innermost level
   * out, as Java's type check of the nested expressions would, or when an operand failed.
   */
  private NumericType[] chainTypes(List<ChainLevel> levels, Operand last) {
    NumericType[] types = new NumericType[levels.size()];
    if (last == null) {
      return null;
    }
    NumericType falseType = last.type();
    for (int i = levels.size() - 1; i >= 0; i--) {
      ChainLevel level = levels.get(i);
      if (level.condition() == null || level.whenTrue() == null) {
        return null;
      }
      if (level.condition().type() != NumericType.BOOLEAN) {
        unsupported(level.tree().getCondition(), "the condition of '?:' must be a boolean");
        return null;
      }
      NumericType trueType = level.whenTrue().type();
      if (trueType == NumericType.BOOLEAN || falseType == NumericType.BOOLEAN) {
        if (trueType != falseType) {
          unsupported(level.tree(), "the operands of '?:' must both be numbers or both booleans");
          return null;
        }
        types[i] = NumericType.BOOLEAN;
      } else if (trueType == NumericType.STRING && falseType == NumericType.STRING) {
        types[i] = NumericType.STRING; // a message chosen for an exception or a call
      } else if (!trueType.isNumeric() || !falseType.isNumeric()) {
        unsupported(level.tree(), "'?:' choosing between " + chainOperandKind(trueType, falseType)
            + " is not supported: a differentiable method keeps each array or object variable"
            + " bound to one value; choose with 'if' and 'else' around the code that reads it");
        return null;
      } else {
        types[i] = NumericType.promote(trueType, falseType);
      }
      falseType = types[i];
    }
    return types;
  }

  private static String chainOperandKind(NumericType whenTrue, NumericType whenFalse) {
    return whenTrue.isArray() || whenFalse.isArray() ? "arrays" : "objects";
  }

  /** {@code c ? a : b} of operands computed without statements: a constant or a select. */
  private Operand choose(Operand condition, Operand whenTrue, Operand whenFalse,
      NumericType type) {
    if (condition instanceof Operand.Constant c && whenTrue instanceof Operand.Constant t
        && whenFalse instanceof Operand.Constant f) {
      return new Operand.Constant(c.expression().choose(t.expression(), f.expression()), type,
          OptionalDouble.empty());
    }
    boolean active = whenTrue.isActive() || whenFalse.isActive();
    return context.emit(Operation.SELECT, List.of(condition, whenTrue, whenFalse), type, active);
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
        known = OptionalDouble.of(-known.getAsDouble());
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
          && !charConstants.contains(constant)) {
        return constant; // a redundant cast would draw a -Xlint:cast warning in generated code
      }
      OptionalDouble known = target.get() == NumericType.DOUBLE ? constant.knownValue()
          : OptionalDouble.empty();
      return charTypedIf(kind == TypeKind.CHAR, new Operand.Constant(
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

  private Operand call(MethodInvocationTree invocation) {
    if (records.handles(invocation)) {
      return records.scalarCall(invocation); // p.x(), p.dot(q): a flattened record's
    }
    Optional<String> unchosen = records.unchosen(invocation);
    if (unchosen.isPresent()) {
      unsupported(invocation, unchosen.get());
      return null;
    }
    ExpressionTree select = invocation.getMethodSelect();
    if (select instanceof MemberSelectTree member && member.getIdentifier().contentEquals("clone")
        && invocation.getArguments().isEmpty() && isArrayExpression(member.getExpression())) {
      return cloneOf(invocation, member.getExpression());
    }
    String shown = context.source().of(select)
        + (invocation.getArguments().isEmpty() ? "()" : "(...)");
    Optional<MethodInvocationTree> streamSource = streams.source(invocation);
    if (streamSource.isPresent()) {
      return streams.lower(invocation, streamSource.get()); // Arrays.stream(a).map(f).sum()
    }
    if (select instanceof MemberSelectTree member) {
      Optional<FunctionValues.Known> function = functions.known(member.getExpression());
      if (function.isPresent() && functions.recordResult(invocation).isPresent()) {
        // a value record, taken by RecordLowering where records are; here, an object
        records.misused(invocation, context.source().of(invocation));
        return null;
      }
      if (function.isPresent()) {
        return functions.call(function.get(), member, invocation); // f.applyAsDouble(x)
      }
      Optional<String> unknown = functions.unknown(member.getExpression());
      if (unknown.isPresent()) {
        List<Operand> arguments = lowerAll(invocation);
        if (arguments == null) {
          return null;
        }
        if (arguments.stream().anyMatch(a -> a.isActive() || isActiveArray(a))) {
          unsupported(invocation, "call to '" + shown + "' is not differentiable: the code of "
              + unknown.get() + " is not known at compile time, and an argument carries a"
              + " derivative into it; " + FunctionValues.KNOWN_FUNCTIONS);
          return null;
        }
        return unknownFunctionCall(member, invocation, shown, arguments);
      }
    }
    String name;
    CallTarget target;
    if (select instanceof IdentifierTree identifier) {
      name = identifier.getName().toString();
      target = context.symbols().resolveUnqualifiedCall(name);
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree receiver
        && receiver.getName().contentEquals(Receivers.THIS)
        && context.scopes().lookUp(Receivers.THIS) != null) {
      return instanceCall(member, invocation, shown); // this.g(x) in an instance method
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree receiver
        && (receiver.getName().contentEquals("this") || receiver.getName().contentEquals("super"))) {
      String call = member.getIdentifier() + (invocation.getArguments().isEmpty() ? "()" : "(...)");
      unsupported(invocation, "call to '" + shown + "': " + (context.scopes().lookUp(
          Receivers.THIS) == null ? "the method is static and has no '" + receiver.getName()
              + "'; call '" + call + "' without it"
          : "ad4j calls an object's methods as Java dispatches them, and does not pass over an"
              + " override as 'super' does; where '"
              + context.symbols().enclosingType().getSimpleName() + "' does not override '"
              + member.getIdentifier() + "', call '" + call + "' without 'super'"));
      lowerArguments(invocation);
      return null;
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree receiver
        && records.isReceiverComponent(receiver.getName().toString())) {
      // name.length() in a value record's own code: a method of a component that carries
      // no derivative (a String, an object), not of the field javac sees
      return instanceCall(member, invocation, shown);
    } else if (select instanceof MemberSelectTree member
        && isOwnInstanceField(member.getExpression())) {
      return instanceCall(member, invocation, shown); // own.cdf(x), as this.own.cdf(x)
    } else if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())
        && inactiveCalls.receiverField(member.getExpression()).isPresent()
        && invocation.getTypeArguments().isEmpty()
        && !ruledCalls.hasInstanceRules(inactiveCalls.receiverField(member.getExpression()).get(),
            member.getIdentifier().toString())) {
      // a method of an object in a static field, without @DerivativeOf rules: runs as written
      List<Operand> arguments = lowerAll(invocation);
      return arguments == null ? null : inactiveCalls.lowerOnField(
          inactiveCalls.receiverField(member.getExpression()).get(),
          member.getIdentifier().toString(), arguments, invocation, shown,
          invocation == discarded);
    } else if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())
        && receiverVariable(member.getExpression()).isPresent()) {
      Optional<VariableElement> field = receiverField(member.getExpression());
      String method = member.getIdentifier().toString();
      if (field.isPresent() && ruledCalls.hasInstanceRules(field.get(), method)) {
        List<Operand> arguments = new ArrayList<>();
        for (ExpressionTree argument : invocation.getArguments()) {
          arguments.add(lower(argument));
        }
        return arguments.contains(null) ? null
            : ruledCalls.lowerOnReceiver(field.get(), method, arguments, invocation, shown);
      }
      if (startsWithLocal(member.getExpression())) {
        return instanceCall(member, invocation, shown);
      }
      unsupported(invocation, "call to '" + shown + "' is not differentiable: '"
          + context.source().of(member.getExpression()) + "' is "
          + receiverVariable(member.getExpression()).get() + (context.scopes().lookUp(
              Receivers.THIS) == null ? ", and the method is static: it can call methods of"
              + " its parameters, its locals and static fields, not of instance fields"
              : " of " + context.enclosingInstance()));
      lowerArguments(invocation);
      return null;
    } else if (select instanceof MemberSelectTree member && startsWithLocal(member.getExpression())) {
      return instanceCall(member, invocation, shown); // p.q.m(): a field of a local's object
    } else if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())) {
      name = member.getIdentifier().toString();
      target = context.symbols().resolveQualifiedCall(member.getExpression());
    } else if (select instanceof MemberSelectTree member) {
      // a method of what an expression gives: T[1].length(), sb.append(a).append(b)
      return instanceCall(member, invocation, shown);
    } else {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: only calls of"
          + " static methods are supported");
      lowerArguments(invocation);
      return null;
    }
    if (!invocation.getTypeArguments().isEmpty()) {
      unsupported(invocation, "call to '" + shown + "' with type arguments is not supported");
      lowerArguments(invocation);
      return null;
    }
    if (target instanceof CallTarget.Unresolved) {
      if (select instanceof MemberSelectTree member) {
        diagnostics.unresolved(invocation, "cannot find class '"
            + context.source().of(member.getExpression()) + "'");
      } else {
        diagnostics.unresolved(invocation, "cannot find method '" + name + "'");
      }
      lowerArguments(invocation);
      return null;
    }
    if (target instanceof CallTarget.MathFunction math && name.equals("random")) {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: it returns a new"
          + " random number at each call, not a function of its arguments");
      lowerArguments(invocation);
      return null;
    }
    if (target instanceof CallTarget.OtherMethod other) {
      Optional<javax.lang.model.element.ExecutableElement> template =
          functions.template(other.owner(), name, invocation.getArguments().size());
      if (template.isPresent()) {
        return functions.inline(template.get(), invocation, shown); // integrate(x -> ..., a, b)
      }
    }
    List<Operand> arguments = new ArrayList<>();
    boolean failed = false;
    for (ExpressionTree argument : invocation.getArguments()) {
      Operand operand = callArgument(argument);
      failed |= operand == null;
      arguments.add(operand);
    }
    if (failed) {
      return null;
    }
    return resolvedCall(invocation, select, name, target, arguments, shown);
  }

  /**
   * An argument of a call of a {@code @Differentiable} method: a flattened value record's
   * leaves standing in for it while the method is chosen; an array made for the call (no
   * variable names it, so only the callee could write it) carrying no derivative when its
   * elements carry none; else the value. Null after an error.
   */
  Operand callArgument(ExpressionTree argument) {
    return records.isFlattened(argument) ? records.placeholder(argument)
        : withoutParentheses(argument) instanceof NewArrayTree made
            && made.getType() != null && made.getDimensions().size() <= 1
            ? newArray(made, null, true) : lower(argument);
  }

  /**
   * The call of {@code name} that {@code target} resolves, with its arguments lowered:
   * {@code select} is the tree that named it (a method reference's, when a function value
   * applies one), {@code invocation} where errors are reported.
   */
  Operand resolvedCall(MethodInvocationTree invocation, ExpressionTree select, String name,
      CallTarget target, List<Operand> arguments, String shown) {
    if (target instanceof CallTarget.Imported imported) {
      // the class of the imported method that overload resolution picks among all of them
      // javac's order: the methods of single imports, then, when none of them applies, those
      // of on-demand imports (Resolve.findFun)
      java.util.Map<javax.lang.model.element.ExecutableElement, TypeElement> methods =
          context.symbols().importedMethods(imported.single(), name);
      Optional<Overloads.Choice> choice = CalleeResolver.choice(context,
          new ArrayList<>(methods.keySet()), arguments);
      if (choice.isEmpty()) {
        methods = context.symbols().importedMethods(imported.onDemand(), name);
        choice = CalleeResolver.choice(context, new ArrayList<>(methods.keySet()), arguments);
      }
      if (choice.isEmpty()) {
        List<TypeElement> owners = new ArrayList<>(imported.single());
        owners.addAll(imported.onDemand());
        unsupported(invocation, "call to '" + shown + "' is ambiguous between the static imports"
            + " of " + owners.stream().map(t -> t.getQualifiedName().toString())
                .collect(Collectors.joining(" and ")));
        return null;
      }
      target = context.symbols().targetOf(methods.get(choice.get().method()));
    }
    if (target instanceof CallTarget.OtherMethod other) {
      Optional<Overloads.Choice> choice = CalleeResolver.choice(context,
          CalleeResolver.candidates(context, other.owner(), name), arguments);
      if (select instanceof MemberSelectTree member) {
        ResolutionLog.resolved(context, member.getExpression(), other.owner());
      }
      choice.ifPresent(c -> ResolutionLog.resolved(context, invocation, c.method()));
      boolean passesRecords = arguments.stream().anyMatch(a -> context.recordOf(a).isPresent());
      if (passesRecords && (choice.isEmpty()
          || !CalleeResolver.isDifferentiable(choice.get().method()))) {
        for (int i = 0; i < arguments.size(); i++) {
          if (context.recordOf(arguments.get(i)).isPresent()) {
            records.misused(invocation.getArguments().get(i),
                context.source().of(invocation.getArguments().get(i)));
          }
        }
        return null;
      }
      Optional<Operand> self = choice.isPresent() && select instanceof IdentifierTree
          && Receivers.hasReceiver(choice.get().method())
          ? implicitReceiver(other.owner(), invocation) : Optional.empty();
      if (self.isPresent()) {
        // g(x) in an instance method is this.g(x)
        return callOnObject(self.get(), other.owner(), name, arguments, invocation, shown);
      }
      Optional<RuledCalls.Lowered> ruled =
          ruledCalls.lower(other.owner(), name, arguments, invocation, shown);
      if (ruled.isPresent()) {
        return ruled.get().operand();
      }
      // not ruled: a method that is not @Differentiable runs as written, if it carries no
      // derivative (else InactiveCalls reports the chain)
      Optional<javax.lang.model.element.ExecutableElement> method =
          choice.map(Overloads.Choice::method);
      Optional<BoxMathFunctions.Meaning> meaning = method.flatMap(BoxMathFunctions::of);
      if (meaning.isPresent() && arguments.stream().anyMatch(Operand::isActive)
          && arguments.stream().allMatch(a -> a.type().isNumeric())) {
        // Double.sum(a, b) is a + b, Double.max is Math.max: differentiated as those are
        NumericType type = meaning.get().type();
        Operand left = convert(arguments.get(0), type);
        Operand right = convert(arguments.get(1), type);
        return meaning.get().mathFunction().isEmpty()
            ? combine(Operation.ADD, left, right, type)
            : mathCall(MathOwner.MATH, meaning.get().mathFunction().get(), List.of(left, right),
                invocation, shown);
      }
      if (method.isPresent() && !CalleeResolver.isDifferentiable(method.get())) {
        return inactiveCalls.lower(method.get(), other.owner(), arguments, invocation, shown,
            invocation == discarded);
      }
      if (choice.isPresent() && choice.get().variableArity()) {
        // f(a, b, c) of a @Differentiable f(double... xs): the array Java makes for the call
        arguments = variableArityArguments(choice.get().method(), arguments, invocation);
        if (arguments == null) {
          return null;
        }
      }
      Optional<Callee> callee = callees.resolve(other.owner(), name, arguments, invocation,
          shown);
      if (callee.isEmpty()) {
        return null;
      }
      Optional<Operation> asWritten = method.isPresent() && !callee.get().receiverFirst()
          ? asWritten(method.get(), other.owner(), arguments.size(), false) : Optional.empty();
      arguments = records.spread(callee.get(), arguments,
          callee.get().receiverFirst() ? 1 : 0, invocation, asWritten);
      if (arguments == null) {
        return null;
      }
      if (callee.get().returnsArray()) {
        Optional<List<Operand>> carried = carriedLeaves(choice, arguments, invocation, shown);
        if (carried.isEmpty()) {
          return null;
        }
        Operand result = vectorCall(callee.get(), arguments);
        context.carriesCallResult(((Operand.Use) result).value(), carried.get());
        return result;
      }
      boolean active = arguments.stream().anyMatch(
          argument -> argument.isActive() || isActiveArray(argument));
      return context.emit(Operation.call(callee.get()), arguments, callee.get().resultType(),
          active);
    }
    return mathCall(((CallTarget.MathFunction) target).owner(), name, arguments, invocation,
        shown);
  }

  /**
   * How generated code calls {@code method}, a {@code @Differentiable} callee, as written on
   * {@code arity} arguments: a static one as {@code Owner.g(...)}; an instance method on an
   * object its caller holds ({@code receiverIsObject}) as {@code o.g(...)}, the receiver first;
   * none when generated code cannot reach it, for a receiver the caller has flattened, and in
   * a checkpointed loop (which reads no record held as an object: {@code CheckpointedLoops}).
   */
  private Optional<Operation> asWritten(ExecutableElement method, TypeElement qualifier,
      int arity, boolean receiverIsObject) {
    if (context.insideLoop() && CheckpointedLoops.isCheckpointed(context.element())) {
      return Optional.empty();
    }
    if (StaticMembers.isStatic(method)) {
      return context.memberReachability(method, qualifier).isPresent() ? Optional.empty()
          : Optional.of(Operation.plainCall(context.referenceTo(
              context.qualifyingType(method, qualifier)) + "." + method.getSimpleName(), arity));
    }
    return !receiverIsObject || context.reachability().ofMember(method).isPresent()
        ? Optional.empty()
        : Optional.of(Operation.instanceCall(method.getSimpleName().toString(), arity));
  }

  /**
   * The arguments of a variable arity call of a {@code @Differentiable} method: those before
   * its last parameter, then a new array of the rest, made after all are evaluated, as Java
   * makes it (JLS 15.12.4.2); null after an error.
   */
  private List<Operand> variableArityArguments(
      javax.lang.model.element.ExecutableElement method, List<Operand> arguments,
      MethodInvocationTree invocation) {
    int fixed = method.getParameters().size() - 1;
    javax.lang.model.type.TypeMirror last = method.getParameters().get(fixed).asType();
    Optional<NumericType> type = context.irType(last);
    if (type.isEmpty() || (type.get() != NumericType.DOUBLE_ARRAY
        && type.get() != NumericType.INT_ARRAY)) {
      unsupported(invocation, "call to '" + context.source().of(invocation.getMethodSelect())
          + "(...)' passes its variable arity parameter of type '" + last + "' element by"
          + " element, which ad4j supports for 'double...' and 'int...' only; pass an array");
      return null;
    }
    NumericType element = type.get().elementType();
    List<Operand> packed = new ArrayList<>(arguments.subList(0, fixed));
    Operand array = context.emit(Operation.newArray(element),
        List.of(Operand.Constant.of(arguments.size() - fixed)), type.get(),
        element == NumericType.DOUBLE);
    for (int k = fixed; k < arguments.size(); k++) {
      if (new ArrayTarget(array, Operand.Constant.of(k - fixed), null)
          .store(arguments.get(k), invocation.getArguments().get(k)) == null) {
        return null;
      }
    }
    packed.add(array);
    return packed;
  }

  /**
   * A call of a function value whose code is not known, with arguments that carry no
   * derivative: it runs as written, as a call on an object in a field or a local does.
   */
  private Operand unknownFunctionCall(MemberSelectTree member, MethodInvocationTree invocation,
      String shown, List<Operand> arguments) {
    Optional<VariableElement> field = inactiveCalls.receiverField(member.getExpression());
    if (field.isPresent()) {
      return inactiveCalls.lowerOnField(field.get(), member.getIdentifier().toString(),
          arguments, invocation, shown, invocation == discarded);
    }
    Operand receiver = lower(member.getExpression());
    return receiver == null ? null : objects.call(receiver, member.getIdentifier().toString(),
        arguments, invocation, shown, invocation == discarded);
  }

  /** {@code receiver.name(arguments)} on an object or a string, run as written. */
  private Operand instanceCall(MemberSelectTree member, MethodInvocationTree invocation,
      String shown) {
    boolean isDiscarded = invocation == discarded;
    Operand receiver = lower(member.getExpression());
    List<Operand> arguments = lowerAll(invocation);
    if (receiver == null || arguments == null) {
      return null;
    }
    if (!invocation.getTypeArguments().isEmpty()) {
      unsupported(invocation, "call to '" + shown + "' with type arguments is not supported");
      return null;
    }
    if (!receiver.type().isReference()) {
      unsupported(invocation, "call to '" + shown + "': '"
          + context.source().of(member.getExpression()) + "' has type '"
          + receiver.type().keyword() + "', which has no methods");
      return null;
    }
    String name = member.getIdentifier().toString();
    Optional<javax.lang.model.type.TypeMirror> type = context.referenceTypeOf(receiver);
    if (type.isPresent() && type.get() instanceof javax.lang.model.type.DeclaredType declared) {
      return callOnObject(receiver, (TypeElement) declared.asElement(), name, arguments,
          invocation, shown);
    }
    return objects.call(receiver, name, arguments, invocation, shown, isDiscarded);
  }

  /**
   * {@code receiver.name(arguments)} on an object of {@code type}: differentiated when the
   * method is an instance {@code @Differentiable} one, by its rules when it has
   * {@code @DerivativeOf} rules and a derivative flows in, else run as written.
   */
  private Operand callOnObject(Operand receiver, TypeElement type, String name,
      List<Operand> arguments, MethodInvocationTree invocation, String shown) {
    ExecutableElement method = context.referenceTypeOf(receiver)
        .filter(mirror -> mirror instanceof javax.lang.model.type.DeclaredType)
        .map(mirror -> CalleeResolver.chooseOn(context,
            (javax.lang.model.type.DeclaredType) mirror, name, arguments))
        .orElse(null);
    if (method != null && Receivers.hasReceiver(method)
        && CalleeResolver.isDifferentiable(method)) {
      List<Operand> all = new ArrayList<>();
      all.add(receiver);
      all.addAll(arguments);
      Optional<TypeElement> record = Receivers.valueRecordReceiver(method);
      if (record.isPresent()) {
        // a value record's method on one held as an object (a field's): its members take
        // the receiver flattened, read here from the object
        return recordMethodCall(record.get(), method, all, invocation, shown);
      }
      Optional<Callee> callee = callees.resolveOnReceiver(type, method, all, invocation, shown);
      if (callee.isEmpty()) {
        return null;
      }
      // the value records it takes, flattened
      List<Operand> flat = records.spread(callee.get(), all, 1, invocation,
          asWritten(method, type, all.size(), true));
      if (flat == null) {
        return null;
      }
      return differentiableCall(callee.get(), flat, NumericType.DOUBLE);
    }
    if (ruledCalls.hasInstanceRules(type, name)
        && arguments.stream().anyMatch(a -> a.isActive() || isActiveArray(a))) {
      // a method with @DerivativeOf rules, on an object of this method's
      return ruledCalls.lowerOnObject(receiver, type, name, arguments, invocation, shown,
          receiverText(invocation));
    }
    return objects.call(receiver, name, arguments, invocation, shown, invocation == discarded);
  }

  /**
   * A call of {@code @Differentiable} method {@code method} of value record {@code record} that
   * {@link RecordLowering} does not inline: its generated members, which take an instance
   * method's receiver first, flattened as they take a record parameter. {@code arguments}: the
   * receiver (of an instance method), then the arguments, records standing in placeholders.
   */
  Operand recordMethodCall(TypeElement record, ExecutableElement method,
      List<Operand> arguments, MethodInvocationTree invocation, String shown) {
    Optional<Callee> callee = callees.resolveOnReceiver(record, method, arguments, invocation,
        shown);
    if (callee.isEmpty()) {
      return null;
    }
    boolean receiver = Receivers.hasReceiver(method);
    List<Operand> flat = records.spread(callee.get(), arguments, receiver ? 1 : 0,
        invocation, asWritten(method, record, arguments.size(),
            receiver && context.recordOf(arguments.get(0)).isEmpty()));
    if (flat == null) {
      return null;
    }
    return differentiableCall(callee.get(), flat, callee.get().resultType());
  }

  /** The call of {@code callee}'s members on {@code flat}; a scalar result is of {@code type}. */
  private Operand differentiableCall(Callee callee, List<Operand> flat, NumericType type) {
    if (callee.returnsArray()) {
      return vectorCall(callee, flat);
    }
    boolean active = flat.stream().anyMatch(a -> a.isActive() || isActiveArray(a));
    return context.emit(Operation.call(callee), flat, type, active);
  }

  /** The receiver a call names: {@code p} of {@code p.g(x)}, {@code this} of {@code g(x)}. */
  private String receiverText(MethodInvocationTree invocation) {
    return invocation.getMethodSelect() instanceof MemberSelectTree member
        ? context.source().of(member.getExpression()) : Receivers.THIS;
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

  private boolean startsWithLocal(ExpressionTree expression) {
    if (expression instanceof IdentifierTree identifier) {
      return context.scopes().lookUp(identifier.getName().toString()) != null;
    }
    if (expression instanceof MemberSelectTree select) {
      return startsWithLocal(select.getExpression());
    }
    return false;
  }

  /**
   * Whether {@code owner.name(arguments)} is a call of a method that is neither
   * {@code @Differentiable} nor has {@code @DerivativeOf} rules: ad4j runs it as written.
   */
  private boolean isRunAsWritten(javax.lang.model.element.TypeElement owner, String name,
      List<Operand> arguments) {
    Optional<javax.lang.model.element.ExecutableElement> method =
        callees.select(owner, name, arguments);
    return method.isPresent() && !CalleeResolver.isDifferentiable(method.get())
        && !ruledCalls.hasRules(method.get());
  }

  /**
   * The leaves that carry no derivative of the value record a call ({@code shown}) of the
   * {@code @Differentiable} method {@code choice} returns, none for other results: the call's
   * arguments (its {@code arguments}, flat) that the method's code returns as those leaves
   * ({@link CalleePlainCalls#carriedResult}), so that the caller holds the same objects and
   * numbers in every member without running the method again. Empty after an error at
   * {@code invocation}.
   */
  private Optional<List<Operand>> carriedLeaves(Optional<Overloads.Choice> choice,
      List<Operand> arguments, MethodInvocationTree invocation, String shown) {
    Optional<javax.lang.model.element.TypeElement> record = choice.flatMap(c ->
        ValueRecords.valueRecord(c.method().getReturnType()));
    if (record.isEmpty()
        || ValueRecords.leaves(record.get()).stream().allMatch(ValueRecords.Leaf::active)) {
      return Optional.of(List.of());
    }
    Optional<List<ValueRecords.Carried>> carried =
        context.calleePlainCalls().carriedResult(choice.get().method());
    String problem = null;
    if (carried.isEmpty()) {
      problem = "ad4j reads which of its parameters it returns there from its code, or from"
          + " its generated class when it was compiled earlier, and its source is not in this"
          + " compilation (or has errors) and no generated class records it (one of an earlier"
          + " ad4j, or one overload of several returning such records)";
    } else if (carried.get().stream()
        .anyMatch(c -> c.parameter() < 0 && !LITERAL.matcher(c.constant()).matches())) {
      problem = "it returns a constant there that is not a string, integer or boolean"
          + " literal ('\"made\"', '3'), which ad4j passes on besides parameters";
    }
    if (problem != null) {
      context.diagnostics().error(invocation, "call to '" + shown + "': it returns value"
          + " record '" + record.get().getSimpleName() + "', whose components that carry no"
          + " derivative callers take from the arguments or literals the method returns them"
          + " from; " + problem);
      return Optional.empty();
    }
    List<ValueRecords.Leaf> inactive = ValueRecords.leaves(record.get()).stream()
        .filter(leaf -> !leaf.active()).toList();
    List<Operand> leaves = new ArrayList<>();
    for (int i = 0; i < inactive.size(); i++) {
      ValueRecords.Carried leaf = carried.get().get(i);
      leaves.add(leaf.parameter() >= 0 ? arguments.get(leaf.parameter())
          : literal(leaf.constant(), inactive.get(i).type()));
    }
    return Optional.of(leaves);
  }

  /**
   * A literal that the code of any class may hold as it is: a string, an integer or a
   * {@code boolean}.
   */
  private static final java.util.regex.Pattern LITERAL = java.util.regex.Pattern.compile(
      "\"(?:[^\"\\\\]|\\\\.)*\"|-?[0-9]+L?|true|false");

  /** Literal {@code text} ({@link #LITERAL}) as a constant of {@code type}. */
  private static Operand literal(String text, NumericType type) {
    java.util.OptionalDouble known = text.matches("-?[0-9]+L?")
        ? java.util.OptionalDouble.of(Long.parseLong(text.replace("L", "")))
        : java.util.OptionalDouble.empty();
    return new Operand.Constant(Expr.atom(text), type, known);
  }

  /**
   * {@code h(arguments)} of a vector function: a new local array of the caller's, like
   * {@code new double[n]} (its elements may be written over); inside a loop, a new one in each
   * iteration.
   */
  private Operand vectorCall(Callee callee, List<Operand> arguments) {
    return context.emit(Operation.call(callee), arguments, callee.resultType(), true);
  }

  private static boolean isActiveArray(Operand operand) {
    return operand instanceof Operand.Use use && use.value().isActiveArray();
  }

  /**
   * What a call's receiver is when it names a variable rather than a class ("a field of type
   * 'NormalDistribution'", "the local variable 'd'"): Java reads a name as a variable first.
   */
  private Optional<String> receiverVariable(ExpressionTree receiver) {
    if (receiver instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      if (context.scopes().lookUp(name) != null) {
        return Optional.of("the local variable '" + name + "'");
      }
      return context.symbols().resolveField(name).map(ExpressionLowering::describeField);
    }
    if (receiver instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && receiverVariable(select.getExpression()).isEmpty()) {
      return context.symbols().resolveType(select.getExpression())
          .flatMap(owner -> context.symbols().fieldOf(owner, select.getIdentifier().toString()))
          .map(ExpressionLowering::describeField);
    }
    return Optional.empty();
  }

  /** The field a call's receiver names, when it names one (and no local variable). */
  private Optional<VariableElement> receiverField(ExpressionTree receiver) {
    if (receiver instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      return context.scopes().lookUp(name) != null ? Optional.empty()
          : context.symbols().resolveField(name);
    }
    if (receiver instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && receiverVariable(select.getExpression()).isEmpty()) {
      return context.symbols().resolveType(select.getExpression())
          .flatMap(owner -> context.symbols().fieldOf(owner, select.getIdentifier().toString()));
    }
    return Optional.empty();
  }

  /**
   * Whether {@code receiver} is the simple name of an instance field of the object an instance
   * method runs on, read through its receiver as {@code this.own} would be: no local hides it,
   * and the field is the method's own class's (declared or inherited), not an enclosing
   * instance's ({@link #implicitReceiver}).
   */
  private boolean isOwnInstanceField(ExpressionTree receiver) {
    return receiver instanceof IdentifierTree identifier && records.inlinedRecord().isEmpty()
        && context.scopes().lookUp(identifier.getName().toString()) == null
        && context.ownInstanceField(identifier.getName().toString()).isPresent();
  }

  private static String describeField(VariableElement field) {
    return "a field of type '" + field.asType() + "'";
  }

  /**
   * Lowers a call made as a statement, for its effect: its value reaches nothing, so a call of
   * a method that is not {@code @Differentiable} carries no derivative whatever its arguments
   * carry, and runs as written.
   */
  void lowerForEffect(MethodInvocationTree invocation) {
    MethodInvocationTree outer = discarded;
    discarded = invocation;
    try {
      lower(invocation);
    } finally {
      discarded = outer;
    }
  }

  /** A call's arguments in order; null when one failed. */
  private List<Operand> lowerAll(MethodInvocationTree invocation) {
    List<Operand> arguments = new ArrayList<>();
    boolean failed = false;
    for (ExpressionTree argument : invocation.getArguments()) {
      Operand operand = lower(argument);
      failed |= operand == null;
      arguments.add(operand);
    }
    return failed ? null : arguments;
  }

  /** Lowers a call's arguments after an error at the call, for the errors of their own. */
  private void lowerArguments(MethodInvocationTree invocation) {
    for (ExpressionTree argument : invocation.getArguments()) {
      lower(argument);
    }
  }

  /** {@code Math.name(arguments)}, for a call that lowering makes ({@code max()} of a stream). */
  Operand mathFunction(String name, List<Operand> arguments, MethodInvocationTree at) {
    return mathCall(MathOwner.MATH, name, arguments, at, "Math." + name + "(...)");
  }

  private Operand mathCall(MathOwner owner, String name, List<Operand> arguments,
      MethodInvocationTree invocation, String shown) {
    List<NumericType> argumentTypes = arguments.stream().map(Operand::type).toList();
    // Math's functions take primitives only: ad4j passes them no boxes to unbox
    Optional<javax.lang.model.element.ExecutableElement> chosen =
        argumentTypes.contains(NumericType.BOOLEAN)
            || argumentTypes.stream().anyMatch(NumericType::isReference)
        ? Optional.empty()
        : CalleeResolver.choice(context, context.symbols().mathMethods(owner, name), arguments)
            .map(Overloads.Choice::method);
    chosen.ifPresent(method -> ResolutionLog.resolved(context, invocation, method));
    Optional<NumericType> resultType =
        chosen.flatMap(method -> ConstantText.numericType(method.getReturnType().getKind()));
    if (resultType.isEmpty()) {
      unsupported(invocation, "no " + owner.simpleName() + "." + name + " takes ("
          + argumentTypes.stream().map(NumericType::keyword).collect(Collectors.joining(", "))
          + ")");
      return null;
    }
    if (arguments.stream().allMatch(a -> a instanceof Operand.Constant)) {
      Expr[] texts = arguments.stream().map(a -> ((Operand.Constant) a).expression())
          .toArray(Expr[]::new);
      return new Operand.Constant(Expr.call(context.mathClassName(owner), name, texts),
          resultType.get(), OptionalDouble.empty());
    }
    if (arguments.stream().anyMatch(Operand::isActive)) {
      // a user's @DerivativeOf rule that this call sees replaces the built-in derivative (a
      // straight-through estimator for floor)
      javax.lang.model.element.TypeElement type =
          context.elements().getTypeElement(owner.qualifiedName());
      Optional<RuledCalls.Lowered> ruled = type == null ? Optional.empty()
          : ruledCalls.lower(type, name, arguments, invocation, shown);
      if (ruled.isPresent()) {
        return ruled.get().operand();
      }
    }
    if (!DerivativeRules.isDifferentiableFunction(name, arguments.size())) {
      Optional<Operand> inactive = inactiveCalls.lowerMath(context.mathClassName(owner), name,
          arguments, resultType.get(), invocation == discarded);
      if (inactive.isPresent()) {
        return inactive.get();
      }
      unsupported(invocation, "call to '" + shown + "' is not differentiable: ad4j has no"
          + " derivative rule for " + owner.simpleName() + "." + name + "; differentiable"
          + " functions are " + String.join(", ", DerivativeRules.differentiableFunctionNames()));
      return context.notDifferentiableResult(resultType.get());
    }
    context.mathClassName(owner); // generated code names it
    Operation operation = Operation.call(owner, name, arguments.size());
    return combineAll(operation, arguments, resultType.get());
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** {@code left op right}: a constant when both are, else an instruction. */
  private Operand combine(Operation operation, Operand left, Operand right, NumericType type) {
    if (left instanceof Operand.Constant l && right instanceof Operand.Constant r) {
      return new Operand.Constant(Expr.binary(operation.name(), l.expression(), r.expression()),
          type, OptionalDouble.empty());
    }
    return combineAll(operation, List.of(left, right), type);
  }

  /** An instruction whose result is active when derivatives can flow from an argument. */
  private Operand combineAll(Operation operation, List<Operand> arguments, NumericType type) {
    Optional<DerivativeRules.Rule> rule = DerivativeRules.forOperation(operation);
    boolean active = false;
    for (int i = 0; i < arguments.size(); i++) {
      int index = i;
      active |= arguments.get(i).isActive()
          && rule.map(r -> r.carriesDerivative(index)).orElse(true);
    }
    return context.emit(operation, arguments, type, active && type.isFloatingPoint());
  }

  private static Optional<NumericType> resultType(String operator, NumericType left,
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

  /** A constant operand of a '?:' given the expression's type, so both branches agree. */
  /**
   * {@code value} as a value of {@code type}, a constant included (written with a cast): what a
   * call's result or a bound parameter is, where Java has converted it already.
   */
  Operand widened(Operand value, NumericType type) {
    return literalAs(convert(value, type), type);
  }

  private static Operand literalAs(Operand operand, NumericType type) {
    if (operand instanceof Operand.Constant constant && constant.type() != type
        && type != NumericType.BOOLEAN) {
      return new Operand.Constant(castText(constant.expression(), type), type,
          type == NumericType.DOUBLE ? constant.knownValue() : OptionalDouble.empty());
    }
    return operand;
  }

  private static Expr castText(Expr expression, NumericType type) {
    return castText(expression, type.keyword());
  }

  private static Expr castText(Expr expression, String type) {
    return expression.castTo(type);
  }

  private static Block append(Block block, Statement statement) {
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
