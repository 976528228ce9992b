package ad4j.samples.bench;

import ad4j.samples.BlackScholesErf;
import ad4j.samples.BlackScholesErfGrad;
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
 * The Black-Scholes call price with Hipparchus' {@code Erf.erfc} and a {@code @DerivativeOf}
 * rule for it (5 inputs), {@link ad4j.samples.BlackScholesErf#callPrice}: the generated gradient
 * against the closed-form Greeks, which use the same {@code φ}.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BlackScholesErfBench {
  /** Number of inputs. */
  static final int N = 5;

  /** Central-difference step, relative: about the cube root of the machine epsilon. */
  static final double H = 6.0e-6;

  double[] p;
  double[] gradient;
  double[] adjoints;
  double[] direction;
  double[] work;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    p = new double[] {100, 95, 0.75, 0.03, 0.25};
    gradient = new double[N];
    adjoints = new double[N];
    direction = new double[N];
    work = p.clone();
  }

  /** The function itself. */
  @Benchmark
  public double primal() {
    return BlackScholesErf.callPrice(p[0], p[1], p[2], p[3], p[4]);
  }

  /** Value and full gradient by one reverse sweep (generated). */
  @Benchmark
  public double reverseValueAndGradient() {
    return BlackScholesErfGrad.callPriceValueAndGradient(p[0], p[1], p[2], p[3], p[4],
        gradient);
  }

  /** Value and seed times the gradient, accumulated (generated). */
  @Benchmark
  public double reversePullback() {
    return BlackScholesErfGrad.callPricePullback(p[0], p[1], p[2], p[3], p[4], 1.0, adjoints);
  }

  /** Full gradient by N forward sweeps (generated tangent, unit directions). */
  @Benchmark
  public double[] forwardTangents() {
    double[] d = direction;
    for (int i = 0; i < N; i++) {
      d[i] = 1;
      gradient[i] = BlackScholesErfGrad.callPriceTangent(p[0], p[1], p[2], p[3], p[4], d[0],
          d[1], d[2], d[3], d[4]);
      d[i] = 0;
    }
    return gradient;
  }

  /** Value and gradient, hand-written (closed-form Greeks with the same N and φ). */
  @Benchmark
  public double handWritten() {
    return HandWritten.callPriceErf(p[0], p[1], p[2], p[3], p[4], gradient);
  }

  /** Full gradient by central finite differences (2N evaluations). */
  @Benchmark
  public double[] finiteDifferences() {
    double[] x = work;
    for (int i = 0; i < N; i++) {
      double xi = x[i];
      double h = H * Math.max(1, Math.abs(xi));
      x[i] = xi + h;
      double plus = BlackScholesErf.callPrice(x[0], x[1], x[2], x[3], x[4]);
      x[i] = xi - h;
      double minus = BlackScholesErf.callPrice(x[0], x[1], x[2], x[3], x[4]);
      x[i] = xi;
      gradient[i] = (plus - minus) / (2 * h);
    }
    return gradient;
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
    return out.toArray();
  }
}
