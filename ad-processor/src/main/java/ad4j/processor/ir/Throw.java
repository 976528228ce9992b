package ad4j.processor.ir;

import java.util.List;

/**
 * {@code throw new exceptionType(message)} of an unchecked exception, as argument checks do.
 * The message is a concatenation of string literals (Java source text) and operands. An
 * exception built with other arguments ({@code new OutOfRange(x, lo, hi)}) has them in
 * {@code arguments} instead, and no message parts.
 *
 * @param exceptionType the exception class, as generated code names it
 * @param messageParts each a {@link String} literal's source text or an {@link Operand}; empty
 *     for an exception created without a message
 * @param arguments the constructor's arguments when they are not one message; empty otherwise
 */
public record Throw(String exceptionType, List<Object> messageParts, boolean hasMessage,
    List<Operand> arguments, SourceLine line) implements Statement {
  public Throw {
    messageParts = List.copyOf(messageParts);
    arguments = List.copyOf(arguments);
  }

  /** {@code throw new exceptionType(message)}, or without a message. */
  public Throw(String exceptionType, List<Object> messageParts, boolean hasMessage,
      SourceLine line) {
    this(exceptionType, messageParts, hasMessage, List.of(), line);
  }
}
