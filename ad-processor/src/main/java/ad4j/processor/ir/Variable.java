package ad4j.processor.ir;

/**
 * A mutable variable: a local or parameter of the user's that is assigned under control flow
 * (in a branch or a loop), so that no single-assignment value can stand for it after the join.
 * It is read with {@link Operand.Read} (copied into a value by a copy instruction) and written
 * with {@link Store}. Straight-line code never needs one.
 */
public final class Variable {
  private final int id;
  private final String name;
  private final NumericType type;
  private final Value parameter;
  private final Object base;
  private final boolean generated;
  /** For an {@link NumericType#OBJECT} variable: its Java type, as for {@link Value}. */
  private javax.lang.model.type.TypeMirror referenceType;
  private String javaType;

  /** What it is to {@link #base}, when it is a tangent or an adjoint; null otherwise. */
  private final Derivative role;

  Variable(int id, String name, NumericType type, Value parameter) {
    this(id, name, type, parameter, null, false, null);
  }

  Variable(int id, String name, NumericType type, Value parameter, Object base,
      boolean generated, Derivative role) {
    this.role = role;
    this.id = id;
    this.name = name;
    this.type = type;
    this.parameter = parameter;
    this.base = base;
    this.generated = generated;
  }

  /** Whether this is the tangent or the adjoint of {@link #base}; null for other variables. */
  public Derivative role() {
    return role;
  }

  /**
   * The {@link Variable} or {@link Value} this one is named after ({@code xDot} after
   * {@code x}, {@code tBar} after {@code t}), with {@link #name()} the suffix; null for others.
   */
  public Object base() {
    return base;
  }

  /** Whether a transform made this variable ({@code result}, a trip count): named by its hint. */
  public boolean isGenerated() {
    return generated;
  }

  public int id() {
    return id;
  }

  public String name() {
    return name;
  }

  public NumericType type() {
    return type;
  }

  /** Records the Java type of an {@link NumericType#OBJECT} variable; see {@link Value}. */
  public void declareAs(javax.lang.model.type.TypeMirror mirror, String text) {
    this.referenceType = mirror;
    this.javaType = text;
  }

  /** The Java type of an {@link NumericType#OBJECT} variable; null for others. */
  public javax.lang.model.type.TypeMirror referenceType() {
    return referenceType;
  }

  /** How generated code declares this variable. */
  public String javaType() {
    return javaType != null ? javaType : type == NumericType.STRING ? "java.lang.String"
        : type.keyword();
  }

  /** Only {@code double} and {@code float} variables carry derivatives. */
  public boolean isActive() {
    return type.isFloatingPoint();
  }

  /** The parameter this variable is, or null for a local. */
  public Value parameter() {
    return parameter;
  }

  @Override
  public String toString() {
    return name + "@" + id;
  }
}
