package ad4j.processor.front;

import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.AssertTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.CompoundAssignmentTree;
import com.sun.source.tree.ConditionalExpressionTree;
import com.sun.source.tree.DoWhileLoopTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ExpressionStatementTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LabeledStatementTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewArrayTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TypeCastTree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Static methods of this compilation's sources whose result depends on their arguments alone
 * and that keep none of them, found by reading their bodies ({@code logFactorial(int n)},
 * {@code Checks.isTrue(boolean, String, double)}): for {@link LaunderedDependence} such a call is
 * like one of {@code Math}, so a dependent value given to an earlier call does not make its
 * result dependent, and one given to it goes nowhere.
 *
 * <p>The rule is syntactic and errs towards "no": the method is static, its parameters are
 * primitives or {@code String} (so it reaches no array or object of its caller's), and its body
 * reads and writes only its parameters and locals, the elements of arrays it makes, and
 * compile-time constants, and calls only static methods that are themselves argument-only
 * (those of {@code Math}, {@code StrictMath}, {@code String} and the boxed types, or methods of
 * the sources passing this test, recursion included: every method of a name it may call must
 * pass). What a {@code throw} evaluates is not read: it leaves the method and the
 * {@code @Differentiable} method around the call, which has no {@code try}. Lambdas, classes,
 * objects made with {@code new}, instance calls, {@code try}, {@code switch}, {@code instanceof}
 * and names that cannot be resolved with certainty make the answer "no". Without the method's
 * syntax tree the answer is "no".
 */
final class ArgumentOnlyMethods {
  /**
   * Static methods of the argument-only classes that are no functions of their arguments: those
   * that read system properties, and {@code Math.random()} and {@code StrictMath.random()}, whose
   * draw differs each time (run again by a reverse sweep or an order-2 member, a helper calling
   * it would give other numbers than the forward sweep had).
   */
  private static final Set<String> NOT_FUNCTIONS = Set.of("getInteger", "getLong",
      "getBoolean", "random");

  private final Elements elements;
  private final Types types;
  private final Trees trees;
  private final MethodAnswers answers = new MethodAnswers();

  ArgumentOnlyMethods(Elements elements, Types types, Trees trees) {
    this.elements = elements;
    this.types = types;
    this.trees = trees;
  }

  /** Whether {@code method} computes its result from its arguments alone and keeps none. */
  boolean test(ExecutableElement method) {
    return answers.of(method, this::read);
  }

  /**
   * The methods named {@code name} that are members of {@code type}: its own and those it
   * inherits, among which Java chooses for a call {@code name(...)} in its code.
   */
  List<ExecutableElement> methodsNamed(TypeElement type, String name) {
    return ElementFilter.methodsIn(elements.getAllMembers(type)).stream()
        .filter(method -> method.getSimpleName().contentEquals(name))
        .toList();
  }

  /**
   * Whether {@code qualifier}, a name in the code of {@code owner} in {@code unit}, names
   * {@code java.lang.Math} or {@code java.lang.StrictMath}, and not a class of the sources
   * that shares the simple name ({@code Model.Math}).
   */
  boolean namesMath(ExpressionTree qualifier, TypeElement owner, CompilationUnitTree unit) {
    Optional<TypeElement> type =
        new Symbols(elements, types, owner, unit).resolveType(qualifier);
    return type.isPresent() && Set.of("java.lang.Math", "java.lang.StrictMath")
        .contains(type.get().getQualifiedName().toString());
  }

  /**
   * Whether {@code qualifier.name(...)}, a call in the code of {@code owner} in {@code unit}
   * whose qualifier names no local, surely names a type (not a field of {@code owner}, which
   * would obscure it) every static method {@code name} of which is argument-only: one of
   * {@code Double}, {@code String} and the other argument-only classes of the JDK
   * ({@code Double.isNaN(v)}), or a method of the sources passing {@link #test}, and takes
   * only primitives and strings. Whichever the call selects then gives the same result again
   * and changes nothing: it calls no method of an object it is given, as {@code
   * String.valueOf(Object)} calls {@code toString()} (the bodies asking read fields that may
   * hold objects).
   */
  boolean callsArgumentOnly(ExpressionTree qualifier, String name, TypeElement owner,
      CompilationUnitTree unit) {
    if (trees == null) {
      return false;
    }
    Body body = new Body(new Symbols(elements, types, owner, unit));
    Optional<TypeElement> type = body.ownerType(qualifier);
    return type.isPresent()
        && methodsNamed(type.get(), name).stream()
            .filter(StaticMembers::isStatic)
            .allMatch(method -> method.getParameters().stream()
                .allMatch(parameter -> isPrimitiveOrString(parameter.asType())))
        && body.everyStaticMethod(type.get(), name);
  }

  /**
   * The type of {@code expression}, a name in the code of {@code owner} in {@code unit} that
   * is a chain of fields ({@code k}, {@code this.k}, {@code link.k}, {@code Integer.MAX_VALUE},
   * {@code w.length}) whose first name is no local; empty for anything else.
   */
  Optional<TypeMirror> fieldChainType(ExpressionTree expression, TypeElement owner,
      CompilationUnitTree unit) {
    if (trees == null) {
      return Optional.empty();
    }
    Symbols symbols = new Symbols(elements, types, owner, unit);
    if (expression instanceof IdentifierTree identifier) {
      return symbols.resolveField(identifier.getName().toString()).map(Element::asType);
    }
    if (!(expression instanceof MemberSelectTree select)) {
      return Optional.empty();
    }
    String name = select.getIdentifier().toString();
    ExpressionTree base = select.getExpression();
    if (base instanceof IdentifierTree self && self.getName().contentEquals("this")) {
      return symbols.fieldOf(owner, name).map(Element::asType);
    }
    Optional<TypeMirror> baseType = fieldChainType(base, owner, unit);
    if (baseType.isPresent()) {
      if (baseType.get().getKind() == TypeKind.ARRAY) {
        return name.equals("length")
            ? Optional.of(types.getPrimitiveType(TypeKind.INT)) : Optional.empty();
      }
      return baseType.get() instanceof DeclaredType declared
          && declared.asElement() instanceof TypeElement type
          ? symbols.fieldOf(type, name).map(Element::asType) : Optional.empty();
    }
    return Symbols.isName(base) && (!(base instanceof IdentifierTree first)
            || symbols.resolveField(first.getName().toString()).isEmpty())
        ? symbols.resolveType(base).flatMap(type -> symbols.fieldOf(type, name))
            .map(Element::asType)
        : Optional.empty();
  }

  /**
   * Whether {@code name}, a type written in the code of {@code owner} in {@code unit}, is the
   * class {@code qualifiedName} (not a class of the sources that shares its simple name).
   */
  boolean namesType(ExpressionTree name, String qualifiedName, TypeElement owner,
      CompilationUnitTree unit) {
    return trees != null && Symbols.isName(name)
        && new Symbols(elements, types, owner, unit).resolveType(name)
            .filter(type -> type.getQualifiedName().contentEquals(qualifiedName)).isPresent();
  }

  /** Whether a static method of {@code Math}, {@code String} or a boxed type reads only its arguments. */
  static boolean isArgumentOnlyLibraryMethod(ExecutableElement method) {
    return StaticMembers.isStatic(method)
        && LaunderedDependence.readsArgumentsOnly(method.getEnclosingElement())
        && !NOT_FUNCTIONS.contains(method.getSimpleName().toString());
  }

  private boolean read(ExecutableElement method) {
    if (!StaticMembers.isStatic(method) || trees == null
        || !(method.getEnclosingElement() instanceof TypeElement owner)) {
      return false;
    }
    for (VariableElement parameter : method.getParameters()) {
      if (!isPrimitiveOrString(parameter.asType())) {
        return false;
      }
    }
    TreePath path = trees.getPath(method);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree) || tree.getBody() == null) {
      return false;
    }
    Body body = new Body(new Symbols(elements, types, owner, path.getCompilationUnit()));
    for (VariableTree parameter : tree.getParameters()) {
      body.declare(parameter.getName().toString());
    }
    return body.statement(tree.getBody());
  }

  private static boolean isPrimitiveOrString(TypeMirror type) {
    return type.getKind().isPrimitive() || type instanceof DeclaredType declared
        && declared.asElement() instanceof TypeElement element
        && element.getQualifiedName().contentEquals("java.lang.String");
  }

  /** One method body: its scopes of locals, resolved against its own class and imports. */
  private final class Body {
    private final Symbols symbols;
    private final Deque<Set<String>> scopes = new ArrayDeque<>();

    Body(Symbols symbols) {
      this.symbols = symbols;
      scopes.push(new HashSet<>());
    }

    void declare(String name) {
      scopes.peek().add(name);
    }

    private boolean isLocal(String name) {
      for (Set<String> scope : scopes) {
        if (scope.contains(name)) {
          return true;
        }
      }
      return false;
    }

    private boolean inScope(List<? extends Tree> trees) {
      scopes.push(new HashSet<>());
      try {
        for (Tree tree : trees) {
          if (tree != null && !(tree instanceof ExpressionTree expression
              ? expression(expression) : statement((StatementTree) tree))) {
            return false;
          }
        }
        return true;
      } finally {
        scopes.pop();
      }
    }

    boolean statement(StatementTree statement) {
      if (statement == null) {
        return true;
      }
      switch (statement.getKind()) {
        case BLOCK:
          return inScope(((BlockTree) statement).getStatements());
        case VARIABLE: {
          VariableTree variable = (VariableTree) statement;
          declare(variable.getName().toString()); // in scope in its own initializer
          return variable.getInitializer() == null || expression(variable.getInitializer());
        }
        case EXPRESSION_STATEMENT:
          return expression(((ExpressionStatementTree) statement).getExpression());
        case IF: {
          IfTree branch = (IfTree) statement;
          return expression(branch.getCondition()) && scoped(branch.getThenStatement())
              && scoped(branch.getElseStatement());
        }
        case WHILE_LOOP: {
          WhileLoopTree loop = (WhileLoopTree) statement;
          return expression(loop.getCondition()) && scoped(loop.getStatement());
        }
        case DO_WHILE_LOOP: {
          DoWhileLoopTree loop = (DoWhileLoopTree) statement;
          return scoped(loop.getStatement()) && expression(loop.getCondition());
        }
        case FOR_LOOP: {
          ForLoopTree loop = (ForLoopTree) statement;
          List<Tree> parts = new java.util.ArrayList<>(loop.getInitializer());
          parts.add(loop.getCondition());
          parts.addAll(loop.getUpdate());
          parts.add(loop.getStatement());
          return inScope(parts);
        }
        case ENHANCED_FOR_LOOP: {
          // over an array it made: a parameter or a local can hold no Iterable
          EnhancedForLoopTree loop = (EnhancedForLoopTree) statement;
          return expression(loop.getExpression()) && inScope(List.of(loop.getVariable(),
              loop.getStatement()));
        }
        case RETURN: {
          ExpressionTree value = ((ReturnTree) statement).getExpression();
          return value == null || expression(value);
        }
        case LABELED_STATEMENT:
          return statement(((LabeledStatementTree) statement).getStatement());
        case ASSERT: {
          AssertTree assertion = (AssertTree) statement;
          return expression(assertion.getCondition())
              && (assertion.getDetail() == null || expression(assertion.getDetail()));
        }
        case THROW:
          // leaves this method and the @Differentiable one around its call (which has no try):
          // nothing it computes comes back
          return true;
        case BREAK, CONTINUE, EMPTY_STATEMENT:
          return true;
        default:
          return false; // try, switch, synchronized, classes, yield: not read
      }
    }

    /** The statement of an {@code if} or a loop, in a scope of its own. */
    private boolean scoped(StatementTree statement) {
      return statement == null || inScope(List.of(statement));
    }

    boolean expression(ExpressionTree expression) {
      switch (expression.getKind()) {
        case INT_LITERAL, LONG_LITERAL, FLOAT_LITERAL, DOUBLE_LITERAL, BOOLEAN_LITERAL,
            CHAR_LITERAL, STRING_LITERAL, NULL_LITERAL:
          return true;
        case PARENTHESIZED:
          return expression(((ParenthesizedTree) expression).getExpression());
        case TYPE_CAST:
          return expression(((TypeCastTree) expression).getExpression());
        case CONDITIONAL_EXPRESSION: {
          ConditionalExpressionTree conditional = (ConditionalExpressionTree) expression;
          return expression(conditional.getCondition())
              && expression(conditional.getTrueExpression())
              && expression(conditional.getFalseExpression());
        }
        case ARRAY_ACCESS: {
          ArrayAccessTree access = (ArrayAccessTree) expression;
          return expression(access.getExpression()) && expression(access.getIndex());
        }
        case NEW_ARRAY: {
          NewArrayTree array = (NewArrayTree) expression;
          for (ExpressionTree dimension : array.getDimensions()) {
            if (!expression(dimension)) {
              return false;
            }
          }
          if (array.getInitializers() != null) {
            for (ExpressionTree initializer : array.getInitializers()) {
              if (!expression(initializer)) {
                return false;
              }
            }
          }
          return true;
        }
        case ASSIGNMENT: {
          AssignmentTree assignment = (AssignmentTree) expression;
          return target(assignment.getVariable()) && expression(assignment.getExpression());
        }
        case PREFIX_INCREMENT, PREFIX_DECREMENT, POSTFIX_INCREMENT, POSTFIX_DECREMENT:
          return target(((UnaryTree) expression).getExpression());
        case IDENTIFIER:
          return identifier(((IdentifierTree) expression).getName().toString());
        case MEMBER_SELECT:
          return memberSelect((MemberSelectTree) expression);
        case METHOD_INVOCATION:
          return invocation((MethodInvocationTree) expression);
        default:
          if (expression instanceof CompoundAssignmentTree compound) {
            return target(compound.getVariable()) && expression(compound.getExpression());
          }
          if (expression instanceof BinaryTree binary) {
            return expression(binary.getLeftOperand()) && expression(binary.getRightOperand());
          }
          if (expression instanceof UnaryTree unary) {
            return expression(unary.getExpression());
          }
          return false; // new objects, lambdas, instanceof, switch expressions...
      }
    }

    /**
     * What an assignment writes: a local, or an element of an array, which can only be one the
     * method made (its parameters hold no arrays, and it reads no field that holds one).
     */
    private boolean target(ExpressionTree target) {
      if (target instanceof ParenthesizedTree parenthesized) {
        return target(parenthesized.getExpression());
      }
      if (target instanceof IdentifierTree identifier) {
        return isLocal(identifier.getName().toString());
      }
      if (target instanceof ArrayAccessTree access) {
        return expression(access.getExpression()) && expression(access.getIndex());
      }
      return false;
    }

    /** A local, or a compile-time constant. */
    private boolean identifier(String name) {
      return isLocal(name) || symbols.resolveField(name).filter(ArgumentOnlyMethods::isConstant)
          .isPresent();
    }

    private boolean memberSelect(MemberSelectTree select) {
      ExpressionTree qualifier = select.getExpression();
      if (!Symbols.isName(qualifier)) {
        // (expression).length: the length of an array it made
        return select.getIdentifier().contentEquals("length") && expression(qualifier);
      }
      if (isLocal(firstName(qualifier))) {
        return qualifier instanceof IdentifierTree
            && select.getIdentifier().contentEquals("length");
      }
      return ownerType(qualifier)
          .flatMap(owner -> symbols.fieldOf(owner, select.getIdentifier().toString()))
          .filter(ArgumentOnlyMethods::isConstant).isPresent();
    }

    /**
     * The type a qualifier names, when it surely names one: not when its first name is a field
     * (a variable obscures a type of the same name) or a local.
     */
    private Optional<TypeElement> ownerType(ExpressionTree qualifier) {
      String first = firstName(qualifier);
      if (isLocal(first) || symbols.resolveField(first).isPresent()) {
        return Optional.empty();
      }
      return symbols.resolveType(qualifier);
    }

    private boolean invocation(MethodInvocationTree invocation) {
      for (ExpressionTree argument : invocation.getArguments()) {
        if (!expression(argument)) {
          return false;
        }
      }
      ExpressionTree select = invocation.getMethodSelect();
      if (select instanceof IdentifierTree identifier) {
        String name = identifier.getName().toString();
        Symbols.CallTarget target = symbols.resolveUnqualifiedCall(name);
        if (target instanceof Symbols.CallTarget.MathFunction) {
          return !NOT_FUNCTIONS.contains(name); // 'random()' imported from Math draws anew
        }
        return target instanceof Symbols.CallTarget.OtherMethod other
            && everyStaticMethod(other.owner(), name);
      }
      if (select instanceof MemberSelectTree member && Symbols.isName(member.getExpression())) {
        Optional<TypeElement> owner = ownerType(member.getExpression());
        return owner.isPresent()
            && everyStaticMethod(owner.get(), member.getIdentifier().toString());
      }
      return false; // a method of an object
    }

    /**
     * Whether every static method {@code name} of {@code owner} is argument-only, so that
     * whichever the call selects is (a call in a static method selects a static one).
     */
    private boolean everyStaticMethod(TypeElement owner, String name) {
      boolean any = false;
      for (ExecutableElement method : ElementFilter.methodsIn(elements.getAllMembers(owner))) {
        if (!method.getSimpleName().contentEquals(name)
            || !StaticMembers.isStatic(method)) {
          continue;
        }
        any = true;
        if (!isArgumentOnlyLibraryMethod(method) && !test(method)) {
          return false;
        }
      }
      return any;
    }
  }

  private static String firstName(ExpressionTree name) {
    ExpressionTree first = name;
    while (first instanceof MemberSelectTree select) {
      first = select.getExpression();
    }
    return first instanceof IdentifierTree identifier ? identifier.getName().toString() : "";
  }

  /** A {@code static final} field whose value is a compile-time constant, which never changes. */
  private static boolean isConstant(VariableElement field) {
    return StaticMembers.isStatic(field)
        && field.getModifiers().contains(Modifier.FINAL) && field.getConstantValue() != null;
  }
}
