package ad4j.processor.front;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Which parameters carry derivatives: {@code double}, {@code double[]} and {@code double[][]}
 * ones, unless marked {@code @ad4j.NoDerivative}. All others ({@code int}, {@code long},
 * {@code boolean}, {@code int[]}) take part in the values only.
 */
public final class ActiveParameters {
  /** The annotation that makes a parameter a constant of the differentiation. */
  public static final String NO_DERIVATIVE = "ad4j.NoDerivative";

  private ActiveParameters() {}

  /**
   * Whether a parameter may be declared with this type: {@code double}, {@code int},
   * {@code long}, {@code boolean}, {@code double[]}, {@code double[][]} or {@code int[]}.
   */
  public static boolean isSupportedType(com.sun.source.tree.Tree type) {
    return LoweringContext.typeOf(type).isPresent();
  }

  /** Whether {@code parameter} gets gradient slots, a tangent and an adjoint. */
  public static boolean isActive(VariableElement parameter) {
    return isDifferentiableType(parameter.asType()) && !isMarkedNoDerivative(parameter);
  }

  /** {@code double}, {@code double[]} or {@code double[][]}. */
  public static boolean isDifferentiableType(TypeMirror type) {
    for (int rank = 0; rank <= 2; rank++) {
      if (type.getKind() == TypeKind.DOUBLE) {
        return true;
      }
      if (type.getKind() != TypeKind.ARRAY) {
        return false;
      }
      type = ((ArrayType) type).getComponentType();
    }
    return false;
  }

  /** Whether a method returning {@code type} is a vector function: {@code double[]}. */
  public static boolean isVectorResult(TypeMirror type) {
    return type.getKind() == TypeKind.ARRAY
        && ((ArrayType) type).getComponentType().getKind() == TypeKind.DOUBLE;
  }

  /** Whether {@code parameter} carries {@code @ad4j.NoDerivative}. */
  public static boolean isMarkedNoDerivative(VariableElement parameter) {
    for (AnnotationMirror annotation : parameter.getAnnotationMirrors()) {
      TypeElement type = (TypeElement) annotation.getAnnotationType().asElement();
      if (type.getQualifiedName().contentEquals(NO_DERIVATIVE)) {
        return true;
      }
    }
    return false;
  }
}
