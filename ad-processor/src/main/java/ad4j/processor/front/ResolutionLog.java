package ad4j.processor.front;

import com.sun.source.tree.Tree;
import java.util.function.Consumer;
import javax.lang.model.element.Element;

/**
 * A test hook: what each name and call of a {@code @Differentiable} method's body was resolved
 * to, reported to a listener that a test sets on its thread (the compiling thread), so that it
 * can compare ad4j's choices with javac's. Without a listener, which is always so outside
 * tests, recording is one read of a thread-local; nothing of it reaches generated code.
 */
public final class ResolutionLog {
  private ResolutionLog() {}

  /**
   * One resolution: the tree from offset {@code start} to {@code end} of the source file
   * {@code file} (a call, and the call on its result, start alike) means
   * {@code element}, or the local variable or parameter {@code localName} when
   * {@code element} is null.
   */
  public record Resolution(String file, long start, long end, Tree.Kind kind, Element element,
      String localName) {}

  /** Inherited: the processor lowers on a thread it starts from the compiling thread. */
  private static final InheritableThreadLocal<Consumer<Resolution>> LISTENER =
      new InheritableThreadLocal<>();

  /** Reports the resolutions made on this thread to {@code listener} (null: to nobody). */
  public static void listen(Consumer<Resolution> listener) {
    if (listener == null) {
      LISTENER.remove();
    } else {
      LISTENER.set(listener);
    }
  }

  /** {@code tree} names {@code element}: a field, method, constructor or class. */
  static void resolved(LoweringContext context, Tree tree, Element element) {
    Consumer<Resolution> listener = LISTENER.get();
    if (listener != null && element != null) {
      listener.accept(new Resolution(context.source().file(), context.source().start(tree),
          context.source().end(tree), tree.getKind(), element, null));
    }
  }

  /** {@code tree} names the local variable or parameter {@code name}. */
  static void local(LoweringContext context, Tree tree, String name) {
    Consumer<Resolution> listener = LISTENER.get();
    if (listener != null) {
      listener.accept(new Resolution(context.source().file(), context.source().start(tree),
          context.source().end(tree), tree.getKind(), null, name));
    }
  }
}
