package ad4j.processor.ir;

/**
 * The primitive types a value of a differentiable method may have: the numeric types, in the
 * order of widening, and {@code boolean} for conditions. Only {@code double} and {@code float}
 * values carry derivatives.
 */
public enum NumericType {
  /**
   * {@code byte}, {@code short} and {@code char}: parameters and locals of these types carry no
   * derivative; arithmetic promotes them to {@code int} (JLS 5.6), and a {@code char} prints
   * and concatenates as a character, which is why the IR keeps them apart from {@code int}.
   */
  BYTE("byte"),
  SHORT("short"),
  CHAR("char"),
  INT("int"),
  LONG("long"),
  FLOAT("float"),
  DOUBLE("double"),
  BOOLEAN("boolean"),
  /** A {@code double[]}: an array parameter of the user's, or one for results (a gradient). */
  DOUBLE_ARRAY("double[]"),
  /** A {@code double[][]} parameter of the user's, rows of any length. */
  DOUBLE_MATRIX("double[][]"),
  /** An {@code int[]} parameter of the user's: indices, counts, labels; never active. */
  INT_ARRAY("int[]"),
  /**
   * A {@code float[]}: its elements are computed in float and carry derivatives, which are
   * {@code double}s (its tangent and adjoint arrays are {@code double[]}s).
   */
  FLOAT_ARRAY("float[]"),
  /**
   * {@code java.lang.String}: literals and concatenations passed to calls run as written; it
   * carries no derivative.
   */
  STRING("String"),
  /** The "result" of a call of a {@code void} method, run for its effect; never read. */
  VOID("void"),
  /**
   * Any other reference type: an object, an enum, a record used as data, an array that is not
   * one of the above ({@code long[]}, {@code int[][]}, a {@code @NoDerivative double[][][]}). It
   * carries no derivative; its Java type is {@link Value#javaType()} (or {@link
   * Variable#javaType()}), and the code that uses it runs as written.
   */
  OBJECT("Object");

  private final String keyword;

  NumericType(String keyword) {
    this.keyword = keyword;
  }

  /** The Java keyword naming this type. */
  public String keyword() {
    return keyword;
  }

  public boolean isNumeric() {
    return this != BOOLEAN && !isArray() && this != VOID && this != STRING && this != OBJECT;
  }

  /** Whether this is a reference type that is not an array ad4j computes with. */
  public boolean isReference() {
    return this == STRING || this == OBJECT;
  }

  /** Whether this is an array type. */
  public boolean isArray() {
    return this == DOUBLE_ARRAY || this == DOUBLE_MATRIX || this == INT_ARRAY
        || this == FLOAT_ARRAY;
  }

  /**
   * The type of the derivatives (tangents, adjoints) of a value of this type: {@code double}
   * for a {@code float}, {@code double[]} for a {@code float[]}, the type itself otherwise.
   */
  public NumericType derivativeType() {
    return switch (this) {
      case FLOAT -> DOUBLE;
      case FLOAT_ARRAY -> DOUBLE_ARRAY;
      default -> this;
    };
  }

  /**
   * Whether this is an array of one dimension whose elements may carry derivatives:
   * {@code double[]} or {@code float[]}.
   */
  public boolean isFloatingPointArray() {
    return this == DOUBLE_ARRAY || this == FLOAT_ARRAY;
  }

  /** The type of this array type's elements ({@code double[]} for a row of a matrix). */
  public NumericType elementType() {
    return switch (this) {
      case DOUBLE_ARRAY -> DOUBLE;
      case DOUBLE_MATRIX -> DOUBLE_ARRAY;
      case INT_ARRAY -> INT;
      case FLOAT_ARRAY -> FLOAT;
      default -> throw new IllegalArgumentException("not an array type: " + this);
    };
  }

  /**
   * Whether a value of this type can carry a derivative: {@code double}, and {@code float},
   * whose value is computed in Java's float arithmetic and whose derivative is a {@code double}.
   */
  public boolean isFloatingPoint() {
    return this == DOUBLE || this == FLOAT;
  }

  public boolean isIntegral() {
    return this == INT || this == LONG || isNarrow();
  }

  /** Whether this is {@code byte}, {@code short} or {@code char}, which arithmetic promotes. */
  public boolean isNarrow() {
    return this == BYTE || this == SHORT || this == CHAR;
  }

  /** Unary numeric promotion (JLS 5.6.1): {@code int} for a narrow type, else this type. */
  public NumericType promoted() {
    return isNarrow() ? INT : this;
  }

  /** Binary numeric promotion (JLS 5.6.2): the type of {@code a op b} for numeric a and b. */
  public static NumericType promote(NumericType a, NumericType b) {
    if (!a.isNumeric() || !b.isNumeric()) {
      throw new IllegalArgumentException("not numeric: " + a + ", " + b);
    }
    return (a.ordinal() >= b.ordinal() ? a : b).promoted();
  }

  /**
   * Whether a value of this type converts to {@code other} by widening (or identity): to
   * {@code short} only from {@code byte}, to {@code byte} and {@code char} from nothing else
   * (JLS 5.1.2).
   */
  public boolean widensTo(NumericType other) {
    if (!isNumeric() || !other.isNumeric() || this == other) {
      return this == other;
    }
    if (other.isNarrow()) {
      return this == BYTE && other == SHORT;
    }
    return ordinal() <= other.ordinal();
  }
}
