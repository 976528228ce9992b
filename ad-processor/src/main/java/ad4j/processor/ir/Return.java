package ad4j.processor.ir;

/** {@code return value;} */
public record Return(Operand value, SourceLine line) implements Statement {}
