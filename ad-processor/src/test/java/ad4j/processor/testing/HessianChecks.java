package ad4j.processor.testing;

import static com.google.common.truth.Truth.assertWithMessage;

import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The checks of an order-2 method of {@code double} parameters at a point: its Hessian ({@code
 * mHessian}) against fourth-order central differences of its generated gradient, which {@link
 * DerivativeChecks} checks against the user's method first, and its Hessian-vector product
 * ({@code mHessianVector}) against the Hessian times the vector.
 */
public final class HessianChecks {
  private HessianChecks() {}

  /** All checks at {@code point}; {@code grad} is the generated class of {@code f}. */
  public static void checkAt(CompiledFunction f, Class<?> grad, double... point)
      throws Exception {
    int n = point.length;
    Class<?>[] doubles = new Class<?>[n];
    Arrays.fill(doubles, double.class);
    Class<?>[] withVector = Arrays.copyOf(doubles, n + 1);
    withVector[n] = double[].class;
    Method hessianOf = grad.getDeclaredMethod(f.name() + "Hessian", doubles);
    Method hessianVector = grad.getDeclaredMethod(f.name() + "HessianVector", withVector);
    hessianOf.setAccessible(true);
    hessianVector.setAccessible(true);
    String where = f.name() + " at " + Arrays.toString(point);

    DerivativeChecks.checkAt(f, point);
    double[][] hessian = (double[][]) hessianOf.invoke(null, box(point));
    double h = 1e-4;
    double[] weights = {1, -8, 8, -1};
    double[] steps = {-2, -1, 1, 2};
    for (int k = 0; k < n; k++) {
      double[] column = new double[n];
      for (int s = 0; s < steps.length; s++) {
        double[] shifted = point.clone();
        shifted[k] += steps[s] * h;
        double[] g = f.gradient(shifted);
        for (int i = 0; i < n; i++) {
          column[i] += weights[s] * g[i] / (12 * h);
        }
      }
      for (int i = 0; i < n; i++) {
        assertWithMessage("H[%s][%s] of %s", i, k, where).that(hessian[i][k])
            .isWithin(1e-6 * Math.max(1, Math.abs(column[i]))).of(column[i]);
        assertWithMessage("symmetry of H[%s][%s] of %s", i, k, where).that(hessian[i][k])
            .isEqualTo(hessian[k][i]);
      }
    }
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = 0.7 - 0.55 * i;
    }
    Object[] arguments = Arrays.copyOf(box(point), n + 1);
    arguments[n] = v;
    double[] product = (double[]) hessianVector.invoke(null, arguments);
    assertProduct(hessian, v, product, where);
  }

  /**
   * {@code product}, a generated {@code mHessianVector}'s, is {@code hessian} times {@code v},
   * each element within 1e-12 of the size of its terms.
   */
  public static void assertProduct(double[][] hessian, double[] v, double[] product,
      Object where) {
    for (int i = 0; i < hessian.length; i++) {
      double expected = 0;
      double scale = 0;
      for (int k = 0; k < v.length; k++) {
        expected += hessian[i][k] * v[k];
        scale += Math.abs(hessian[i][k] * v[k]);
      }
      assertWithMessage("(H v)[%s] of %s", i, where).that(product[i])
          .isWithin(1e-12 * Math.max(1, scale)).of(expected);
    }
  }

  private static Object[] box(double[] point) {
    return Arrays.stream(point).boxed().toArray();
  }
}
