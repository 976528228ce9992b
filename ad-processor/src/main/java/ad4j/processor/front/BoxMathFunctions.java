package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import java.util.Optional;
import java.util.Set;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;

/**
 * The static methods of {@code Double} and {@code Float} that are an operator or a
 * {@code Math} function under another name: {@code Double.sum(a, b)} is {@code a + b}, and
 * {@code Double.max} and {@code Double.min} are {@code Math.max} and {@code Math.min} ("as if by
 * calling Math.max", says their javadoc); the same for {@code Float}'s, in {@code float}.
 *
 * <p>Lowered as what they stand for, they are differentiated by the rules of {@code +} and of
 * {@code Math}'s functions, the same values bit for bit, so that {@code reduce(0, Double::sum)}
 * is the sum it is. With no argument carrying a derivative, the call runs as written.
 */
final class BoxMathFunctions {
  private static final Set<String> OWNERS = Set.of("java.lang.Double", "java.lang.Float");

  /**
   * What a call stands for: {@code a + b} when {@code mathFunction} is empty, else that
   * function of {@code Math}; {@code type} is the parameters' and the result's type.
   */
  record Meaning(Optional<String> mathFunction, NumericType type) {}

  private BoxMathFunctions() {}

  /** What a call of {@code method} stands for, if it is one of these methods. */
  static Optional<Meaning> of(ExecutableElement method) {
    if (!(method.getEnclosingElement() instanceof TypeElement owner)
        || !OWNERS.contains(owner.getQualifiedName().toString())
        || method.getParameters().size() != 2) {
      return Optional.empty();
    }
    TypeKind kind = method.getReturnType().getKind();
    if (kind != TypeKind.DOUBLE && kind != TypeKind.FLOAT) {
      return Optional.empty();
    }
    NumericType type = kind == TypeKind.DOUBLE ? NumericType.DOUBLE : NumericType.FLOAT;
    return switch (method.getSimpleName().toString()) {
      case "sum" -> Optional.of(new Meaning(Optional.empty(), type));
      case "max", "min" -> Optional.of(
          new Meaning(Optional.of(method.getSimpleName().toString()), type));
      default -> Optional.empty();
    };
  }
}
