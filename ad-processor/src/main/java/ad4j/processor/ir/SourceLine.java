package ad4j.processor.ir;

/**
 * The user's statement an instruction was lowered from, for the comments of generated code.
 *
 * @param number the 1-based line number in the user's source file
 * @param text the statement's source text on one line
 * @param role what the statements with this line do for it: empty for the statement itself,
 *     {@code "adjoint of "} in a reverse sweep
 */
public record SourceLine(long number, String text, String role) {
  public SourceLine(long number, String text) {
    this(number, text, "");
  }

  /** The same line, for statements that compute its adjoint. */
  public SourceLine adjoint() {
    return new SourceLine(number, text, "adjoint of ");
  }
}
