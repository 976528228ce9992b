package ad4j.processor.testing;

import static ad4j.processor.testing.CompiledFunction.append;
import static ad4j.processor.testing.CompiledFunction.invoke;
import static ad4j.processor.testing.CompiledFunction.method;
import static ad4j.processor.testing.CompiledFunction.with;

import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * A compiled {@code @Differentiable} method whose parameters are {@code double} and {@code int}
 * in any order, and its four generated members, called reflectively. Arguments are given as
 * boxed {@code Double} and {@code Integer} in the method's order; derivative slots (gradient
 * entries, tangent directions, adjoints) exist only for the doubles, in order (README, "The
 * generated API").
 */
public final class MixedFunction {
  private final String name;
  private final Class<?>[] types;
  private final int doubles;
  private final Method original;
  private final Method gradient;
  private final Method valueAndGradient;
  private final Method tangent;
  private final Method pullback;

  public MixedFunction(InProcessCompiler.Compiled compiled, String userClass, String name,
      Class<?>... types) {
    Class<?> user = compiled.load(userClass);
    Class<?> grad = compiled.load(userClass + "Grad");
    this.name = name;
    this.types = types.clone();
    this.doubles = (int) Arrays.stream(types).filter(t -> t == double.class).count();
    this.original = method(user, name, types);
    this.gradient = method(grad, name + "Gradient", types);
    this.valueAndGradient = method(grad, name + "ValueAndGradient", append(types, double[].class));
    Class<?>[] tangentTypes = Arrays.copyOf(types, types.length + doubles);
    Arrays.fill(tangentTypes, types.length, tangentTypes.length, double.class);
    this.tangent = method(grad, name + "Tangent", tangentTypes);
    this.pullback = method(grad, name + "Pullback",
        append(append(types, double.class), double[].class));
  }

  public String name() {
    return name;
  }

  /** The number of double parameters (the length of gradients and directions). */
  public int doubles() {
    return doubles;
  }

  /** The arguments with the double parameters replaced by {@code x}, in order. */
  public Object[] withDoubles(Object[] arguments, double[] x) {
    Object[] result = arguments.clone();
    int d = 0;
    for (int i = 0; i < types.length; i++) {
      if (types[i] == double.class) {
        result[i] = x[d++];
      }
    }
    return result;
  }

  /** The double arguments, in order. */
  public double[] doublesOf(Object[] arguments) {
    double[] x = new double[doubles];
    int d = 0;
    for (int i = 0; i < types.length; i++) {
      if (types[i] == double.class) {
        x[d++] = (Double) arguments[i];
      }
    }
    return x;
  }

  public double value(Object[] arguments) {
    return (double) invoke(original, arguments);
  }

  public double[] gradient(Object[] arguments) {
    return (double[]) invoke(gradient, arguments);
  }

  public double valueAndGradient(Object[] arguments, double[] out) {
    return (double) invoke(valueAndGradient, with(arguments, out));
  }

  public double tangent(Object[] arguments, double[] direction) {
    Object[] all = Arrays.copyOf(arguments, arguments.length + doubles);
    for (int i = 0; i < doubles; i++) {
      all[arguments.length + i] = direction[i];
    }
    return (double) invoke(tangent, all);
  }

  public double pullback(Object[] arguments, double seed, double[] adjoints) {
    return (double) invoke(pullback, with(with(arguments, seed), adjoints));
  }

  @Override
  public String toString() {
    return name + Arrays.toString(types);
  }

}
