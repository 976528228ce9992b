package ad4j.processor.ir;

/**
 * What a value or variable named after another is to it: its tangent ({@code xDot}) or its
 * adjoint ({@code xBar}). A pass asks a variable its {@link Variable#role()} instead of reading
 * its name.
 */
public enum Derivative {
  /** The directional derivative that forward mode carries beside a value. */
  TANGENT("Dot"),
  /** The derivative of the result with respect to a value, that reverse mode accumulates. */
  ADJOINT("Bar");

  private final String suffix;

  Derivative(String suffix) {
    this.suffix = suffix;
  }

  /** What generated code appends to the name of the value this is the derivative of. */
  public String suffix() {
    return suffix;
  }
}
