package ad4j.processor.front;

import ad4j.processor.front.Symbols.CallTarget;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.BinaryTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
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
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Function values whose code is known where they are called: a lambda or a method reference
 * held in a local of a functional interface type, or in a {@code static final} field of the
 * method's class initialised with one. A call of such a function
 * ({@code f.applyAsDouble(x)}) is lowered as the function's code with its parameters bound to
 * the arguments, so that the IR holds no function object and every later stage differentiates
 * it as if the user had written the code in place. A lambda's body sees the locals that were in
 * scope where it was written (Java lets it capture only effectively final ones, so their values
 * at the call are those at its definition). A {@code @Differentiable} method that takes a
 * function ({@link FunctionTypes#takesFunction}) is inlined the same way at each call, for the
 * function passed there, wherever among the compilation's files it is declared: a template,
 * with no generated members of its own ({@link FunctionTemplates}).
 *
 * <p>This class decides which function a name or an argument gives and applies it; which types
 * are functions is {@link FunctionTypes}', the body inlined with its parameters bound is
 * {@link InlinedBodies}', the method a class used as a function implements is
 * {@link FunctionImplementations}'.
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
  private final FunctionTypes types;
  private final InlinedBodies bodies;
  private final FunctionImplementations implementations;
  private final FunctionTemplates templates;
  private StatementLowerer statements;
  /** The functions being inlined now, innermost last: a function met again is recursion. */
  private final List<Tree> inlining = new ArrayList<>();

  FunctionValues(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
    this.types = new FunctionTypes(context);
    this.bodies = new InlinedBodies(context, expressions, this);
    this.implementations = new FunctionImplementations(context);
    this.templates = new FunctionTemplates(context, expressions, this, types, bodies);
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

  /** {@link FunctionTypes#signature}. */
  Optional<Signature> signature(TypeMirror type) {
    return types.signature(type);
  }

  /** Whether {@code code} is being inlined now: met again, it would be recursion. */
  boolean isInlining(Tree code) {
    return inlining.contains(code);
  }

  /** From now on {@code code} is being inlined, inside those that were. */
  void startInlining(Tree code) {
    inlining.add(code);
  }

  /** The function inlined last is done. */
  void endInlining() {
    inlining.remove(inlining.size() - 1);
  }

  // ---- which values are functions ---------------------------------------------------------

  /**
   * Whether the local {@code declaration} of {@code type} holds a function value: its type is a
   * function type, or it is initialised with a lambda or a method reference. A local of another
   * interface with one method ({@code Distribution d = new Normal(0, 1)}) is an object.
   */
  boolean holdsFunction(VariableTree declaration, TypeMirror type) {
    if (FunctionTypes.isFunctionType(type, context.elements())) {
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
      return implementations.implementation(creation, signature) == null ? Optional.empty()
          : Optional.of(new Known(code, context.scopes().visible(), signature,
              context.symbols()));
    }
    if (code instanceof NewClassTree creation && creation.getArguments().isEmpty()
        && context.trees().getElement(context.pathIn(creation.getIdentifier()))
            instanceof TypeElement named
        && named.getKind() == ElementKind.CLASS) {
      // new C() of a class of the file: its method's names are C's
      return implementations.namedImplementation(creation, named, signature) == null
          ? Optional.empty()
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
          // not 'equals' or 'doubleValue()': the specialised parameters are doubles, which
          // have no methods (an error at the call)
          unsupported(tree, "'" + context.source().of(tree) + "' compares boxed values of a"
              + " function over boxes by reference: ad4j specialises it over 'double' values;"
              + " use the primitive interface ('DoubleUnaryOperator', 'DoubleBinaryOperator'),"
              + " whose '" + (tree.getKind() == Tree.Kind.EQUAL_TO ? "==" : "!=")
              + "' compares the numbers");
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
            && FunctionTypes.isFunctionType(local.referenceType(), context.elements())
            ? Optional.of((parameter ? "parameter '" : "local '") + identifier.getName() + "'")
            : Optional.empty();
      }
    }
    return functionField(receiver)
        .filter(field -> FunctionTypes.isFunctionType(field.asType(), context.elements()))
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
    Optional<Signature> signature = types.signature(field.asType());
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
  Operand recordArgument(ExpressionTree argument, TypeElement record) {
    Optional<TypeElement> type = expressions.records().typeOf(argument);
    if (type.isEmpty() || !type.get().equals(record)) {
      unsupported(argument, "'" + context.source().of(argument) + "' is passed where a value"
          + " record '" + record.getSimpleName() + "' is taken, which ad4j passes to a function"
          + " flattened: pass a record made or held in the method (a local, a parameter,"
          + " 'new', a call of the record's methods)");
      return null;
    }
    RecordLowering.Tuple value = expressions.records().lower(argument);
    return value == null ? null : context.flatRecords().recordPlaceholder(value);
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
      if (!expressions.conversions().assignable(argument, type, site)) {
        return null;
      }
      bound.add(expressions.conversions().widened(argument, type));
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
              ? anonymous(creation.getClassBody() != null
                  ? implementations.implementation(creation, signature)
                  : implementations.namedImplementation(creation,
                      (TypeElement) context.trees().getElement(
                          context.pathIn(creation.getIdentifier())),
                      signature), function, bound)
              : reference((MemberReferenceTree) function.code(), bound, site);
      if (result == null || signature.resultRecord() != null) {
        return result; // a record's placeholder (recordResult)
      }
      Tree at = function.code() instanceof LambdaExpressionTree lambda ? lambda.getBody()
          : function.code();
      if (!expressions.conversions().assignable(result, signature.result(), at)) {
        return null;
      }
      return expressions.conversions().widened(result, signature.result());
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
    return bodies.withBound(function, names, values, () -> {
      TypeElement record = function.signature().resultRecord();
      if (record != null && lambda.getBodyKind() == LambdaExpressionTree.BodyKind.EXPRESSION) {
        RecordLowering.Tuple value =
            bodies.returnedRecord((ExpressionTree) lambda.getBody(), record);
        return value == null ? null : context.flatRecords().recordPlaceholder(value);
      }
      if (record != null) {
        return bodies.returnedRecord(((BlockTree) lambda.getBody()).getStatements(), "result",
            record, lambda, "the lambda can complete without a 'return'");
      }
      if (lambda.getBodyKind() == LambdaExpressionTree.BodyKind.EXPRESSION) {
        return expressions.lower((ExpressionTree) lambda.getBody());
      }
      return bodies.returnedBy(((BlockTree) lambda.getBody()).getStatements(), "result",
          function.signature().result(), lambda, "the lambda can complete without a 'return'");
    });
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
    return bodies.withBound(function, names, values, () -> record != null
        ? bodies.returnedRecord(method.getBody().getStatements(), "result", record, method,
            withoutReturn)
        : bodies.returnedBy(method.getBody().getStatements(), "result",
            function.signature().result(), method, withoutReturn));
  }

  // ---- methods that take functions: templates ---------------------------------------------

  /** {@link FunctionTemplates#template}. */
  Optional<ExecutableElement> template(TypeElement owner, String name, int arity) {
    return templates.template(owner, name, arity);
  }

  /** {@link FunctionTemplates#inline}. */
  Operand inline(ExecutableElement method, MethodInvocationTree invocation, String shown) {
    return templates.inline(method, invocation, shown);
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
