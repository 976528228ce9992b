package ad4j.processor.ir;

/**
 * Declares a variable where the user declared it, with its first value (zero when the user
 * gave none: generated code must satisfy javac's definite assignment on every path).
 */
public record Declare(Variable variable, Operand initial, SourceLine line) implements Statement {}
