package ad4j.samples;

import ad4j.Differentiable;
import java.io.PrintStream;

/**
 * Worked examples of introductory texts on automatic differentiation (intermediate variables,
 * straight-line programs, shared subexpressions, forward versus reverse mode), written as
 * {@code @Differentiable} methods; the "Seed" numbers below name the texts they come from. {@link #print(PrintStream)} shows, for each, the value, the
 * gradient from the generated reverse mode and a tangent from the generated forward mode, next
 * to the derivatives worked out by hand in the documents.
 */
public final class SeedExamples {
  private SeedExamples() {}

  /**
   * Seed 000, "Intermediate Variables": {@code y = sin(x1 x2) + exp(x2)}, evaluated there at
   * {@code (2, 3)}.
   *
   * @param x1 first input
   * @param x2 second input
   * @return {@code sin(x1 x2) + exp(x2)}
   */
  @Differentiable
  public static double f(double x1, double x2) {
    double v3 = x1 * x2;
    double v4 = Math.sin(v3);
    double v5 = Math.exp(x2);
    return v4 + v5;
  }

  /**
   * Seed 001, "Straight-Line Programs": {@code y = sin(x1 x2) + x1}, whose forward sweep with
   * seed {@code (1, 0)} gives {@code ∂y/∂x1 = x2 cos(x1 x2) + 1}.
   *
   * @param x1 first input
   * @param x2 second input
   * @return {@code sin(x1 x2) + x1}
   */
  @Differentiable
  public static double g(double x1, double x2) {
    double v3 = x1 * x2;
    double v4 = Math.sin(v3);
    return v4 + x1;
  }

  /**
   * Seed 000, "Common Subexpressions": {@code sin(x x) + cos(x x)} with {@code x x} computed
   * once, so that its adjoint receives two contributions.
   *
   * @param x the input
   * @return {@code sin(x²) + cos(x²)}
   */
  @Differentiable
  public static double sharedSquare(double x) {
    double v2 = x * x;
    return Math.sin(v2) + Math.cos(v2);
  }

  /**
   * Seed 000, "Single Assignment Form": {@code v = x; v = v * v; v = v + 1}, a program that
   * overwrites its variable.
   *
   * @param x the input
   * @return {@code x² + 1}
   */
  @Differentiable
  public static double overwritten(double x) {
    double v = x;
    v = v * v;
    v = v + 1;
    return v;
  }

  /**
   * Seed 004, "What differentiable programming means": {@code f(t) = t² + t + 1}, with
   * {@code df(5) = 11} ("Symbolic: 11", "Automatic: 11") and {@code df(3) = 7}.
   *
   * @param t the input
   * @return {@code t² + t + 1}
   */
  @Differentiable
  public static double poly(double t) {
    return t * t + t + 1.0;
  }

  /**
   * Seed 004, forward versus reverse mode: {@code f(x, y) = x y}, whose partial derivatives at
   * {@code (3, 2)} are {@code (2, 3)}.
   *
   * @param x first input
   * @param y second input
   * @return {@code x y}
   */
  @Differentiable
  public static double product(double x, double y) {
    return x * y;
  }

  /**
   * Seed 004, {@code f_sharing}: {@code s = x y; s + s}; at {@code (3, 2)} the trace is
   * {@code s = 2x + 3y} and the gradient {@code (4, 6)}.
   *
   * @param x first input
   * @param y second input
   * @return {@code 2 x y}
   */
  @Differentiable
  public static double sharing(double x, double y) {
    double s = x * y;
    return s + s;
  }

  /**
   * Seed 002 (a small autograd package): {@code x = 2; y = sin(x); z = x + y}, so
   * {@code dz/dx = 1 + cos(x)}.
   *
   * @param x the input
   * @return {@code x + sin(x)}
   */
  @Differentiable
  public static double xPlusSin(double x) {
    double y = Math.sin(x);
    return x + y;
  }

  /**
   * Seed 002: the function {@code f(x) = 7x + 3}, whose constants carry no derivative.
   *
   * @param x the input
   * @return {@code 7x + 3}
   */
  @Differentiable
  public static double affine(double x) {
    return 7 * x + 3;
  }

  /**
   * Seed 004, {@code f_2out}, first output: {@code y = sin(x) sin(x); y + 10 x}.
   *
   * @param x the input
   * @return {@code sin²(x) + 10 x}
   */
  @Differentiable
  public static double twoOutFirst(double x) {
    double y = Math.sin(x) * Math.sin(x);
    return y + x * 10.0;
  }

  /**
   * Seed 004, {@code f_2out}, second output: {@code y = sin(x) sin(x); x + 20 y}.
   *
   * @param x the input
   * @return {@code x + 20 sin²(x)}
   */
  @Differentiable
  public static double twoOutSecond(double x) {
    double y = Math.sin(x) * Math.sin(x);
    return x + y * 20.0;
  }

  /**
   * The gradient of {@link #f} worked out by hand: {@code (x2 cos(x1 x2), x1 cos(x1 x2) + exp(x2))}.
   *
   * @param x1 first input
   * @param x2 second input
   * @return the analytic gradient
   */
  public static double[] fAnalyticGradient(double x1, double x2) {
    double c = Math.cos(x1 * x2);
    return new double[] {x2 * c, x1 * c + Math.exp(x2)};
  }

  /**
   * The gradient of {@link #g} worked out by hand: {@code (x2 cos(x1 x2) + 1, x1 cos(x1 x2))}.
   *
   * @param x1 first input
   * @param x2 second input
   * @return the analytic gradient
   */
  public static double[] gAnalyticGradient(double x1, double x2) {
    double c = Math.cos(x1 * x2);
    return new double[] {x2 * c + 1, x1 * c};
  }

  /**
   * Prints every example: value, reverse-mode gradient, a forward-mode tangent, and the analytic
   * derivatives.
   *
   * @param out where to print
   */
  public static void print(PrintStream out) {
    out.println("Both modes on y = sin(x1*x2) + exp(x2) at (x1, x2) = (2, 3):");
    double[] gf = new double[2];
    double yf = SeedExamplesGrad.fValueAndGradient(2, 3, gf);
    out.println("  value    " + Fmt.num(yf) + "   analytic sin(6) + exp(3) = "
        + Fmt.num(Math.sin(6) + Math.exp(3)));
    out.println("  gradient " + Fmt.vec(gf) + "   analytic (x2 cos(x1x2), x1 cos(x1x2) + e^x2) = "
        + Fmt.vec(fAnalyticGradient(2, 3)));
    out.println("  tangent along (1, 1)  " + Fmt.num(SeedExamplesGrad.fTangent(2, 3, 1, 1))
        + "   analytic sum of partials = " + Fmt.num(sum(fAnalyticGradient(2, 3))));

    out.println("Forward mode seeded along x1 on y = sin(x1*x2) + x1 at (x1, x2) = (2, 3):");
    double[] gg = new double[2];
    double yg = SeedExamplesGrad.gValueAndGradient(2, 3, gg);
    out.println("  value    " + Fmt.num(yg) + "   analytic sin(6) + 2 = " + Fmt.num(Math.sin(6) + 2));
    out.println("  gradient " + Fmt.vec(gg) + "   analytic (x2 cos(x1x2) + 1, x1 cos(x1x2)) = "
        + Fmt.vec(gAnalyticGradient(2, 3)));
    out.println("  tangent seeded (1, 0) " + Fmt.num(SeedExamplesGrad.gTangent(2, 3, 1, 0))
        + "   analytic dy/dx1 = x2 cos(x1x2) + 1 = " + Fmt.num(3 * Math.cos(6) + 1));

    out.println("Smaller examples (ad4j gradient | analytic):");
    out.printf(java.util.Locale.ROOT, "  polynomial t^2+t+1                      df(5) = %s, df(3) = %s | 2t+1 = 11, 7%n",
        Fmt.num(SeedExamplesGrad.polyGradient(5)[0]), Fmt.num(SeedExamplesGrad.polyTangent(3, 1)));
    out.printf(java.util.Locale.ROOT, "  product x*y at (3,2)                    %s | (y, x) = (2, 3)%n",
        Fmt.vec(SeedExamplesGrad.productGradient(3, 2)));
    out.printf(java.util.Locale.ROOT, "  value used twice, s=x*y; s+s (3,2)      %s | (2y, 2x) = (4, 6)%n",
        Fmt.vec(SeedExamplesGrad.sharingGradient(3, 2)));
    out.printf(java.util.Locale.ROOT, "  two outputs of one trace at x=1         %s, %s | 2 sin cos + 10, 1 + 40 sin cos = %s, %s%n",
        Fmt.num(SeedExamplesGrad.twoOutFirstTangent(1, 1)),
        Fmt.num(SeedExamplesGrad.twoOutSecondTangent(1, 1)),
        Fmt.num(Math.sin(2) + 10), Fmt.num(1 + 20 * Math.sin(2)));
    out.printf(java.util.Locale.ROOT, "  z = x + sin(x) at 2                     %s | 1 + cos(2) = %s%n",
        Fmt.num(SeedExamplesGrad.xPlusSinGradient(2)[0]), Fmt.num(1 + Math.cos(2)));
    out.printf(java.util.Locale.ROOT, "  constants carry no derivative, 7x+3     %s | 7%n",
        Fmt.num(SeedExamplesGrad.affineGradient(4)[0]));
    out.printf(java.util.Locale.ROOT, "  common subexpression sin(x*x)+cos(x*x)  %s | 2x (cos x^2 - sin x^2) at 0.7 = %s%n",
        Fmt.num(SeedExamplesGrad.sharedSquareGradient(0.7)[0]),
        Fmt.num(1.4 * (Math.cos(0.49) - Math.sin(0.49))));
    out.printf(java.util.Locale.ROOT, "  reassigned variable v=x; v=v*v; v=v+1   %s | 2x at 1.5 = 3%n",
        Fmt.num(SeedExamplesGrad.overwrittenGradient(1.5)[0]));
  }

  private static double sum(double[] values) {
    double s = 0;
    for (double v : values) {
      s += v;
    }
    return s;
  }
}
