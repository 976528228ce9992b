package ad4j.samples.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The dense layer's Jacobian, which {@code layerValueAndJacobian} takes by one reverse sweep per
 * output over one recording of the loops: against central differences of the layer itself,
 * and against the pullbacks, row by row.
 */
class DenseLayerTest {
  private static final int OUT = 3;
  private static final int IN = 4;

  private final double[][] w = new double[OUT][IN];
  private final double[] b = new double[OUT];
  private final double[] x = new double[IN];

  DenseLayerTest() {
    Random random = new Random(7);
    for (double[] row : w) {
      for (int j = 0; j < IN; j++) {
        row[j] = random.nextGaussian();
      }
    }
    for (int i = 0; i < OUT; i++) {
      b[i] = random.nextGaussian();
    }
    for (int j = 0; j < IN; j++) {
      x[j] = random.nextGaussian();
    }
  }

  @Test
  void jacobianMatchesCentralDifferencesOfTheLayer() {
    int slots = OUT * IN + OUT + IN;
    double[][] jacobian = new double[OUT][slots];
    double[] value = DenseLayerGrad.layerValueAndJacobian(w, b, x, jacobian);

    assertArrayEquals(DenseLayer.layer(w, b, x), value);
    double[] flat = flat();
    for (int k = 0; k < slots; k++) {
      double h = 1e-5;
      double[] plus = flat.clone();
      plus[k] += h;
      double[] minus = flat.clone();
      minus[k] -= h;
      double[] up = layerAt(plus);
      double[] down = layerAt(minus);
      for (int i = 0; i < OUT; i++) {
        assertEquals((up[i] - down[i]) / (2 * h), jacobian[i][k], 1e-8, "[" + i + "][" + k + "]");
      }
    }
  }

  @Test
  void everyRowIsThePullbackOfItsUnitSeed() {
    int slots = OUT * IN + OUT + IN;
    double[][] jacobian = DenseLayerGrad.layerJacobian(w, b, x);
    for (int i = 0; i < OUT; i++) {
      double[] seed = new double[OUT];
      seed[i] = 1;
      double[] row = new double[slots];
      DenseLayerGrad.layerPullback(w, b, x, seed, row);
      assertArrayEquals(row, jacobian[i], 1e-15 * 64, "row " + i);
    }
  }

  private double[] flat() {
    double[] flat = new double[OUT * IN + OUT + IN];
    for (int i = 0; i < OUT; i++) {
      System.arraycopy(w[i], 0, flat, i * IN, IN);
    }
    System.arraycopy(b, 0, flat, OUT * IN, OUT);
    System.arraycopy(x, 0, flat, OUT * IN + OUT, IN);
    return flat;
  }

  private static double[] layerAt(double[] flat) {
    double[][] w = new double[OUT][];
    for (int i = 0; i < OUT; i++) {
      w[i] = Arrays.copyOfRange(flat, i * IN, (i + 1) * IN);
    }
    return DenseLayer.layer(w, Arrays.copyOfRange(flat, OUT * IN, OUT * IN + OUT),
        Arrays.copyOfRange(flat, OUT * IN + OUT, flat.length));
  }
}
