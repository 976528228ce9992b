package ad4j.processor.front;

import ad4j.processor.front.Symbols.CallTarget;
import ad4j.processor.ir.IrBuilder;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
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
 * <p>This class applies a function, its arguments bound; which function a name or an argument
 * gives is {@link FunctionDefinitions}', which types are functions {@link FunctionTypes}', the
 * body inlined with its parameters bound is {@link InlinedBodies}', the method a class used as a
 * function implements is {@link FunctionImplementations}'.
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
   * type {@code OBJECT}), or null. {@code boxedParameters} tells, for each parameter, whether
   * Java gives it as a box ({@code Function<Double, Double>}'s, {@code
   * ToDoubleFunction<Double>}'s), {@code boxedResult} whether the result is one
   * ({@code Function<Double, Double>}'s {@code apply}, not {@code ToDoubleFunction<Double>}'s
   * {@code applyAsDouble}).
   */
  record Signature(String name, List<NumericType> parameters, List<TypeElement> records,
      NumericType result, TypeElement resultRecord, List<Boolean> boxedParameters,
      boolean boxedResult) {
    Signature {
      parameters = List.copyOf(parameters);
      records = java.util.Collections.unmodifiableList(new ArrayList<>(records));
      boxedParameters = List.copyOf(boxedParameters);
    }

    /** A signature over numbers and arrays only, none of them boxed. */
    Signature(String name, List<NumericType> parameters, NumericType result) {
      this(name, parameters, java.util.Collections.nCopies(parameters.size(), null), result,
          null, java.util.Collections.nCopies(parameters.size(), false), false);
    }

    /** Whether a parameter or the result is a box in Java. */
    boolean boxed() {
      return boxedResult || boxedParameters.contains(true);
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
      Signature signature, Symbols home, RecordLowering.Frame frame) {
    /** Code written outside the methods of records (a method reference, a field's lambda). */
    Known(ExpressionTree code, Map<String, LocalScopes.Local> captured, Signature signature,
        Symbols home) {
      this(code, captured, signature, home, null);
    }
  }

  private final LoweringContext context;
  private final ExpressionLowering expressions;
  private final IrBuilder ir;
  private final Diagnostics diagnostics;
  private final FunctionTypes types;
  private final InlinedBodies bodies;
  private final FunctionImplementations implementations;
  private final FunctionTemplates templates;
  private final FunctionDefinitions definitions;
  private StatementLowerer statements;
  /**
   * The functions being inlined now, by their {@link #key}s, innermost last: a function met
   * again is recursion. (Templates keep their own specialisations under way.)
   */
  private final List<List<Object>> inlining = new ArrayList<>();

  FunctionValues(LoweringContext context, ExpressionLowering expressions) {
    this.context = context;
    this.expressions = expressions;
    this.ir = context.ir();
    this.diagnostics = context.diagnostics();
    this.types = new FunctionTypes(context);
    this.bodies = new InlinedBodies(context, expressions, this);
    this.implementations = new FunctionImplementations(context);
    this.templates = new FunctionTemplates(context, expressions, this, types, bodies);
    this.definitions = new FunctionDefinitions(context, types, implementations,
        () -> expressions.records().frame());
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

  /** Which function a local, a field or an argument holds. */
  FunctionDefinitions definitions() {
    return definitions;
  }

  /** {@link FunctionTypes#signature}. */
  Optional<Signature> signature(TypeMirror type) {
    return types.signature(type);
  }

  /** Which types are functions ad4j specialises. */
  FunctionTypes types() {
    return types;
  }

  /**
   * What tells one inlining of {@code function} from another: its code, and the code of each
   * function value it sees, by name. The same lambda applied for another function
   * ('t -> f.applyAsDouble(t)' in a template specialised twice, nested, for two functions 'f')
   * is not recursion; keys are made of finitely many trees, so endless recursion meets one
   * again.
   */
  static List<Object> key(Known function) {
    List<Object> key = new ArrayList<>();
    key.add(function.code());
    new TreeMap<>(function.captured()).forEach((name, local) -> {
      if (local.function() != null) {
        key.add(name);
        key.add(local.function().code());
      }
    });
    return key;
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
      Operand lowered = record.isPresent() ? recordArgument(argument, record.get())
          : expressions.lower(argument);
      // 'f.applyAsDouble(xs.get(i))': Java unboxes an argument where the function takes a
      // number, as soon as it is evaluated
      arguments.add(function.signature().parameters().get(i).isNumeric()
          ? expressions.unboxing().number(lowered) : lowered);
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
    List<Object> key = key(function);
    if (inlining.contains(key)) {
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
    inlining.add(key);
    // the function's names mean what they mean where it is written, also when a template of
    // another class applies it
    Symbols applying = context.symbols();
    context.resolution().resolveAs(function.home());
    try {
      Operand result = function.code() instanceof LambdaExpressionTree lambda
          ? lambda(lambda, function, bound)
          : function.code() instanceof NewClassTree creation
              ? anonymous(creation.getClassBody() != null
                  ? implementations.implementation(creation, signature)
                  : implementations.namedImplementation(creation,
                      implementations.createdType(creation), signature), function, bound)
              : reference((MemberReferenceTree) function.code(), signature, bound, site);
      if (result == null || signature.resultRecord() != null) {
        return result; // a record's placeholder (recordResult)
      }
      Tree at = function.code() instanceof LambdaExpressionTree lambda ? lambda.getBody()
          : function.code();
      if (signature.result().isNumeric()) {
        result = expressions.unboxing().number(result); // w -> w of a stream of Doubles
      }
      if (!expressions.conversions().assignable(result, signature.result(), at)) {
        return null;
      }
      return expressions.conversions().widened(result, signature.result());
    } finally {
      context.resolution().resolveAs(applying);
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
    return definitions.known(select.getExpression())
        .filter(f -> f.signature().name().contentEquals(select.getIdentifier()))
        .map(f -> f.signature().resultRecord());
  }

  /** A lambda's body, in the scope it was written in, its parameters bound to {@code values}. */
  private Operand lambda(LambdaExpressionTree lambda, Known function, List<Operand> values) {
    context.variables().planInlined(VariablePlanner.plan(lambda));
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
    context.variables().planInlined(VariablePlanner.plan(method));
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
  private Operand reference(MemberReferenceTree reference, Signature signature,
      List<Operand> values, MethodInvocationTree site) {
    String shown = context.source().of(reference);
    if (!definitions.isStaticReferenceShape(reference)) {
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
      List<ExecutableElement> candidates =
          CallChoices.candidates(context, other.owner(), reference.getName().toString());
      Optional<ExecutableElement> method = CallChoices.choice(context, candidates, values)
          .map(Overloads.Choice::method);
      if (choosesAnotherForBoxes(reference, signature, candidates, values, method)) {
        return null;
      }
      // 'V::x' for 'v -> v.x()': no static method takes the function's arguments, an instance
      // one takes them but the first, its receiver; as a call 'V.x(v)' it would be an error
      // about the argument, not about the reference
      boolean unbound = method.isEmpty() && !candidates.isEmpty()
          && candidates.stream().noneMatch(StaticMembers::isStatic);
      if (unbound && receivesObject(other.owner(), values)) {
        // 'Sample::weight' given a stream's element: 's -> s.weight()', run as written
        return expressions.objects().writtenCall(values.get(0), reference.getName().toString(),
            reference, context.source().of(reference.getQualifierExpression()) + "."
                + reference.getName() + "()");
      }
      if (unbound || method.isPresent() && !StaticMembers.isStatic(method.get())) {
        unsupported(reference, "method reference '" + shown + "' names an instance method:"
            + " ad4j specialises references to static methods; write a lambda instead");
        return null;
      }
      if (method.isPresent() && method.get().getReturnType().getKind() == TypeKind.VOID) {
        unsupported(reference, "method reference '" + shown + "' names a 'void' method");
        return null;
      }
      if (method.isPresent()
          && Unboxing.unboxedType(context.types(), method.get().getReturnType()).isPresent()) {
        // as a call its boxed result meets the specialised function's 'double' result: an
        // error about an 'Object' assigned to a 'double', which the user never wrote
        unsupported(reference, "method reference '" + shown + "' returns a '"
            + context.types().asElement(method.get().getReturnType()).getSimpleName()
            + "' object: ad4j specialises functions over 'double' values, and differentiates"
            + " no object; write a lambda that computes the number ('v -> v' for boxing alone)");
        return null;
      }
    }
    String call = context.source().of(reference.getQualifierExpression()) + "."
        + reference.getName() + "(...)";
    return expressions.resolvedCall(site, reference, reference.getName().toString(), target,
        values, call);
  }


  /**
   * Whether Java, which gives {@code reference} the boxes a function over boxes takes
   * ({@code B::g} as a {@code Function<Double, Double>}: a {@code Double}), chooses another of
   * {@code candidates} than {@code method}, which the numbers ad4j holds for them choose
   * ({@code g(Double)} or {@code g(Object)} beside {@code g(double)}); an error then, true.
   */
  private boolean choosesAnotherForBoxes(MemberReferenceTree reference, Signature signature,
      List<ExecutableElement> candidates, List<Operand> values,
      Optional<ExecutableElement> method) {
    Optional<List<TypeMirror>> types = context.javaTypes().javaTypesOf(values);
    if (!signature.boxedParameters().contains(true) || types.isEmpty()) {
      return false;
    }
    List<TypeMirror> written = new ArrayList<>(types.get());
    for (int i = 0; i < written.size(); i++) {
      if (signature.boxedParameters().get(i) && written.get(i).getKind().isPrimitive()) {
        written.set(i, context.types().boxedClass(
            (javax.lang.model.type.PrimitiveType) written.get(i)).asType());
      }
    }
    Optional<ExecutableElement> java = context.calleeServices().overloads()
        .choose(candidates, written).map(Overloads.Choice::method);
    if (java.equals(method)) {
      return false;
    }
    unsupported(reference, "method reference '" + context.source().of(reference) + "' is"
        + " given boxes by its function over boxes, with which Java chooses "
        + java.map(CallChoices::signature).orElse("no method") + ", where ad4j, which"
        + " specialises the function over numbers, would choose "
        + method.map(CallChoices::signature).orElse("no method") + "; use the primitive interface"
        + " ('DoubleUnaryOperator', 'DoubleBinaryOperator'), or write a lambda that calls the"
        + " method you mean");
    return true;
  }

  /**
   * Whether {@code values} is one object (not a flattened value record) of {@code owner}'s
   * type, the receiver an unbound reference to one of {@code owner}'s methods without
   * parameters is applied to ({@code Double::doubleValue}, {@code Sample::weight} given a
   * stream's element).
   */
  private boolean receivesObject(TypeElement owner, List<Operand> values) {
    // a value record ad4j flattens is no object: its placeholder stands for its leaves
    return values.size() == 1 && context.flatRecords().recordOf(values.get(0)).isEmpty()
        && context.javaTypes().isObjectOf(values.get(0), owner);
  }

  private void unsupported(Tree tree, String message) {
    diagnostics.error(tree, message);
  }
}
