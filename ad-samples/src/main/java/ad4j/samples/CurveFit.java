package ad4j.samples;

import ad4j.Differentiable;
import ad4j.NoDerivative;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Random;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresBuilder;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresOptimizer;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresProblem;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LevenbergMarquardtOptimizer;
import org.hipparchus.optim.nonlinear.vector.leastsquares.MultivariateJacobianFunction;
import org.hipparchus.util.Pair;

/**
 * Curve fitting by Levenberg–Marquardt: Hipparchus' least-squares optimizer fed by the
 * generated {@code modelValueAndJacobian} of a vector function. The model is a damped
 * oscillation {@code y(t) = a e^{-b t} cos(ω t) + c} with four parameters; its values at all
 * sample times are one {@code double[]} result, and its {@code n × 4} Jacobian comes from one
 * call, by four forward sweeps (fewer slots than rows).
 */
public final class CurveFit {
  private CurveFit() {}

  /** The parameters the data were made with: a, b, ω, c. */
  static final double[] TRUE_PARAMETERS = {2.5, 0.8, 3.0, 0.4};

  /**
   * The model at every sample time.
   *
   * @param p the parameters {@code {a, b, ω, c}}
   * @param t the sample times (data: no derivative)
   * @return {@code y(t_i)} for each time
   */
  @Differentiable
  public static double[] model(double[] p, @NoDerivative double[] t) {
    double[] y = new double[t.length];
    for (int i = 0; i < t.length; i++) {
      y[i] = p[0] * Math.exp(-p[1] * t[i]) * Math.cos(p[2] * t[i]) + p[3];
    }
    return y;
  }

  /** Sample times 0, 0.05, ..., 4.95. */
  static double[] times() {
    double[] t = new double[100];
    for (int i = 0; i < t.length; i++) {
      t[i] = 0.05 * i;
    }
    return t;
  }

  /** The model at the true parameters plus Gaussian noise of standard deviation 0.05, seeded. */
  static double[] observations(double[] t) {
    double[] y = model(TRUE_PARAMETERS, t);
    Random noise = new Random(42);
    for (int i = 0; i < y.length; i++) {
      y[i] += 0.05 * noise.nextGaussian();
    }
    return y;
  }

  /**
   * Fits the model to {@code y} from {@code start} with Levenberg–Marquardt.
   *
   * @param t the sample times
   * @param y the observations
   * @param start the first guess of the parameters
   * @return the optimum
   */
  static LeastSquaresOptimizer.Optimum fit(double[] t, double[] y, double[] start) {
    MultivariateJacobianFunction valueAndJacobian = point -> {
      double[][] jacobian = new double[t.length][4];
      double[] value = CurveFitGrad.modelValueAndJacobian(point.toArray(), t, jacobian);
      return new Pair<>(new ArrayRealVector(value, false),
          new Array2DRowRealMatrix(jacobian, false));
    };
    LeastSquaresProblem problem = new LeastSquaresBuilder()
        .start(start)
        .model(valueAndJacobian)
        .target(y)
        .maxEvaluations(1000)
        .maxIterations(1000)
        .build();
    return new LevenbergMarquardtOptimizer().optimize(problem);
  }

  /**
   * Prints the fit next to the parameters the data were made with.
   *
   * @param out where to print
   */
  public static void print(PrintStream out) {
    double[] t = times();
    double[] y = observations(t);
    double[] start = {1, 0.3, 2.5, 0};
    LeastSquaresOptimizer.Optimum optimum = fit(t, y, start);
    double[] fitted = optimum.getPoint().toArray();
    out.println("Curve fitting by Levenberg-Marquardt (Hipparchus) with the generated Jacobian");
    out.println("  y(t) = a exp(-b t) cos(w t) + c, 100 noisy samples (sd 0.05)");
    out.println("  start  " + fmt(start));
    out.println("  fitted " + fmt(fitted) + " in " + optimum.getIterations() + " iterations, "
        + optimum.getEvaluations() + " evaluations; RMS residual "
        + String.format(Locale.ROOT, "%.4f", optimum.getRMS()));
    out.println("  true   " + fmt(TRUE_PARAMETERS));
    out.println("  the 100 x 4 Jacobian of each step: CurveFitGrad.modelValueAndJacobian,"
        + " four forward sweeps");
  }

  private static String fmt(double[] p) {
    return String.format(Locale.ROOT, "a = %.4f, b = %.4f, w = %.4f, c = %.4f", p[0], p[1],
        p[2], p[3]);
  }
}
