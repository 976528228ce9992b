package ad4j.processor.front;

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
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.util.ElementFilter;

/**
 * Lowers calls of methods whose partial derivatives the user supplies with
 * {@code @DerivativeOf}: one {@link Operation#call(RuledCallee)} instruction, whose partials
 * the rules give where the call is. Rules are looked up where DESIGN.md says a call sees them:
 * the target's class, the caller's, every class of this compilation, and the classes that
 * {@code @UsesDerivatives} lists; a call of a {@code Math} function that sees a rule is lowered
 * here too, instead of with the built-in derivative. What one call becomes, once its target
 * and receiver are chosen here, is {@link RuledCallLowering}'s.
 */
final class RuledCalls {
  private final LoweringContext context;
  private final DerivativeOfRules rules;
  private final RuledCallLowering lowering;
  private final ArrayLowering arrays;

  RuledCalls(LoweringContext context, CalleeResolver callees, ArrayLowering arrays) {
    this.context = context;
    this.rules = new DerivativeOfRules(context.elements(), context.types());
    this.lowering = new RuledCallLowering(context, this, callees);
    this.arrays = arrays;
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
    Optional<Overloads.Choice> choice = CallChoices.choice(context,
        CallChoices.candidates(context, owner, name), arguments);
    ExecutableElement method = choice.map(Overloads.Choice::method).orElse(null);
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
    List<Operand> passed = asPassed(choice.get(), arguments, call);
    return Optional.of(new Lowered(passed == null ? null : lower(method, passed, call, shown)));
  }

  /**
   * The arguments as {@code choice} takes them: a variable arity call's elements in the array
   * Java makes for them, which the target and its rule for that parameter take (the partials
   * are by parameter, so elements passed one by one would meet the wrong ones). Null after an
   * error at the call.
   */
  private List<Operand> asPassed(Overloads.Choice choice, List<Operand> arguments, Tree call) {
    if (!choice.variableArity()) {
      return arguments;
    }
    if (!(call instanceof MethodInvocationTree invocation)) {
      context.diagnostics().error(call, "a method with @DerivativeOf rules that takes its"
          + " variable arity parameter element by element is not supported here; pass an array");
      return null;
    }
    return arrays.variableArityArguments(choice.method(), arguments, invocation, true);
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
    Overloads.Choice choice = instanceTarget(type, name, arguments, call, shown);
    if (choice == null) {
      return null;
    }
    ExecutableElement target = choice.method();
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
    arguments = asPassed(choice, arguments, call);
    if (arguments == null) {
      return null;
    }
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
    Overloads.Choice choice = instanceTarget(type, name, arguments, call, shown);
    if (choice == null) {
      return null;
    }
    if (!(receiver instanceof Operand.Use use) || context.loops().isMadeInALoop(use.value())) {
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
    List<Operand> passed = asPassed(choice, arguments, call);
    return passed == null ? null : lower(choice.method(), passed, call, shown, null, receiver);
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
   * rules, as chosen; null after an error at the call.
   */
  private Overloads.Choice instanceTarget(TypeElement type, String name,
      List<Operand> arguments, Tree call, String shown) {
    Overloads.Choice choice = CallChoices.choice(context,
        CallChoices.candidates(context, type, name), arguments).orElse(null);
    ExecutableElement target = choice == null ? null : choice.method();
    if (target == null || StaticMembers.isStatic(target)
        || rulesOf(target).isEmpty()) {
      context.diagnostics().error(call, "call to '" + shown + "' is not differentiable: no"
          + " method '" + name + "' of '" + type.getSimpleName() + "' that takes these"
          + " arguments has @DerivativeOf rules");
      return null;
    }
    return choice;
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

  /** {@link RuledCallLowering#lower}. */
  private Operand lower(ExecutableElement target, List<Operand> arguments, Tree call,
      String shown, String receiver, Operand object) {
    return lowering.lower(target, arguments, call, shown, receiver, object);
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
  List<DerivativeOfRules.Rule> rulesOf(ExecutableElement target) {
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
}
