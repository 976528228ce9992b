package ad4j.processor.testing;

import ad4j.processor.testing.InProcessCompiler.Compiled;
import java.util.function.Supplier;

/**
 * A test class's sources, compiled the first time a test asks for them and shared by the rest of
 * its tests (compiling is what takes the time; JUnit runs a class's tests on one thread).
 */
public final class CompiledOnce {
  private final Supplier<Compiled> compile;
  private Compiled compiled;

  public CompiledOnce(Supplier<Compiled> compile) {
    this.compile = compile;
  }

  public Compiled get() {
    if (compiled == null) {
      compiled = compile.get();
    }
    return compiled;
  }
}
