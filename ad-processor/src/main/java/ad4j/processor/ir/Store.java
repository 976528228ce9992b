package ad4j.processor.ir;

/** {@code variable = value;} */
public record Store(Variable variable, Operand value, SourceLine line) implements Statement {}
