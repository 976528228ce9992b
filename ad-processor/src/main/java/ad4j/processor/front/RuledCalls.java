package ad4j.processor.front;

import ad4j.processor.ir.Callee;
import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import ad4j.processor.ir.RuledCallee;
import com.sun.source.tree.ArrayAccessTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.Tree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/**
 * Lowers calls of methods whose partial derivatives the user supplies with
 * {@code @DerivativeOf}: one {@link Operation#call(RuledCallee)} instruction, whose partials
 * the rules give where the call is. Rules are looked up where DESIGN.md says a call sees them:
 * the target's class, the caller's, every class of this compilation, and the classes that
 * {@code @UsesDerivatives} lists; a call of a {@code Math} function that sees a rule is lowered
 * here too, instead of with the built-in derivative.
 */
final class RuledCalls {
  private final LoweringContext context;
  private final DerivativeOfRules rules;
  private final CalleeResolver callees;

  RuledCalls(LoweringContext context, CalleeResolver callees) {
    this.context = context;
    this.rules = new DerivativeOfRules(context.elements(), context.types());
    this.callees = callees;
  }

  /** A call lowered here: its value, or null after an error at the call. */
  record Lowered(Operand operand) {}

  /**
   * The call {@code owner.name(arguments)} lowered with its rules, when the static method it
   * chooses (as Java chooses among overloads) has rules, or a rule in a compiled library names
   * it but cannot be used (an error at the call, then); empty otherwise, and the call is
   * resolved as any other.
   */
  Optional<Lowered> lower(TypeElement owner, String name, List<Operand> arguments, Tree call,
      String shown) {
    ExecutableElement method = CallChoices.choose(context, owner, name, arguments);
    if (method == null || !StaticMembers.isStatic(method)) {
      return Optional.empty();
    }
    if (rulesOf(method).isEmpty()) {
      Optional<String> unusable = unusableLibraryRule(method);
      if (unusable.isPresent()) {
        context.diagnostics().error(call, "call to '" + shown + "' is not differentiable: "
            + unusable.get());
        return Optional.of(new Lowered(null));
      }
      return Optional.empty();
    }
    return Optional.of(new Lowered(lower(method, arguments, call, shown)));
  }

  /**
   * Why a rule of a compiled library that names {@code target} cannot be used, if there is one:
   * such rules are checked here, not where they were compiled. A library compiled without
   * parameter names (neither {@code -g} nor {@code -parameters}) cannot match {@code wrt}.
   */
  private Optional<String> unusableLibraryRule(ExecutableElement target) {
    return unusable.computeIfAbsent(target, this::findUnusableLibraryRule);
  }

  /** What {@link #unusableLibraryRule} found for each target so far. */
  private final Map<ExecutableElement, Optional<String>> unusable = new HashMap<>();

  private Optional<String> findUnusableLibraryRule(ExecutableElement target) {
    List<TypeElement> classes = new ArrayList<>();
    classes.add((TypeElement) target.getEnclosingElement());
    classes.addAll(seenClasses());
    for (TypeElement declaring : classes) {
      if (context.calleeServices().isCompiledFromSource(declaring)) {
        continue;
      }
      for (ExecutableElement method : ElementFilter.methodsIn(declaring.getEnclosedElements())) {
        Optional<AnnotationMirror> annotation = DerivativeOfRules.annotationOf(method);
        if (annotation.isPresent() && DerivativeOfRules.targetName(annotation.get())
            .equals(target.getSimpleName().toString())
            && rules.namesOwner(method, (TypeElement) target.getEnclosingElement())) {
          Optional<DerivativeOfRules.Problem> problem = rules.check(method).problem();
          if (problem.isPresent()) {
            return Optional.of("its rule in the compiled class '" + declaring.getQualifiedName()
                + "' cannot be used: " + problem.get().message() + " (a library whose rules"
                + " name wrt must be compiled with parameter names: -g or -parameters)");
          }
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Whether some instance method {@code name} of the receiver's type has rules: then a call of
   * it on the {@code static final} field {@code receiver} is lowered here.
   */
  boolean hasInstanceRules(VariableElement receiver, String name) {
    return receiverType(receiver).map(type -> ElementFilter.methodsIn(
            context.elements().getAllMembers(type)).stream()
        .anyMatch(m -> m.getSimpleName().contentEquals(name)
            && !StaticMembers.isStatic(m) && !rulesOf(m).isEmpty()))
        .orElse(false);
  }

  /**
   * The call {@code receiver.name(arguments)} of an instance method with rules; null after an
   * error at it.
   */
  Operand lowerOnReceiver(VariableElement receiver, String name, List<Operand> arguments,
      Tree call, String shown) {
    TypeElement type = receiverType(receiver).orElseThrow();
    ExecutableElement target = instanceTarget(type, name, arguments, call, shown);
    if (target == null) {
      return null;
    }
    if (!StaticMembers.isStatic(receiver)
        || !receiver.getModifiers().contains(Modifier.FINAL)) {
      context.diagnostics().error(call, "call to '" + shown + "': its receiver '"
          + receiver.getSimpleName() + "' must be a static final field, so that the call and"
          + " its @DerivativeOf rules see the same object");
      return null;
    }
    Optional<String> hidden = context.reachability().ofMember(receiver);
    if (hidden.isPresent()) {
      context.diagnostics().error(call, "call to '" + shown + "': generated code cannot read its"
          + " receiver: " + hidden.get());
      return null;
    }
    String text = context.javaTypes().referenceTo((TypeElement) receiver.getEnclosingElement())
        + "." + receiver.getSimpleName();
    if (context.order() == 2) {
      // the rules' tangents take the object first, as they do for an object of the method's:
      // the field's, the same object at every call
      return lower(target, arguments, call, shown, null,
          context.javaTypes().referenceConstant(text, receiver.asType()));
    }
    return lower(target, arguments, call, shown, text, null);
  }

  /** Whether the instance method {@code name} of {@code type} has rules for some overload. */
  boolean hasInstanceRules(TypeElement type, String name) {
    return ElementFilter.methodsIn(context.elements().getAllMembers(type)).stream()
        .anyMatch(m -> m.getSimpleName().contentEquals(name)
            && !StaticMembers.isStatic(m) && !rulesOf(m).isEmpty());
  }

  /**
   * The call {@code receiver.name(arguments)} of an instance method with rules on an object
   * the method has (a parameter, or a local made outside loops): the receiver becomes the
   * call's first argument, as it is the rules' first parameter. Null after an error at it.
   */
  Operand lowerOnObject(Operand receiver, TypeElement type, String name,
      List<Operand> arguments, Tree call, String shown, String receiverText) {
    ExecutableElement target = instanceTarget(type, name, arguments, call, shown);
    if (target == null) {
      return null;
    }
    if (!(receiver instanceof Operand.Use use) || context.isMadeInALoop(use.value())) {
      // the reverse sweep calls the rules with the receiver, which it cannot record
      if (isElement(call)) {
        context.diagnostics().error(call, "call to '" + shown + "': its receiver '"
            + receiverText + "' is an element of an array read inside a loop, and the reverse"
            + " sweep needs the object of each call for its @DerivativeOf rules, which ad4j"
            + " does not keep; pass the numbers the call needs (the object's fields) to a static"
            + " @Differentiable method, or to a static method with @DerivativeOf rules, instead");
      } else {
        context.diagnostics().error(call, "call to '" + shown + "': its receiver '"
            + receiverText + "' is assigned more than once or made inside a loop, and the"
            + " reverse sweep needs the object of each call for its @DerivativeOf rules; make"
            + " the object once, before any loop, in a local that is not assigned again");
      }
      return null;
    }
    return lower(target, arguments, call, shown, null, receiver);
  }

  /** Whether {@code call} is made on an element of an array ({@code parts[i].cdf(x)}). */
  private static boolean isElement(Tree call) {
    return call instanceof MethodInvocationTree invocation
        && invocation.getMethodSelect() instanceof MemberSelectTree select
        && ExpressionLowering.withoutParentheses(select.getExpression())
            instanceof ArrayAccessTree;
  }

  /**
   * The instance method {@code name} of {@code type} that takes {@code arguments} and has
   * rules; null after an error at the call.
   */
  private ExecutableElement instanceTarget(TypeElement type, String name, List<Operand> arguments,
      Tree call, String shown) {
    ExecutableElement target = CallChoices.choose(context, type, name, arguments);
    if (target == null || StaticMembers.isStatic(target)
        || rulesOf(target).isEmpty()) {
      context.diagnostics().error(call, "call to '" + shown + "' is not differentiable: no"
          + " method '" + name + "' of '" + type.getSimpleName() + "' that takes these"
          + " arguments has @DerivativeOf rules");
      return null;
    }
    return target;
  }

  private Optional<TypeElement> receiverType(VariableElement receiver) {
    return receiver.asType() instanceof DeclaredType declared
        && declared.asElement() instanceof TypeElement type ? Optional.of(type) : Optional.empty();
  }

  /** The call of {@code target}, differentiated by its rules; null after an error at it. */
  private Operand lower(ExecutableElement target, List<Operand> arguments, Tree call,
      String shown) {
    return lower(target, arguments, call, shown, null, null);
  }

  /**
   * The call of {@code target} on {@code receiver} (Java text of a static field; null for a
   * static method) or on {@code object} (a value of the method's, which the call and its rules
   * then take first), differentiated by its rules; null after an error at it.
   */
  private Operand lower(ExecutableElement target, List<Operand> arguments, Tree call,
      String shown, String receiver, Operand object) {
    TypeElement declaring = (TypeElement) target.getEnclosingElement();
    String targetName = declaring.getSimpleName() + "." + target.getSimpleName();
    List<DerivativeOfRules.Rule> found = rulesOf(target);
    Map<Integer, DerivativeOfRules.Rule> byParameter = new HashMap<>();
    for (DerivativeOfRules.Rule rule : found) {
      DerivativeOfRules.Rule other = byParameter.putIfAbsent(rule.wrt(), rule);
      if (other != null) {
        context.diagnostics().error(call, "call to '" + shown + "': two @DerivativeOf rules"
            + " give the partial derivative of '" + targetName + "' with respect to '"
            + parameterName(target, rule.wrt()) + "': '" + describe(other.method()) + "' and '"
            + describe(rule.method()) + "'; keep one");
        return null;
      }
    }
    List<String> missing = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      if (carriesDerivative(arguments.get(i)) && !byParameter.containsKey(i)) {
        missing.add(parameterName(target, i));
      }
    }
    if (!missing.isEmpty()) {
      context.diagnostics().error(call, "call to '" + shown + "': "
          + (missing.size() == 1 ? "parameter '" : "parameters '")
          + String.join("', '", missing) + "' of '" + targetName + "' "
          + (missing.size() == 1 ? "receives a value" : "receive values")
          + " carrying a derivative, but '" + targetName + "' has @DerivativeOf rules only for '"
          + found.stream().map(r -> parameterName(target, r.wrt())).distinct().sorted()
              .collect(Collectors.joining("', '"))
          + "'; add a rule @DerivativeOf(value = \"" + target.getSimpleName() + "\", wrt = \""
          + missing.get(0) + "\") for each");
      return null;
    }
    Optional<String> unreachable = context.reachability().ofMember(target);
    if (unreachable.isPresent()) {
      context.diagnostics().error(call, "call to '" + shown + "': generated code cannot call"
          + " it: " + unreachable.get());
      return null;
    }
    if (target.getModifiers().contains(Modifier.ABSTRACT)) {
      context.diagnostics().error(call, "call to '" + shown + "': '" + targetName + "' has no"
          + " body, and the call runs the body of the receiver's class, of which its"
          + " @DerivativeOf rules know nothing; give rules for that class's method (owner = its"
          + " class) and call it on a receiver of that type");
      return null;
    }
    // the rules give the partials of this body: a receiver whose class overrides it is refused
    String check = mayBeOverridden(target) ? receiverCheck(target, targetName) : null;
    if (check != null && receiver != null) {
      receiver = "ad4j.runtime.internal.Overrides.ruleReceiver(" + receiver + ", " + check + ")";
    }
    String objectCheck = object == null ? null : check;
    for (VariableElement parameter : target.getParameters()) {
      if (parameter.asType().getKind() == TypeKind.TYPEVAR) {
        context.diagnostics().error(call, "call to '" + shown + "': parameter '"
            + parameter.getSimpleName() + "' of '" + targetName + "' has type '"
            + parameter.asType() + "', a type variable, which ad4j cannot pass to a method with"
            + " @DerivativeOf rules; give the parameter its type (or Object)");
        return null;
      }
    }
    List<NumericType> parameterTypes = CalleeResolver.parameterTypes(target).orElseThrow();
    boolean vector = target.getReturnType().getKind() != TypeKind.DOUBLE;
    for (int i = 0; vector && context.order() == 2 && i < arguments.size(); i++) {
      if (arguments.get(i) instanceof Operand.Use use && use.value().isActiveArray()) {
        // its rule for the array returns a matrix, which has no generated tangent
        context.diagnostics().error(call, "call to '" + shown + "' from method '"
            + context.methodName() + "', which is @Differentiable(order = 2): '" + targetName
            + "' returns an array, and its parameter '" + parameterName(target, i)
            + "' receives an array carrying derivatives, whose @DerivativeOf rule returns a"
            + " 'double[][]'; ad4j cannot differentiate methods that return matrices, so at"
            + " order 2 a target that returns an array may take arrays only without"
            + " derivatives");
        return null;
      }
    }
    // the arguments as the rules take them: an object of the method's goes first
    List<Operand> ruleArguments = object == null ? arguments : withFirst(object, arguments);
    List<NumericType> ruleTypes = object == null ? parameterTypes : withObject(parameterTypes);
    int shift = object == null ? 0 : 1;
    Map<Integer, RuledCallee> partials = new TreeMap<>();
    List<Operand> partialValues = new ArrayList<>();
    for (Map.Entry<Integer, DerivativeOfRules.Rule> entry : new TreeMap<>(byParameter).entrySet()) {
      int parameter = entry.getKey();
      if (!carriesDerivative(arguments.get(parameter))) {
        continue; // a constant argument: its partial is never needed
      }
      ExecutableElement rule = entry.getValue().method();
      Optional<String> hidden = context.reachability().ofMember(rule);
      if (hidden.isPresent()) {
        context.diagnostics().error(call, "call to '" + shown + "': generated code cannot call"
            + " its @DerivativeOf rule '" + describe(rule) + "': " + hidden.get());
        return null;
      }
      RuledCallee ruleCallee = new RuledCallee(
          context.javaTypes().referenceTo((TypeElement) rule.getEnclosingElement()),
          rule.getSimpleName().toString(), ruleTypes, Map.of(), receiver, objectCheck);
      NumericType partialType = partialType(parameterTypes.get(parameter), vector);
      Operation ruleCall;
      boolean activePartial = false;
      if (context.order() == 2) {
        // a @Differentiable rule, called as one: the tangent of the partial, which
        // forward-over-reverse needs, is then the rule's own generated tangent
        Optional<Callee> atOrderTwo = callees.ruleAtOrderTwo(rule, ruleTypes, call, shown,
            targetName);
        if (atOrderTwo.isEmpty()) {
          return null;
        }
        ruleCall = Operation.call(atOrderTwo.get());
        activePartial = partialType == NumericType.DOUBLE;
      } else {
        ruleCall = Operation.call(ruleCallee);
      }
      // computed here, before the call, so that the rule sees the arguments and the object
      // as the call does, whatever changes them later
      partialValues.add(context.emit(ruleCall, ruleArguments, partialType, activePartial));
      partials.put(parameter + shift, ruleCallee);
    }
    boolean active = arguments.stream().anyMatch(RuledCalls::carriesDerivative);
    NumericType resultType = vector ? NumericType.DOUBLE_ARRAY : NumericType.DOUBLE;
    List<Operand> callArguments = new ArrayList<>(ruleArguments);
    callArguments.addAll(partialValues);
    RuledCallee callee = object != null
        ? new RuledCallee(null, target.getSimpleName().toString(), ruleTypes, partials, null,
            objectCheck)
        : new RuledCallee(receiver == null ? context.javaTypes().referenceTo(declaring) : receiver,
            target.getSimpleName().toString(), parameterTypes, partials, null, null);
    return context.emit(Operation.call(callee), callArguments, resultType, active);
  }

  /**
   * Whether a class may override {@code target}, an instance method with a body: neither it
   * nor its class (an enum's constants may have bodies; an interface's default method) final.
   */
  private static boolean mayBeOverridden(ExecutableElement target) {
    return !StaticMembers.isStatic(target)
        && !target.getModifiers().contains(Modifier.PRIVATE)
        && !target.getModifiers().contains(Modifier.FINAL)
        && target.getEnclosingElement() instanceof TypeElement owner
        && !owner.getModifiers().contains(Modifier.FINAL)
        && owner.getKind() != ElementKind.RECORD;
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

  /** Whether calls of {@code method} are differentiated with {@code @DerivativeOf} rules. */
  boolean hasRules(ExecutableElement method) {
    return StaticMembers.isStatic(method) && !rulesOf(method).isEmpty();
  }

  /**
   * The valid rules of {@code target} that a call of it from the method being lowered sees
   * (DESIGN.md, "Where @DerivativeOf rules are found"): those in the target's own class, in the
   * caller's class, in every class of this compilation, and in the classes that
   * {@code @UsesDerivatives} lists on the caller's class, the classes it is nested in, or its
   * package.
   */
  private List<DerivativeOfRules.Rule> rulesOf(ExecutableElement target) {
    return found.computeIfAbsent(target, t -> {
      List<TypeElement> classes = new ArrayList<>();
      classes.add((TypeElement) t.getEnclosingElement());
      classes.addAll(seenClasses());
      return rules.rulesOf(t, classes);
    });
  }

  /** The rules of each target looked up so far: lowering asks at every call. */
  private final Map<ExecutableElement, List<DerivativeOfRules.Rule>> found = new HashMap<>();

  private List<TypeElement> seen;

  /** The classes besides a target's own whose rules every call of this method sees. */
  private List<TypeElement> seenClasses() {
    if (seen == null) {
      List<TypeElement> classes = new ArrayList<>(
          rules.classesSeenFrom(context.symbols().enclosingType()));
      classes.addAll(context.calleeServices().ruleClasses());
      seen = List.copyOf(classes);
    }
    return seen;
  }

  /**
   * The name of the target's parameter {@code index}: its own when compiled here; for a library
   * compiled without parameter names ({@code arg0}), the name a rule of this compilation gives
   * it, as rules repeat the target's parameter list.
   */
  private String parameterName(ExecutableElement target, int index) {
    if (!context.calleeServices().isCompiledFromSource(target)) {
      for (DerivativeOfRules.Rule rule : rulesOf(target)) {
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
