package ad4j.runtime.internal;

/**
 * Whether the {@code assert} statements of a user's class run. Generated code runs the
 * assertions of a {@code @Differentiable} method exactly when the method's own class would: the
 * JVM decides that per class ({@code -ea}, {@code -ea:com.example...}, {@code -ea:com.example.F}),
 * and the generated class is another class, so it asks for the user's top-level class, whose
 * status javac's code asks for in nested classes too (JLS 14.10).
 *
 * <p>This class is public because generated code calls it; it is not meant for direct use.
 */
public final class Assertions {
  /** Each class's desired assertion status, asked once, as javac's code asks it once. */
  private static final ClassValue<Boolean> ENABLED = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      return type.desiredAssertionStatus();
    }
  };

  private Assertions() {}

  /**
   * Whether assertions are enabled for {@code userClass}.
   *
   * @param userClass the top-level class around the {@code @Differentiable} method
   * @return its desired assertion status
   */
  public static boolean enabled(Class<?> userClass) {
    return ENABLED.get(userClass);
  }
}
