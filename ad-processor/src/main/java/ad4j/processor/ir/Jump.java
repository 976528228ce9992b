package ad4j.processor.ir;

/** {@code break} or {@code continue} of the loop with id {@code loopId}. */
public record Jump(Kind kind, int loopId, SourceLine line) implements Statement {
  /** Which jump. */
  public enum Kind {
    BREAK,
    CONTINUE
  }
}
