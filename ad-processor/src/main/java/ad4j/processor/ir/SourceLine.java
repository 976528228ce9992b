package ad4j.processor.ir;

/**
 * The user's statement an instruction was lowered from, for the comments of generated code.
 *
 * @param number the 1-based line number in the user's source file
 * @param text the statement's source text on one line
 */
public record SourceLine(long number, String text) {}
