package ad4j.processor.front;

/**
 * What a reading of state writes ({@link TargetStateWrites}) takes code it cannot read for: a
 * method without source, one a subclass may override, a call it cannot resolve, an anonymous
 * class's construction, or an object given to a JDK method that may call its methods. The two
 * readings differ because of whose word the unread code is.
 */
enum UnreadCode {
  /**
   * A {@code @DerivativeOf} target's body: code that cannot be read counts as a change, since the
   * generated members run the target once per sweep and a change would be repeated.
   */
  TARGET,
  /**
   * A {@code @DerivativeOf} rule's body: code that cannot be read counts as a function (a
   * distribution's {@code density(x)} of a library), as the rule is the user's word.
   */
  RULE;

  /** Whether code that cannot be read counts as changing state (else as changing none). */
  boolean countsAsChange() {
    return this == TARGET;
  }
}
