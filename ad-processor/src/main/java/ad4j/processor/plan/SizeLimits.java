package ad4j.processor.plan;

/**
 * The sizes that decide whether a generated member is split, cut into parts or rejected, and
 * the two options by which the processor's tests force those decisions. Apart so that every
 * decision reads the same numbers.
 *
 * @param forcedPartSize when positive, every block of the order-1 members is cut into parts of
 *     this many statements, long or not ({@code -Aad4j.partSize}, tests only)
 * @param methodLimit when positive, the estimate past which a member counts as past the JVM's
 *     limit for one method ({@code -Aad4j.methodLimit}, tests only: no program they can afford
 *     to compile reaches the real one)
 */
public record SizeLimits(int forcedPartSize, int methodLimit) {
  /** HotSpot compiles no method over 8000 bytes of bytecode; a margin for the estimate. */
  public static final int BYTECODE_LIMIT = 7000;

  /**
   * The JVM takes at most 65535 bytes of bytecode per method (JVMS 4.7.3); a margin for the
   * estimate, as for {@link #BYTECODE_LIMIT}.
   */
  static final int JVM_METHOD_LIMIT = 57000;

  /**
   * An estimate above which a generated member is certainly past the JVM's 65535 bytes per
   * method: on long chains of branches the estimate was 4 to 5 % under javac's count (a
   * {@code ?:} chain of 600 pieces: 58,819 estimated, 61,632 compiled). Between the limit and
   * this, javac decides.
   */
  static final int PAST_JVM_METHOD_LIMIT = 70000;

  /**
   * The least bytecode one instruction of the user's method costs in a whole value-and-gradient
   * member: its forward statement alone loads, computes and stores.
   */
  static final int MIN_BYTES_PER_INSTRUCTION = 3;

  /**
   * The least bytecode one push onto the tape costs ({@code tape.push(v)}): a load of the
   * tape and one of the value, one byte each at least, and the call's three.
   */
  static final int MIN_BYTES_PER_PUSH = 5;

  /** Whether HotSpot would refuse to compile a method of this estimate. */
  public static boolean pastHotSpotLimit(int bytes) {
    return bytes > BYTECODE_LIMIT;
  }

  /** The estimate past which a member is certainly past the JVM's limit for one method. */
  public int pastJvmLimit() {
    return methodLimit > 0 ? methodLimit : PAST_JVM_METHOD_LIMIT;
  }

  /** The estimate past which the forward-over-reverse sweep is too long for the JVM. */
  int sweepJvmLimit() {
    return methodLimit > 0 ? methodLimit : JVM_METHOD_LIMIT;
  }
}
