package ad4j.samples.bench;

import org.hipparchus.CalculusFieldElement;

/**
 * The benchmark functions written against Hipparchus' API, the way a user of runtime forward
 * AD writes them: generic over {@link CalculusFieldElement}, so that the same code runs with
 * {@link org.hipparchus.analysis.differentiation.Gradient} and with
 * {@link org.hipparchus.analysis.differentiation.DerivativeStructure}. Each mirrors the
 * {@code @Differentiable} method of the same name operation for operation (loops where a
 * Hipparchus user would write one: the Chebyshev sum of Black-Scholes and the 500-statement
 * chain, whose unrolled form would itself be a huge method).
 */
final class HipparchusFunctions {
  private HipparchusFunctions() {}

  private static final double SQRT_HALF = 0.7071067811865476;

  /** The coefficients of {@link ad4j.samples.BlackScholes}' Chebyshev sum (C0 ... C27). */
  private static final double[] C = {
    -1.3026537197817094, 0.6419697923564902, 0.019476473204185836, -0.009561514786808632,
    -0.0009465953444820369, 0.00036683949785276145, 4.252332480690777e-05,
    -2.0278578112534242e-05, -1.6242900046470256e-06, 1.3036558355805232e-06,
    1.5626441722066142e-08, -8.523809591492654e-08, 6.5290544390988515e-09,
    5.059343495551469e-09, -9.91364156493033e-10, -2.273651222931836e-10,
    9.646791102015527e-11, 2.3940380830391146e-12, -6.886027526497553e-12,
    8.944879273090725e-13, 3.130921399342958e-13, -1.1270822361367252e-13,
    3.810905255189232e-16, 7.106097613609237e-15, -1.5230282014571043e-15,
    -9.457494571291233e-17, 1.210237189224279e-16, -2.816663087747177e-17
  };

  static <T extends CalculusFieldElement<T>> T rosenbrock(T x, T y) {
    T a = x.negate().add(1);
    T b = y.subtract(x.multiply(x));
    return a.multiply(a).add(b.multiply(100).multiply(b));
  }

  /** {@link Polynomials#beale}. */
  static <T extends CalculusFieldElement<T>> T beale(T x, T y) {
    T y2 = y.multiply(y);
    T y3 = y2.multiply(y);
    T a = x.negate().add(1.5).add(x.multiply(y));
    T b = x.negate().add(2.25).add(x.multiply(y2));
    T c = x.negate().add(2.625).add(x.multiply(y3));
    return a.multiply(a).add(b.multiply(b)).add(c.multiply(c));
  }

  /** {@link Polynomials#goldsteinPrice}. */
  static <T extends CalculusFieldElement<T>> T goldsteinPrice(T x, T y) {
    T s = x.add(y).add(1);
    T p = x.multiply(-14).add(19).add(x.multiply(3).multiply(x)).subtract(y.multiply(14))
        .add(x.multiply(6).multiply(y)).add(y.multiply(3).multiply(y));
    T d = x.multiply(2).subtract(y.multiply(3));
    T q = x.multiply(-32).add(18).add(x.multiply(12).multiply(x)).add(y.multiply(48))
        .subtract(x.multiply(36).multiply(y)).add(y.multiply(27).multiply(y));
    return s.multiply(s).multiply(p).add(1).multiply(d.multiply(d).multiply(q).add(30));
  }

  /** {@link ExtendedRosenbrock#value}: {@code Σ 100 (x_{i+1} − x_i²)² + (1 − x_i)²}. */
  static <T extends CalculusFieldElement<T>> T extendedRosenbrock(T[] x) {
    T sum = x[0].getField().getZero();
    for (int i = 0; i + 1 < x.length; i++) {
      T a = x[i].negate().add(1);
      T b = x[i + 1].subtract(x[i].multiply(x[i]));
      sum = sum.add(b.multiply(100).multiply(b).add(a.multiply(a)));
    }
    return sum;
  }

  /** N(d) as in BlackScholes.callPrice: Chebyshev erfc, reflected without a branch. */
  private static <T extends CalculusFieldElement<T>> T normCdf(T d) {
    T s = d.newInstance(1.0).copySign(d);
    T z = s.multiply(d).multiply(SQRT_HALF);
    T t = z.add(2).reciprocal().multiply(2);
    T ty = t.multiply(4).subtract(2);
    T a = d.newInstance(C[27]);
    T previous = d.getField().getZero();
    for (int j = 26; j >= 1; j--) {
      T next = ty.multiply(a).subtract(previous).add(C[j]);
      previous = a;
      a = next;
    }
    // a = a1, previous = a2
    T q = t.multiply(z.multiply(z).negate().add(ty.multiply(a).add(C[0]).multiply(0.5))
        .subtract(previous).exp()).multiply(0.5);
    return q.add(s.multiply(0.5).add(0.5).multiply(q.multiply(-2).add(1)));
  }

  static <T extends CalculusFieldElement<T>> T callPrice(
      T spot, T strike, T maturity, T rate, T volatility) {
    T sqrtT = maturity.sqrt();
    T volSqrtT = volatility.multiply(sqrtT);
    T d1 = spot.divide(strike).log()
        .add(rate.add(volatility.multiply(0.5).multiply(volatility)).multiply(maturity))
        .divide(volSqrtT);
    T d2 = d1.subtract(volSqrtT);
    T n1 = normCdf(d1);
    T n2 = normCdf(d2);
    T discount = rate.negate().multiply(maturity).exp();
    return spot.multiply(n1).subtract(strike.multiply(discount).multiply(n2));
  }

  private static final double[] FEATURES = {
    1.0, -0.5, 0.25, 2.0, -1.5, 0.75, 0.1, -2.25, 1.125, -0.3
  };
  private static final double LABEL = -1.0;

  static <T extends CalculusFieldElement<T>> T logisticLoss(T[] w) {
    T margin = w[0].multiply(FEATURES[0]);
    for (int i = 1; i < FEATURES.length; i++) {
      margin = margin.add(w[i].multiply(FEATURES[i]));
    }
    return margin.multiply(-LABEL).exp().log1p();
  }

  /**
   * Both components of the bundle-adjustment residual in one pass (runtime AD shares the
   * intermediates of a vector function for free).
   */
  static <T extends CalculusFieldElement<T>> void bundleAdjustment(T[] p, T[] residual) {
    T d0 = p[11].subtract(p[3]);
    T d1 = p[12].subtract(p[4]);
    T d2 = p[13].subtract(p[5]);
    T theta = p[0].multiply(p[0]).add(p[1].multiply(p[1])).add(p[2].multiply(p[2])).sqrt();
    T cosTheta = theta.cos();
    T sinTheta = theta.sin();
    T thetaInverse = theta.reciprocal();
    T w0 = p[0].multiply(thetaInverse);
    T w1 = p[1].multiply(thetaInverse);
    T w2 = p[2].multiply(thetaInverse);
    T tmp = w0.multiply(d0).add(w1.multiply(d1)).add(w2.multiply(d2))
        .multiply(cosTheta.negate().add(1));
    T xc0 = d0.multiply(cosTheta).add(w1.multiply(d2).subtract(w2.multiply(d1)).multiply(sinTheta))
        .add(w0.multiply(tmp));
    T xc1 = d1.multiply(cosTheta).add(w2.multiply(d0).subtract(w0.multiply(d2)).multiply(sinTheta))
        .add(w1.multiply(tmp));
    T xc2 = d2.multiply(cosTheta).add(w0.multiply(d1).subtract(w1.multiply(d0)).multiply(sinTheta))
        .add(w2.multiply(tmp));
    T p0 = xc0.divide(xc2);
    T p1 = xc1.divide(xc2);
    T rsq = p0.multiply(p0).add(p1.multiply(p1));
    T distortion = p[9].multiply(rsq).add(1).add(p[10].multiply(rsq).multiply(rsq));
    T fl = p[6].multiply(distortion);
    residual[0] = p[14].multiply(fl.multiply(p0).add(p[7]).subtract(BundleAdjustmentFeature.U));
    residual[1] = p[14].multiply(fl.multiply(p1).add(p[8]).subtract(BundleAdjustmentFeature.V));
  }

  /** The observed feature of {@link ad4j.samples.bench.BundleAdjustment}. */
  private static final class BundleAdjustmentFeature {
    static final double U = BundleAdjustment.FEATURE_U;
    static final double V = BundleAdjustment.FEATURE_V;
  }

  private static <T extends CalculusFieldElement<T>> T max(T a, T b) {
    return a.getReal() >= b.getReal() ? a : b;
  }

  private static <T extends CalculusFieldElement<T>> T component(T[] p, int k) {
    T xcx = p[5 + 2 * k].negate().add(GaussianMixture.DATA_X);
    T xcy = p[6 + 2 * k].negate().add(GaussianMixture.DATA_Y);
    T qa = p[15 + 3 * k];
    T qb = p[16 + 3 * k];
    T l = p[17 + 3 * k];
    T qxcx = qa.exp().multiply(xcx);
    T qxcy = l.multiply(xcx).add(qb.exp().multiply(xcy));
    return p[k].add(qa.add(qb))
        .subtract(qxcx.multiply(qxcx).add(qxcy.multiply(qxcy)).multiply(0.5));
  }

  private static <T extends CalculusFieldElement<T>> T logSumExp(T v0, T v1, T v2, T v3, T v4) {
    T m = max(max(max(max(v0, v1), v2), v3), v4);
    return v0.subtract(m).exp().add(v1.subtract(m).exp()).add(v2.subtract(m).exp())
        .add(v3.subtract(m).exp()).add(v4.subtract(m).exp()).log().add(m);
  }

  /** p: alpha (5), mu (5×2), then (q_a, q_b, l) per component, as in GaussianMixture. */
  static <T extends CalculusFieldElement<T>> T gaussianMixture(T[] p) {
    T lseMain = logSumExp(component(p, 0), component(p, 1), component(p, 2), component(p, 3),
        component(p, 4));
    return lseMain.subtract(logSumExp(p[0], p[1], p[2], p[3], p[4]));
  }

  /** The chain of {@link Chain500}, as a loop over pairs of statements. */
  static <T extends CalculusFieldElement<T>> T chain(
      T x, T y, T a, T b, T c, int statements) {
    for (int i = 0; i < statements; i += 2) {
      x = x.multiply(a).add(y.sin());
      if (i + 1 < statements) {
        y = x.cos().multiply(b).subtract(y.multiply(c));
      }
    }
    return x.add(y);
  }

  /** The polynomial of {@link ad4j.samples.ControlFlow#horner} by Horner's scheme. */
  static <T extends CalculusFieldElement<T>> T horner(T x) {
    T p = x.getField().getZero();
    for (int k = 100; k >= 0; k--) {
      p = p.multiply(x).add(1.0 / (k + 1));
    }
    return p;
  }

  /** Lotka-Volterra by RK4, as {@link ad4j.samples.ControlFlow#finalPrey}. */
  static <T extends CalculusFieldElement<T>> T finalPrey(T a, T b, T c, T d, T x0, T y0) {
    final double dt = HandWritten.DT;
    T x = x0;
    T y = y0;
    for (int i = 0; i < HandWritten.STEPS; i++) {
      T k1x = a.multiply(x).subtract(b.multiply(x).multiply(y));
      T k1y = c.multiply(x).multiply(y).subtract(d.multiply(y));
      T x1 = x.add(k1x.multiply(0.5 * dt));
      T y1 = y.add(k1y.multiply(0.5 * dt));
      T k2x = a.multiply(x1).subtract(b.multiply(x1).multiply(y1));
      T k2y = c.multiply(x1).multiply(y1).subtract(d.multiply(y1));
      T x2 = x.add(k2x.multiply(0.5 * dt));
      T y2 = y.add(k2y.multiply(0.5 * dt));
      T k3x = a.multiply(x2).subtract(b.multiply(x2).multiply(y2));
      T k3y = c.multiply(x2).multiply(y2).subtract(d.multiply(y2));
      T x3 = x.add(k3x.multiply(dt));
      T y3 = y.add(k3y.multiply(dt));
      T k4x = a.multiply(x3).subtract(b.multiply(x3).multiply(y3));
      T k4y = c.multiply(x3).multiply(y3).subtract(d.multiply(y3));
      x = x.add(k1x.add(k2x.multiply(2)).add(k3x.multiply(2)).add(k4x).multiply(dt / 6));
      y = y.add(k1y.add(k2y.multiply(2)).add(k3y.multiply(2)).add(k4y).multiply(dt / 6));
    }
    return x;
  }
}
