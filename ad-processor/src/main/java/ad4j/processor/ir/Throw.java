package ad4j.processor.ir;

import java.util.List;

/**
 * {@code throw new exceptionType(message)} of an unchecked exception, as argument checks do.
 * The message is a concatenation of string literals (Java source text) and operands.
 *
 * @param exceptionType the exception class, as generated code names it
 * @param messageParts each a {@link String} literal's source text or an {@link Operand}; empty
 *     for an exception created without a message
 */
public record Throw(String exceptionType, List<Object> messageParts, boolean hasMessage,
    SourceLine line) implements Statement {
  public Throw {
    messageParts = List.copyOf(messageParts);
  }
}
