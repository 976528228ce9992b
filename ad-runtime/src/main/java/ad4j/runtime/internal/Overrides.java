package ad4j.runtime.internal;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * Whether a receiver's class overrides an instance {@code @Differentiable} method. The generated
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
          + " run: differentiate the overriding method itself (@Differentiable on it), or make "
          + method + " final");
    }
  }

  private static boolean samePackage(Class<?> a, Class<?> b) {
    return a.getClassLoader() == b.getClassLoader()
        && a.getPackageName().equals(b.getPackageName());
  }
}
