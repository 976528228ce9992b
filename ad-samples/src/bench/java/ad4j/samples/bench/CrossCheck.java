package ad4j.samples.bench;

import java.util.Locale;

/**
 * Checks that every benchmark variant computes the same derivatives: prints, per function and
 * variant, the largest difference to the generated reverse-mode gradient, relative to the
 * largest gradient entry. Finite differences agree to about 1e-8; the others to rounding.
 */
public final class CrossCheck {
  private CrossCheck() {}

  /**
   * Runs the check.
   *
   * @param args unused
   */
  public static void main(String[] args) {
    check("Rosenbrock", rosenbrock());
    check("Beale", beale());
    check("GoldsteinPrice", goldsteinPrice());
    check("BlackScholes", blackScholes());
    check("BlackScholesErf", blackScholesErf());
    check("LogisticLoss", logistic());
    check("BundleAdjustment", bundle());
    check("GaussianMixture", mixture());
    check("Chain500", chain());
    check("Horner", horner());
    check("Rk4", rk4());
    check("LogisticRegression", logisticRegression());
    check("GmmArrays", gmmArrays());
    check("MlpBinary", mlpBinary());
    check("MlpSoftmax", mlpSoftmax());
    RecursiveCallsBench calls = new RecursiveCallsBench();
    calls.setup();
    check("Nested1000", calls.nestedGradients());
    check("HelperLoop100", calls.helperLoopGradients());
  }

  private static Object[] rosenbrock() {
    RosenbrockBench b = new RosenbrockBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] beale() {
    BealeBench b = new BealeBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] goldsteinPrice() {
    GoldsteinPriceBench b = new GoldsteinPriceBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] blackScholes() {
    BlackScholesBench b = new BlackScholesBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] blackScholesErf() {
    BlackScholesErfBench b = new BlackScholesErfBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] logistic() {
    LogisticLossBench b = new LogisticLossBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] bundle() {
    BundleAdjustmentBench b = new BundleAdjustmentBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] mixture() {
    GaussianMixtureBench b = new GaussianMixtureBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] chain() {
    ChainBench b = new ChainBench();
    b.setup();
    System.out.println("Chain500 value " + b.primal());
    return b.gradients();
  }

  private static Object[] horner() {
    HornerBench b = new HornerBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] rk4() {
    Rk4Bench b = new Rk4Bench();
    b.setup();
    return b.gradients();
  }

  private static Object[] logisticRegression() {
    LogisticRegressionBench b = new LogisticRegressionBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] gmmArrays() {
    GaussianMixtureArraysPeersBench b = new GaussianMixtureArraysPeersBench();
    b.setup();
    return b.gradients();
  }

  private static Object[] mlpBinary() {
    MlpBench.Binary b = new MlpBench.Binary();
    b.setup();
    return b.gradients();
  }

  private static Object[] mlpSoftmax() {
    MlpBench.Softmax b = new MlpBench.Softmax();
    b.setup();
    return b.gradients();
  }

  private static void check(String name, Object[] pairs) {
    double[] reference = (double[]) pairs[1];
    double scale = 0;
    for (double v : reference) {
      scale = Math.max(scale, Math.abs(v));
    }
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-17s", name));
    for (int i = 2; i < pairs.length; i += 2) {
      double[] g = (double[]) pairs[i + 1];
      double worst = 0;
      for (int j = 0; j < reference.length; j++) {
        worst = Math.max(worst, Math.abs(g[j] - reference[j]) / scale);
      }
      line.append(String.format(Locale.ROOT, "  %s %.1e", pairs[i], worst));
    }
    System.out.println(line);
    if (!(scale > 0) || !Double.isFinite(scale)) {
      throw new AssertionError(name + ": gradient not finite: " + scale);
    }
  }
}
