package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Newton's method with the generated Hessian of an order-2 method. */
class NewtonRosenbrockTest {

  @Test
  void hessianIsTheAnalyticOne() {
    double x = -1.2;
    double y = 1;
    double[][] h = NewtonRosenbrockGrad.valueHessian(x, y);
    assertEquals(1200 * x * x - 400 * y + 2, h[0][0], 1e-9);
    assertEquals(-400 * x, h[0][1], 1e-9);
    assertEquals(-400 * x, h[1][0], 1e-9);
    assertEquals(200, h[1][1], 1e-9);
    double[] hv = NewtonRosenbrockGrad.valueHessianVector(x, y, new double[] {0.5, -2});
    assertEquals(h[0][0] * 0.5 - h[0][1] * 2, hv[0], 1e-9);
    assertEquals(h[1][0] * 0.5 - h[1][1] * 2, hv[1], 1e-9);
  }

  @Test
  void newtonFromTheClassicStartConvergesQuadraticallyToOneOne() {
    List<Double> norms = new ArrayList<>();
    double[] x = NewtonRosenbrock.minimize(-1.2, 1, 1e-10, 100, (k, f, g) -> norms.add(g));
    assertEquals(1.0, x[0], 1e-10);
    assertEquals(1.0, x[1], 1e-10);
    assertTrue(norms.size() < 40, "iterations: " + norms.size());
    // near the minimum each step squares the error: the last steps shrink the gradient fast
    int last = norms.size() - 1;
    assertTrue(norms.get(last) < 1e-10, "final gradient norm " + norms.get(last));
    assertTrue(norms.get(last - 1) < 1e-3, "gradient norm before the last step "
        + norms.get(last - 1));
  }

  @Test
  void newtonNeedsFewerIterationsThanBfgsToTheSameTolerance() {
    List<Double> norms = new ArrayList<>();
    NewtonRosenbrock.minimize(-1.2, 1, NewtonRosenbrock.TOLERANCE, 100,
        (k, f, g) -> norms.add(g));
    Bfgs.Result bfgs = RosenbrockBfgs.run(null);
    assertTrue(bfgs.converged());
    int newtonIterations = norms.size() - 1;
    assertTrue(newtonIterations < bfgs.iterations(),
        "Newton " + newtonIterations + ", BFGS " + bfgs.iterations());
  }

  @Test
  void printShowsNewtonAndBfgsIterationCounts() {
    java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
    NewtonRosenbrock.print(new java.io.PrintStream(buffer, true,
        java.nio.charset.StandardCharsets.UTF_8));
    String output = buffer.toString(java.nio.charset.StandardCharsets.UTF_8);
    List<Double> norms = new ArrayList<>();
    NewtonRosenbrock.minimize(-1.2, 1, NewtonRosenbrock.TOLERANCE, 100,
        (k, f, g) -> norms.add(g));
    assertTrue(output.contains("in " + (norms.size() - 1) + " iterations"), output);
    assertTrue(output.contains("BFGS on the same function from the same start, to the same"
        + " gradient norm 1e-10: " + RosenbrockBfgs.run(null).iterations() + " iterations"), output);
  }
}
