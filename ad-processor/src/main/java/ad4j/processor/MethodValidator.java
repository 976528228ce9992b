package ad4j.processor;

import ad4j.processor.front.ActiveParameters;
import ad4j.processor.front.DerivativeOrder;
import ad4j.processor.front.ParameterSlots;
import ad4j.processor.front.Diagnostics;
import ad4j.processor.front.Receivers;
import ad4j.processor.front.StaticMembers;
import ad4j.processor.front.ValueRecords;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import java.util.List;
import java.util.Optional;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * Checks the signature of a {@code @Differentiable} method, before its body is looked at: a
 * static or instance method ({@link Receivers}) with a body, returning {@code double},
 * {@code float}, {@code double[]} or {@code float[]}, with at least one parameter that carries
 * derivatives, in a top-level or member class. Parameters of other types (primitives but
 * {@code char}, {@code short} and {@code byte}; any reference type) carry none and keep their
 * places in every generated member.
 */
final class MethodValidator {
  private MethodValidator() {}

  /** Records an error for each problem; returns whether the signature is valid. */
  static boolean validate(ExecutableElement method, MethodTree tree, Diagnostics diagnostics) {
    String name = method.getSimpleName().toString();
    boolean valid = true;
    Element enclosing = method.getEnclosingElement();
    if (!(enclosing instanceof TypeElement type)
        || type.getNestingKind() == NestingKind.LOCAL
        || type.getNestingKind() == NestingKind.ANONYMOUS) {
      diagnostics.error(tree, "@Differentiable method '" + name + "' must be declared in a"
          + " top-level or nested class, not a local or anonymous one");
      valid = false;
    }
    if (!StaticMembers.isStatic(method) && enclosing instanceof TypeElement owner) {
      valid &= Receivers.check(method, owner, tree, diagnostics);
    }
    if (method.getModifiers().contains(Modifier.ABSTRACT)
        || method.getModifiers().contains(Modifier.NATIVE) || tree.getBody() == null) {
      diagnostics.error(tree, "@Differentiable method '" + name + "' has no body to"
          + " differentiate (abstract or native)");
      valid = false;
    }
    if (!method.getTypeParameters().isEmpty()) {
      diagnostics.error(tree.getTypeParameters().get(0), "@Differentiable method '" + name
          + "' must not be generic");
      valid = false;
    }
    Optional<javax.lang.model.element.TypeElement> resultRecord =
        ValueRecords.valueRecord(method.getReturnType());
    if (resultRecord.isPresent() && !ValueRecords.isReturnable(resultRecord.get())) {
      diagnostics.error(at(tree.getReturnType(), tree), "@Differentiable method '" + name
          + "' returns value record '" + resultRecord.get().getSimpleName() + "', which has a"
          + " 'double[]' component: ad4j returns value records of 'double' and 'float'"
          + " components (and components that carry no derivative) only yet; return the"
          + " array from a method of its own");
      valid = false;
    } else if (!ActiveParameters.isScalarResult(method.getReturnType())
        && !(ActiveParameters.isVectorResult(method.getReturnType()))) {
      diagnostics.error(at(tree.getReturnType(), tree), "@Differentiable method '" + name
          + "' must return 'double', 'float', 'double[]' or 'float[]', not '"
          + method.getReturnType()
          + "'");
      valid = false;
    }
    List<? extends VariableTree> parameters = tree.getParameters();
    // an instance method of a value record differentiates with respect to its receiver
    boolean anyDouble = Receivers.valueRecordReceiver(method).isPresent();
    for (int i = 0; i < parameters.size(); i++) {
      VariableElement element = method.getParameters().get(i);
      anyDouble |= ActiveParameters.isActive(element)
          || ValueRecords.flattened(element).isPresent();
      VariableTree parameter = parameters.get(i);
      Optional<String> problem = ActiveParameters.typeProblem(element);
      if (problem.isPresent()) {
        diagnostics.error(at(parameter.getType(), parameter), "parameter '" + parameter.getName()
            + "' of @Differentiable method '" + name + "' has type '" + element.asType()
            + "': " + problem.get());
        valid = false;
      }
    }
    if (parameters.isEmpty() && !anyDouble) {
      diagnostics.error(tree, "@Differentiable method '" + name + "' has no parameters: there is"
          + " nothing to differentiate with respect to");
      valid = false;
    } else if (!anyDouble && valid) {
      diagnostics.error(tree, "@Differentiable method '" + name + "' has no 'double',"
          + " 'float', 'double[]', 'float[]' or 'double[][]' parameter without @NoDerivative:"
          + " there is nothing to differentiate with respect to");
      valid = false;
    }
    if (!DerivativeOrder.check(method, tree, diagnostics)) {
      valid = false;
    }
    if (valid) {
      valid = fitsParameterSlots(method, tree, diagnostics);
    }
    return valid;
  }

  /**
   * Whether the generated members fit the JVM's limit on parameter slots
   * ({@link ParameterSlots}). The widest is {@code mTangent}, which takes a direction per
   * parameter: without it, an order-1 method keeps its other members (a warning says so, and
   * its callers' generated code, which would call it, is an error there); an order-2 method
   * is an error, because its Hessian sweeps take the directions as well.
   */
  private static boolean fitsParameterSlots(ExecutableElement method, MethodTree tree,
      Diagnostics diagnostics) {
    String name = method.getSimpleName().toString();
    int pullback = ParameterSlots.ofPullback(method);
    if (pullback > ParameterSlots.MAX) {
      diagnostics.error(tree, "@Differentiable method '" + name + "' has too many parameters:"
          + " its generated '" + name + "Pullback' would take them, a seed and an array of"
          + " adjoints, " + pullback + " parameter slots ('double' and 'long' take two each),"
          + " more than the JVM's limit of " + ParameterSlots.MAX + "; pass them in a"
          + " 'double[]'");
      return false;
    }
    int slots = ParameterSlots.ofTangent(method);
    if (slots <= ParameterSlots.MAX) {
      return true;
    }
    String why = "its generated '" + name + "Tangent' would take them and one direction per"
        + " 'double' parameter, " + slots + " parameter slots with the tape of long methods"
        + " ('double' and 'long' take two each), more than the JVM's limit of "
        + ParameterSlots.MAX;
    if (DerivativeOrder.of(method) == 2) {
      diagnostics.error(tree, "@Differentiable method '" + name + "' has too many parameters:"
          + " " + why + ", and its Hessian sweeps take the directions too; with 'double'"
          + " parameters only, at most 63 fit; pass them in a 'double[]'");
      return false;
    }
    diagnostics.warning(tree, "@Differentiable method '" + name + "' has too many parameters"
        + " for a tangent member: " + why + ", so it is not generated; the other members are,"
        + " and a @Differentiable method calling '" + name + "' is an error, its generated"
        + " tangent needing this one. With 'double' parameters only, at most 63 fit; pass them"
        + " in a 'double[]' to have '" + name + "Tangent'");
    return true;
  }

  private static Tree at(Tree preferred, Tree fallback) {
    return preferred != null ? preferred : fallback;
  }
}
