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
 * A chain of 120 statements with and without an argument check at its start
 * ({@link Chain120Checked}, {@link Chain120}): the generated gradient of the checked one must be
 * split into segments as the other's is, so that HotSpot compiles it (issue 14: within 10 % of
 * the unchecked one's ratio to its primal). The checked chain with a {@code ?:} in its middle
 * ({@link Chain120Branched}) is not a straight line: its members are cut into part methods
 * that leave the values of the forward sweep on the tape for the reverse sweep's parts. The
 * else-if chain of four 120-statement branches ({@link ElseIf120}, the second branch taken) has
 * its long blocks in branches inside branches, which are cut alike; so has the chain of seven
 * 300-statement branches ({@link ElseIf300x7}, the third taken), whose members call many parts.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CheckedChainBench {
  double[] p;
  double[] gradient;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    p = new double[] {0.5, -0.3, 0.9, 0.8, 0.3};
    gradient = new double[5];
  }

  /** The chain without a check. */
  @Benchmark
  public double primal() {
    return Chain120.chain(p[0], p[1], p[2], p[3], p[4]);
  }

  /** Its generated value and gradient. */
  @Benchmark
  public double reverseValueAndGradient() {
    return Chain120Grad.chainValueAndGradient(p[0], p[1], p[2], p[3], p[4], gradient);
  }

  /** The chain after an argument check. */
  @Benchmark
  public double checkedPrimal() {
    return Chain120Checked.chain(p[0], p[1], p[2], p[3], p[4]);
  }

  /** Its generated value and gradient. */
  @Benchmark
  public double checkedValueAndGradient() {
    return Chain120CheckedGrad.chainValueAndGradient(p[0], p[1], p[2], p[3], p[4], gradient);
  }

  /** The checked chain with a {@code ?:} in its middle. */
  @Benchmark
  public double branchedPrimal() {
    return Chain120Branched.chain(p[0], p[1], p[2], p[3], p[4]);
  }

  /** Its generated value and gradient. */
  @Benchmark
  public double branchedValueAndGradient() {
    return Chain120BranchedGrad.chainValueAndGradient(p[0], p[1], p[2], p[3], p[4], gradient);
  }

  /** The else-if chain, in its second branch (c = 0.3). */
  @Benchmark
  public double elseIfPrimal() {
    return ElseIf120.chain(p[0], p[1], p[2], p[3], p[4]);
  }

  /** Its generated value and gradient. */
  @Benchmark
  public double elseIfValueAndGradient() {
    return ElseIf120Grad.chainValueAndGradient(p[0], p[1], p[2], p[3], p[4], gradient);
  }

  /** The else-if chain of seven 300-statement branches, in its third (c = 0.3). */
  @Benchmark
  public double elseIf7Primal() {
    return ElseIf300x7.chain(p[0], p[1], p[2], p[3], p[4]);
  }

  /** Its generated value and gradient. */
  @Benchmark
  public double elseIf7ValueAndGradient() {
    return ElseIf300x7Grad.chainValueAndGradient(p[0], p[1], p[2], p[3], p[4], gradient);
  }
}
