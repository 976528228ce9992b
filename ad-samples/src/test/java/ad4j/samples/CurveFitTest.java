package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresOptimizer;
import org.junit.jupiter.api.Test;

/**
 * The curve-fitting sample: the generated Jacobian against central differences of the model,
 * and the fit recovering the parameters the data were made with.
 */
class CurveFitTest {
  @Test
  void jacobianMatchesCentralDifferencesOfTheModel() {
    double[] t = CurveFit.times();
    double[] p = {1.7, 0.6, 2.2, -0.3};
    double[][] jacobian = new double[t.length][4];

    double[] value = CurveFitGrad.modelValueAndJacobian(p, t, jacobian);

    assertArrayEquals(CurveFit.model(p, t), value, 0.0); // bit for bit
    for (int j = 0; j < 4; j++) {
      double h = 1e-4;
      double[] up = p.clone();
      double[] down = p.clone();
      up[j] += h;
      down[j] -= h;
      double[] yUp = CurveFit.model(up, t);
      double[] yDown = CurveFit.model(down, t);
      for (int i = 0; i < t.length; i++) {
        assertEquals((yUp[i] - yDown[i]) / (2 * h), jacobian[i][j], 1e-6,
            "row " + i + ", parameter " + j);
      }
    }
  }

  @Test
  void levenbergMarquardtRecoversTheParametersTheDataWereMadeWith() {
    double[] t = CurveFit.times();
    double[] y = CurveFit.observations(t);

    LeastSquaresOptimizer.Optimum optimum = CurveFit.fit(t, y, new double[] {1, 0.3, 2.5, 0});

    double[] fitted = optimum.getPoint().toArray();
    for (int j = 0; j < 4; j++) {
      assertEquals(CurveFit.TRUE_PARAMETERS[j], fitted[j], 0.1, "parameter " + j);
    }
    assertTrue(optimum.getRMS() < 0.06, "RMS " + optimum.getRMS()); // the noise is 0.05
  }
}
