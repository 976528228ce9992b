package ad4j.processor;

import com.sun.source.util.Trees;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.Optional;
import javax.annotation.processing.ProcessingEnvironment;

/**
 * Finds javac's {@link Trees} for a processing environment. Build tools wrap javac's
 * environment (Gradle's incremental processing, IntelliJ's proxy), and {@link Trees#instance}
 * accepts only javac's own; so the wrappers are unwrapped, by looking for the environment they
 * delegate to in their fields or in their proxy's invocation handler.
 */
final class TreesLocator {
  private static final int MAX_DEPTH = 8;

  private TreesLocator() {}

  static Optional<Trees> find(ProcessingEnvironment environment) {
    Object candidate = environment;
    for (int depth = 0; depth < MAX_DEPTH && candidate != null; depth++) {
      if (candidate instanceof ProcessingEnvironment processingEnvironment) {
        try {
          return Optional.of(Trees.instance(processingEnvironment));
        } catch (IllegalArgumentException notJavac) {
          // a wrapper: look inside it below
        }
      }
      candidate = delegateOf(candidate);
    }
    return Optional.empty();
  }

  /** The environment a wrapper delegates to, if one of its fields holds it. */
  private static Object delegateOf(Object wrapper) {
    if (Proxy.isProxyClass(wrapper.getClass())) {
      InvocationHandler handler = Proxy.getInvocationHandler(wrapper);
      return environmentField(handler);
    }
    return environmentField(wrapper);
  }

  private static Object environmentField(Object holder) {
    for (Class<?> type = holder.getClass(); type != null && type != Object.class;
        type = type.getSuperclass()) {
      for (Field field : type.getDeclaredFields()) {
        if (java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
          continue;
        }
        try {
          field.setAccessible(true);
          Object value = field.get(holder);
          if (value instanceof ProcessingEnvironment && value != holder) {
            return value;
          }
        } catch (RuntimeException | IllegalAccessException inaccessible) {
          // a field we may not read cannot be the delegate we are after
        }
      }
    }
    return null;
  }
}
