package ad4j.processor.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.function.ToDoubleFunction;

/**
 * A compiled {@code @Differentiable} method {@code m(double...)} and the four members ad4j
 * generated for it ({@code mGradient}, {@code mValueAndGradient}, {@code mTangent},
 * {@code mPullback}), called reflectively. Parameters may be {@code float} too (every one
 * active), and the result {@code float}: the points and values are doubles here
 * (a float argument is the point's coordinate rounded to float, a float result widened
 * exactly), the directions, seeds and gradients doubles as the generated members take them.
 */
public final class CompiledFunction {
  private final String name;
  private final int arity;
  private final Class<?>[] parameterTypes;
  private final Method original;
  private final Method gradient;
  private final Method valueAndGradient;
  private final Method tangent;
  private final Method pullback;

  CompiledFunction(Class<?> userClass, Class<?> gradClass, String name, int arity) {
    this(userClass, gradClass, name, doubles(arity));
  }

  /** With these parameter types, each {@code double.class} or {@code float.class}. */
  CompiledFunction(Class<?> userClass, Class<?> gradClass, String name,
      Class<?>[] parameterTypes) {
    this.name = name;
    this.arity = parameterTypes.length;
    this.parameterTypes = parameterTypes.clone();
    this.original = method(userClass, name, parameterTypes);
    this.gradient = method(gradClass, name + "Gradient", parameterTypes);
    this.valueAndGradient =
        method(gradClass, name + "ValueAndGradient", append(parameterTypes, double[].class));
    Class<?>[] withDirections = Arrays.copyOf(parameterTypes, 2 * arity);
    Arrays.fill(withDirections, arity, 2 * arity, double.class);
    this.tangent = method(gradClass, name + "Tangent", withDirections);
    this.pullback = method(gradClass, name + "Pullback",
        append(append(parameterTypes, double.class), double[].class));
  }


  /**
   * The function {@code name} of the class {@code userClass} with its derivatives in
   * {@code gradClass} (binary names), as loaded by {@code loader}: for classes that another
   * compiler wrote.
   */
  public static CompiledFunction load(ClassLoader loader, String userClass, String gradClass,
      String name, int arity) {
    try {
      return new CompiledFunction(Class.forName(userClass, true, loader),
          Class.forName(gradClass, true, loader), name, arity);
    } catch (ClassNotFoundException e) {
      throw new AssertionError("not compiled: " + e.getMessage(), e);
    }
  }

  public String name() {
    return name;
  }

  public int arity() {
    return arity;
  }

  /** The user's own method. */
  public double value(double... x) {
    return number(invoke(original, boxed(x)));
  }

  /** The user's method as a function of an array, for {@code GradientCheck}. */
  public ToDoubleFunction<double[]> asFunction() {
    return this::value;
  }

  public double[] gradient(double... x) {
    return (double[]) invoke(gradient, boxed(x));
  }

  /** Calls {@code mValueAndGradient(x..., out)}; returns the value. */
  public double valueAndGradient(double[] x, double[] out) {
    return number(invoke(valueAndGradient, with(boxed(x), out)));
  }

  public double tangent(double[] x, double[] direction) {
    check(direction);
    Object[] arguments = Arrays.copyOf(boxed(x), 2 * arity);
    for (int i = 0; i < arity; i++) {
      arguments[arity + i] = direction[i];
    }
    return (double) invoke(tangent, arguments);
  }

  /** Calls {@code mPullback(x..., seed, adjoints)}; returns the value. */
  public double pullback(double[] x, double seed, double[] adjoints) {
    return number(invoke(pullback, with(with(boxed(x), seed), adjoints)));
  }

  /** The generated members, for checks of modifiers. */
  public Method gradientMethod() {
    return gradient;
  }

  public Method valueAndGradientMethod() {
    return valueAndGradient;
  }

  public Method tangentMethod() {
    return tangent;
  }

  public Method pullbackMethod() {
    return pullback;
  }

  @Override
  public String toString() {
    return name + "/" + arity;
  }

  private Object[] boxed(double[] x) {
    check(x);
    Object[] boxed = new Object[arity];
    for (int i = 0; i < arity; i++) {
      boxed[i] = parameterTypes[i] == float.class ? (Object) (float) x[i] : (Object) x[i];
    }
    return boxed;
  }

  /** A value the method returned, {@code double} or {@code float}, widened exactly. */
  private static double number(Object value) {
    return ((Number) value).doubleValue();
  }

  private void check(double[] x) {
    if (x.length != arity) {
      throw new IllegalArgumentException(name + " takes " + arity + " arguments, not " + x.length);
    }
  }

  static Object[] with(Object[] arguments, Object last) {
    Object[] result = Arrays.copyOf(arguments, arguments.length + 1);
    result[arguments.length] = last;
    return result;
  }

  /**
   * Invokes a static method; an unchecked exception or error it throws is rethrown as is, so that
   * tests can assert on it.
   */
  static Object invoke(Method method, Object[] arguments) {
    try {
      return method.invoke(null, arguments);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new AssertionError(e.getCause());
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }

  static Method method(Class<?> owner, String name, Class<?>[] parameterTypes) {
    try {
      Method method = owner.getDeclaredMethod(name, parameterTypes);
      method.setAccessible(true);
      return method;
    } catch (NoSuchMethodException e) {
      throw new AssertionError(owner.getName() + " has no method " + name
          + Arrays.toString(parameterTypes), e);
    }
  }

  private static Class<?>[] doubles(int n) {
    Class<?>[] types = new Class<?>[n];
    Arrays.fill(types, double.class);
    return types;
  }

  static Class<?>[] append(Class<?>[] types, Class<?> last) {
    Class<?>[] result = Arrays.copyOf(types, types.length + 1);
    result[types.length] = last;
    return result;
  }
}
