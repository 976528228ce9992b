package ad4j.samples.bench;

import ad4j.samples.LongIntegration;
import ad4j.samples.LongIntegrationGrad;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Lotka-Volterra by RK4 over a thousand and a million steps ({@link LongIntegration}): the
 * primal, the reverse gradient recording every step (128 bytes per step on the tape: 128 MB for
 * a million) and the reverse gradient of the {@code @Checkpointed} twin (1024 snapshots of the
 * state; {@link TapeBytes} measures the tape of each).
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class Rk4LongBench {
  /** Steps of the integration. */
  @Param({"1000", "1000000"})
  int steps;

  double[] p;
  double[] gradient;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    p = new double[] {1.1, 0.4, 0.1, 0.4, 10, 10};
    gradient = new double[6];
  }

  /** The function itself. */
  @Benchmark
  public double primal() {
    return LongIntegration.prey(p[0], p[1], p[2], p[3], p[4], p[5], steps);
  }

  /** Value and gradient by one reverse sweep recording every step (generated). */
  @Benchmark
  public double reverseFullTape() {
    return LongIntegrationGrad.preyValueAndGradient(p[0], p[1], p[2], p[3], p[4], p[5], steps,
        gradient);
  }

  /** Value and gradient by the reverse sweep of the checkpointed loop (generated). */
  @Benchmark
  public double reverseCheckpointed() {
    return LongIntegrationGrad.preyCheckpointedValueAndGradient(p[0], p[1], p[2], p[3], p[4],
        p[5], steps, gradient);
  }
}
