package ad4j.processor.testing;

import java.util.function.ToDoubleFunction;

/**
 * The fourth-order central difference of a function of a flat point along one slot, at one
 * step: what the random-program tests compare each slot of a gradient with, at two steps, to
 * skip slots whose stencil crosses a kink (where the two disagree).
 */
public final class CentralDifferences {
  private CentralDifferences() {}

  /** {@code (f(x - 2h) - 8 f(x - h) + 8 f(x + h) - f(x + 2h)) / 12h} along {@code slot}. */
  public static double at(ToDoubleFunction<double[]> f, double[] point, int slot, double h) {
    double[] steps = {-2 * h, -h, h, 2 * h};
    double[] values = new double[4];
    for (int s = 0; s < 4; s++) {
      double[] moved = point.clone();
      moved[slot] += steps[s];
      values[s] = f.applyAsDouble(moved);
    }
    return (values[0] - 8 * values[1] + 8 * values[2] - values[3]) / (12 * h);
  }
}
