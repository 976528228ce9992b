package ad4j.processor.front;

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CompilationUnitTree;
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
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Methods run as written that read state and change none, so that running them again in the
 * same call of a generated member gives the same result ({@link RepeatedRuns}): a record's
 * accessors and canonical constructor as javac writes them, the final methods of enums
 * ({@code equals}, {@code name}, {@code ordinal}, ...) and their {@code values()} and
 * {@code valueOf(String)}, and methods of this compilation's sources whose bodies are
 * read-only: getters and computations on fields ({@code return Math.log(sd) + 0.5 * LOG_2_PI;}).
 *
 * <p>The rule for a body is syntactic and errs towards "no": locals declared and assigned,
 * {@code if}, loops, {@code return} and {@code throw} statements; expressions that read names and
 * fields, compute with operators and call {@code Math}-like functions, argument-only methods
 * ({@link ArgumentOnlyMethods}) or, without a qualifier or on {@code this}, methods of the same
 * class that pass this test (recursion included). Anything else (a field or element written,
 * an object or array made, a call on another object) makes the answer "no". So an array passed
 * to such a method is only read: {@link InactiveCalls} may pass it one that carries derivatives
 * ({@code checkEqualLength(a, b)}, {@code maxIndex(a)}).
 */
final class ReadOnlyMethods {
  /** Final methods of {@link Enum}, which read the constant and change nothing. */
  private static final Set<String> ENUM_METHODS = Set.of("equals", "hashCode", "compareTo",
      "name", "ordinal", "getDeclaringClass");

  /** {@code String} and the boxes: final classes whose strings are the JDK's. */
  private static final Set<String> PLAIN_CLASSES = Set.of("java.lang.String", "java.lang.Double",
      "java.lang.Float", "java.lang.Integer", "java.lang.Long", "java.lang.Short",
      "java.lang.Byte", "java.lang.Character", "java.lang.Boolean");

  // What the set of a body's locals knows of a local besides its name: marked names, the mark
  // before the name (no Java name starts with one), so that a block's copy of the set scopes
  // them with the names.
  /** A local declared of an array type. */
  private static final String ARRAY = "[]";
  /** A local that holds a number or a boolean: no object's {@code toString()}. */
  private static final String NUMBER = "()";
  /** A local that holds a string or a box, whose string is the JDK's. */
  private static final String STRING_OR_BOX = "\"\"";
  /** A local array whose elements are numbers or booleans. */
  private static final String NUMBER_ARRAY = "[()]";

  private final Elements elements;
  private final Trees trees;
  private final ArgumentOnlyMethods argumentOnly;
  private final MethodAnswers answers = new MethodAnswers();
  /** The file of the body {@link #read} reads. */
  private CompilationUnitTree unit;

  ReadOnlyMethods(Elements elements, Trees trees, ArgumentOnlyMethods argumentOnly) {
    this.elements = elements;
    this.trees = trees;
    this.argumentOnly = argumentOnly;
  }

  /** Whether {@code method}, run again, reads the same state and changes none. */
  boolean test(ExecutableElement method) {
    return test(method, null);
  }

  /**
   * Whether {@code method}, run again on an object declared of class {@code receiverType}
   * (null: any object, or a static method), reads the same state and changes none. An object
   * of a final class runs the body the call chose even where a subclass could override it.
   */
  boolean test(ExecutableElement method, TypeElement receiverType) {
    if (!(method.getEnclosingElement() instanceof TypeElement owner)) {
      return false;
    }
    // Enum's own final methods: not an enum's method that shares a name ('ordinal(int k)')
    if (owner.getQualifiedName().contentEquals("java.lang.Enum")
            && ENUM_METHODS.contains(method.getSimpleName().toString())
        || isImplicitEnumMethod(owner, method)) {
      return true;
    }
    if ((isRecordAccessor(owner, method) || owner.getKind() == ElementKind.RECORD
        && method.getKind() == ElementKind.CONSTRUCTOR) && trees.getPath(method) == null) {
      return true; // the accessor or canonical constructor javac writes
    }
    if (OverridableMethods.mayBeOverridden(method)
        && !OverridableMethods.runsDeclaredBody(method, receiverType, elements)) {
      // an object of a subclass runs another body, which this one says nothing of
      return false;
    }
    return answers.of(method, m -> read(m, owner));
  }

  /**
   * {@code E.values()} and {@code E.valueOf(String)}, which every enum has (JLS 8.9.3) and none
   * may declare: a new array of the constants, equal each time, and the constant of a name (or
   * the same exception); neither changes anything.
   */
  private static boolean isImplicitEnumMethod(TypeElement owner, ExecutableElement method) {
    if (owner.getKind() != ElementKind.ENUM || !StaticMembers.isStatic(method)) {
      return false;
    }
    String name = method.getSimpleName().toString();
    return name.equals("values") && method.getParameters().isEmpty()
        || name.equals("valueOf") && method.getParameters().size() == 1
            && method.getParameters().get(0).asType().toString().equals("java.lang.String");
  }

  private static boolean isRecordAccessor(TypeElement owner, ExecutableElement method) {
    return owner.getKind() == ElementKind.RECORD && method.getParameters().isEmpty()
        && ElementFilter.recordComponentsIn(owner.getEnclosedElements()).stream()
            .anyMatch(c -> c.getSimpleName().contentEquals(method.getSimpleName()));
  }

  private boolean read(ExecutableElement method, TypeElement owner) {
    TreePath path = trees.getPath(method);
    if (path == null || !(path.getLeaf() instanceof MethodTree tree) || tree.getBody() == null
        || method.getModifiers().contains(Modifier.SYNCHRONIZED)) {
      return false;
    }
    // the names of this body resolve in its own file (a call may test a method of another)
    CompilationUnitTree outer = unit;
    unit = path.getCompilationUnit();
    try {
      return readBody(method, owner, tree);
    } finally {
      unit = outer;
    }
  }

  private boolean readBody(ExecutableElement method, TypeElement owner, MethodTree tree) {
    Set<String> locals = new HashSet<>();
    tree.getParameters().forEach(parameter -> declare(parameter, locals, owner));
    if (method.getKind() == ElementKind.CONSTRUCTOR) {
      // a constructor may set the fields of the object it makes, which nothing else sees yet
      ElementFilter.fieldsIn(owner.getEnclosedElements()).stream()
          .filter(field -> !StaticMembers.isStatic(field))
          .forEach(field -> locals.add("this." + field.getSimpleName()));
      if (!runsBeforeItsBody(tree, owner, locals)) {
        return false;
      }
    }
    return statement(tree.getBody(), locals, owner);
  }

  /**
   * Whether what a constructor runs before its body's statements only reads: the constructor
   * of the superclass that an implicit {@code super()} calls ({@code Base() { calls++; }}
   * counts each time a subclass's object is made), and the class's instance field initializers
   * and initializer blocks ({@code final int id = ++calls;}). An explicit first {@code
   * super(...)} or {@code this(...)} is a call of the body, judged there.
   */
  private boolean runsBeforeItsBody(MethodTree constructor, TypeElement owner,
      Set<String> fields) {
    List<? extends StatementTree> statements = constructor.getBody() == null
        ? List.of() : constructor.getBody().getStatements();
    boolean explicit = !statements.isEmpty()
        && statements.get(0) instanceof ExpressionStatementTree first
        && first.getExpression() instanceof MethodInvocationTree invocation
        && invocation.getMethodSelect() instanceof IdentifierTree name
        && (name.getName().contentEquals("super") || name.getName().contentEquals("this"));
    if (!explicit && !superclassMakesNothing(owner)) {
      return false;
    }
    TreePath path = trees.getPath(owner);
    if (path == null || !(path.getLeaf() instanceof com.sun.source.tree.ClassTree type)) {
      return false;
    }
    for (Tree member : type.getMembers()) {
      if (member instanceof BlockTree block && !block.isStatic()) {
        if (!statement(block, onlyFields(fields), owner)) {
          return false;
        }
      } else if (member instanceof VariableTree field && field.getInitializer() != null
          && !field.getModifiers().getFlags().contains(Modifier.STATIC)
          && !expression(field.getInitializer(), onlyFields(fields), owner)) {
        return false;
      }
    }
    return true;
  }

  /** The fields of the object being made, of a constructor's {@code locals}: no parameter. */
  private static Set<String> onlyFields(Set<String> locals) {
    Set<String> fields = new HashSet<>();
    for (String name : locals) {
      if (name.startsWith("this.")) {
        fields.add(name);
      }
    }
    return fields;
  }

  /**
   * Whether the constructor an implicit {@code super()} calls only reads: {@code Object}'s,
   * {@code Record}'s, or a superclass's constructor without parameters that passes this test.
   */
  private boolean superclassMakesNothing(TypeElement owner) {
    if (!(owner.getSuperclass() instanceof javax.lang.model.type.DeclaredType declared)
        || !(declared.asElement() instanceof TypeElement superclass)) {
      return true; // an interface has none
    }
    String name = superclass.getQualifiedName().toString();
    if (name.equals("java.lang.Object") || name.equals("java.lang.Record")) {
      return true;
    }
    return ElementFilter.constructorsIn(superclass.getEnclosedElements()).stream()
        .filter(constructor -> constructor.getParameters().isEmpty())
        .anyMatch(constructor -> test(constructor));
  }

  private boolean statement(StatementTree statement, Set<String> locals, TypeElement owner) {
    if (statement == null) {
      return true;
    }
    switch (statement.getKind()) {
      case BLOCK: {
        // its locals end with it: after it, a name may be a field again ('calls++')
        Set<String> scope = new HashSet<>(locals);
        for (StatementTree inner : ((BlockTree) statement).getStatements()) {
          if (!statement(inner, scope, owner)) {
            return false;
          }
        }
        return true;
      }
      case VARIABLE: {
        VariableTree variable = (VariableTree) statement;
        declare(variable, locals, owner);
        return variable.getInitializer() == null
            || expression(variable.getInitializer(), locals, owner);
      }
      case EXPRESSION_STATEMENT:
        return expression(((ExpressionStatementTree) statement).getExpression(), locals, owner);
      case IF: {
        IfTree branch = (IfTree) statement;
        return expression(branch.getCondition(), locals, owner)
            && statement(branch.getThenStatement(), locals, owner)
            && statement(branch.getElseStatement(), locals, owner);
      }
      case RETURN: {
        ExpressionTree value = ((ReturnTree) statement).getExpression();
        return value == null || expression(value, locals, owner);
      }
      case THROW:
        return true; // leaves the method and the @Differentiable one around its call
      case WHILE_LOOP: {
        WhileLoopTree loop = (WhileLoopTree) statement;
        return expression(loop.getCondition(), locals, owner)
            && statement(loop.getStatement(), locals, owner);
      }
      case DO_WHILE_LOOP: {
        DoWhileLoopTree loop = (DoWhileLoopTree) statement;
        return statement(loop.getStatement(), locals, owner)
            && expression(loop.getCondition(), locals, owner);
      }
      case FOR_LOOP: {
        ForLoopTree loop = (ForLoopTree) statement;
        Set<String> scope = new HashSet<>(locals); // its own: 'for (int calls = 0; ...)'
        for (StatementTree initializer : loop.getInitializer()) {
          if (!statement(initializer, scope, owner)) {
            return false;
          }
        }
        for (StatementTree update : loop.getUpdate()) {
          if (!statement(update, scope, owner)) {
            return false;
          }
        }
        return (loop.getCondition() == null || expression(loop.getCondition(), scope, owner))
            && statement(loop.getStatement(), scope, owner);
      }
      case ENHANCED_FOR_LOOP: {
        EnhancedForLoopTree loop = (EnhancedForLoopTree) statement;
        Set<String> scope = new HashSet<>(locals); // its own: the loop's variable
        declare(loop.getVariable(), scope, owner);
        if (loop.getVariable().getType() == null && elementsAreNumbers(loop.getExpression(),
            locals, owner)) {
          scope.add(NUMBER + loop.getVariable().getName()); // 'for (var v : w)' of a double[]
        }
        // over an Iterable it calls iterator(), hasNext() and next() of an object, which may
        // give other elements each time (a generator of draws): only arrays are read
        return walksArray(loop.getExpression(), locals, owner)
            && expression(loop.getExpression(), locals, owner)
            && statement(loop.getStatement(), scope, owner);
      }
      case LABELED_STATEMENT:
        return statement(((LabeledStatementTree) statement).getStatement(), locals, owner);
      case BREAK, CONTINUE, EMPTY_STATEMENT:
        return true;
      default:
        return false;
    }
  }

  /**
   * Adds the local {@code variable} to {@code locals}, with the marks of what it holds
   * ({@link #ARRAY}, {@link #NUMBER}, {@link #STRING_OR_BOX}, {@link #NUMBER_ARRAY}).
   */
  private void declare(VariableTree variable, Set<String> locals, TypeElement owner) {
    String name = variable.getName().toString();
    locals.add(name);
    locals.remove(ARRAY + name);
    locals.remove(NUMBER + name);
    locals.remove(STRING_OR_BOX + name);
    locals.remove(NUMBER_ARRAY + name);
    Tree type = variable.getType();
    if (type != null && type.getKind() == Tree.Kind.PRIMITIVE_TYPE) {
      locals.add(NUMBER + name); // a number or a boolean: no object's toString()
    }
    if (type instanceof ExpressionTree named && PLAIN_CLASSES.stream()
        .anyMatch(plainClass -> argumentOnly.namesType(named, plainClass, owner, unit))) {
      locals.add(STRING_OR_BOX + name); // a string or a box, whose string is the JDK's
    }
    if (type == null && variable.getInitializer() != null) { // 'var s = 0.0;'
      Known initial = known(variable.getInitializer(), locals, owner);
      if (initial == Known.NUMBER) {
        locals.add(NUMBER + name);
      } else if (initial == Known.PLAIN) {
        locals.add(STRING_OR_BOX + name);
      }
    }
    if (type != null && type.getKind() == Tree.Kind.ARRAY_TYPE) {
      locals.add(ARRAY + name);
      Tree element = type;
      while (element instanceof com.sun.source.tree.ArrayTypeTree array) {
        element = array.getType();
      }
      if (element.getKind() == Tree.Kind.PRIMITIVE_TYPE) {
        locals.add(NUMBER_ARRAY + name);
      }
    }
  }

  /**
   * What is surely known of the value of an expression, from the least to the most: a
   * concatenation calls the {@code toString()} of a value that may be an object, which may run
   * code of the sources; that of a {@link #PLAIN} value is the JDK's.
   */
  private enum Known {
    /** It may be an object. */
    NOTHING,
    /** A number, a boolean, a string or a box (or {@code null}). */
    PLAIN,
    /** A number or a boolean. */
    NUMBER;

    /** What is known of a value that is either of two: the less of the two. */
    Known and(Known other) {
      return compareTo(other) <= 0 ? this : other;
    }

    boolean isPlain() {
      return this != NOTHING;
    }
  }

  /**
   * What {@code expression} surely gives: numbers from literals other than strings and
   * {@code null}, locals declared of a primitive type and elements of their arrays, fields of
   * primitive types, arithmetic and comparisons; plain values also from strings, boxes, a
   * concatenation of plain values, {@code Math}'s functions and the class's own methods
   * returning plain types. Anything else may be an object.
   */
  private Known known(ExpressionTree expression, Set<String> locals, TypeElement owner) {
    if (expression instanceof com.sun.source.tree.ParenthesizedTree parenthesized) {
      return known(parenthesized.getExpression(), locals, owner);
    }
    if (expression instanceof com.sun.source.tree.LiteralTree literal) {
      return literal.getKind() == Tree.Kind.STRING_LITERAL
          || literal.getKind() == Tree.Kind.NULL_LITERAL ? Known.PLAIN : Known.NUMBER;
    }
    if (expression instanceof com.sun.source.tree.UnaryTree) {
      return Known.NUMBER; // - + ~ ! ++ --: numbers and booleans
    }
    if (expression instanceof com.sun.source.tree.BinaryTree binary) {
      return binary.getKind() != Tree.Kind.PLUS ? Known.NUMBER
          : known(binary.getLeftOperand(), locals, owner)
              .and(known(binary.getRightOperand(), locals, owner));
    }
    if (expression instanceof com.sun.source.tree.ConditionalExpressionTree choice) {
      return known(choice.getTrueExpression(), locals, owner)
          .and(known(choice.getFalseExpression(), locals, owner));
    }
    if (expression instanceof com.sun.source.tree.TypeCastTree cast) {
      return cast.getType().getKind() == Tree.Kind.PRIMITIVE_TYPE ? Known.NUMBER : Known.NOTHING;
    }
    if (expression instanceof com.sun.source.tree.ArrayAccessTree access) {
      ExpressionTree array = access.getExpression();
      while (array instanceof com.sun.source.tree.ArrayAccessTree inner) {
        array = inner.getExpression();
      }
      if (array instanceof IdentifierTree identifier
          && locals.contains(identifier.getName().toString())) {
        return locals.contains(NUMBER_ARRAY + identifier.getName()) ? Known.NUMBER
            : Known.NOTHING;
      }
      Optional<javax.lang.model.type.TypeMirror> type =
          argumentOnly.fieldChainType(array, owner, unit);
      while (type.isPresent() && type.get() instanceof javax.lang.model.type.ArrayType arrayType) {
        type = Optional.of(arrayType.getComponentType());
      }
      return type.isPresent() && type.get().getKind().isPrimitive() ? Known.NUMBER
          : Known.NOTHING;
    }
    if (expression instanceof IdentifierTree identifier
        && locals.contains(identifier.getName().toString())) {
      return locals.contains(NUMBER + identifier.getName()) ? Known.NUMBER
          : locals.contains(STRING_OR_BOX + identifier.getName()) ? Known.PLAIN : Known.NOTHING;
    }
    if (expression instanceof IdentifierTree || expression instanceof MemberSelectTree) {
      return argumentOnly.fieldChainType(expression, owner, unit)
          .map(type -> type.getKind().isPrimitive() ? Known.NUMBER
              : isPlainType(type) ? Known.PLAIN : Known.NOTHING)
          .orElse(Known.NOTHING);
    }
    if (expression instanceof MethodInvocationTree invocation) {
      return givesPlainValues(invocation, owner) ? Known.PLAIN : Known.NOTHING;
    }
    return Known.NOTHING;
  }

  /**
   * Whether {@code invocation} calls one of {@code Math}'s functions, or methods of
   * {@code owner} ({@code f(...)}, {@code this.f(...)}) every one of which of that name returns
   * a plain type.
   */
  private boolean givesPlainValues(MethodInvocationTree invocation, TypeElement owner) {
    ExpressionTree select = invocation.getMethodSelect();
    String name;
    if (select instanceof IdentifierTree identifier) {
      name = identifier.getName().toString();
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree qualifier
        && (qualifier.getName().contentEquals("this")
            || (qualifier.getName().contentEquals("Math")
                || qualifier.getName().contentEquals("StrictMath"))
                && argumentOnly.namesMath(qualifier, owner, unit))) {
      if (!qualifier.getName().contentEquals("this")) {
        return true; // Math's functions give numbers
      }
      name = member.getIdentifier().toString();
    } else {
      return false;
    }
    List<ExecutableElement> methods = argumentOnly.methodsNamed(owner, name);
    return !methods.isEmpty()
        && methods.stream().allMatch(method -> isPlainType(method.getReturnType()));
  }

  /** Whether {@code array}, which an enhanced {@code for} walks, is an array of numbers. */
  private boolean elementsAreNumbers(ExpressionTree array, Set<String> locals,
      TypeElement owner) {
    if (array instanceof IdentifierTree identifier
        && locals.contains(identifier.getName().toString())) {
      return locals.contains(NUMBER_ARRAY + identifier.getName());
    }
    Optional<javax.lang.model.type.TypeMirror> type =
        argumentOnly.fieldChainType(array, owner, unit);
    return type.isPresent() && type.get() instanceof javax.lang.model.type.ArrayType arrayType
        && arrayType.getComponentType().getKind().isPrimitive();
  }

  /** A primitive type, {@code String} or a box: its string is the JDK's. */
  private static boolean isPlainType(javax.lang.model.type.TypeMirror type) {
    if (type.getKind().isPrimitive()) {
      return true;
    }
    return type instanceof javax.lang.model.type.DeclaredType declared
        && declared.asElement() instanceof TypeElement element
        && PLAIN_CLASSES.contains(element.getQualifiedName().toString());
  }

  /**
   * Whether {@code expression}, which an enhanced {@code for} walks, surely is an array: a
   * local or parameter declared as one, or a field of array type ({@code w}, {@code this.w}).
   */
  private boolean walksArray(ExpressionTree expression, Set<String> locals, TypeElement owner) {
    ExpressionTree walked = expression;
    while (walked instanceof com.sun.source.tree.ParenthesizedTree parenthesized) {
      walked = parenthesized.getExpression();
    }
    if (walked instanceof IdentifierTree identifier
        && locals.contains(identifier.getName().toString())) {
      return locals.contains(ARRAY + identifier.getName());
    }
    boolean field = walked instanceof IdentifierTree
        || walked instanceof MemberSelectTree select
            && select.getExpression() instanceof IdentifierTree self
            && self.getName().contentEquals("this");
    return field && argumentOnly.fieldChainType(walked, owner, unit)
        .filter(type -> type.getKind() == TypeKind.ARRAY).isPresent();
  }

  /** Whether an expression only reads, calls read-only methods and assigns locals. */
  private boolean expression(ExpressionTree expression, Set<String> locals, TypeElement owner) {
    boolean[] readOnly = {true};
    new TreeScanner<Void, Void>() {
      @Override
      public Void scan(Tree tree, Void unused) {
        if (tree == null || !readOnly[0]) {
          return null;
        }
        switch (tree.getKind()) {
          case ASSIGNMENT, PLUS_ASSIGNMENT, MINUS_ASSIGNMENT, MULTIPLY_ASSIGNMENT,
              DIVIDE_ASSIGNMENT, REMAINDER_ASSIGNMENT, AND_ASSIGNMENT, OR_ASSIGNMENT,
              XOR_ASSIGNMENT, LEFT_SHIFT_ASSIGNMENT, RIGHT_SHIFT_ASSIGNMENT,
              UNSIGNED_RIGHT_SHIFT_ASSIGNMENT, PREFIX_INCREMENT, PREFIX_DECREMENT,
              POSTFIX_INCREMENT, POSTFIX_DECREMENT:
            if (!writesLocal(tree, locals)
                || tree.getKind() == Tree.Kind.PLUS_ASSIGNMENT
                    && !plusAssignsNumber((com.sun.source.tree.CompoundAssignmentTree) tree,
                        locals, owner)) {
              readOnly[0] = false;
              return null;
            }
            return super.scan(tree, unused);
          case PLUS: {
            // a concatenation with an object calls its toString(), which may count
            com.sun.source.tree.BinaryTree plus = (com.sun.source.tree.BinaryTree) tree;
            if (!known(plus.getLeftOperand(), locals, owner).isPlain()
                || !known(plus.getRightOperand(), locals, owner).isPlain()) {
              readOnly[0] = false;
              return null;
            }
            return super.scan(tree, unused);
          }
          case METHOD_INVOCATION:
            if (!call((MethodInvocationTree) tree, locals, owner)) {
              readOnly[0] = false;
              return null;
            }
            return super.scan(((MethodInvocationTree) tree).getArguments(), unused);
          case NEW_CLASS, NEW_ARRAY, LAMBDA_EXPRESSION, MEMBER_REFERENCE, SWITCH_EXPRESSION:
            readOnly[0] = false;
            return null;
          default:
            return super.scan(tree, unused);
        }
      }
    }.scan(expression, null); // scan, not accept: the expression itself is looked at too
    return readOnly[0];
  }

  /**
   * Whether {@code s += v} adds numbers, or appends something whose string runs no code of the
   * sources ({@code label += tag} calls {@code tag.toString()}).
   */
  private boolean plusAssignsNumber(com.sun.source.tree.CompoundAssignmentTree assignment,
      Set<String> locals, TypeElement owner) {
    return known(assignment.getVariable(), locals, owner).isPlain()
        && (locals.contains(NUMBER + firstName(assignment.getVariable()))
            || known(assignment.getExpression(), locals, owner).isPlain());
  }

  private static String firstName(ExpressionTree target) {
    return target instanceof IdentifierTree identifier ? identifier.getName().toString() : "";
  }

  private static boolean writesLocal(Tree tree, Set<String> locals) {
    ExpressionTree target = tree instanceof com.sun.source.tree.AssignmentTree assignment
        ? assignment.getVariable()
        : tree instanceof com.sun.source.tree.CompoundAssignmentTree compound
            ? compound.getVariable() : ((com.sun.source.tree.UnaryTree) tree).getExpression();
    if (target instanceof MemberSelectTree select
        && select.getExpression() instanceof IdentifierTree self
        && self.getName().contentEquals("this")) {
      return locals.contains("this." + select.getIdentifier());
    }
    return target instanceof IdentifierTree identifier
        && (locals.contains(identifier.getName().toString())
            || locals.contains("this." + identifier.getName()));
  }

  /**
   * A call a read-only body may make: of a static method of {@code Math}, {@code String} or a
   * boxed type, or of a type's static method that is argument-only ({@code Double.isNaN(re)},
   * {@code Checks.positive(a)}), or of a method of {@code owner} named without a qualifier or
   * on {@code this}, every method of that name that is a member of {@code owner} (inherited
   * ones too) being argument-only or read-only.
   */
  private boolean call(MethodInvocationTree invocation, Set<String> locals, TypeElement owner) {
    ExpressionTree select = invocation.getMethodSelect();
    String name;
    TypeElement where;
    if (select instanceof IdentifierTree identifier) {
      name = identifier.getName().toString();
      if (name.equals("super") && invocation.getArguments().isEmpty()
          && Set.of("java.lang.Object", "java.lang.Record")
              .contains(owner.getSuperclass().toString())) {
        return true; // the constructor of Object or Record, which sets nothing
      }
      where = owner;
    } else if (select instanceof MemberSelectTree member
        && member.getExpression() instanceof IdentifierTree qualifier) {
      name = member.getIdentifier().toString();
      String first = qualifier.getName().toString();
      if (first.equals("this")) {
        where = owner;
      } else if ((first.equals("Math") || first.equals("StrictMath"))
          && argumentOnly.namesMath(qualifier, owner, unit)) {
        // java.lang's, not a class of the sources named so ('Model.Math', which may count)
        return !name.equals("random"); // Math's functions, but a draw differs each time
      } else {
        // a type's static method: 'Double.isNaN(re)' (not a local's or a field's method)
        return !locals.contains(first)
            && argumentOnly.callsArgumentOnly(qualifier, name, owner, unit);
      }
    } else {
      return false;
    }
    boolean any = false;
    // its own methods of the name and those it inherits: a call may choose an inherited one
    // ('scale()' of a superclass beside its own 'scale(int k)')
    for (ExecutableElement method : argumentOnly.methodsNamed(where, name)) {
      any = true;
      if (!(StaticMembers.isStatic(method) && argumentOnly.test(method))
          && !test(method)) {
        return false;
      }
    }
    return any;
  }
}
