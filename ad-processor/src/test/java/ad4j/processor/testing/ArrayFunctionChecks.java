package ad4j.processor.testing;

import static ad4j.processor.testing.ArrayArguments.append;
import static ad4j.processor.testing.ArrayArguments.deepCopy;
import static ad4j.processor.testing.ArrayArguments.flatten;
import static ad4j.processor.testing.ArrayArguments.shapedLike;
import static ad4j.processor.testing.ArrayArguments.withSlot;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The checks of a generated function with array parameters at one call, against the user's own
 * method: the gradient against fourth-order central differences slot by slot in the flat
 * layout, the value bit for bit, forward against reverse mode along random directions of the
 * arguments' shapes (the dot-product test), and the pullback's accumulation.
 *
 * @param user the class declaring the method
 * @param generated its generated class
 */
public record ArrayFunctionChecks(Class<?> user, Class<?> generated) {
  /** A call: the method, its arguments, and which of them carry derivatives. */
  public record Call(String name, Object[] arguments, boolean... active) {
    @Override
    public String toString() {
      return name + Arrays.deepToString(arguments);
    }
  }

  /** The checks of {@code userClass} and its generated class, loaded from {@code compiled}. */
  public static ArrayFunctionChecks of(InProcessCompiler.Compiled compiled, String userClass) {
    return new ArrayFunctionChecks(compiled.load(userClass), compiled.load(userClass + "Grad"));
  }

  /** All checks at {@code call}. */
  public void check(Call call) throws Exception {
    double value = (double) invoke(user, call.name(), call.arguments());
    double[] gradient = (double[]) invoke(generated, call.name() + "Gradient", call.arguments());
    double[] expected = finiteDifferences(call);
    assertWithMessage("gradient length, %s", call).that(gradient.length)
        .isEqualTo(expected.length);
    for (int slot = 0; slot < expected.length; slot++) {
      assertWithMessage("slot %s of %s", slot, call).that(gradient[slot])
          .isWithin(1e-7 * Math.max(1, Math.abs(expected[slot]))).of(expected[slot]);
    }

    double[] written = new double[gradient.length + 1];
    Arrays.fill(written, 42);
    double returned = (double) invoke(generated, call.name() + "ValueAndGradient",
        append(call.arguments(), written));
    assertWithMessage("value, %s", call).that(Double.doubleToRawLongBits(returned))
        .isEqualTo(Double.doubleToRawLongBits(value));
    assertWithMessage("gradient of valueAndGradient, %s", call)
        .that(Arrays.copyOf(written, gradient.length)).isEqualTo(gradient);
    assertThat(written[gradient.length]).isEqualTo(42.0);

    Random random = new Random(call.name().hashCode());
    for (int round = 0; round < 3; round++) {
      List<Object> directions = new ArrayList<>();
      double dot = 0;
      double magnitude = 0;
      int slot = 0;
      for (int i = 0; i < call.arguments().length; i++) {
        if (call.active()[i]) {
          Object direction = shapedLike(call.arguments()[i], random);
          directions.add(direction);
          for (double d : flatten(direction)) {
            dot += gradient[slot] * d;
            magnitude += Math.abs(gradient[slot++] * d);
          }
        }
      }
      double tangent = (double) invoke(generated, call.name() + "Tangent",
          append(call.arguments(), directions.toArray()));
      assertWithMessage("tangent, %s", call).that(tangent)
          .isWithin(1e-12 * Math.max(1, magnitude)).of(dot);
    }

    double[] adjoints = new double[gradient.length];
    Arrays.fill(adjoints, 1.0);
    invoke(generated, call.name() + "Pullback", append(call.arguments(), -2.5, adjoints));
    for (int i = 0; i < gradient.length; i++) {
      assertWithMessage("pullback slot %s, %s", i, call).that(adjoints[i])
          .isWithin(1e-12 * Math.max(1, Math.abs(gradient[i]))).of(1.0 - 2.5 * gradient[i]);
    }
  }

  /** Calls the public or package-private static method {@code name} taking these arguments. */
  public static Object invoke(Class<?> owner, String name, Object... arguments)
      throws Exception {
    for (Method method : owner.getDeclaredMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == arguments.length
          && (arguments.length == 0
              || method.getParameterTypes()[0] != ad4j.runtime.internal.Tape.class)) {
        method.setAccessible(true);
        return method.invoke(null, arguments);
      }
    }
    throw new AssertionError("no method " + name + " with " + arguments.length + " parameters");
  }

  /** Fourth-order central differences of the user's method, slot by slot. */
  private double[] finiteDifferences(Call call) throws Exception {
    List<Double> result = new ArrayList<>();
    for (int i = 0; i < call.arguments().length; i++) {
      if (!call.active()[i]) {
        continue;
      }
      double[] slots = flatten(call.arguments()[i]);
      for (int k = 0; k < slots.length; k++) {
        double x = slots[k];
        double h = 1e-3 * Math.max(1, Math.abs(x));
        double[] f = new double[4];
        double[] steps = {-2 * h, -h, h, 2 * h};
        for (int s = 0; s < 4; s++) {
          Object[] moved = deepCopy(call.arguments());
          moved[i] = withSlot(moved[i], k, x + steps[s]);
          f[s] = (double) invoke(user, call.name(), moved);
        }
        result.add((f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h));
      }
    }
    return result.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
