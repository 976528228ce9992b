package ad4j.processor.ir;

/**
 * One single-assignment value of a lowered method: a parameter, a version of a local variable,
 * or a temporary for a subexpression.
 *
 * <p>A value is <em>active</em> when it depends on a differentiable parameter through operations
 * with a non-zero derivative; only active values get tangents and adjoints.
 */
public final class Value {
  /** Where a value comes from; decides how its name is chosen in generated code. */
  public enum Origin {
    PARAMETER,
    LOCAL,
    TEMPORARY,
    /**
     * A subexpression of a derivative formula, used exactly once: printed inline where it is
     * used ({@code xBar += tBar * y}) rather than as a local of its own.
     */
    FORMULA,
    /**
     * A value named after another one ({@code xDot}, {@code xBar}): see {@link #base()} and
     * {@link #nameHint()}, the suffix.
     */
    DERIVED,
    /** A value of a transform's own, named by its hint ({@code seed}, {@code gradient}). */
    GENERATED
  }

  private final int id;
  private final NumericType type;
  private final boolean active;
  private final int parameterIndex;
  private Origin origin;
  private String nameHint;
  private Value base;
  /** What this value is to {@link #base}: its tangent or its adjoint; null for any other. */
  private Derivative role;
  /** For an {@link NumericType#OBJECT} value: its Java type, and how generated code names it. */
  private javax.lang.model.type.TypeMirror referenceType;
  private String javaType;

  private Value(int id, Origin origin, String nameHint, NumericType type, boolean active,
      int parameterIndex) {
    this.id = id;
    this.origin = origin;
    this.nameHint = nameHint;
    this.type = type;
    this.active = active;
    this.parameterIndex = parameterIndex;
  }

  static Value parameter(int id, String name, NumericType type, boolean active, int index) {
    return new Value(id, Origin.PARAMETER, name, type, active, index);
  }

  static Value computed(int id, Origin origin, String nameHint, NumericType type, boolean active) {
    return new Value(id, origin, nameHint, type, active, -1);
  }

  /** A value like {@code original} under a new id: same origin, name, type, base, activity. */
  static Value likeOf(int id, Value original) {
    Value value = new Value(id, original.origin, original.nameHint, original.type,
        original.active, -1);
    value.base = original.base;
    value.role = original.role;
    value.declaredLike(original); // an object computed again
    return value;
  }

  /** Declares this value as {@code original} is: an object's Java type, for the same type. */
  private void declaredLike(Value original) {
    referenceType = original.referenceType;
    javaType = original.javaType;
  }

  static Value formula(int id, NumericType type, boolean active) {
    return new Value(id, Origin.FORMULA, "f", type, active, -1);
  }

  static Value generated(int id, String name, NumericType type, boolean active) {
    return new Value(id, Origin.GENERATED, name, type, active, -1);
  }

  static Value derived(int id, Value base, String suffix, NumericType type) {
    // a copy of a float (taken back from the tape) carries a tangent as a copy of a double does
    Value value = new Value(id, Origin.DERIVED, suffix, type, type.isFloatingPoint(), -1);
    value.base = base;
    if (type == base.type) {
      value.declaredLike(base); // a copy of an object taken back from the tape
    }
    return value;
  }

  /**
   * The tangent or the adjoint of {@code base}, named after it with {@code suffix}: the role's
   * own ({@code Dot}, {@code Bar}), or a lane's ({@code Dot2}).
   */
  static Value derivative(int id, Value base, Derivative role, String suffix, NumericType type) {
    Value value = derived(id, base, suffix, type);
    value.role = role;
    return value;
  }

  /** The value a {@link Origin#DERIVED} value is named after; null for others. */
  public Value base() {
    return base;
  }

  /**
   * Whether this is the tangent or the adjoint of another value ({@code xDot}, {@code xBar},
   * a lane's {@code xDot2}), not a value of the user's method.
   */
  public boolean isDerivative() {
    return role != null;
  }

  /** A number unique within the method, in order of creation. */
  public int id() {
    return id;
  }

  public Origin origin() {
    return origin;
  }

  /** The user's name for this value, or a short hint for a temporary. */
  public String nameHint() {
    return nameHint;
  }

  public NumericType type() {
    return type;
  }

  public boolean isActive() {
    return active && !type.isArray();
  }

  /**
   * Whether this is an array whose elements carry derivatives: a {@code double[]} or
   * {@code double[][]} parameter not marked {@code @NoDerivative}, or a row of one. Such a value
   * is not {@link #isActive() active} itself (it has no tangent or adjoint of its own as a
   * scalar has); what is read from it is.
   */
  public boolean isActiveArray() {
    return active && type.isArray();
  }

  /** The position among the method's parameters, or -1 for computed values. */
  public int parameterIndex() {
    return parameterIndex;
  }

  /**
   * Records the Java type of an {@link NumericType#OBJECT} value: {@code mirror} for the front
   * end, {@code text} for the declarations generated code writes.
   */
  public void declareAs(javax.lang.model.type.TypeMirror mirror, String text) {
    this.referenceType = mirror;
    this.javaType = text;
  }

  /** The Java type of an {@link NumericType#OBJECT} value; null for others. */
  public javax.lang.model.type.TypeMirror referenceType() {
    return referenceType;
  }

  /** How generated code declares this value: its type's keyword, or its reference type. */
  public String javaType() {
    return javaType != null ? javaType : type == NumericType.STRING ? "java.lang.String"
        : type.keyword();
  }

  /**
   * Gives a temporary the name of the local it is assigned to, so that {@code double a = x * y;}
   * is emitted as one statement rather than a temporary and a copy.
   */
  public void nameAsLocal(String localName) {
    if (origin != Origin.TEMPORARY) {
      throw new IllegalStateException("only a temporary can take a local's name: " + this);
    }
    origin = Origin.LOCAL;
    nameHint = localName;
  }

  @Override
  public String toString() {
    return nameHint + "#" + id + (active ? "" : "(inactive)");
  }
}
