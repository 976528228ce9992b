package ad4j.samples.bench;

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
 * Calls in reverse mode ({@link RecursiveCalls}): a recursion of depth 1,000 and a loop calling
 * a {@code @Differentiable} helper 100 times, each gradient against its primal. Targets (issue
 * 14): gradient / primal at most 4 for the recursion, at most 3 for the loop; 0 B/op (run with
 * {@code -prof gc}).
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RecursiveCallsBench {
  /** The depth of the recursion. */
  static final int DEPTH = 1000;

  /** Central-difference step, relative: about the cube root of the machine epsilon. */
  static final double H = 6.0e-6;

  double[] p;
  int depth;
  double[] gradient;
  double[] adjoints;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    p = new double[] {0.4, 0.9};
    depth = DEPTH;
    gradient = new double[2];
    adjoints = new double[2];
  }

  /** The recursion itself. */
  @Benchmark
  public double nestedPrimal() {
    return RecursiveCalls.nested(p[0], p[1], depth);
  }

  /** Value and gradient of the recursion by one reverse sweep (generated). */
  @Benchmark
  public double nestedValueAndGradient() {
    return RecursiveCallsGrad.nestedValueAndGradient(p[0], p[1], depth, gradient);
  }

  /** Value and seed times the gradient of the recursion, accumulated (generated). */
  @Benchmark
  public double nestedPullback() {
    return RecursiveCallsGrad.nestedPullback(p[0], p[1], depth, 1.0, adjoints);
  }

  /** The loop of helper calls itself. */
  @Benchmark
  public double helperLoopPrimal() {
    return RecursiveCalls.helperLoop(p[0], p[1]);
  }

  /** Value and gradient of the loop of helper calls by one reverse sweep (generated). */
  @Benchmark
  public double helperLoopValueAndGradient() {
    return RecursiveCallsGrad.helperLoopValueAndGradient(p[0], p[1], gradient);
  }

  /** Value and seed times the gradient of the loop of helper calls (generated). */
  @Benchmark
  public double helperLoopPullback() {
    return RecursiveCallsGrad.helperLoopPullback(p[0], p[1], 1.0, adjoints);
  }

  /**
   * The gradient of the recursion by the recurrence's own derivative, written by hand: the
   * reference for {@link CrossCheck}.
   */
  double[] nestedByHand() {
    double x = p[0];
    double a = p[1];
    double v = x;
    double dx = 1;
    double da = 0;
    for (int k = 1; k <= depth; k++) {
      double c = a * Math.cos(v);
      dx = c * dx + 0.5;
      da = c * da + Math.sin(v);
      v = a * Math.sin(v) + 0.5 * x;
    }
    return new double[] {dx, da};
  }

  /** The gradient of the loop of helper calls by central differences. */
  double[] helperLoopDifferences() {
    double[] g = new double[2];
    for (int i = 0; i < 2; i++) {
      double[] x = p.clone();
      double h = H * Math.max(1, Math.abs(x[i]));
      x[i] = p[i] + h;
      double plus = RecursiveCalls.helperLoop(x[0], x[1]);
      x[i] = p[i] - h;
      double minus = RecursiveCalls.helperLoop(x[0], x[1]);
      g[i] = (plus - minus) / (2 * h);
    }
    return g;
  }

  /**
   * The gradients of the recursion, for {@link CrossCheck}.
   *
   * @return name and gradient, pairs
   */
  Object[] nestedGradients() {
    nestedValueAndGradient();
    double[] reverse = gradient.clone();
    java.util.Arrays.fill(adjoints, 0);
    nestedPullback();
    return new Object[] {"reverseValueAndGradient", reverse, "reversePullback",
        adjoints.clone(), "byHand", nestedByHand(), "tangents", new double[] {
            RecursiveCallsGrad.nestedTangent(p[0], p[1], depth, 1, 0),
            RecursiveCallsGrad.nestedTangent(p[0], p[1], depth, 0, 1)}};
  }

  /**
   * The gradients of the loop of helper calls, for {@link CrossCheck}.
   *
   * @return name and gradient, pairs
   */
  Object[] helperLoopGradients() {
    helperLoopValueAndGradient();
    double[] reverse = gradient.clone();
    java.util.Arrays.fill(adjoints, 0);
    helperLoopPullback();
    return new Object[] {"reverseValueAndGradient", reverse, "reversePullback",
        adjoints.clone(), "finiteDifferences", helperLoopDifferences(), "tangents",
        new double[] {RecursiveCallsGrad.helperLoopTangent(p[0], p[1], 1, 0),
            RecursiveCallsGrad.helperLoopTangent(p[0], p[1], 0, 1)}};
  }
}
