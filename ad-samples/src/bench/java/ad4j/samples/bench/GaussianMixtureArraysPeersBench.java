package ad4j.samples.bench;

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
 * The ADBench GMM objective with array inputs at d = 2, K = 5 on 1,000 points (30 inputs),
 * with the peers that are too slow for the larger sizes of {@link GaussianMixtureArraysBench}:
 * forward mode (N tangents), central finite differences, Hipparchus' {@code Gradient}.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class GaussianMixtureArraysPeersBench {
  /** Dimension. */
  static final int D = 2;

  /** Components. */
  static final int K = 5;

  double[] alphas;
  double[][] means;
  double[][] icf;
  double[][] x;
  double gamma;
  double m;
  double constant;
  double[] gradient;
  double[] adjoints;
  double[] alphasDot;
  double[][] meansDot;
  double[][] icfDot;
  int slots;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    GaussianMixtureArraysBench.Gmm g = GaussianMixtureArraysBench.Gmm.of(D, K,
        GaussianMixtureArraysBench.POINTS);
    alphas = g.alphas();
    means = g.means();
    icf = g.icf();
    x = g.x();
    gamma = GaussianMixtureArraysBench.Gmm.GAMMA;
    m = GaussianMixtureArraysBench.Gmm.M;
    constant = GaussianMixtureArrays.wishartConstant(D, gamma, m);
    slots = g.slots();
    gradient = new double[slots];
    adjoints = new double[slots];
    alphasDot = new double[K];
    meansDot = new double[K][D];
    icfDot = new double[K][icf[0].length];
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

  /** Value and seed times the gradient, accumulated (generated). */
  @Benchmark
  public double reversePullback() {
    return GaussianMixtureArraysGrad.objectivePullback(alphas, means, icf, x, gamma, m,
        constant, 1.0, adjoints);
  }

  /** Full gradient by N forward sweeps (generated tangent, unit directions). */
  @Benchmark
  public double[] forwardTangents() {
    int slot = 0;
    for (double[] row : new double[][] {alphasDot}) {
      slot = unitSweeps(row, slot);
    }
    for (double[] row : meansDot) {
      slot = unitSweeps(row, slot);
    }
    for (double[] row : icfDot) {
      slot = unitSweeps(row, slot);
    }
    return gradient;
  }

  private int unitSweeps(double[] row, int slot) {
    for (int j = 0; j < row.length; j++) {
      row[j] = 1;
      gradient[slot++] = GaussianMixtureArraysGrad.objectiveTangent(alphas, means, icf, x, gamma,
          m, constant, alphasDot, meansDot, icfDot);
      row[j] = 0;
    }
    return slot;
  }

  /** Full gradient by central finite differences (2N evaluations). */
  @Benchmark
  public double[] finiteDifferences() {
    double[][] rows = new double[1 + means.length + icf.length][];
    rows[0] = alphas;
    System.arraycopy(means, 0, rows, 1, means.length);
    System.arraycopy(icf, 0, rows, 1 + means.length, icf.length);
    return ArrayFunctions.finiteDifferences(
        () -> GaussianMixtureArrays.objective(alphas, means, icf, x, gamma, m, constant),
        gradient, rows);
  }

  /** Value and gradient with Hipparchus' {@code Gradient} (N free parameters). */
  @Benchmark
  public double[] hipparchusGradient() {
    Gradient[] a = ArrayFunctions.variables(new double[][] {alphas}, 0, slots)[0];
    Gradient[][] mu = ArrayFunctions.variables(means, K, slots);
    Gradient[][] q = ArrayFunctions.variables(icf, K + K * D, slots);
    return ArrayFunctions.gmm(a, mu, q, x, gamma, m, constant).getGradient();
  }

  /**
   * The gradients of all variants at the benchmark point, for {@link CrossCheck}.
   *
   * @return name and gradient, pairs
   */
  Object[] gradients() {
    java.util.List<Object> out = new java.util.ArrayList<>();
    if (Double.doubleToRawLongBits(reverseValueAndGradient())
        != Double.doubleToRawLongBits(primal())) {
      throw new AssertionError("GaussianMixtureArrays: values differ");
    }
    out.add("reverseValueAndGradient");
    out.add(gradient.clone());
    java.util.Arrays.fill(adjoints, 0);
    reversePullback();
    out.add("reversePullback");
    out.add(adjoints.clone());
    double[] byHand = new double[slots];
    double value = HandWritten.gmmValueAndGradient(alphas, means, icf, x, gamma, m, constant,
        byHand);
    if (Math.abs(value - primal()) > 1e-12 * Math.abs(primal())) {
      throw new AssertionError("GaussianMixtureArrays: hand-written value " + value);
    }
    out.add("handWritten");
    out.add(byHand);
    out.add("forwardTangents");
    out.add(forwardTangents().clone());
    out.add("finiteDifferences");
    out.add(finiteDifferences().clone());
    out.add("hipparchusGradient");
    out.add(hipparchusGradient());
    return out.toArray();
  }
}
