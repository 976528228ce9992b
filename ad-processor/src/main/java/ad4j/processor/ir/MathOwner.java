package ad4j.processor.ir;

/**
 * The class that holds a math function; derivative formulas call functions of the same class.
 * Besides {@code java.lang}'s, the {@code FastMath} classes of Hipparchus and Commons Math 3
 * (when the user's compile class path has them): they hold the same functions, and every
 * function a derivative formula calls, with the same meaning.
 */
public enum MathOwner {
  MATH("java.lang", "Math"),
  STRICT_MATH("java.lang", "StrictMath"),
  HIPPARCHUS_FAST_MATH("org.hipparchus.util", "FastMath"),
  COMMONS_MATH3_FAST_MATH("org.apache.commons.math3.util", "FastMath");

  private final String packageName;
  private final String simpleName;

  MathOwner(String packageName, String simpleName) {
    this.packageName = packageName;
    this.simpleName = simpleName;
  }

  public String simpleName() {
    return simpleName;
  }

  public String qualifiedName() {
    return packageName + "." + simpleName;
  }

  /**
   * Whether generated code may write the simple name: only {@code java.lang}'s classes are
   * visible without an import; the others are always written qualified.
   */
  public boolean isImplicitlyImported() {
    return packageName.equals("java.lang");
  }

  /** The first segment of the package name, which a qualified reference starts with. */
  public String topLevelPackage() {
    int dot = packageName.indexOf('.');
    return dot < 0 ? packageName : packageName.substring(0, dot);
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
