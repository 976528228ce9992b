package ad4j.processor.front;

import ad4j.processor.ir.Callee;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Resolves a call of a user method: it must be another {@code @Differentiable} method, whose
 * generated tangent and pullback the caller's derivatives call. Overloads are chosen as Java
 * chooses them among primitive parameters: applicable by widening, most specific.
 */
final class CalleeResolver {
  private static final String ANNOTATION = "ad4j.Differentiable";

  private final LoweringContext context;

  CalleeResolver(LoweringContext context) {
    this.context = context;
  }

  /**
   * The method {@code owner.name(arguments)} calls, chosen among the methods with primitive
   * parameters as Java chooses; empty when none applies.
   */
  Optional<ExecutableElement> select(TypeElement owner, String name, List<Operand> arguments) {
    return Optional.ofNullable(CallChoices.choose(context, owner, name, arguments));
  }

  /**
   * The {@code @Differentiable} method {@code owner.name(arguments)} calls; empty after an error
   * when there is none or generated code cannot call its derivatives. Calls of methods that are
   * not {@code @Differentiable} are {@link InactiveCalls}'.
   */
  Optional<Callee> resolve(TypeElement owner, String name, List<Operand> arguments, Tree call,
      String shown) {
    return resolve(owner, name, select(owner, name, arguments).orElse(null), arguments, call,
        shown);
  }

  /**
   * The instance {@code @Differentiable} method {@code method} of {@code owner}, called on the
   * first of {@code arguments} ({@code this.g(x)}, {@code g(x)} or {@code p.g(x)}); empty after
   * an error.
   */
  Optional<Callee> resolveOnReceiver(TypeElement owner, ExecutableElement method,
      List<Operand> arguments, Tree call, String shown) {
    return resolve(owner, method.getSimpleName().toString(), method, arguments, call, shown);
  }

  private Optional<Callee> resolve(TypeElement owner, String name, ExecutableElement method,
      List<Operand> arguments, Tree call, String shown) {
    if (method != null && context.insideLoop()
        && arguments.stream().anyMatch(a -> context.flatRecords().recordOf(a).isEmpty()
            && isRecordedReference(a))) {
      // reverse mode would record the arguments of each iteration's call on the tape, which
      // holds numbers only
      diagnostics().error(call, "call to '" + shown + "' inside a loop passes an object or a"
          + " string to a @Differentiable method, which is not supported yet: call it outside"
          + " the loop, or pass numbers");
      return Optional.empty();
    }
    if (method == null) {
      String what = CallChoices.candidates(context, owner, name).isEmpty() ? ""
          : " with these argument types";
      diagnostics().error(call, "call to '" + shown + "' is not differentiable: ad4j"
          + " differentiates calls to Math, StrictMath and FastMath functions and to other"
          + " @Differentiable methods, and finds no method '" + name + "'" + what + " in "
          + owner.getSimpleName());
      return Optional.empty();
    }
    if (!isDifferentiable(method)) {
      throw new IllegalStateException("not @Differentiable, a call InactiveCalls lowers: " + name);
    }
    String qualified = owner.getSimpleName() + "." + name;
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    boolean privateHere = method.getModifiers().contains(Modifier.PRIVATE)
        && declaring.equals(context.symbols().enclosingType());
    if (method.getModifiers().contains(Modifier.PRIVATE) && !privateHere) {
      diagnostics().error(call, "call to private @Differentiable method '" + name + "' of"
          + " another class: generated code lives in another class and cannot call it; make"
          + " it package-private");
      return Optional.empty();
    }
    String declaringPackage =
        context.elements().getPackageOf(declaring).getQualifiedName().toString();
    if (privateHere && !declaringPackage.equals(context.resolution().ownSymbols().packageName())) {
      // code of a method taking a function, inlined from another package: the derivatives of
      // its class's private method are package-private members of that package's class
      diagnostics().error(call, "call to private @Differentiable method '" + name + "' of '"
          + declaring.getQualifiedName() + "', in the code of a method taking a function,"
          + " inlined into a caller in package '" + context.resolution().ownSymbols().packageName()
          + "': its derivatives are generated in package '" + declaringPackage + "', where"
          + " generated code of the caller's package cannot call them; make it public");
      return Optional.empty();
    }
    if (privateHere && !ActiveParameters.isScalarResult(method.getReturnType())) {
      diagnostics().error(call, "call to private @Differentiable method '" + name + "': ad4j"
          + " computes the value of a private callee in the generated class for 'double' and"
          + " 'float' results only; make it package-private");
      return Optional.empty();
    }
    // an instance method's receiver is its first argument (resolveOnReceiver)
    int receiver = Receivers.hasReceiver(method) ? 1 : 0;
    if (receiver == 1 && arguments.size() != method.getParameters().size() + 1) {
      diagnostics().error(call, "call to '" + shown + "' is not differentiable: @Differentiable"
          + " method '" + qualified + "' is an instance method; call it on an object of '"
          + declaring.getSimpleName() + "'");
      return Optional.empty();
    }
    if (receiver == 1 && method.getModifiers().contains(Modifier.PRIVATE)) {
      diagnostics().error(call, "call to private @Differentiable instance method '" + name
          + "': generated code lives in another class and cannot call it; make it"
          + " package-private");
      return Optional.empty();
    }
    boolean returnsArray = ActiveParameters.isVectorResult(method.getReturnType());
    if (!ActiveParameters.isScalarResult(method.getReturnType()) && !returnsArray) {
      diagnostics().error(call, "call to '" + shown + "' is not differentiable: @Differentiable"
          + " method '" + qualified + "' returns '" + method.getReturnType() + "', and ad4j"
          + " differentiates methods returning 'double', 'float', 'double[]' or 'float[]' only");
      return Optional.empty();
    }
    // the receiver of a value record's instance method is its first active parameter, which
    // its generated members take flattened as they take a record parameter (RecordLowering)
    Optional<TypeElement> valueReceiver = receiver == 1
        ? ValueRecords.valueRecord(declaring.asType()) : Optional.empty();
    List<Boolean> active = new ArrayList<>();
    if (receiver == 1) {
      if (valueReceiver.isEmpty() && arguments.get(0).isActive()) {
        throw new IllegalStateException("an object carries no derivative: " + shown);
      }
      active.add(false);
    }
    for (int i = receiver; i < arguments.size(); i++) {
      VariableElement parameter = method.getParameters().get(i - receiver);
      active.add(ActiveParameters.isActive(parameter));
      Operand argument = arguments.get(i);
      boolean carries = argument.isActive()
          || argument instanceof Operand.Use use && use.value().isActiveArray();
      if (carries && !active.get(i)) {
        Tree argumentTree = call instanceof com.sun.source.tree.MethodInvocationTree invocation
            ? invocation.getArguments().get(i - receiver) : call;
        diagnostics().error(call, "call to '" + shown + "': '"
            + context.source().of(argumentTree) + "' carries derivatives into parameter '"
            + parameter.getSimpleName() + "' of '" + qualified + "', which is @NoDerivative"
            + " and would drop them; remove @NoDerivative from '" + parameter.getSimpleName()
            + "', or pass a value that carries no derivative");
        return Optional.empty();
      }
    }
    // An inherited static method (g of A, called as g or B.g in B extends A): its derivatives
    // are generated in the class that declares it. A private one of this class is computed
    // there too: its generated class holds a copy of it.
    Optional<String> unreachable = privateHere ? Optional.empty()
        : context.javaTypes().memberReachability(method, owner);
    if (unreachable.isPresent()) {
      diagnostics().error(call, "call to '" + shown + "': generated code cannot call it: "
          + unreachable.get());
      return Optional.empty();
    }
    if (!context.calleeServices().hasGradClass(declaring)) {
      diagnostics().error(call, "call to '" + shown + "': class '" + declaring.getQualifiedName()
          + "' is not among the source files of this compilation (javac found it on the source"
          + " path or class path), so ad4j does not write its derivatives here and '"
          + gradClassName(declaring) + "' does not exist; pass its source file to javac with"
          + " this one, or compile it with ad4j first");
      return Optional.empty();
    }
    if (context.order() == 2 && DerivativeOrder.of(method) != 2) {
      diagnostics().error(call, "call to '" + shown + "' from method '" + context.methodName()
          + "', which is @Differentiable(order = 2): '" + qualified + "' must be"
          + " @Differentiable(order = 2) as well, so that ad4j generates the second derivatives"
          + " this call needs");
      return Optional.empty();
    }
    if (!ParameterSlots.hasTangent(method)) {
      // its generated class has no mTangent, which this method's tangent member would call
      diagnostics().error(call, "call to '" + shown + "': '" + qualified + "' has too many"
          + " parameters for a tangent member ('" + method.getSimpleName() + "Tangent' would"
          + " take " + ParameterSlots.ofTangent(method) + " parameter slots, more than the"
          + " JVM's limit of " + ParameterSlots.MAX + ", and is not generated), and the"
          + " tangent of '" + context.methodName() + "' would call it; pass the parameters of '"
          + qualified + "' in a 'double[]'");
      return Optional.empty();
    }
    context.notedCalls().calls(method, call, shown);
    if (!context.examining()
        && new RepeatedRuns(context).rejectCallee(method, call, shown, qualified)) {
      return Optional.empty();
    }
    String gradClass = GradClassNames.gradClassReference(context, declaring);
    String userClass = privateHere ? gradClass
        : context.javaTypes().referenceTo(context.javaTypes().qualifyingType(method, owner));
    List<NumericType> parameterTypes = new ArrayList<>();
    if (receiver == 1) {
      parameterTypes.add(NumericType.OBJECT);
    }
    Optional<List<NumericType>> declaredTypes = parameterTypes(method);
    if (declaredTypes.isEmpty()) {
      // a type variable, or a primitive no generated member takes: the callee's own errors
      // say so at its declaration, and its generated class has no member this call could use
      VariableElement unusable = method.getParameters().stream()
          .filter(parameter -> parameterType(parameter.asType()).isEmpty())
          .findFirst().orElseThrow();
      diagnostics().error(call, "call to '" + shown + "': parameter '" + unusable.getSimpleName()
          + "' of '" + qualified + "' has type '" + unusable.asType() + "', which its generated"
          + " members cannot take (see the error at its declaration), so this call has no"
          + " derivative");
      return Optional.empty();
    }
    parameterTypes.addAll(declaredTypes.get());
    // value record parameters: their members take them flattened, one double per leaf
    List<NumericType> flatTypes = new ArrayList<>();
    List<Boolean> flatActive = new ArrayList<>();
    List<Callee.RecordArgument> records = new ArrayList<>();
    for (int i = 0; i < parameterTypes.size(); i++) {
      Optional<TypeElement> record = i < receiver ? valueReceiver
          : ValueRecords.flattened(method.getParameters().get(i - receiver));
      if (record.isEmpty()) {
        flatTypes.add(parameterTypes.get(i));
        flatActive.add(active.get(i));
        continue;
      }
      List<ValueRecords.Leaf> leaves = ValueRecords.leaves(record.get());
      Optional<String> construction = construction(record.get());
      if (construction.isEmpty()) {
        diagnostics().error(call, "call to '" + shown + "': generated code cannot name value"
            + " record '" + record.get().getSimpleName() + "': "
            + context.javaTypes().typeProblem(record.get().asType()));
        return Optional.empty();
      }
      // an instance method cannot be called on a record made again by a static call: its
      // value is the one over the leaves, as for a record its constructor changes
      boolean changed = context.recordConstructors().changesComponents(record.get())
          || i < receiver;
      if (i < receiver && !hasValueOverLeaves(declaring, name)) {
        diagnostics().error(call, "call to '" + shown + "': '" + qualified + "' is an instance"
            + " method of value record '" + record.get().getSimpleName() + "', and '"
            + gradClassName(declaring) + "', compiled earlier, has no member '" + name
            + Callee.VALUE_FLAT + "' that computes its value of the receiver's components;"
            + " compile '" + qualified + "' with this version of ad4j, or with this class");
        return Optional.empty();
      }
      if (changed && !hasValueOverLeaves(declaring, name)) {
        // its generated class, compiled earlier, has no value over the leaves: generated code
        // would call the method itself with the record made again of its leaves
        diagnostics().error(call, "call to '" + shown + "': '" + qualified + "' takes value"
            + " record '" + record.get().getSimpleName() + "', "
            + context.recordConstructors().changerText(record.get()) + ", and '"
            + gradClassName(declaring) + "', compiled earlier, has no member '" + name
            + Callee.VALUE_FLAT + "' that computes its value of their leaves: generated code"
            + " would make the record again of its components to call '" + qualified + "', and"
            + " run the constructor's code on them again; compile '" + qualified + "' with"
            + " this version of ad4j, or with this class");
        return Optional.empty();
      }
      // a record its constructor would change again: the callee's value over the leaves; so
      // too a record whose making runs code (checks), for the leaves may be no record's, zeros
      // for a null one (ObjectRecordArguments), where the method made none
      boolean checked = context.recordConstructors().runsCodeWhenMade(record.get())
          && hasValueOverLeaves(declaring, name);
      records.add(new Callee.RecordArgument(flatTypes.size(), leaves.size(),
          changed || checked ? null : construction.get()));
      for (ValueRecords.Leaf leaf : leaves) {
        flatTypes.add(leaf.type());
        flatActive.add(leaf.active());
      }
    }
    Optional<TypeElement> resultRecord = ValueRecords.valueRecord(method.getReturnType());
    if (resultRecord.isPresent()
        && context.javaTypes().javaText(resultRecord.get().asType()).isEmpty()) {
      diagnostics().error(call, "call to '" + shown + "': generated code cannot name value"
          + " record '" + resultRecord.get().getSimpleName() + "': "
          + context.javaTypes().typeProblem(resultRecord.get().asType()));
      return Optional.empty();
    }
    // a value record result: the vector function of its leaves
    NumericType result = resultRecord.isPresent() ? NumericType.DOUBLE_ARRAY
        : context.javaTypes().irType(method.getReturnType()).orElseThrow();
    return Optional.of(new Callee(userClass, gradClass, name, flatTypes, flatActive, result,
        receiver == 1 && valueReceiver.isEmpty(), records,
        resultRecord.map(ValueRecords::leavesMember).orElse(null),
        // the code is written into the method's own generated class, wherever it came from
        !declaring.equals(context.resolution().ownSymbols().enclosingType())
            && (!records.isEmpty() || resultRecord.isPresent())));
  }

  /**
   * Whether the generated code of {@code declaring} has the value over the leaves of method
   * {@code name} ({@link Callee#valueName}): written with it when its source is in this
   * compilation; compiled earlier, when its companion holds the member.
   */
  private boolean hasValueOverLeaves(TypeElement declaring, String name) {
    if (context.trees().getPath(declaring) != null) {
      return true;
    }
    TypeElement sweeps = context.elements().getTypeElement(
        gradClassName(declaring) + Callee.SWEEPS);
    return sweeps != null && javax.lang.model.util.ElementFilter.methodsIn(
        sweeps.getEnclosedElements()).stream()
        .anyMatch(m -> m.getSimpleName().contentEquals(name + Callee.VALUE_FLAT));
  }

  /**
   * The {@code @DerivativeOf} rule {@code rule} of a call ({@code shown}) of {@code target}
   * from a method of order 2, as the {@code @Differentiable} method it must then be
   * (DESIGN.md, "Second order"): the derivative of the partial it gives is its own generated
   * tangent. Empty after an error at the call.
   */
  Optional<Callee> ruleAtOrderTwo(ExecutableElement rule, List<NumericType> parameterTypes,
      Tree call, String shown, String target) {
    String atOrderTwo = "call to '" + shown + "' from method '" + context.methodName()
        + "', which is @Differentiable(order = 2): ";
    TypeElement declaring = (TypeElement) rule.getEnclosingElement();
    String qualified = declaring.getSimpleName() + "." + rule.getSimpleName();
    if (rule.getReturnType() instanceof javax.lang.model.type.ArrayType array
        && array.getComponentType().getKind() == TypeKind.ARRAY) {
      // the partials with respect to a matrix: a method returning double[][] has no
      // generated derivatives
      diagnostics().error(call, atOrderTwo + "its @DerivativeOf rule '" + qualified + "' gives"
          + " the partial derivatives with respect to a 'double[][]' as a 'double[][]', and"
          + " ad4j cannot differentiate methods that return matrices; at order 2, pass the"
          + " matrix's rows as 'double[]' arguments instead");
      return Optional.empty();
    }
    if (!isDifferentiable(rule)) {
      diagnostics().error(call, atOrderTwo + "its @DerivativeOf rule '" + qualified + "' must"
          + " itself be @Differentiable (order 1 is enough), so that ad4j can differentiate"
          + " the partial derivative it gives");
      return Optional.empty();
    }
    if (!context.calleeServices().hasGradClass(declaring)) {
      diagnostics().error(call, atOrderTwo + "its @DerivativeOf rule '" + qualified + "' is in"
          + " class '" + declaring.getQualifiedName() + "', which is not among the source files"
          + " of this compilation, so '" + gradClassName(declaring) + "' does not exist; pass"
          + " its source file to javac with this one, or compile it with ad4j first");
      return Optional.empty();
    }
    if (rule.getParameters().stream().anyMatch(
        p -> p.asType().getKind() == TypeKind.DOUBLE && !ActiveParameters.isActive(p))) {
      diagnostics().error(call, atOrderTwo + "its @DerivativeOf rule '" + qualified + "' has a"
          + " @NoDerivative 'double' parameter, and such rules are not supported at order 2 yet");
      return Optional.empty();
    }
    List<Boolean> active = rule.getParameters().stream()
        .map(ActiveParameters::isActive).toList();
    return Optional.of(new Callee(context.javaTypes().referenceTo(declaring),
        GradClassNames.gradClassReference(context, declaring), rule.getSimpleName().toString(),
        parameterTypes, active,
        rule.getReturnType().getKind() != TypeKind.DOUBLE ? NumericType.DOUBLE_ARRAY
            : NumericType.DOUBLE));
  }


  /**
   * {@code advice} when {@code @DerivativeOf} rules could make calls of {@code method}
   * differentiable (it is static, returns {@code double} and has a {@code double} parameter);
   * else nothing.
   */
  static String ruleAdvice(ExecutableElement method, String advice) {
    boolean fits = StaticMembers.isStatic(method)
        && method.getReturnType().getKind() == TypeKind.DOUBLE
        && method.getParameters().stream()
            .anyMatch(p -> p.asType().getKind() == TypeKind.DOUBLE);
    return fits ? advice : "";
  }

  /** The qualified name of the class ad4j generates for {@code owner}. */
  private String gradClassName(TypeElement owner) {
    return GradClassNames.gradClassName(context.elements(), owner);
  }


  /**
   * Whether the reverse sweep would take {@code argument} of a call in a loop from the tape: an
   * object or string, except a parameter's (the receiver), which the sweep reads where it is.
   */
  private static boolean isRecordedReference(Operand argument) {
    return argument.type().isReference() && !(argument instanceof Operand.Use use
        && use.value().origin() == ad4j.processor.ir.Value.Origin.PARAMETER);
  }

  /** {@code new Body(new Vec3(%s, %s, %s), %s)}: record {@code record} made of its leaves. */
  private Optional<String> construction(TypeElement record) {
    Optional<String> type = context.javaTypes().javaText(record.asType());
    if (type.isEmpty()) {
      return Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    for (var component : ValueRecords.components(record)) {
      Optional<TypeElement> nested = ValueRecords.valueRecord(component.type());
      if (nested.isPresent()) {
        Optional<String> inner = construction(nested.get());
        if (inner.isEmpty()) {
          return Optional.empty();
        }
        parts.add(inner.get());
      } else {
        parts.add("%s");
      }
    }
    return Optional.of("new " + type.get() + "(" + String.join(", ", parts) + ")");
  }

  static boolean isDifferentiable(ExecutableElement method) {
    for (AnnotationMirror annotation : method.getAnnotationMirrors()) {
      TypeElement type = (TypeElement) annotation.getAnnotationType().asElement();
      if (type.getQualifiedName().contentEquals(ANNOTATION)) {
        return true;
      }
    }
    return false;
  }

  static Optional<List<NumericType>> parameterTypes(ExecutableElement method) {
    List<NumericType> types = new ArrayList<>();
    for (VariableElement parameter : method.getParameters()) {
      Optional<NumericType> type = parameterType(parameter.asType());
      if (type.isEmpty()) {
        return Optional.empty();
      }
      types.add(type.get());
    }
    return Optional.of(types);
  }

  /**
   * The IR type of a parameter of a callee: a primitive ad4j computes with ({@code float}
   * included), {@code double[]}, {@code double[][]}, {@code int[]}, {@code String} or an object.
   */
  private static Optional<NumericType> parameterType(TypeMirror type) {
    if (type.toString().equals("java.lang.String")) {
      return Optional.of(NumericType.STRING);
    }
    if (type.getKind() == TypeKind.DECLARED) {
      return Optional.of(NumericType.OBJECT); // an object: its own type decides (Overloads)
    }
    if (type instanceof ArrayType array) {
      TypeMirror component = array.getComponentType();
      if (component instanceof ArrayType inner
          && inner.getComponentType().getKind() == TypeKind.DOUBLE) {
        return Optional.of(NumericType.DOUBLE_MATRIX);
      }
      return switch (component.getKind()) {
        case DOUBLE -> Optional.of(NumericType.DOUBLE_ARRAY);
        case FLOAT -> Optional.of(NumericType.FLOAT_ARRAY);
        case INT -> Optional.of(NumericType.INT_ARRAY);
        default -> Optional.of(NumericType.OBJECT);
      };
    }
    if (type.getKind() == TypeKind.FLOAT) {
      return Optional.of(NumericType.FLOAT); // Float.isNaN(f), a helper's float parameter
    }
    return JavaTypes.variableType(type.getKind());
  }

  private Diagnostics diagnostics() {
    return context.diagnostics();
  }
}
