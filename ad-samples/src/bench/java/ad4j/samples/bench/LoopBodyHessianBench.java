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
 * A loop of 10 steps whose body is a chain of 120 statements, {@code order = 2} ({@link
 * LoopBodyOrder2}): its forward-over-reverse sweep, about three times as long as the gradient,
 * is cut into part methods as the first-order members are (issue 14, item 0). The Hessian-vector
 * product against the primal and the gradient.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LoopBodyHessianBench {
  double[] p;
  double[] v;
  double[] gradient;

  /** Fills the inputs and the direction. */
  @Setup
  public void setup() {
    p = new double[] {0.5, -0.3, 0.9, 0.8, 0.3};
    v = new double[] {0.2, -0.4, 0.1, 0.3, -0.2};
    gradient = new double[5];
  }

  /** The loop. */
  @Benchmark
  public double primal() {
    return LoopBodyOrder2.loop(p[0], p[1], p[2], p[3], p[4]);
  }

  /** Its generated value and gradient. */
  @Benchmark
  public double valueAndGradient() {
    return LoopBodyOrder2Grad.loopValueAndGradient(p[0], p[1], p[2], p[3], p[4], gradient);
  }

  /** Its generated Hessian times {@code v}: one forward-over-reverse sweep. */
  @Benchmark
  public double[] hessianVector() {
    return LoopBodyOrder2Grad.loopHessianVector(p[0], p[1], p[2], p[3], p[4], v);
  }
}
