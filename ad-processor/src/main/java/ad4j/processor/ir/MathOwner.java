package ad4j.processor.ir;

/** The class that holds a math function; derivative formulas call functions of the same class. */
public enum MathOwner {
  MATH("Math"),
  STRICT_MATH("StrictMath");

  private final String simpleName;

  MathOwner(String simpleName) {
    this.simpleName = simpleName;
  }

  public String simpleName() {
    return simpleName;
  }

  public String qualifiedName() {
    return "java.lang." + simpleName;
  }

  /** The math class with this qualified name, if it is one. */
  public static java.util.Optional<MathOwner> named(String qualifiedName) {
    for (MathOwner owner : values()) {
      if (owner.qualifiedName().equals(qualifiedName)) {
        return java.util.Optional.of(owner);
      }
    }
    return java.util.Optional.empty();
  }
}
