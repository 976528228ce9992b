package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Operand;
import ad4j.processor.ir.Operation;
import java.util.List;
import java.util.Optional;
import javax.lang.model.type.PrimitiveType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;

/**
 * Java's unboxing (JLS 5.1.8) of a box that a call run as written returned ({@code xs.get(i)} of
 * a {@code List<Double>} of data, {@code w.get("k")} of a {@code Map<String, Double>}) where the
 * code around it takes the number: an operand of an arithmetic or comparison operator, a
 * primitive local's initializer or assignment, a primitive result, an argument of a
 * {@code Math} function, a cast to a primitive type. Each of those places asks {@link #number}
 * of what it lowered (the processor lowers trees before javac attributes them, so it decides
 * from the lowered operands' types, as Java does from the static types).
 *
 * <p>The number is read with the box's own method ({@code doubleValue()}), run as written: it
 * carries no derivative, and the dependence analysis follows it as it follows the box ({@link
 * LaunderedDependence}), so a box made from a value that carries a derivative is an error where
 * its number comes back.
 */
final class Unboxing {
  private final LoweringContext context;

  Unboxing(LoweringContext context) {
    this.context = context;
  }

  /** Whether {@code value} is a box of a number ({@code Double}, {@code Integer}, ...). */
  boolean isBox(Operand value) {
    return value != null && value.type() == NumericType.OBJECT && numberType(value).isPresent();
  }

  /** {@code value}'s number where it is a box of one ({@code Double}, ...), else {@code value}. */
  Operand number(Operand value) {
    if (!isBox(value)) {
      return value;
    }
    NumericType type = numberType(value).orElseThrow();
    Operand number = context.emit(Operation.instanceCall(type.keyword() + "Value", 1),
        List.of(value), type, false);
    context.dependences().runsAsWritten(number, "unboxing", true);
    return number;
  }

  /** The number type a box holds: {@code double}, {@code float}, {@code int}, {@code long}. */
  Optional<NumericType> numberType(Operand box) {
    Optional<PrimitiveType> primitive = context.javaTypes().referenceTypeOf(box)
        .flatMap(type -> unboxedType(context.types(), type));
    if (primitive.isEmpty()) {
      return Optional.empty();
    }
    TypeKind kind = primitive.get().getKind();
    // a Short, Byte, Character or Boolean: not a number ad4j computes with
    return switch (kind) {
      case DOUBLE -> Optional.of(NumericType.DOUBLE);
      case FLOAT -> Optional.of(NumericType.FLOAT);
      case INT -> Optional.of(NumericType.INT);
      case LONG -> Optional.of(NumericType.LONG);
      default -> Optional.empty();
    };
  }

  /** The primitive type that {@code type} boxes, if it is a box ({@code Double}, {@code Short}). */
  static Optional<PrimitiveType> unboxedType(Types types, TypeMirror type) {
    try {
      return Optional.of(types.unboxedType(type));
    } catch (IllegalArgumentException notABox) {
      return Optional.empty();
    }
  }
}
