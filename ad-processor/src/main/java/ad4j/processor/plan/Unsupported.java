package ad4j.processor.plan;

import javax.lang.model.element.ExecutableElement;

/**
 * A method that ad4j cannot generate for the user's: the message says why, and the processor
 * reports it as a compile error at the method. Raised where a method's members are planned
 * (a forward-over-reverse sweep too long for the JVM) and where they are written (a member
 * past the JVM's limit).
 */
public final class Unsupported extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient ExecutableElement method;

  /** An error at {@code method} with this message. */
  public Unsupported(ExecutableElement method, String message) {
    super(message);
    this.method = method;
  }

  /** The user's method the error is about. */
  public ExecutableElement method() {
    return method;
  }
}
