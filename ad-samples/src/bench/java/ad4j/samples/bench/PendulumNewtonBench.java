package ad4j.samples.bench;

import ad4j.samples.PendulumNewton;
import ad4j.samples.PendulumNewtonGrad;
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
 * The sample {@link PendulumNewton}'s misfit over 40 RK4 steps, each a call of an order-2
 * helper returning {@code double[]} (issue 33, target 3: order 2 calling vector functions): the
 * misfit, its value and gradient, and the 3 × 3 Hessian of each Newton step, generated
 * ({@code mHessian}, 3 forward-over-reverse sweeps through the helper's
 * {@code mPullbackTangent}) against central differences of the generated gradient (6 reverse
 * sweeps).
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PendulumNewtonBench {
  /** Central-difference step of the gradient, relative: about the cube root of epsilon. */
  static final double H = 6.0e-6;

  double[] p;
  double[] observed;
  double step;
  double[] gradient;
  double[] plus;
  double[] minus;
  double[][] differences;

  /** The sample's start, and 40 observed angles of a damped swing. */
  @Setup
  public void setup() {
    p = new double[] {0.8, 0.1, 3.0};
    step = 0.05;
    observed = new double[40];
    for (int i = 0; i < observed.length; i++) {
      observed[i] = Math.exp(-0.02 * i) * Math.cos(0.1 * i);
    }
    gradient = new double[3];
    plus = new double[3];
    minus = new double[3];
    differences = new double[3][3];
  }

  /** The misfit itself. */
  @Benchmark
  public double primal() {
    return PendulumNewton.misfit(p, observed, step);
  }

  /** Value and gradient by one reverse sweep (generated). */
  @Benchmark
  public double reverseValueAndGradient() {
    return PendulumNewtonGrad.misfitValueAndGradient(p, observed, step, gradient);
  }

  /** The Hessian, a new matrix (generated {@code mHessian}). */
  @Benchmark
  public double[][] hessian() {
    return PendulumNewtonGrad.misfitHessian(p, observed, step);
  }

  /** The Hessian by central differences of the generated gradient: 6 reverse sweeps. */
  @Benchmark
  public double[][] finiteDifferenceHessian() {
    for (int j = 0; j < 3; j++) {
      double pj = p[j];
      double h = H * Math.max(1, Math.abs(pj));
      p[j] = pj + h;
      PendulumNewtonGrad.misfitValueAndGradient(p, observed, step, plus);
      p[j] = pj - h;
      PendulumNewtonGrad.misfitValueAndGradient(p, observed, step, minus);
      p[j] = pj;
      for (int i = 0; i < 3; i++) {
        differences[i][j] = (plus[i] - minus[i]) / (2 * h);
      }
    }
    return differences;
  }
}
