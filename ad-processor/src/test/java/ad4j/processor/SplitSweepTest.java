package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.BytecodeSizes;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.runtime.internal.Tape;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The forward-over-reverse sweep of a long straight-line order-2 method is split into segments
 * as its first-order members are, and a long loop body in a sweep is cut into parts: every
 * generated method stays under HotSpot's 8000-byte limit for compiling it, and the Hessian is
 * still that of the user's method.
 */
class SplitSweepTest {
  private static final int HOTSPOT_LIMIT = 8000;

  /** {@code lines} statements of a chain in two inputs; at 150 its whole sweep passes 64 KB. */
  private static String chain(String name, int lines) {
    StringBuilder method = new StringBuilder("  @Differentiable(order = 2) static double ")
        .append(name).append("(double x, double y) {\n    double s = x;\n");
    for (int i = 0; i < lines; i++) {
      method.append("    s = s * 0.5 + Math.sin(y * s + ").append(i % 7).append(") * x;\n");
    }
    return method.append("    return s * y;\n  }\n").toString();
  }

  private static final String SOURCE = "package com.example;\nimport ad4j.Differentiable;\n"
      + "final class Chains {\n" + chain("shortish", 30) + chain("huge", 150)
      // a long loop body: the sweep's loop is cut into part methods
      + chain("looped", 150).replace("double s = x;\n", "double s = x;\n"
          + "    for (int k = 0; k < 2; k++) {\n").replace("    return", "    }\n    return")
      // a caller's second-order code takes the split callees' pullbacks with tangents
      + "  @Differentiable(order = 2) static double caller(double x, double y) {\n"
      + "    return huge(x * y, y) * x + shortish(y, x * x);\n  }\n}\n";

  private static final Compiled COMPILED = InProcessCompiler.compileWith(
      List.of("-Xlint:all", "-Werror"), "com.example.Chains", SOURCE);

  /**
   * At 30 statements the first-order members fit in one method each; the sweep, about three
   * times as long, does not, and is split alone. At 150 both are split (and the whole sweep
   * would not even be a legal method).
   */
  @Test
  void theSweepIsSplitWhereItWouldPassTheLimit() {
    Map<String, Integer> sizes = BytecodeSizes.of(COMPILED.compilation(),
        "com/example/ChainsGrad.class");
    assertThat(sizes.keySet()).containsAtLeast(
        "shortishHessianForward1(Lad4j/runtime/internal/Tape;DDDD)V",
        "shortishHessianReverse1(Lad4j/runtime/internal/Tape;DDDD)V",
        "hugeForward1(Lad4j/runtime/internal/Tape;DD)V",
        "hugeHessianForward1(Lad4j/runtime/internal/Tape;DDDD)V");
    assertThat(sizes.keySet().stream().filter(m -> m.startsWith("loopedHessianSweepPart"))
        .toList()).isNotEmpty();
    assertThat(sizes.keySet().stream().filter(m -> m.startsWith("shortishForward")).toList())
        .isEmpty();
    for (Map.Entry<String, Integer> method : sizes.entrySet()) {
      assertWithMessage(method.getKey()).that(method.getValue()).isLessThan(HOTSPOT_LIMIT);
    }
  }

  @Test
  void theHessianMatchesCentralDifferencesOfTheGradientAndHvTheHessian() throws Exception {
    Random random = new Random(5);
    for (String name : List.of("shortish", "huge", "looped", "caller")) {
      for (int trial = 0; trial < 3; trial++) {
        double x = 0.2 + 0.5 * random.nextDouble();
        double y = 0.3 + 0.6 * random.nextDouble();
        double[][] hessian = (double[][]) invoke(name + "Hessian", x, y);
        double h = 1e-4;
        double[][] columns = {
            difference(name, x, y, h, 0), difference(name, x, y, h, 1)};
        for (int i = 0; i < 2; i++) {
          for (int j = 0; j < 2; j++) {
            double reference = (columns[j][i] + columns[i][j]) / 2;
            assertWithMessage("H[%s][%s] of %s at (%s, %s)", i, j, name, x, y)
                .that(hessian[i][j]).isWithin(1e-6 * Math.max(1, Math.abs(reference)))
                .of(reference);
          }
        }
        assertThat(Double.doubleToRawLongBits(hessian[0][1]))
            .isEqualTo(Double.doubleToRawLongBits(hessian[1][0]));
        double[] v = {random.nextDouble() - 0.5, random.nextDouble() - 0.5};
        double[] product = (double[]) invoke(name + "HessianVector", x, y, v);
        for (int i = 0; i < 2; i++) {
          double expected = hessian[i][0] * v[0] + hessian[i][1] * v[1];
          double scale = Math.abs(hessian[i][0] * v[0]) + Math.abs(hessian[i][1] * v[1]);
          assertWithMessage("(H v)[%s] of %s", i, name).that(product[i])
              .isWithin(1e-12 * Math.max(1, scale)).of(expected);
        }
        // the gradient the sweep computes on the way is the first-order one, bit for bit
        double[] gradient = (double[]) invoke(name + "Gradient", x, y);
        double[] written = new double[2];
        double[][] writtenHessian = new double[2][2];
        double value = (double) invoke(name + "ValueGradientAndHessian", x, y, written,
            writtenHessian);
        assertThat(written).isEqualTo(gradient);
        assertThat(writtenHessian).isEqualTo(hessian);
        Method primal = COMPILED.load("com.example.Chains")
            .getDeclaredMethod(name, double.class, double.class);
        primal.setAccessible(true);
        assertThat(value).isEqualTo(primal.invoke(null, x, y));
        assertThat(Tape.current().size()).isEqualTo(0);
      }
    }
  }

  /** Column {@code k} of the Hessian: the fourth-order central difference of the gradient. */
  private static double[] difference(String name, double x, double y, double h, int k)
      throws Exception {
    double[] result = new double[2];
    double[] weights = {1, -8, 8, -1};
    double[] steps = {-2, -1, 1, 2};
    for (int s = 0; s < 4; s++) {
      double dx = k == 0 ? steps[s] * h : 0;
      double dy = k == 1 ? steps[s] * h : 0;
      double[] g = (double[]) invoke(name + "Gradient", x + dx, y + dy);
      for (int i = 0; i < 2; i++) {
        result[i] += weights[s] * g[i] / (12 * h);
      }
    }
    return result;
  }

  private static Object invoke(String name, Object... arguments) throws Exception {
    return COMPILED.invoke("com.example.ChainsGrad", name, arguments);
  }
}
