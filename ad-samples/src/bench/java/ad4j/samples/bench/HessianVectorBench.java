package ad4j.samples.bench;

import ad4j.samples.BlackScholes;
import ad4j.samples.BlackScholesGrad;
import ad4j.samples.LogisticRegression;
import ad4j.samples.LogisticRegressionGrad;
import ad4j.samples.NewtonRosenbrock;
import ad4j.samples.NewtonRosenbrockGrad;
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
 * One Hessian-vector product ({@code mHessianVector}, one forward-over-reverse sweep) against the
 * function itself and its gradient, for four {@code @Differentiable(order = 2)} functions: the
 * Rosenbrock function of {@link NewtonRosenbrock} (2 inputs), the Black-Scholes call price (5),
 * the logistic regression loss over the data of {@link LogisticRegressionBench} (10,000 × 100,
 * 101 inputs) and the ADBench GMM objective of {@link GaussianMixtureArraysBench} with d = 2,
 * K = 5 and 1,000 points (30 inputs). Each method is named after its function and variant:
 * {@code rosenbrockPrimal}, {@code rosenbrockGradient}, {@code rosenbrockHessianVector}, and so
 * on. The direction is a fixed random vector.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HessianVectorBench {
  double[] rosenbrock;
  double[] rosenbrockGradient;
  double[] rosenbrockDirection;

  double[] call;
  double[] callGradient;
  double[] callDirection;

  double[] w;
  double[] bias;
  double[][] x;
  double[] y;
  double[] logisticGradient;
  double[] logisticDirection;

  GaussianMixtureArraysBench.Gmm gmm;
  double gamma;
  double m;
  double constant;
  double[] gmmGradient;
  double[] gmmDirection;

  /** Fills the inputs, with the data of the first-order benchmarks of the same functions. */
  @Setup
  public void setup() {
    Random random = new Random(12);
    rosenbrock = new double[] {-1.2, 1.0};
    rosenbrockGradient = new double[2];
    rosenbrockDirection = direction(random, 2);

    call = new double[] {100, 95, 0.75, 0.03, 0.25};
    callGradient = new double[5];
    callDirection = direction(random, 5);

    LogisticRegressionBench logistic = new LogisticRegressionBench();
    logistic.setup();
    w = logistic.w;
    bias = logistic.bias;
    x = logistic.x;
    y = logistic.y;
    logisticGradient = new double[LogisticRegressionBench.N];
    logisticDirection = direction(random, LogisticRegressionBench.N);

    gmm = GaussianMixtureArraysBench.Gmm.of(2, 5, GaussianMixtureArraysBench.POINTS);
    gamma = GaussianMixtureArraysBench.Gmm.GAMMA;
    m = GaussianMixtureArraysBench.Gmm.M;
    constant = GaussianMixtureArrays.wishartConstant(2, gamma, m);
    gmmGradient = new double[gmm.slots()];
    gmmDirection = direction(random, gmm.slots());
  }

  private static double[] direction(Random random, int n) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = random.nextGaussian();
    }
    return v;
  }

  /** Rosenbrock: the function itself. */
  @Benchmark
  public double rosenbrockPrimal() {
    return NewtonRosenbrock.value(rosenbrock[0], rosenbrock[1]);
  }

  /** Rosenbrock: value and gradient (generated reverse sweep). */
  @Benchmark
  public double rosenbrockGradient() {
    return NewtonRosenbrockGrad.valueValueAndGradient(rosenbrock[0], rosenbrock[1],
        rosenbrockGradient);
  }

  /** Rosenbrock: H·v (generated forward-over-reverse sweep). */
  @Benchmark
  public double[] rosenbrockHessianVector() {
    return NewtonRosenbrockGrad.valueHessianVector(rosenbrock[0], rosenbrock[1],
        rosenbrockDirection);
  }

  /** Black-Scholes: the function itself. */
  @Benchmark
  public double blackScholesPrimal() {
    return BlackScholes.callPrice(call[0], call[1], call[2], call[3], call[4]);
  }

  /** Black-Scholes: value and gradient (generated reverse sweep). */
  @Benchmark
  public double blackScholesGradient() {
    return BlackScholesGrad.callPriceValueAndGradient(call[0], call[1], call[2], call[3],
        call[4], callGradient);
  }

  /** Black-Scholes: H·v (generated forward-over-reverse sweep). */
  @Benchmark
  public double[] blackScholesHessianVector() {
    return BlackScholesGrad.callPriceHessianVector(call[0], call[1], call[2], call[3], call[4],
        callDirection);
  }

  /**
   * Black-Scholes: H·v with HotSpot allowed to compile huge methods. The price's whole
   * forward-over-reverse sweep is one method of over 8000 bytes of bytecode, which HotSpot by
   * default never compiles ({@code -XX:+DontCompileHugeMethods}).
   */
  @Benchmark
  @Fork(value = 1, jvmArgsAppend = "-XX:-DontCompileHugeMethods")
  public double[] blackScholesHessianVectorHugeCompiled() {
    return blackScholesHessianVector();
  }

  /** Logistic regression: the function itself. */
  @Benchmark
  public double logisticRegressionPrimal() {
    return LogisticRegression.loss(w, bias[0], x, y);
  }

  /** Logistic regression: value and gradient (generated reverse sweep). */
  @Benchmark
  public double logisticRegressionGradient() {
    return LogisticRegressionGrad.lossValueAndGradient(w, bias[0], x, y, logisticGradient);
  }

  /** Logistic regression: H·v (generated forward-over-reverse sweep). */
  @Benchmark
  public double[] logisticRegressionHessianVector() {
    return LogisticRegressionGrad.lossHessianVector(w, bias[0], x, y, logisticDirection);
  }

  /** GMM: the function itself. */
  @Benchmark
  public double gmmPrimal() {
    return GaussianMixtureArrays.objective(gmm.alphas(), gmm.means(), gmm.icf(), gmm.x(), gamma,
        m, constant);
  }

  /** GMM: value and gradient (generated reverse sweep). */
  @Benchmark
  public double gmmGradient() {
    return GaussianMixtureArraysGrad.objectiveValueAndGradient(gmm.alphas(), gmm.means(),
        gmm.icf(), gmm.x(), gamma, m, constant, gmmGradient);
  }

  /** GMM: H·v (generated forward-over-reverse sweep). */
  @Benchmark
  public double[] gmmHessianVector() {
    return GaussianMixtureArraysGrad.objectiveHessianVector(gmm.alphas(), gmm.means(), gmm.icf(),
        gmm.x(), gamma, m, constant, gmmDirection);
  }
}
