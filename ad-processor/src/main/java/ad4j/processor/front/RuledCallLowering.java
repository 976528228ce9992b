package ad4j.processor.front;

import ad4j.processor.ir.Callee;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.RuledCallee;
import ad4j.processor.ir.SlotsCall;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Lowers one call of a method with {@code @DerivativeOf} rules, once {@link RuledCalls} has
 * chosen the target and its receiver: it checks that the rules the call sees cover every
 * argument that carries a derivative and that generated code can call the target and the rules,
 * computes each partial with its rule before the call, and emits the call as one
 * {@link Operation#call(RuledCallee)} instruction taking the partials after its arguments.
 *
 * <p>Apart from {@link RuledCalls}, which tells which calls have rules and on what receiver
 * they are made: this is what one such call becomes.
 */
final class RuledCallLowering {
  private final LoweringContext context;
  private final RuledCalls ruledCalls;
  private final CalleeResolver callees;

  RuledCallLowering(LoweringContext context, RuledCalls ruledCalls, CalleeResolver callees) {
    this.context = context;
    this.ruledCalls = ruledCalls;
    this.callees = callees;
  }

  /**
   * A call being lowered: its target, named {@code Owner.name} in the messages, the arguments
   * as the user passed them, and what the user wrote ({@code shown}, at {@code tree}).
   */
  private record RuledCall(ExecutableElement target, String targetName, List<Operand> arguments,
      Tree tree, String shown) {}

  /**
   * The arguments as the rules, and a call on an object, take them: an object of the method's
   * ({@code object}, or null) first, then the call's; {@code receiver} is the Java text of a
   * static field the call is made on (null otherwise), checked not to override the target when
   * a class may; {@code objectCheck} the same check for the object.
   */
  private record RuleArguments(List<Operand> operands, List<NumericType> types, Operand object,
      String receiver, String objectCheck) {

    /** How far an argument's index moves in the rules' arguments: by the object first. */
    int shift() {
      return object == null ? 0 : 1;
    }
  }

  /** A partial derivative: the rule that gives it and its value, computed before the call. */
  private record Partial(RuledCallee rule, Operand value) {}

  /**
   * The call of {@code target} on {@code receiver} (Java text of a static field; null for a
   * static method) or on {@code object} (a value of the method's, which the call and its rules
   * then take first), differentiated by its rules; null after an error at it.
   */
  Operand lower(ExecutableElement target, List<Operand> arguments, Tree call, String shown,
      String receiver, Operand object) {
    TypeElement declaring = (TypeElement) target.getEnclosingElement();
    RuledCall site = new RuledCall(target,
        declaring.getSimpleName() + "." + target.getSimpleName(), arguments, call, shown);
    Map<Integer, DerivativeOfRules.Rule> byParameter = rulesByParameter(site);
    if (byParameter == null || rejectsMissingRules(site, byParameter)
        || rejectsUncallableTarget(site)) {
      return null;
    }
    // the rules give the partials of this body: a receiver whose class overrides it is refused
    String check = OverridableMethods.mayBeOverridden(target) ? receiverCheck(target, site.targetName()) : null;
    if (check != null && receiver != null) {
      receiver = "ad4j.runtime.internal.Overrides.ruleReceiver(" + receiver + ", " + check + ")";
    }
    String objectCheck = object == null ? null : check;
    if (rejectsTypeVariables(site)) {
      return null;
    }
    List<NumericType> parameterTypes = CalleeResolver.parameterTypes(target).orElseThrow();
    boolean vector = target.getReturnType().getKind() != TypeKind.DOUBLE;
    if (vector && context.order() == 2 && rejectsActiveArraysAtOrderTwo(site)) {
      return null;
    }
    // the arguments as the rules take them: an object of the method's goes first
    RuleArguments taken = new RuleArguments(
        object == null ? arguments : withFirst(object, arguments),
        object == null ? parameterTypes : withObject(parameterTypes), object, receiver,
        objectCheck);
    Map<Integer, Partial> partials = partials(site, byParameter, parameterTypes, vector, taken);
    if (partials == null) {
      return null;
    }
    if (rejectsStateChangingRules(site, byParameter)) {
      return null;
    }
    // a target that writes a field runs again, and counts again, in each sweep of the members
    // that make one per slot, as a plain call would: the same error where they would
    Optional<Tree> change = TargetStateWrites.first(context.trees(), context.elements(),
        context.types(), target);
    if (change.isPresent() && new RepeatedRuns(context).rejectStateChangingTarget(call, shown,
        site.targetName(), TargetStateWrites.shown(change.get()))) {
      return null;
    }
    return emitCall(site, declaring, taken, parameterTypes, vector, partials);
  }

  /**
   * Whether a rule the call uses changes state that outlasts its call (a field, an array it
   * did not make, through a method it calls), after an error: the method never runs its rules
   * and the generated members do, before the target, so they would see and leave other state
   * ('shiftX' counting 'k' that 'shift' adds: fValueAndGradient gave 4.5 where the method
   * gives 0.5).
   */
  private boolean rejectsStateChangingRules(RuledCall site,
      Map<Integer, DerivativeOfRules.Rule> byParameter) {
    for (Map.Entry<Integer, DerivativeOfRules.Rule> entry : byParameter.entrySet()) {
      if (!carriesDerivative(site.arguments().get(entry.getKey()))) {
        continue; // a rule the members do not run
      }
      DerivativeOfRules.Rule rule = entry.getValue();
      Optional<Tree> write = TargetStateWrites.ofRule(context.trees(), context.elements(),
          context.types(), rule.method());
      if (write.isPresent()) {
        context.diagnostics().error(site.tree(), "call to '" + site.shown() + "': its"
            + " @DerivativeOf rule '" + describe(rule.method()) + "' changes state that"
            + " outlasts its call ('" + TargetStateWrites.shown(write.get()) + "'), and the"
            + " generated members run the"
            + " rule where '" + context.methodName() + "' runs only '" + site.targetName()
            + "'; a rule must compute its partial derivative from its arguments alone");
        return true;
      }
    }
    return false;
  }

  /**
   * The rule of each parameter the rules the call sees give a partial for; null after an error
   * when two give the same one, for ad4j cannot tell which the user means.
   */
  private Map<Integer, DerivativeOfRules.Rule> rulesByParameter(RuledCall site) {
    Map<Integer, DerivativeOfRules.Rule> byParameter = new HashMap<>();
    for (DerivativeOfRules.Rule rule : ruledCalls.rulesOf(site.target())) {
      DerivativeOfRules.Rule other = byParameter.putIfAbsent(rule.wrt(), rule);
      if (other != null) {
        context.diagnostics().error(site.tree(), "call to '" + site.shown() + "': two"
            + " @DerivativeOf rules give the partial derivative of '" + site.targetName()
            + "' with respect to '" + parameterName(site.target(), rule.wrt()) + "': '"
            + describe(other.method()) + "' and '" + describe(rule.method()) + "'; keep one");
        return null;
      }
    }
    return byParameter;
  }

  /**
   * Whether an argument carrying a derivative meets a parameter without a rule, after an error
   * naming them all: its partial is unknown, and leaving it out would drop the derivative.
   */
  private boolean rejectsMissingRules(RuledCall site,
      Map<Integer, DerivativeOfRules.Rule> byParameter) {
    ExecutableElement target = site.target();
    String targetName = site.targetName();
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < site.arguments().size(); i++) {
      if (carriesDerivative(site.arguments().get(i)) && !byParameter.containsKey(i)) {
        missing.add(parameterName(target, i));
      }
    }
    if (missing.isEmpty()) {
      return false;
    }
    context.diagnostics().error(site.tree(), "call to '" + site.shown() + "': "
        + (missing.size() == 1 ? "parameter '" : "parameters '")
        + String.join("', '", missing) + "' of '" + targetName + "' "
        + (missing.size() == 1 ? "receives a value" : "receive values")
        + " carrying a derivative, but '" + targetName + "' has @DerivativeOf rules only for '"
        + ruledCalls.rulesOf(target).stream().map(r -> parameterName(target, r.wrt()))
            .distinct().sorted().collect(Collectors.joining("', '"))
        + "'; add a rule @DerivativeOf(value = \"" + target.getSimpleName() + "\", wrt = \""
        + missing.get(0) + "\") for each");
    return true;
  }

  /**
   * Whether generated code cannot call the target, or the rules' partials are of no body the
   * call runs (an abstract method), after an error.
   */
  private boolean rejectsUncallableTarget(RuledCall site) {
    Optional<String> unreachable = context.reachability().ofMember(site.target());
    if (unreachable.isPresent()) {
      context.diagnostics().error(site.tree(), "call to '" + site.shown() + "': generated code"
          + " cannot call it: " + unreachable.get());
      return true;
    }
    if (site.target().getModifiers().contains(Modifier.ABSTRACT)) {
      context.diagnostics().error(site.tree(), "call to '" + site.shown() + "': '"
          + site.targetName() + "' has no body, and the call runs the body of the receiver's"
          + " class, of which its @DerivativeOf rules know nothing; give rules for that class's"
          + " method (owner = its class) and call it on a receiver of that type");
      return true;
    }
    return false;
  }

  /**
   * Whether a parameter of the target is of a type variable, after an error: generated code
   * passes each argument as its parameter's type, which a type variable does not name.
   */
  private boolean rejectsTypeVariables(RuledCall site) {
    for (VariableElement parameter : site.target().getParameters()) {
      if (parameter.asType().getKind() == TypeKind.TYPEVAR) {
        context.diagnostics().error(site.tree(), "call to '" + site.shown() + "': parameter '"
            + parameter.getSimpleName() + "' of '" + site.targetName() + "' has type '"
            + parameter.asType() + "', a type variable, which ad4j cannot pass to a method with"
            + " @DerivativeOf rules; give the parameter its type (or Object)");
        return true;
      }
    }
    return false;
  }

  /**
   * Whether, at order 2, a target returning an array takes an array carrying derivatives, after
   * an error: its rule for the array returns a matrix, which has no generated tangent.
   */
  private boolean rejectsActiveArraysAtOrderTwo(RuledCall site) {
    for (int i = 0; i < site.arguments().size(); i++) {
      if (site.arguments().get(i) instanceof Operand.Use use && use.value().isActiveArray()) {
        context.diagnostics().error(site.tree(), "call to '" + site.shown() + "' from method '"
            + context.methodName() + "', which is @Differentiable(order = 2): '"
            + site.targetName() + "' returns an array, and its parameter '"
            + parameterName(site.target(), i) + "' receives an array carrying derivatives, whose"
            + " @DerivativeOf rule returns a 'double[][]'; ad4j cannot differentiate methods that"
            + " return matrices, so at order 2 a target that returns an array may take arrays"
            + " only without derivatives");
        return true;
      }
    }
    return false;
  }

  /**
   * The partials of the parameters whose arguments carry derivatives, by their index among the
   * rules' arguments, in order; a constant argument's partial is never needed. Null after an
   * error at a rule.
   */
  private Map<Integer, Partial> partials(RuledCall site,
      Map<Integer, DerivativeOfRules.Rule> byParameter, List<NumericType> parameterTypes,
      boolean vector, RuleArguments taken) {
    Map<Integer, Partial> partials = new TreeMap<>();
    for (Map.Entry<Integer, DerivativeOfRules.Rule> entry : new TreeMap<>(byParameter).entrySet()) {
      int parameter = entry.getKey();
      if (!carriesDerivative(site.arguments().get(parameter))) {
        continue;
      }
      Partial partial = partial(site, entry.getValue().method(), parameterTypes.get(parameter),
          vector, taken);
      if (partial == null) {
        return null;
      }
      partials.put(parameter + taken.shift(), partial);
    }
    return partials;
  }

  /**
   * The partial that {@code rule} gives for a parameter of type {@code parameterType}, its
   * value computed here, before the call, so that the rule sees the arguments and the object as
   * the call does, whatever changes them later. At order 2 the rule is called as the
   * {@code @Differentiable} method it must be: the tangent of the partial, which
   * forward-over-reverse needs, is then the rule's own generated tangent. Null after an error.
   */
  private Partial partial(RuledCall site, ExecutableElement rule, NumericType parameterType,
      boolean vector, RuleArguments taken) {
    Optional<String> hidden = context.reachability().ofMember(rule);
    if (hidden.isPresent()) {
      context.diagnostics().error(site.tree(), "call to '" + site.shown() + "': generated code"
          + " cannot call its @DerivativeOf rule '" + describe(rule) + "': " + hidden.get());
      return null;
    }
    RuledCallee ruleCallee = new RuledCallee(
        context.javaTypes().referenceTo((TypeElement) rule.getEnclosingElement()),
        rule.getSimpleName().toString(), taken.types(), Map.of(), taken.receiver(),
        taken.objectCheck());
    NumericType partialType = partialType(parameterType, vector);
    if (partialType.isArray() && !returnsNewArrays(site, rule, "rule")) {
      return null;
    }
    Operation ruleCall;
    boolean activePartial = false;
    if (context.order() == 2) {
      List<DerivativeOfRules.Rule> ofRule = ruledCalls.rulesOf(rule);
      if (!ofRule.isEmpty()) {
        // the tangent of the partial comes from the rule's generated members, which
        // differentiate its code: rules for the rule itself would be ignored here while calls
        // of the rule elsewhere use them
        context.diagnostics().error(site.tree(), "call to '" + site.shown() + "' from method '"
            + context.methodName() + "', which is @Differentiable(order = 2): its @DerivativeOf"
            + " rule '" + describe(rule) + "' has @DerivativeOf rules of its own ('"
            + ofRule.stream().map(r -> describe(r.method())).distinct()
                .collect(Collectors.joining("', '"))
            + "'), and at order 2 ad4j differentiates the rule's code instead, which may not"
            + " agree with them; remove the rules of '" + rule.getSimpleName() + "', or give '"
            + site.targetName() + "' a rule that is a copy of '" + rule.getSimpleName()
            + "' without rules of its own");
        return null;
      }
      Optional<Callee> atOrderTwo = callees.ruleAtOrderTwo(rule, taken.types(), site.tree(),
          site.shown(), site.targetName());
      if (atOrderTwo.isEmpty()) {
        return null;
      }
      ruleCall = Operation.call(atOrderTwo.get());
      activePartial = partialType == NumericType.DOUBLE;
    } else {
      ruleCall = Operation.call(ruleCallee);
    }
    return new Partial(ruleCallee,
        context.emit(ruleCall, taken.operands(), partialType, activePartial));
  }

  /**
   * The call itself: the target (on the object, the static field, or its class) with the
   * rules' arguments and then the partials, active when an argument carries a derivative.
   */
  private Operand emitCall(RuledCall site, TypeElement declaring, RuleArguments taken,
      List<NumericType> parameterTypes, boolean vector, Map<Integer, Partial> partials) {
    boolean active = site.arguments().stream().anyMatch(RuledCallLowering::carriesDerivative);
    if (vector && !returnsNewArrays(site, site.target(), "target")) {
      return null;
    }
    NumericType resultType = vector ? NumericType.DOUBLE_ARRAY : NumericType.DOUBLE;
    List<Operand> callArguments = new ArrayList<>(taken.operands());
    Map<Integer, RuledCallee> rules = new TreeMap<>();
    partials.forEach((index, partial) -> {
      callArguments.add(partial.value());
      rules.put(index, partial.rule());
    });
    String name = site.target().getSimpleName().toString();
    RuledCallee callee = taken.object() != null
        ? new RuledCallee(null, name, taken.types(), rules, null, taken.objectCheck())
        : new RuledCallee(taken.receiver() == null
            ? context.javaTypes().referenceTo(declaring) : taken.receiver(),
            name, parameterTypes, rules, null, null);
    Operand result = context.emit(Operation.call(callee), callArguments, resultType, active);
    if (vector) {
      // a target that returns an array it was given would make the caller's result an alias,
      // which the members differentiate as an array of its own: refused where it runs
      for (Operand argument : taken.operands()) {
        if (argument.type().isArray()) {
          context.emit(Operation.slotsCall(SlotsCall.CHECK_NEW_ARRAY, 3), List.of(result,
              argument, new Operand.Constant(ad4j.processor.ir.Expr.atom("\"" + declaring
                  .getSimpleName() + "." + name + "\""), NumericType.STRING,
                  java.util.OptionalDouble.empty())), NumericType.INT, false);
        }
      }
    }
    return result;
  }

  /**
   * The arguments after the receiver of {@code Overrides.ruleReceiver} for {@code target}: its
   * class, name, erased parameter types (binary names, which the runtime loads) and
   * {@code shown}.
   */
  private String receiverCheck(ExecutableElement target, String shown) {
    List<String> types = new ArrayList<>();
    for (VariableElement parameter : target.getParameters()) {
      types.add(binaryName(context.types().erasure(parameter.asType())));
    }
    return context.javaTypes().referenceTo((TypeElement) target.getEnclosingElement())
        + ".class, \"" + target.getSimpleName() + "\", \"" + String.join(",", types) + "\", \""
        + shown + "\"";
  }

  private String binaryName(TypeMirror type) {
    if (type instanceof ArrayType array) {
      return binaryName(array.getComponentType()) + "[]";
    }
    if (type instanceof DeclaredType declared) {
      return context.elements().getBinaryName((TypeElement) declared.asElement()).toString();
    }
    return type.toString(); // a primitive
  }

  /**
   * The type of the partial derivative with respect to a parameter of {@code parameter}'s
   * type: its own shape for a target returning {@code double}, one dimension more in front
   * (the result's element) for a vector target.
   */
  /**
   * Whether {@code method}, the call's {@code @DerivativeOf} target or a rule ({@code role}),
   * returns a new array each time, as far as its source tells ({@link FreshArrayReturns});
   * reports at the call where it may not.
   */
  private boolean returnsNewArrays(RuledCall site, ExecutableElement method, String role) {
    Optional<String> shared = FreshArrayReturns.firstNotFresh(context.trees(), method);
    if (shared.isPresent()) {
      context.diagnostics().error(site.tree(), "call to '" + site.shown() + "': its"
          + " @DerivativeOf " + role + " '" + describe(method) + "' returns " + shared.get()
          + ", which may not be a new array: ad4j differentiates each array such a call returns"
          + " as one of its own, and a buffer returned again, or an argument, would be one"
          + " array with two sets of derivatives; return a new array each time ('new double[]"
          + " {...}', 'new double[n]', a clone, or a local made so and not assigned again)");
      return false;
    }
    return true;
  }

  private static NumericType partialType(NumericType parameter, boolean vector) {
    if (!vector) {
      return parameter;
    }
    return parameter == NumericType.DOUBLE ? NumericType.DOUBLE_ARRAY : NumericType.DOUBLE_MATRIX;
  }

  /** {@code parameterTypes} after an object's: the parameters of rules of instance methods. */
  private static List<NumericType> withObject(List<NumericType> parameterTypes) {
    List<NumericType> withObject = new ArrayList<>();
    withObject.add(NumericType.OBJECT);
    withObject.addAll(parameterTypes);
    return withObject;
  }

  private static List<Operand> withFirst(Operand first, List<Operand> rest) {
    List<Operand> all = new ArrayList<>();
    all.add(first);
    all.addAll(rest);
    return all;
  }

  /** Whether a derivative flows in through {@code argument}: a value or an array's elements. */
  private static boolean carriesDerivative(Operand argument) {
    return argument.isActive()
        || argument instanceof Operand.Use use && use.value().isActiveArray();
  }


  /**
   * The name of the target's parameter {@code index}: its own when compiled here; for a library
   * compiled without parameter names ({@code arg0}), the name a rule of this compilation gives
   * it, as rules repeat the target's parameter list.
   */
  private String parameterName(ExecutableElement target, int index) {
    if (!context.calleeServices().isCompiledFromSource(target)) {
      for (DerivativeOfRules.Rule rule : ruledCalls.rulesOf(target)) {
        if (context.calleeServices().isCompiledFromSource(rule.method())) {
          int receiver = StaticMembers.isStatic(target) ? 0 : 1;
          return rule.method().getParameters().get(receiver + index).getSimpleName().toString();
        }
      }
    }
    return target.getParameters().get(index).getSimpleName().toString();
  }

  private static String describe(ExecutableElement method) {
    return method.getEnclosingElement().getSimpleName() + "." + method.getSimpleName();
  }
}
