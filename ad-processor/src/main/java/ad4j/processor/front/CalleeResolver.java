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
  private final CalleeChecks checks;
  private final CalleeRecordFlattening flattening;

  CalleeResolver(LoweringContext context) {
    this.context = context;
    this.checks = new CalleeChecks(context);
    this.flattening = new CalleeRecordFlattening(context);
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

  /**
   * The callee of a call of {@code method} ({@code null}: none applies), after the checks that
   * generated code can call its derivatives ({@link CalleeChecks}), in the order of their
   * errors: the first stops the call. A call that passes is noted, and one that would run the
   * callee again where its result differs is rejected ({@link RepeatedRuns}).
   */
  private Optional<Callee> resolve(TypeElement owner, String name, ExecutableElement method,
      List<Operand> arguments, Tree call, String shown) {
    if (method == null) {
      reportNoMethod(owner, name, call, shown);
      return Optional.empty();
    }
    if (!isDifferentiable(method)) {
      throw new IllegalStateException("not @Differentiable, a call InactiveCalls lowers: " + name);
    }
    CalleeCall site = calleeCall(owner, name, method, arguments, call, shown);
    if (checks.rejectsPrivateCallee(site) || checks.rejectsInstanceCall(site)
        || checks.rejectsResultType(site)) {
      return Optional.empty();
    }
    Optional<List<Boolean>> active = checks.activeArguments(site);
    if (active.isEmpty() || checks.rejectsMissingMembers(site)) {
      return Optional.empty();
    }
    context.notedCalls().calls(method, call, shown);
    if (!context.examining()
        && new RepeatedRuns(context).rejectCallee(method, call, shown, site.qualified())) {
      return Optional.empty();
    }
    return callee(site, active.get());
  }

  /**
   * The error for a call no method applies to: it names the method alone when {@code owner} has
   * none of that name, else says its argument types fit none.
   */
  private void reportNoMethod(TypeElement owner, String name, Tree call, String shown) {
    String what = CallChoices.candidates(context, owner, name).isEmpty() ? ""
        : " with these argument types";
    diagnostics().error(call, "call to '" + shown + "' is not differentiable: ad4j"
        + " differentiates calls to Math, StrictMath and FastMath functions and to other"
        + " @Differentiable methods, and finds no method '" + name + "'" + what + " in "
        + owner.getSimpleName());
  }

  /** The call of {@code method} with what its checks ask of it again and again. */
  private CalleeCall calleeCall(TypeElement owner, String name, ExecutableElement method,
      List<Operand> arguments, Tree call, String shown) {
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    boolean privateHere = method.getModifiers().contains(Modifier.PRIVATE)
        && declaring.equals(context.symbols().enclosingType());
    return new CalleeCall(owner, name, method, arguments, call, shown, declaring,
        declaring.getSimpleName() + "." + name, privateHere,
        Receivers.hasReceiver(method) ? 1 : 0);
  }

  /**
   * The callee of a call that passed the checks: the classes generated code names, its
   * parameters as its generated members take them (value records flattened) and its result;
   * empty after an error when a parameter or a value record is one generated code cannot take
   * or name.
   */
  private Optional<Callee> callee(CalleeCall site, List<Boolean> active) {
    ExecutableElement method = site.method();
    TypeElement declaring = site.declaring();
    String gradClass = GradClassNames.gradClassReference(context, declaring);
    String userClass = site.privateHere() ? gradClass
        : context.javaTypes().referenceTo(context.javaTypes().qualifyingType(method,
            site.owner()));
    Optional<List<NumericType>> parameterTypes = declaredParameterTypes(site);
    if (parameterTypes.isEmpty()) {
      return Optional.empty();
    }
    Optional<CalleeRecordFlattening.FlatParameters> flat =
        flattening.flatten(site, parameterTypes.get(), active);
    if (flat.isEmpty()) {
      return Optional.empty();
    }
    Optional<TypeElement> resultRecord = ValueRecords.valueRecord(method.getReturnType());
    if (resultRecord.isPresent()
        && context.javaTypes().javaText(resultRecord.get().asType()).isEmpty()) {
      diagnostics().error(site.tree(), "call to '" + site.shown() + "': generated code cannot"
          + " name value record '" + resultRecord.get().getSimpleName() + "': "
          + context.javaTypes().typeProblem(resultRecord.get().asType()));
      return Optional.empty();
    }
    // a value record result: the vector function of its leaves
    NumericType result = resultRecord.isPresent() ? NumericType.DOUBLE_ARRAY
        : context.javaTypes().irType(method.getReturnType()).orElseThrow();
    List<Callee.RecordArgument> records = flat.get().records();
    return Optional.of(new Callee(userClass, gradClass, site.name(), flat.get().types(),
        flat.get().active(), result, site.receiver() == 1 && site.valueReceiver().isEmpty(),
        records, resultRecord.map(ValueRecords::leavesMember).orElse(null),
        // the code is written into the method's own generated class, wherever it came from
        !declaring.equals(context.resolution().ownSymbols().enclosingType())
            && (!records.isEmpty() || resultRecord.isPresent())));
  }

  /**
   * The IR types of the callee's parameters as declared, an object first for an instance
   * method's receiver; empty after an error when a parameter is of a type its generated members
   * cannot take.
   */
  private Optional<List<NumericType>> declaredParameterTypes(CalleeCall site) {
    List<NumericType> parameterTypes = new ArrayList<>();
    if (site.receiver() == 1) {
      parameterTypes.add(NumericType.OBJECT);
    }
    Optional<List<NumericType>> declaredTypes = parameterTypes(site.method());
    if (declaredTypes.isEmpty()) {
      // a type variable, or a primitive no generated member takes: the callee's own errors
      // say so at its declaration, and its generated class has no member this call could use
      VariableElement unusable = site.method().getParameters().stream()
          .filter(parameter -> parameterType(parameter.asType()).isEmpty())
          .findFirst().orElseThrow();
      diagnostics().error(site.tree(), "call to '" + site.shown() + "': parameter '"
          + unusable.getSimpleName() + "' of '" + site.qualified() + "' has type '"
          + unusable.asType() + "', which its generated members cannot take (see the error at"
          + " its declaration), so this call has no derivative");
      return Optional.empty();
    }
    parameterTypes.addAll(declaredTypes.get());
    return Optional.of(parameterTypes);
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
