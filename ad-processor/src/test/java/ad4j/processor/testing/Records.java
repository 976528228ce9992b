package ad4j.processor.testing;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * Reflection over the classes a test compiled: records made by their canonical constructor and
 * the generated members called by name, as the user's code would call them (the members that
 * take a tape first, for callers' code, left out).
 */
public final class Records {
  private Records() {}

  /** A record of {@code type} made by its canonical constructor of {@code components}. */
  public static Object make(Class<?> type, Object... components) throws Exception {
    Class<?>[] types = Arrays.stream(type.getRecordComponents())
        .map(java.lang.reflect.RecordComponent::getType).toArray(Class<?>[]::new);
    Constructor<?> constructor = type.getDeclaredConstructor(types);
    constructor.setAccessible(true);
    return constructor.newInstance(components);
  }

  /**
   * Calls the static method {@code name} of {@code owner} taking as many arguments, not private
   * and not one taking a tape first; an exception it throws fails the test.
   */
  public static Object call(Class<?> owner, String name, Object... arguments)
      throws Exception {
    for (Method method : owner.getDeclaredMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == arguments.length
          && !Modifier.isPrivate(method.getModifiers())
          && (arguments.length == 0 || arguments[0] == null
              || method.getParameterTypes()[0] != ad4j.runtime.internal.Tape.class)) {
        method.setAccessible(true);
        try {
          return method.invoke(null, arguments);
        } catch (InvocationTargetException e) {
          throw new AssertionError(name + " threw", e.getCause());
        }
      }
    }
    throw new AssertionError("no " + name + " with " + arguments.length + " parameters");
  }
}
