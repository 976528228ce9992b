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
 * A {@code ?:} chain of 300 short pieces ({@link ConditionalChain300}), at a point in its
 * middle piece: its generated members were one method each of about 30 KB of bytecode (run
 * interpreted); the chain's levels are now cut into parts that call parts (issue 14, item 0).
 * So is the chain of 450 pieces whose reverses read what they made ({@link
 * ConditionalChainExp450}): its members were 55 KB each before its pieces shared the variables
 * that carry those values.
 * The function sits in the benchmarks' sources, processed only with {@code -Pbench}: its 300
 * levels take seconds to process.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ConditionalChainBench {
  double x;
  double y;
  double[] gradient;

  /** The middle piece: {@code x < 151 ? x * y + 151}. */
  @Setup
  public void setup() {
    x = 150.5;
    y = 0.3;
    gradient = new double[2];
  }

  /** The chain. */
  @Benchmark
  public double primal() {
    return ConditionalChain300.chain(x, y);
  }

  /** Its generated value and gradient. */
  @Benchmark
  public double valueAndGradient() {
    return ConditionalChain300Grad.chainValueAndGradient(x, y, gradient);
  }

  /** The chain of 450 pieces {@code Math.exp(x * y) + i}, in its piece {@code x < 151}. */
  @Benchmark
  public double expPrimal() {
    return ConditionalChainExp450.chain(x, y);
  }

  /** Its generated value and gradient, whose reverse reads each piece's exponential. */
  @Benchmark
  public double expValueAndGradient() {
    return ConditionalChainExp450Grad.chainValueAndGradient(x, y, gradient);
  }
}
