package ad4j.samples.bench;

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
 * The Jacobian of a dense layer ({@link DenseLayer#layer}, 16 outputs, 560 slots): by one
 * {@code layerValueAndJacobian} call, which takes 16 reverse sweeps, and by 16 pullbacks, each
 * of which runs the forward sweep too.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DenseLayerBench {
  double[][] w;
  double[] b;
  double[] x;
  double[][] jacobian;
  double[] seed;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    Random random = new Random(20261127);
    w = new double[DenseLayer.OUTPUTS][DenseLayer.INPUTS];
    for (double[] row : w) {
      for (int j = 0; j < row.length; j++) {
        row[j] = random.nextGaussian() / Math.sqrt(DenseLayer.INPUTS);
      }
    }
    b = new double[DenseLayer.OUTPUTS];
    for (int i = 0; i < b.length; i++) {
      b[i] = 0.1 * random.nextGaussian();
    }
    x = new double[DenseLayer.INPUTS];
    for (int j = 0; j < x.length; j++) {
      x[j] = random.nextGaussian();
    }
    int slots = DenseLayer.OUTPUTS * DenseLayer.INPUTS + DenseLayer.OUTPUTS + DenseLayer.INPUTS;
    jacobian = new double[DenseLayer.OUTPUTS][slots];
    seed = new double[DenseLayer.OUTPUTS];
  }

  /** The layer itself (makes its result). */
  @Benchmark
  public double[] vectorPrimal() {
    return DenseLayer.layer(w, b, x);
  }

  /** Its value and 16 × 560 Jacobian from one generated call. */
  @Benchmark
  public double[] vectorValueAndJacobian() {
    return DenseLayerGrad.layerValueAndJacobian(w, b, x, jacobian);
  }

  /** The same Jacobian by the generated vector-Jacobian product, once per row. */
  @Benchmark
  public double[][] jacobianByPullbacks() {
    for (int i = 0; i < seed.length; i++) {
      java.util.Arrays.fill(jacobian[i], 0);
      seed[i] = 1;
      DenseLayerGrad.layerPullback(w, b, x, seed, jacobian[i]);
      seed[i] = 0;
    }
    return jacobian;
  }
}
