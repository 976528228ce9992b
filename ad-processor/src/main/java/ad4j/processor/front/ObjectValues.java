package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.ParameterizedTypeTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.ExecutableType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Values of reference types other than the arrays ad4j computes with: objects, enums, records
 * used as data, strings, arrays of other element types or ranks ({@link NumericType#OBJECT} and
 * {@link NumericType#STRING}). They carry no derivative; what reads them runs as written in
 * every generated member, once wherever the user's method runs it: a field read
 * ({@code p.x}), an element or the length of an array, a call of one of their methods
 * ({@code d.density(x)}, {@code sb.append(k)}), an object created with {@code new}. A value
 * that carries a derivative must not flow into an object (an argument of a constructor, or of
 * an instance method whose result is a floating-point number): that is an error naming the
 * chain.
 */
final class ObjectValues {
  private final LoweringContext context;

  ObjectValues(LoweringContext context) {
    this.context = context;
  }

  /** {@code receiver.field}: a field of an object; null after an error. */
  Operand field(Operand receiver, String name, Tree at) {
    Optional<TypeMirror> mirror = context.javaTypes().referenceTypeOf(receiver);
    boolean isArray = receiver.type().isArray()
        || mirror.map(m -> m.getKind() == TypeKind.ARRAY).orElse(false);
    if (isArray && name.equals("length")) {
      return context.emit(Operation.LENGTH, List.of(receiver), NumericType.INT, false);
    }
    if (mirror.isEmpty() || !(mirror.get() instanceof DeclaredType declared)) {
      context.diagnostics().error(at, "'" + context.source().of(at) + "' is not supported: only"
          + " fields of objects, static constants and the 'length' of an array can be read"
          + " with '.'");
      return null;
    }
    TypeElement type = (TypeElement) declared.asElement();
    Optional<VariableElement> field = context.symbols().fieldOf(type, name);
    if (field.isEmpty()) {
      context.diagnostics().unresolved(at, "cannot find field '" + name + "' in '"
          + type.getQualifiedName() + "'");
      return null;
    }
    TypeMirror fieldType =
        context.javaTypes().heldAs(context.types().asMemberOf(declared, field.get()), declared);
    Optional<String> unreachable = reachability(field.get(), type);
    Optional<String> handle = unreachable.isPresent()
        ? new PrivateFields(context).handle(field.get()) : Optional.empty();
    Optional<String> typeText = fieldType.getKind().isPrimitive()
        ? Optional.of(fieldType.toString()) : context.javaTypes().javaText(fieldType);
    if (unreachable.isPresent() && (handle.isEmpty() || typeText.isEmpty())) {
      context.diagnostics().error(at, "'" + context.source().of(at) + "' carries no derivative"
          + " and would be read as written, but generated code cannot read the field: "
          + unreachable.get());
      return null;
    }
    // a private field of a class generated code can name: through the generated class's handle
    Operation operation = handle.isPresent()
        ? Operation.handleRead(handle.get(), typeText.get()) : Operation.fieldRead(name);
    Operand read = result(operation, List.of(receiver), fieldType, at);
    // a final field holds what the constructor put there; another one what any call may have
    context.dependences().runsAsWritten(read, type.getSimpleName() + "." + name,
        field.get().getModifiers().contains(Modifier.FINAL));
    return read;
  }

  /** {@code array[index]} of an array of another type than those ad4j computes with. */
  Operand element(Operand array, Operand index, Tree at) {
    TypeMirror component = ((ArrayType) context.javaTypes().referenceTypeOf(array).orElseThrow())
        .getComponentType();
    Operand element = result(Operation.ELEMENT, List.of(array, index), component, at);
    context.notedCalls().readsState(element); // a call run as written may have written it
    return element;
  }

  /** Whether {@code operand} is an array of another type than those ad4j computes with. */
  boolean isOtherArray(Operand operand) {
    return operand.type() == NumericType.OBJECT && context.javaTypes().referenceTypeOf(operand)
        .map(mirror -> mirror.getKind() == TypeKind.ARRAY).orElse(false);
  }

  /**
   * {@code receiver.name(arguments)}: a method of an object or string; null after an error.
   * {@code discarded} when the call is a statement of its own.
   */
  Operand call(Operand receiver, String name, List<Operand> arguments,
      MethodInvocationTree invocation, String shown, boolean discarded) {
    Optional<TypeMirror> mirror = context.javaTypes().referenceTypeOf(receiver);
    if (mirror.isEmpty() || !(mirror.get() instanceof DeclaredType declared)) {
      context.diagnostics().error(invocation, "call to '" + shown + "': ad4j runs methods of"
          + " objects and strings as written, and '"
          + context.source().of(receiverTree(invocation)) + "' is neither");
      return null;
    }
    TypeElement type = (TypeElement) declared.asElement();
    ExecutableElement method = CallChoices.chooseOn(context, declared, name, arguments);
    if (method == null) {
      context.diagnostics().error(invocation, "call to '" + shown + "': ad4j finds no method '"
          + name + "' of '" + type.getQualifiedName() + "' that takes these arguments (ad4j"
          + " passes numbers, booleans, strings and objects to calls it runs as written)");
      return null;
    }
    if (StaticMembers.isStatic(method)) {
      context.diagnostics().error(invocation, "call to '" + shown + "': '" + name + "' is a"
          + " static method; call it on its class, as '" + type.getSimpleName() + "." + name
          + "(...)'");
      return null;
    }
    ResolutionLog.resolved(context, invocation, method);
    TypeMirror result = context.javaTypes().heldAs(context.calleeServices().overloads()
        .resultType(method, (ExecutableType) context.types().asMemberOf(declared, method),
            context.javaTypes().javaTypesOf(arguments).orElseThrow()), declared);
    int active = firstActive(arguments);
    if (active >= 0 && !discarded && isFloatingPoint(result)) {
      context.diagnostics().error(invocation, "call to '" + shown + "' is not differentiable: '"
          + context.source().of(invocation.getArguments().get(active)) + "' carries a"
          + " derivative into '" + context.source().of(invocation) + "', which ad4j cannot"
          + " differentiate: '" + type.getSimpleName() + "." + name + "' is a method of an"
          + " object, which ad4j runs as written; " + advice(method, type.getSimpleName() + "."
          + name) + ", or give its partial derivatives with @DerivativeOf (rules that take the"
          + " object first)");
      return null;
    }
    for (int i = 0; i < arguments.size(); i++) {
      if (isActiveArray(arguments.get(i))) {
        context.diagnostics().error(invocation, "call to '" + shown + "' passes '"
            + context.source().of(invocation.getArguments().get(i)) + "', an array that carries"
            + " derivatives, to a method of an object, which ad4j would run as written and"
            + " which could write into it; pass the elements it needs");
        return null;
      }
    }
    Optional<String> unreachable = reachability(method, type);
    // a private method of the user's class: the generated class calls it through a method
    // handle of its own, the receiver first
    Optional<String> privateCall = unreachable.isPresent()
        ? new PrivateFields(context).call(method) : Optional.empty();
    if (unreachable.isPresent() && privateCall.isEmpty()) {
      context.diagnostics().error(invocation, "call to '" + shown + "' carries no derivative"
          + " and would run as written, but generated code cannot call it: "
          + unreachable.get());
      return null;
    }
    List<Operand> all = new ArrayList<>();
    all.add(receiver);
    all.addAll(arguments);
    Operand value = result(privateCall.map(call -> Operation.plainCall(call, all.size()))
        .orElseGet(() -> Operation.instanceCall(name, all.size())), all, result, invocation);
    boolean argumentsOnly = LaunderedDependence.readsArgumentsOnly(method.getEnclosingElement())
        && arguments.stream().noneMatch(a -> a.type() == NumericType.OBJECT);
    // a method of a string or a box runs alike each time and changes nothing
    return new InactiveCalls(context).ranAsWritten(value, type.getSimpleName() + "." + name,
        argumentsOnly, method, type, invocation, shown);
  }

  /**
   * {@code receiver.name()}, a call without arguments that the lowering writes for the user
   * (the {@code iterator()}, {@code hasNext()} and {@code next()} of an enhanced {@code for}
   * over an {@code Iterable}): chosen, reached and run as written as the user's own calls of
   * an object's methods are. Errors go to {@code at} and name the call {@code shown}; null
   * after one.
   */
  Operand writtenCall(Operand receiver, String name, Tree at, String shown) {
    DeclaredType declared = (DeclaredType) context.javaTypes().referenceTypeOf(receiver)
        .orElseThrow();
    TypeElement type = (TypeElement) declared.asElement();
    ExecutableElement method = CallChoices.chooseOn(context, declared, name, List.of());
    Optional<String> unreachable = method == null ? Optional.of("it has no method '" + name
        + "()'") : reachability(method, type);
    if (unreachable.isPresent()) {
      context.diagnostics().error(at, "'" + shown + "' would run as written, but generated"
          + " code cannot call it: " + unreachable.get());
      return null;
    }
    TypeMirror result = context.javaTypes().heldAs(
        ((ExecutableType) context.types().asMemberOf(declared, method)).getReturnType(),
        declared);
    Operand value = result(Operation.instanceCall(name, 1), List.of(receiver), result, at);
    return value == null ? null : new InactiveCalls(context).ranAsWritten(value,
        type.getSimpleName() + "." + name, false, method, type, at, shown);
  }

  /**
   * What to do about an object's method that a derivative flows into: annotate it, where
   * ad4j would differentiate it then (an instance method of a class of the user's sources, its
   * receiver carrying no derivative), else compute the value in a static method.
   */
  private String advice(ExecutableElement method, String qualified) {
    if (context.calleeServices().isCompiledFromSource(method)
        && new InactiveCalls(context).whyAnnotatingWouldNotHelp(method).isEmpty()) {
      return "annotate '" + qualified + "' with @Differentiable (an instance method's object"
          + " carries no derivative)";
    }
    return "compute the value in a static @Differentiable method";
  }

  /** The error for argument {@code active} of {@code creation}, which carries a derivative. */
  private void carriesDerivativeInto(NewClassTree creation, int active, DeclaredType declared) {
    context.diagnostics().error(creation, "'" + context.source().of(
        creation.getArguments().get(active)) + "' carries a derivative into '"
        + context.source().of(creation) + "', which ad4j cannot differentiate: "
        + (ValueRecords.isMixed(declared)
            ? "'" + declared.asElement().getSimpleName() + "' is a record ad4j does not flatten"
                + " yet (" + ValueRecords.obstacle(declared) + "), so an object, and objects"
                + " carry no derivatives"
            : "objects carry no derivatives")
        + "; pass the numbers themselves to a @Differentiable method");
  }

  /** {@code new Type(arguments)} of an object that carries no derivative; null after an error. */
  Operand construction(NewClassTree creation, List<Operand> arguments) {
    return construction(creation, arguments, null);
  }

  /**
   * {@code new Type(arguments)} that initializes a variable declared of type {@code target}
   * (null: anywhere else), which decides a diamond's type arguments ({@link DiamondTypes}).
   */
  Operand construction(NewClassTree creation, List<Operand> arguments, TypeMirror target) {
    String shown = context.source().of(creation);
    if (creation.getClassBody() != null || creation.getEnclosingExpression() != null) {
      context.diagnostics().error(creation, "'" + shown + "' is not supported: ad4j creates"
          + " objects of named classes only, not anonymous or inner ones");
      return null;
    }
    Optional<TypeMirror> mirror = context.javaTypes().typeMirrorOf(creation.getIdentifier());
    if (mirror.isEmpty() && context.isLocalClass(creation.getIdentifier())) {
      return null; // the class's declaration is the error
    }
    if (mirror.isEmpty() && target != null
        && creation.getIdentifier() instanceof ParameterizedTypeTree generic
        && generic.getTypeArguments().isEmpty()
        && context.javaTypes().typeMirrorOf(generic.getType()).orElse(null)
            instanceof DeclaredType diamond) {
      // 'List<Double> xs = new ArrayList<>()': the declared type decides the arguments
      mirror = DiamondTypes.made((TypeElement) diamond.asElement(), target, context.types())
          .map(TypeMirror.class::cast);
    }
    if (mirror.isEmpty() && creation.getIdentifier() instanceof ParameterizedTypeTree generic
        && generic.getTypeArguments().isEmpty()
        && context.javaTypes().typeMirrorOf(generic.getType()).isPresent()) {
      // a diamond: the tree of 'G<>' has no type of its own, its class does
      int active = firstActive(arguments);
      if (active >= 0 && context.javaTypes().typeMirrorOf(generic.getType()).get()
          instanceof DeclaredType diamond) {
        // what stays in the way with the type arguments written out
        carriesDerivativeInto(creation, active, diamond);
        return null;
      }
      context.diagnostics().error(creation, "'" + shown + "' is not supported here: ad4j"
          + " infers a diamond's type arguments only from the declared type of the local it"
          + " initializes ('List<Double> xs = new ArrayList<>()'); write them out ('new "
          + context.source().of(generic.getType()) + "<...>(...)')");
      return null;
    }
    if (mirror.isEmpty() || !(mirror.get() instanceof DeclaredType declared)) {
      context.diagnostics().unresolved(creation.getIdentifier(), "cannot find class '"
          + context.source().of(creation.getIdentifier()) + "'");
      return null;
    }
    TypeElement type = (TypeElement) declared.asElement();
    if (!type.getTypeParameters().isEmpty() && declared.getTypeArguments().isEmpty()) {
      context.diagnostics().error(creation, "'" + shown + "' is not supported: ad4j creates"
          + " objects of generic classes only with their type arguments written out");
      return null;
    }
    int active = firstActive(arguments);
    if (active >= 0) {
      carriesDerivativeInto(creation, active, declared);
      return null;
    }
    Optional<String> problem = new InactiveCalls(context).constructionProblem(declared,
        arguments);
    if (problem.isPresent()) {
      context.diagnostics().error(creation, "'" + shown + "' carries no derivative and would"
          + " run as written, but generated code cannot create it: " + problem.get());
      return null;
    }
    Optional<String> text = context.javaTypes().javaText(declared);
    if (text.isEmpty()) {
      context.diagnostics().error(creation, "'" + shown + "': generated code cannot name its"
          + " type: " + context.javaTypes().typeProblem(declared));
      return null;
    }
    Operand made = result(Operation.construction(text.get(), arguments.size()), arguments,
        declared, creation);
    context.dependences().runsAsWritten(made, "new " + type.getSimpleName(), false);
    if (made == null) {
      return null;
    }
    Optional<ExecutableElement> constructor = CallChoices.constructorChoice(context, declared,
        arguments).map(Overloads.Choice::method);
    // a record's own constructor, one that only sets its fields: it changes nothing else
    boolean readOnly = constructor.isPresent()
        && context.calleeServices().readOnlyMethods().test(constructor.get());
    if (!readOnly && new RepeatedRuns(context).rejectOwnCall(creation, shown)) {
      return null;
    }
    return made;
  }

  /**
   * Why generated code cannot use {@code member} of an object of type {@code receiver}: a
   * public member is reached through the receiver's type (StringBuilder's {@code length()},
   * declared in a package-private superclass), others as declared.
   */
  private Optional<String> reachability(javax.lang.model.element.Element member,
      TypeElement receiver) {
    return member.getModifiers().contains(Modifier.PUBLIC)
        ? context.reachability().ofType(receiver) : context.reachability().ofMember(member);
  }

  /** The result of an operation whose value has the Java type {@code type}. */
  private Operand result(Operation operation, List<Operand> arguments, TypeMirror type,
      Tree at) {
    Optional<NumericType> kind = context.javaTypes().irType(type);
    if (kind.isEmpty()) {
      context.diagnostics().error(at, "'" + context.source().of(at) + "' has type '" + type
          + "', which ad4j does not compute with");
      return null;
    }
    if (kind.get().isReference()) {
      Optional<Operand> reference = context.emitReference(operation, arguments, type);
      if (reference.isEmpty()) {
        context.diagnostics().error(at, "'" + context.source().of(at) + "' has type '" + type
            + "', which generated code cannot name: " + context.javaTypes().typeProblem(type));
        return null;
      }
      return reference.get();
    }
    return context.emit(operation, arguments, kind.get(), false);
  }

  private static Tree receiverTree(MethodInvocationTree invocation) {
    ExpressionTree select = invocation.getMethodSelect();
    return select instanceof com.sun.source.tree.MemberSelectTree member
        ? member.getExpression() : select;
  }

  private static boolean isFloatingPoint(TypeMirror type) {
    return type.getKind() == TypeKind.DOUBLE || type.getKind() == TypeKind.FLOAT;
  }

  private static boolean isActiveArray(Operand operand) {
    return operand instanceof Operand.Use use && use.value().isActiveArray();
  }

  private static int firstActive(List<Operand> arguments) {
    for (int i = 0; i < arguments.size(); i++) {
      if (arguments.get(i).isActive() || isActiveArray(arguments.get(i))) {
        return i;
      }
    }
    return -1;
  }
}
