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
 * Calls between {@code @Differentiable} methods ({@link HelperCalls}): the gradient and the
 * pullback of a caller must allocate nothing (run with {@code -prof gc}: gc.alloc.rate.norm
 * 0 B/op for every benchmark but {@code *Gradient}, which returns a new array by contract).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HelperCallsBench {
  double[] p;
  double[] gradient;
  double[] adjoints;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    p = new double[] {0.1, 0.2, 1.3, -0.4, 0.6, 0.9};
    gradient = new double[6];
    adjoints = new double[6];
  }

  /** The straight-line caller itself. */
  @Benchmark
  public double perimeterPrimal() {
    return HelperCalls.perimeter(p[0], p[1], p[2], p[3], p[4], p[5]);
  }

  /** Value and gradient of the straight-line caller (three pullbacks of the helper). */
  @Benchmark
  public double perimeterValueAndGradient() {
    return HelperCallsGrad.perimeterValueAndGradient(p[0], p[1], p[2], p[3], p[4], p[5],
        gradient);
  }

  /** A directional derivative of the straight-line caller (three tangents of the helper). */
  @Benchmark
  public double perimeterTangent() {
    return HelperCallsGrad.perimeterTangent(p[0], p[1], p[2], p[3], p[4], p[5], p[3], p[1],
        -p[0], p[5], p[2], -p[4]);
  }

  /** Pullback of the straight-line caller. */
  @Benchmark
  public double perimeterPullback() {
    return HelperCallsGrad.perimeterPullback(p[0], p[1], p[2], p[3], p[4], p[5], 1.0, adjoints);
  }

  /** A directional derivative of the looping caller (a tangent of the helper per iteration). */
  @Benchmark
  public double softplusSumTangent() {
    return HelperCallsGrad.softplusSumTangent(p[0], p[1], p[2], p[3]);
  }

  /**
   * A directional derivative of the gated sum: the helper's value chooses a branch, its tangent
   * is not needed.
   */
  @Benchmark
  public double gatedSumTangent() {
    return HelperCallsGrad.gatedSumTangent(p[0], p[1], p[2], p[3]);
  }

  /** The gated sum itself. */
  @Benchmark
  public double gatedSumPrimal() {
    return HelperCalls.gatedSum(p[0], p[1]);
  }

  /** The looping caller itself. */
  @Benchmark
  public double softplusSumPrimal() {
    return HelperCalls.softplusSum(p[0], p[1]);
  }

  /** Value and gradient of the looping caller (one helper pullback per iteration). */
  @Benchmark
  public double softplusSumValueAndGradient() {
    return HelperCallsGrad.softplusSumValueAndGradient(p[0], p[1], gradient);
  }

  /** Pullback of the looping caller. */
  @Benchmark
  public double softplusSumPullback() {
    return HelperCallsGrad.softplusSumPullback(p[0], p[1], 1.0, adjoints);
  }

  /** The gradient of the looping caller: one new array of 2 doubles, by contract. */
  @Benchmark
  public double[] softplusSumGradient() {
    return HelperCallsGrad.softplusSumGradient(p[0], p[1]);
  }
}
