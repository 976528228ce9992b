package ad4j.samples.bench;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.hipparchus.analysis.differentiation.DSFactory;
import org.hipparchus.analysis.differentiation.DerivativeStructure;
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
 * The full Hessian of {@link ExtendedRosenbrock#value} at {@code n} = 10, 30 and 100: the
 * generated {@code mHessian} ({@code n} forward-over-reverse sweeps) against Hipparchus'
 * {@code DerivativeStructure} of order 2 (all first and second derivatives in one evaluation,
 * {@code (n + 1)(n + 2)/2} numbers per intermediate value) and against central differences of
 * the generated gradient ({@code 2n} reverse sweeps); the function and its gradient for scale.
 * The error of the differences is measured outside the timed code, by {@link SecondOrderCheck}.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 *
 * <p>The forks run on a fixed heap, touched before the run: {@code mHessian} at n = 100 makes
 * an 80 KB matrix per call, and in a JVM whose young generation is larger than what a fork
 * allocates, no collection ever recycles it, so every call writes memory the process never
 * touched before and pays the operating system's first-touch faults (about 290 µs a call
 * instead of 35 µs, in some forks or all of them; the differences allocate nothing and never
 * paid it). A long-running program's heap is touched; this measures that case.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
public class HessianBench {
  /** Central-difference step of the gradient, relative: about the cube root of epsilon. */
  static final double H = 6.0e-6;

  /** Number of variables. */
  @Param({"10", "30", "100"})
  int n;

  double[] x;
  double[] work;
  double[] gradient;
  double[] plus;
  double[] minus;
  double[][] differences;
  DSFactory factory;

  /** A seeded point near the minimum (1, ..., 1), where the Hessian is far from constant. */
  @Setup
  public void setup() {
    Random random = new Random(n);
    x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = 1 + 0.5 * random.nextGaussian();
    }
    work = x.clone();
    gradient = new double[n];
    plus = new double[n];
    minus = new double[n];
    differences = new double[n][n];
    factory = new DSFactory(n, 2);
  }

  /** The function itself. */
  @Benchmark
  public double primal() {
    return ExtendedRosenbrock.value(x);
  }

  /** Value and gradient by one reverse sweep (generated). */
  @Benchmark
  public double reverseValueAndGradient() {
    return ExtendedRosenbrockGrad.valueValueAndGradient(x, gradient);
  }

  /** The full Hessian, a new matrix (generated {@code mHessian}). */
  @Benchmark
  public double[][] hessian() {
    return ExtendedRosenbrockGrad.valueHessian(x);
  }

  /**
   * The full Hessian by central differences of the generated gradient: column {@code j} is
   * {@code (g(x + h e_j) − g(x − h e_j)) / 2h}, {@code 2n} calls of {@code mValueAndGradient}.
   */
  @Benchmark
  public double[][] finiteDifferenceHessian() {
    double[] p = work;
    for (int j = 0; j < n; j++) {
      double xj = p[j];
      double h = H * Math.max(1, Math.abs(xj));
      p[j] = xj + h;
      ExtendedRosenbrockGrad.valueValueAndGradient(p, plus);
      p[j] = xj - h;
      ExtendedRosenbrockGrad.valueValueAndGradient(p, minus);
      p[j] = xj;
      for (int i = 0; i < n; i++) {
        differences[i][j] = (plus[i] - minus[i]) / (2 * h);
      }
    }
    return differences;
  }

  /**
   * Value, gradient and Hessian with Hipparchus' {@code DerivativeStructure} of order 2 (all of
   * them in one array, in Hipparchus' order).
   */
  @Benchmark
  public double[] hipparchusDerivativeStructure() {
    DerivativeStructure[] v = new DerivativeStructure[n];
    for (int i = 0; i < n; i++) {
      v[i] = factory.variable(i, x[i]);
    }
    return HipparchusFunctions.extendedRosenbrock(v).getAllDerivatives();
  }

  /**
   * The Hessian from Hipparchus, as a matrix, for {@link SecondOrderCheck}.
   *
   * @return the Hessian by {@code DerivativeStructure}
   */
  double[][] hipparchusHessian() {
    DerivativeStructure[] v = new DerivativeStructure[n];
    for (int i = 0; i < n; i++) {
      v[i] = factory.variable(i, x[i]);
    }
    DerivativeStructure f = HipparchusFunctions.extendedRosenbrock(v);
    double[][] h = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        int[] orders = new int[n];
        orders[i]++;
        orders[j]++;
        h[i][j] = f.getPartialDerivative(orders);
      }
    }
    return h;
  }
}
