package ad4j.samples.bench;

import ad4j.samples.SpringMass;
import ad4j.samples.SpringMass.Vec3;
import ad4j.samples.SpringMassGrad;
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
 * Records, lambdas and streams against their scalar twins ({@link ValueFunctions}; the record
 * spring is the sample {@link SpringMass}), primal and
 * generated value-and-gradient: a spring-mass simulation over {@code record Vec3} (200 steps,
 * 14 inputs), Simpson's rule over a capturing lambda (1,000 intervals, 2 inputs), and a
 * least-squares loss written with {@code IntStream} (1,000 weights).
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ValuesBench {
  static final int STEPS = 200;
  static final int INTERVALS = 1_000;
  static final int WEIGHTS = 1_000;

  double[] s;
  Vec3 p;
  Vec3 q;
  Vec3 u;
  Vec3 v;
  double[] springGradient;
  double a;
  double b;
  double[] integralGradient;
  double[] w;
  double[] x;
  double[] lossGradient;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    s = new double[] {0, 0, 0, 1.3, 0.2, -0.1, 0, 0.1, 0, 0.05, -0.1, 0.02, 4.0, 0.01};
    p = new Vec3(s[0], s[1], s[2]);
    q = new Vec3(s[3], s[4], s[5]);
    u = new Vec3(s[6], s[7], s[8]);
    v = new Vec3(s[9], s[10], s[11]);
    springGradient = new double[14];
    a = 0.7;
    b = 2.3;
    integralGradient = new double[2];
    Random random = new Random(35);
    w = new double[WEIGHTS];
    x = new double[WEIGHTS];
    for (int i = 0; i < WEIGHTS; i++) {
      w[i] = random.nextGaussian();
      x[i] = random.nextGaussian();
    }
    lossGradient = new double[WEIGHTS];
  }

  /** The spring over records. */
  @Benchmark
  public double springRecordsPrimal() {
    return SpringMass.energyAfter(p, q, u, v, s[12], s[13], STEPS);
  }

  /** Its value and gradient (generated). */
  @Benchmark
  public double springRecordsGradient() {
    return SpringMassGrad.energyAfterValueAndGradient(p, q, u, v, s[12], s[13], STEPS,
        springGradient);
  }

  /** The spring over scalars. */
  @Benchmark
  public double springScalarsPrimal() {
    return ValueFunctions.springScalars(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8],
        s[9], s[10], s[11], s[12], s[13], STEPS);
  }

  /** Its value and gradient (generated). */
  @Benchmark
  public double springScalarsGradient() {
    return ValueFunctionsGrad.springScalarsValueAndGradient(s[0], s[1], s[2], s[3], s[4], s[5],
        s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], STEPS, springGradient);
  }

  /** Simpson's rule over a lambda. */
  @Benchmark
  public double integralLambdaPrimal() {
    return ValueFunctions.integralLambda(a, b, INTERVALS);
  }

  /** Its value and gradient (generated). */
  @Benchmark
  public double integralLambdaGradient() {
    return ValueFunctionsGrad.integralLambdaValueAndGradient(a, b, INTERVALS, integralGradient);
  }

  /** Simpson's rule as one loop. */
  @Benchmark
  public double integralScalarsPrimal() {
    return ValueFunctions.integralScalars(a, b, INTERVALS);
  }

  /** Its value and gradient (generated). */
  @Benchmark
  public double integralScalarsGradient() {
    return ValueFunctionsGrad.integralScalarsValueAndGradient(a, b, INTERVALS,
        integralGradient);
  }

  /** The loss with a stream. */
  @Benchmark
  public double lossStreamPrimal() {
    return ValueFunctions.lossStream(w, x);
  }

  /** Its value and gradient (generated). */
  @Benchmark
  public double lossStreamGradient() {
    return ValueFunctionsGrad.lossStreamValueAndGradient(w, x, lossGradient);
  }

  /** The loss as a loop. */
  @Benchmark
  public double lossLoopPrimal() {
    return ValueFunctions.lossLoop(w, x);
  }

  /** Its value and gradient (generated). */
  @Benchmark
  public double lossLoopGradient() {
    return ValueFunctionsGrad.lossLoopValueAndGradient(w, x, lossGradient);
  }

  /** The stream loss's gradient alone (generated {@code mGradient}: a new array, no value). */
  @Benchmark
  public double[] lossStreamOnlyGradient() {
    return ValueFunctionsGrad.lossStreamGradient(w, x);
  }

  /** The loop loss's gradient alone (generated {@code mGradient}: a new array, no value). */
  @Benchmark
  public double[] lossLoopOnlyGradient() {
    return ValueFunctionsGrad.lossLoopGradient(w, x);
  }
}
