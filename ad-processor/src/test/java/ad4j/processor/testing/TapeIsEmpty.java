package ad4j.processor.testing;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.runtime.internal.Tape;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * After each test, the thread's tape holds nothing: every generated member, normal or ended by
 * an exception, pops what it pushed. Use with {@code @ExtendWith(TapeIsEmpty.class)}.
 */
public final class TapeIsEmpty implements AfterEachCallback {
  @Override
  public void afterEach(ExtensionContext context) {
    assertWithMessage("entries left on the thread's tape after %s", context.getDisplayName())
        .that(Tape.current().size()).isEqualTo(0);
  }
}
