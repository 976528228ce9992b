package ad4j.samples.bench;

import ad4j.samples.BlackScholesGrad;
import ad4j.samples.LogisticRegressionGrad;
import ad4j.samples.NewtonRosenbrockGrad;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Checks the second-order benchmarks before they are timed, and measures what the timed code
 * cannot: for {@link HessianBench}, the largest difference of Hipparchus' Hessian and of the
 * finite-difference Hessian to the generated one, relative to the Hessian's largest entry; for
 * {@link HessianVectorBench}, the largest difference of each {@code mHessianVector} to
 * {@code mHessian} times the same direction. Prints them and, given a path, writes them as JSON
 * for the benchmark report.
 */
public final class SecondOrderCheck {
  private SecondOrderCheck() {}

  /** Hipparchus and the generated Hessian are both exact up to rounding. */
  private static final double EXACT = 1e-12;

  /** Central differences of the gradient with a step of 6e-6: truncation and rounding. */
  private static final double DIFFERENCES = 1e-5;

  /**
   * Runs the checks.
   *
   * @param args optionally, the JSON file to write
   * @throws IOException if the file cannot be written
   */
  public static void main(String[] args) throws IOException {
    StringBuilder json = new StringBuilder("{\"hessian\": {");
    String separator = "";
    for (int n : new int[] {10, 30, 100}) {
      HessianBench b = new HessianBench();
      b.n = n;
      b.setup();
      double[][] generated = b.hessian();
      double hipparchus = relativeDifference(b.hipparchusHessian(), generated);
      double differences = relativeDifference(b.finiteDifferenceHessian(), generated);
      System.out.printf(Locale.ROOT, "ExtendedRosenbrock n=%-3d  Hipparchus DS %.1e  "
          + "finite differences of the gradient %.1e%n", n, hipparchus, differences);
      require(hipparchus <= EXACT, "Hipparchus Hessian, n = " + n, hipparchus);
      require(differences <= DIFFERENCES, "finite-difference Hessian, n = " + n, differences);
      json.append(String.format(Locale.ROOT, "%s\"%d\": {\"hipparchus\": %.3e, "
          + "\"finiteDifferences\": %.3e}", separator, n, hipparchus, differences));
      separator = ", ";
    }
    json.append("}, \"hessianVector\": {");
    HessianVectorBench v = new HessianVectorBench();
    v.setup();
    double[] rosenbrock = v.rosenbrock;
    double[] call = v.call;
    GaussianMixtureArraysBench.Gmm g = v.gmm;
    double[] differences = {
      productDifference(v.rosenbrockHessianVector(), NewtonRosenbrockGrad.valueHessian(
          rosenbrock[0], rosenbrock[1]), v.rosenbrockDirection),
      productDifference(v.blackScholesHessianVector(), BlackScholesGrad.callPriceHessian(
          call[0], call[1], call[2], call[3], call[4]), v.callDirection),
      productDifference(v.logisticRegressionHessianVector(), LogisticRegressionGrad.lossHessian(
          v.w, v.bias[0], v.x, v.y), v.logisticDirection),
      productDifference(v.gmmHessianVector(), GaussianMixtureArraysGrad.objectiveHessian(
          g.alphas(), g.means(), g.icf(), g.x(), v.gamma, v.m, v.constant), v.gmmDirection),
    };
    String[] names = {"rosenbrock", "blackScholes", "logisticRegression", "gmm"};
    for (int i = 0; i < names.length; i++) {
      double difference = differences[i];
      System.out.printf(Locale.ROOT, "%-18s  mHessianVector vs mHessian times v %.1e%n",
          names[i], difference);
      require(difference <= EXACT, names[i] + " Hessian-vector product", difference);
      json.append(String.format(Locale.ROOT, "%s\"%s\": %.3e", i == 0 ? "" : ", ", names[i],
          difference));
    }
    json.append("}}\n");
    if (args.length > 0) {
      Files.writeString(Path.of(args[0]), json, StandardCharsets.UTF_8);
    }
  }

  private static void require(boolean ok, String what, double difference) {
    if (!ok) {
      throw new AssertionError(what + " differs from the generated one by " + difference);
    }
  }

  /** max |a − b| / max |b|. */
  private static double relativeDifference(double[][] a, double[][] b) {
    double worst = 0;
    double scale = 0;
    for (int i = 0; i < b.length; i++) {
      for (int j = 0; j < b.length; j++) {
        worst = Math.max(worst, Math.abs(a[i][j] - b[i][j]));
        scale = Math.max(scale, Math.abs(b[i][j]));
      }
    }
    return worst / scale;
  }

  /** max |hv − H v| / max |H v|. */
  private static double productDifference(double[] hv, double[][] h, double[] v) {
    double worst = 0;
    double scale = 0;
    for (int i = 0; i < h.length; i++) {
      double product = 0;
      for (int j = 0; j < h.length; j++) {
        product += h[i][j] * v[j];
      }
      worst = Math.max(worst, Math.abs(hv[i] - product));
      scale = Math.max(scale, Math.abs(product));
    }
    return worst / scale;
  }
}
