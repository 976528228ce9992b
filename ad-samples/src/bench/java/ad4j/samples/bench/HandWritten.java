package ad4j.samples.bench;

import ad4j.samples.BlackScholes;
import ad4j.samples.BlackScholesErf;

/**
 * Hand-written value-and-gradient code, as a careful programmer writes it, to compare with the
 * generated reverse mode: same signature style as {@code mValueAndGradient} (value returned,
 * gradient written into an array, nothing allocated).
 */
final class HandWritten {
  private HandWritten() {}

  static double rosenbrock(double x, double y, double[] gradient) {
    double a = 1 - x;
    double b = y - x * x;
    gradient[0] = -2 * a - 400 * x * b;
    gradient[1] = 200 * b;
    return a * a + 100 * b * b;
  }

  /** {@link Polynomials#beale} and its gradient, each residual's partials written out. */
  static double beale(double x, double y, double[] gradient) {
    double y2 = y * y;
    double y3 = y2 * y;
    double a = 1.5 - x + x * y;
    double b = 2.25 - x + x * y2;
    double c = 2.625 - x + x * y3;
    gradient[0] = 2 * (a * (y - 1) + b * (y2 - 1) + c * (y3 - 1));
    gradient[1] = 2 * x * (a + 2 * b * y + 3 * c * y2);
    return a * a + b * b + c * c;
  }

  /** {@link Polynomials#goldsteinPrice} and its gradient, by the product rule. */
  static double goldsteinPrice(double x, double y, double[] gradient) {
    double s = x + y + 1;
    double p = 19 - 14 * x + 3 * x * x - 14 * y + 6 * x * y + 3 * y * y;
    double d = 2 * x - 3 * y;
    double q = 18 - 32 * x + 12 * x * x + 48 * y - 36 * x * y + 27 * y * y;
    double s2 = s * s;
    double d2 = d * d;
    double first = 1 + s2 * p;
    double second = 30 + d2 * q;
    // p has the same partial in x and in y
    double firstX = 2 * s * p + s2 * (6 * x + 6 * y - 14);
    double secondX = 4 * d * q + d2 * (24 * x - 36 * y - 32);
    double secondY = -6 * d * q + d2 * (54 * y - 36 * x + 48);
    gradient[0] = firstX * second + first * secondX;
    gradient[1] = firstX * second + first * secondY;
    return first * second;
  }

  /** Price and the closed-form first derivatives (delta, ∂/∂K, ∂/∂T, rho, vega). */
  static double callPrice(double s, double k, double t, double r, double sigma,
      double[] gradient) {
    double sqrtT = Math.sqrt(t);
    double volSqrtT = sigma * sqrtT;
    double d1 = (Math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / volSqrtT;
    double d2 = d1 - volSqrtT;
    double discount = Math.exp(-r * t);
    double nd1 = BlackScholes.cdf(d1);
    double nd2 = BlackScholes.cdf(d2);
    double sPhi = s * BlackScholes.pdf(d1);
    double kDiscountNd2 = k * discount * nd2;
    gradient[0] = nd1;
    gradient[1] = -discount * nd2;
    gradient[2] = sPhi * sigma / (2 * sqrtT) + r * kDiscountNd2;
    gradient[3] = t * kDiscountNd2;
    gradient[4] = sPhi * sqrtT;
    return s * nd1 - kDiscountNd2;
  }

  /**
   * {@link #callPrice} with {@code N} from Hipparchus' {@code Erf.erfc}, as
   * {@link ad4j.samples.BlackScholesErf} computes it: the closed-form Greeks with the same
   * {@code φ} that its {@code @DerivativeOf} rule gives.
   */
  static double callPriceErf(double s, double k, double t, double r, double sigma,
      double[] gradient) {
    double sqrtT = Math.sqrt(t);
    double volSqrtT = sigma * sqrtT;
    double d1 = (Math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / volSqrtT;
    double d2 = d1 - volSqrtT;
    double discount = Math.exp(-r * t);
    double nd1 = BlackScholesErf.cdf(d1);
    double nd2 = BlackScholesErf.cdf(d2);
    double sPhi = s * BlackScholes.pdf(d1);
    double kDiscountNd2 = k * discount * nd2;
    gradient[0] = nd1;
    gradient[1] = -discount * nd2;
    gradient[2] = sPhi * sigma / (2 * sqrtT) + r * kDiscountNd2;
    gradient[3] = t * kDiscountNd2;
    gradient[4] = sPhi * sqrtT;
    return s * nd1 - kDiscountNd2;
  }

  private static final double X0 = 1.0;
  private static final double X1 = -0.5;
  private static final double X2 = 0.25;
  private static final double X3 = 2.0;
  private static final double X4 = -1.5;
  private static final double X5 = 0.75;
  private static final double X6 = 0.1;
  private static final double X7 = -2.25;
  private static final double X8 = 1.125;
  private static final double X9 = -0.3;
  private static final double LABEL = -1.0;

  static double logisticLoss(double w0, double w1, double w2, double w3, double w4,
      double w5, double w6, double w7, double w8, double w9, double[] gradient) {
    double margin = w0 * X0 + w1 * X1 + w2 * X2 + w3 * X3 + w4 * X4
        + w5 * X5 + w6 * X6 + w7 * X7 + w8 * X8 + w9 * X9;
    double e = Math.exp(-LABEL * margin);
    double scale = -LABEL * e / (1 + e);
    gradient[0] = scale * X0;
    gradient[1] = scale * X1;
    gradient[2] = scale * X2;
    gradient[3] = scale * X3;
    gradient[4] = scale * X4;
    gradient[5] = scale * X5;
    gradient[6] = scale * X6;
    gradient[7] = scale * X7;
    gradient[8] = scale * X8;
    gradient[9] = scale * X9;
    return Math.log1p(e);
  }

  /** Horner's value and derivative by the simultaneous recurrence p' = p' x + p. */
  static double horner(double x, double[] gradient) {
    double p = 0;
    double dp = 0;
    for (int k = 100; k >= 0; k--) {
      dp = dp * x + p;
      p = p * x + 1.0 / (k + 1);
    }
    gradient[0] = dp;
    return p;
  }

  /** Steps and time step of {@link ad4j.samples.ControlFlow#finalPrey}. */
  static final int STEPS = 1000;
  static final double DT = 0.01;

  /**
   * The final prey of {@link ad4j.samples.ControlFlow#finalPrey} and its gradient by a
   * hand-written discrete adjoint, the floor a reverse mode can reach: the forward sweep keeps
   * only the state at the start of each step (2 doubles per step, Tapenade's to-be-recorded
   * minimum), the reverse sweep computes the step's stages again from it and takes the adjoint
   * of the state back through the four stages, with the Jacobian of the right-hand side
   * {@code f(x, y) = (a x - b x y, c x y - d y)} written out. Nothing is allocated.
   *
   * @param gradient receives the 6 partial derivatives
   * @param states 2 × {@link #STEPS} entries of scratch for the states
   */
  static double finalPreyAdjoint(double a, double b, double c, double d, double x0, double y0,
      double[] gradient, double[] states) {
    double x = x0;
    double y = y0;
    for (int i = 0; i < STEPS; i++) {
      states[2 * i] = x;
      states[2 * i + 1] = y;
      double k1x = a * x - b * x * y;
      double k1y = c * x * y - d * y;
      double x1 = x + 0.5 * DT * k1x;
      double y1 = y + 0.5 * DT * k1y;
      double k2x = a * x1 - b * x1 * y1;
      double k2y = c * x1 * y1 - d * y1;
      double x2 = x + 0.5 * DT * k2x;
      double y2 = y + 0.5 * DT * k2y;
      double k3x = a * x2 - b * x2 * y2;
      double k3y = c * x2 * y2 - d * y2;
      double x3 = x + DT * k3x;
      double y3 = y + DT * k3y;
      double k4x = a * x3 - b * x3 * y3;
      double k4y = c * x3 * y3 - d * y3;
      x += DT / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
      y += DT / 6 * (k1y + 2 * k2y + 2 * k3y + k4y);
    }
    double xb = 1;
    double yb = 0;
    double ab = 0;
    double bb = 0;
    double cb = 0;
    double db = 0;
    for (int i = STEPS - 1; i >= 0; i--) {
      double sx = states[2 * i];
      double sy = states[2 * i + 1];
      double k1x = a * sx - b * sx * sy;
      double k1y = c * sx * sy - d * sy;
      double x1 = sx + 0.5 * DT * k1x;
      double y1 = sy + 0.5 * DT * k1y;
      double k2x = a * x1 - b * x1 * y1;
      double k2y = c * x1 * y1 - d * y1;
      double x2 = sx + 0.5 * DT * k2x;
      double y2 = sy + 0.5 * DT * k2y;
      double k3x = a * x2 - b * x2 * y2;
      double k3y = c * x2 * y2 - d * y2;
      double x3 = sx + DT * k3x;
      double y3 = sy + DT * k3y;
      // the weights of the stages in the step
      double k4xb = DT / 6 * xb;
      double k4yb = DT / 6 * yb;
      double k3xb = DT / 3 * xb;
      double k3yb = DT / 3 * yb;
      double k2xb = DT / 3 * xb;
      double k2yb = DT / 3 * yb;
      double k1xb = DT / 6 * xb;
      double k1yb = DT / 6 * yb;
      // stage 4 at (x3, y3)
      ab += k4xb * x3;
      bb -= k4xb * x3 * y3;
      cb += k4yb * x3 * y3;
      db -= k4yb * y3;
      double x3b = k4xb * (a - b * y3) + k4yb * c * y3;
      double y3b = k4yb * (c * x3 - d) - k4xb * b * x3;
      k3xb += DT * x3b;
      k3yb += DT * y3b;
      // stage 3 at (x2, y2)
      ab += k3xb * x2;
      bb -= k3xb * x2 * y2;
      cb += k3yb * x2 * y2;
      db -= k3yb * y2;
      double x2b = k3xb * (a - b * y2) + k3yb * c * y2;
      double y2b = k3yb * (c * x2 - d) - k3xb * b * x2;
      k2xb += 0.5 * DT * x2b;
      k2yb += 0.5 * DT * y2b;
      // stage 2 at (x1, y1)
      ab += k2xb * x1;
      bb -= k2xb * x1 * y1;
      cb += k2yb * x1 * y1;
      db -= k2yb * y1;
      double x1b = k2xb * (a - b * y1) + k2yb * c * y1;
      double y1b = k2yb * (c * x1 - d) - k2xb * b * x1;
      k1xb += 0.5 * DT * x1b;
      k1yb += 0.5 * DT * y1b;
      // stage 1 at (sx, sy)
      ab += k1xb * sx;
      bb -= k1xb * sx * sy;
      cb += k1yb * sx * sy;
      db -= k1yb * sy;
      double sxb = k1xb * (a - b * sy) + k1yb * c * sy;
      double syb = k1yb * (c * sx - d) - k1xb * b * sx;
      xb += x3b + x2b + x1b + sxb;
      yb += y3b + y2b + y1b + syb;
    }
    gradient[0] = ab;
    gradient[1] = bb;
    gradient[2] = cb;
    gradient[3] = db;
    gradient[4] = xb;
    gradient[5] = yb;
    return x;
  }

  /**
   * The final prey of {@link ad4j.samples.ControlFlow#finalPrey} and its gradient with respect to
   * (a, b, c, d, x0, y0) by forward sensitivities: every RK4 stage also advances the tangents
   * (u, v) of the state in the 6 parameter directions, u' = (a - b y) u - b x v + ∂f/∂p,
   * v' = c y u + (c x - d) v + ∂g/∂p, with the same RK4 weights (the exact derivative of the
   * discrete scheme). A hand-written reverse mode (discrete adjoint) would need the states of all
   * steps stored; this is what one writes by hand instead. Nothing is allocated.
   *
   * @param gradient receives the 6 partial derivatives (also the u of each direction while running)
   * @param work 6 entries of scratch (the v of each direction)
   */
  static double finalPrey(double a, double b, double c, double d, double x0, double y0,
      double[] gradient, double[] work) {
    double[] su = gradient;
    double[] sv = work;
    for (int j = 0; j < 6; j++) {
      su[j] = j == 4 ? 1 : 0;
      sv[j] = j == 5 ? 1 : 0;
    }
    double x = x0;
    double y = y0;
    for (int i = 0; i < STEPS; i++) {
      double k1x = a * x - b * x * y;
      double k1y = c * x * y - d * y;
      double x1 = x + 0.5 * DT * k1x;
      double y1 = y + 0.5 * DT * k1y;
      double k2x = a * x1 - b * x1 * y1;
      double k2y = c * x1 * y1 - d * y1;
      double x2 = x + 0.5 * DT * k2x;
      double y2 = y + 0.5 * DT * k2y;
      double k3x = a * x2 - b * x2 * y2;
      double k3y = c * x2 * y2 - d * y2;
      double x3 = x + DT * k3x;
      double y3 = y + DT * k3y;
      double k4x = a * x3 - b * x3 * y3;
      double k4y = c * x3 * y3 - d * y3;
      for (int j = 0; j < 6; j++) {
        double u = su[j];
        double v = sv[j];
        double l1u = (a - b * y) * u - b * x * v + (j == 0 ? x : j == 1 ? -x * y : 0);
        double l1v = c * y * u + (c * x - d) * v + (j == 2 ? x * y : j == 3 ? -y : 0);
        double u1 = u + 0.5 * DT * l1u;
        double v1 = v + 0.5 * DT * l1v;
        double l2u = (a - b * y1) * u1 - b * x1 * v1 + (j == 0 ? x1 : j == 1 ? -x1 * y1 : 0);
        double l2v = c * y1 * u1 + (c * x1 - d) * v1 + (j == 2 ? x1 * y1 : j == 3 ? -y1 : 0);
        double u2 = u + 0.5 * DT * l2u;
        double v2 = v + 0.5 * DT * l2v;
        double l3u = (a - b * y2) * u2 - b * x2 * v2 + (j == 0 ? x2 : j == 1 ? -x2 * y2 : 0);
        double l3v = c * y2 * u2 + (c * x2 - d) * v2 + (j == 2 ? x2 * y2 : j == 3 ? -y2 : 0);
        double u3 = u + DT * l3u;
        double v3 = v + DT * l3v;
        double l4u = (a - b * y3) * u3 - b * x3 * v3 + (j == 0 ? x3 : j == 1 ? -x3 * y3 : 0);
        double l4v = c * y3 * u3 + (c * x3 - d) * v3 + (j == 2 ? x3 * y3 : j == 3 ? -y3 : 0);
        su[j] = u + DT / 6 * (l1u + 2 * l2u + 2 * l3u + l4u);
        sv[j] = v + DT / 6 * (l1v + 2 * l2v + 2 * l3v + l4v);
      }
      x += DT / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
      y += DT / 6 * (k1y + 2 * k2y + 2 * k3y + k4y);
    }
    return x;
  }

  /**
   * The bundle-adjustment residual ({@link BundleAdjustment#residual}) and its 2 × 15 Jacobian,
   * as a careful programmer writes them: one forward pass, then each row's reverse pass through
   * the projection, the distortion and the Rodrigues rotation, written with the vector
   * identities ({@code g · (w × d) = d · (g × w) = w · (d × g)}) and the partials shared by the
   * rows computed once. Same contract as the generated {@code residualValueAndJacobian}: the
   * value in a new array, the rows overwritten; slots: camera (11), point (3), weight.
   */
  static double[] bundleValueAndJacobian(double[] camera, double[] point, double w,
      double[][] jacobian) {
    double r0 = camera[0];
    double r1 = camera[1];
    double r2 = camera[2];
    double d0 = point[0] - camera[3];
    double d1 = point[1] - camera[4];
    double d2 = point[2] - camera[5];
    double theta = Math.sqrt(r0 * r0 + r1 * r1 + r2 * r2);
    double cos = Math.cos(theta);
    double sin = Math.sin(theta);
    double inverse = 1 / theta;
    double w0 = r0 * inverse;
    double w1 = r1 * inverse;
    double w2 = r2 * inverse;
    double wd = w0 * d0 + w1 * d1 + w2 * d2;
    double oneMinusCos = 1 - cos;
    double tmp = wd * oneMinusCos;
    // w × d
    double c0 = w1 * d2 - w2 * d1;
    double c1 = w2 * d0 - w0 * d2;
    double c2 = w0 * d1 - w1 * d0;
    double xc0 = d0 * cos + c0 * sin + w0 * tmp;
    double xc1 = d1 * cos + c1 * sin + w1 * tmp;
    double xc2 = d2 * cos + c2 * sin + w2 * tmp;
    double inverseZ = 1 / xc2;
    double p0 = xc0 * inverseZ;
    double p1 = xc1 * inverseZ;
    double rsq = p0 * p0 + p1 * p1;
    double f = camera[6];
    double k1 = camera[9];
    double k2 = camera[10];
    double distortion = 1 + k1 * rsq + k2 * rsq * rsq;
    double e0 = f * distortion * p0 + camera[7] - BundleAdjustment.FEATURE_U;
    double e1 = f * distortion * p1 + camera[8] - BundleAdjustment.FEATURE_V;
    double[] value = {w * e0, w * e1};
    // shared by the rows: dL/dp_j = slope p_j, and w f
    double slope = 2 * (k1 + 2 * k2 * rsq);
    double wf = w * f;
    for (int row = 0; row < 2; row++) {
      double[] out = jacobian[row];
      double p = row == 0 ? p0 : p1;
      out[6] = w * distortion * p;
      out[7] = row == 0 ? w : 0;
      out[8] = row == 0 ? 0 : w;
      out[9] = wf * p * rsq;
      out[10] = wf * p * rsq * rsq;
      out[14] = row == 0 ? e0 : e1;
      // through p = xc[0:2] / xc[2]
      double gp0 = wf * (slope * p * p0 + (row == 0 ? distortion : 0));
      double gp1 = wf * (slope * p * p1 + (row == 1 ? distortion : 0));
      double g0 = gp0 * inverseZ;
      double g1 = gp1 * inverseZ;
      double g2 = -(gp0 * p0 + gp1 * p1) * inverseZ;
      // through xc = d cos + (w × d) sin + w (w · d)(1 − cos)
      double wg = w0 * g0 + w1 * g1 + w2 * g2;
      double gd0 = cos * g0 + sin * (g1 * w2 - g2 * w1) + oneMinusCos * wg * w0;
      double gd1 = cos * g1 + sin * (g2 * w0 - g0 * w2) + oneMinusCos * wg * w1;
      double gd2 = cos * g2 + sin * (g0 * w1 - g1 * w0) + oneMinusCos * wg * w2;
      double gw0 = sin * (d1 * g2 - d2 * g1) + oneMinusCos * (wd * g0 + wg * d0);
      double gw1 = sin * (d2 * g0 - d0 * g2) + oneMinusCos * (wd * g1 + wg * d1);
      double gw2 = sin * (d0 * g1 - d1 * g0) + oneMinusCos * (wd * g2 + wg * d2);
      double gCos = d0 * g0 + d1 * g1 + d2 * g2 - wd * wg;
      double gSin = c0 * g0 + c1 * g1 + c2 * g2;
      double gTheta = cos * gSin - sin * gCos;
      // through w = r / θ and θ = |r|: g_r = g_w / θ + r (g_θ − (g_w · r) / θ²) / θ
      double scale = (gTheta - (gw0 * r0 + gw1 * r1 + gw2 * r2) * inverse * inverse) * inverse;
      out[0] = gw0 * inverse + r0 * scale;
      out[1] = gw1 * inverse + r1 * scale;
      out[2] = gw2 * inverse + r2 * scale;
      out[3] = -gd0;
      out[4] = -gd1;
      out[5] = -gd2;
      out[11] = gd0;
      out[12] = gd1;
      out[13] = gd2;
    }
    return value;
  }

  /**
   * The ADBench GMM objective ({@link GaussianMixtureArrays#objective}) and its gradient, as a
   * careful programmer writes the adjoint of that code: the forward pass as the method has it
   * (the log-sum-exp over the components in two passes instead of one streaming pass), keeping
   * each component's rows of {@code L (x − μ)} and diagonal {@code exp(q)} for the point in
   * hand; then, per point and component, the weight {@code w = exp(main − lse)} and the
   * partials of {@code main = α + Σ q_r − ½ |L (x − μ)|²}: {@code ∂/∂α = 1},
   * {@code ∂/∂q_r = 1 − row_r exp(q_r)(x_r − μ_r)}, {@code ∂/∂L_rj = −row_r (x_j − μ_j)},
   * {@code ∂/∂μ = Lᵀ row}. Then the prior and the log-sum-exp of the weights. The gradient is
   * laid out as the generated one's (α, μ row by row, icf row by row) and overwritten; the
   * scratch rows (K × d values) are made per call, a few kilobytes against milliseconds.
   */
  static double gmmValueAndGradient(double[] alphas, double[][] means, double[][] icf,
      double[][] x, double wishartGamma, double wishartM, double wishartConstant,
      double[] gradient) {
    int n = x.length;
    int k = alphas.length;
    int d = means[0].length;
    int icfLength = icf[0].length;
    int meansStart = k;
    int icfStart = k + k * d;
    java.util.Arrays.fill(gradient, 0, icfStart + k * icfLength, 0.0);
    double[] main = new double[k];
    double[][] rows = new double[k][d];
    double[][] diagonals = new double[k][d];
    double slse = 0;
    for (int i = 0; i < n; i++) {
      double[] xi = x[i];
      double max = Double.NEGATIVE_INFINITY;
      for (int c = 0; c < k; c++) {
        double[] mu = means[c];
        double[] f = icf[c];
        double[] row = rows[c];
        double[] diagonal = diagonals[c];
        double sumQ = 0;
        double sq = 0;
        for (int r = 0; r < d; r++) {
          sumQ += f[r];
          double e = Math.exp(f[r]);
          diagonal[r] = e;
          double v = e * (xi[r] - mu[r]);
          for (int j = 0; j < r; j++) {
            v += f[d + j * (2 * d - j - 1) / 2 + (r - j - 1)] * (xi[j] - mu[j]);
          }
          row[r] = v;
          sq += v * v;
        }
        main[c] = alphas[c] + sumQ - 0.5 * sq;
        max = Math.max(max, main[c]);
      }
      double sum = 0;
      for (int c = 0; c < k; c++) {
        sum += Math.exp(main[c] - max);
      }
      double lse = max + Math.log(sum);
      slse += lse;
      for (int c = 0; c < k; c++) {
        double w = Math.exp(main[c] - lse);
        gradient[c] += w;
        double[] mu = means[c];
        double[] f = icf[c];
        double[] row = rows[c];
        double[] diagonal = diagonals[c];
        int muAt = meansStart + c * d;
        int fAt = icfStart + c * icfLength;
        for (int r = 0; r < d; r++) {
          double g = w * row[r]; // minus the partial of main in row_r, times w
          double ge = g * diagonal[r];
          gradient[fAt + r] += w - ge * (xi[r] - mu[r]);
          gradient[muAt + r] += ge;
          for (int j = 0; j < r; j++) {
            int t = d + j * (2 * d - j - 1) / 2 + (r - j - 1);
            gradient[fAt + t] -= g * (xi[j] - mu[j]);
            gradient[muAt + j] += g * f[t];
          }
        }
      }
    }
    double maxAlpha = alphas[0];
    for (int c = 1; c < k; c++) {
      maxAlpha = Math.max(maxAlpha, alphas[c]);
    }
    double sumAlpha = 0;
    for (int c = 0; c < k; c++) {
      sumAlpha += Math.exp(alphas[c] - maxAlpha);
    }
    double lseAlphas = Math.log(sumAlpha) + maxAlpha;
    for (int c = 0; c < k; c++) {
      gradient[c] -= n * Math.exp(alphas[c] - maxAlpha) / sumAlpha;
    }
    double gamma2 = wishartGamma * wishartGamma;
    double prior = 0;
    for (int c = 0; c < k; c++) {
      double[] f = icf[c];
      int fAt = icfStart + c * icfLength;
      double frobenius = 0;
      double sumQ = 0;
      for (int r = 0; r < d; r++) {
        double diag = Math.exp(f[r]);
        frobenius += diag * diag;
        sumQ += f[r];
        gradient[fAt + r] += gamma2 * diag * diag - wishartM;
      }
      for (int t = d; t < f.length; t++) {
        frobenius += f[t] * f[t];
        gradient[fAt + t] += gamma2 * f[t];
      }
      prior += 0.5 * gamma2 * frobenius - wishartM * sumQ;
    }
    double constant = -n * d * 0.5 * Math.log(2 * Math.PI);
    return constant + slse - n * lseAlphas + prior - k * wishartConstant;
  }
}
