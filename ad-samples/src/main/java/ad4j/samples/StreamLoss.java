package ad4j.samples;

import ad4j.Differentiable;
import ad4j.NoDerivative;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A least-squares loss written with streams, beside the same loss written as loops: ad4j lowers
 * {@code IntStream.range(...).mapToDouble(...)} and {@code Arrays.stream(...).map(...)} to the
 * loops they are, so both gradients are plain code. The stream version's value is the stream's
 * own, bit for bit: {@code sum()} is the JDK's compensated sum, which the generated code
 * computes as the stream does.
 */
public final class StreamLoss {
  private StreamLoss() {}

  /**
   * The mean squared error of the line {@code a + b t} over the points {@code (t[i], y[i])},
   * plus {@code penalty} times the squared coefficients, written with streams.
   *
   * @param a the intercept
   * @param b the slope
   * @param t the abscissas
   * @param y the observations
   * @param penalty the weight of the ridge penalty
   * @return the loss
   */
  @Differentiable
  public static double withStreams(double a, double b, @NoDerivative double[] t,
      @NoDerivative double[] y, double penalty) {
    double mse = IntStream.range(0, t.length)
        .mapToDouble(i -> (a + b * t[i] - y[i]) * (a + b * t[i] - y[i]))
        .average().orElse(0);
    double ridge = Arrays.stream(new double[] {a, b}).map(c -> c * c).sum();
    return mse + penalty * ridge;
  }

  /**
   * {@link #withStreams} written as loops (its sums are plain ones, not compensated).
   *
   * @param a the intercept
   * @param b the slope
   * @param t the abscissas
   * @param y the observations
   * @param penalty the weight of the ridge penalty
   * @return the loss
   */
  @Differentiable
  public static double withLoops(double a, double b, @NoDerivative double[] t,
      @NoDerivative double[] y, double penalty) {
    double sum = 0;
    for (int i = 0; i < t.length; i++) {
      double r = a + b * t[i] - y[i];
      sum += r * r;
    }
    double mse = t.length == 0 ? 0 : sum / t.length;
    return mse + penalty * (a * a + b * b);
  }

  /**
   * The gradient of the exact loss: {@code 2 mean(r) + 2 penalty a},
   * {@code 2 mean(r t) + 2 penalty b}, {@code a^2 + b^2} with {@code r = a + b t - y}.
   *
   * @param a the intercept
   * @param b the slope
   * @param t the abscissas
   * @param y the observations
   * @param penalty the weight of the ridge penalty
   * @return {@code {d/da, d/db, d/dpenalty}}
   */
  static double[] exactGradient(double a, double b, double[] t, double[] y, double penalty) {
    double meanR = 0;
    double meanRt = 0;
    for (int i = 0; i < t.length; i++) {
      double r = a + b * t[i] - y[i];
      meanR += r / t.length;
      meanRt += r * t[i] / t.length;
    }
    return new double[] {2 * meanR + 2 * penalty * a, 2 * meanRt + 2 * penalty * b,
        a * a + b * b};
  }

  /** Some noisy points near the line {@code 1 + 2 t}. */
  static final double[] T = {0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0};
  static final double[] Y = {1.1, 1.9, 3.2, 3.9, 5.1, 5.8, 7.2};

  /**
   * Prints both versions' gradients at one point.
   *
   * @param out where to print
   */
  static void print(PrintStream out) {
    double a = 0.7;
    double b = 1.6;
    double penalty = 0.1;
    out.println("Least squares with streams and with loops: d/da, d/db, d/dpenalty at a = "
        + Fmt.num(a) + ", b = " + Fmt.num(b) + ", penalty = " + Fmt.num(penalty));
    out.println("  streams " + Fmt.vec(StreamLossGrad.withStreamsGradient(a, b, T, Y, penalty))
        + ", loops " + Fmt.vec(StreamLossGrad.withLoopsGradient(a, b, T, Y, penalty)));
  }
}
