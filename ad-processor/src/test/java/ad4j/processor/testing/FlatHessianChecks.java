package ad4j.processor.testing;

import static ad4j.processor.testing.ArrayArguments.append;
import static ad4j.processor.testing.ArrayArguments.deepCopy;
import static ad4j.processor.testing.ArrayArguments.flatten;
import static ad4j.processor.testing.ArrayArguments.withSlot;
import static ad4j.processor.testing.ArrayFunctionChecks.invoke;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The checks of an order-2 method with {@code double}, {@code double[]} and {@code double[][]}
 * parameters at one call, slot by slot in the flat layout: its first-order members
 * ({@link ArrayFunctionChecks}); its Hessian against fourth-order central differences of the
 * generated gradient and against fourth-order second differences of the user's own method;
 * exact symmetry; the Hessian-vector product against the Hessian times random vectors; and
 * {@code mValueGradientAndHessian} against the value and the other members.
 *
 * @param user the class declaring the method
 * @param generated its generated class
 */
public record FlatHessianChecks(Class<?> user, Class<?> generated) {
  /** The checks of {@code userClass} and its generated class, loaded from {@code compiled}. */
  public static FlatHessianChecks of(InProcessCompiler.Compiled compiled, String userClass) {
    return new FlatHessianChecks(compiled.load(userClass), compiled.load(userClass + "Grad"));
  }

  /**
   * {@code mHessian} at {@code call} against {@code mHessianVector} along each slot's unit
   * direction: entry by entry the mean of the pair of columns, which is what one sweep per slot
   * gave before lanes, to 1e-13 relative.
   */
  public void checkColumnsOfHessianVector(ArrayFunctionChecks.Call call) throws Exception {
    double[][] hessian = (double[][]) invoke(generated, call.name() + "Hessian",
        call.arguments());
    int n = hessian.length;
    double[][] columns = new double[n][];
    for (int j = 0; j < n; j++) {
      double[] unit = new double[n];
      unit[j] = 1;
      columns[j] = (double[]) invoke(generated, call.name() + "HessianVector",
          append(call.arguments(), unit));
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double expected = (columns[j][i] + columns[i][j]) / 2;
        assertWithMessage("H[%s][%s] of %s against the per-column sweeps", i, j, call)
            .that(hessian[i][j]).isWithin(1e-13 * Math.max(1, Math.abs(expected)))
            .of(expected);
      }
    }
  }

  /** All checks at {@code call}. */
  public void check(ArrayFunctionChecks.Call call) throws Exception {
    new ArrayFunctionChecks(user, generated).check(call);
    double[][] hessian = (double[][]) invoke(generated, call.name() + "Hessian",
        call.arguments());
    List<int[]> slots = slots(call);
    int n = slots.size();
    assertWithMessage("rows of the Hessian of %s", call).that(hessian.length).isEqualTo(n);
    assertWithMessage("slots of %s", call).that(n).isGreaterThan(1);
    boolean offDiagonal = false;
    for (int i = 0; i < n; i++) {
      assertWithMessage("row %s of the Hessian of %s", i, call).that(hessian[i].length)
          .isEqualTo(n);
      for (int j = 0; j < i; j++) {
        assertWithMessage("H[%s][%s] and H[%s][%s] of %s", i, j, j, i, call)
            .that(Double.doubleToRawLongBits(hessian[i][j]))
            .isEqualTo(Double.doubleToRawLongBits(hessian[j][i]));
        offDiagonal |= hessian[i][j] != 0;
      }
    }
    assertWithMessage("some second derivative across slots of %s", call).that(offDiagonal)
        .isTrue();

    // column j: fourth-order central differences of the generated gradient along slot j
    double step = 1e-4;
    for (int j = 0; j < n; j++) {
      double[] column = new double[n];
      double[] weights = {1, -8, 8, -1};
      double[] steps = {-2, -1, 1, 2};
      for (int s = 0; s < 4; s++) {
        double[] g = (double[]) invoke(generated, call.name() + "Gradient",
            moved(call, slots.get(j), steps[s] * step));
        for (int i = 0; i < n; i++) {
          column[i] += weights[s] * g[i] / (12 * step);
        }
      }
      for (int i = 0; i < n; i++) {
        assertWithMessage("H[%s][%s] of %s against differences of the gradient", i, j, call)
            .that(hessian[i][j]).isWithin(1e-6 * Math.max(1, Math.abs(column[i])))
            .of(column[i]);
      }
    }

    // fourth-order second differences of the user's method: the stencil along slot i applied
    // to that along slot j
    double h = 2e-3;
    double[] weights = {1, -8, 8, -1};
    double[] steps = {-2, -1, 1, 2};
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double second = 0;
        for (int a = 0; a < 4; a++) {
          for (int b = 0; b < 4; b++) {
            Object[] arguments = moved(call, slots.get(i), steps[a] * h);
            arguments = movedFrom(arguments, slots.get(j), steps[b] * h);
            second += weights[a] * weights[b] * (double) invoke(user, call.name(), arguments);
          }
        }
        second /= 144 * h * h;
        assertWithMessage("H[%s][%s] of %s against second differences of %s", i, j, call,
            call.name()).that(hessian[i][j]).isWithin(1e-5 * Math.max(1, Math.abs(second)))
            .of(second);
      }
    }

    Random random = new Random(call.toString().hashCode());
    for (int trial = 0; trial < 3; trial++) {
      double[] v = random.doubles(n, -1, 1).toArray();
      double[] vCopy = v.clone();
      double[] product = (double[]) invoke(generated, call.name() + "HessianVector",
          append(call.arguments(), v));
      assertThat(v).isEqualTo(vCopy);
      assertThat(product.length).isEqualTo(n);
      HessianChecks.assertProduct(hessian, v, product, call);
    }

    double value = (double) invoke(user, call.name(), call.arguments());
    double[] gradient = (double[]) invoke(generated, call.name() + "Gradient", call.arguments());
    double[] writtenGradient = new double[n];
    double[][] writtenHessian = new double[n][n];
    for (double[] row : writtenHessian) {
      Arrays.fill(row, 42);
    }
    double returned = (double) invoke(generated, call.name() + "ValueGradientAndHessian",
        append(call.arguments(), writtenGradient, writtenHessian));
    assertWithMessage("value of %s", call).that(Double.doubleToRawLongBits(returned))
        .isEqualTo(Double.doubleToRawLongBits(value));
    assertWithMessage("gradient of %s", call).that(writtenGradient).isEqualTo(gradient);
    for (int i = 0; i < n; i++) {
      assertWithMessage("row %s of the Hessian of %s", i, call).that(writtenHessian[i])
          .isEqualTo(hessian[i]);
    }
  }

  /** The slots of the call in the flat layout: per slot, its argument and its index there. */
  private static List<int[]> slots(ArrayFunctionChecks.Call call) {
    List<int[]> slots = new ArrayList<>();
    for (int p = 0; p < call.arguments().length; p++) {
      if (call.active()[p]) {
        for (int k = 0; k < flatten(call.arguments()[p]).length; k++) {
          slots.add(new int[] {p, k});
        }
      }
    }
    return slots;
  }

  /** A copy of the call's arguments with {@code slot} moved by {@code by}. */
  private static Object[] moved(ArrayFunctionChecks.Call call, int[] slot, double by) {
    return movedFrom(call.arguments(), slot, by);
  }

  private static Object[] movedFrom(Object[] arguments, int[] slot, double by) {
    Object[] copy = deepCopy(arguments);
    double x = flatten(copy[slot[0]])[slot[1]];
    copy[slot[0]] = withSlot(copy[slot[0]], slot[1], x + by);
    return copy;
  }
}
