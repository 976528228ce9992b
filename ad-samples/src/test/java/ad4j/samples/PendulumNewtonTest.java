package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Newton's method with the generated Hessian of a misfit that calls an RK4 step helper
 * returning {@code double[]}: the Hessian against differences of the generated gradient and
 * second differences of the misfit itself, and the fit.
 */
class PendulumNewtonTest {
  private static final double[] OBSERVED = PendulumNewton.angles(PendulumNewton.TRUTH, 40,
      PendulumNewton.STEP);
  private static final double[][] POINTS = {PendulumNewton.START, {1.2, -0.4, 4.5},
      PendulumNewton.TRUTH};

  @Test
  void hessianMatchesDifferencesOfTheGeneratedGradient() {
    double h = 1e-4;
    double[] weights = {1, -8, 8, -1};
    double[] steps = {-2, -1, 1, 2};
    for (double[] p : POINTS) {
      double[][] hessian = PendulumNewtonGrad.misfitHessian(p, OBSERVED, PendulumNewton.STEP);
      for (int j = 0; j < 3; j++) {
        double[] column = new double[3];
        for (int s = 0; s < 4; s++) {
          double[] moved = p.clone();
          moved[j] += steps[s] * h;
          double[] g = PendulumNewtonGrad.misfitGradient(moved, OBSERVED, PendulumNewton.STEP);
          for (int i = 0; i < 3; i++) {
            column[i] += weights[s] * g[i] / (12 * h);
          }
        }
        for (int i = 0; i < 3; i++) {
          assertEquals(column[i], hessian[i][j], 1e-6 * Math.max(1, Math.abs(column[i])),
              "H[" + i + "][" + j + "] at " + java.util.Arrays.toString(p));
          assertEquals(hessian[j][i], hessian[i][j], 0.0, "symmetry");
        }
      }
    }
  }

  @Test
  void hessianMatchesSecondDifferencesOfTheMisfit() {
    double h = 2e-3;
    double[] weights = {1, -8, 8, -1};
    double[] steps = {-2, -1, 1, 2};
    for (double[] p : POINTS) {
      double[][] hessian = PendulumNewtonGrad.misfitHessian(p, OBSERVED, PendulumNewton.STEP);
      for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
          double second = 0;
          for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
              double[] moved = p.clone();
              moved[i] += steps[a] * h;
              moved[j] += steps[b] * h;
              second += weights[a] * weights[b]
                  * PendulumNewton.misfit(moved, OBSERVED, PendulumNewton.STEP);
            }
          }
          second /= 144 * h * h;
          assertEquals(second, hessian[i][j], 1e-5 * Math.max(1, Math.abs(second)),
              "H[" + i + "][" + j + "] at " + java.util.Arrays.toString(p));
        }
      }
    }
  }

  @Test
  void hessianVectorIsTheHessianTimesTheVector() {
    double[] v = {0.7, -1.3, 0.4};
    for (double[] p : POINTS) {
      double[][] hessian = PendulumNewtonGrad.misfitHessian(p, OBSERVED, PendulumNewton.STEP);
      double[] product = PendulumNewtonGrad.misfitHessianVector(p, OBSERVED,
          PendulumNewton.STEP, v);
      for (int i = 0; i < 3; i++) {
        double expected = 0;
        double scale = 0;
        for (int j = 0; j < 3; j++) {
          expected += hessian[i][j] * v[j];
          scale += Math.abs(hessian[i][j] * v[j]);
        }
        assertEquals(expected, product[i], 1e-12 * Math.max(1, scale));
      }
    }
  }

  @Test
  void newtonRecoversTheParametersQuadratically() {
    List<Double> norms = new ArrayList<>();
    double[] p = PendulumNewton.fit(PendulumNewton.START, OBSERVED, PendulumNewton.STEP,
        PendulumNewton.TOLERANCE, 50, (k, f, g) -> norms.add(g));
    assertArrayEquals(PendulumNewton.TRUTH, p, 1e-9);
    int last = norms.size() - 1;
    assertTrue(last < 15, "iterations: " + last);
    assertTrue(norms.get(last) < PendulumNewton.TOLERANCE, "final norm " + norms.get(last));
    // near the solution each step squares the error
    assertTrue(norms.get(last) < norms.get(last - 1) * norms.get(last - 1) * 1e3,
        "norms " + norms);
  }

  @Test
  void printIsOneLineWithTheIterationCount() {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    PendulumNewton.print(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    String output = buffer.toString(StandardCharsets.UTF_8);
    List<Double> norms = new ArrayList<>();
    PendulumNewton.fit(PendulumNewton.START, OBSERVED, PendulumNewton.STEP,
        PendulumNewton.TOLERANCE, 50, (k, f, g) -> norms.add(g));
    assertEquals(1, output.lines().count(), output);
    assertTrue(output.contains("(1.000000, 0.300000, 4.000000) in " + (norms.size() - 1)
        + " iterations"), output);
  }
}
