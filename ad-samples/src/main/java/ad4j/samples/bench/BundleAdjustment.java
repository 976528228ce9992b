package ad4j.samples.bench;

import ad4j.Differentiable;

/**
 * The reprojection residual of bundle adjustment, as in Microsoft's ADBench ({@code ba}
 * objective): a camera with Rodrigues rotation {@code r} (for {@code θ = |r| ≠ 0}), centre
 * {@code C}, focal length {@code f}, principal point {@code x0} and radial distortion
 * {@code κ} sees the point {@code X}; the residual is {@code w (proj − feature)} with
 * {@code Xcam = R(r)(X − C)}, {@code p = Xcam[0:2] / Xcam[2]},
 * {@code L = 1 + κ1 |p|² + κ2 |p|⁴}, {@code proj = f L p + x0}, and the Rodrigues rotation
 * {@code R v = v cos θ + (w × v) sin θ + w (w·v)(1 − cos θ)}, {@code w = r / θ}.
 *
 * <p>The 15 inputs are those of ADBench's 2×15 Jacobian block: 11 camera parameters, the
 * 3 coordinates of the point and the weight {@code w}; the observed feature is fixed. The two
 * residual components are two methods, and together one vector function.
 */
public final class BundleAdjustment {
  private BundleAdjustment() {}

  /** The observed feature, first coordinate. */
  public static final double FEATURE_U = 310.25;

  /** The observed feature, second coordinate. */
  public static final double FEATURE_V = 255.5;

  /** A point at which the benchmarks evaluate both residuals (the order of the parameters). */
  public static final double[] POINT = {
    0.12, -0.21, 0.05, // r
    0.3, -0.4, -6.0, // C
    520.0, // f
    320.0, 240.0, // x0
    -0.12, 0.015, // kappa
    0.25, 0.35, 1.5, // X
    0.9 // w
  };

  /**
   * The first component of the reprojection residual.
   *
   * @param r0 rotation, Rodrigues form
   * @param r1 rotation
   * @param r2 rotation
   * @param c0 camera centre
   * @param c1 camera centre
   * @param c2 camera centre
   * @param f focal length
   * @param u0 principal point, first coordinate
   * @param v0 principal point, second coordinate
   * @param k1 radial distortion, first coefficient
   * @param k2 radial distortion, second coefficient
   * @param x0 point
   * @param x1 point
   * @param x2 point
   * @param w weight
   * @return {@code w (proj[0] − feature[0])}
   */
  @Differentiable
  public static double residualU(
      double r0, double r1, double r2, double c0, double c1, double c2, double f,
      double u0, double v0, double k1, double k2, double x0, double x1, double x2, double w) {
    double d0 = x0 - c0;
    double d1 = x1 - c1;
    double d2 = x2 - c2;
    double theta = Math.sqrt(r0 * r0 + r1 * r1 + r2 * r2);
    double cosTheta = Math.cos(theta);
    double sinTheta = Math.sin(theta);
    double thetaInverse = 1 / theta;
    double w0 = r0 * thetaInverse;
    double w1 = r1 * thetaInverse;
    double w2 = r2 * thetaInverse;
    double tmp = (w0 * d0 + w1 * d1 + w2 * d2) * (1 - cosTheta);
    double xc0 = d0 * cosTheta + (w1 * d2 - w2 * d1) * sinTheta + w0 * tmp;
    double xc1 = d1 * cosTheta + (w2 * d0 - w0 * d2) * sinTheta + w1 * tmp;
    double xc2 = d2 * cosTheta + (w0 * d1 - w1 * d0) * sinTheta + w2 * tmp;
    double p0 = xc0 / xc2;
    double p1 = xc1 / xc2;
    double rsq = p0 * p0 + p1 * p1;
    double distortion = 1 + k1 * rsq + k2 * rsq * rsq;
    double proj = f * distortion * p0 + u0;
    return w * (proj - FEATURE_U);
  }

  /**
   * The second component of the reprojection residual.
   *
   * @param r0 rotation, Rodrigues form
   * @param r1 rotation
   * @param r2 rotation
   * @param c0 camera centre
   * @param c1 camera centre
   * @param c2 camera centre
   * @param f focal length
   * @param u0 principal point, first coordinate
   * @param v0 principal point, second coordinate
   * @param k1 radial distortion, first coefficient
   * @param k2 radial distortion, second coefficient
   * @param x0 point
   * @param x1 point
   * @param x2 point
   * @param w weight
   * @return {@code w (proj[1] − feature[1])}
   */
  @Differentiable
  public static double residualV(
      double r0, double r1, double r2, double c0, double c1, double c2, double f,
      double u0, double v0, double k1, double k2, double x0, double x1, double x2, double w) {
    double d0 = x0 - c0;
    double d1 = x1 - c1;
    double d2 = x2 - c2;
    double theta = Math.sqrt(r0 * r0 + r1 * r1 + r2 * r2);
    double cosTheta = Math.cos(theta);
    double sinTheta = Math.sin(theta);
    double thetaInverse = 1 / theta;
    double w0 = r0 * thetaInverse;
    double w1 = r1 * thetaInverse;
    double w2 = r2 * thetaInverse;
    double tmp = (w0 * d0 + w1 * d1 + w2 * d2) * (1 - cosTheta);
    double xc0 = d0 * cosTheta + (w1 * d2 - w2 * d1) * sinTheta + w0 * tmp;
    double xc1 = d1 * cosTheta + (w2 * d0 - w0 * d2) * sinTheta + w1 * tmp;
    double xc2 = d2 * cosTheta + (w0 * d1 - w1 * d0) * sinTheta + w2 * tmp;
    double p0 = xc0 / xc2;
    double p1 = xc1 / xc2;
    double rsq = p0 * p0 + p1 * p1;
    double distortion = 1 + k1 * rsq + k2 * rsq * rsq;
    double proj = f * distortion * p1 + v0;
    return w * (proj - FEATURE_V);
  }

  /**
   * Both components of the reprojection residual as one vector function, the way ADBench
   * states it: the 11 camera parameters, the point and the weight in, {@code w (proj −
   * feature)} out. Its 2 × 15 Jacobian is one {@code residualJacobian} call.
   *
   * @param camera r (3, Rodrigues form), C (3), f, x0 (2), κ (2): 11 values
   * @param point X: 3 values
   * @param w the weight
   * @return the two residual components
   */
  @Differentiable
  public static double[] residual(double[] camera, double[] point, double w) {
    double r0 = camera[0];
    double r1 = camera[1];
    double r2 = camera[2];
    double d0 = point[0] - camera[3];
    double d1 = point[1] - camera[4];
    double d2 = point[2] - camera[5];
    double theta = Math.sqrt(r0 * r0 + r1 * r1 + r2 * r2);
    double cosTheta = Math.cos(theta);
    double sinTheta = Math.sin(theta);
    double thetaInverse = 1 / theta;
    double w0 = r0 * thetaInverse;
    double w1 = r1 * thetaInverse;
    double w2 = r2 * thetaInverse;
    double tmp = (w0 * d0 + w1 * d1 + w2 * d2) * (1 - cosTheta);
    double xc0 = d0 * cosTheta + (w1 * d2 - w2 * d1) * sinTheta + w0 * tmp;
    double xc1 = d1 * cosTheta + (w2 * d0 - w0 * d2) * sinTheta + w1 * tmp;
    double xc2 = d2 * cosTheta + (w0 * d1 - w1 * d0) * sinTheta + w2 * tmp;
    double p0 = xc0 / xc2;
    double p1 = xc1 / xc2;
    double rsq = p0 * p0 + p1 * p1;
    double distortion = 1 + camera[9] * rsq + camera[10] * rsq * rsq;
    double[] residual = new double[2];
    residual[0] = w * (camera[6] * distortion * p0 + camera[7] - FEATURE_U);
    residual[1] = w * (camera[6] * distortion * p1 + camera[8] - FEATURE_V);
    return residual;
  }
}
