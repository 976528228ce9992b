package ad4j.samples.bench;

import ad4j.samples.LogisticRegression;
import ad4j.samples.LogisticRegressionGrad;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.hipparchus.analysis.differentiation.Gradient;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link LogisticRegression#loss}, the mean logistic loss with array parameters, over 10,000
 * samples of 100 features (seeded normal data, labels of a noisy linear rule): 101 inputs
 * ({@code w}, then {@code b}).
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LogisticRegressionBench {
  /** Samples. */
  static final int SAMPLES = 10_000;

  /** Features. */
  static final int FEATURES = 100;

  /** Number of inputs. */
  static final int N = FEATURES + 1;

  double[] w;
  double[] bias;
  double[][] x;
  double[] y;
  double[] gradient;
  double[] adjoints;
  double[] direction;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    Random random = new Random(10);
    x = ArrayFunctions.gaussian(random, SAMPLES, FEATURES, 1.0);
    y = ArrayFunctions.labels(random, x);
    w = ArrayFunctions.gaussian(random, 1, FEATURES, 0.1)[0];
    bias = new double[] {0.05};
    gradient = new double[N];
    adjoints = new double[N];
    direction = new double[FEATURES];
  }

  /** The function itself. */
  @Benchmark
  public double primal() {
    return LogisticRegression.loss(w, bias[0], x, y);
  }

  /** Value and full gradient by one reverse sweep (generated). */
  @Benchmark
  public double reverseValueAndGradient() {
    return LogisticRegressionGrad.lossValueAndGradient(w, bias[0], x, y, gradient);
  }

  /** Value and seed times the gradient, accumulated (generated). */
  @Benchmark
  public double reversePullback() {
    return LogisticRegressionGrad.lossPullback(w, bias[0], x, y, 1.0, adjoints);
  }

  /** Full gradient by N forward sweeps (generated tangent, unit directions). */
  @Benchmark
  public double[] forwardTangents() {
    double[] d = direction;
    for (int i = 0; i < FEATURES; i++) {
      d[i] = 1;
      gradient[i] = LogisticRegressionGrad.lossTangent(w, bias[0], x, y, d, 0);
      d[i] = 0;
    }
    gradient[FEATURES] = LogisticRegressionGrad.lossTangent(w, bias[0], x, y, d, 1);
    return gradient;
  }

  /** Value and gradient, hand-written. */
  @Benchmark
  public double handWritten() {
    return ArrayFunctions.logisticRegression(w, bias[0], x, y, gradient);
  }

  /** Full gradient by central finite differences (2N evaluations). */
  @Benchmark
  public double[] finiteDifferences() {
    return ArrayFunctions.finiteDifferences(() -> LogisticRegression.loss(w, bias[0], x, y),
        gradient, w, bias);
  }

  /** Value and gradient with Hipparchus' {@code Gradient} (N free parameters). */
  @Benchmark
  public double[] hipparchusGradient() {
    Gradient[] v = new Gradient[FEATURES];
    for (int i = 0; i < FEATURES; i++) {
      v[i] = Gradient.variable(N, i, w[i]);
    }
    return ArrayFunctions.logisticRegression(v, Gradient.variable(N, FEATURES, bias[0]), x, y)
        .getGradient();
  }

  /**
   * The gradients of all variants at the benchmark point, for {@link CrossCheck}.
   *
   * @return name and gradient, pairs
   */
  Object[] gradients() {
    java.util.List<Object> out = new java.util.ArrayList<>();
    double value = reverseValueAndGradient();
    if (Double.doubleToRawLongBits(value) != Double.doubleToRawLongBits(primal())
        || Double.doubleToRawLongBits(handWritten()) != Double.doubleToRawLongBits(value)) {
      throw new AssertionError("LogisticRegression: values differ");
    }
    reverseValueAndGradient();
    out.add("reverseValueAndGradient");
    out.add(gradient.clone());
    java.util.Arrays.fill(adjoints, 0);
    reversePullback();
    out.add("reversePullback");
    out.add(adjoints.clone());
    out.add("forwardTangents");
    out.add(forwardTangents().clone());
    handWritten();
    out.add("handWritten");
    out.add(gradient.clone());
    out.add("finiteDifferences");
    out.add(finiteDifferences().clone());
    out.add("hipparchusGradient");
    out.add(hipparchusGradient());
    return out.toArray();
  }
}
