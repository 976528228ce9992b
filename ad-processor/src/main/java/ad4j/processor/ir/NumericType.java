package ad4j.processor.ir;

/** The primitive numeric types an expression of a differentiable method may have. */
public enum NumericType {
  INT("int"),
  LONG("long"),
  FLOAT("float"),
  DOUBLE("double");

  private final String keyword;

  NumericType(String keyword) {
    this.keyword = keyword;
  }

  /** The Java keyword naming this type. */
  public String keyword() {
    return keyword;
  }

  /** Binary numeric promotion (JLS 5.6.2): the type of {@code a op b}. */
  public static NumericType promote(NumericType a, NumericType b) {
    return a.ordinal() >= b.ordinal() ? a : b;
  }

  /** Whether a value of this type converts to {@code other} by widening (or identity). */
  public boolean widensTo(NumericType other) {
    return ordinal() <= other.ordinal();
  }
}
