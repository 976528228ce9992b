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
import javax.lang.model.util.ElementFilter;
import javax.tools.Diagnostic;

/**
 * Checks the {@code @DerivativeOf} rules of a round and reports each problem at the rule: an
 * unknown target or parameter, a parameter list or return type that does not match, a rule that
 * is not static or is private, and two rules for the same partial derivative.
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
