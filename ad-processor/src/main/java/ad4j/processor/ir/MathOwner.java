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
}
