package ad4j.processor.ir;

/**
 * A comment that marks a part of a program ({@code // reverse sweep}); it computes nothing.
 *
 * @param text the comment's text
 */
public record Note(String text, SourceLine line) implements Statement {}
