package ad4j.samples.bench;

import ad4j.samples.ControlFlow;
import ad4j.samples.ControlFlowGrad;
import java.util.concurrent.TimeUnit;
import org.hipparchus.analysis.differentiation.DSFactory;
import org.hipparchus.analysis.differentiation.DerivativeStructure;
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
 * Horner's scheme for a degree-100 polynomial in a loop (1 input),
 * {@link ad4j.samples.ControlFlow#horner}: the generated reverse mode records one value per
 * iteration on {@code ad4j.runtime.internal.Tape}.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HornerBench {
  /** Number of inputs. */
  static final int N = 1;

  /** Central-difference step, relative: about the cube root of the machine epsilon. */
  static final double H = 6.0e-6;

  double[] p;
  double[] gradient;
  double[] adjoints;
  double[] direction;
  double[] work;
  DSFactory factory;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    p = new double[] {0.9};
    gradient = new double[N];
    adjoints = new double[N];
    direction = new double[N];
    work = p.clone();
    factory = new DSFactory(N, 1);
  }

  /** The function itself. */
  @Benchmark
  public double primal() {
    return ControlFlow.horner(p[0]);
  }

  /** Value and full gradient by one reverse sweep (generated). */
  @Benchmark
  public double reverseValueAndGradient() {
    return ControlFlowGrad.hornerValueAndGradient(p[0], gradient);
  }

  /** Value and seed times the gradient, accumulated (generated). */
  @Benchmark
  public double reversePullback() {
    return ControlFlowGrad.hornerPullback(p[0], 1.0, adjoints);
  }

  /** Full gradient by N forward sweeps (generated tangent, unit directions). */
  @Benchmark
  public double[] forwardTangents() {
    double[] d = direction;
    for (int i = 0; i < N; i++) {
      d[i] = 1;
      gradient[i] = ControlFlowGrad.hornerTangent(p[0], d[0]);
      d[i] = 0;
    }
    return gradient;
  }

  /** Value and derivative, hand-written: the simultaneous recurrence p' = p' x + p. */
  @Benchmark
  public double handWritten() {
    return HandWritten.horner(p[0], gradient);
  }

  /** Full gradient by central finite differences (2N evaluations). */
  @Benchmark
  public double[] finiteDifferences() {
    double[] x = work;
    for (int i = 0; i < N; i++) {
      double xi = x[i];
      double h = H * Math.max(1, Math.abs(xi));
      x[i] = xi + h;
      double plus = ControlFlow.horner(x[0]);
      x[i] = xi - h;
      double minus = ControlFlow.horner(x[0]);
      x[i] = xi;
      gradient[i] = (plus - minus) / (2 * h);
    }
    return gradient;
  }

  /** Value and gradient with Hipparchus' {@code Gradient} (N free parameters). */
  @Benchmark
  public double[] hipparchusGradient() {
    Gradient[] v = new Gradient[N];
    for (int i = 0; i < N; i++) {
      v[i] = Gradient.variable(N, i, p[i]);
    }
    return HipparchusFunctions.horner(v[0]).getGradient();
  }

  /** Value and gradient with Hipparchus' {@code DerivativeStructure} of order 1. */
  @Benchmark
  public double[] hipparchusDerivativeStructure() {
    DerivativeStructure[] v = new DerivativeStructure[N];
    for (int i = 0; i < N; i++) {
      v[i] = factory.variable(i, p[i]);
    }
    return HipparchusFunctions.horner(v[0]).getAllDerivatives();
  }

  /**
   * The gradients of all variants at the benchmark point, for {@link CrossCheck}.
   *
   * @return name and gradient, pairs
   */
  Object[] gradients() {
    java.util.List<Object> out = new java.util.ArrayList<>();
    reverseValueAndGradient();
    out.add("reverseValueAndGradient");
    out.add(gradient.clone());
    java.util.Arrays.fill(adjoints, 0);
    reversePullback();
    out.add("reversePullback");
    out.add(adjoints.clone());
    out.add("forwardTangents");
    out.add(forwardTangents().clone());
    handWritten();
    out.add("handWritten");
    out.add(gradient.clone());
    out.add("finiteDifferences");
    out.add(finiteDifferences().clone());
    out.add("hipparchusGradient");
    out.add(hipparchusGradient());
    out.add("hipparchusDerivativeStructure");
    out.add(java.util.Arrays.copyOfRange(hipparchusDerivativeStructure(), 1, N + 1));
    return out.toArray();
  }
}
