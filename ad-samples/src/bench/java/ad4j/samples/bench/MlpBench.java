package ad4j.samples.bench;

import java.util.Random;
import java.util.concurrent.TimeUnit;
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
 * The two-layer perceptron losses of {@link Mlp} over 1,000 seeded samples of 20 features, 32
 * hidden units: {@link Mlp#binaryLoss} (one output, 705 inputs) in {@link Binary} and
 * {@link Mlp#softmaxLoss} (three outputs, 771 inputs) in {@link Softmax}.
 */
public final class MlpBench {
  private MlpBench() {}

  /** Samples. */
  static final int SAMPLES = 1_000;

  /** Features. */
  static final int FEATURES = 20;

  /** Hidden units. */
  static final int HIDDEN = 32;

  /** The one-output network with the logistic loss. */
  @State(Scope.Thread)
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  @Warmup(iterations = 3, time = 1)
  @Measurement(iterations = 5, time = 1)
  @Fork(1)
  public static class Binary {
    double[][] w1;
    double[] b1;
    double[] v;
    double[] b2;
    double[][] x;
    double[] y;
    double[] gradient;
    double[] adjoints;

    /** Fills the inputs. */
    @Setup
    public void setup() {
      Random random = new Random(7);
      x = ArrayFunctions.gaussian(random, SAMPLES, FEATURES, 1.0);
      y = ArrayFunctions.labels(random, x);
      w1 = ArrayFunctions.gaussian(random, HIDDEN, FEATURES, 1 / Math.sqrt(FEATURES));
      b1 = ArrayFunctions.gaussian(random, 1, HIDDEN, 0.1)[0];
      v = ArrayFunctions.gaussian(random, 1, HIDDEN, 1 / Math.sqrt(HIDDEN))[0];
      b2 = new double[] {0.1};
      int n = ArrayFunctions.slots(w1) + 2 * HIDDEN + 1;
      gradient = new double[n];
      adjoints = new double[n];
    }

    /** The function itself. */
    @Benchmark
    public double primal() {
      return Mlp.binaryLoss(w1, b1, v, b2[0], x, y);
    }

    /** Value and full gradient by one reverse sweep (generated). */
    @Benchmark
    public double reverseValueAndGradient() {
      return MlpGrad.binaryLossValueAndGradient(w1, b1, v, b2[0], x, y, gradient);
    }

    /** Value and seed times the gradient, accumulated (generated). */
    @Benchmark
    public double reversePullback() {
      return MlpGrad.binaryLossPullback(w1, b1, v, b2[0], x, y, 1.0, adjoints);
    }

    /** Full gradient by central finite differences (2N evaluations). */
    @Benchmark
    public double[] finiteDifferences() {
      double[][] rows = new double[HIDDEN + 3][];
      System.arraycopy(w1, 0, rows, 0, HIDDEN);
      rows[HIDDEN] = b1;
      rows[HIDDEN + 1] = v;
      rows[HIDDEN + 2] = b2;
      return ArrayFunctions.finiteDifferences(() -> Mlp.binaryLoss(w1, b1, v, b2[0], x, y),
          gradient, rows);
    }

    Object[] gradients() {
      if (Double.doubleToRawLongBits(reverseValueAndGradient())
          != Double.doubleToRawLongBits(primal())) {
        throw new AssertionError("Mlp.binaryLoss: values differ");
      }
      double[] reverse = gradient.clone();
      java.util.Arrays.fill(adjoints, 0);
      reversePullback();
      return new Object[] {"reverseValueAndGradient", reverse, "reversePullback",
          adjoints.clone(), "finiteDifferences", finiteDifferences().clone()};
    }
  }

  /** The three-output network with the softmax cross-entropy. */
  @State(Scope.Thread)
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  @Warmup(iterations = 3, time = 1)
  @Measurement(iterations = 5, time = 1)
  @Fork(1)
  public static class Softmax {
    double[][] w1;
    double[] b1;
    double[][] w2;
    double[] b2;
    double[][] x;
    int[] c;
    double[] gradient;
    double[] adjoints;

    /** Fills the inputs. */
    @Setup
    public void setup() {
      Random random = new Random(8);
      x = ArrayFunctions.gaussian(random, SAMPLES, FEATURES, 1.0);
      c = new int[SAMPLES];
      for (int i = 0; i < SAMPLES; i++) {
        c[i] = random.nextInt(3);
      }
      w1 = ArrayFunctions.gaussian(random, HIDDEN, FEATURES, 1 / Math.sqrt(FEATURES));
      b1 = ArrayFunctions.gaussian(random, 1, HIDDEN, 0.1)[0];
      w2 = ArrayFunctions.gaussian(random, 3, HIDDEN, 1 / Math.sqrt(HIDDEN));
      b2 = ArrayFunctions.gaussian(random, 1, 3, 0.1)[0];
      int n = ArrayFunctions.slots(w1) + HIDDEN + 3 * HIDDEN + 3;
      gradient = new double[n];
      adjoints = new double[n];
    }

    /** The function itself. */
    @Benchmark
    public double primal() {
      return Mlp.softmaxLoss(w1, b1, w2, b2, x, c);
    }

    /** Value and full gradient by one reverse sweep (generated). */
    @Benchmark
    public double reverseValueAndGradient() {
      return MlpGrad.softmaxLossValueAndGradient(w1, b1, w2, b2, x, c, gradient);
    }

    /** Value and seed times the gradient, accumulated (generated). */
    @Benchmark
    public double reversePullback() {
      return MlpGrad.softmaxLossPullback(w1, b1, w2, b2, x, c, 1.0, adjoints);
    }

    /** Full gradient by central finite differences (2N evaluations). */
    @Benchmark
    public double[] finiteDifferences() {
      double[][] rows = new double[HIDDEN + 5][];
      System.arraycopy(w1, 0, rows, 0, HIDDEN);
      rows[HIDDEN] = b1;
      System.arraycopy(w2, 0, rows, HIDDEN + 1, 3);
      rows[HIDDEN + 4] = b2;
      return ArrayFunctions.finiteDifferences(() -> Mlp.softmaxLoss(w1, b1, w2, b2, x, c),
          gradient, rows);
    }

    Object[] gradients() {
      if (Double.doubleToRawLongBits(reverseValueAndGradient())
          != Double.doubleToRawLongBits(primal())) {
        throw new AssertionError("Mlp.softmaxLoss: values differ");
      }
      double[] reverse = gradient.clone();
      java.util.Arrays.fill(adjoints, 0);
      reversePullback();
      return new Object[] {"reverseValueAndGradient", reverse, "reversePullback",
          adjoints.clone(), "finiteDifferences", finiteDifferences().clone()};
    }
  }
}
