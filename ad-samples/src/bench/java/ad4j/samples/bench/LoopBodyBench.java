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
 * A loop of 10 steps whose body is a chain of 40 or of 60 statements ({@link LoopBody40},
 * {@link LoopBody60}): with 60, the generated members of the whole loop would pass HotSpot's
 * 8000-byte limit and run interpreted, so their loop bodies are cut into part methods (issue 14:
 * gradient / primal within 10 % of the 40-statement body's ratio).
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LoopBodyBench {
  double[] p;
  double[] gradient;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    p = new double[] {0.5, -0.3, 0.9, 0.8, 0.3};
    gradient = new double[5];
  }

  /** The loop with a 40-statement body. */
  @Benchmark
  public double primal40() {
    return LoopBody40.loop(p[0], p[1], p[2], p[3], p[4]);
  }

  /** Its generated value and gradient. */
  @Benchmark
  public double valueAndGradient40() {
    return LoopBody40Grad.loopValueAndGradient(p[0], p[1], p[2], p[3], p[4], gradient);
  }

  /** The loop with a 60-statement body. */
  @Benchmark
  public double primal60() {
    return LoopBody60.loop(p[0], p[1], p[2], p[3], p[4]);
  }

  /** Its generated value and gradient. */
  @Benchmark
  public double valueAndGradient60() {
    return LoopBody60Grad.loopValueAndGradient(p[0], p[1], p[2], p[3], p[4], gradient);
  }
}
