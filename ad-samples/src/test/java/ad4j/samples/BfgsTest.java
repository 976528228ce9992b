package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** BFGS with the generated Rosenbrock gradient. */
class BfgsTest {

  @Test
  void rosenbrockFromTheClassicStartConvergesToOneOne() {
    List<Double> values = new ArrayList<>();
    Bfgs.Result result = RosenbrockBfgs.run((k, f, gNorm, x) -> values.add(f));
    assertTrue(result.converged(), "not converged: " + result);
    assertTrue(result.iterations() < 100, "iterations: " + result.iterations());
    double[] x = result.x();
    assertEquals(1.0, x[0], 1e-8);
    assertEquals(1.0, x[1], 1e-8);
    assertTrue(result.value() < 1e-16, "f = " + result.value());
    // The Armijo condition makes every accepted step strictly decrease f.
    for (int k = 1; k < values.size(); k++) {
      assertTrue(values.get(k) < values.get(k - 1), "f increased at iteration " + k);
    }
    assertEquals(result.iterations() + 1, values.size());
  }

  @Test
  void startingPointIsNotModified() {
    double[] start = {-1.2, 1};
    Bfgs.minimize(RosenbrockBfgs.OBJECTIVE, start, 1e-10, 200, null);
    assertEquals(-1.2, start[0]);
    assertEquals(1.0, start[1]);
  }

  @Test
  void quadraticIsSolvedExactly() {
    // f = (x-1)² + 10 (y+2)² + 0.5 (x + z)², gradient written by hand: independent of ad4j.
    Bfgs.Objective quadratic = (p, g) -> {
      g[0] = 2 * (p[0] - 1) + (p[0] + p[2]);
      g[1] = 20 * (p[1] + 2);
      g[2] = (p[0] + p[2]);
      return (p[0] - 1) * (p[0] - 1) + 10 * (p[1] + 2) * (p[1] + 2)
          + 0.5 * (p[0] + p[2]) * (p[0] + p[2]);
    };
    Bfgs.Result result = Bfgs.minimize(quadratic, new double[] {5, 5, 5}, 1e-12, 100, null);
    assertTrue(result.converged());
    assertEquals(1, result.x()[0], 1e-11);
    assertEquals(-2, result.x()[1], 1e-11);
    assertEquals(-1, result.x()[2], 1e-11);
  }

  @Test
  void stopsAtTheIterationLimit() {
    Bfgs.Result result = Bfgs.minimize(RosenbrockBfgs.OBJECTIVE, RosenbrockBfgs.START, 0, 5, null);
    assertEquals(5, result.iterations());
    assertTrue(!result.converged());
  }
}
