package ad4j.samples.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The bundle-adjustment residual as one vector function: its value is that of the two scalar
 * methods, bit for bit, and its 2 × 15 Jacobian from one generated call agrees with their
 * generated gradients, with the vector-Jacobian and Jacobian-vector products, and with central
 * differences of the user's method.
 */
class BundleAdjustmentVectorTest {
  private static final double[] P = BundleAdjustment.POINT;
  private static final double[] CAMERA = Arrays.copyOfRange(P, 0, 11);
  private static final double[] POINT = Arrays.copyOfRange(P, 11, 14);

  @Test
  void valueIsTheTwoScalarResidualsBitForBit() {
    double[] r = BundleAdjustment.residual(CAMERA, POINT, P[14]);

    assertEquals(Double.doubleToRawLongBits(residualU(P)), Double.doubleToRawLongBits(r[0]));
    assertEquals(Double.doubleToRawLongBits(residualV(P)), Double.doubleToRawLongBits(r[1]));
  }

  @Test
  void jacobianRowsAreTheScalarGradientsAndMatchDifferences() {
    double[][] jacobian = new double[2][15];
    double[] value = BundleAdjustmentGrad.residualValueAndJacobian(CAMERA, POINT, P[14],
        jacobian);
    double[] u = new double[15];
    double[] v = new double[15];
    BundleAdjustmentGrad.residualUValueAndGradient(P[0], P[1], P[2], P[3], P[4], P[5], P[6],
        P[7], P[8], P[9], P[10], P[11], P[12], P[13], P[14], u);
    BundleAdjustmentGrad.residualVValueAndGradient(P[0], P[1], P[2], P[3], P[4], P[5], P[6],
        P[7], P[8], P[9], P[10], P[11], P[12], P[13], P[14], v);

    assertEquals(residualU(P), value[0]);
    for (int j = 0; j < 15; j++) {
      assertEquals(u[j], jacobian[0][j], 1e-12 * Math.max(1, Math.abs(u[j])), "row 0, " + j);
      assertEquals(v[j], jacobian[1][j], 1e-12 * Math.max(1, Math.abs(v[j])), "row 1, " + j);
      double h = 1e-5 * Math.max(1, Math.abs(P[j]));
      double[] plus = P.clone();
      double[] minus = P.clone();
      plus[j] += h;
      minus[j] -= h;
      double[] up = residual(plus);
      double[] down = residual(minus);
      for (int i = 0; i < 2; i++) {
        double difference = (up[i] - down[i]) / (2 * h);
        assertEquals(difference, jacobian[i][j], 1e-5 * Math.max(1, Math.abs(difference)),
            "entry " + i + ", " + j);
      }
    }
  }

  @Test
  void jacobianAgreesWithTheVectorProductsOfBothModes() {
    double[][] jacobian = BundleAdjustmentGrad.residualJacobian(CAMERA, POINT, P[14]);
    double[] seed = {0.7, -1.3};
    double[] cameraDot = new double[11];
    double[] pointDot = new double[3];
    for (int j = 0; j < 11; j++) {
      cameraDot[j] = 0.1 * (j + 1) * (j % 2 == 0 ? 1 : -1);
    }
    pointDot[0] = 0.4;
    pointDot[1] = -0.2;
    pointDot[2] = 0.9;
    double wDot = -0.5;

    double[] adjoints = new double[15];
    BundleAdjustmentGrad.residualPullback(CAMERA, POINT, P[14], seed, adjoints);
    double[] tangent = BundleAdjustmentGrad.residualTangent(CAMERA, POINT, P[14], cameraDot,
        pointDot, wDot);

    double[] direction = new double[15];
    System.arraycopy(cameraDot, 0, direction, 0, 11);
    System.arraycopy(pointDot, 0, direction, 11, 3);
    direction[14] = wDot;
    double seedJv = 0;
    for (int i = 0; i < 2; i++) {
      double row = 0;
      for (int j = 0; j < 15; j++) {
        row += jacobian[i][j] * direction[j];
        assertEquals(seed[0] * jacobian[0][j] + seed[1] * jacobian[1][j], adjoints[j],
            1e-12 * Math.max(1, Math.abs(adjoints[j])));
      }
      assertEquals(row, tangent[i], 1e-12 * Math.max(1, Math.abs(row)));
      seedJv += seed[i] * tangent[i];
    }
    double adjointsV = 0;
    for (int j = 0; j < 15; j++) {
      adjointsV += adjoints[j] * direction[j];
    }
    // the dot-product test: <seed, J v> = <J^T seed, v>
    assertEquals(seedJv, adjointsV, 1e-12 * Math.max(1, Math.abs(seedJv)));
  }

  private static double[] residual(double[] p) {
    return BundleAdjustment.residual(Arrays.copyOfRange(p, 0, 11), Arrays.copyOfRange(p, 11, 14),
        p[14]);
  }

  private static double residualU(double[] p) {
    return BundleAdjustment.residualU(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9],
        p[10], p[11], p[12], p[13], p[14]);
  }

  private static double residualV(double[] p) {
    return BundleAdjustment.residualV(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9],
        p[10], p[11], p[12], p[13], p[14]);
  }
}
