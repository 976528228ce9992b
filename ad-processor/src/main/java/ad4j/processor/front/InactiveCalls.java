package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;

/**
 * Calls of methods that are not {@code @Differentiable}: activity analysis at a call. A call
 * carries no derivative when its result is not a floating-point number ({@code boolean},
 * {@code int}, {@code long}, {@code void}: {@code Double.isNaN(x)}, {@code fuzzyEquals(a, b,
 * tol)}, {@code logFactorial(n)}, {@code Checker.isTrue(c)}) or when none of its arguments carries
 * one; such a call is inactive and runs as written in every generated member, once wherever the
 * user's method runs it, side effects and exceptions included ({@link Operation#plainCall}). A
 * call with a floating-point result that an argument carries a derivative into is an error that
 * names that argument.
 */
final class InactiveCalls {
  private final LoweringContext context;

  InactiveCalls(LoweringContext context) {
    this.context = context;
  }

  /**
   * Lowers {@code method(arguments)}, the call {@code invocation} of a static method that is
   * not {@code @Differentiable}, a member of {@code qualifier} (the class the call names, or
   * the enclosing class that has it); null after an error. A {@code discarded} call is a
   * statement of its own: its result reaches nothing, so it carries no derivative.
   */
  Operand lower(ExecutableElement method, TypeElement qualifier, List<Operand> arguments,
      MethodInvocationTree invocation, String shown, boolean discarded) {
    return lower(method, qualifier, null, arguments, invocation, shown, discarded);
  }

  /**
   * The static field a call's receiver names ({@code LOG} in {@code LOG.fine("...")}), if it
   * names one and no local hides it.
   */
  Optional<VariableElement> receiverField(ExpressionTree receiver) {
    return context.resolution().fieldNamed(receiver);
  }

  /**
   * Lowers {@code field.name(arguments)}, a call of a method of the object a static field holds
   * ({@code LOG.fine(message)}, {@code STANDARD.density(c)}); null after an error. Such a call
   * carries no derivative unless an argument carries one into a floating-point result.
   */
  Operand lowerOnField(VariableElement field, String name, List<Operand> arguments,
      MethodInvocationTree invocation, String shown,
      boolean discarded) {
    if (!StaticMembers.isStatic(field)) {
      context.diagnostics().error(invocation, "call to '" + shown + "': '"
          + field.getSimpleName() + "' is an instance field" + (context.scopes().lookUp(
              Receivers.THIS) == null ? ", and the method is static: it has no object whose"
              + " field it could read; pass the object as a parameter, or hold it in a static"
              + " field"
              : " of " + context.resolution().enclosingInstance()));
      return null;
    }
    if (!(context.types().asElement(field.asType()) instanceof TypeElement type)) {
      context.diagnostics().error(invocation, "call to '" + shown + "': '"
          + field.getSimpleName() + "' has type '" + field.asType() + "', which has no methods"
          + " ad4j can call");
      return null;
    }
    Optional<ExecutableElement> method = Optional.ofNullable(CallChoices.chooseOn(context,
        (javax.lang.model.type.DeclaredType) field.asType(), name, arguments));
    method.ifPresent(m -> ResolutionLog.resolved(context, invocation, m));
    if (method.isEmpty()) {
      context.diagnostics().error(invocation, "call to '" + shown + "': ad4j finds no method '"
          + name + "' of '" + type.getQualifiedName() + "' that takes these arguments (ad4j"
          + " passes numbers, booleans and strings to calls it runs as written)");
      return null;
    }
    Optional<String> unreachable = context.reachability().ofMember(field);
    // a private static final field through the generated class's copy; one that is not final
    // through its VarHandle, read where the method reads it
    PrivateFields privateFields = new PrivateFields(context);
    Optional<String> copy = unreachable.isPresent()
        ? privateFields.read(field).map(Object::toString)
            .or(() -> privateFields.staticHandleRead(field).map(read -> "(" + read + ")"))
        : Optional.empty();
    if (unreachable.isPresent() && copy.isEmpty()) {
      context.diagnostics().error(invocation, "call to '" + shown + "' carries no derivative"
          + " and would run as written, but generated code cannot read its receiver: "
          + unreachable.get());
      return null;
    }
    TypeElement owner = (TypeElement) field.getEnclosingElement();
    String receiver = copy.orElse(context.javaTypes().referenceTo(owner) + "."
        + field.getSimpleName());
    // as a member of the field's type: List<Double>'s get returns a Double, not an E
    return lower(method.get(), null, new FieldReceiver(receiver, type), arguments, invocation,
        shown, discarded, (javax.lang.model.type.ExecutableType) context.types().asMemberOf(
            (javax.lang.model.type.DeclaredType) field.asType(), method.get()));
  }

  /**
   * The object a call runs on when a static field holds it: the field as generated code reads
   * it ({@code text}), and the class of its declared type.
   */
  private record FieldReceiver(String text, TypeElement type) {}

  private Operand lower(ExecutableElement method, TypeElement qualifier, FieldReceiver field,
      List<Operand> arguments, MethodInvocationTree invocation, String shown,
      boolean discarded) {
    return lower(method, qualifier, field, arguments, invocation, shown, discarded,
        (javax.lang.model.type.ExecutableType) method.asType());
  }

  /** As above, with {@code method}'s type as a member of its receiver's type. */
  private Operand lower(ExecutableElement method, TypeElement qualifier, FieldReceiver field,
      List<Operand> arguments, MethodInvocationTree invocation, String shown,
      boolean discarded, javax.lang.model.type.ExecutableType memberType) {
    String receiver = field == null ? null : field.text();
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    String qualified = declaring.getSimpleName() + "." + method.getSimpleName();
    Optional<NumericType> type = resultType(method.getReturnType().getKind());
    if (discarded && type.isEmpty()) {
      // a call made as a statement, whose result nothing reads: Objects.requireNonNull(w)
      type = resultType(TypeKind.VOID);
    }
    int active = firstActive(arguments);
    if (type.isPresent() && carriesDerivative(type.get()) && active >= 0 && !discarded) {
      ExpressionTree argument = invocation.getArguments().get(active);
      context.diagnostics().error(invocation, "call to '" + shown + "' is not differentiable: '"
          + context.source().of(argument) + "' carries a derivative into '"
          + context.source().of(invocation) + "', which ad4j cannot differentiate: "
          + (receiver != null ? objectAdvice(method, receiver)
              : advice(method, qualified, parameterOf(method, active))));
      return context.notDifferentiableResult(type.get());
    }
    if (ArrayCopies.isArraysCopy(invocation, context) && isActiveArray(arguments.get(0))) {
      // lowered element by element where it initialises a local (DeclarationLowering), as the
      // copy's own array; anywhere else it would run as written
      context.diagnostics().error(invocation, "call to '" + shown + "' copies '"
          + context.source().of(invocation.getArguments().get(0)) + "', an array that carries"
          + " derivatives: ad4j copies such an array with '" + qualified + "' only where the"
          + " copy initialises a local ('double[] c = " + qualified + "(...);'); declare a local"
          + " with the copy and use it here");
      return null;
    }
    String givenArray = null; // the first array given that carries derivatives, or may
    for (int i = 0; i < arguments.size(); i++) {
      Optional<String> alias = context.arrays().possibleAlias(arguments.get(i));
      if (givenArray == null && (isActiveArray(arguments.get(i)) || alias.isPresent())) {
        givenArray = context.source().of(invocation.getArguments().get(i))
            + (arguments.get(i).type() == NumericType.DOUBLE_MATRIX ? "' or a row of '"
                + context.source().of(invocation.getArguments().get(i)) : "");
      }
      if ((isActiveArray(arguments.get(i)) || alias.isPresent())
          && !LaunderedDependence.onlyReads(method)
          && !(StaticMembers.isStatic(method)
              && context.calleeServices().readOnlyMethods().test(method))) {
        context.diagnostics().error(invocation, "call to '" + shown + "' passes '"
            + context.source().of(invocation.getArguments().get(i)) + "', an array that carries"
            + " derivatives" + alias.map(why -> " (" + why + ")").orElse("") + ", to '"
            + qualified + "', which ad4j would run as written and which"
            + " could write into it; ad4j passes such an array only to static methods of your"
            + " sources whose code only reads it and to Arrays.toString, equals, hashCode and"
            + " Objects.requireNonNull: pass the elements it needs"
            + (method.getReturnType().getKind() == TypeKind.DOUBLE
                ? ", or annotate it with @Differentiable" : ", or make it only read the array")
            + StreamLowering.runAsWrittenAdvice(method));
        return null;
      }
    }
    // A value that carries a derivative may go into an object (boxed, a string, a result of a
    // reference type): LaunderedDependence rejects it where it comes back into the result.
    if (receiver == null && !StaticMembers.isStatic(method)) {
      context.diagnostics().error(invocation, "call to '" + shown + "': '" + qualified
          + "' " + withoutObject(method));
      return null;
    }
    // a generic method's result as the arguments make it: List.of(1, 2) is a List<Integer>
    javax.lang.model.type.TypeMirror returned = context.javaTypes().heldAs(
        context.calleeServices().overloads().resultType(method, memberType,
            context.javaTypes().javaTypesOf(arguments).orElseThrow()));
    boolean reference = returned.getKind() == TypeKind.DECLARED
        || (returned.getKind() == TypeKind.ARRAY
            && context.javaTypes().irType(returned).map(NumericType::isReference).orElse(false));
    if (type.isEmpty() && !reference && returned.getKind() == TypeKind.ARRAY) {
      // List<double[]>'s get as a member of a static field's type: an array of data, as an
      // object's method returns one
      type = context.javaTypes().irType(returned).filter(NumericType::isArray);
    }
    if (type.isEmpty() && !reference) {
      context.diagnostics().error(invocation, "call to '" + shown + "' returns '"
          + method.getReturnType() + "': ad4j runs calls that carry no derivative as written"
          + " when they return a primitive value, an object or nothing, and does not support"
          + " values of type '" + method.getReturnType() + "'");
      return null;
    }
    Optional<String> unreachable = receiver != null ? context.reachability().ofMember(method)
        : context.javaTypes().memberReachability(method, qualifier);
    // a private static method of the user's class: the generated class calls it through a
    // method handle of its own
    Optional<String> privateCall = unreachable.isPresent() && receiver == null
        ? new PrivateFields(context).call(method) : Optional.empty();
    if (unreachable.isPresent() && privateCall.isEmpty()) {
      context.diagnostics().error(invocation, "call to '" + shown + "' carries no derivative"
          + " and would run as written, but generated code cannot call it: "
          + unreachable.get());
      return null;
    }
    String name = privateCall.orElseGet(() -> (receiver != null ? receiver
        : context.javaTypes().referenceTo(context.javaTypes().qualifyingType(method, qualifier)))
        + "." + method.getSimpleName());
    boolean argumentsOnly = receiver == null && (LaunderedDependence.onlyReads(method)
        || ArgumentOnlyMethods.isArgumentOnlyLibraryMethod(method)
            && arguments.stream().noneMatch(a -> a.type() == NumericType.OBJECT)
        || context.calleeServices().argumentOnlyMethods().test(method));
    if (reference) {
      // an object (or string) that carries no derivative: Integer.valueOf(k), List.of(...)
      Optional<Operand> result = context.emitReference(
          Operation.plainCall(name, arguments.size()), arguments, returned);
      if (result.isEmpty()) {
        context.diagnostics().error(invocation, "call to '" + shown + "' returns '" + returned
            + "', which generated code cannot name: " + context.javaTypes().typeProblem(returned));
        return null;
      }
      return ranAsWritten(result.get(), qualified, argumentsOnly, method,
          field == null ? null : field.type(), invocation, shown);
    }
    Operand result = context.emit(Operation.plainCall(name, arguments.size()), arguments,
        type.get(), false);
    if (givenArray != null) {
      // it may return the array it was given (Objects.requireNonNull(a), a check of the sources
      // that returns its argument, or a row of it): no write through it (ArrayLowering)
      context.arrays().returnedAfterGiven(result, "what '" + context.source().of(invocation)
          + "' returns may be '" + givenArray + "', an array that carries derivatives");
    }
    return ranAsWritten(result, qualified, argumentsOnly, method,
        field == null ? null : field.type(), invocation, shown);
  }

  /**
   * Tells the dependence analysis that {@code result} comes from the call {@code qualified}, run
   * as written (a static method's, or an object's: {@link ObjectValues}). Unless the call reads its arguments only or reads and changes no state
   * ({@link ReadOnlyMethods}), so that it gives the same result each time it runs, it is noted
   * and is an error where a generated member would run it more than once ({@link
   * RepeatedRuns}). {@code receiverType} is the declared class of the object an instance
   * method runs on, which may tell which body runs; null for a static method. Null after an
   * error.
   */
  Operand ranAsWritten(Operand result, String qualified, boolean argumentsOnly,
      ExecutableElement method, TypeElement receiverType, Tree invocation, String shown) {
    if (LaunderedDependence.searchesNumbers(method)) {
      // an index found by search carries no derivative, as a cast to int does
      context.dependences().roundsAsWritten(result, qualified);
      return result;
    }
    boolean readOnly = !argumentsOnly
        && context.calleeServices().readOnlyMethods().test(method, receiverType);
    if (readOnly) {
      context.dependences().readsAsWritten(result, qualified);
    } else {
      context.dependences().runsAsWritten(result, qualified, argumentsOnly);
    }
    if (!argumentsOnly && !readOnly
        && new RepeatedRuns(context).rejectOwnCall(invocation, shown)) {
      return null;
    }
    return result;
  }

  /**
   * Lowers {@code Owner.name(arguments)} of a {@code Math}-like class with no derivative rule
   * for {@code name}, when the call carries no derivative: its result is not a floating-point
   * number, no argument carries a derivative, or nothing reads its result ({@code discarded}).
   * Empty when it does carry one.
   */
  Optional<Operand> lowerMath(String owner, String name, List<Operand> arguments,
      NumericType resultType, boolean discarded) {
    if (carriesDerivative(resultType) && firstActive(arguments) >= 0 && !discarded) {
      return Optional.empty();
    }
    Operand result = context.emit(Operation.plainCall(owner + "." + name, arguments.size()),
        arguments, resultType, false);
    context.dependences().roundsAsWritten(result, owner + "." + name);
    return Optional.of(result);
  }

  /**
   * Why generated code cannot write {@code new site(arguments)}, if it cannot: no constructor
   * with primitive or {@code String} parameters takes these arguments, or the one that does is
   * out of reach. The arguments are evaluated as written, like those of a call run as written.
   */
  Optional<String> constructionProblem(javax.lang.model.type.DeclaredType site,
      List<Operand> arguments) {
    TypeElement type = (TypeElement) site.asElement();
    Optional<Overloads.Choice> constructor = CallChoices.constructorChoice(context, site,
        arguments);
    if (constructor.isPresent()) {
      return context.reachability().ofMember(constructor.get().method());
    }
    return Optional.of("ad4j finds no constructor of '" + type.getSimpleName() + "' that takes"
        + " these arguments (ad4j passes numbers, booleans, strings and objects)");
  }

  private static boolean carriesDerivative(NumericType type) {
    return type == NumericType.DOUBLE || type == NumericType.FLOAT;
  }

  /** An array whose elements carry derivatives (not active itself: its elements are). */
  private static boolean isActiveArray(Operand operand) {
    return operand instanceof Operand.Use use && use.value().isActiveArray();
  }

  /** The first argument that carries a derivative, an array of such elements included. */
  private static int firstActive(List<Operand> arguments) {
    for (int i = 0; i < arguments.size(); i++) {
      if (arguments.get(i).isActive() || isActiveArray(arguments.get(i))) {
        return i;
      }
    }
    return -1;
  }

  private static Optional<NumericType> resultType(TypeKind kind) {
    return switch (kind) {
      case VOID -> Optional.of(NumericType.VOID);
      case FLOAT -> Optional.of(NumericType.FLOAT);
      default -> JavaTypes.variableType(kind);
    };
  }

  /**
   * What to do about a call of a method of an object held in a static field, {@code receiver},
   * that an argument carries a derivative into: the object's methods run as written, and
   * {@code @DerivativeOf} rules with the owner's class make them differentiable.
   */
  private String objectAdvice(ExecutableElement method, String receiver) {
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    String type = owner.getSimpleName().toString();
    if (CalleeResolver.isDifferentiable(method)) {
      // its derivatives exist: only the receiver, a field, keeps ad4j from calling them
      return "'" + receiver + "' holds an object, and ad4j differentiates calls of its"
          + " @Differentiable methods on a local or a parameter only; assign it to a local first"
          + " ('" + type + " local = " + receiver + ";') and call '" + method.getSimpleName()
          + "' on that";
    }
    return "'" + receiver + "' holds an object, and ad4j runs its methods as written; give the"
        + " partial derivatives of '" + type + "." + method.getSimpleName() + "' with"
        + " @DerivativeOf(owner = " + type + ".class, value = \"" + method.getSimpleName()
        + "\")";
  }

  /** What to do about a call an argument carries a derivative into. */
  private String advice(ExecutableElement method, String qualified, int parameter) {
    if (!context.calleeServices().isCompiledFromSource(method)) {
      return "'" + qualified + "' is not a @Differentiable method; ad4j differentiates calls to"
          + " Math, StrictMath and FastMath functions and to @Differentiable methods"
          + CalleeResolver.ruleAdvice(method, "; give its partial derivatives with"
              + " @DerivativeOf, one rule per parameter that receives a derivative, such as '"
              + ruleFor(method, parameter) + "'");
    }
    Optional<String> obstacle = StaticMembers.isStatic(method)
        ? whyAnnotatingWouldNotHelp(method)
        : Optional.of("it " + withoutObject(method));
    if (obstacle.isPresent()) {
      return "'" + qualified + "' is not a @Differentiable method, and annotating it would not"
          + " help: " + obstacle.get() + CalleeResolver.ruleAdvice(method, "; give its partial"
              + " derivatives with @DerivativeOf instead");
    }
    return "annotate '" + qualified + "' with @Differentiable, so that ad4j generates the"
        + " derivatives this call needs" + CalleeResolver.ruleAdvice(method, ", or give its"
            + " partial derivatives with @DerivativeOf");
  }

  /** The parameter of {@code method} that the argument at {@code argument} is passed to. */
  private static int parameterOf(ExecutableElement method, int argument) {
    return Math.min(argument, method.getParameters().size() - 1); // past the last: varargs
  }

  /**
   * The declaration of a {@code @DerivativeOf} rule for parameter {@code parameter} of
   * {@code method}, ready to paste into the calling class: the target's owner and name, the
   * parameter's name, and exactly the target's parameter list.
   */
  static String ruleFor(ExecutableElement method, int parameter) {
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    String name = method.getSimpleName().toString();
    String wrt = method.getParameters().get(parameter).getSimpleName().toString();
    StringBuilder parameters = new StringBuilder();
    for (VariableElement each : method.getParameters()) {
      if (parameters.length() > 0) {
        parameters.append(", ");
      }
      parameters.append(each.asType()).append(' ').append(each.getSimpleName());
    }
    return "@DerivativeOf(owner = " + owner.getQualifiedName() + ".class, value = \"" + name
        + "\", wrt = \"" + wrt + "\") static double " + name
        + Character.toUpperCase(wrt.charAt(0)) + wrt.substring(1) + "(" + parameters + ")";
  }

  /**
   * Why a call of the instance method {@code method} named without an object has none to run
   * on, said of the method ("is ..."): the call is in a static method, or in the code of a
   * value record's method that ad4j inlines, which calls the record's own methods only (not
   * one it inherits from an interface, whose code would run on the record as an object).
   */
  private static String withoutObject(ExecutableElement method) {
    TypeElement owner = (TypeElement) method.getEnclosingElement();
    if (owner.getKind() == javax.lang.model.element.ElementKind.INTERFACE) {
      return "is a default method of interface '" + owner.getSimpleName() + "', which ad4j"
          + " does not call on a value record (it calls the methods the record declares);"
          + " declare '" + method.getSimpleName() + "' in the record";
    }
    return "is not static, and a static method has no object to call it on";
  }

  /**
   * Why a method of the user's sources could not become a callee by adding
   * {@code @Differentiable}, if it could not: ad4j would reject it, or generated code could not
   * call it. An instance method's receiver is the caller's to give ({@link
   * #withoutObject}).
   */
  Optional<String> whyAnnotatingWouldNotHelp(ExecutableElement method) {
    if (!StaticMembers.isStatic(method)) {
      Optional<String> receiver = Receivers.obstacle((TypeElement) method.getEnclosingElement());
      if (receiver.isPresent()) {
        return receiver;
      }
    }
    // a private @Differentiable method of the method's own class is a callee (its value
    // computed by a copy in the generated class) when it returns a number
    if (method.getModifiers().contains(Modifier.PRIVATE)
        && (!method.getEnclosingElement().equals(context.symbols().enclosingType())
            || !ActiveParameters.isScalarResult(method.getReturnType()))) {
      return Optional.of("it is private, and generated code, in another class, cannot call"
          + " it; make it package-private as well");
    }
    if (!method.getTypeParameters().isEmpty()) {
      return Optional.of("it is generic, and ad4j differentiates methods that are not");
    }
    for (VariableElement parameter : method.getParameters()) {
      Optional<String> problem = ActiveParameters.typeProblem(parameter);
      if (problem.isPresent()) {
        return Optional.of("its parameter '" + parameter.getSimpleName() + "' has type '"
            + parameter.asType() + "': " + problem.get());
      }
    }
    if (!ActiveParameters.isScalarResult(method.getReturnType())
        && !ActiveParameters.isVectorResult(method.getReturnType())) {
      return Optional.of("it returns '" + method.getReturnType() + "', and ad4j differentiates"
          + " methods returning 'double', 'float', 'double[]' or 'float[]' only");
    }
    if (method.getParameters().stream().noneMatch(ActiveParameters::isActive)) {
      return Optional.of("it has no 'double', 'float', 'double[]', 'float[]' or 'double[][]'"
          + " parameter without @NoDerivative");
    }
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    if (!context.calleeServices().hasGradClass(declaring)) {
      return Optional.of("its class '" + declaring.getQualifiedName() + "' is not among the"
          + " source files of this compilation, so ad4j would not write its derivatives here");
    }
    return Optional.empty();
  }
}
