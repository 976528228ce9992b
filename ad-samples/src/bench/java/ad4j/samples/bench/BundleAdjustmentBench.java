package ad4j.samples.bench;


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
 * The ADBench bundle-adjustment reprojection residual (15 inputs, 2 outputs as two methods,
 * {@link BundleAdjustment#residualU} and {@link BundleAdjustment#residualV}, and as one vector
 * function, {@link BundleAdjustment#residual}) and its 2×15 Jacobian.
 *
 * <p>Inputs come from non-final state fields; every result is returned (JMH consumes it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BundleAdjustmentBench {
  /** Number of inputs. */
  static final int N = 15;

  /** Central-difference step, relative: about the cube root of the machine epsilon. */
  static final double H = 6.0e-6;

  double[] p;
  double[] gradient;
  double[] adjoints;
  double[] direction;
  double[] work;
  DSFactory factory;
  double[] jacobianU;
  double[] jacobianV;
  double[] adjointsV;
  double[] camera;
  double[] point;
  double weight;
  double[][] jacobian;
  double[] seed;
  double[] cameraDirection;
  double[] pointDirection;

  /** Fills the inputs. */
  @Setup
  public void setup() {
    p = BundleAdjustment.POINT.clone();
    gradient = new double[N];
    adjoints = new double[N];
    direction = new double[N];
    work = p.clone();
    factory = new DSFactory(N, 1);
    jacobianU = new double[N];
    jacobianV = new double[N];
    adjointsV = new double[N];
    camera = java.util.Arrays.copyOfRange(p, 0, 11);
    point = java.util.Arrays.copyOfRange(p, 11, 14);
    weight = p[14];
    jacobian = new double[2][N];
    seed = new double[2];
    cameraDirection = new double[11];
    pointDirection = new double[3];
  }

  /** The residual as one vector function ({@link BundleAdjustment#residual}). */
  @Benchmark
  public double[] vectorPrimal() {
    return BundleAdjustment.residual(camera, point, weight);
  }

  /**
   * Its value and 2 × 15 Jacobian from one generated call, which chooses 2 reverse sweeps over
   * 15 forward ones.
   */
  @Benchmark
  public double[] vectorValueAndJacobian() {
    return BundleAdjustmentGrad.residualValueAndJacobian(camera, point, weight, jacobian);
  }

  /**
   * Its 2 × 15 Jacobian from one {@code residualJacobian} call, which computes the value first
   * to size the new matrix, then takes the two reverse sweeps after one forward sweep.
   */
  @Benchmark
  public double[][] vectorJacobian() {
    return BundleAdjustmentGrad.residualJacobian(camera, point, weight);
  }

  /**
   * Its value and 2 × 15 Jacobian written by hand ({@link HandWritten#bundleValueAndJacobian}):
   * one forward pass, then one reverse pass per row, with the rows' shared partials computed
   * once.
   */
  @Benchmark
  public double[] handWrittenValueAndJacobian() {
    return HandWritten.bundleValueAndJacobian(camera, point, weight, jacobian);
  }

  /** The same Jacobian by the generated vector-Jacobian product, once per row (reverse mode). */
  @Benchmark
  public double[][] jacobianByPullbacks() {
    for (int i = 0; i < 2; i++) {
      java.util.Arrays.fill(jacobian[i], 0);
      seed[i] = 1;
      BundleAdjustmentGrad.residualPullback(camera, point, weight, seed, jacobian[i]);
      seed[i] = 0;
    }
    return jacobian;
  }

  /**
   * The same Jacobian by the generated Jacobian-vector product, once per column (forward mode,
   * the mode {@code residualJacobian} would choose for a function with more outputs than inputs).
   */
  @Benchmark
  public double[][] jacobianByTangents() {
    for (int j = 0; j < N; j++) {
      double wDot = 0;
      if (j < 11) {
        cameraDirection[j] = 1;
      } else if (j < 14) {
        pointDirection[j - 11] = 1;
      } else {
        wDot = 1;
      }
      double[] column = BundleAdjustmentGrad.residualTangent(camera, point, weight,
          cameraDirection, pointDirection, wDot);
      jacobian[0][j] = column[0];
      jacobian[1][j] = column[1];
      if (j < 11) {
        cameraDirection[j] = 0;
      } else if (j < 14) {
        pointDirection[j - 11] = 0;
      }
    }
    return jacobian;
  }

  /** Both residual components. */
  @Benchmark
  public double primal() {
    return BundleAdjustment.residualU(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9],
        p[10], p[11], p[12], p[13], p[14])
        + BundleAdjustment.residualV(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9],
        p[10], p[11], p[12], p[13], p[14]);
  }

  /** The Jacobian by 2 reverse sweeps (generated valueAndGradient of both components). */
  @Benchmark
  public double reverseValueAndGradient() {
    return BundleAdjustmentGrad.residualUValueAndGradient(p[0], p[1], p[2], p[3], p[4], p[5],
        p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13], p[14], jacobianU)
        + BundleAdjustmentGrad.residualVValueAndGradient(p[0], p[1], p[2], p[3], p[4], p[5],
        p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13], p[14], jacobianV);
  }

  /** Both components through their pullbacks, seed 1 (generated). */
  @Benchmark
  public double reversePullback() {
    return BundleAdjustmentGrad.residualUPullback(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
        p[8], p[9], p[10], p[11], p[12], p[13], p[14], 1.0, adjoints)
        + BundleAdjustmentGrad.residualVPullback(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7],
        p[8], p[9], p[10], p[11], p[12], p[13], p[14], 1.0, adjointsV);
  }

  /** The Jacobian by 15 forward sweeps (unit directions), each through both components. */
  @Benchmark
  public double[] forwardTangents() {
    double[] d = direction;
    for (int i = 0; i < N; i++) {
      d[i] = 1;
      jacobianU[i] = BundleAdjustmentGrad.residualUTangent(p[0], p[1], p[2], p[3], p[4], p[5],
          p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13], p[14], d[0], d[1], d[2], d[3], d[4],
          d[5], d[6], d[7], d[8], d[9], d[10], d[11], d[12], d[13], d[14]);
      jacobianV[i] = BundleAdjustmentGrad.residualVTangent(p[0], p[1], p[2], p[3], p[4], p[5],
          p[6], p[7], p[8], p[9], p[10], p[11], p[12], p[13], p[14], d[0], d[1], d[2], d[3], d[4],
          d[5], d[6], d[7], d[8], d[9], d[10], d[11], d[12], d[13], d[14]);
      d[i] = 0;
    }
    return jacobianV;
  }

  /** The Jacobian by central finite differences (2 × 15 evaluations of both components). */
  @Benchmark
  public double[] finiteDifferences() {
    double[] x = work;
    for (int i = 0; i < N; i++) {
      double xi = x[i];
      double h = H * Math.max(1, Math.abs(xi));
      x[i] = xi + h;
      double plusU = BundleAdjustment.residualU(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7],
          x[8], x[9], x[10], x[11], x[12], x[13], x[14]);
      double plusV = BundleAdjustment.residualV(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7],
          x[8], x[9], x[10], x[11], x[12], x[13], x[14]);
      x[i] = xi - h;
      double minusU = BundleAdjustment.residualU(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7],
          x[8], x[9], x[10], x[11], x[12], x[13], x[14]);
      double minusV = BundleAdjustment.residualV(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7],
          x[8], x[9], x[10], x[11], x[12], x[13], x[14]);
      x[i] = xi;
      jacobianU[i] = (plusU - minusU) / (2 * h);
      jacobianV[i] = (plusV - minusV) / (2 * h);
    }
    return jacobianV;
  }

  /** The Jacobian with Hipparchus' {@code Gradient} (15 free parameters, one pass). */
  @Benchmark
  public Gradient[] hipparchusGradient() {
    Gradient[] v = new Gradient[N];
    for (int i = 0; i < N; i++) {
      v[i] = Gradient.variable(N, i, p[i]);
    }
    Gradient[] residual = new Gradient[2];
    HipparchusFunctions.bundleAdjustment(v, residual);
    return residual;
  }

  /** The Jacobian with Hipparchus' {@code DerivativeStructure} of order 1 (one pass). */
  @Benchmark
  public DerivativeStructure[] hipparchusDerivativeStructure() {
    DerivativeStructure[] v = new DerivativeStructure[N];
    for (int i = 0; i < N; i++) {
      v[i] = factory.variable(i, p[i]);
    }
    DerivativeStructure[] residual = new DerivativeStructure[2];
    HipparchusFunctions.bundleAdjustment(v, residual);
    return residual;
  }

  private static double[] concat(double[] a, double[] b) {
    double[] r = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  /**
   * The Jacobians (row U then row V) of all variants at the benchmark point, for
   * {@link CrossCheck}.
   *
   * @return name and Jacobian, pairs
   */
  Object[] gradients() {
    java.util.List<Object> out = new java.util.ArrayList<>();
    reverseValueAndGradient();
    out.add("reverseValueAndGradient");
    out.add(concat(jacobianU, jacobianV));
    java.util.Arrays.fill(adjoints, 0);
    java.util.Arrays.fill(adjointsV, 0);
    reversePullback();
    out.add("reversePullback");
    out.add(concat(adjoints, adjointsV));
    forwardTangents();
    out.add("forwardTangents");
    out.add(concat(jacobianU, jacobianV));
    finiteDifferences();
    out.add("finiteDifferences");
    out.add(concat(jacobianU, jacobianV));
    Gradient[] g = hipparchusGradient();
    out.add("hipparchusGradient");
    out.add(concat(g[0].getGradient(), g[1].getGradient()));
    vectorValueAndJacobian();
    out.add("vectorValueAndJacobian");
    out.add(concat(jacobian[0], jacobian[1]));
    handWrittenValueAndJacobian();
    out.add("handWrittenValueAndJacobian");
    out.add(concat(jacobian[0], jacobian[1]));
    double[][] allocated = vectorJacobian();
    out.add("vectorJacobian");
    out.add(concat(allocated[0], allocated[1]));
    jacobianByPullbacks();
    out.add("jacobianByPullbacks");
    out.add(concat(jacobian[0], jacobian[1]));
    jacobianByTangents();
    out.add("jacobianByTangents");
    out.add(concat(jacobian[0], jacobian[1]));
    DerivativeStructure[] ds = hipparchusDerivativeStructure();
    out.add("hipparchusDerivativeStructure");
    out.add(concat(java.util.Arrays.copyOfRange(ds[0].getAllDerivatives(), 1, N + 1),
        java.util.Arrays.copyOfRange(ds[1].getAllDerivatives(), 1, N + 1)));
    return out.toArray();
  }
}
