package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ad4j.samples.bench.GaussianMixtureArrays;
import ad4j.samples.bench.Mlp;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The samples and benchmark functions with array parameters: for each, the generated gradient
 * against fourth-order central differences of the user's own method, slot by slot in the flat
 * layout; the value of {@code mValueAndGradient} and {@code mPullback} bit for bit; forward
 * mode against reverse mode (the dot-product test {@code mTangent(ṫ) = ∇·ṫ}); and the
 * pullback's accumulation. The data are real (a slice of the shipped data sets) or drawn from a
 * seeded random generator.
 */
class ArraySamplesTest {

  /**
   * One call of a {@code @Differentiable} method.
   *
   * @param owner the user's class
   * @param name the method
   * @param arguments its arguments
   * @param active which arguments carry derivatives
   */
  record Call(Class<?> owner, String name, Object[] arguments, boolean[] active) {
    @Override
    public String toString() {
      return owner.getSimpleName() + "." + name;
    }
  }

  static Stream<Call> calls() {
    Random random = new Random(20261124);
    Dataset cancer = Dataset.breastCancer();
    double[][] cancerX = Arrays.copyOfRange(cancer.standardized(), 0, 40);
    double[] cancerY = Arrays.copyOfRange(cancer.signLabels(), 0, 40);
    Dataset iris = Dataset.iris();
    int[] rows = {0, 3, 7, 51, 60, 77, 101, 120, 133, 149};
    double[][] irisX = new double[rows.length][];
    int[] irisC = new int[rows.length];
    double[][] standardized = iris.standardized();
    for (int i = 0; i < rows.length; i++) {
      irisX[i] = standardized[rows[i]];
      irisC[i] = iris.classes()[rows[i]];
    }
    double[][] gmmX = matrix(random, 12, 3, 1.0);
    double[][] mlpX = matrix(random, 15, 4, 1.0);
    double[] mlpY = new double[15];
    int[] mlpC = new int[15];
    for (int i = 0; i < 15; i++) {
      mlpY[i] = random.nextBoolean() ? 1 : -1;
      mlpC[i] = random.nextInt(3);
    }
    return Stream.of(
        new Call(LogisticLoss.class, "loss", new Object[] {LogisticLoss.WEIGHTS.clone()},
            new boolean[] {true}),
        new Call(LogisticRegression.class, "loss", new Object[] {vector(random, 30, 0.3),
            0.2, cancerX, cancerY}, new boolean[] {true, true, false, false}),
        new Call(SoftmaxRegression.class, "loss", new Object[] {matrix(random, 3, 4, 0.5),
            vector(random, 3, 0.5), irisX, irisC}, new boolean[] {true, true, false, false}),
        new Call(SoftmaxRegression.class, "lossWithScores", new Object[] {
            matrix(random, 3, 4, 0.5), vector(random, 3, 0.5), irisX, irisC},
            new boolean[] {true, true, false, false}),
        new Call(GaussianMixtureArrays.class, "objective", new Object[] {
            vector(random, 4, 0.5), matrix(random, 4, 3, 1.0), matrix(random, 4, 6, 0.3), gmmX,
            1.0, 0.0, GaussianMixtureArrays.wishartConstant(3, 1.0, 0.0)},
            new boolean[] {true, true, true, false, false, false, false}),
        new Call(Mlp.class, "binaryLoss", new Object[] {matrix(random, 5, 4, 0.5),
            vector(random, 5, 0.5), vector(random, 5, 0.5), 0.1, mlpX, mlpY},
            new boolean[] {true, true, true, true, false, false}),
        new Call(Mlp.class, "softmaxLoss", new Object[] {matrix(random, 5, 4, 0.5),
            vector(random, 5, 0.5), matrix(random, 3, 5, 0.5), vector(random, 3, 0.5), mlpX,
            mlpC}, new boolean[] {true, true, true, true, false, false}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void gradientMatchesFiniteDifferencesOfTheUsersMethod(Call call) throws Exception {
    double[] gradient = (double[]) invoke(call, "Gradient", call.arguments());
    double[] expected = finiteDifferences(call);

    assertEquals(expected.length, gradient.length);
    for (int slot = 0; slot < expected.length; slot++) {
      assertEquals(expected[slot], gradient[slot], 1e-8 * Math.max(1, Math.abs(expected[slot])),
          "slot " + slot + " of " + call);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void valueIsBitForBitAndPullbackAddsSeedTimesTheGradient(Call call) throws Exception {
    double value = (double) invoke(call, "", call.arguments());
    double[] gradient = (double[]) invoke(call, "Gradient", call.arguments());
    double[] written = new double[gradient.length];
    Arrays.fill(written, Double.NaN);
    double[] adjoints = new double[gradient.length];
    Arrays.fill(adjoints, 1.0);

    double returned = (double) invoke(call, "ValueAndGradient", append(call.arguments(), written));
    double pulled = (double) invoke(call, "Pullback", append(call.arguments(), -0.5, adjoints));

    assertEquals(Double.doubleToRawLongBits(value), Double.doubleToRawLongBits(returned));
    assertEquals(Double.doubleToRawLongBits(value), Double.doubleToRawLongBits(pulled));
    assertArrayEquals(gradient, written, 0.0);
    for (int i = 0; i < gradient.length; i++) {
      assertEquals(1.0 - 0.5 * gradient[i], adjoints[i], 1e-15 * Math.max(1, Math.abs(gradient[i])));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void forwardModeAgreesWithReverseMode(Call call) throws Exception {
    double[] gradient = (double[]) invoke(call, "Gradient", call.arguments());
    Random random = new Random(call.toString().hashCode());
    List<Object> directions = new ArrayList<>();
    double expected = 0;
    int slot = 0;
    for (int i = 0; i < call.arguments().length; i++) {
      if (!call.active()[i]) {
        continue;
      }
      Object direction = shapedLike(call.arguments()[i], random);
      directions.add(direction);
      for (double d : flatten(direction)) {
        expected += gradient[slot++] * d;
      }
    }

    double tangent = (double) invoke(call, "Tangent", append(call.arguments(),
        directions.toArray()));

    assertEquals(expected, tangent, 1e-12 * Math.max(1, Math.abs(expected)), call.toString());
  }

  @org.junit.jupiter.api.Test
  void theArrayFormOfLogisticLossEqualsItsTenParameterForm() {
    double[] w = LogisticLoss.WEIGHTS;
    double[] fromArray = new double[10];

    double value = LogisticLossGrad.lossValueAndGradient(w, fromArray);

    assertEquals(Double.doubleToRawLongBits(LogisticLoss.loss(w[0], w[1], w[2], w[3], w[4], w[5],
        w[6], w[7], w[8], w[9])), Double.doubleToRawLongBits(value));
    assertArrayEquals(LogisticLoss.adGradient(w), fromArray, 0.0);
  }

  @org.junit.jupiter.api.Test
  void softmaxLossWithAScoreArrayPerSampleHasTheGradientOfTheStreamingOne() {
    Dataset iris = Dataset.iris();
    Random random = new Random(7);
    double[][] w = matrix(random, 3, 4, 0.5);
    double[] b = vector(random, 3, 0.5);
    double[] streaming = new double[15];
    double[] withScores = new double[15];

    double one = SoftmaxRegressionGrad.lossValueAndGradient(w, b, iris.standardized(),
        iris.classes(), streaming);
    double other = SoftmaxRegressionGrad.lossWithScoresValueAndGradient(w, b,
        iris.standardized(), iris.classes(), withScores);

    assertEquals(one, other, 1e-12);
    assertArrayEquals(streaming, withScores, 1e-12);
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** Calls {@code name + suffix} of the user's class ({@code ""}) or of its generated class. */
  private static Object invoke(Call call, String suffix, Object... arguments) throws Exception {
    Class<?> owner = suffix.isEmpty() ? call.owner()
        : Class.forName(call.owner().getName() + "Grad");
    for (Method method : owner.getMethods()) {
      if (method.getName().equals(call.name() + suffix)
          && method.getParameterCount() == arguments.length) {
        try {
          return method.invoke(null, arguments);
        } catch (InvocationTargetException e) {
          throw (Exception) e.getCause();
        }
      }
    }
    throw new AssertionError("no public method " + call.name() + suffix + " with "
        + arguments.length + " parameters in " + owner);
  }

  /** Fourth-order central differences of the user's method, slot by slot. */
  private static double[] finiteDifferences(Call call) throws Exception {
    List<Double> result = new ArrayList<>();
    for (int i = 0; i < call.arguments().length; i++) {
      if (!call.active()[i]) {
        continue;
      }
      double[] flat = flatten(call.arguments()[i]);
      for (int k = 0; k < flat.length; k++) {
        double h = 1e-3 * Math.max(1, Math.abs(flat[k]));
        double[] steps = {-2 * h, -h, h, 2 * h};
        double[] f = new double[4];
        for (int s = 0; s < 4; s++) {
          Object[] moved = call.arguments().clone();
          moved[i] = withSlot(moved[i], k, flat[k] + steps[s]);
          f[s] = (double) invoke(call, "", moved);
        }
        result.add((f[0] - 8 * f[1] + 8 * f[2] - f[3]) / (12 * h));
      }
    }
    return result.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static double[] flatten(Object argument) {
    if (argument instanceof Double d) {
      return new double[] {d};
    }
    if (argument instanceof double[] v) {
      return v.clone();
    }
    return Arrays.stream((double[][]) argument).flatMapToDouble(Arrays::stream).toArray();
  }

  /** A copy of the argument with flat slot {@code k} set to {@code value}. */
  private static Object withSlot(Object argument, int k, double value) {
    if (argument instanceof Double) {
      return value;
    }
    if (argument instanceof double[] v) {
      double[] copy = v.clone();
      copy[k] = value;
      return copy;
    }
    double[][] m = (double[][]) argument;
    double[][] copy = new double[m.length][];
    int offset = 0;
    for (int r = 0; r < m.length; r++) {
      copy[r] = m[r].clone();
      if (k >= offset && k < offset + m[r].length) {
        copy[r][k - offset] = value;
      }
      offset += m[r].length;
    }
    return copy;
  }

  private static Object shapedLike(Object argument, Random random) {
    if (argument instanceof Double) {
      return random.nextGaussian();
    }
    if (argument instanceof double[] v) {
      return vector(random, v.length, 1);
    }
    double[][] m = (double[][]) argument;
    double[][] d = new double[m.length][];
    for (int r = 0; r < m.length; r++) {
      d[r] = vector(random, m[r].length, 1);
    }
    return d;
  }

  private static Object[] append(Object[] arguments, Object... more) {
    Object[] all = Arrays.copyOf(arguments, arguments.length + more.length);
    System.arraycopy(more, 0, all, arguments.length, more.length);
    return all;
  }

  static double[] vector(Random random, int n, double scale) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = scale * random.nextGaussian();
    }
    return v;
  }

  static double[][] matrix(Random random, int rows, int columns, double scale) {
    double[][] m = new double[rows][];
    for (int r = 0; r < rows; r++) {
      m[r] = vector(random, columns, scale);
    }
    return m;
  }
}
