package ad4j.processor.front;

import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Which parameters carry derivatives: {@code double}, {@code float}, {@code double[]},
 * {@code float[]} and {@code double[][]} ones, unless marked {@code @ad4j.NoDerivative}. All
 * others ({@code int}, {@code long}, {@code boolean}, {@code char}, {@code short}, {@code byte},
 * {@code int[]}, objects, enums, strings, other arrays) take part in the values only.
 */
public final class ActiveParameters {
  /** The annotation that makes a parameter a constant of the differentiation. */
  public static final String NO_DERIVATIVE = "ad4j.NoDerivative";

  private ActiveParameters() {}

  /**
   * Why a parameter may not be declared with this type, if it may not. Allowed are every
   * primitive type ({@code double} and {@code float} get derivatives), and every reference
   * type: the arrays ad4j computes with ({@code double[]}, {@code double[][]}, {@code int[]}), and
   * objects, enums, records, strings and other arrays, which carry no derivative and are passed
   * along as written. An array of {@code double}s of a higher rank must say so with
   * {@code @NoDerivative}.
   */
  public static Optional<String> typeProblem(VariableElement parameter) {
    TypeMirror type = parameter.asType();
    if (type.getKind().isPrimitive()) {
      return Optional.empty();
    }
    if (ValueRecords.isMixed(type) && !isMarkedNoDerivative(parameter)) {
      return Optional.of("a record whose components carry derivatives beside one ad4j does"
          + " not flatten yet (" + ValueRecords.obstacle(type) + "; a 'float[]', 'double[][]',"
          + " 'char', 'short' or 'byte' component, or a record holding itself) is"
          + " not differentiated yet; mark it @NoDerivative to pass it along without"
          + " derivatives, or take its 'double' components as parameters");
    }
    if (type.getKind() == TypeKind.TYPEVAR || type.getKind() == TypeKind.WILDCARD) {
      return Optional.of("a type variable cannot be a parameter's type");
    }
    if (type.getKind() == TypeKind.ARRAY
        && (isArrayOf(type, TypeKind.DOUBLE) || isArrayOf(type, TypeKind.FLOAT))
        && !isDifferentiableType(type) && !isMarkedNoDerivative(parameter)) {
      return Optional.of("ad4j differentiates 'double', 'float', 'double[]', 'float[]' and"
          + " 'double[][]' parameters; mark an array of a higher rank @NoDerivative to pass it"
          + " along without derivatives");
    }
    return Optional.empty();
  }

  /** An array whose elements, at its last rank, are of the primitive type {@code element}. */
  private static boolean isArrayOf(TypeMirror type, TypeKind element) {
    while (type.getKind() == TypeKind.ARRAY) {
      type = ((ArrayType) type).getComponentType();
    }
    return type.getKind() == element;
  }

  /** Whether {@code parameter} gets gradient slots, a tangent and an adjoint. */
  public static boolean isActive(VariableElement parameter) {
    return isDifferentiableType(parameter.asType()) && !isMarkedNoDerivative(parameter);
  }

  /**
   * {@code double}, {@code float}, {@code double[]}, {@code float[]} or {@code double[][]}; a
   * {@code float}'s values are computed in float, its derivatives are doubles.
   */
  public static boolean isDifferentiableType(TypeMirror type) {
    if (type.getKind() == TypeKind.FLOAT || type.getKind() == TypeKind.ARRAY
        && ((ArrayType) type).getComponentType().getKind() == TypeKind.FLOAT) {
      return true;
    }
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

  /**
   * Whether a method returning {@code type} is a scalar function: {@code double}, or
   * {@code float}, whose value is computed in float and whose derivatives are doubles.
   */
  public static boolean isScalarResult(TypeMirror type) {
    return type.getKind() == TypeKind.DOUBLE || type.getKind() == TypeKind.FLOAT;
  }

  /**
   * Whether a method returning {@code type} is a vector function: {@code double[]}, or
   * {@code float[]}, whose elements are computed in float and whose derivatives are doubles,
   * or a value record, over its leaves.
   */
  public static boolean isVectorResult(TypeMirror type) {
    if (ValueRecords.valueRecord(type).isPresent()) {
      // over its leaves (DESIGN.md, part 3), all doubles and floats
      return ValueRecords.isReturnable(ValueRecords.valueRecord(type).get());
    }
    if (type.getKind() != TypeKind.ARRAY) {
      return false;
    }
    TypeKind element = ((ArrayType) type).getComponentType().getKind();
    return element == TypeKind.DOUBLE || element == TypeKind.FLOAT;
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
