package ad4j.samples;

import ad4j.DerivativeOf;
import ad4j.Differentiable;
import java.io.PrintStream;
import org.hipparchus.distribution.continuous.NormalDistribution;
import org.hipparchus.special.Erf;

/**
 * Black-Scholes with the normal distribution function from a library: {@code N(d) =
 * erfc(-d/√2) / 2} with Hipparchus' {@link Erf#erfc(double)}, whose body ad4j never reads.
 * One {@code @DerivativeOf} rule gives its derivative in closed form,
 * {@code erfc'(x) = -2/√π · exp(-x²)}, so that the chain rule gives {@code N'(d) = φ(d)}, as the
 * hand-written Greeks use it; compare {@link BlackScholes}, where ad4j differentiates a
 * 27-term erfc approximation written out in the method.
 *
 * <p>{@link #callPriceNormal} takes {@code N} from a {@link NormalDistribution} object instead:
 * an instance method as target, whose rule takes the receiver first.
 */
public final class BlackScholesErf {
  private BlackScholesErf() {}

  /** {@code 1/√2}. */
  private static final double SQRT_HALF = 0.7071067811865476;

  /** {@code 2/√π}. */
  private static final double TWO_OVER_SQRT_PI = 1.1283791670955126;

  /**
   * The derivative of Hipparchus' {@code Erf.erfc}: {@code -2/√π · exp(-x²)}.
   *
   * @param x the argument
   * @return {@code erfc'(x)}
   */
  @DerivativeOf(owner = Erf.class, value = "erfc")
  static double erfcDerivative(double x) {
    return -TWO_OVER_SQRT_PI * Math.exp(-x * x);
  }

  /** The standard normal distribution. */
  static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(0, 1);

  /**
   * The derivative of a normal distribution's distribution function: its density.
   *
   * @param distribution the distribution
   * @param x the argument
   * @return the density at {@code x}
   */
  @DerivativeOf(owner = NormalDistribution.class, value = "cumulativeProbability")
  static double cdfDerivative(NormalDistribution distribution, double x) {
    return distribution.density(x);
  }

  /**
   * The price of a European call with {@code N} from Hipparchus' {@link NormalDistribution}.
   *
   * @param spot the price {@code S} of the underlying, {@code > 0}
   * @param strike the strike {@code K}, {@code > 0}
   * @param maturity the time to expiry {@code T} in years, {@code > 0}
   * @param rate the continuously compounded risk-free rate {@code r}
   * @param volatility the volatility {@code σ}, {@code > 0}
   * @return the call price
   */
  @Differentiable
  public static double callPriceNormal(
      double spot, double strike, double maturity, double rate, double volatility) {
    double volSqrtT = volatility * Math.sqrt(maturity);
    double d1 = (Math.log(spot / strike) + (rate + 0.5 * volatility * volatility) * maturity)
        / volSqrtT;
    double d2 = d1 - volSqrtT;
    return spot * STANDARD_NORMAL.cumulativeProbability(d1)
        - strike * Math.exp(-rate * maturity) * STANDARD_NORMAL.cumulativeProbability(d2);
  }

  /**
   * The price of a European call, as {@link BlackScholes#callPrice}, with
   * {@code N(d) = erfc(-d/√2) / 2} from Hipparchus.
   *
   * @param spot the price {@code S} of the underlying, {@code > 0}
   * @param strike the strike {@code K}, {@code > 0}
   * @param maturity the time to expiry {@code T} in years, {@code > 0}
   * @param rate the continuously compounded risk-free rate {@code r}
   * @param volatility the volatility {@code σ}, {@code > 0}
   * @return the call price
   */
  @Differentiable
  public static double callPrice(
      double spot, double strike, double maturity, double rate, double volatility) {
    double sqrtT = Math.sqrt(maturity);
    double volSqrtT = volatility * sqrtT;
    double d1 = (Math.log(spot / strike) + (rate + 0.5 * volatility * volatility) * maturity)
        / volSqrtT;
    double d2 = d1 - volSqrtT;
    double n1 = 0.5 * Erf.erfc(-d1 * SQRT_HALF);
    double n2 = 0.5 * Erf.erfc(-d2 * SQRT_HALF);
    return spot * n1 - strike * Math.exp(-rate * maturity) * n2;
  }

  /**
   * {@code N(x) = erfc(-x/√2) / 2}, as the price computes it.
   *
   * @param x the argument
   * @return {@code N(x)}
   */
  public static double cdf(double x) {
    return 0.5 * Erf.erfc(-x * SQRT_HALF);
  }

  /**
   * The Greeks from one generated reverse sweep ({@code BlackScholesErfGrad}).
   *
   * @param s spot
   * @param k strike
   * @param t maturity
   * @param r rate
   * @param sigma volatility
   * @return price and Greeks by ad4j
   */
  public static BlackScholes.Greeks byAd(double s, double k, double t, double r, double sigma) {
    double[] g = new double[5];
    double price = BlackScholesErfGrad.callPriceValueAndGradient(s, k, t, r, sigma, g);
    return new BlackScholes.Greeks(price, g[0], g[1], -g[2], g[3], g[4]);
  }

  /**
   * The textbook closed-form Greeks with this class's {@link #cdf N} and
   * {@link BlackScholes#pdf φ}: what one writes by hand.
   *
   * @param s spot
   * @param k strike
   * @param t maturity
   * @param r rate
   * @param sigma volatility
   * @return price and closed-form Greeks
   */
  public static BlackScholes.Greeks closedForm(double s, double k, double t, double r,
      double sigma) {
    double sqrtT = Math.sqrt(t);
    double d1 = (Math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrtT);
    double d2 = d1 - sigma * sqrtT;
    double discount = Math.exp(-r * t);
    double nd1 = cdf(d1);
    double nd2 = cdf(d2);
    double phi1 = BlackScholes.pdf(d1);
    return new BlackScholes.Greeks(
        s * nd1 - k * discount * nd2,
        nd1,
        -discount * nd2,
        -s * phi1 * sigma / (2 * sqrtT) - r * k * discount * nd2,
        k * t * discount * nd2,
        s * phi1 * sqrtT);
  }

  /**
   * Prints the Greeks of one call from ad4j, and how far they are from the closed form.
   *
   * @param out where to print
   */
  public static void print(PrintStream out) {
    BlackScholes.Greeks ad = byAd(100, 95, 0.75, 0.03, 0.25);
    BlackScholes.Greeks cf = closedForm(100, 95, 0.75, 0.03, 0.25);
    double[] a = {ad.price(), ad.delta(), ad.dStrike(), ad.theta(), ad.rho(), ad.vega()};
    double[] c = {cf.price(), cf.delta(), cf.dStrike(), cf.theta(), cf.rho(), cf.vega()};
    double worst = 0;
    for (int i = 0; i < a.length; i++) {
      worst = Math.max(worst, Math.abs(a[i] - c[i]) / Math.abs(c[i]));
    }
    out.println("Black-Scholes with Hipparchus' Erf.erfc, its derivative by a @DerivativeOf rule:");
    out.println("  price " + Fmt.num(ad.price()) + ", delta " + Fmt.num(ad.delta()) + ", vega "
        + Fmt.num(ad.vega()) + "; largest rel. difference from the closed form " + Fmt.err(worst));
  }
}
