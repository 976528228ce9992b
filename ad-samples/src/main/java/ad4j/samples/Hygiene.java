package ad4j.samples;

import ad4j.Differentiable;

/**
 * Methods whose names would clash with the generated code if the processor were careless:
 * parameters called {@code gradient}, {@code seed} and {@code adjoints} (the names of the
 * generated methods' own parameters), locals named like generated temporaries ({@code t1},
 * {@code xDot}, {@code xBar}, {@code result}, ...), reassigned parameters and compound
 * assignments.
 */
public final class Hygiene {
  private Hygiene() {}

  /**
   * Parameters named like the generated methods' array and seed parameters.
   *
   * @param gradient first input
   * @param seed second input
   * @param adjoints third input
   * @return {@code gradient² seed + sin(adjoints) seed}
   */
  @Differentiable
  public static double parameters(double gradient, double seed, double adjoints) {
    return gradient * gradient * seed + Math.sin(adjoints) * seed;
  }

  /**
   * Locals named like the generated temporaries, tangents and adjoints.
   *
   * @param x first input
   * @param a second input
   * @return a combination, see the source
   */
  @Differentiable
  public static double locals(double x, double a) {
    double t1 = x * a;
    double t2 = Math.exp(t1);
    double xDot = t2 + x;
    double xBar = xDot * a;
    double aBar = xBar - t1;
    double result = aBar * aBar;
    double gradient2 = result + t2;
    return gradient2;
  }

  /**
   * Parameters named like generated locals: {@code result}, {@code t1}, {@code xBar},
   * {@code resultDot}.
   *
   * @param result first input
   * @param t1 second input
   * @param xBar third input
   * @param resultDot fourth input
   * @return {@code result t1 + xBar / resultDot}
   */
  @Differentiable
  public static double generatedNames(double result, double t1, double xBar, double resultDot) {
    double t2 = result * t1;
    return t2 + xBar / resultDot;
  }

  /**
   * Reassigned parameters and every compound assignment.
   *
   * @param x first input
   * @param y second input
   * @return see the source
   */
  @Differentiable
  public static double reassigned(double x, double y) {
    x = x * y;
    y += x;
    x *= y;
    y -= 0.5 * x;
    x /= y * y + 3;
    return x + y;
  }

  /**
   * The gradient of {@link #reassigned}, by a hand-written reverse sweep.
   *
   * @param x first input
   * @param y second input
   * @return the gradient
   */
  public static double[] reassignedAnalyticGradient(double x, double y) {
    double a = x * y;          // x1
    double b = y + a;          // y1
    double c = a * b;          // x2
    double d = b - 0.5 * c;    // y2
    double den = d * d + 3;
    double e = c / den;        // x3; result = e + d
    double eBar = 1;
    double dBar = 1 - eBar * e / den * 2 * d;
    double cBar = eBar / den - 0.5 * dBar;
    double bBar = dBar + cBar * a;
    double aBar = cBar * b + bBar;
    return new double[] {aBar * y, aBar * x + bBar};
  }
}
