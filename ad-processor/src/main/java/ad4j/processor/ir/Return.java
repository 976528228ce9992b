package ad4j.processor.ir;

/**
 * {@code return value;}, or {@code return;} when {@code value} is null (a program that hands
 * its results on otherwise, such as a segment of a split method).
 */
public record Return(Operand value, SourceLine line) implements Statement {}
