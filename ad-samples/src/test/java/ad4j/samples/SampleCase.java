package ad4j.samples;

import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * One {@code @Differentiable} sample method with its four generated members, adapted to arrays so
 * that the same property tests run over all of them.
 *
 * @param gradClass simple name of the generated class
 * @param method name of the user's method
 * @param arity number of parameters
 * @param user the user's own method
 * @param gradient the generated {@code mGradient}
 * @param valueAndGradient the generated {@code mValueAndGradient}
 * @param tangent the generated {@code mTangent}
 * @param pullback the generated {@code mPullback}
 * @param analytic the gradient worked out by hand
 * @param points draws a point of the function's domain
 */
record SampleCase(
    String gradClass,
    String method,
    int arity,
    ToDoubleFunction<double[]> user,
    Function<double[], double[]> gradient,
    ValueAndGradient valueAndGradient,
    Tangent tangent,
    Pullback pullback,
    Function<double[], double[]> analytic,
    Function<Random, double[]> points) {

  /** {@code mValueAndGradient} on arrays. */
  interface ValueAndGradient {
    double apply(double[] x, double[] gradient);
  }

  /** {@code mTangent} on arrays. */
  interface Tangent {
    double apply(double[] x, double[] direction);
  }

  /** {@code mPullback} on arrays. */
  interface Pullback {
    double apply(double[] x, double seed, double[] adjoints);
  }

  @Override
  public String toString() {
    return gradClass + "." + method + "/" + arity;
  }

  /** Uniform coordinates in {@code [lo, hi]}. */
  static Function<Random, double[]> uniform(int n, double lo, double hi) {
    return r -> {
      double[] x = new double[n];
      for (int i = 0; i < n; i++) {
        x[i] = lo + (hi - lo) * r.nextDouble();
      }
      return x;
    };
  }

  /** Coordinates with magnitude in {@code [lo, hi]} and a random sign. */
  static Function<Random, double[]> awayFromZero(int n, double lo, double hi) {
    return r -> {
      double[] x = uniform(n, lo, hi).apply(r);
      for (int i = 0; i < n; i++) {
        x[i] = r.nextBoolean() ? x[i] : -x[i];
      }
      return x;
    };
  }

  static double[] v(double... values) {
    return values;
  }

  /** The derivative of {@code sum x^k / (k + 1)}, term by term. */
  static double hornerDerivative(double x) {
    double sum = 0;
    for (int k = 1; k <= 100; k++) {
      sum += k * Math.pow(x, k - 1) / (k + 1);
    }
    return sum;
  }

  /** All sample methods of the module. */
  static List<SampleCase> all() {
    return List.of(
        new SampleCase("ControlFlowGrad", "newtonSqrt", 1,
            p -> ControlFlow.newtonSqrt(p[0]),
            p -> ControlFlowGrad.newtonSqrtGradient(p[0]),
            (p, g) -> ControlFlowGrad.newtonSqrtValueAndGradient(p[0], g),
            (p, d) -> ControlFlowGrad.newtonSqrtTangent(p[0], d[0]),
            (p, s, a) -> ControlFlowGrad.newtonSqrtPullback(p[0], s, a),
            p -> v(0.5 / Math.sqrt(p[0])),
            uniform(1, 0.1, 100)),
        new SampleCase("ControlFlowGrad", "horner", 1,
            p -> ControlFlow.horner(p[0]),
            p -> ControlFlowGrad.hornerGradient(p[0]),
            (p, g) -> ControlFlowGrad.hornerValueAndGradient(p[0], g),
            (p, d) -> ControlFlowGrad.hornerTangent(p[0], d[0]),
            (p, s, a) -> ControlFlowGrad.hornerPullback(p[0], s, a),
            p -> v(hornerDerivative(p[0])),
            uniform(1, -0.9, 0.9)),
        new SampleCase("SeedExamplesGrad", "f", 2,
            p -> SeedExamples.f(p[0], p[1]),
            p -> SeedExamplesGrad.fGradient(p[0], p[1]),
            (p, g) -> SeedExamplesGrad.fValueAndGradient(p[0], p[1], g),
            (p, d) -> SeedExamplesGrad.fTangent(p[0], p[1], d[0], d[1]),
            (p, s, a) -> SeedExamplesGrad.fPullback(p[0], p[1], s, a),
            p -> SeedExamples.fAnalyticGradient(p[0], p[1]),
            uniform(2, -2, 2)),
        new SampleCase("SeedExamplesGrad", "g", 2,
            p -> SeedExamples.g(p[0], p[1]),
            p -> SeedExamplesGrad.gGradient(p[0], p[1]),
            (p, g) -> SeedExamplesGrad.gValueAndGradient(p[0], p[1], g),
            (p, d) -> SeedExamplesGrad.gTangent(p[0], p[1], d[0], d[1]),
            (p, s, a) -> SeedExamplesGrad.gPullback(p[0], p[1], s, a),
            p -> SeedExamples.gAnalyticGradient(p[0], p[1]),
            uniform(2, -2, 2)),
        new SampleCase("SeedExamplesGrad", "sharedSquare", 1,
            p -> SeedExamples.sharedSquare(p[0]),
            p -> SeedExamplesGrad.sharedSquareGradient(p[0]),
            (p, g) -> SeedExamplesGrad.sharedSquareValueAndGradient(p[0], g),
            (p, d) -> SeedExamplesGrad.sharedSquareTangent(p[0], d[0]),
            (p, s, a) -> SeedExamplesGrad.sharedSquarePullback(p[0], s, a),
            p -> v(2 * p[0] * (Math.cos(p[0] * p[0]) - Math.sin(p[0] * p[0]))),
            uniform(1, -2, 2)),
        new SampleCase("SeedExamplesGrad", "overwritten", 1,
            p -> SeedExamples.overwritten(p[0]),
            p -> SeedExamplesGrad.overwrittenGradient(p[0]),
            (p, g) -> SeedExamplesGrad.overwrittenValueAndGradient(p[0], g),
            (p, d) -> SeedExamplesGrad.overwrittenTangent(p[0], d[0]),
            (p, s, a) -> SeedExamplesGrad.overwrittenPullback(p[0], s, a),
            p -> v(2 * p[0]),
            uniform(1, -3, 3)),
        new SampleCase("SeedExamplesGrad", "poly", 1,
            p -> SeedExamples.poly(p[0]),
            p -> SeedExamplesGrad.polyGradient(p[0]),
            (p, g) -> SeedExamplesGrad.polyValueAndGradient(p[0], g),
            (p, d) -> SeedExamplesGrad.polyTangent(p[0], d[0]),
            (p, s, a) -> SeedExamplesGrad.polyPullback(p[0], s, a),
            p -> v(2 * p[0] + 1),
            uniform(1, -10, 10)),
        new SampleCase("SeedExamplesGrad", "product", 2,
            p -> SeedExamples.product(p[0], p[1]),
            p -> SeedExamplesGrad.productGradient(p[0], p[1]),
            (p, g) -> SeedExamplesGrad.productValueAndGradient(p[0], p[1], g),
            (p, d) -> SeedExamplesGrad.productTangent(p[0], p[1], d[0], d[1]),
            (p, s, a) -> SeedExamplesGrad.productPullback(p[0], p[1], s, a),
            p -> v(p[1], p[0]),
            uniform(2, -5, 5)),
        new SampleCase("SeedExamplesGrad", "sharing", 2,
            p -> SeedExamples.sharing(p[0], p[1]),
            p -> SeedExamplesGrad.sharingGradient(p[0], p[1]),
            (p, g) -> SeedExamplesGrad.sharingValueAndGradient(p[0], p[1], g),
            (p, d) -> SeedExamplesGrad.sharingTangent(p[0], p[1], d[0], d[1]),
            (p, s, a) -> SeedExamplesGrad.sharingPullback(p[0], p[1], s, a),
            p -> v(2 * p[1], 2 * p[0]),
            uniform(2, -5, 5)),
        new SampleCase("SeedExamplesGrad", "xPlusSin", 1,
            p -> SeedExamples.xPlusSin(p[0]),
            p -> SeedExamplesGrad.xPlusSinGradient(p[0]),
            (p, g) -> SeedExamplesGrad.xPlusSinValueAndGradient(p[0], g),
            (p, d) -> SeedExamplesGrad.xPlusSinTangent(p[0], d[0]),
            (p, s, a) -> SeedExamplesGrad.xPlusSinPullback(p[0], s, a),
            p -> v(1 + Math.cos(p[0])),
            uniform(1, -4, 4)),
        new SampleCase("SeedExamplesGrad", "affine", 1,
            p -> SeedExamples.affine(p[0]),
            p -> SeedExamplesGrad.affineGradient(p[0]),
            (p, g) -> SeedExamplesGrad.affineValueAndGradient(p[0], g),
            (p, d) -> SeedExamplesGrad.affineTangent(p[0], d[0]),
            (p, s, a) -> SeedExamplesGrad.affinePullback(p[0], s, a),
            p -> v(7),
            uniform(1, -10, 10)),
        new SampleCase("SeedExamplesGrad", "twoOutFirst", 1,
            p -> SeedExamples.twoOutFirst(p[0]),
            p -> SeedExamplesGrad.twoOutFirstGradient(p[0]),
            (p, g) -> SeedExamplesGrad.twoOutFirstValueAndGradient(p[0], g),
            (p, d) -> SeedExamplesGrad.twoOutFirstTangent(p[0], d[0]),
            (p, s, a) -> SeedExamplesGrad.twoOutFirstPullback(p[0], s, a),
            p -> v(2 * Math.sin(p[0]) * Math.cos(p[0]) + 10),
            uniform(1, -4, 4)),
        new SampleCase("SeedExamplesGrad", "twoOutSecond", 1,
            p -> SeedExamples.twoOutSecond(p[0]),
            p -> SeedExamplesGrad.twoOutSecondGradient(p[0]),
            (p, g) -> SeedExamplesGrad.twoOutSecondValueAndGradient(p[0], g),
            (p, d) -> SeedExamplesGrad.twoOutSecondTangent(p[0], d[0]),
            (p, s, a) -> SeedExamplesGrad.twoOutSecondPullback(p[0], s, a),
            p -> v(1 + 40 * Math.sin(p[0]) * Math.cos(p[0])),
            uniform(1, -4, 4)),
        new SampleCase("RosenbrockGrad", "value", 2,
            p -> Rosenbrock.value(p[0], p[1]),
            p -> RosenbrockGrad.valueGradient(p[0], p[1]),
            (p, g) -> RosenbrockGrad.valueValueAndGradient(p[0], p[1], g),
            (p, d) -> RosenbrockGrad.valueTangent(p[0], p[1], d[0], d[1]),
            (p, s, a) -> RosenbrockGrad.valuePullback(p[0], p[1], s, a),
            p -> v(-2 * (1 - p[0]) - 400 * p[0] * (p[1] - p[0] * p[0]),
                200 * (p[1] - p[0] * p[0])),
            uniform(2, -2, 2)),
        new SampleCase("BlackScholesGrad", "callPrice", 5,
            p -> BlackScholes.callPrice(p[0], p[1], p[2], p[3], p[4]),
            p -> BlackScholesGrad.callPriceGradient(p[0], p[1], p[2], p[3], p[4]),
            (p, g) -> BlackScholesGrad.callPriceValueAndGradient(p[0], p[1], p[2], p[3], p[4], g),
            (p, d) -> BlackScholesGrad.callPriceTangent(
                p[0], p[1], p[2], p[3], p[4], d[0], d[1], d[2], d[3], d[4]),
            (p, s, a) -> BlackScholesGrad.callPricePullback(p[0], p[1], p[2], p[3], p[4], s, a),
            p -> {
              BlackScholes.Greeks c = BlackScholes.Greeks.closedForm(p[0], p[1], p[2], p[3], p[4]);
              return v(c.delta(), c.dStrike(), -c.theta(), c.rho(), c.vega());
            },
            r -> v(50 + 100 * r.nextDouble(), 50 + 100 * r.nextDouble(),
                0.1 + 2.9 * r.nextDouble(), -0.02 + 0.12 * r.nextDouble(),
                0.08 + 0.7 * r.nextDouble())),
        new SampleCase("BlackScholesGrad", "normCdf", 1,
            p -> BlackScholes.normCdf(p[0]),
            p -> BlackScholesGrad.normCdfGradient(p[0]),
            (p, g) -> BlackScholesGrad.normCdfValueAndGradient(p[0], g),
            (p, d) -> BlackScholesGrad.normCdfTangent(p[0], d[0]),
            (p, s, a) -> BlackScholesGrad.normCdfPullback(p[0], s, a),
            p -> v(BlackScholes.pdf(p[0])),
            uniform(1, -7, 7)),
        new SampleCase("LogisticLossGrad", "loss", 10,
            LogisticLoss::loss,
            LogisticLoss::adGradient,
            (p, g) -> LogisticLossGrad.lossValueAndGradient(
                p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], g),
            (p, d) -> LogisticLossGrad.lossTangent(
                p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9],
                d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9]),
            (p, s, a) -> LogisticLossGrad.lossPullback(
                p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], s, a),
            LogisticLoss::analyticGradient,
            uniform(10, -1, 1)),
        new SampleCase("HygieneGrad", "parameters", 3,
            p -> Hygiene.parameters(p[0], p[1], p[2]),
            p -> HygieneGrad.parametersGradient(p[0], p[1], p[2]),
            (p, g) -> HygieneGrad.parametersValueAndGradient(p[0], p[1], p[2], g),
            (p, d) -> HygieneGrad.parametersTangent(p[0], p[1], p[2], d[0], d[1], d[2]),
            (p, s, a) -> HygieneGrad.parametersPullback(p[0], p[1], p[2], s, a),
            p -> v(2 * p[0] * p[1], p[0] * p[0] + Math.sin(p[2]), Math.cos(p[2]) * p[1]),
            uniform(3, -2, 2)),
        new SampleCase("HygieneGrad", "locals", 2,
            p -> Hygiene.locals(p[0], p[1]),
            p -> HygieneGrad.localsGradient(p[0], p[1]),
            (p, g) -> HygieneGrad.localsValueAndGradient(p[0], p[1], g),
            (p, d) -> HygieneGrad.localsTangent(p[0], p[1], d[0], d[1]),
            (p, s, a) -> HygieneGrad.localsPullback(p[0], p[1], s, a),
            SampleCase::localsAnalytic,
            uniform(2, -1.5, 1.5)),
        new SampleCase("HygieneGrad", "generatedNames", 4,
            p -> Hygiene.generatedNames(p[0], p[1], p[2], p[3]),
            p -> HygieneGrad.generatedNamesGradient(p[0], p[1], p[2], p[3]),
            (p, g) -> HygieneGrad.generatedNamesValueAndGradient(p[0], p[1], p[2], p[3], g),
            (p, d) -> HygieneGrad.generatedNamesTangent(
                p[0], p[1], p[2], p[3], d[0], d[1], d[2], d[3]),
            (p, s, a) -> HygieneGrad.generatedNamesPullback(p[0], p[1], p[2], p[3], s, a),
            p -> v(p[1], p[0], 1 / p[3], -p[2] / (p[3] * p[3])),
            awayFromZero(4, 0.5, 2)),
        new SampleCase("HygieneGrad", "reassigned", 2,
            p -> Hygiene.reassigned(p[0], p[1]),
            p -> HygieneGrad.reassignedGradient(p[0], p[1]),
            (p, g) -> HygieneGrad.reassignedValueAndGradient(p[0], p[1], g),
            (p, d) -> HygieneGrad.reassignedTangent(p[0], p[1], d[0], d[1]),
            (p, s, a) -> HygieneGrad.reassignedPullback(p[0], p[1], s, a),
            p -> Hygiene.reassignedAnalyticGradient(p[0], p[1]),
            uniform(2, -1.5, 1.5)),
        new SampleCase("Outer_InnerGrad", "damped", 2,
            p -> Outer.Inner.damped(p[0], p[1]),
            p -> Outer_InnerGrad.dampedGradient(p[0], p[1]),
            (p, g) -> Outer_InnerGrad.dampedValueAndGradient(p[0], p[1], g),
            (p, d) -> Outer_InnerGrad.dampedTangent(p[0], p[1], d[0], d[1]),
            (p, s, a) -> Outer_InnerGrad.dampedPullback(p[0], p[1], s, a),
            p -> {
              double e = Math.exp(-p[1] * p[0]);
              return v(-Math.sin(p[0]) * e - p[1] * Math.cos(p[0]) * e, -p[0] * Math.cos(p[0]) * e);
            },
            uniform(2, -2, 2)),
        new SampleCase("OverloadsGrad", "norm", 2,
            p -> Overloads.norm(p[0], p[1]),
            p -> OverloadsGrad.normGradient(p[0], p[1]),
            (p, g) -> OverloadsGrad.normValueAndGradient(p[0], p[1], g),
            (p, d) -> OverloadsGrad.normTangent(p[0], p[1], d[0], d[1]),
            (p, s, a) -> OverloadsGrad.normPullback(p[0], p[1], s, a),
            p -> {
              double n = Math.hypot(p[0], p[1]);
              return v(p[0] / n, p[1] / n);
            },
            awayFromZero(2, 0.2, 3)),
        new SampleCase("OverloadsGrad", "norm", 3,
            p -> Overloads.norm(p[0], p[1], p[2]),
            p -> OverloadsGrad.normGradient(p[0], p[1], p[2]),
            (p, g) -> OverloadsGrad.normValueAndGradient(p[0], p[1], p[2], g),
            (p, d) -> OverloadsGrad.normTangent(p[0], p[1], p[2], d[0], d[1], d[2]),
            (p, s, a) -> OverloadsGrad.normPullback(p[0], p[1], p[2], s, a),
            p -> {
              double n = Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
              return v(p[0] / n, p[1] / n, p[2] / n);
            },
            awayFromZero(3, 0.2, 3)));
  }

  /** The gradient of {@link Hygiene#locals} by the chain rule, line by line. */
  static double[] localsAnalytic(double[] p) {
    double x = p[0];
    double a = p[1];
    double t1 = x * a;
    double t2 = Math.exp(t1);
    double xDot = t2 + x;
    double xBar = xDot * a;
    double aBar = xBar - t1;
    // d/dx
    double dAbarDx = (t2 * a + 1) * a - a;
    // d/da
    double dAbarDa = t2 * x * a + xDot - x;
    return v(2 * aBar * dAbarDx + t2 * a, 2 * aBar * dAbarDa + t2 * x);
  }
}
