package ad4j.processor.emit;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Value;
import com.palantir.javapoet.ArrayTypeName;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.TypeName;

/**
 * The Java types of IR values as JavaPoet writes them in signatures. Apart because the writers
 * of members and the size estimates of printed programs both declare parameters so.
 */
public final class JavaTypes {
  private JavaTypes() {}

  /** The type of a parameter of a generated member: the user's own type for an object. */
  public static TypeName parameterType(Value parameter) {
    return parameter.type() == NumericType.OBJECT
        ? TypeName.get(parameter.referenceType()) : typeName(parameter.type());
  }

  /** The type of a value of {@code type}; none for objects, whose type is their own. */
  public static TypeName typeName(NumericType type) {
    return switch (type) {
      case INT -> TypeName.INT;
      case LONG -> TypeName.LONG;
      case CHAR -> TypeName.CHAR;
      case SHORT -> TypeName.SHORT;
      case BYTE -> TypeName.BYTE;
      case BOOLEAN -> TypeName.BOOLEAN;
      case FLOAT -> TypeName.FLOAT;
      case DOUBLE -> TypeName.DOUBLE;
      case DOUBLE_ARRAY -> ArrayTypeName.of(TypeName.DOUBLE);
      case DOUBLE_MATRIX -> ArrayTypeName.of(ArrayTypeName.of(TypeName.DOUBLE));
      case INT_ARRAY -> ArrayTypeName.of(TypeName.INT);
      case FLOAT_ARRAY -> ArrayTypeName.of(TypeName.FLOAT);
      case STRING -> ClassName.get(String.class);
      case VOID -> throw new IllegalArgumentException("no parameter is void");
      case OBJECT -> throw new IllegalArgumentException("an object's type is its own");
    };
  }
}
