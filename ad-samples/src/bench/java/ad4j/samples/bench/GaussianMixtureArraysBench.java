package ad4j.samples.bench;

import java.util.Random;
import org.openjdk.jmh.annotations.Param;
import java.util.concurrent.TimeUnit;
import org.hipparchus.analysis.differentiation.Gradient;
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
 * The full ADBench GMM objective with array inputs, {@link GaussianMixtureArrays#objective}, on
 * 1,000 seeded points, for dimensions {@code d} and component counts {@code K}: {@code K + K d
 * + K d(d+1)/2} inputs. The peers (Hipparchus, finite differences, forward mode) are in
 * {@link GaussianMixtureArraysPeersBench}, on the smallest size.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class GaussianMixtureArraysBench {
  /** Points. */
  static final int POINTS = 1_000;

  /** Dimension. */
  @Param({"2", "10"})
  public int d;

  /** Components. */
  @Param({"5", "25"})
  public int k;

  double[] alphas;
  double[][] means;
  double[][] icf;
  double[][] x;
  double gamma;
  double m;
  double constant;
  double[] gradient;
  double[] adjoints;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    Gmm g = Gmm.of(d, k, POINTS);
    alphas = g.alphas();
    means = g.means();
    icf = g.icf();
    x = g.x();
    gamma = Gmm.GAMMA;
    m = Gmm.M;
    constant = GaussianMixtureArrays.wishartConstant(d, gamma, m);
    gradient = new double[g.slots()];
    adjoints = new double[g.slots()];
  }

  /** The function itself. */
  @Benchmark
  public double primal() {
    return GaussianMixtureArrays.objective(alphas, means, icf, x, gamma, m, constant);
  }

  /** Value and full gradient by one reverse sweep (generated). */
  @Benchmark
  public double reverseValueAndGradient() {
    return GaussianMixtureArraysGrad.objectiveValueAndGradient(alphas, means, icf, x, gamma, m,
        constant, gradient);
  }

  /** Value and full gradient, written by hand ({@link HandWritten#gmmValueAndGradient}). */
  @Benchmark
  public double handWrittenValueAndGradient() {
    return HandWritten.gmmValueAndGradient(alphas, means, icf, x, gamma, m, constant, gradient);
  }

  /** Value and seed times the gradient, accumulated (generated). */
  @Benchmark
  public double reversePullback() {
    return GaussianMixtureArraysGrad.objectivePullback(alphas, means, icf, x, gamma, m,
        constant, 1.0, adjoints);
  }

  /**
   * Seeded GMM inputs in ADBench's layout.
   *
   * @param alphas weight logits
   * @param means means
   * @param icf inverse-covariance factors
   * @param x data
   */
  record Gmm(double[] alphas, double[][] means, double[][] icf, double[][] x) {
    /** ADBench's default Wishart {@code γ}. */
    static final double GAMMA = 1.0;

    /** ADBench's default Wishart {@code m}. */
    static final double M = 0.0;

    static Gmm of(int d, int k, int n) {
      Random random = new Random(31L * d + k);
      double[] alphas = ArrayFunctions.gaussian(random, 1, k, 1.0)[0];
      double[][] means = ArrayFunctions.gaussian(random, k, d, 1.0);
      double[][] icf = ArrayFunctions.gaussian(random, k, d + d * (d - 1) / 2, 0.3);
      double[][] x = ArrayFunctions.gaussian(random, n, d, 1.0);
      return new Gmm(alphas, means, icf, x);
    }

    int slots() {
      return alphas.length + ArrayFunctions.slots(means) + ArrayFunctions.slots(icf);
    }
  }
}
