package ad4j.processor.testing;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.runtime.internal.Tape;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Every generated member of one method at one call, against independent references: values bit
 * for bit against the user's method; the gradient (or Jacobian) against central differences of
 * order 8 of the user's method, at two steps (a slot passes when either agrees, so that a
 * stencil reaching over a kink at one step does not fail it); {@code mGradient},
 * {@code mValueAndGradient} and {@code mPullback} against each other, the pullback run twice
 * with different seeds onto the same adjoints; forward against reverse (the dot-product test);
 * the gradient again, bit for bit, after the other members ran (the tape not reused wrongly);
 * at order 2 the Hessian against differences of order 8 of the gradient, {@code mHessianVector}
 * against the Hessian times unit and random vectors, and {@code mValueGradientAndHessian}; and,
 * where the user's class counts its effects in a static {@code int calls}, each member running
 * them as often as the method does. Parameters may be {@code double}, {@code float},
 * {@code double[]}, {@code float[]}, {@code double[][]}, value records, or inactive; an instance
 * method's receiver is passed first to the generated members.
 *
 * @param user the class declaring the method
 * @param generated its generated class
 * @param name the method's name
 * @param receiver the object an instance method is called on, or null
 * @param active which of the parameters carry derivatives
 */
public record MemberAgreement(Class<?> user, Class<?> generated, String name, Object receiver,
    boolean... active) {
  private static final double[] EIGHTH_ORDER =
      {1.0 / 280, -4.0 / 105, 1.0 / 5, -4.0 / 5, 0, 4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280};

  /** The static method {@code name} of {@code userClass}, loaded from {@code compiled}. */
  public static MemberAgreement of(InProcessCompiler.Compiled compiled, String userClass,
      String name, boolean... active) {
    return new MemberAgreement(compiled.load(userClass), compiled.load(userClass + "Grad"),
        name, null, active);
  }

  /** The same method called on {@code receiver}. */
  public MemberAgreement on(Object receiver) {
    return new MemberAgreement(user, generated, name, receiver, active);
  }

  /**
   * {@link #checkScalar} at each point of a method whose parameters are all {@code double}s, a
   * point giving them in order.
   */
  public void checkScalarAt(double[][] points, int order, double tolerance) throws Exception {
    for (double[] point : points) {
      Object[] arguments = new Object[point.length];
      for (int i = 0; i < point.length; i++) {
        arguments[i] = point[i];
      }
      checkScalar(arguments, order, tolerance);
    }
  }

  /** The checks of a method returning {@code double} or {@code float}, of order 1 or 2. */
  public void checkScalar(Object[] arguments, int order, double tolerance) throws Exception {
    String where = name + Arrays.deepToString(arguments);
    int before = calls();
    double value = number(value(arguments));
    int effects = calls() - before;
    int n = slots(arguments).size();

    double[] gradient = (double[]) counted(effects, where, "Gradient", arguments);
    assertWithMessage("gradient length, %s", where).that(gradient.length).isEqualTo(n);
    double[] written = new double[n + 1];
    Arrays.fill(written, Double.NaN); // every slot must be written
    written[n] = 42;
    double returned = number(counted(effects, where, "ValueAndGradient", arguments,
        (Object) written));
    assertWithMessage("value of mValueAndGradient, %s", where)
        .that(Double.doubleToRawLongBits(returned)).isEqualTo(Double.doubleToRawLongBits(value));
    assertWithMessage("past the gradient, %s", where).that(written[n]).isEqualTo(42.0);
    for (int i = 0; i < n; i++) {
      assertWithMessage("mValueAndGradient slot %s, %s", i, where).that(written[i])
          .isWithin(1e-13 * Math.max(1, Math.abs(gradient[i]))).of(gradient[i]);
    }

    double[][] differences = {differences(arguments, 1e-2), differences(arguments, 2.5e-3)};
    for (int i = 0; i < n; i++) {
      double scale = tolerance * Math.max(1, Math.abs(gradient[i]));
      assertWithMessage("slot %s of %s against differences %s, %s", i, where,
          differences[0][i], differences[1][i])
          .that(Math.min(Math.abs(gradient[i] - differences[0][i]),
              Math.abs(gradient[i] - differences[1][i]))).isAtMost(scale);
    }

    double[] adjoints = new double[n];
    for (int i = 0; i < n; i++) {
      adjoints[i] = 0.5 * i - 0.25;
    }
    double[] start = adjoints.clone();
    double first = number(counted(effects, where, "Pullback", arguments, -1.75, adjoints));
    double second = number(counted(effects, where, "Pullback", arguments, 3.0, adjoints));
    for (double pulled : new double[] {first, second}) {
      assertWithMessage("value of mPullback, %s", where)
          .that(Double.doubleToRawLongBits(pulled)).isEqualTo(Double.doubleToRawLongBits(value));
    }
    for (int i = 0; i < n; i++) {
      double expected = start[i] + 1.25 * gradient[i];
      assertWithMessage("two pullbacks, slot %s, %s", i, where).that(adjoints[i])
          .isWithin(1e-12 * Math.max(1, Math.abs(3 * gradient[i]))).of(expected);
    }

    if (hasMember("Tangent", arguments.length + activeCount())) {
      Random random = new Random(where.hashCode());
      for (int round = 0; round < 3; round++) {
        List<Object> directions = new ArrayList<>();
        double dot = 0;
        double magnitude = 0;
        int slot = 0;
        for (int i = 0; i < arguments.length; i++) {
          if (active[i]) {
            Object direction = direction(arguments[i], random);
            directions.add(direction);
            for (double d : flat(direction)) {
              dot += gradient[slot] * d;
              magnitude += Math.abs(gradient[slot++] * d);
            }
          }
        }
        double tangent = number(counted(effects, where, "Tangent", arguments,
            directions.toArray()));
        assertWithMessage("tangent against the gradient, %s", where).that(tangent)
            .isWithin(1e-11 * Math.max(1, magnitude)).of(dot);
      }
    }
    assertWithMessage("the gradient again, %s", where)
        .that((double[]) member("Gradient", arguments)).isEqualTo(gradient);
    assertWithMessage("entries left on the tape, %s", where).that(Tape.current().size())
        .isEqualTo(0);
    if (order == 2) {
      checkHessian(arguments, gradient, where);
    }
  }

  private void checkHessian(Object[] arguments, double[] gradient, String where)
      throws Exception {
    int n = gradient.length;
    List<int[]> slots = slots(arguments);
    double[][] hessian = (double[][]) member("Hessian", arguments);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < i; j++) {
        assertWithMessage("H[%s][%s] = H[%s][%s], %s", i, j, j, i, where)
            .that(Double.doubleToRawLongBits(hessian[i][j]))
            .isEqualTo(Double.doubleToRawLongBits(hessian[j][i]));
      }
    }
    for (int j = 0; j < n; j++) {
      double x = flat(arguments[slots.get(j)[0]])[slots.get(j)[1]];
      double[][] column = new double[2][n];
      for (int t = 0; t < 2; t++) {
        double h = (t == 0 ? 1e-2 : 2.5e-3) * Math.max(1, Math.abs(x));
        for (int k = -4; k <= 4; k++) {
          if (k != 0) {
            double[] moved = (double[]) member("Gradient", moved(arguments, slots.get(j), k * h));
            for (int i = 0; i < n; i++) {
              column[t][i] += EIGHTH_ORDER[k + 4] * moved[i] / h;
            }
          }
        }
      }
      for (int i = 0; i < n; i++) {
        assertWithMessage("H[%s][%s] of %s against differences of the gradient %s, %s", i, j,
            where, column[0][i], column[1][i])
            .that(Math.min(Math.abs(hessian[i][j] - column[0][i]),
                Math.abs(hessian[i][j] - column[1][i])))
            .isAtMost(1e-7 * Math.max(1, Math.abs(hessian[i][j])));
      }
    }
    Random random = new Random(where.hashCode() + 1);
    for (int t = 0; t < n + 2; t++) {
      double[] v = new double[n];
      if (t < n) {
        v[t] = 1;
      } else {
        for (int i = 0; i < n; i++) {
          v[i] = random.nextGaussian();
        }
      }
      double[] product = (double[]) member("HessianVector", arguments, (Object) v.clone());
      for (int i = 0; i < n; i++) {
        double expected = 0;
        double magnitude = 0;
        for (int j = 0; j < n; j++) {
          expected += hessian[i][j] * v[j];
          magnitude += Math.abs(hessian[i][j] * v[j]);
        }
        assertWithMessage("(H v)[%s] along %s, %s", i, Arrays.toString(v), where)
            .that(product[i]).isWithin(1e-11 * Math.max(1, magnitude)).of(expected);
      }
    }
    double[] writtenGradient = new double[n];
    double[][] writtenHessian = new double[n][n];
    double value = number(value(arguments));
    double returned = number(member("ValueGradientAndHessian", arguments, writtenGradient,
        writtenHessian));
    assertWithMessage("value of mValueGradientAndHessian, %s", where)
        .that(Double.doubleToRawLongBits(returned)).isEqualTo(Double.doubleToRawLongBits(value));
    assertWithMessage("gradient of mValueGradientAndHessian, %s", where).that(writtenGradient)
        .isEqualTo(gradient);
    assertWithMessage("Hessian of mValueGradientAndHessian, %s", where)
        .that(writtenHessian).isEqualTo(hessian);
    assertWithMessage("the Hessian again, %s", where)
        .that((double[][]) member("Hessian", arguments)).isEqualTo(hessian);
  }

  /**
   * The checks of a method returning {@code double[]} or a value record (over its flat slots):
   * the Jacobian and what composes it.
   */
  public void checkVector(Object[] arguments) throws Exception {
    String where = name + Arrays.deepToString(arguments);
    int before = calls();
    Object result = value(arguments);
    double[] value = flat(result);
    int effects = calls() - before;
    int p = value.length;
    List<int[]> slots = slots(arguments);
    int n = slots.size();
    double[][] jacobian = (double[][]) counted(effects, where, "Jacobian", arguments);
    for (int j = 0; j < n; j++) {
      double x = flat(arguments[slots.get(j)[0]])[slots.get(j)[1]];
      double[][] column = new double[2][p];
      for (int t = 0; t < 2; t++) {
        double h = (t == 0 ? 1e-2 : 2.5e-3) * Math.max(1, Math.abs(x));
        for (int k = -4; k <= 4; k++) {
          if (k != 0) {
            double[] moved = flat(value(moved(arguments, slots.get(j), k * h)));
            for (int i = 0; i < p; i++) {
              column[t][i] += EIGHTH_ORDER[k + 4] * moved[i] / h;
            }
          }
        }
      }
      for (int i = 0; i < p; i++) {
        assertWithMessage("J[%s][%s] of %s against differences %s, %s", i, j, where,
            column[0][i], column[1][i])
            .that(Math.min(Math.abs(jacobian[i][j] - column[0][i]),
                Math.abs(jacobian[i][j] - column[1][i])))
            .isAtMost(1e-7 * Math.max(1, Math.abs(jacobian[i][j])));
      }
    }
    double[][] written = new double[p][n];
    assertWithMessage("value of mValueAndJacobian, %s", where)
        .that(flat(counted(effects, where, "ValueAndJacobian", arguments,
            (Object) written))).isEqualTo(value);
    for (int i = 0; i < p; i++) {
      for (int j = 0; j < n; j++) {
        assertWithMessage("mValueAndJacobian[%s][%s], %s", i, j, where).that(written[i][j])
            .isWithin(1e-13 * Math.max(1, Math.abs(jacobian[i][j]))).of(jacobian[i][j]);
      }
    }
    Random random = new Random(where.hashCode());
    for (int round = 0; round < 2; round++) {
      double[] seed = random.doubles(p, -1, 1).toArray();
      double[] adjoints = new double[n];
      for (int j = 0; j < n; j++) {
        adjoints[j] = 0.1 * j;
      }
      assertWithMessage("value of mPullback, %s", where)
          .that(flat(counted(effects, where, "Pullback", arguments, seedLike(result, seed),
              adjoints))).isEqualTo(value);
      List<Object> directions = new ArrayList<>();
      List<Double> along = new ArrayList<>();
      for (int i = 0; i < arguments.length; i++) {
        if (active[i]) {
          Object direction = direction(arguments[i], random);
          directions.add(direction);
          for (double d : flat(direction)) {
            along.add(d);
          }
        }
      }
      double[] tangent = flat(counted(effects, where, "Tangent", arguments,
          directions.toArray()));
      for (int j = 0; j < n; j++) {
        double expected = 0.1 * j;
        double magnitude = 0;
        for (int i = 0; i < p; i++) {
          expected += seed[i] * jacobian[i][j];
          magnitude += Math.abs(seed[i] * jacobian[i][j]);
        }
        assertWithMessage("mPullback slot %s, %s", j, where).that(adjoints[j])
            .isWithin(1e-11 * Math.max(1, magnitude)).of(expected);
      }
      for (int i = 0; i < p; i++) {
        double expected = 0;
        double magnitude = 0;
        for (int j = 0; j < n; j++) {
          expected += jacobian[i][j] * along.get(j);
          magnitude += Math.abs(jacobian[i][j] * along.get(j));
        }
        assertWithMessage("mTangent[%s], %s", i, where).that(tangent[i])
            .isWithin(1e-11 * Math.max(1, magnitude)).of(expected);
      }
    }
    assertWithMessage("entries left on the tape, %s", where).that(Tape.current().size())
        .isEqualTo(0);
  }

  /**
   * Where the user's method throws at {@code arguments}: every member of a scalar method of
   * {@code order} throws an exception of the same class with the same message, after running
   * the method's effects as often as the method ran them before it threw.
   */
  public void checkThrows(Object[] arguments, int order) throws Exception {
    String where = name + Arrays.deepToString(arguments);
    int before = calls();
    Throwable expected = thrown(() -> value(arguments));
    int effects = calls() - before;
    assertWithMessage("the method throws, %s", where).that(expected).isNotNull();
    int n = slots(arguments).size();
    Random random = new Random(where.hashCode());
    List<Object> directions = new ArrayList<>();
    for (int i = 0; i < arguments.length; i++) {
      if (active[i]) {
        directions.add(direction(arguments[i], random));
      }
    }
    List<String> suffixes = new ArrayList<>(
        List.of("Gradient", "ValueAndGradient", "Pullback", "Tangent"));
    List<Object[]> more = new ArrayList<>(List.of(new Object[0],
        new Object[] {new double[n]}, new Object[] {1.0, new double[n]}, directions.toArray()));
    if (order == 2) {
      suffixes.addAll(List.of("Hessian", "HessianVector", "ValueGradientAndHessian"));
      more.addAll(List.of(new Object[0], new Object[] {new double[n]},
          new Object[] {new double[n], new double[n][n]}));
    }
    for (int m = 0; m < suffixes.size(); m++) {
      String suffix = suffixes.get(m);
      Object[] extra = more.get(m);
      int start = calls();
      Throwable thrown = thrown(() -> member(suffix, arguments, extra));
      assertWithMessage("m%s throws, %s", suffix, where).that(thrown).isNotNull();
      assertWithMessage("what m%s throws, %s", suffix, where)
          .that(thrown.getClass().getName() + ": " + thrown.getMessage())
          .isEqualTo(expected.getClass().getName() + ": " + expected.getMessage());
      assertWithMessage("effects of m%s before it throws, %s", suffix, where)
          .that(calls() - start).isEqualTo(effects);
    }
    assertWithMessage("entries left on the tape, %s", where).that(Tape.current().size())
        .isEqualTo(0);
  }

  private interface Call {
    Object run() throws Exception;
  }

  private static Throwable thrown(Call call) {
    try {
      call.run();
      return null;
    } catch (Exception e) {
      return e;
    }
  }

  // --- calls

  /** The user's method on a deep copy of the arguments. */
  public Object value(Object[] arguments) throws Exception {
    Method method = find(user, name, arguments.length);
    return call(method, Modifier.isStatic(method.getModifiers()) ? null : receiver,
        copy(arguments));
  }

  /** The generated member {@code name + suffix} on a deep copy of the arguments, then more. */
  public Object member(String suffix, Object[] arguments, Object... more) throws Exception {
    List<Object> all = new ArrayList<>();
    if (receiver != null) {
      all.add(receiver);
    }
    all.addAll(Arrays.asList(copy(arguments)));
    all.addAll(Arrays.asList(more));
    Method method = find(generated, name + suffix, all.size());
    assertWithMessage("%s has no %s%s", generated, name, suffix).that(method).isNotNull();
    return call(method, null, all.toArray());
  }

  private Object counted(int effects, String where, String suffix, Object[] arguments,
      Object... more) throws Exception {
    int before = calls();
    Object result = member(suffix, arguments, more);
    assertWithMessage("effects of m%s, %s", suffix, where).that(calls() - before)
        .isEqualTo(effects);
    return result;
  }

  private boolean hasMember(String suffix, int count) {
    return find(generated, name + suffix, count + (receiver == null ? 0 : 1)) != null;
  }

  private int calls() throws IllegalAccessException {
    try {
      Field field = user.getDeclaredField("calls");
      field.setAccessible(true);
      return field.getInt(null);
    } catch (NoSuchFieldException e) {
      return 0;
    }
  }

  private static Method find(Class<?> owner, String name, int count) {
    for (Method method : owner.getDeclaredMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == count
          && (count == 0 || method.getParameterTypes()[0] != Tape.class)) {
        method.setAccessible(true);
        return method;
      }
    }
    return null;
  }

  private static Object call(Method method, Object target, Object[] arguments)
      throws Exception {
    try {
      return method.invoke(target, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof Exception exception ? exception : e;
    }
  }

  // --- slots

  private int activeCount() {
    int count = 0;
    for (boolean a : active) {
      count += a ? 1 : 0;
    }
    return count;
  }

  private List<int[]> slots(Object[] arguments) {
    List<int[]> slots = new ArrayList<>();
    for (int i = 0; i < arguments.length; i++) {
      if (active[i]) {
        for (int k = 0; k < flat(arguments[i]).length; k++) {
          slots.add(new int[] {i, k});
        }
      }
    }
    return slots;
  }

  private double[] differences(Object[] arguments, double step) throws Exception {
    List<int[]> slots = slots(arguments);
    double[] result = new double[slots.size()];
    for (int s = 0; s < result.length; s++) {
      double x = flat(arguments[slots.get(s)[0]])[slots.get(s)[1]];
      double h = step * Math.max(1, Math.abs(x));
      for (int k = -4; k <= 4; k++) {
        if (k != 0) {
          result[s] += EIGHTH_ORDER[k + 4] * number(value(moved(arguments, slots.get(s), k * h)));
        }
      }
      result[s] /= h;
    }
    return result;
  }

  private static Object[] moved(Object[] arguments, int[] slot, double by) {
    Object[] copy = copy(arguments);
    Object argument = copy[slot[0]];
    double x = flat(argument)[slot[1]];
    if (argument instanceof float[] floats) {
      floats[slot[1]] = (float) (x + by);
    } else {
      copy[slot[0]] = ArrayArguments.withSlot(argument, slot[1], x + by);
    }
    return copy;
  }

  private static Object[] copy(Object[] arguments) {
    Object[] copy = ArrayArguments.deepCopy(arguments);
    for (int i = 0; i < copy.length; i++) {
      if (copy[i] instanceof float[] floats) {
        copy[i] = floats.clone();
      }
    }
    return copy;
  }

  private static double[] flat(Object argument) {
    if (argument instanceof float[] floats) {
      double[] doubles = new double[floats.length];
      for (int i = 0; i < floats.length; i++) {
        doubles[i] = floats[i];
      }
      return doubles;
    }
    return ArrayArguments.flatten(argument);
  }

  /**
   * The seed of a vector result's pullback: {@code seed} itself for an array result, a record of
   * the result's type holding {@code seed}'s values in its slots for a value record.
   */
  private static Object seedLike(Object result, double[] seed) {
    if (!(result instanceof Record)) {
      return seed.clone();
    }
    Object shaped = result;
    for (int k = 0; k < seed.length; k++) {
      shaped = ArrayArguments.withSlot(shaped, k, seed[k]);
    }
    return shaped;
  }

  /** A random direction of the argument's shape, in the type of its tangent. */
  private static Object direction(Object argument, Random random) {
    if (argument instanceof float[] floats) {
      return random.doubles(floats.length, -1, 1).toArray();
    }
    if (argument instanceof Float) {
      return random.nextGaussian();
    }
    return ArrayArguments.shapedLike(argument, random);
  }

  private static double number(Object value) {
    return ((Number) value).doubleValue();
  }
}
