package ad4j.processor.ir;

/**
 * Records {@code value} on the tape, a stack of primitive values per thread: a later
 * {@link Operation#pop} of the same type takes the most recently recorded value back. Reverse
 * sweeps record, in loops, the values and decisions they will need.
 *
 * @param line the user's statement, or null when the recording needs no comment of its own
 */
public record Push(Operand value, SourceLine line) implements Statement {}
