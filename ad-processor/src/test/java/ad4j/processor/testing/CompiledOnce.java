package ad4j.processor.testing;

import ad4j.processor.testing.InProcessCompiler.Compiled;
import java.util.ArrayList;
import java.util.List;
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

  /**
   * {@code className}'s {@code source} compiled with {@code -Xlint:all -Werror}: element 0 whole,
   * element {@code k} cut into parts of {@code partSizes[k - 1]} statements
   * ({@code -Aad4j.partSize}), each compiled when a test first asks for it.
   */
  public static List<CompiledOnce> wholeAndInParts(String className, String source,
      int... partSizes) {
    List<CompiledOnce> compiled = new ArrayList<>();
    compiled.add(new CompiledOnce(() -> InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), className, source)));
    for (int size : partSizes) {
      compiled.add(new CompiledOnce(() -> InProcessCompiler.compileWith(
          List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=" + size), className, source)));
    }
    return List.copyOf(compiled);
  }

  public Compiled get() {
    if (compiled == null) {
      compiled = compile.get();
    }
    return compiled;
  }
}
