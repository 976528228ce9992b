package ad4j.processor;

import ad4j.processor.front.ActiveParameters;
import ad4j.processor.front.DerivativeOrder;
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
import javax.lang.model.type.TypeKind;

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
          + "' returns value record '" + resultRecord.get().getSimpleName() + "', which has"
          + " components that are not 'double' or 'float' ('int', 'long', 'boolean', 'String',"
          + " objects, 'double[]'): ad4j returns value records of 'double' and 'float'"
          + " components only yet; return those in a record of their own");
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
      anyDouble |= ActiveParameters.isActive(element) || isFlattened(element);
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
    if (!DerivativeOrder.check(method, tree,
        ActiveParameters.isScalarResult(method.getReturnType()), diagnostics)) {
      valid = false;
    }
    if (valid) {
      valid = fitsParameterSlots(method, tree, diagnostics);
    }
    return valid;
  }

  /** The JVM's limit on the parameter slots of a static method (JVMS 4.3.3). */
  static final int MAX_PARAMETER_SLOTS = 255;

  /**
   * Whether every generated member fits in {@link #MAX_PARAMETER_SLOTS}. The largest is
   * {@code mTangent}: the parameters and one direction per {@code double}, and a tape as well in
   * the segment methods of a long method. ({@code mPullback} adds only a seed and an array.)
   */
  private static boolean fitsParameterSlots(ExecutableElement method, MethodTree tree,
      Diagnostics diagnostics) {
    // the tape; at order 2, the Hessian sweep's gradient and its tangent instead
    int slots = DerivativeOrder.of(method) == 2 ? 2 : 1;
    if (!StaticMembers.isStatic(method)) {
      // the receiver, the first parameter of every generated member; a value record's, a
      // double and its direction per leaf
      slots += Receivers.valueRecordReceiver(method)
          .map(record -> 4 * ValueRecords.leaves(record).size()).orElse(1);
    }
    for (var parameter : method.getParameters()) {
      TypeKind kind = parameter.asType().getKind();
      if (isFlattened(parameter)) {
        // a value record: a double and its direction per leaf
        slots += 4 * ValueRecords.leaves(ValueRecords.valueRecord(parameter.asType())
            .orElseThrow()).size();
        continue;
      }
      // a double and its direction take two slots each; a float one, its direction (a
      // double) two
      slots += kind == TypeKind.LONG ? 2 : kind == TypeKind.DOUBLE ? 4
          : kind == TypeKind.FLOAT ? (ActiveParameters.isActive(parameter) ? 3 : 1)
          : ActiveParameters.isActive(parameter) ? 2 : 1; // an array and its direction
    }
    if (slots <= MAX_PARAMETER_SLOTS) {
      return true;
    }
    String name = method.getSimpleName().toString();
    diagnostics.error(tree, "@Differentiable method '" + name + "' has too many parameters:"
        + " its generated '" + name + "Tangent' takes them and one direction per 'double'"
        + " parameter, " + slots + " parameter slots with the tape of long methods ('double'"
        + " and 'long' take two each), more than the JVM's limit of " + MAX_PARAMETER_SLOTS
        + "; with 'double' parameters only, at most 63 fit");
    return false;
  }

  /** A value record parameter that carries derivatives: its members take its leaves. */
  private static boolean isFlattened(VariableElement parameter) {
    return ValueRecords.valueRecord(parameter.asType()).isPresent()
        && !ActiveParameters.isMarkedNoDerivative(parameter);
  }

  private static Tree at(Tree preferred, Tree fallback) {
    return preferred != null ? preferred : fallback;
  }
}
