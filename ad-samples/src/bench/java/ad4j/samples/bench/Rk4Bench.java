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
 * Lotka-Volterra integrated by explicit RK4 over 1,000 steps, differentiated with respect to its
 * 6 parameters (a, b, c, d, x0, y0), {@link ad4j.samples.ControlFlow#finalPrey}: the generated
 * reverse mode records 16 values per step on {@code ad4j.runtime.internal.Tape} (16,000 per
 * gradient).
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class Rk4Bench {
  /** Number of inputs. */
  static final int N = 6;

  /** Central-difference step, relative: about the cube root of the machine epsilon. */
  static final double H = 6.0e-6;

  double[] p;
  double[] gradient;
  double[] adjoints;
  double[] direction;
  double[] work;
  double[] sensitivities;
  double[] states;
  DSFactory factory;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    p = new double[] {1.1, 0.4, 0.1, 0.4, 10, 10};
    gradient = new double[N];
    adjoints = new double[N];
    direction = new double[N];
    work = p.clone();
    sensitivities = new double[N];
    states = new double[2 * HandWritten.STEPS];
    factory = new DSFactory(N, 1);
  }

  /** The function itself. */
  @Benchmark
  public double primal() {
    return ControlFlow.finalPrey(p[0], p[1], p[2], p[3], p[4], p[5]);
  }

  /** Value and full gradient by one reverse sweep (generated). */
  @Benchmark
  public double reverseValueAndGradient() {
    return ControlFlowGrad.finalPreyValueAndGradient(p[0], p[1], p[2], p[3], p[4], p[5],
        gradient);
  }

  /** Value and seed times the gradient, accumulated (generated). */
  @Benchmark
  public double reversePullback() {
    return ControlFlowGrad.finalPreyPullback(p[0], p[1], p[2], p[3], p[4], p[5], 1.0,
        adjoints);
  }

  /** Full gradient by N forward sweeps (generated tangent, unit directions). */
  @Benchmark
  public double[] forwardTangents() {
    double[] d = direction;
    for (int i = 0; i < N; i++) {
      d[i] = 1;
      gradient[i] = ControlFlowGrad.finalPreyTangent(p[0], p[1], p[2], p[3], p[4], p[5],
          d[0], d[1], d[2], d[3], d[4], d[5]);
      d[i] = 0;
    }
    return gradient;
  }

  /**
   * Value and gradient, hand-written as forward sensitivities: RK4 applied to the state and its
   * 2×6 Jacobian with respect to the parameters in one pass (not a hand-written reverse mode).
   */
  @Benchmark
  public double handWritten() {
    return HandWritten.finalPrey(p[0], p[1], p[2], p[3], p[4], p[5], gradient,
        sensitivities);
  }

  /**
   * Value and gradient by a hand-written discrete adjoint: the states of the steps stored, the
   * stages computed again in the reverse sweep (the least a reverse mode records).
   */
  @Benchmark
  public double handWrittenAdjoint() {
    return HandWritten.finalPreyAdjoint(p[0], p[1], p[2], p[3], p[4], p[5], gradient, states);
  }

  /** Full gradient by central finite differences (2N evaluations). */
  @Benchmark
  public double[] finiteDifferences() {
    double[] x = work;
    for (int i = 0; i < N; i++) {
      double xi = x[i];
      double h = H * Math.max(1, Math.abs(xi));
      x[i] = xi + h;
      double plus = ControlFlow.finalPrey(x[0], x[1], x[2], x[3], x[4], x[5]);
      x[i] = xi - h;
      double minus = ControlFlow.finalPrey(x[0], x[1], x[2], x[3], x[4], x[5]);
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
    return HipparchusFunctions.finalPrey(v[0], v[1], v[2], v[3], v[4], v[5]).getGradient();
  }

  /** Value and gradient with Hipparchus' {@code DerivativeStructure} of order 1. */
  @Benchmark
  public double[] hipparchusDerivativeStructure() {
    DerivativeStructure[] v = new DerivativeStructure[N];
    for (int i = 0; i < N; i++) {
      v[i] = factory.variable(i, p[i]);
    }
    return HipparchusFunctions.finalPrey(v[0], v[1], v[2], v[3], v[4], v[5]).getAllDerivatives();
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
    handWrittenAdjoint();
    out.add("handWrittenAdjoint");
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
