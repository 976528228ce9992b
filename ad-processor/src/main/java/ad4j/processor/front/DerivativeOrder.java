package ad4j.processor.front;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * The {@code order} of a method's {@code @ad4j.Differentiable}: 1 (the default) for first
 * derivatives, 2 for Hessians as well. Read from the annotation mirror, as the processor finds
 * the annotation by name.
 */
public final class DerivativeOrder {
  private static final String ANNOTATION = "ad4j.Differentiable";
  private static final String ELEMENT = "order";

  private DerivativeOrder() {}

  /**
   * The order {@code method} asks for, as written ({@code 1} when not given or the annotation is
   * missing); whether it is supported is {@link #check}'s business.
   */
  public static int of(ExecutableElement method) {
    for (AnnotationMirror annotation : method.getAnnotationMirrors()) {
      TypeElement type = (TypeElement) annotation.getAnnotationType().asElement();
      if (!type.getQualifiedName().contentEquals(ANNOTATION)) {
        continue;
      }
      for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry
          : annotation.getElementValues().entrySet()) {
        if (entry.getKey().getSimpleName().contentEquals(ELEMENT)
            && entry.getValue().getValue() instanceof Integer order) {
          return order;
        }
      }
    }
    return 1;
  }

  /**
   * Records an error at the annotation's {@code order = ...} when the order is not supported:
   * other than 1 and 2. Order 2 suits every result ad4j differentiates: a {@code double} or
   * {@code float} gets Hessian members; a vector function ({@code double[]}, {@code float[]}, a
   * value record) has no Hessian and gets only the second-order code its order-2 callers call.
   * Returns whether it is supported.
   */
  public static boolean check(ExecutableElement method, MethodTree tree, Diagnostics diagnostics) {
    int order = of(method);
    String name = method.getSimpleName().toString();
    if (order != 1 && order != 2) {
      diagnostics.error(at(tree), "@Differentiable(order = " + order + ") on method '" + name
          + "' is not supported: the order must be 1 (first derivatives, the default) or 2"
          + " (Hessians as well)");
      return false;
    }
    return true;
  }

  /** The {@code order = ...} of the annotation on {@code tree}, or the method itself. */
  private static Tree at(MethodTree tree) {
    for (AnnotationTree annotation : tree.getModifiers().getAnnotations()) {
      if (!names(annotation.getAnnotationType())) {
        continue;
      }
      for (ExpressionTree argument : annotation.getArguments()) {
        if (argument instanceof AssignmentTree assignment
            && assignment.getVariable() instanceof IdentifierTree identifier
            && identifier.getName().contentEquals(ELEMENT)) {
          return assignment;
        }
      }
      return annotation;
    }
    return tree;
  }

  /** Whether an annotation's type, as written, names {@code Differentiable}. */
  private static boolean names(Tree type) {
    if (type instanceof IdentifierTree identifier) {
      return identifier.getName().contentEquals("Differentiable");
    }
    return type instanceof MemberSelectTree select
        && select.getIdentifier().contentEquals("Differentiable");
  }
}
