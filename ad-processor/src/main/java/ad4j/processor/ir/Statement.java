package ad4j.processor.ir;

/**
 * A statement of the structured IR: instructions define values; variables are declared and
 * stored to; branches and loops hold nested {@link Block}s; jumps, returns and throws end a path.
 */
public sealed interface Statement
    permits Instruction, Return, Declare, Store, If, Loop, Jump, Throw, Note, Push,
    ElementStore {

  /**
   * The user's statement this one comes from; null for statements a transform adds that need
   * no comment of their own.
   */
  SourceLine line();
}
