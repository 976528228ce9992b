package ad4j.processor.front;

import ad4j.processor.front.Symbols.CallTarget;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Function;
import ad4j.processor.ir.Instruction;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.MathOwner;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.Return;
import ad4j.processor.ir.SourceLine;
import ad4j.processor.ir.Value;
import ad4j.processor.rules.DerivativeRules;
import ad4j.processor.rules.Expr;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.Elements;

/**
 * The front end: lowers the body of a {@code @Differentiable} method from javac's syntax trees to
 * the single-assignment IR, resolving names as Java does and recording an error at each construct
 * it cannot differentiate. Lowering goes on after an error so that all errors of a method are
 * reported together.
 */
public final class Lowering {
  private static final String STRAIGHT_LINE =
      "only straight-line code is supported (no branches, loops or switches)";

  /** A local variable or parameter in scope, and the value it holds now. */
  private static final class Local {
    final String name;
    /** Its declaration had an error, already reported: uses of it report nothing more. */
    boolean broken;
    Value value;

    Local(String name, Value value) {
      this.name = name;
      this.value = value;
    }
  }

  private final Elements elements;
  private final Symbols symbols;
  private final SourceText source;
  private final Diagnostics diagnostics;
  private final IrBuilder ir = new IrBuilder();
  private final Deque<Map<String, Local>> scopes = new ArrayDeque<>();
  private final Set<MathOwner> shadowedOwners = EnumSet.noneOf(MathOwner.class);
  private final Set<String> referencedTypeNames = new LinkedHashSet<>();
  private SourceLine currentLine;
  private int statementStart;
  private boolean returned;

  private Lowering(Elements elements, Trees trees, CompilationUnitTree unit,
      TypeElement enclosingType, Diagnostics diagnostics) {
    this.elements = elements;
    this.symbols = new Symbols(elements, enclosingType, unit);
    this.source = new SourceText(trees, unit);
    this.diagnostics = diagnostics;
    for (MathOwner owner : MathOwner.values()) {
      if (symbols.packageShadows(owner.simpleName())) {
        shadowedOwners.add(owner);
      }
    }
  }

  /**
   * Lowers {@code method}, whose signature has been validated. Returns empty when an error was
   * recorded in {@code diagnostics}.
   */
  public static Optional<Function> lower(Elements elements, Trees trees, CompilationUnitTree unit,
      ExecutableElement method, MethodTree tree, Diagnostics diagnostics) {
    TypeElement enclosingType = (TypeElement) method.getEnclosingElement();
    Lowering lowering = new Lowering(elements, trees, unit, enclosingType, diagnostics);
    return lowering.lowerMethod(tree);
  }

  private Optional<Function> lowerMethod(MethodTree method) {
    Map<String, Local> parameterScope = new HashMap<>();
    List<Value> parameters = new ArrayList<>();
    for (VariableTree parameter : method.getParameters()) {
      String name = parameter.getName().toString();
      Value value = ir.parameter(name, NumericType.DOUBLE, true, parameters.size());
      parameters.add(value);
      parameterScope.put(name, new Local(name, value));
    }
    scopes.push(parameterScope);
    List<StatementTree> body = List.copyOf(method.getBody().getStatements());
    lowerStatements(body, true);
    if (!returned) {
      diagnostics.error(method, "method '" + method.getName()
          + "' does not end with a 'return' statement");
    }
    if (diagnostics.hasErrors()) {
      return Optional.empty();
    }
    List<String> userNames = new ArrayList<>(userNames(method));
    userNames.addAll(referencedTypeNames);
    return Optional.of(new Function(method.getName().toString(), parameters,
        new Block(ir.statements()), userNames, shadowedOwners));
  }

  /** Every parameter and local name the user wrote; generated names must avoid them. */
  private static Set<String> userNames(MethodTree method) {
    Set<String> names = new LinkedHashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitVariable(VariableTree variable, Void unused) {
        names.add(variable.getName().toString());
        return super.visitVariable(variable, unused);
      }
    }.scan(method, null);
    return names;
  }

  // ---- statements --------------------------------------------------------------------------

  /**
   * Lowers a statement list. {@code tail} says whether the list ends the method, the only place
   * a {@code return} may stand in straight-line code.
   */
  private void lowerStatements(List<? extends StatementTree> statements, boolean tail) {
    for (int i = 0; i < statements.size(); i++) {
      StatementTree statement = statements.get(i);
      if (returned) {
        diagnostics.error(statement, "statement after 'return': the 'return' must be the last"
            + " statement of the method");
        return;
      }
      boolean last = tail && i == statements.size() - 1;
      currentLine = new SourceLine(source.line(statement), source.forComment(statement));
      statementStart = ir.nextValueId();
      lowerStatement(statement, last);
    }
  }

  private void lowerStatement(StatementTree statement, boolean last) {
    switch (statement.getKind()) {
      case VARIABLE -> lowerDeclaration((VariableTree) statement);
      case EXPRESSION_STATEMENT ->
          lowerExpressionStatement(((ExpressionStatementTree) statement).getExpression());
      case BLOCK -> {
        scopes.push(new HashMap<>());
        lowerStatements(((BlockTree) statement).getStatements(), last);
        scopes.pop();
      }
      case EMPTY_STATEMENT -> { }
      case RETURN -> lowerReturn((ReturnTree) statement, last);
      case IF -> unsupported(statement, "'if' statement: " + STRAIGHT_LINE);
      case FOR_LOOP, ENHANCED_FOR_LOOP -> unsupported(statement, "'for' loop: " + STRAIGHT_LINE);
      case WHILE_LOOP -> unsupported(statement, "'while' loop: " + STRAIGHT_LINE);
      case DO_WHILE_LOOP -> unsupported(statement, "'do' loop: " + STRAIGHT_LINE);
      case SWITCH -> unsupported(statement, "'switch' statement: " + STRAIGHT_LINE);
      case BREAK -> unsupported(statement, "'break': " + STRAIGHT_LINE);
      case CONTINUE -> unsupported(statement, "'continue': " + STRAIGHT_LINE);
      case LABELED_STATEMENT -> unsupported(statement, "labeled statement: " + STRAIGHT_LINE);
      case TRY -> unsupported(statement,
          "'try' statement is not supported: a differentiable method is straight-line"
              + " arithmetic, which cannot throw checked exceptions");
      case SYNCHRONIZED -> unsupported(statement,
          "'synchronized' statement is not supported: a differentiable method reads no shared"
              + " state");
      case THROW -> unsupported(statement, "'throw' statement: " + STRAIGHT_LINE);
      case ASSERT -> unsupported(statement, "'assert' statement: " + STRAIGHT_LINE);
      case CLASS, INTERFACE, ENUM, RECORD -> unsupported(statement,
          "local class declaration is not supported in a differentiable method");
      default -> unsupported(statement, describe(statement) + " is not supported: "
          + STRAIGHT_LINE);
    }
  }

  private void lowerDeclaration(VariableTree declaration) {
    String name = declaration.getName().toString();
    Tree type = declaration.getType();
    boolean inferred = type == null
        || (type instanceof IdentifierTree identifier && identifier.getName().contentEquals("var"));
    Local local = new Local(name, null);
    scopes.peek().put(name, local);
    if (!inferred && !isDouble(type)) {
      diagnostics.error(type, "local variable '" + name + "' has type '" + type
          + "': only 'double' locals are supported");
      local.broken = true;
      return;
    }
    ExpressionTree initializer = declaration.getInitializer();
    if (initializer != null) {
      Operand value = lowerExpression(initializer);
      if (value != null && inferred && value.type() != NumericType.DOUBLE) {
        diagnostics.error(declaration, "'var " + name + "' would have type '"
            + value.type().keyword() + "': only 'double' locals are supported; declare it"
            + " 'double'");
        value = null;
      }
      if (value != null) {
        bind(local, value);
      } else {
        local.broken = true;
      }
    } else if (inferred) {
      diagnostics.error(declaration, "'var " + name + "' needs an initializer");
      local.broken = true;
    }
  }

  private void lowerExpressionStatement(ExpressionTree expression) {
    switch (expression.getKind()) {
      case ASSIGNMENT -> {
        AssignmentTree assignment = (AssignmentTree) expression;
        Local target = assignmentTarget(assignment.getVariable());
        Operand value = lowerExpression(assignment.getExpression());
        if (target != null && value != null) {
          bind(target, value);
        }
      }
      case PLUS_ASSIGNMENT, MINUS_ASSIGNMENT, MULTIPLY_ASSIGNMENT, DIVIDE_ASSIGNMENT,
          REMAINDER_ASSIGNMENT -> {
        CompoundAssignmentTree assignment = (CompoundAssignmentTree) expression;
        Local target = assignmentTarget(assignment.getVariable());
        Operand current = target == null ? null : read(target, assignment.getVariable());
        Operand operand = lowerExpression(assignment.getExpression());
        if (current != null && operand != null) {
          Operation operation = arithmetic(compoundOperator(expression.getKind()));
          bind(target, combine(operation, current, operand));
        }
      }
      case PREFIX_INCREMENT, POSTFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_DECREMENT ->
          incrementUnsupported((UnaryTree) expression);
      case METHOD_INVOCATION -> {
        if (lowerExpression(expression) != null) {
          unsupported(expression, "a call whose result is not used has no effect on a"
              + " differentiable method; assign it to a local or remove it");
        }
      }
      default -> {
        if (expression instanceof CompoundAssignmentTree) {
          unsupported(expression, "compound assignment '" + operatorOf(expression.getKind())
              + "=' is not supported: use '+=', '-=', '*=', '/=' or '%='");
        } else {
          unsupported(expression, describe(expression) + " is not supported as a statement");
        }
      }
    }
  }

  private void lowerReturn(ReturnTree statement, boolean last) {
    if (!last) {
      unsupported(statement, "'return' before the end of the method: " + STRAIGHT_LINE
          + ", with one 'return' as the last statement");
      returned = true;
      return;
    }
    Operand value = lowerExpression(statement.getExpression());
    if (value != null) {
      ir.add(new Return(value, currentLine));
    }
    returned = true;
  }

  /** The local or parameter an assignment writes, or null after reporting why it cannot. */
  private Local assignmentTarget(ExpressionTree variable) {
    if (variable instanceof IdentifierTree identifier) {
      String name = identifier.getName().toString();
      Local local = lookUp(name);
      if (local != null) {
        return local.broken ? null : local;
      }
      if (symbols.resolveField(name).isPresent()) {
        unsupported(variable, "assignment to field '" + name + "': a differentiable method may"
            + " assign only its own locals and parameters");
      } else {
        unsupported(variable, "cannot find variable '" + name + "'");
      }
      return null;
    }
    if (variable instanceof MemberSelectTree) {
      unsupported(variable, "assignment to field '" + source.of(variable) + "': a differentiable"
          + " method may assign only its own locals and parameters");
    } else {
      unsupported(variable, "assignment to " + describe(variable) + " is not supported: a"
          + " differentiable method may assign only its own locals and parameters");
    }
    return null;
  }

  /** Makes {@code local} hold {@code value} from now on: a new single-assignment version. */
  private void bind(Local local, Operand value) {
    if (value instanceof Operand.Use use) {
      Value defined = use.value();
      if (defined.origin() == Value.Origin.TEMPORARY && defined.id() >= statementStart) {
        defined.nameAsLocal(local.name);
      }
      local.value = defined;
    } else {
      Value copy = ir.local(local.name, NumericType.DOUBLE, false);
      ir.add(new Instruction(copy, Operation.COPY, List.of(value), currentLine));
      local.value = copy;
    }
  }

  // ---- expressions -------------------------------------------------------------------------

  /** Lowers an expression to an operand, or returns null after recording an error. */
  private Operand lowerExpression(ExpressionTree expression) {
    switch (expression.getKind()) {
      case PARENTHESIZED -> {
        Operand inner = lowerExpression(((ParenthesizedTree) expression).getExpression());
        if (inner instanceof Operand.Constant constant) {
          return new Operand.Constant(Expr.atom("(" + constant.expression() + ")"),
              constant.type(), constant.knownValue());
        }
        return inner;
      }
      case INT_LITERAL, LONG_LITERAL, FLOAT_LITERAL, DOUBLE_LITERAL, CHAR_LITERAL -> {
        return literal((LiteralTree) expression);
      }
      case BOOLEAN_LITERAL, STRING_LITERAL, NULL_LITERAL -> {
        unsupported(expression, describe(expression) + " '" + source.of(expression)
            + "': only numeric expressions are supported");
        return null;
      }
      case IDENTIFIER -> {
        return identifier((IdentifierTree) expression);
      }
      case MEMBER_SELECT -> {
        return memberSelect((MemberSelectTree) expression);
      }
      case PLUS, MINUS, MULTIPLY, DIVIDE, REMAINDER, LEFT_SHIFT, RIGHT_SHIFT,
          UNSIGNED_RIGHT_SHIFT, AND, OR, XOR -> {
        return binary((BinaryTree) expression);
      }
      case LESS_THAN, GREATER_THAN, LESS_THAN_EQUAL, GREATER_THAN_EQUAL, EQUAL_TO, NOT_EQUAL_TO,
          CONDITIONAL_AND, CONDITIONAL_OR -> {
        unsupported(expression, "comparison or logical operator '"
            + operatorOf(expression.getKind()) + "': " + STRAIGHT_LINE);
        return null;
      }
      case LOGICAL_COMPLEMENT -> {
        unsupported(expression, "logical operator '!': " + STRAIGHT_LINE);
        return null;
      }
      case UNARY_MINUS, UNARY_PLUS, BITWISE_COMPLEMENT -> {
        return unary((UnaryTree) expression);
      }
      case PREFIX_INCREMENT, POSTFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_DECREMENT -> {
        incrementUnsupported((UnaryTree) expression);
        return null;
      }
      case TYPE_CAST -> {
        return cast((TypeCastTree) expression);
      }
      case METHOD_INVOCATION -> {
        return call((MethodInvocationTree) expression);
      }
      case CONDITIONAL_EXPRESSION -> {
        unsupported(expression, "conditional expression '?:': " + STRAIGHT_LINE);
        return null;
      }
      case SWITCH_EXPRESSION -> {
        unsupported(expression, "'switch' expression: " + STRAIGHT_LINE);
        return null;
      }
      case ASSIGNMENT, PLUS_ASSIGNMENT, MINUS_ASSIGNMENT, MULTIPLY_ASSIGNMENT, DIVIDE_ASSIGNMENT,
          REMAINDER_ASSIGNMENT, AND_ASSIGNMENT, OR_ASSIGNMENT, XOR_ASSIGNMENT,
          LEFT_SHIFT_ASSIGNMENT, RIGHT_SHIFT_ASSIGNMENT, UNSIGNED_RIGHT_SHIFT_ASSIGNMENT -> {
        unsupported(expression, "assignment inside an expression is not supported: write the"
            + " assignment as a statement of its own");
        return null;
      }
      case NEW_CLASS, NEW_ARRAY -> {
        unsupported(expression, "object creation ('new') is not supported: a differentiable"
            + " method computes with doubles only");
        return null;
      }
      case LAMBDA_EXPRESSION -> {
        unsupported(expression, "lambda expression is not supported: a differentiable method"
            + " computes with doubles only");
        return null;
      }
      case MEMBER_REFERENCE -> {
        unsupported(expression, "method reference is not supported: a differentiable method"
            + " computes with doubles only");
        return null;
      }
      case ARRAY_ACCESS -> {
        unsupported(expression, "array access is not supported: parameters and locals must be"
            + " 'double'");
        return null;
      }
      default -> {
        unsupported(expression, describe(expression) + " '" + source.of(expression)
            + "' is not supported in a differentiable method");
        return null;
      }
    }
  }

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
    return new Operand.Constant(Expr.atom(source.of(literal)), type, known);
  }

  private Operand identifier(IdentifierTree identifier) {
    String name = identifier.getName().toString();
    Local local = lookUp(name);
    if (local != null) {
      return read(local, identifier);
    }
    Optional<VariableElement> field = symbols.resolveField(name);
    if (field.isPresent()) {
      return fieldValue(field.get(), identifier);
    }
    unsupported(identifier, "cannot find variable '" + name + "'");
    return null;
  }

  private Operand read(Local local, Tree use) {
    if (local.broken) {
      return null;
    }
    if (local.value == null) {
      unsupported(use, "variable '" + local.name + "' might not have been initialized");
      return null;
    }
    return new Operand.Use(local.value);
  }

  private Operand memberSelect(MemberSelectTree select) {
    String member = select.getIdentifier().toString();
    if (Symbols.isName(select.getExpression())
        && !(select.getExpression() instanceof IdentifierTree id && lookUp(id.getName().toString()) != null)) {
      Optional<TypeElement> owner = symbols.resolveType(select.getExpression());
      if (owner.isPresent()) {
        Optional<VariableElement> field = symbols.fieldOf(owner.get(), member);
        if (field.isPresent()) {
          return fieldValue(field.get(), select);
        }
        unsupported(select, "cannot find field '" + member + "' in "
            + owner.get().getQualifiedName());
        return null;
      }
    }
    unsupported(select, "'" + source.of(select) + "' is not supported: only static constants"
        + " can be read with '.'");
    return null;
  }

  /** A static final field: inlined when a compile-time constant, else read by its name. */
  private Operand fieldValue(VariableElement field, Tree use) {
    String name = field.getSimpleName().toString();
    if (!field.getModifiers().contains(Modifier.STATIC)) {
      unsupported(use, "instance field '" + name + "' cannot be read: a differentiable method is"
          + " static");
      return null;
    }
    Optional<NumericType> type = ConstantText.numericType(field.asType().getKind());
    if (type.isEmpty()) {
      unsupported(use, "field '" + name + "' has type '" + field.asType()
          + "': only numeric constants are supported");
      return null;
    }
    if (!field.getModifiers().contains(Modifier.FINAL)) {
      unsupported(use, "field '" + name + "' is not final: ad4j treats only static final fields"
          + " as constants");
      return null;
    }
    TypeElement owner = (TypeElement) field.getEnclosingElement();
    Object constant = field.getConstantValue();
    if (constant != null) {
      Optional<MathOwner> math = mathOwner(owner);
      Expr text = math.isPresent()
          ? Expr.atom(mathClassName(math.get()) + "." + name)
          : ConstantText.literal(constant).orElseThrow();
      return new Operand.Constant(text, type.get(),
          OptionalDouble.of(ConstantText.asDouble(constant)));
    }
    if (field.getModifiers().contains(Modifier.PRIVATE)
        || !isReachableFromPackage(owner)) {
      unsupported(use, "field '" + name + "' is not a compile-time constant and generated code"
          + " cannot read it: make it a constant, or not private");
      return null;
    }
    referencedTypeNames.add(outermostSimpleName(owner));
    return new Operand.Constant(Expr.atom(referenceTo(owner) + "." + name), type.get(),
        OptionalDouble.empty());
  }

  private Operand binary(BinaryTree binary) {
    Operand left = lowerExpression(binary.getLeftOperand());
    Operand right = lowerExpression(binary.getRightOperand());
    if (left == null || right == null) {
      return null;
    }
    String operator = operatorOf(binary.getKind());
    if (left instanceof Operand.Constant l && right instanceof Operand.Constant r) {
      boolean arithmetic = "+-*/%".contains(operator);
      if (!arithmetic && (isFloating(l.type()) || isFloating(r.type()))) {
        unsupported(binary, "operator '" + operator + "' needs integral operands");
        return null;
      }
      NumericType type = operator.startsWith("<") || operator.startsWith(">")
          ? NumericType.promote(l.type(), NumericType.INT)
          : NumericType.promote(l.type(), r.type());
      return new Operand.Constant(Expr.binary(operator, l.expression(), r.expression()), type,
          OptionalDouble.empty());
    }
    if (!"+-*/%".contains(operator)) {
      unsupported(binary, "operator '" + operator + "' is not differentiable: use + - * / %");
      return null;
    }
    return combine(arithmetic(operator), left, right);
  }

  private Operand unary(UnaryTree unary) {
    Operand operand = lowerExpression(unary.getExpression());
    if (operand == null) {
      return null;
    }
    if (operand instanceof Operand.Constant constant) {
      String symbol = operatorOf(unary.getKind());
      if (symbol.equals("~") && isFloating(constant.type())) {
        unsupported(unary, "operator '~' needs an integral operand");
        return null;
      }
      String inner = constant.expression().toString();
      boolean wrap = inner.startsWith("-") || inner.startsWith("+");
      Expr text = Expr.source(symbol + (wrap ? "(" + inner + ")" : inner),
          Expr.unaryPrecedence());
      OptionalDouble known = constant.knownValue();
      if (symbol.equals("-") && known.isPresent()) {
        known = OptionalDouble.of(-known.getAsDouble());
      } else if (symbol.equals("~")) {
        known = OptionalDouble.empty();
      }
      return new Operand.Constant(text, constant.type(), known);
    }
    return switch (unary.getKind()) {
      case UNARY_PLUS -> operand;
      case UNARY_MINUS -> emit(Operation.NEGATE, List.of(operand), operand.type());
      default -> {
        unsupported(unary, "operator '~' is not differentiable");
        yield null;
      }
    };
  }

  private Operand cast(TypeCastTree cast) {
    Operand operand = lowerExpression(cast.getExpression());
    if (operand == null) {
      return null;
    }
    Tree type = cast.getType();
    Optional<NumericType> target = type instanceof PrimitiveTypeTree primitive
        ? ConstantText.numericType(primitive.getPrimitiveTypeKind())
        : Optional.empty();
    if (target.isEmpty()) {
      unsupported(cast, "cast to '" + type + "' is not supported: only numeric casts are");
      return null;
    }
    if (operand instanceof Operand.Constant constant) {
      TypeKind kind = ((PrimitiveTypeTree) type).getPrimitiveTypeKind();
      if (constant.type() == target.get() && kind != TypeKind.CHAR && kind != TypeKind.SHORT
          && kind != TypeKind.BYTE) {
        return constant; // a redundant cast would draw a -Xlint:cast warning in generated code
      }
      Expr inner = constant.expression();
      String innerText = inner.toString();
      String operandText = needsParenthesesAsCastOperand(inner) ? "(" + innerText + ")" : innerText;
      OptionalDouble known = target.get() == NumericType.DOUBLE ? constant.knownValue()
          : OptionalDouble.empty();
      return new Operand.Constant(
          Expr.source("(" + type + ") " + operandText, Expr.unaryPrecedence()),
          target.get(), known);
    }
    if (target.get() != NumericType.DOUBLE) {
      unsupported(cast, "cast of a differentiable value to '" + type + "' is not"
          + " differentiable: only casts to 'double' are");
      return null;
    }
    return operand;
  }

  private static boolean needsParenthesesAsCastOperand(Expr inner) {
    String text = inner.toString();
    // A cast applies to a unary expression; anything looser keeps its parentheses from the source.
    return text.contains(" ") && !(text.startsWith("(") && text.endsWith(")"));
  }

  private Operand call(MethodInvocationTree invocation) {
    ExpressionTree select = invocation.getMethodSelect();
    String shown = source.of(select) + (invocation.getArguments().isEmpty() ? "()" : "(...)");
    String name;
    CallTarget target;
    if (select instanceof IdentifierTree identifier) {
      name = identifier.getName().toString();
      target = symbols.resolveUnqualifiedCall(name);
    } else if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())) {
      name = member.getIdentifier().toString();
      target = symbols.resolveQualifiedCall(member.getExpression());
    } else {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: only static calls"
          + " to java.lang.Math and StrictMath functions are supported");
      return null;
    }
    if (!invocation.getTypeArguments().isEmpty()) {
      unsupported(invocation, "call to '" + shown + "' with type arguments is not supported");
      return null;
    }
    if (target instanceof CallTarget.OtherMethod other) {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: ad4j differentiates"
          + " calls to java.lang.Math and StrictMath functions; calls to other methods ("
          + other.owner().getSimpleName() + "." + name + ") are not supported yet");
      return null;
    }
    if (target instanceof CallTarget.Ambiguous ambiguous) {
      unsupported(invocation, "call to '" + shown + "' is ambiguous between the static imports of "
          + ambiguous.owners().stream().map(t -> t.getQualifiedName().toString())
              .collect(Collectors.joining(" and ")));
      return null;
    }
    if (!(target instanceof CallTarget.MathFunction math)) {
      unsupported(invocation, "cannot find method '" + name + "'");
      return null;
    }
    if (name.equals("random")) {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: it returns a new"
          + " random number at each call, not a function of its arguments");
      return null;
    }
    List<Operand> arguments = new ArrayList<>();
    boolean failed = false;
    for (ExpressionTree argument : invocation.getArguments()) {
      Operand operand = lowerExpression(argument);
      failed |= operand == null;
      arguments.add(operand);
    }
    if (failed) {
      return null;
    }
    MathOwner owner = math.owner();
    List<NumericType> argumentTypes = arguments.stream().map(Operand::type).toList();
    Optional<NumericType> resultType =
        MathSignatures.resultType(symbols.mathMethods(owner, name), argumentTypes);
    if (resultType.isEmpty()) {
      unsupported(invocation, "no " + owner.simpleName() + "." + name + " takes ("
          + argumentTypes.stream().map(NumericType::keyword).collect(Collectors.joining(", "))
          + ")");
      return null;
    }
    if (arguments.stream().allMatch(a -> a instanceof Operand.Constant)) {
      Expr[] texts = arguments.stream().map(a -> ((Operand.Constant) a).expression())
          .toArray(Expr[]::new);
      return new Operand.Constant(Expr.call(mathClassName(owner), name, texts), resultType.get(),
          OptionalDouble.empty());
    }
    if (!DerivativeRules.isDifferentiableFunction(name, arguments.size())) {
      unsupported(invocation, "call to '" + shown + "' is not differentiable: ad4j has no"
          + " derivative rule for " + owner.simpleName() + "." + name + "; differentiable"
          + " functions are " + String.join(", ", DerivativeRules.differentiableFunctionNames()));
      return null;
    }
    return emit(Operation.call(owner, name, arguments.size()), arguments, resultType.get());
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** {@code left op right}: a constant when both are, else an instruction. */
  private Operand combine(Operation operation, Operand left, Operand right) {
    NumericType type = NumericType.promote(left.type(), right.type());
    if (left instanceof Operand.Constant l && right instanceof Operand.Constant r) {
      return new Operand.Constant(Expr.binary(operation.name(), l.expression(), r.expression()),
          type, OptionalDouble.empty());
    }
    return emit(operation, List.of(left, right), type);
  }

  /** Appends {@code t = operation(arguments)} and returns a use of {@code t}. */
  private Operand emit(Operation operation, List<Operand> arguments, NumericType type) {
    Optional<DerivativeRules.Rule> rule = DerivativeRules.forOperation(operation);
    boolean active = false;
    for (int i = 0; i < arguments.size(); i++) {
      int index = i;
      active |= arguments.get(i).isActive()
          && rule.map(r -> r.carriesDerivative(index)).orElse(true);
    }
    Value result = ir.temporary(type, active);
    ir.add(new Instruction(result, operation, arguments, currentLine));
    return new Operand.Use(result);
  }

  private Local lookUp(String name) {
    for (Map<String, Local> scope : scopes) {
      Local local = scope.get(name);
      if (local != null) {
        return local;
      }
    }
    return null;
  }

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }

  private void incrementUnsupported(UnaryTree tree) {
    String symbol = tree.getKind().name().endsWith("INCREMENT") ? "++" : "--";
    String compound = symbol.equals("++") ? "+= 1" : "-= 1";
    unsupported(tree, "'" + symbol + "' is not supported: write '" + source.of(tree.getExpression())
        + " " + compound + "' as a statement");
  }

  private String mathClassName(MathOwner owner) {
    return shadowedOwners.contains(owner) ? owner.qualifiedName() : owner.simpleName();
  }

  private Optional<MathOwner> mathOwner(TypeElement type) {
    for (MathOwner owner : MathOwner.values()) {
      if (type.getQualifiedName().contentEquals(owner.qualifiedName())) {
        return Optional.of(owner);
      }
    }
    return Optional.empty();
  }

  private boolean isReachableFromPackage(TypeElement type) {
    for (TypeElement t = type; t != null;
        t = t.getEnclosingElement() instanceof TypeElement outer ? outer : null) {
      boolean samePackage = elements.getPackageOf(t).getQualifiedName()
          .contentEquals(symbols.packageName());
      if (t.getModifiers().contains(Modifier.PRIVATE)
          || (!samePackage && !t.getModifiers().contains(Modifier.PUBLIC))) {
        return false;
      }
    }
    return true;
  }

  /** How generated code in the user's package names {@code type}. */
  private String referenceTo(TypeElement type) {
    String qualified = type.getQualifiedName().toString();
    String pkg = elements.getPackageOf(type).getQualifiedName().toString();
    if (pkg.equals(symbols.packageName()) && !pkg.isEmpty()) {
      return qualified.substring(pkg.length() + 1);
    }
    return qualified;
  }

  private String outermostSimpleName(TypeElement type) {
    String relative = referenceTo(type);
    int dot = relative.indexOf('.');
    return dot < 0 ? relative : relative.substring(0, dot);
  }

  private static boolean isDouble(Tree type) {
    return type instanceof PrimitiveTypeTree primitive
        && primitive.getPrimitiveTypeKind() == TypeKind.DOUBLE;
  }

  private static boolean isFloating(NumericType type) {
    return type == NumericType.FLOAT || type == NumericType.DOUBLE;
  }

  private static Operation arithmetic(String operator) {
    return switch (operator) {
      case "+" -> Operation.ADD;
      case "-" -> Operation.SUBTRACT;
      case "*" -> Operation.MULTIPLY;
      case "/" -> Operation.DIVIDE;
      case "%" -> Operation.REMAINDER;
      default -> throw new IllegalArgumentException(operator);
    };
  }

  private static String compoundOperator(Tree.Kind kind) {
    return switch (kind) {
      case PLUS_ASSIGNMENT -> "+";
      case MINUS_ASSIGNMENT -> "-";
      case MULTIPLY_ASSIGNMENT -> "*";
      case DIVIDE_ASSIGNMENT -> "/";
      case REMAINDER_ASSIGNMENT -> "%";
      default -> throw new IllegalArgumentException(kind.toString());
    };
  }

  private static String operatorOf(Tree.Kind kind) {
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
  private static String describe(Tree tree) {
    return tree.getKind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
  }
}
