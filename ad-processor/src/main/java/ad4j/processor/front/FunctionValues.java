package ad4j.processor.front;

import ad4j.processor.front.Symbols.CallTarget;
import ad4j.processor.ir.Block;
import ad4j.processor.ir.Declare;
import ad4j.processor.ir.If;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Store;
import ad4j.processor.ir.Variable;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreeScanner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/**
 * Function values whose code is known where they are called: a lambda or a method reference
 * held in a local of a functional interface type, or in a {@code static final} field of the
 * method's class initialised with one. A call of such a function
 * ({@code f.applyAsDouble(x)}) is lowered as the function's code with its parameters bound to
 * the arguments, so that the IR holds no function object and every later stage differentiates
 * it as if the user had written the code in place. A lambda's body sees the locals that were in
 * scope where it was written (Java lets it capture only effectively final ones, so their values
 * at the call are those at its definition). A {@code @Differentiable} method that takes a
 * function ({@link #takesFunction}) is inlined the same way at each call, for the function
 * passed there, wherever among the compilation's files it is declared: a template, with no
 * generated members of its own.
 */
final class FunctionValues {

  /** Lowers statements of a lambda's or an inlined method's body that hold no {@code return}. */
  interface StatementLowerer {
    boolean lower(List<? extends StatementTree> statements);
  }

  /**
   * The single abstract method of a functional interface that ad4j specialises: its name and
   * the IR types of its parameters and result ({@code Double} read as {@code double} for the
   * boxed interfaces of {@code java.util.function}); {@code records} holds, for each parameter,
   * the value record it takes (bound to the argument's flattened leaves, its IR type
   * {@code OBJECT}), or null; {@code resultRecord} the value record it returns (its result's IR
   * type {@code OBJECT}), or null.
   */
  record Signature(String name, List<NumericType> parameters, List<TypeElement> records,
      NumericType result, TypeElement resultRecord, boolean boxed) {
    Signature {
      parameters = List.copyOf(parameters);
      records = java.util.Collections.unmodifiableList(new ArrayList<>(records));
    }

    /** A signature over numbers and arrays only. */
    Signature(String name, List<NumericType> parameters, NumericType result, boolean boxed) {
      this(name, parameters, java.util.Collections.nCopies(parameters.size(), null), result,
          null, boxed);
    }

    /** The value record parameter {@code i} takes, if it takes one. */
    Optional<TypeElement> record(int i) {
      return Optional.ofNullable(records.get(i));
    }
  }

  /**
   * A function whose code is known: a lambda or a method reference, the locals its code sees
   * (empty for a field's), and the interface's method it implements.
   */
  record Known(ExpressionTree code, Map<String, LocalScopes.Local> captured,
      Signature signature, Symbols home) {}

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  private StatementLowerer statements;
  /** The functions being inlined now, innermost last: a function met again is recursion. */
  private final List<Tree> inlining = new ArrayList<>();

  FunctionValues(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
  }

  void useStatements(StatementLowerer lowerer) {
    this.statements = lowerer;
  }

  /**
   * Lowers {@code body}, statements holding no {@code return} (a record's compact constructor,
   * {@link RecordLowering}), where lowering is; returns whether its end can be reached.
   */
  boolean lowerStatements(List<? extends StatementTree> body) {
    return statements.lower(body);
  }

  // ---- which types and values are functions -----------------------------------------------

  /**
   * The method of {@code type} when it is a functional interface whose method takes
   * {@code double}, {@code float}, {@code int}, {@code long} or {@code boolean} values (their
   * boxes for the generic interfaces of {@code java.util.function}), {@code double[]} or
   * {@code float[]} arrays or value records, and returns such a value or a value record; empty
   * for every other type.
   */
  Optional<Signature> signature(TypeMirror type) {
    if (!(type instanceof DeclaredType declared)
        || declared.asElement().getKind() != ElementKind.INTERFACE) {
      return Optional.empty();
    }
    TypeElement element = (TypeElement) declared.asElement();
    List<ExecutableElement> abstractMethods = new ArrayList<>();
    for (ExecutableElement method
        : ElementFilter.methodsIn(context.elements().getAllMembers(element))) {
      if (method.getModifiers().contains(Modifier.ABSTRACT) && !isObjectMethod(method)) {
        abstractMethods.add(method);
      }
    }
    if (abstractMethods.size() != 1) {
      return Optional.empty();
    }
    ExecutableElement method = abstractMethods.get(0);
    ExecutableType resolved =
        (ExecutableType) context.types().asMemberOf(declared, method);
    boolean boxed = false;
    List<NumericType> parameters = new ArrayList<>();
    List<TypeElement> records = new ArrayList<>();
    for (TypeMirror parameter : resolved.getParameterTypes()) {
      Optional<TypeElement> record = ValueRecords.valueRecord(parameter);
      if (record.isPresent()) {
        parameters.add(NumericType.OBJECT);
        records.add(record.get());
        continue;
      }
      Optional<NumericType> kind = parameterType(parameter);
      if (kind.isEmpty()) {
        return Optional.empty();
      }
      boxed |= parameter.getKind() == TypeKind.DECLARED;
      parameters.add(kind.get());
      records.add(null);
    }
    Optional<TypeElement> resultRecord = ValueRecords.valueRecord(resolved.getReturnType());
    Optional<NumericType> result = resultRecord.isPresent() ? Optional.of(NumericType.OBJECT)
        : valueType(resolved.getReturnType());
    if (result.isEmpty()) {
      return Optional.empty();
    }
    boxed |= !resolved.getReturnType().getKind().isPrimitive() && resultRecord.isEmpty();
    if (boxed && !element.getQualifiedName().toString().startsWith("java.util.function.")) {
      return Optional.empty();
    }
    return Optional.of(new Signature(method.getSimpleName().toString(), parameters, records,
        result.get(), resultRecord.orElse(null), boxed));
  }

  /** Whether {@code type} is an interface with one abstract method (a function value). */
  static boolean isFunctionalInterface(TypeMirror type, javax.lang.model.util.Elements elements) {
    if (!(type instanceof DeclaredType declared)
        || declared.asElement().getKind() != ElementKind.INTERFACE) {
      return false;
    }
    return ElementFilter.methodsIn(elements.getAllMembers(
            (TypeElement) declared.asElement())).stream()
        .filter(m -> m.getModifiers().contains(Modifier.ABSTRACT) && !isObjectMethod(m))
        .count() == 1;
  }

  /**
   * Whether {@code method} takes a function: a parameter whose type is an interface of
   * {@code java.util.function} or one marked {@code @FunctionalInterface}. Such a
   * {@code @Differentiable} method is a template, differentiated at each call for the function
   * passed there, with no generated members of its own. Other interfaces with one abstract
   * method (a {@code Distribution} that classes implement) stay objects whose methods run as
   * written.
   */
  public static boolean takesFunction(ExecutableElement method,
      javax.lang.model.util.Elements elements) {
    return method.getParameters().stream()
        .anyMatch(parameter -> isFunctionType(parameter.asType(), elements));
  }

  /**
   * Whether {@code type} is a function type: an interface of {@code java.util.function} or one
   * marked {@code @FunctionalInterface}, whose values ad4j must know the code of.
   */
  static boolean isFunctionType(TypeMirror type, javax.lang.model.util.Elements elements) {
    if (!isFunctionalInterface(type, elements)) {
      return false;
    }
    TypeElement element = (TypeElement) ((DeclaredType) type).asElement();
    return element.getQualifiedName().toString().startsWith("java.util.function.")
        || element.getAnnotation(FunctionalInterface.class) != null;
  }

  /**
   * A function's parameter type: a value ({@link #valueType}) or an array of {@code double}s or
   * {@code float}s, which the function reads as the caller's array.
   */
  private Optional<NumericType> parameterType(TypeMirror type) {
    if (type.getKind() == TypeKind.ARRAY) {
      return context.irType(type).filter(array -> array == NumericType.DOUBLE_ARRAY
          || array == NumericType.FLOAT_ARRAY);
    }
    return valueType(type);
  }

  /**
   * A template's result type other than a value record: a value ({@link #valueType}) or a
   * {@code double[]} or {@code float[]} array, which the template returns to its caller.
   */
  private Optional<NumericType> resultType(TypeMirror type) {
    return parameterType(type);
  }

  /** A function's or a template's result type: a number or a {@code boolean}, or its box. */
  private Optional<NumericType> valueType(TypeMirror type) {
    TypeMirror primitive = type;
    if (!type.getKind().isPrimitive()) {
      try {
        primitive = context.types().unboxedType(type);
      } catch (IllegalArgumentException notABox) {
        return Optional.empty();
      }
    }
    return switch (primitive.getKind()) {
      case DOUBLE -> Optional.of(NumericType.DOUBLE);
      case FLOAT -> Optional.of(NumericType.FLOAT);
      case INT -> Optional.of(NumericType.INT);
      case LONG -> Optional.of(NumericType.LONG);
      case BOOLEAN -> Optional.of(NumericType.BOOLEAN);
      default -> Optional.empty();
    };
  }

  /** {@code equals}, {@code hashCode}, {@code toString}: an interface's restatement of them. */
  private static boolean isObjectMethod(ExecutableElement method) {
    String name = method.getSimpleName().toString();
    int arity = method.getParameters().size();
    return name.equals("equals") && arity == 1 || name.equals("hashCode") && arity == 0
        || name.equals("toString") && arity == 0;
  }

  /**
   * Whether the local {@code declaration} of {@code type} holds a function value: its type is a
   * function type, or it is initialised with a lambda or a method reference. A local of another
   * interface with one method ({@code Distribution d = new Normal(0, 1)}) is an object.
   */
  boolean holdsFunction(VariableTree declaration, TypeMirror type) {
    if (isFunctionType(type, context.elements())) {
      return true;
    }
    ExpressionTree code = declaration.getInitializer();
    while (code != null && code.getKind() == Tree.Kind.PARENTHESIZED) {
      code = ((com.sun.source.tree.ParenthesizedTree) code).getExpression();
    }
    return code != null && (code.getKind() == Tree.Kind.LAMBDA_EXPRESSION
        || code.getKind() == Tree.Kind.MEMBER_REFERENCE);
  }

  /**
   * Declares the local {@code declaration} of a functional interface type: it holds
   * the function its initializer gives, a lambda, a method reference or another local holding a
   * function. Anything else is an error at the initializer, since ad4j must see the code.
   */
  void declare(VariableTree declaration, Signature signature) {
    String name = declaration.getName().toString();
    ExpressionTree initializer = declaration.getInitializer();
    if (initializer == null) {
      unsupported(declaration, "function value '" + name + "' must be initialised where it is"
          + " declared, with a lambda or a method reference, so that ad4j knows its code");
      context.scopes().declareBroken(name);
      return;
    }
    Optional<Known> known = definition(initializer, signature);
    if (known.isEmpty()) {
      context.scopes().declareBroken(name);
      return;
    }
    context.scopes().declareFunction(name, known.get());
  }

  /** The function {@code initializer} gives; empty after an error. */
  private Optional<Known> definition(ExpressionTree initializer, Signature signature) {
    ExpressionTree code = initializer;
    while (code.getKind() == Tree.Kind.PARENTHESIZED) {
      code = ((com.sun.source.tree.ParenthesizedTree) code).getExpression();
    }
    if (code.getKind() == Tree.Kind.LAMBDA_EXPRESSION) {
      if (!checkBoxedComparisons((LambdaExpressionTree) code, signature)) {
        return Optional.empty();
      }
      return Optional.of(new Known(code, context.scopes().visible(), signature,
          context.symbols()));
    }
    if (code.getKind() == Tree.Kind.MEMBER_REFERENCE) {
      return isStaticReferenceShape((MemberReferenceTree) code)
          ? Optional.of(new Known(code, Map.of(), signature, context.symbols()))
          : Optional.empty();
    }
    if (code instanceof NewClassTree creation && creation.getClassBody() != null) {
      return implementation(creation, signature) == null ? Optional.empty()
          : Optional.of(new Known(code, context.scopes().visible(), signature,
              context.symbols()));
    }
    if (code instanceof NewClassTree creation && creation.getArguments().isEmpty()
        && context.trees().getElement(context.pathIn(creation.getIdentifier()))
            instanceof TypeElement named
        && named.getKind() == ElementKind.CLASS) {
      // new C() of a class of the file: its method's names are C's
      return namedImplementation(creation, named, signature) == null ? Optional.empty()
          : Optional.of(new Known(code, Map.of(), signature, context.symbolsIn(named)));
    }
    Optional<Known> named = known(code);
    if (named.isPresent() && named.get().signature().parameters().equals(signature.parameters())
        && named.get().signature().records().equals(signature.records())
        && named.get().signature().result() == signature.result()
        && java.util.Objects.equals(named.get().signature().resultRecord(),
            signature.resultRecord())) {
      return named;
    }
    unsupported(initializer, "the code of '" + context.source().of(initializer) + "' is not"
        + " known at compile time: " + KNOWN_FUNCTIONS);
    return Optional.empty();
  }

  /**
   * The function given as {@code argument} to an operation that applies it as
   * {@code signature} (a stream's {@code map}): a lambda or a method reference written there,
   * or a name of a known function. Null after an error.
   */
  Known argument(ExpressionTree argument, Signature signature) {
    Optional<Known> known = definition(argument, signature);
    return known.orElse(null);
  }

  /** What ad4j can specialise, for messages. */
  static final String KNOWN_FUNCTIONS = "ad4j differentiates a function value by its code,"
      + " so it must be a lambda or a method reference written in this method (held in a local),"
      + " or a 'static final' field of this class initialised with one";

  /**
   * With boxed parameters ({@code BiFunction<Double, Double, Double>}), {@code a == b}
   * compares objects, which the specialised code, over {@code double} values, cannot do: an
   * error at the comparison.
   */
  private boolean checkBoxedComparisons(LambdaExpressionTree lambda, Signature signature) {
    if (!signature.boxed()) {
      return true;
    }
    Set<String> parameters = new HashSet<>();
    lambda.getParameters().forEach(p -> parameters.add(p.getName().toString()));
    boolean[] ok = {true};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitBinary(BinaryTree tree, Void unused) {
        if ((tree.getKind() == Tree.Kind.EQUAL_TO || tree.getKind() == Tree.Kind.NOT_EQUAL_TO)
            && (isParameter(tree.getLeftOperand()) || isParameter(tree.getRightOperand()))) {
          unsupported(tree, "'" + context.source().of(tree) + "' compares boxed values of a"
              + " function over boxes: ad4j specialises it over 'double' values; compare"
              + " with '" + (tree.getKind() == Tree.Kind.EQUAL_TO ? "equals" : "!equals")
              + "', or use the primitive interface ('DoubleUnaryOperator',"
              + " 'DoubleBinaryOperator')");
          ok[0] = false;
        }
        return super.visitBinary(tree, unused);
      }

      private boolean isParameter(ExpressionTree operand) {
        return operand instanceof IdentifierTree identifier
            && parameters.contains(identifier.getName().toString());
      }
    }.scan(lambda.getBody(), null);
    return ok[0];
  }

  /**
   * The function {@code receiver} names: a local holding one, or a {@code static final} field
   * of the method's class initialised with a lambda or a method reference. Empty when it names
   * no such thing (other fields and parameters of functional types are {@link #unknown}).
   */
  Optional<Known> known(ExpressionTree receiver) {
    if (receiver instanceof IdentifierTree identifier) {
      LocalScopes.Local local = context.scopes().lookUp(identifier.getName().toString());
      if (local != null) {
        return Optional.ofNullable(local.function());
      }
    }
    return functionField(receiver).flatMap(this::fieldFunction);
  }

  /**
   * Whether {@code receiver} names a parameter, local or field of a functional interface type
   * whose code ad4j does not know here, and what it is, for messages.
   */
  Optional<String> unknown(ExpressionTree receiver) {
    if (known(receiver).isPresent()) {
      return Optional.empty();
    }
    if (receiver instanceof IdentifierTree identifier) {
      LocalScopes.Local local = context.scopes().lookUp(identifier.getName().toString());
      if (local != null) {
        boolean parameter = context.element().getParameters().stream()
            .anyMatch(p -> p.getSimpleName().contentEquals(identifier.getName()));
        return local.referenceType() != null
            && isFunctionType(local.referenceType(), context.elements())
            ? Optional.of((parameter ? "parameter '" : "local '") + identifier.getName() + "'")
            : Optional.empty();
      }
    }
    return functionField(receiver)
        .filter(field -> isFunctionType(field.asType(), context.elements()))
        .map(field -> "field '" + field.getSimpleName() + "'");
  }

  private Optional<VariableElement> functionField(ExpressionTree receiver) {
    if (receiver instanceof IdentifierTree identifier) {
      if (context.scopes().lookUp(identifier.getName().toString()) != null) {
        return Optional.empty();
      }
      return context.symbols().resolveField(identifier.getName().toString());
    }
    if (receiver instanceof MemberSelectTree select && Symbols.isName(select.getExpression())
        && !(select.getExpression() instanceof IdentifierTree first
            && context.scopes().lookUp(first.getName().toString()) != null)) {
      return context.symbols().resolveType(select.getExpression())
          .flatMap(owner -> context.symbols().fieldOf(owner, select.getIdentifier().toString()));
    }
    return Optional.empty();
  }

  /** A {@code static final} field of the method's class holding a lambda or a reference. */
  private Optional<Known> fieldFunction(VariableElement field) {
    if (!StaticMembers.isStatic(field)
        || !field.getModifiers().contains(Modifier.FINAL)) {
      return Optional.empty();
    }
    Optional<Signature> signature = signature(field.asType());
    TreePath path = context.trees().getPath(field);
    if (signature.isEmpty() || path == null
        || !(path.getLeaf() instanceof VariableTree declaration)
        || declaration.getInitializer() == null) {
      return Optional.empty();
    }
    ExpressionTree code = declaration.getInitializer();
    while (code.getKind() == Tree.Kind.PARENTHESIZED) {
      code = ((com.sun.source.tree.ParenthesizedTree) code).getExpression();
    }
    if (code.getKind() != Tree.Kind.LAMBDA_EXPRESSION
        && code.getKind() != Tree.Kind.MEMBER_REFERENCE) {
      return Optional.empty();
    }
    // the field's class must be the method's, or the class of a method taking a function
    // whose code is lowered here (of another file, maybe), so that the names in the code mean
    // at the call what they mean where it is written
    Element owner = field.getEnclosingElement();
    Symbols home = owner.equals(context.ownSymbols().enclosingType()) ? context.ownSymbols()
        : owner.equals(context.symbols().enclosingType()) ? context.symbols() : null;
    if (home == null) {
      return Optional.empty();
    }
    context.adopt(declaration, path.getCompilationUnit());
    return Optional.of(new Known(code, Map.of(), signature.get(), home));
  }

  // ---- calls ------------------------------------------------------------------------------

  /**
   * {@code receiver.m(arguments)} of a known function: its code with the arguments bound; null
   * after an error. Another method of the interface ({@code andThen}) is an error.
   */
  Operand call(Known function, MemberSelectTree select, MethodInvocationTree invocation) {
    String name = select.getIdentifier().toString();
    if (!name.equals(function.signature().name())
        || invocation.getArguments().size() != function.signature().parameters().size()) {
      unsupported(invocation, "call to '" + context.source().of(select) + "(...)' is not"
          + " supported: ad4j specialises a function value where its code is known, so it can"
          + " only be called, by '" + context.source().of(select.getExpression()) + "."
          + function.signature().name() + "(...)'");
      return null;
    }
    List<Operand> arguments = new ArrayList<>();
    for (int i = 0; i < invocation.getArguments().size(); i++) {
      ExpressionTree argument = invocation.getArguments().get(i);
      Optional<TypeElement> record = function.signature().record(i);
      arguments.add(record.isPresent() ? recordArgument(argument, record.get())
          : expressions.lower(argument));
    }
    if (arguments.contains(null)) {
      return null;
    }
    return apply(function, arguments, invocation);
  }

  /**
   * {@code argument} given where a function or a template takes value record {@code record}:
   * its leaves (read through its accessors when it is held as an object), standing in for it
   * until they are bound to the parameter; null after an error.
   */
  private Operand recordArgument(ExpressionTree argument, TypeElement record) {
    Optional<TypeElement> type = expressions.records().typeOf(argument);
    if (type.isEmpty() || !type.get().equals(record)) {
      unsupported(argument, "'" + context.source().of(argument) + "' is passed where a value"
          + " record '" + record.getSimpleName() + "' is taken, which ad4j passes to a function"
          + " flattened: pass a record made or held in the method (a local, a parameter,"
          + " 'new', a call of the record's methods)");
      return null;
    }
    RecordLowering.Tuple value = expressions.records().lower(argument);
    return value == null ? null : context.recordPlaceholder(value);
  }

  /**
   * The value of {@code function} at {@code arguments}, lowered in place; {@code site} is the
   * call that applies it, where errors are reported. Null after an error.
   */
  Operand apply(Known function, List<Operand> arguments, MethodInvocationTree site) {
    Signature signature = function.signature();
    if (inlining.contains(function.code())) {
      unsupported(site, "recursion through a function value is not supported: '"
          + context.source().of(function.code()) + "' calls itself; ad4j specialises a"
          + " function value where it is called, which a recursive one would never end; write"
          + " a recursive static method instead");
      return null;
    }
    List<Operand> bound = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      Operand argument = arguments.get(i);
      NumericType type = signature.parameters().get(i);
      if (signature.record(i).isPresent()) {
        bound.add(argument); // a record's placeholder (recordArgument), bound by declareBound
        continue;
      }
      if (!expressions.assignable(argument, type, site)) {
        return null;
      }
      bound.add(expressions.widened(argument, type));
    }
    if (signature.resultRecord() != null
        && function.code() instanceof MemberReferenceTree reference) {
      unsupported(reference, "'" + context.source().of(reference) + "' returns value record '"
          + signature.resultRecord().getSimpleName() + "', which ad4j supports for a lambda"
          + " ('p -> p.scale(2)'): write a lambda instead");
      return null;
    }
    inlining.add(function.code());
    // the function's names mean what they mean where it is written, also when a template of
    // another class applies it
    Symbols applying = context.symbols();
    context.resolveAs(function.home());
    try {
      Operand result = function.code() instanceof LambdaExpressionTree lambda
          ? lambda(lambda, function, bound)
          : function.code() instanceof NewClassTree creation
              ? anonymous(creation.getClassBody() != null ? implementation(creation, signature)
                  : namedImplementation(creation, (TypeElement) context.trees().getElement(
                      context.pathIn(creation.getIdentifier())),
                      signature), function, bound)
              : reference((MemberReferenceTree) function.code(), bound, site);
      if (result == null || signature.resultRecord() != null) {
        return result; // a record's placeholder (recordResult)
      }
      Tree at = function.code() instanceof LambdaExpressionTree lambda ? lambda.getBody()
          : function.code();
      if (!expressions.assignable(result, signature.result(), at)) {
        return null;
      }
      return expressions.widened(result, signature.result());
    } finally {
      context.resolveAs(applying);
      inlining.remove(inlining.size() - 1);
    }
  }

  /**
   * The value record that {@code invocation} gives when it calls a known function returning
   * one ({@code f.apply(p)} of a {@code UnaryOperator<Vec3>}).
   */
  Optional<TypeElement> recordResult(MethodInvocationTree invocation) {
    if (!(invocation.getMethodSelect() instanceof MemberSelectTree select)) {
      return Optional.empty();
    }
    return known(select.getExpression())
        .filter(f -> f.signature().name().contentEquals(select.getIdentifier()))
        .map(f -> f.signature().resultRecord());
  }

  /** A lambda's body, in the scope it was written in, its parameters bound to {@code values}. */
  private Operand lambda(LambdaExpressionTree lambda, Known function, List<Operand> values) {
    List<String> names = lambda.getParameters().stream()
        .map(parameter -> parameter.getName().toString()).toList();
    return withBound(function, names, values, () -> {
      TypeElement record = function.signature().resultRecord();
      if (record != null && lambda.getBodyKind() == LambdaExpressionTree.BodyKind.EXPRESSION) {
        RecordLowering.Tuple value = returnedRecord((ExpressionTree) lambda.getBody(), record);
        return value == null ? null : context.recordPlaceholder(value);
      }
      if (record != null) {
        return returnedRecord(((BlockTree) lambda.getBody()).getStatements(), "result", record,
            lambda, "the lambda can complete without a 'return'");
      }
      if (lambda.getBodyKind() == LambdaExpressionTree.BodyKind.EXPRESSION) {
        return expressions.lower((ExpressionTree) lambda.getBody());
      }
      return returnedBy(((BlockTree) lambda.getBody()).getStatements(), "result",
          function.signature().result(), lambda, "the lambda can complete without a 'return'");
    });
  }

  /**
   * {@code body}, lowered in the scope {@code function} was written in, with its parameters
   * {@code names} bound to {@code values}.
   */
  private Operand withBound(Known function, List<String> names, List<Operand> values,
      java.util.function.Supplier<Operand> body) {
    LoweringContext.Position position = context.position();
    java.util.Deque<Map<String, LocalScopes.Local>> saved =
        context.scopes().enter(function.captured());
    try {
      context.scopes().push();
      for (int i = 0; i < values.size(); i++) {
        declareBound(names.get(i), function.signature().parameters().get(i), values.get(i));
      }
      return body.get();
    } finally {
      context.scopes().leave(saved);
      context.resume(position);
    }
  }

  /**
   * The value {@code body} returns, lowered here, each {@code return} storing into a variable
   * {@code name} of {@code type}; an error at {@code at}, {@code withoutReturn}, when its end
   * can be reached. Null after an error.
   */
  private Operand returnedBy(List<? extends StatementTree> body, String name, NumericType type,
      Tree at, String withoutReturn) {
    Variable result = ir.variable(name, type, null);
    ir.add(new Declare(result, Operand.Constant.zero(type), context.line()));
    int errors = diagnostics.errorCount();
    Returns stores = returned -> {
      Operand value = expressions.lower(returned);
      if (value != null && expressions.assignable(value, type, returned)) {
        ir.add(new Store(result, expressions.convert(value, type), context.line()));
      }
    };
    if (lowerTail(body, stores) && diagnostics.errorCount() == errors) {
      unsupported(at, withoutReturn);
    }
    return diagnostics.errorCount() != errors ? null
        : new Operand.Use(context.readVariable(result));
  }

  /** What a {@code return} of an inlined body does with the value it returns. */
  private interface Returns {
    /** Lowers {@code returned}, the expression of a {@code return}, and keeps its value. */
    void store(ExpressionTree returned);
  }

  /**
   * The value record {@code record} that {@code body} returns, lowered here, its leaves standing
   * in for it (a placeholder); an error at {@code at}, {@code withoutReturn}, when its end can
   * be reached. A body that returns once, as its last statement, gives the leaves of the record
   * it returns as they are; one with more {@code return}s stores them into a variable per leaf
   * ({@code name} and the leaf's suffix), as {@link #returnedBy} stores a number. Null after an
   * error.
   */
  private Operand returnedRecord(List<? extends StatementTree> body, String name,
      TypeElement record, Tree at, String withoutReturn) {
    if (returnsOnceAtTheEnd(body)) {
      ReturnTree last = (ReturnTree) body.get(body.size() - 1);
      if (!beforeTheReturn(body)) {
        return null;
      }
      RecordLowering.Tuple value = returnedRecord(last.getExpression(), record);
      return value == null ? null : context.recordPlaceholder(value);
    }
    List<ValueRecords.Leaf> leaves = ValueRecords.leaves(record);
    if (leaves.stream().anyMatch(leaf -> leaf.type().isReference() || leaf.type().isArray())) {
      unsupported(at, "value record '" + record.getSimpleName() + "' is returned by more than"
          + " one 'return' here, which ad4j supports for records of numbers and booleans only;"
          + " return once, at the end");
      return null;
    }
    List<Variable> variables = new ArrayList<>();
    for (ValueRecords.Leaf leaf : leaves) {
      Variable variable = ir.variable(name + leaf.suffix(), leaf.type(), null);
      ir.add(new Declare(variable, Operand.Constant.zero(leaf.type()), context.line()));
      variables.add(variable);
    }
    int errors = diagnostics.errorCount();
    Returns stores = returned -> {
      RecordLowering.Tuple value = returnedRecord(returned, record);
      for (int i = 0; value != null && i < variables.size(); i++) {
        ir.add(new Store(variables.get(i), value.leaves().get(i), context.line()));
      }
    };
    if (lowerTail(body, stores) && diagnostics.errorCount() == errors) {
      unsupported(at, withoutReturn);
    }
    if (diagnostics.errorCount() != errors) {
      return null;
    }
    List<Operand> values = new ArrayList<>();
    for (Variable variable : variables) {
      values.add(new Operand.Use(context.readVariable(variable)));
    }
    return context.recordPlaceholder(new RecordLowering.Tuple(record, values));
  }

  /** The value record {@code record} that {@code returned} gives; null after an error. */
  private RecordLowering.Tuple returnedRecord(ExpressionTree returned, TypeElement record) {
    Optional<TypeElement> type = expressions.records().typeOf(returned);
    if (type.isEmpty() || !type.get().equals(record)) {
      unsupported(returned, "'" + context.source().of(returned) + "' is returned where value"
          + " record '" + record.getSimpleName() + "' is, which ad4j returns from a function"
          + " flattened: return a record made or held in the method (a local, a parameter,"
          + " 'new', a call of the record's methods)");
      return null;
    }
    return expressions.records().lower(returned);
  }

  /**
   * The array of {@code type} that {@code body}, of a method taking a function, returns,
   * lowered here: the body must return once, as its last statement, an array it made (its
   * local, a clone), never one of {@code bound}, the arguments, which the caller holds already,
   * nor one it must not write, so that the caller gets an array of its own, as from a call.
   * Null after an error.
   */
  private Operand returnedArray(List<? extends StatementTree> body, NumericType type,
      List<Object> bound, MethodTree method, String withoutReturn) {
    if (!returnsOnceAtTheEnd(body)) {
      unsupported(body.isEmpty() || containsReturn(body.get(body.size() - 1)) ? method
          : body.get(body.size() - 1), body.stream().anyMatch(FunctionValues::containsReturn)
          ? "'" + method.getName() + "' takes a function and returns '" + type.keyword() + "',"
              + " which ad4j inlines where it is called when it returns once, as its last"
              + " statement: compute the result into one local array and return it at the end"
          : withoutReturn);
      return null;
    }
    ReturnTree last = (ReturnTree) body.get(body.size() - 1);
    if (!beforeTheReturn(body)) {
      return null;
    }
    Operand value = expressions.lower(last.getExpression());
    if (value == null) {
      return null;
    }
    boolean passed = value instanceof Operand.Use use && bound.stream().anyMatch(argument ->
        argument instanceof Operand.Use given && given.value() == use.value());
    if (!(value instanceof Operand.Use use) || value.type() != type || passed
        || context.isReadOnly(use.value())) {
      String shown = context.source().of(last.getExpression());
      unsupported(last.getExpression(), "'" + shown + "' is an array that the caller of '"
          + method.getName() + "' holds already, or one it must not write, and ad4j inlines '"
          + method.getName() + "' where it is called, so the caller would get that array, not"
          + " one of its own: return an array made in the method ('" + shown + ".clone()')");
      return null;
    }
    return value;
  }

  /** Whether {@code body} holds one {@code return}, its last statement. */
  private static boolean returnsOnceAtTheEnd(List<? extends StatementTree> body) {
    return !body.isEmpty() && body.get(body.size() - 1) instanceof ReturnTree last
        && last.getExpression() != null
        && body.subList(0, body.size() - 1).stream().noneMatch(FunctionValues::containsReturn);
  }

  /**
   * Lowers the statements of {@code body} before its final {@code return}, and starts the
   * {@code return}'s statement; false, after an error, when they cannot complete.
   */
  private boolean beforeTheReturn(List<? extends StatementTree> body) {
    ReturnTree last = (ReturnTree) body.get(body.size() - 1);
    int errors = diagnostics.errorCount();
    if (!statements.lower(body.subList(0, body.size() - 1))) {
      if (diagnostics.errorCount() == errors) {
        diagnostics.error(last, "unreachable statement");
      }
      return false;
    }
    if (diagnostics.errorCount() != errors) {
      return false;
    }
    context.startStatement(last);
    return true;
  }

  // ---- anonymous classes ------------------------------------------------------------------

  /**
   * The method of {@code creation}, an anonymous class of a functional interface, that
   * implements it; null after an error. ad4j inlines that method's body as a lambda's, so the
   * class must hold nothing else (no field, other method or initializer, which the body could
   * use through its instance), and the body must not name its instance: no {@code this} or
   * {@code super}, and no unqualified name of a member of the interface or of {@code Object},
   * which in the class mean the instance's members and here would not.
   */
  private MethodTree implementation(NewClassTree creation, Signature signature) {
    MethodTree method = null;
    for (Tree member : creation.getClassBody().getMembers()) {
      if (member instanceof MethodTree constructor
          && constructor.getName().contentEquals("<init>")) {
        continue; // the constructor javac writes: an anonymous class cannot declare one
      }
      if (member instanceof MethodTree candidate
          && candidate.getName().contentEquals(signature.name())
          && candidate.getParameters().size() == signature.parameters().size()
          && candidate.getBody() != null && method == null) {
        method = candidate;
      } else {
        unsupported(member, "an anonymous class used as a function is supported when it holds"
            + " only its method '" + signature.name() + "': ad4j inlines that method where the"
            + " function is called; write the rest as static methods, or use a lambda");
        return null;
      }
    }
    if (method == null || !creation.getArguments().isEmpty()) {
      unsupported(creation, "the anonymous class '" + context.source().of(creation.getIdentifier())
          + "' does not implement '" + signature.name() + "' in its body; ad4j inlines that"
          + " method where the function is called");
      return null;
    }
    Set<String> instanceNames = new HashSet<>();
    Element type = context.trees().getElement(context.pathIn(creation.getIdentifier()));
    for (Element owner : List.of(type == null ? context.elements()
        .getTypeElement("java.lang.Object") : type, context.elements()
        .getTypeElement("java.lang.Object"))) {
      if (owner instanceof TypeElement ownerType) {
        for (Element member : context.elements().getAllMembers(ownerType)) {
          instanceNames.add(member.getSimpleName().toString());
        }
      }
    }
    return namesNoInstance(method, instanceNames) ? method : null;
  }

  /**
   * The method of {@code named} that implements the function, for {@code new C()} of a class
   * of the file; null after an error. ad4j inlines it as it inlines an anonymous class's, its
   * names resolved in the class, so {@code new C()} must make nothing the method could read:
   * the class extends {@code Object}, has no instance field or initializer and no constructor
   * that does anything, and the method names no instance member.
   */
  private MethodTree namedImplementation(NewClassTree creation, TypeElement named,
      Signature signature) {
    TreePath path = context.trees().getPath(named);
    String shown = "new " + context.source().of(creation.getIdentifier()) + "()";
    if (path == null || path.getCompilationUnit() != context.diagnostics().unitOf(creation)
        || !(path.getLeaf() instanceof ClassTree declaration)) {
      unsupported(creation, "'" + shown + "' as a function: ad4j inlines the method of a class"
          + " used as a function, by its source, which must be in this file");
      return null;
    }
    TypeMirror object = context.elements().getTypeElement("java.lang.Object").asType();
    if (!context.types().isSameType(named.getSuperclass(), object)) {
      unsupported(creation, "'" + shown + "' as a function: ad4j inlines the method of a class"
          + " used as a function when the class extends only 'Object'");
      return null;
    }
    MethodTree method = null;
    for (Tree member : declaration.getMembers()) {
      if (member instanceof MethodTree candidate && candidate.getName().contentEquals("<init>")) {
        List<? extends StatementTree> statements = candidate.getBody().getStatements();
        boolean onlySuper = statements.stream().allMatch(statement ->
            context.source().of(statement).replace(" ", "").equals("super();"));
        if (!candidate.getParameters().isEmpty() || !onlySuper) {
          unsupported(member, "'" + shown + "' as a function: ad4j inlines the method of a class"
              + " used as a function without making an instance, so the class must not declare"
              + " a constructor that takes or does anything");
          return null;
        }
      } else if (member instanceof MethodTree candidate
          && candidate.getName().contentEquals(signature.name())
          && candidate.getParameters().size() == signature.parameters().size()
          && candidate.getBody() != null) {
        method = candidate;
      } else if (member instanceof VariableTree field
          && !field.getModifiers().getFlags().contains(Modifier.STATIC)
          || member instanceof BlockTree block && !block.isStatic()) {
        unsupported(member, "'" + shown + "' as a function: ad4j inlines the method of a class"
            + " used as a function without making an instance, so the class must hold no"
            + " instance fields or initializers; make them static, or use a lambda");
        return null;
      }
    }
    if (method == null) {
      unsupported(creation, "'" + shown + "' as a function: its class does not declare '"
          + signature.name() + "' itself; ad4j inlines that method where the function is"
          + " called");
      return null;
    }
    Set<String> instanceNames = new HashSet<>();
    for (Element member : context.elements().getAllMembers(named)) {
      if (!StaticMembers.isStatic(member)) {
        instanceNames.add(member.getSimpleName().toString());
      }
    }
    return namesNoInstance(method, instanceNames) ? method : null;
  }

  /**
   * Whether the body of {@code method}, inlined without its instance, names none of
   * {@code instanceNames}, nor {@code this} or {@code super}; an error at the first that it
   * names.
   */
  private boolean namesNoInstance(MethodTree method, Set<String> instanceNames) {
    Tree[] instanceUse = {null};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitIdentifier(IdentifierTree tree, Void unused) {
        String name = tree.getName().toString();
        if (instanceUse[0] == null && (name.equals("this") || name.equals("super")
            || instanceNames.contains(name))) {
          instanceUse[0] = tree;
        }
        return null;
      }

      @Override
      public Void visitMemberSelect(MemberSelectTree tree, Void unused) {
        return scan(tree.getExpression(), null); // a qualified name is not the instance's
      }
    }.scan(method.getBody(), null);
    if (instanceUse[0] != null) {
      unsupported(instanceUse[0], "'" + context.source().of(instanceUse[0]) + "' in a class"
          + " used as a function names the class's instance or its members; ad4j inlines the"
          + " method's body where the function is called, where no such instance exists");
      return false;
    }
    return true;
  }

  /** An anonymous class's method, in the scope it was written in, bound to {@code values}. */
  private Operand anonymous(MethodTree method, Known function, List<Operand> values) {
    if (method == null) {
      return null;
    }
    context.planInlined(VariablePlanner.plan(method));
    List<String> names = method.getParameters().stream()
        .map(parameter -> parameter.getName().toString()).toList();
    String withoutReturn = "method '" + method.getName() + "' can complete without a 'return'";
    TypeElement record = function.signature().resultRecord();
    return withBound(function, names, values, () -> record != null
        ? returnedRecord(method.getBody().getStatements(), "result", record, method,
            withoutReturn)
        : returnedBy(method.getBody().getStatements(), "result", function.signature().result(),
            method, withoutReturn));
  }

  private void declareBound(String name, NumericType type, Operand value) {
    if (name.isEmpty() || name.equals("_")) {
      return;
    }
    Optional<RecordLowering.Tuple> record = context.recordOf(value);
    if (record.isPresent()) {
      // a value record: a record local whose leaves are the argument's, as a record's own
      // inlined method binds the records passed to it
      expressions.records().declareLocal(name, record.get().type(), record.get());
      return;
    }
    context.scopes().declareLocal(name, type, context);
    LocalScopes.Local local = context.scopes().lookUp(name);
    if (local.variable() != null) {
      ir.add(new Declare(local.variable(), value, context.line()));
    } else {
      context.bind(local, value);
    }
  }

  /**
   * The statements of a lambda's block body, each {@code return} storing into {@code result}.
   * A {@code return} may end the body, a block or a branch of an {@code if}: the statements
   * after an {@code if} whose branch returns are lowered into each branch that goes on (no
   * jump is needed to skip them), so the lambda's value is stored on every path. Returns
   * whether the end can be reached.
   */
  private boolean lowerTail(List<? extends StatementTree> body, Returns result) {
    for (int i = 0; i < body.size(); i++) {
      StatementTree statement = body.get(i);
      List<? extends StatementTree> rest = body.subList(i + 1, body.size());
      if (statement instanceof ReturnTree ret) {
        if (!rest.isEmpty()) {
          diagnostics.error(rest.get(0), "unreachable statement");
          return false;
        }
        context.startStatement(ret);
        if (ret.getExpression() == null) {
          unsupported(ret, "'return' without a value in a lambda that returns a value");
          return false;
        }
        result.store(ret.getExpression());
        return false;
      }
      if (!containsReturn(statement)) {
        if (!statements.lower(List.of(statement))) {
          if (!rest.isEmpty()) {
            diagnostics.error(rest.get(0), "unreachable statement");
          }
          return false;
        }
        continue;
      }
      if (statement instanceof BlockTree block) {
        context.scopes().push();
        boolean completes = lowerTail(block.getStatements(), result);
        context.scopes().pop();
        return completes && lowerTail(rest, result);
      }
      if (statement instanceof IfTree branch) {
        context.startStatement(branch);
        Operand condition = expressions.lower(branch.getCondition());
        if (condition != null && condition.type() != NumericType.BOOLEAN) {
          unsupported(branch.getCondition(), "the condition must be a boolean");
          condition = null;
        }
        ad4j.processor.ir.SourceLine line = context.line();
        boolean thenCompletes = branch(branch.getThenStatement(), rest, result);
        Block thenBlock = ir.closeBlock();
        boolean elseCompletes = branch(branch.getElseStatement(), rest, result);
        Block elseBlock = ir.closeBlock();
        if (condition != null) {
          ir.add(new If(ir.nextStatementId(), condition, thenBlock, elseBlock, line));
        }
        return thenCompletes || elseCompletes;
      }
      unsupported(statement, "a 'return' of a lambda or of a method taking a function inside "
          + ExpressionLowering.describe(statement) + " is not supported: ad4j inlines such code"
          + " where it is called; return at the end of the body or of the branches of an 'if',"
          + " after the loop or switch (assign the value to a local inside it)");
      return false;
    }
    return true;
  }

  /** One branch of an {@code if} in a lambda, then {@code rest}, in a new block left open. */
  private boolean branch(StatementTree statement, List<? extends StatementTree> rest,
      Returns result) {
    ir.openBlock();
    context.scopes().push();
    boolean completes = statement == null || lowerTail(List.of(statement), result);
    context.scopes().pop();
    return completes && lowerTail(rest, result);
  }

  /** Whether {@code statement} holds a {@code return} of the lambda (not of a nested one). */
  private static boolean containsReturn(StatementTree statement) {
    boolean[] found = {false};
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitReturn(ReturnTree tree, Void unused) {
        found[0] = true;
        return null;
      }

      @Override
      public Void visitLambdaExpression(LambdaExpressionTree tree, Void unused) {
        return null;
      }

      @Override
      public Void visitClass(ClassTree tree, Void unused) {
        return null;
      }
    }.scan(statement, null);
    return found[0];
  }

  // ---- methods that take functions: templates ---------------------------------------------

  /**
   * The {@code @Differentiable} method taking a function that {@code owner.name(...)} calls with
   * {@code arity} arguments: the only one of that name and arity, when it is such a method.
   */
  Optional<ExecutableElement> template(TypeElement owner, String name, int arity) {
    List<ExecutableElement> candidates = CalleeResolver.candidates(context, owner, name).stream()
        .filter(m -> m.getParameters().size() == arity).toList();
    if (candidates.size() != 1 || !CalleeResolver.isDifferentiable(candidates.get(0))
        || !takesFunction(candidates.get(0), context.elements())
        || candidates.get(0).isVarArgs()) {
      return Optional.empty();
    }
    return Optional.of(candidates.get(0));
  }

  /**
   * {@code method(arguments)} of a {@code @Differentiable} method taking a function: its body,
   * inlined here with its parameters bound to the arguments and its function parameters to the
   * functions passed, so that it is differentiated for them. Null after an error.
   */
  Operand inline(ExecutableElement method, MethodInvocationTree invocation, String shown) {
    TreePath path = context.trees().getPath(method);
    if (path == null || !(path.getLeaf() instanceof com.sun.source.tree.MethodTree tree)
        || tree.getBody() == null
        || !(method.getEnclosingElement() instanceof TypeElement owner)) {
      TypeElement declaring = (TypeElement) method.getEnclosingElement();
      unsupported(invocation, "call to '" + shown + "' is not supported: '"
          + method.getSimpleName() + "' takes a function, and ad4j differentiates such a method"
          + " at each call, for the function passed there, from its source, which this"
          + " compilation does not have: '" + declaring.getQualifiedName() + "' was compiled"
          + " earlier, and no generated member stands for '" + method.getSimpleName() + "';"
          + " compile its source file together with this one");
      return null;
    }
    // a method of another file: its code is read, and reported about, in its own file
    context.adopt(tree, path.getCompilationUnit());
    Optional<TypeElement> resultRecord = ValueRecords.valueRecord(method.getReturnType());
    Optional<NumericType> resultType = resultRecord.isPresent()
        ? Optional.of(NumericType.OBJECT) : resultType(method.getReturnType());
    if (resultType.isEmpty()) {
      unsupported(invocation, "call to '" + shown + "': '" + method.getSimpleName() + "' takes a"
          + " function and returns '" + method.getReturnType() + "'; ad4j specialises such"
          + " methods returning 'double', 'float', 'int', 'long' or 'boolean', a 'double[]' or"
          + " 'float[]' array, or a value record");
      return null;
    }
    if (inlining.contains(tree)) {
      unsupported(invocation, "recursion through a function value is not supported: '"
          + method.getSimpleName() + "' takes a function and calls itself; ad4j specialises it"
          + " at each call, which a recursive one would never end");
      return null;
    }
    List<Object> bound = new ArrayList<>(); // a Known for a function, else an Operand
    for (int i = 0; i < method.getParameters().size(); i++) {
      VariableElement parameter = method.getParameters().get(i);
      ExpressionTree argument = invocation.getArguments().get(i);
      if (isFunctionType(parameter.asType(), context.elements())) {
        Optional<Signature> signature = signature(parameter.asType());
        if (signature.isEmpty()) {
          unsupported(argument, "parameter '" + parameter.getSimpleName() + "' of '"
              + method.getSimpleName() + "' has type '" + parameter.asType() + "': ad4j"
              + " specialises functions that take 'double', 'float', 'int', 'long' or 'boolean'"
              + " values, 'double[]' or 'float[]' arrays or value records, and return such a"
              + " value");
          return null;
        }
        Known known = argument(argument, signature.get());
        if (known == null) {
          return null;
        }
        bound.add(known);
        continue;
      }
      Optional<TypeElement> record = ValueRecords.valueRecord(parameter.asType());
      if (record.isPresent()) {
        Operand value = recordArgument(argument, record.get());
        if (value == null) {
          return null;
        }
        bound.add(value);
        continue;
      }
      Optional<NumericType> type = context.irType(parameter.asType());
      Operand value = expressions.lower(argument);
      if (value == null) {
        return null;
      }
      if (type.isEmpty() || type.get().isReference()) {
        unsupported(argument, "parameter '" + parameter.getSimpleName() + "' of '"
            + method.getSimpleName() + "' has type '" + parameter.asType() + "': a method"
            + " taking a function is inlined where it is called, with numbers, arrays of"
            + " numbers and value records for its other parameters");
        return null;
      }
      if (type.get().isArray()) {
        if (value.type() != type.get()) {
          unsupported(argument, "'" + context.source().of(argument) + "' is not a '"
              + type.get().keyword() + "'");
          return null;
        }
        bound.add(value);
      } else {
        if (!expressions.assignable(value, type.get(), argument)) {
          return null;
        }
        bound.add(expressions.widened(value, type.get()));
      }
    }
    context.planInlined(VariablePlanner.plan(tree));
    // an inlined body's swaps exchange nothing: their arrays get variables, and are errors
    Set<String> swapped = new java.util.HashSet<>();
    ArraySwaps.in(tree).forEach(swap -> {
      swapped.add(swap.first());
      swapped.add(swap.second());
    });
    context.planInlined(swapped);
    LoweringContext.Position position = context.position();
    java.util.Deque<Map<String, LocalScopes.Local>> saved = context.scopes().enter(Map.of());
    inlining.add(tree);
    // its unqualified names are its own class's, which may be another class of the file
    Symbols calling = context.resolveIn(owner);
    try {
      context.scopes().push();
      for (int i = 0; i < bound.size(); i++) {
        String name = method.getParameters().get(i).getSimpleName().toString();
        if (bound.get(i) instanceof Known known) {
          context.scopes().declareFunction(name, known);
        } else {
          Operand value = (Operand) bound.get(i);
          declareBound(name, value.type(), value);
        }
      }
      String withoutReturn = "method '" + method.getSimpleName() + "' can reach its end"
          + " without a 'return'";
      if (resultRecord.isPresent()) {
        return returnedRecord(tree.getBody().getStatements(), method.getSimpleName().toString(),
            resultRecord.get(), tree, withoutReturn);
      }
      if (resultType.get().isArray()) {
        return returnedArray(tree.getBody().getStatements(), resultType.get(), bound, tree,
            withoutReturn);
      }
      return returnedBy(tree.getBody().getStatements(), method.getSimpleName().toString(),
          resultType.get(), tree, withoutReturn);
    } finally {
      context.resolveAs(calling);
      inlining.remove(inlining.size() - 1);
      context.scopes().leave(saved);
      context.resume(position);
    }
  }

  /**
   * {@code Owner::name} applied to {@code values}: the call {@code Owner.name(values)} of a
   * static method ({@code Math::sin}, a method of the compilation, {@code @Differentiable} or
   * not), lowered as that call is.
   */
  private Operand reference(MemberReferenceTree reference, List<Operand> values,
      MethodInvocationTree site) {
    String shown = context.source().of(reference);
    if (!isStaticReferenceShape(reference)) {
      return null;
    }
    CallTarget target = context.symbols().resolveQualifiedCall(
        reference.getQualifierExpression());
    if (target instanceof CallTarget.Unresolved) {
      diagnostics.unresolved(reference, "cannot find class '"
          + context.source().of(reference.getQualifierExpression()) + "'");
      return null;
    }
    if (target instanceof CallTarget.OtherMethod other) {
      Optional<ExecutableElement> method = CalleeResolver.choice(context,
          CalleeResolver.candidates(context, other.owner(), reference.getName().toString()),
          values).map(Overloads.Choice::method);
      if (method.isPresent() && !StaticMembers.isStatic(method.get())) {
        unsupported(reference, "method reference '" + shown + "' names an instance method:"
            + " ad4j specialises references to static methods; write a lambda instead");
        return null;
      }
      if (method.isPresent() && method.get().getReturnType().getKind() == TypeKind.VOID) {
        unsupported(reference, "method reference '" + shown + "' names a 'void' method");
        return null;
      }
    }
    String call = context.source().of(reference.getQualifierExpression()) + "."
        + reference.getName() + "(...)";
    return expressions.resolvedCall(site, reference, reference.getName().toString(), target,
        values, call);
  }

  /**
   * Whether {@code reference} has the shape of a reference to a static method,
   * {@code Owner::name} with a class name; else an error at it.
   */
  private boolean isStaticReferenceShape(MemberReferenceTree reference) {
    if (reference.getMode() != MemberReferenceTree.ReferenceMode.INVOKE
        || !Symbols.isName(reference.getQualifierExpression())
        || (reference.getQualifierExpression() instanceof IdentifierTree first
            && (context.scopes().lookUp(first.getName().toString()) != null
                || context.symbols().resolveField(first.getName().toString()).isPresent()))) {
      unsupported(reference, "method reference '" + context.source().of(reference) + "' is not"
          + " supported: ad4j specialises references to static methods ('Math::sin',"
          + " 'MyClass::f'); write a lambda instead");
      return false;
    }
    return true;
  }

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
