package ad4j.processor;

import ad4j.processor.front.DerivativeOfRules;
import ad4j.processor.front.Diagnostics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.annotation.processing.Messager;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.tools.Diagnostic;

/**
 * Checks the {@code @DerivativeOf} rules of a round and reports each problem at the rule: an
 * unknown target or parameter, a parameter list or return type that does not match, a rule that
 * is not static or is private, and two rules for the same partial derivative; warns at a rule
 * that no call can see and at a {@code @UsesDerivatives} that lists a class without rules.
 */
final class RuleValidator {
  private final DerivativeOfRules rules;
  private final Messager messager;

  RuleValidator(DerivativeOfRules rules, Messager messager) {
    this.rules = rules;
    this.messager = messager;
  }

  void validate(Iterable<? extends Element> annotated) {
    Map<List<Object>, ExecutableElement> first = new LinkedHashMap<>();
    for (ExecutableElement method : ElementFilter.methodsIn(toList(annotated))) {
      DerivativeOfRules.Checked checked = rules.check(method);
      Optional<DerivativeOfRules.Problem> problem = checked.problem();
      if (problem.isPresent()) {
        report(problem.get());
        continue;
      }
      DerivativeOfRules.Rule rule = checked.rule().orElseThrow();
      warnIfHidden(method);
      ExecutableElement earlier = first.putIfAbsent(List.of(rule.target(), rule.wrt()), method);
      if (earlier != null) {
        String target = rule.target().getEnclosingElement().getSimpleName() + "."
            + rule.target().getSimpleName();
        messager.printMessage(Diagnostic.Kind.ERROR, Diagnostics.PREFIX + "@DerivativeOf rule '"
            + method.getSimpleName() + "' repeats rule '" + earlier.getEnclosingElement()
                .getSimpleName() + "." + earlier.getSimpleName() + "': both give the partial"
            + " derivative of '" + target + "' with respect to '" + rule.target().getParameters()
                .get(rule.wrt()).getSimpleName() + "'; keep one", method);
      }
    }
  }

  /**
   * Warns where a rule can be seen by no call: generated code lives in another class and can
   * call no method of a private, local or anonymous class, so every call that would use the
   * rule is an error. (Every other rule of the compilation is seen by every call compiled with
   * it, and by later compilations that list its class with {@code @UsesDerivatives}.)
   */
  private void warnIfHidden(ExecutableElement method) {
    for (Element element = method.getEnclosingElement(); element instanceof TypeElement type;
        element = element.getEnclosingElement()) {
      String why = type.getModifiers().contains(Modifier.PRIVATE) ? "is private"
          : type.getNestingKind() == NestingKind.LOCAL ? "is a local class"
          : type.getNestingKind() == NestingKind.ANONYMOUS ? "is anonymous" : null;
      if (why != null) {
        messager.printMessage(Diagnostic.Kind.WARNING, Diagnostics.PREFIX + "@DerivativeOf rule '"
            + method.getSimpleName() + "' is seen by no call: its class '" + type.getSimpleName()
            + "' " + why + ", and the generated code, in a class of its own, cannot call it;"
            + " move the rule to a class that is not private, local or anonymous", method);
        return;
      }
    }
  }

  /**
   * Warns at each {@code @UsesDerivatives} that lists a class declaring no
   * {@code @DerivativeOf} rule: it gives its calls nothing.
   */
  void validateUses(Iterable<? extends Element> annotated) {
    for (Element element : toList(annotated)) {
      for (TypeElement listed : DerivativeOfRules.usedBy(element)) {
        boolean hasRules = ElementFilter.methodsIn(listed.getEnclosedElements()).stream()
            .anyMatch(m -> DerivativeOfRules.annotationOf(m).isPresent());
        if (!hasRules) {
          messager.printMessage(Diagnostic.Kind.WARNING, Diagnostics.PREFIX + "@UsesDerivatives"
              + " lists '" + listed.getQualifiedName() + "', which declares no @DerivativeOf"
              + " rule", element, usesAnnotation(element));
        }
      }
    }
  }

  private static javax.lang.model.element.AnnotationMirror usesAnnotation(Element element) {
    for (javax.lang.model.element.AnnotationMirror mirror : element.getAnnotationMirrors()) {
      if (((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName()
          .contentEquals(DerivativeOfRules.USES)) {
        return mirror;
      }
    }
    return null;
  }

  private void report(DerivativeOfRules.Problem problem) {
    String message = Diagnostics.PREFIX + problem.message();
    if (problem.annotation() == null) {
      messager.printMessage(Diagnostic.Kind.ERROR, message, problem.method());
    } else if (problem.value() == null) {
      messager.printMessage(Diagnostic.Kind.ERROR, message, problem.method(),
          problem.annotation());
    } else {
      messager.printMessage(Diagnostic.Kind.ERROR, message, problem.method(),
          problem.annotation(), problem.value());
    }
  }

  private static List<Element> toList(Iterable<? extends Element> elements) {
    List<Element> list = new ArrayList<>();
    elements.forEach(list::add);
    return list;
  }
}
