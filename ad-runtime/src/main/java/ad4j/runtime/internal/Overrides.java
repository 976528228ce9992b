package ad4j.runtime.internal;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a receiver's class overrides an instance {@code @Differentiable} method, or the target
 * of {@code @DerivativeOf} rules ({@link #ruleReceiver}). The generated
 * members of such a method differentiate the body that ad4j saw, in the class that declares it;
 * a call of the method on an object of a subclass that overrides it runs the subclass's body,
 * so for that receiver the generated members would give the derivative of another function.
 * They ask this class first, for a receiver of another class than the declaring one, and throw
 * instead.
 *
 * <p>This class is public because generated code calls it; it is not meant for direct use.
 */
public final class Overrides {
  private Overrides() {}

  /**
   * The classes that override {@code declaring.name(parameterTypes)}, asked once per class.
   *
   * @param declaring the class that declares the method
   * @param name the method's name
   * @param parameterTypes its parameter types, as declared
   * @return for a class, whether it or a class between it and {@code declaring} overrides
   *     the method
   */
  public static ClassValue<Boolean> of(Class<?> declaring, String name,
      Class<?>... parameterTypes) {
    Class<?>[] types = parameterTypes.clone();
    Method declared;
    try {
      declared = declaring.getDeclaredMethod(name, types);
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(declaring.getName() + " declares no method " + name
          + Arrays.toString(types), e);
    }
    boolean packagePrivate = (declared.getModifiers()
        & (Modifier.PUBLIC | Modifier.PROTECTED)) == 0;
    return new ClassValue<>() {
      @Override
      protected Boolean computeValue(Class<?> type) {
        for (Class<?> c = type; c != null && c != declaring; c = c.getSuperclass()) {
          Method found;
          try {
            found = c.getDeclaredMethod(name, types);
          } catch (NoSuchMethodException e) {
            continue;
          }
          int modifiers = found.getModifiers();
          if (Modifier.isStatic(modifiers) || Modifier.isPrivate(modifiers)
              || found.isBridge() || found.isSynthetic()) {
            continue;
          }
          // a package-private method is overridden only from its own package (JLS 8.4.8.1)
          if (!packagePrivate || samePackage(c, declaring)) {
            return true;
          }
        }
        return false;
      }
    };
  }

  /**
   * Throws when {@code receiver}'s class overrides the method, so that a generated member
   * gives no derivative of a body the call would not run.
   *
   * @param overriders the method's {@link #of}
   * @param receiver the receiver, of a class other than the declaring one
   * @param method the method, for the message ({@code Model.loss})
   * @param member the generated member, for the message ({@code ModelGrad.lossGradient})
   * @throws IllegalArgumentException when the receiver's class overrides the method
   */
  public static void check(ClassValue<Boolean> overriders, Object receiver, String method,
      String member) {
    if (overriders.get(receiver.getClass())) {
      throw new IllegalArgumentException(member + ": the receiver is a "
          + receiver.getClass().getName() + ", which overrides " + method + "; ad4j"
          + " differentiated the body of " + method + ", which a call on this receiver does not"
          + " run, and generated members do not dispatch on the receiver's class: call the"
          + " members generated for the overriding method (@Differentiable on it) on a receiver"
          + " declared of its class, or make " + method + " final");
    }
  }

  /** For each class declaring a ruled target, its targets' {@link #of} by name and types. */
  private static final ClassValue<Map<String, ClassValue<Boolean>>> RULED =
      new ClassValue<>() {
        @Override
        protected Map<String, ClassValue<Boolean>> computeValue(Class<?> type) {
          return new ConcurrentHashMap<>();
        }
      };

  /**
   * {@code receiver}, after checking that its class does not override the target of
   * {@code @DerivativeOf} rules, {@code declaring.name(parameterTypes)}. The rules give the
   * partials of that method's body; a call on an object whose class overrides it runs another
   * body, so generated code passes each receiver of a ruled call through here.
   *
   * @param <T> the receiver's declared type
   * @param receiver the object the target is called on
   * @param declaring the class that declares the target
   * @param name the target's name
   * @param parameterTypes the target's parameter types, as Java writes them, separated by
   *     commas ({@code "double,double[]"}): primitives, their arrays, or class names
   * @param shown the target, for the message ({@code Normal.cdf})
   * @return {@code receiver}
   * @throws IllegalArgumentException when the receiver's class overrides the target
   */
  public static <T> T ruleReceiver(T receiver, Class<?> declaring, String name,
      String parameterTypes, String shown) {
    if (receiver.getClass() == declaring) {
      return receiver;
    }
    ClassValue<Boolean> overriders = RULED.get(declaring).computeIfAbsent(
        name + "(" + parameterTypes + ")",
        key -> {
          Class<?>[] types = types(parameterTypes, declaring.getClassLoader());
          return declaring.isInterface() ? dispatched(declaring, name, types)
              : of(declaring, name, types);
        });
    if (overriders.get(receiver.getClass())) {
      throw new IllegalArgumentException("the receiver of a call of " + shown + " is a "
          + receiver.getClass().getName() + ", which overrides " + shown + "; its @DerivativeOf"
          + " rules give the derivative of the body of " + shown + ", which a call on this"
          + " receiver does not run: give rules for the overriding method (owner = its class)"
          + " and call it on a receiver of that type, or make " + shown + " final");
    }
    return receiver;
  }

  /**
   * For a default method of an interface, the classes on which a call runs another body: one
   * declared by the class, a superclass, or a subinterface (which no walk of superclasses sees).
   */
  private static ClassValue<Boolean> dispatched(Class<?> declaring, String name,
      Class<?>[] types) {
    return new ClassValue<>() {
      @Override
      protected Boolean computeValue(Class<?> type) {
        try {
          return type.getMethod(name, types).getDeclaringClass() != declaring;
        } catch (NoSuchMethodException e) {
          return true; // what cannot be checked is refused
        }
      }
    };
  }

  private static Class<?>[] types(String list, ClassLoader loader) {
    if (list.isEmpty()) {
      return new Class<?>[0];
    }
    String[] names = list.split(",");
    Class<?>[] types = new Class<?>[names.length];
    for (int i = 0; i < names.length; i++) {
      types[i] = type(names[i], loader);
    }
    return types;
  }

  private static final Map<String, Class<?>> PRIMITIVES = Map.of("double", double.class,
      "float", float.class, "int", int.class, "long", long.class, "boolean", boolean.class,
      "short", short.class, "byte", byte.class, "char", char.class);

  private static Class<?> type(String name, ClassLoader loader) {
    if (name.endsWith("[]")) {
      return Array.newInstance(type(name.substring(0, name.length() - 2), loader), 0)
          .getClass();
    }
    Class<?> primitive = PRIMITIVES.get(name);
    if (primitive != null) {
      return primitive;
    }
    try {
      return Class.forName(name, false, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("no class " + name, e);
    }
  }

  private static boolean samePackage(Class<?> a, Class<?> b) {
    return a.getClassLoader() == b.getClassLoader()
        && a.getPackageName().equals(b.getPackageName());
  }
}
