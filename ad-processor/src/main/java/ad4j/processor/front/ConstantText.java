package ad4j.processor.front;

import ad4j.processor.ir.NumericType;
import ad4j.processor.ir.Expr;
import java.util.Optional;
import javax.lang.model.type.TypeKind;

/** Java text for compile-time constant values, which generated code inlines. */
final class ConstantText {
  private ConstantText() {}

  /** The numeric type a value of this primitive kind has in arithmetic, if it is numeric. */
  static Optional<NumericType> numericType(TypeKind kind) {
    return switch (kind) {
      case BYTE, SHORT, CHAR, INT -> Optional.of(NumericType.INT);
      case LONG -> Optional.of(NumericType.LONG);
      case FLOAT -> Optional.of(NumericType.FLOAT);
      case DOUBLE -> Optional.of(NumericType.DOUBLE);
      default -> Optional.empty();
    };
  }

  /** As {@link #numericType}, and {@code boolean} too. */
  static Optional<NumericType> valueType(TypeKind kind) {
    return kind == TypeKind.BOOLEAN ? Optional.of(NumericType.BOOLEAN) : numericType(kind);
  }

  /**
   * The literal for a constant value of a numeric field. Narrow integral types become
   * {@code int} literals, which behave the same in arithmetic; a {@code char} stays a
   * {@code char} literal.
   */
  static Optional<Expr> literal(Object value) {
    if (value instanceof Double d) {
      return Optional.of(Expr.number(d));
    }
    if (value instanceof Float f) {
      return Optional.of(Expr.atom(floatLiteral(f)));
    }
    if (value instanceof Long l) {
      return Optional.of(Expr.atom(signed(l + "L")));
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return Optional.of(Expr.atom(signed(value.toString())));
    }
    if (value instanceof Character c) {
      return Optional.of(Expr.atom(charLiteral(c)));
    }
    return Optional.empty();
  }

  /**
   * A {@code char} literal, so that the constant keeps its type where that matters: in a
   * message, {@code "at " + C} appends the character. Quotes, backslashes and line breaks get
   * their escapes: javac would translate a Unicode escape of them before reading the literal.
   */
  private static String charLiteral(char c) {
    String escaped = switch (c) {
      case '\'' -> "\\'";
      case '\\' -> "\\\\";
      case '\n' -> "\\n";
      case '\r' -> "\\r";
      case '\t' -> "\\t";
      case '\b' -> "\\b";
      case '\f' -> "\\f";
      default -> c < 0x20 || c == 0x7f ? "\\" + Integer.toOctalString(c)
          : c > 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    };
    return "'" + escaped + "'";
  }

  /** The value of a numeric constant as a double, exactly as Java would convert it. */
  static double asDouble(Object value) {
    if (value instanceof Character c) {
      return c;
    }
    return ((Number) value).doubleValue();
  }

  private static String floatLiteral(float value) {
    // Constant expressions rather than Float.NaN: a class Float in the user's package would
    // capture that name.
    if (Float.isNaN(value)) {
      return "(0.0f / 0.0f)";
    }
    if (Float.isInfinite(value)) {
      return value > 0 ? "(1.0f / 0.0f)" : "(-1.0f / 0.0f)";
    }
    return signed(Float.toString(value) + "f");
  }

  private static String signed(String text) {
    return text.startsWith("-") ? "(" + text + ")" : text;
  }
}
