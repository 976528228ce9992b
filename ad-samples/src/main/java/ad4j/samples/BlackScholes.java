package ad4j.samples;

import ad4j.Differentiable;
import java.io.PrintStream;

/**
 * The Black-Scholes price of a European call as a {@code @Differentiable} method, so that one
 * generated reverse sweep gives all five first-order sensitivities (the Greeks); it is
 * {@code @Differentiable(order = 2)}, so that one generated Hessian gives the second-order ones
 * (gamma, vanna, volga) as well.
 *
 * <h2>The normal distribution function</h2>
 *
 * <p>Java has no {@code erf}, so the standard normal distribution function {@code N} is written
 * out here, straight-line, inline twice (for {@code d1} and {@code d2}), which keeps the whole
 * price one straight-line method whose reverse sweep needs no tape. (It could as well be a
 * {@code @Differentiable} helper that the price calls; ad4j differentiates such calls too.) It
 * uses the Chebyshev approximation of the complementary
 * error function of <i>Numerical Recipes</i>, 3rd edition, section 6.2.2 ({@code Erf::erfccheb}),
 * for {@code z >= 0}:
 *
 * <pre>
 *   t = 2 / (2 + z),  ty = 4t - 2,
 *   erfc(z) = t exp(-z² + c0/2 + Σ_{k=1..27} c_k T_k(ty/2)),
 * </pre>
 *
 * <p>with 28 coefficients; its relative error is about {@code 1.2e-16}. (The coefficients here
 * were recomputed in 50-digit arithmetic from that definition; they agree with the book's to all
 * the digits it prints.) The Chebyshev sum is evaluated with Clenshaw's recurrence, unrolled.
 *
 * <p>Negative arguments use {@code N(-d) = 1 - N(d)} without a branch: with the piecewise-constant
 * sign {@code s = copySign(1, d)} (never 0, derivative 0), {@code z = s d / √2 = |d| / √2} and
 * the upper tail {@code q = erfc(z) / 2 = N(-|d|)}, one has
 * {@code N(d) = q + (1 + s)/2 · (1 - 2q)}; this is exact for {@code d < 0} (no cancellation in
 * the lower tail), and differentiates to {@code φ(d)} everywhere, including {@code d = 0}
 * (whereas {@code Math.abs}, whose derivative at 0 is 0, would give 0 there).
 *
 * <p>{@link #cdf(double)} is the same {@code N} in plain Java with a loop, for the closed-form
 * Greeks; it gives bit for bit the same values as the inline version.
 */
public final class BlackScholes {
  private BlackScholes() {}

  /** {@code 1/√2}. */
  private static final double SQRT_HALF = 0.7071067811865476;

  /** {@code 1/√(2π)}. */
  private static final double INV_SQRT_2PI = 0.3989422804014327;

  // Chebyshev coefficients of Numerical Recipes' erfccheb (3rd edition, section 6.2.2).
  private static final double C0 = -1.3026537197817094;
  private static final double C1 = 0.6419697923564902;
  private static final double C2 = 0.019476473204185836;
  private static final double C3 = -0.009561514786808632;
  private static final double C4 = -0.0009465953444820369;
  private static final double C5 = 0.00036683949785276145;
  private static final double C6 = 4.252332480690777e-05;
  private static final double C7 = -2.0278578112534242e-05;
  private static final double C8 = -1.6242900046470256e-06;
  private static final double C9 = 1.3036558355805232e-06;
  private static final double C10 = 1.5626441722066142e-08;
  private static final double C11 = -8.523809591492654e-08;
  private static final double C12 = 6.5290544390988515e-09;
  private static final double C13 = 5.059343495551469e-09;
  private static final double C14 = -9.91364156493033e-10;
  private static final double C15 = -2.273651222931836e-10;
  private static final double C16 = 9.646791102015527e-11;
  private static final double C17 = 2.3940380830391146e-12;
  private static final double C18 = -6.886027526497553e-12;
  private static final double C19 = 8.944879273090725e-13;
  private static final double C20 = 3.130921399342958e-13;
  private static final double C21 = -1.1270822361367252e-13;
  private static final double C22 = 3.810905255189232e-16;
  private static final double C23 = 7.106097613609237e-15;
  private static final double C24 = -1.5230282014571043e-15;
  private static final double C25 = -9.457494571291233e-17;
  private static final double C26 = 1.210237189224279e-16;
  private static final double C27 = -2.816663087747177e-17;

  private static final double[] COEFFICIENTS = {
    C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, C17, C18, C19,
    C20, C21, C22, C23, C24, C25, C26, C27
  };

  /**
   * The price of a European call option in the Black-Scholes model (no dividends):
   * {@code C = S N(d1) - K e^(-rT) N(d2)}, with
   * {@code d1 = (ln(S/K) + (r + σ²/2) T) / (σ √T)} and {@code d2 = d1 - σ √T}.
   *
   * @param spot the price {@code S} of the underlying, {@code > 0}
   * @param strike the strike {@code K}, {@code > 0}
   * @param maturity the time to expiry {@code T} in years, {@code > 0}
   * @param rate the continuously compounded risk-free rate {@code r}
   * @param volatility the volatility {@code σ}, {@code > 0}
   * @return the call price
   */
  @Differentiable(order = 2)
  public static double callPrice(
      double spot, double strike, double maturity, double rate, double volatility) {
    double sqrtT = Math.sqrt(maturity);
    double volSqrtT = volatility * sqrtT;
    double d1 = (Math.log(spot / strike) + (rate + 0.5 * volatility * volatility) * maturity)
        / volSqrtT;
    double d2 = d1 - volSqrtT;

    // N(d1): upper tail q1 = erfc(|d1| / √2) / 2, then reflected for d1 >= 0.
    double s1 = Math.copySign(1.0, d1);
    double z1 = s1 * d1 * SQRT_HALF;
    double t1 = 2 / (2 + z1);
    double ty1 = 4 * t1 - 2;
    double a27 = C27;
    double a26 = ty1 * a27 + C26;
    double a25 = ty1 * a26 - a27 + C25;
    double a24 = ty1 * a25 - a26 + C24;
    double a23 = ty1 * a24 - a25 + C23;
    double a22 = ty1 * a23 - a24 + C22;
    double a21 = ty1 * a22 - a23 + C21;
    double a20 = ty1 * a21 - a22 + C20;
    double a19 = ty1 * a20 - a21 + C19;
    double a18 = ty1 * a19 - a20 + C18;
    double a17 = ty1 * a18 - a19 + C17;
    double a16 = ty1 * a17 - a18 + C16;
    double a15 = ty1 * a16 - a17 + C15;
    double a14 = ty1 * a15 - a16 + C14;
    double a13 = ty1 * a14 - a15 + C13;
    double a12 = ty1 * a13 - a14 + C12;
    double a11 = ty1 * a12 - a13 + C11;
    double a10 = ty1 * a11 - a12 + C10;
    double a9 = ty1 * a10 - a11 + C9;
    double a8 = ty1 * a9 - a10 + C8;
    double a7 = ty1 * a8 - a9 + C7;
    double a6 = ty1 * a7 - a8 + C6;
    double a5 = ty1 * a6 - a7 + C5;
    double a4 = ty1 * a5 - a6 + C4;
    double a3 = ty1 * a4 - a5 + C3;
    double a2 = ty1 * a3 - a4 + C2;
    double a1 = ty1 * a2 - a3 + C1;
    double q1 = 0.5 * (t1 * Math.exp(-z1 * z1 + 0.5 * (C0 + ty1 * a1) - a2));
    double n1 = q1 + (0.5 + 0.5 * s1) * (1 - 2 * q1);

    // N(d2), the same way.
    double s2 = Math.copySign(1.0, d2);
    double z2 = s2 * d2 * SQRT_HALF;
    double t2 = 2 / (2 + z2);
    double ty2 = 4 * t2 - 2;
    double b27 = C27;
    double b26 = ty2 * b27 + C26;
    double b25 = ty2 * b26 - b27 + C25;
    double b24 = ty2 * b25 - b26 + C24;
    double b23 = ty2 * b24 - b25 + C23;
    double b22 = ty2 * b23 - b24 + C22;
    double b21 = ty2 * b22 - b23 + C21;
    double b20 = ty2 * b21 - b22 + C20;
    double b19 = ty2 * b20 - b21 + C19;
    double b18 = ty2 * b19 - b20 + C18;
    double b17 = ty2 * b18 - b19 + C17;
    double b16 = ty2 * b17 - b18 + C16;
    double b15 = ty2 * b16 - b17 + C15;
    double b14 = ty2 * b15 - b16 + C14;
    double b13 = ty2 * b14 - b15 + C13;
    double b12 = ty2 * b13 - b14 + C12;
    double b11 = ty2 * b12 - b13 + C11;
    double b10 = ty2 * b11 - b12 + C10;
    double b9 = ty2 * b10 - b11 + C9;
    double b8 = ty2 * b9 - b10 + C8;
    double b7 = ty2 * b8 - b9 + C7;
    double b6 = ty2 * b7 - b8 + C6;
    double b5 = ty2 * b6 - b7 + C5;
    double b4 = ty2 * b5 - b6 + C4;
    double b3 = ty2 * b4 - b5 + C3;
    double b2 = ty2 * b3 - b4 + C2;
    double b1 = ty2 * b2 - b3 + C1;
    double q2 = 0.5 * (t2 * Math.exp(-z2 * z2 + 0.5 * (C0 + ty2 * b1) - b2));
    double n2 = q2 + (0.5 + 0.5 * s2) * (1 - 2 * q2);

    double discount = Math.exp(-rate * maturity);
    return spot * n1 - strike * discount * n2;
  }

  /**
   * The standard normal distribution function {@code N(x)}, the same straight-line code as
   * inside {@link #callPrice}, as its own {@code @Differentiable} method: its generated
   * derivative must be the density {@code φ(x)}.
   *
   * @param x the argument
   * @return {@code N(x)}
   */
  @Differentiable
  public static double normCdf(double x) {
    double s = Math.copySign(1.0, x);
    double z = s * x * SQRT_HALF;
    double t = 2 / (2 + z);
    double ty = 4 * t - 2;
    double c27 = C27;
    double c26 = ty * c27 + C26;
    double c25 = ty * c26 - c27 + C25;
    double c24 = ty * c25 - c26 + C24;
    double c23 = ty * c24 - c25 + C23;
    double c22 = ty * c23 - c24 + C22;
    double c21 = ty * c22 - c23 + C21;
    double c20 = ty * c21 - c22 + C20;
    double c19 = ty * c20 - c21 + C19;
    double c18 = ty * c19 - c20 + C18;
    double c17 = ty * c18 - c19 + C17;
    double c16 = ty * c17 - c18 + C16;
    double c15 = ty * c16 - c17 + C15;
    double c14 = ty * c15 - c16 + C14;
    double c13 = ty * c14 - c15 + C13;
    double c12 = ty * c13 - c14 + C12;
    double c11 = ty * c12 - c13 + C11;
    double c10 = ty * c11 - c12 + C10;
    double c9 = ty * c10 - c11 + C9;
    double c8 = ty * c9 - c10 + C8;
    double c7 = ty * c8 - c9 + C7;
    double c6 = ty * c7 - c8 + C6;
    double c5 = ty * c6 - c7 + C5;
    double c4 = ty * c5 - c6 + C4;
    double c3 = ty * c4 - c5 + C3;
    double c2 = ty * c3 - c4 + C2;
    double c1 = ty * c2 - c3 + C1;
    double q = 0.5 * (t * Math.exp(-z * z + 0.5 * (C0 + ty * c1) - c2));
    return q + (0.5 + 0.5 * s) * (1 - 2 * q);
  }

  /**
   * {@code N(x)} in plain Java (Clenshaw's recurrence as a loop); bit for bit equal to
   * {@link #normCdf(double)}.
   *
   * @param x the argument
   * @return {@code N(x)}
   */
  public static double cdf(double x) {
    double s = Math.copySign(1.0, x);
    double z = s * x * SQRT_HALF;
    double t = 2 / (2 + z);
    double ty = 4 * t - 2;
    double d = 0;
    double dd = 0;
    for (int j = COEFFICIENTS.length - 1; j > 0; j--) {
      double previous = d;
      d = ty * d - dd + COEFFICIENTS[j];
      dd = previous;
    }
    double q = 0.5 * (t * Math.exp(-z * z + 0.5 * (C0 + ty * d) - dd));
    return q + (0.5 + 0.5 * s) * (1 - 2 * q);
  }

  /**
   * The standard normal density {@code φ(x) = exp(-x²/2) / √(2π)}.
   *
   * @param x the argument
   * @return {@code φ(x)}
   */
  public static double pdf(double x) {
    return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
  }

  /**
   * The price and first-order sensitivities of a call.
   *
   * @param price the call price {@code C}
   * @param delta {@code ∂C/∂S}
   * @param dStrike {@code ∂C/∂K}
   * @param theta {@code -∂C/∂T} (the change as time passes)
   * @param rho {@code ∂C/∂r}
   * @param vega {@code ∂C/∂σ}
   */
  public record Greeks(
      double price, double delta, double dStrike, double theta, double rho, double vega) {

    /**
     * The Greeks from one generated reverse sweep ({@code BlackScholesGrad.callPriceValueAndGradient}).
     *
     * @param s spot
     * @param k strike
     * @param t maturity
     * @param r rate
     * @param sigma volatility
     * @return the Greeks by ad4j
     */
    public static Greeks byAd(double s, double k, double t, double r, double sigma) {
      double[] g = new double[5];
      double price = BlackScholesGrad.callPriceValueAndGradient(s, k, t, r, sigma, g);
      return new Greeks(price, g[0], g[1], -g[2], g[3], g[4]);
    }

    /**
     * The textbook closed-form Greeks, in plain Java with the same {@link #cdf N}:
     * delta {@code N(d1)}, {@code ∂C/∂K = -e^(-rT) N(d2)}, vega {@code S φ(d1) √T},
     * rho {@code K T e^(-rT) N(d2)}, theta {@code -S φ(d1) σ / (2√T) - r K e^(-rT) N(d2)}.
     *
     * @param s spot
     * @param k strike
     * @param t maturity
     * @param r rate
     * @param sigma volatility
     * @return the closed-form Greeks
     */
    public static Greeks closedForm(double s, double k, double t, double r, double sigma) {
      double sqrtT = Math.sqrt(t);
      double d1 = (Math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrtT);
      double d2 = d1 - sigma * sqrtT;
      double discount = Math.exp(-r * t);
      double nd1 = cdf(d1);
      double nd2 = cdf(d2);
      double price = s * nd1 - k * discount * nd2;
      return new Greeks(
          price,
          nd1,
          -discount * nd2,
          -s * pdf(d1) * sigma / (2 * sqrtT) - r * k * discount * nd2,
          k * t * discount * nd2,
          s * pdf(d1) * sqrtT);
    }
  }

  /**
   * The second-order sensitivities to spot and volatility of a call.
   *
   * @param gamma {@code ∂²C/∂S²}
   * @param vanna {@code ∂²C/∂S∂σ}
   * @param volga {@code ∂²C/∂σ²} (also called vomma)
   */
  public record SecondOrderGreeks(double gamma, double vanna, double volga) {

    /** Slot of the spot in the gradient and Hessian of {@link #callPrice}. */
    private static final int SPOT = 0;

    /** Slot of the volatility in the gradient and Hessian of {@link #callPrice}. */
    private static final int VOLATILITY = 4;

    /**
     * Gamma, vanna and volga as three entries of one generated Hessian
     * ({@code BlackScholesGrad.callPriceHessian}, the price being
     * {@code @Differentiable(order = 2)}).
     *
     * @param s spot
     * @param k strike
     * @param t maturity
     * @param r rate
     * @param sigma volatility
     * @return the second-order Greeks by ad4j
     */
    public static SecondOrderGreeks byAd(double s, double k, double t, double r, double sigma) {
      double[][] h = BlackScholesGrad.callPriceHessian(s, k, t, r, sigma);
      return new SecondOrderGreeks(h[SPOT][SPOT], h[SPOT][VOLATILITY],
          h[VOLATILITY][VOLATILITY]);
    }

    /**
     * The textbook closed forms: gamma {@code φ(d1) / (S σ √T)}, vanna {@code -φ(d1) d2 / σ},
     * volga {@code S φ(d1) √T d1 d2 / σ}.
     *
     * @param s spot
     * @param k strike
     * @param t maturity
     * @param r rate
     * @param sigma volatility
     * @return the closed-form second-order Greeks
     */
    public static SecondOrderGreeks closedForm(double s, double k, double t, double r,
        double sigma) {
      double sqrtT = Math.sqrt(t);
      double d1 = (Math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrtT);
      double d2 = d1 - sigma * sqrtT;
      double density = pdf(d1);
      return new SecondOrderGreeks(
          density / (s * sigma * sqrtT),
          -density * d2 / sigma,
          s * density * sqrtT * d1 * d2 / sigma);
    }
  }

  /**
   * Prints the price and Greeks of one call, from ad4j and in closed form.
   *
   * @param out where to print
   */
  public static void print(PrintStream out) {
    double s = 100;
    double k = 95;
    double t = 0.75;
    double r = 0.03;
    double sigma = 0.25;
    out.println("Black-Scholes call, S=100 K=95 T=0.75 r=0.03 sigma=0.25"
        + " (Greeks from ONE reverse sweep, gamma, vanna and volga from ONE callPriceHessian,"
        + " vs closed form)");
    Greeks ad = Greeks.byAd(s, k, t, r, sigma);
    Greeks cf = Greeks.closedForm(s, k, t, r, sigma);
    out.println("           ad4j                 closed form          rel. difference");
    row(out, "price", ad.price(), cf.price());
    row(out, "delta", ad.delta(), cf.delta());
    row(out, "dC/dK", ad.dStrike(), cf.dStrike());
    row(out, "theta", ad.theta(), cf.theta());
    row(out, "rho", ad.rho(), cf.rho());
    row(out, "vega", ad.vega(), cf.vega());
    SecondOrderGreeks ad2 = SecondOrderGreeks.byAd(s, k, t, r, sigma);
    SecondOrderGreeks cf2 = SecondOrderGreeks.closedForm(s, k, t, r, sigma);
    row(out, "gamma", ad2.gamma(), cf2.gamma());
    row(out, "vanna", ad2.vanna(), cf2.vanna());
    row(out, "volga", ad2.volga(), cf2.volga());
  }

  private static void row(PrintStream out, String name, double ad, double closedForm) {
    double difference = Math.abs(ad - closedForm) / Math.max(Math.abs(closedForm), 1e-300);
    out.printf(java.util.Locale.ROOT, "  %-6s  %-20s %-20s %s%n", name, Fmt.num(ad),
        Fmt.num(closedForm), Fmt.err(difference));
  }
}
