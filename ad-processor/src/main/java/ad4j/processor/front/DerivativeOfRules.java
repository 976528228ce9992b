package ad4j.processor.front;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Reads and checks {@code @ad4j.DerivativeOf} rules: which method (the target) a rule is a
 * partial derivative of, and with respect to which parameter. The processor reports the
 * problems of the rules it compiles at the rules ({@link #check}); lowering looks up the valid
 * rules of a called method ({@link #rulesOf}).
 */
public final class DerivativeOfRules {
  /** The annotation's qualified name. */
  public static final String ANNOTATION = "ad4j.DerivativeOf";
  /** The qualified name of the annotation that lists classes of rules to use. */
  public static final String USES = "ad4j.UsesDerivatives";

  /**
   * A valid rule.
   *
   * @param method the rule method
   * @param target the method it is a partial derivative of
   * @param wrt the index, in the target's parameter list, of the parameter it differentiates by
   */
  public record Rule(ExecutableElement method, ExecutableElement target, int wrt) {}

  /**
   * What is wrong with a rule, and where to say so: at the annotation's {@code value} when not
   * null, else at the annotation when not null, else at the method.
   */
  public record Problem(ExecutableElement method, AnnotationMirror annotation,
      AnnotationValue value, String message) {}

  /** A rule checked: exactly one of the two is present. */
  public record Checked(Optional<Rule> rule, Optional<Problem> problem) {}

  private final Elements elements;
  private final Types types;
  /** Each rule checked once: lowering looks rules up at every call. */
  private final Map<ExecutableElement, Checked> checked = new java.util.HashMap<>();

  public DerivativeOfRules(Elements elements, Types types) {
    this.elements = elements;
    this.types = types;
  }

  /** The {@code @DerivativeOf} annotation of {@code method}, if it has one. */
  public static Optional<AnnotationMirror> annotationOf(ExecutableElement method) {
    for (AnnotationMirror annotation : method.getAnnotationMirrors()) {
      TypeElement type = (TypeElement) annotation.getAnnotationType().asElement();
      if (type.getQualifiedName().contentEquals(ANNOTATION)) {
        return Optional.of(annotation);
      }
    }
    return Optional.empty();
  }

  /** The target's name a {@code @DerivativeOf} annotation gives. */
  public static String targetName(AnnotationMirror annotation) {
    AnnotationValue value = element(annotation, "value");
    return value == null ? "" : String.valueOf(value.getValue());
  }

  /** Checks the rule {@code method}, which carries {@code @DerivativeOf}. */
  public Checked check(ExecutableElement method) {
    return checked.computeIfAbsent(method, this::checkOnce);
  }

  /**
   * The classes an {@code @ad4j.UsesDerivatives} annotation on {@code element} (a class or a
   * package) lists, in order; empty without one.
   */
  public static List<TypeElement> usedBy(javax.lang.model.element.Element element) {
    List<TypeElement> classes = new ArrayList<>();
    for (AnnotationMirror annotation : element.getAnnotationMirrors()) {
      TypeElement type = (TypeElement) annotation.getAnnotationType().asElement();
      if (!type.getQualifiedName().contentEquals(USES)) {
        continue;
      }
      AnnotationValue value = element(annotation, "value");
      if (value != null && value.getValue() instanceof List<?> listed) {
        for (Object item : listed) {
          if (item instanceof AnnotationValue entry && entry.getValue() instanceof DeclaredType
              declared && declared.asElement() instanceof TypeElement listedType) {
            classes.add(listedType);
          }
        }
      }
    }
    return classes;
  }

  /**
   * The classes whose rules the calls of a {@code @Differentiable} method of {@code caller}
   * see besides the target's own class and the compilation's: {@code caller} itself, the
   * classes that {@code @UsesDerivatives} lists on it, on the classes it is nested in, and on
   * its package ({@code package-info.java}).
   */
  public List<TypeElement> classesSeenFrom(TypeElement caller) {
    List<TypeElement> classes = new ArrayList<>(List.of(caller));
    for (javax.lang.model.element.Element element = caller; element != null;
        element = element.getEnclosingElement()) {
      classes.addAll(usedBy(element));
      if (element instanceof javax.lang.model.element.PackageElement) {
        break;
      }
    }
    return classes;
  }

  /**
   * The class of the target of rule {@code method}: the one {@code owner = ...} names, or the
   * class declaring the rule.
   */
  public Optional<TypeElement> ownerOf(ExecutableElement method) {
    AnnotationValue ownerElement = annotationOf(method).map(a -> element(a, "owner"))
        .orElse(null);
    if (ownerElement != null && ownerElement.getValue() instanceof DeclaredType declared) {
      return declared.asElement() instanceof TypeElement owner ? Optional.of(owner)
          : Optional.empty();
    }
    return method.getEnclosingElement() instanceof TypeElement declaring
        ? Optional.of(declaring) : Optional.empty();
  }

  /**
   * Whether the rule {@code method} names {@code owner} as its target's class (with
   * {@code owner = ...}, or by being declared in it).
   */
  public boolean namesOwner(ExecutableElement method, TypeElement owner) {
    AnnotationValue ownerElement = annotationOf(method).map(a -> element(a, "owner"))
        .orElse(null);
    if (ownerElement != null && ownerElement.getValue() instanceof DeclaredType declared) {
      return declared.asElement().equals(owner);
    }
    return method.getEnclosingElement().equals(owner);
  }

  private Checked checkOnce(ExecutableElement method) {
    AnnotationMirror annotation = annotationOf(method).orElseThrow();
    AnnotationValue valueElement = element(annotation, "value");
    AnnotationValue wrtElement = element(annotation, "wrt");
    AnnotationValue ownerElement = element(annotation, "owner");
    String value = valueElement == null ? "" : String.valueOf(valueElement.getValue());
    String wrt = wrtElement == null ? "" : String.valueOf(wrtElement.getValue());
    String rule = "@DerivativeOf rule '" + method.getSimpleName() + "'";
    TypeElement declaring = (TypeElement) method.getEnclosingElement();
    TypeElement owner = declaring;
    if (ownerElement != null && ownerElement.getValue() instanceof TypeMirror ownerType
        && ownerType.getKind() != TypeKind.VOID) {
      if (!(ownerType instanceof DeclaredType declared)) {
        return problem(method, annotation, ownerElement, rule + ": owner '" + ownerType
            + "' is not a class or interface");
      }
      owner = (TypeElement) declared.asElement();
    }
    if (!StaticMembers.isStatic(method)) {
      return problem(method, null, null, rule + " must be static");
    }
    if (method.getModifiers().contains(Modifier.PRIVATE)) {
      return problem(method, null, null, rule + " is private: generated code lives in another"
          + " class and calls it; make it package-private");
    }
    String ownerName = owner.getSimpleName().toString();
    // the methods of that name that are members of the owner, as a call Owner.value(...)
    // finds them: a static method a subclass hides is not one (getAllMembers lists it)
    List<ExecutableElement> candidates = new Members(elements, types).methods(owner, value);
    if (candidates.isEmpty()) {
      return problem(method, annotation, valueElement, rule + ": unknown target: no method '"
          + value + "' in '" + ownerName + "'"
          + (owner == declaring ? " (name another class with owner = ...)" : ""));
    }
    TypeElement targetOwner = owner;
    List<ExecutableElement> fitting = candidates.stream()
        .filter(candidate -> parametersMatch(method, candidate, targetOwner)).toList();
    if (fitting.size() > 1) {
      // a static f(Foo, double) and an instance f(double) of Foo: a rule takes an instance
      // method's receiver first, so its parameters fit both, and either may be the one meant
      return problem(method, null, null, rule + ": its parameters " + typeList(method)
          + " fit " + fitting.stream().map(c -> "'" + ownerName + "." + value + "("
              + c.getParameters().stream().map(p -> types.erasure(p.asType()).toString())
                  .collect(Collectors.joining(", ")) + ")' ("
              + (StaticMembers.isStatic(c) ? "static" : "an instance method, whose rules take the"
                  + " receiver first") + ")").collect(Collectors.joining(" and "))
          + ", and ad4j cannot tell which one it is for; rename one of them");
    }
    ExecutableElement target = fitting.isEmpty() ? null : fitting.get(0);
    if (target == null) {
      return problem(method, null, null, rule + ": its parameters " + typeList(method)
          + " do not match those of '" + ownerName + "." + value + "', " + candidates.stream()
              .map(c -> expectedParameters(c, targetOwner)).collect(Collectors.joining(" or "))
          + ": a rule takes exactly the target's parameters (after the receiver, for an"
          + " instance method)");
    }
    String targetName = ownerName + "." + value;
    if (target.getReturnType().getKind() != TypeKind.DOUBLE
        && !"double[]".equals(partialType(target.getReturnType()))) {
      return problem(method, null, null, rule + ": target '" + targetName + "' returns '"
          + target.getReturnType() + "', and ad4j differentiates calls of methods returning"
          + " 'double' or 'double[]' only");
    }
    List<? extends VariableElement> parameters = target.getParameters();
    List<Integer> active = new ArrayList<>();
    for (int i = 0; i < parameters.size(); i++) {
      if (carriesDerivative(parameters.get(i).asType())) {
        active.add(i);
      }
    }
    if (active.isEmpty()) {
      return problem(method, null, null, rule + ": target '" + targetName + "' has no 'double'"
          + " parameter, so there is no derivative to give");
    }
    // the scalar forms' messages name 'double' parameters; with arrays, all three kinds
    String kinds = active.stream().allMatch(i -> parameters.get(i).asType().getKind()
        == TypeKind.DOUBLE) ? "'double' parameters" : "parameters that carry derivatives";
    String activeNames = active.stream().map(i -> parameters.get(i).getSimpleName().toString())
        .collect(Collectors.joining(", "));
    if (wrt.isEmpty()) {
      if (active.size() > 1) {
        return problem(method, annotation, null, rule + ": missing wrt: '" + targetName
            + "' has several " + kinds + " (" + activeNames + "); name the one this rule"
            + " differentiates by, as wrt = \"" + parameters.get(active.get(0)).getSimpleName()
            + "\"");
      }
      return returning(method, target, active.get(0), rule);
    }
    int index = indexOf(parameters, wrt);
    if (index < 0) {
      // A library compiled without parameter names: the rule's own names, in the same order.
      int offset = StaticMembers.isStatic(target) ? 0 : 1;
      int own = indexOf(method.getParameters(), wrt) - offset;
      index = own >= 0 ? own : -1;
    }
    if (index < 0) {
      return problem(method, annotation, wrtElement, rule + ": unknown wrt: '" + targetName
          + "' has no parameter '" + wrt + "'; its " + kinds + " are " + activeNames);
    }
    if (!active.contains(index)) {
      return problem(method, annotation, wrtElement, rule + ": parameter '" + wrt + "' of '"
          + targetName + "' has type '" + parameters.get(index).asType() + "' and carries no"
          + " derivative; its " + kinds + " are " + activeNames);
    }
    return returning(method, target, index, rule);
  }

  /**
   * Whether a parameter of this type carries a derivative: {@code double}, {@code double[]}
   * and {@code double[][]} (the array forms).
   */
  private static boolean carriesDerivative(TypeMirror type) {
    return partialType(type) != null;
  }

  /**
   * The type a partial derivative with respect to a parameter of {@code type} has, written as
   * Java writes it, or null when such a parameter carries no derivative. A scalar target's
   * partial has the parameter's own shape: one entry per element, {@code [i][j]} for
   * {@code m[i][j]} of a matrix.
   */
  private static String partialType(TypeMirror type) {
    if (type.getKind() == TypeKind.DOUBLE) {
      return "double";
    }
    if (type instanceof ArrayType array) {
      TypeMirror component = array.getComponentType();
      if (component.getKind() == TypeKind.DOUBLE) {
        return "double[]";
      }
      if (component instanceof ArrayType inner
          && inner.getComponentType().getKind() == TypeKind.DOUBLE) {
        return "double[][]";
      }
    }
    return null;
  }

  /**
   * The rule for parameter {@code index}, valid when it returns the partial's type: for a
   * target returning {@code double}, the parameter's own shape; for a vector target (returning
   * {@code double[]}), one more dimension in front, the result's element.
   */
  private Checked returning(ExecutableElement method, ExecutableElement target, int index,
      String rule) {
    VariableElement parameter = target.getParameters().get(index);
    String name = parameter.getSimpleName().toString();
    String expected = partialType(parameter.asType());
    String what;
    if (target.getReturnType().getKind() == TypeKind.DOUBLE) {
      what = expected.equals("double") ? "the partial derivative"
          : "the partial derivatives with respect to the elements of '" + name + "', in its"
              + " shape";
    } else if (expected.equals("double[][]")) {
      return problem(method, null, null, rule + ": target '" + target.getEnclosingElement()
          .getSimpleName() + "." + target.getSimpleName() + "' returns 'double[]' and '" + name
          + "' is a 'double[][]': partial derivatives of a vector target with respect to a"
          + " matrix are not supported");
    } else {
      what = expected.equals("double") ? "element k the partial derivative of the result's"
              + " element k"
          : "[k][j] the partial derivative of the result's element k with respect to '" + name
              + "[j]'";
      expected = expected + "[]";
    }
    // compared by structure, not by the compiler's text for the type
    if (!expected.equals(partialType(method.getReturnType()))) {
      return problem(method, null, null, rule + " must return '" + expected + "' (" + what
          + "), not '" + method.getReturnType() + "'");
    }
    Optional<javax.lang.model.type.TypeMirror> undeclared = undeclaredChecked(method, target);
    if (undeclared.isPresent()) {
      // generated members declare what the calling method declares, which covers the
      // target's checked exceptions only
      return problem(method, null, null, rule + " declares '" + undeclared.get() + "', a"
          + " checked exception that its target '" + target.getEnclosingElement().getSimpleName()
          + "." + target.getSimpleName() + "' does not declare: a rule may throw only what its"
          + " target throws; declare it on the target too, or throw an unchecked exception");
    }
    return valid(method, target, index);
  }

  /** A checked exception {@code rule} declares that {@code target} does not, if any. */
  private Optional<javax.lang.model.type.TypeMirror> undeclaredChecked(ExecutableElement rule,
      ExecutableElement target) {
    javax.lang.model.type.TypeMirror unchecked = elements.getTypeElement(
        "java.lang.RuntimeException").asType();
    javax.lang.model.type.TypeMirror error = elements.getTypeElement("java.lang.Error").asType();
    return rule.getThrownTypes().stream()
        .filter(t -> !types.isSubtype(t, unchecked) && !types.isSubtype(t, error))
        .filter(t -> target.getThrownTypes().stream().noneMatch(d -> types.isSubtype(t, d)))
        .map(t -> (javax.lang.model.type.TypeMirror) t)
        .findFirst();
  }

  /**
   * The valid rules of {@code target} declared in {@code classes} (those a call sees), in the
   * order found. Invalid ones are left out: the processor reports them at the rules (those
   * compiled here) or the call (those of compiled classes).
   */
  public List<Rule> rulesOf(ExecutableElement target, List<TypeElement> classes) {
    List<Rule> rules = new ArrayList<>();
    List<TypeElement> seen = new ArrayList<>();
    for (TypeElement type : classes) {
      if (seen.contains(type)) {
        continue;
      }
      seen.add(type);
      for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
        if (annotationOf(method).isPresent()) {
          check(method).rule().filter(r -> r.target().equals(target)).ifPresent(rules::add);
        }
      }
    }
    return rules;
  }

  private boolean parametersMatch(ExecutableElement rule, ExecutableElement target,
      TypeElement owner) {
    List<TypeMirror> expected = expectedTypes(target, owner);
    List<? extends VariableElement> actual = rule.getParameters();
    if (actual.size() != expected.size()) {
      return false;
    }
    for (int i = 0; i < expected.size(); i++) {
      if (!types.isSameType(types.erasure(actual.get(i).asType()),
          types.erasure(expected.get(i)))) {
        return false;
      }
    }
    return true;
  }

  private List<TypeMirror> expectedTypes(ExecutableElement target, TypeElement owner) {
    List<TypeMirror> expected = new ArrayList<>();
    if (!StaticMembers.isStatic(target)) {
      expected.add(owner.asType());
    }
    for (VariableElement parameter : target.getParameters()) {
      expected.add(parameter.asType());
    }
    return expected;
  }

  private String expectedParameters(ExecutableElement target, TypeElement owner) {
    return "(" + expectedTypes(target, owner).stream().map(t -> types.erasure(t).toString())
        .collect(Collectors.joining(", ")) + ")";
  }

  private String typeList(ExecutableElement method) {
    return "(" + method.getParameters().stream()
        .map(p -> types.erasure(p.asType()).toString()).collect(Collectors.joining(", ")) + ")";
  }

  private static int indexOf(List<? extends VariableElement> parameters, String name) {
    for (int i = 0; i < parameters.size(); i++) {
      if (parameters.get(i).getSimpleName().contentEquals(name)) {
        return i;
      }
    }
    return -1;
  }

  private static AnnotationValue element(AnnotationMirror annotation, String name) {
    for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry
        : annotation.getElementValues().entrySet()) {
      if (entry.getKey().getSimpleName().contentEquals(name)) {
        return entry.getValue();
      }
    }
    return null;
  }

  private static Checked valid(ExecutableElement method, ExecutableElement target, int wrt) {
    return new Checked(Optional.of(new Rule(method, target, wrt)), Optional.empty());
  }

  private static Checked problem(ExecutableElement method, AnnotationMirror annotation,
      AnnotationValue value, String message) {
    return new Checked(Optional.empty(),
        Optional.of(new Problem(method, annotation, value, message)));
  }
}
