package ad4j.processor.testing;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.runtime.internal.Tape;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Every generated member of a method with effects, each call from the same fresh state: the
 * user's class has {@code static void reset()} (the state before a call), {@code static String
 * state()} (what a call leaves that anyone can observe: counters, fields, arrays, a generator's
 * next draw), for an instance method {@code static Object receiver()} (a new receiver, which
 * {@code state()} may show), and {@code static Object argumentI()} for each parameter {@code I}
 * that is not a {@code double} (a {@code @NoDerivative} array, an object). After each member the
 * state must be the one the method leaves when run once; values bit for bit; the gradient (a
 * vector function's Jacobian) against central differences of order 8 of the method from the
 * same state; the pullback, the tangent (the dot-product test) and, at order 2, the Hessian
 * against differences of the gradient, {@code mHessianVector} and
 * {@code mValueGradientAndHessian}. The {@code double} parameters are the active ones.
 */
public final class FreshStateChecks {
  private static final double[] EIGHTH_ORDER =
      {1.0 / 280, -4.0 / 105, 1.0 / 5, -4.0 / 5, 0, 4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280};

  private final Class<?> user;
  private final Class<?> generated;
  private final Method method;
  private final String where;

  private FreshStateChecks(Class<?> user, Class<?> generated, Method method, String where) {
    this.user = user;
    this.generated = generated;
    this.method = method;
    this.where = where;
  }

  /** Runs the checks of {@code name} of {@code userClass} at {@code point}. */
  public static void check(InProcessCompiler.Compiled compiled, String userClass, String name,
      double... point) throws Exception {
    Class<?> user = compiled.load(userClass);
    Method method = Arrays.stream(user.getDeclaredMethods())
        .filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
    method.setAccessible(true);
    // a nested class Outer.Inner gives Outer_InnerGrad
    new FreshStateChecks(user, compiled.load(userClass.replace('$', '_') + "Grad"), method,
        userClass + "." + name + Arrays.toString(point)).run(point);
  }

  private void run(double[] x) throws Exception {
    int n = x.length;
    reset();
    Object value = user(x);
    String state = state();
    if (method.getReturnType() == double[].class) {
      checkVector(x, (double[]) value, state);
      return;
    }
    double[] gradient = (double[]) member("Gradient", state, x);
    double[] differences = differences(x, -1);
    for (int i = 0; i < n; i++) {
      close("gradient slot " + i, gradient[i], differences[i], 1e-7);
    }
    double[] written = new double[n];
    same("value of mValueAndGradient", member("ValueAndGradient", state, x, written), value);
    assertWithMessage("mValueAndGradient, %s", where).that(written).isEqualTo(gradient);
    double[] adjoints = new double[n];
    same("value of mPullback", member("Pullback", state, x, 1.5, adjoints), value);
    for (int i = 0; i < n; i++) {
      close("pullback slot " + i, adjoints[i], 1.5 * gradient[i], 1e-13);
    }
    Random random = new Random(where.hashCode());
    Object[] directions = new Object[n];
    double dot = 0;
    double magnitude = 0;
    for (int i = 0; i < n; i++) {
      double d = random.nextGaussian();
      directions[i] = d;
      dot += d * gradient[i];
      magnitude += Math.abs(d * gradient[i]);
    }
    double tangent = ((Number) member("Tangent", state, x, directions)).doubleValue();
    assertWithMessage("tangent against the gradient, %s", where).that(tangent)
        .isWithin(1e-11 * Math.max(1, magnitude)).of(dot);
    if (Arrays.stream(generated.getDeclaredMethods())
        .anyMatch(m -> m.getName().equals(method.getName() + "Hessian"))) {
      checkHessian(x, value, gradient, state);
    }
    assertWithMessage("entries left on the tape, %s", where).that(Tape.current().size())
        .isEqualTo(0);
  }

  private void checkHessian(double[] x, Object value, double[] gradient, String state)
      throws Exception {
    int n = x.length;
    double[][] hessian = (double[][]) member("Hessian", state, x);
    for (int j = 0; j < n; j++) {
      double[] column = differences(x, j);
      for (int i = 0; i < n; i++) {
        close("H[" + i + "][" + j + "]", hessian[i][j], column[i], 1e-6);
      }
      double[] unit = new double[n];
      unit[j] = 1;
      double[] product = (double[]) member("HessianVector", state, x, (Object) unit);
      for (int i = 0; i < n; i++) {
        close("(H e" + j + ")[" + i + "]", product[i], hessian[i][j], 1e-12);
      }
    }
    double[] writtenGradient = new double[n];
    double[][] writtenHessian = new double[n][n];
    same("value of mValueGradientAndHessian", member("ValueGradientAndHessian", state, x,
        writtenGradient, writtenHessian), value);
    assertWithMessage("gradient of mValueGradientAndHessian, %s", where).that(writtenGradient)
        .isEqualTo(gradient);
    assertWithMessage("Hessian of mValueGradientAndHessian, %s", where).that(writtenHessian)
        .isEqualTo(hessian);
  }

  private void checkVector(double[] x, double[] value, String state) throws Exception {
    int n = x.length;
    int p = value.length;
    double[][] jacobian = (double[][]) member("Jacobian", state, x);
    for (int j = 0; j < n; j++) {
      double h = 2.5e-3 * Math.max(1, Math.abs(x[j]));
      double[] column = new double[p];
      for (int k = -4; k <= 4; k++) {
        if (k != 0) {
          double[] moved = x.clone();
          moved[j] += k * h;
          reset();
          double[] at = (double[]) user(moved);
          for (int i = 0; i < p; i++) {
            column[i] += EIGHTH_ORDER[k + 4] * at[i] / h;
          }
        }
      }
      for (int i = 0; i < p; i++) {
        close("J[" + i + "][" + j + "]", jacobian[i][j], column[i], 1e-7);
      }
    }
    double[][] written = new double[p][n];
    same("value of mValueAndJacobian", member("ValueAndJacobian", state, x, (Object) written),
        value);
    assertWithMessage("mValueAndJacobian, %s", where).that(written).isEqualTo(jacobian);
    Random random = new Random(where.hashCode());
    double[] seed = random.doubles(p, -1, 1).toArray();
    double[] adjoints = new double[n];
    same("value of mPullback", member("Pullback", state, x, seed.clone(), adjoints), value);
    Object[] directions = new Object[n];
    for (int j = 0; j < n; j++) {
      directions[j] = random.nextGaussian();
    }
    double[] tangent = (double[]) member("Tangent", state, x, directions);
    for (int j = 0; j < n; j++) {
      double expected = 0;
      for (int i = 0; i < p; i++) {
        expected += seed[i] * jacobian[i][j];
      }
      close("pullback slot " + j, adjoints[j], expected, 1e-11);
    }
    for (int i = 0; i < p; i++) {
      double expected = 0;
      for (int j = 0; j < n; j++) {
        expected += jacobian[i][j] * (Double) directions[j];
      }
      close("tangent " + i, tangent[i], expected, 1e-11);
    }
  }

  /** Differences of the value ({@code column < 0}) or of the gradient along {@code x[column]}. */
  private double[] differences(double[] x, int column) throws Exception {
    int n = x.length;
    double[] result = new double[n];
    for (int j = column < 0 ? 0 : column; j < (column < 0 ? n : column + 1); j++) {
      double h = 2.5e-3 * Math.max(1, Math.abs(x[j]));
      for (int k = -4; k <= 4; k++) {
        if (k == 0) {
          continue;
        }
        double[] moved = x.clone();
        moved[j] += k * h;
        if (column < 0) {
          reset();
          result[j] += EIGHTH_ORDER[k + 4] * ((Number) user(moved)).doubleValue() / h;
        } else {
          double[] at = (double[]) member("Gradient", null, moved);
          for (int i = 0; i < n; i++) {
            result[i] += EIGHTH_ORDER[k + 4] * at[i] / h;
          }
        }
      }
    }
    return result;
  }

  private void close(String what, double actual, double expected, double tolerance) {
    assertWithMessage("%s, %s", what, where).that(actual)
        .isWithin(tolerance * Math.max(1, Math.abs(expected))).of(expected);
  }

  private void same(String what, Object actual, Object expected) {
    assertWithMessage("%s, %s", what, where).that(actual).isEqualTo(expected);
  }

  private Object user(double[] x) throws Exception {
    Object receiver = Modifier.isStatic(method.getModifiers()) ? null : hook("receiver");
    return call(method, receiver, arguments(x).toArray());
  }

  /**
   * The member {@code suffix} from a fresh state, the state after it compared with
   * {@code state} unless that is null.
   */
  private Object member(String suffix, String state, double[] x, Object... more)
      throws Exception {
    reset();
    List<Object> all = new ArrayList<>();
    if (!Modifier.isStatic(method.getModifiers())) {
      all.add(hook("receiver"));
    }
    all.addAll(arguments(x));
    all.addAll(Arrays.asList(more));
    Method member = Arrays.stream(generated.getDeclaredMethods())
        .filter(m -> m.getName().equals(method.getName() + suffix)
            && m.getParameterCount() == all.size() && !Modifier.isPrivate(m.getModifiers())
            && m.getParameterTypes()[0] != Tape.class)
        .findFirst().orElseThrow(() -> new AssertionError("no member " + suffix));
    member.setAccessible(true);
    Object result = call(member, null, all.toArray());
    if (state != null) {
      assertWithMessage("state after m%s, %s", suffix, where).that(state()).isEqualTo(state);
    }
    return result;
  }

  private List<Object> arguments(double[] x) throws Exception {
    Class<?>[] types = method.getParameterTypes();
    List<Object> arguments = new ArrayList<>();
    int next = 0;
    for (int i = 0; i < types.length; i++) {
      arguments.add(types[i] == double.class ? (Object) x[next++] : hook("argument" + i));
    }
    return arguments;
  }

  private void reset() throws Exception {
    hook("reset");
  }

  private String state() throws Exception {
    return String.valueOf(hook("state"));
  }

  private Object hook(String name) throws Exception {
    Method hook = user.getDeclaredMethod(name);
    hook.setAccessible(true);
    return call(hook, null, new Object[0]);
  }

  private static Object call(Method method, Object receiver, Object[] arguments)
      throws Exception {
    try {
      return method.invoke(receiver, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }
}
