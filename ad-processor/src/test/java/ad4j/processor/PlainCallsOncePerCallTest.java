package ad4j.processor;

import static ad4j.processor.testing.ArrayFunctionChecks.invoke;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.GradientCheck;
import java.lang.reflect.Field;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The members that make several sweeps ({@code mHessian}, {@code mValueGradientAndHessian},
 * {@code mJacobian}, {@code mValueAndJacobian}) run the method's calls that run as written once
 * per call, as the method does, and every sweep uses that one evaluation (DESIGN.md,
 * "Soundness"): a random draw for the reparameterisation trick is drawn once, a counter counts
 * once, and the derivatives are those of the method for that draw. References: the user's method
 * with the generator seeded alike before each evaluation, by central differences.
 */
@ExtendWith(TapeIsEmpty.class)
class PlainCallsOncePerCallTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.SplittableRandom;",
      "final class Draws {",
      "  static final java.util.Random RNG = new java.util.Random(1);",
      "  static int count;",
      "  static void tick() { count++; }",
      "  @Differentiable(order = 2) static double scalar(double x, double y) {",
      "    tick();",
      "    double e = RNG.nextGaussian();",
      "    return Math.sin(x * y) * e + x * x * Math.exp(e);",
      "  }",
      "  @Differentiable(order = 2)",
      "  static double seeded(SplittableRandom rng, double x, double y) {",
      "    double e = rng.nextDouble();",
      "    tick();",
      "    return Math.cos(x * e) * y * y + e * x;",
      "  }",
      "  static double helper(double y) { return DrawsGrad.scalarHessian(y, 0.5)[0][1]; }",
      "  @Differentiable(order = 2) static double nested(double x, double y) {",
      "    double h = helper(0.25);",
      "    return x * x * y * h;",
      "  }",
      "  @Differentiable(order = 2) static double square(double z) { return z * z; }",
      "  @Differentiable(order = 2)",
      "  static double reparameterised(double mu, double sigma) {",
      "    double eps = RNG.nextGaussian();",
      "    tick();",
      "    double z = mu + sigma * eps;",
      "    return square(z) + Math.sin(z);",
      "  }",
      "  @Differentiable static double[] reparameterisedRows(double mu, double sigma) {",
      "    double eps = RNG.nextGaussian();",
      "    tick();",
      "    double z = mu + sigma * eps;",
      "    return new double[] {square(z), z * mu, sigma * square(eps)};",
      "  }",
      "  @Differentiable static double[] tall(double x, double y) {",
      "    tick();",
      "    double e = RNG.nextGaussian();",
      "    return new double[] {x * e, y * y * e, Math.sin(x * y) + e};",
      "  }",
      "  @Differentiable static double[] wide(double x, double y, double z) {",
      "    tick();",
      "    double e = RNG.nextGaussian();",
      "    return new double[] {x * y * e, z * e + x};",
      "  }",
      "}");

  private static final CompiledOnce DRAWS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Draws",
          SOURCE));

  private static final long SEED = 20_261_128L;

  private static Class<?> user() {
    return DRAWS.get().load("com.example.Draws");
  }

  private static Class<?> grad() {
    return DRAWS.get().load("com.example.DrawsGrad");
  }

  /** Seeds the class's generator and zeroes its counter: the next call draws as the last did. */
  private static void reset() throws Exception {
    ((java.util.Random) field("RNG").get(null)).setSeed(SEED);
    field("count").setInt(null, 0);
  }

  private static int count() throws Exception {
    return field("count").getInt(null);
  }

  private static Field field(String name) throws Exception {
    Field field = user().getDeclaredField(name);
    field.setAccessible(true);
    return field;
  }

  /** {@code f(x)} evaluated with the generator seeded afresh, as a function of the point. */
  private static double seededValue(String name, double[] x) {
    try {
      reset();
      return (double) invoke(user(), name, x[0], x[1]);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /**
   * The Hessian of {@code gradient} (a function of the point, with the draw fixed) by
   * fourth-order central differences.
   */
  private static double[][] hessianByDifferences(Function<double[], double[]> gradient,
      double[] x) {
    int n = x.length;
    double[][] hessian = new double[n][n];
    double h = 1e-4;
    double[] weights = {1, -8, 8, -1};
    double[] steps = {-2, -1, 1, 2};
    for (int k = 0; k < n; k++) {
      for (int s = 0; s < steps.length; s++) {
        double[] shifted = x.clone();
        shifted[k] += steps[s] * h;
        double[] g = gradient.apply(shifted);
        for (int i = 0; i < n; i++) {
          hessian[i][k] += weights[s] * g[i] / (12 * h);
        }
      }
    }
    return hessian;
  }

  private static void assertClose(String what, double[][] actual, double[][] expected) {
    for (int i = 0; i < expected.length; i++) {
      for (int k = 0; k < expected[i].length; k++) {
        assertWithMessage("%s[%s][%s]", what, i, k).that(actual[i][k])
            .isWithin(1e-6 * Math.max(1, Math.abs(expected[i][k]))).of(expected[i][k]);
      }
    }
  }

  @Test
  void hessianMembersDrawOnceAndDifferentiateThatDraw() throws Exception {
    checkHessians("scalar", new double[] {0.3, -0.8});
  }

  @Test
  void aDrawPassedToACalleeIsDrawnOnce() throws Exception {
    // the reparameterisation trick: z = mu + sigma * eps, eps drawn once, z passed on
    checkHessians("reparameterised", new double[] {0.4, 1.3});
    checkJacobians("reparameterisedRows", new double[] {0.4, 1.3}, 3);
  }

  private static void checkHessians(String name, double[] x) throws Exception {
    // the gradient for a fixed draw, checked against the user's method first
    Function<double[], double[]> gradient = p -> {
      try {
        reset();
        return (double[]) invoke(grad(), name + "Gradient", p[0], p[1]);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
    GradientCheck.Result numeric =
        GradientCheck.check(p -> seededValue(name, p), x, gradient.apply(x));
    assertThat(numeric.worstError()).isAtMost(1e-7);
    double[][] expected = hessianByDifferences(gradient, x);

    reset();
    double[][] hessian = (double[][]) invoke(grad(), name + "Hessian", x[0], x[1]);
    assertWithMessage("calls of tick() by %sHessian", name).that(count()).isEqualTo(1);
    assertClose(name + "Hessian", hessian, expected);

    reset();
    double[] g = new double[2];
    double[][] both = new double[2][2];
    double value = (double) invoke(grad(), name + "ValueGradientAndHessian", x[0], x[1], g,
        both);
    assertWithMessage("calls of tick() by %sValueGradientAndHessian", name).that(count())
        .isEqualTo(1);
    assertThat(value).isEqualTo(seededValue(name, x));
    assertThat(g).isEqualTo(gradient.apply(x));
    assertClose(name + "ValueGradientAndHessian", both, expected);
  }

  @Test
  void aGeneratorPassedAsAnArgumentIsDrawnFromOnce() throws Exception {
    double[] x = {1.1, 0.4};
    Function<double[], double[]> gradient = p -> {
      try {
        return (double[]) invoke(grad(), "seededGradient", new SplittableRandom(SEED), p[0],
            p[1]);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
    GradientCheck.Result numeric = GradientCheck.check(p -> {
      try {
        return (double) invoke(user(), "seeded", new SplittableRandom(SEED), p[0], p[1]);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }, x, gradient.apply(x));
    assertThat(numeric.worstError()).isAtMost(1e-7);
    double[][] expected = hessianByDifferences(gradient, x);

    SplittableRandom rng = new SplittableRandom(SEED);
    reset();
    double[][] hessian = (double[][]) invoke(grad(), "seededHessian", rng, x[0], x[1]);
    assertThat(count()).isEqualTo(1);
    assertClose("seededHessian", hessian, expected);
    // one draw taken from the generator: the next is the second of a fresh one
    SplittableRandom fresh = new SplittableRandom(SEED);
    fresh.nextDouble();
    assertThat(rng.nextDouble()).isEqualTo(fresh.nextDouble());

    reset();
    double[][] both = new double[2][2];
    invoke(grad(), "seededValueGradientAndHessian", new SplittableRandom(SEED), x[0], x[1],
        new double[2], both);
    assertThat(count()).isEqualTo(1);
    assertClose("seededValueGradientAndHessian", both, expected);
  }

  @Test
  void aCallThatRunsAnotherMembersSweepsIsOneCall() throws Exception {
    // helper runs scalarHessian, whose sweeps record their own calls: the first sweep of
    // nestedHessian runs helper once, the second reads its result back
    reset();
    double h = (double) invoke(user(), "helper", 0.25);
    reset();
    double[][] hessian = (double[][]) invoke(grad(), "nestedHessian", 0.7, -0.4);
    assertThat(count()).isEqualTo(1);
    // x^2 y h: [[2 y h, 2 x h], [2 x h, 0]]
    assertClose("nestedHessian", hessian,
        new double[][] {{2 * -0.4 * h, 2 * 0.7 * h}, {2 * 0.7 * h, 0}});
  }

  @Test
  void jacobianMembersDrawOnceAndDifferentiateThatDraw() throws Exception {
    // tall: three elements, two slots (a forward sweep per slot after the value); wide: two
    // elements, three slots (the rows after one forward sweep)
    checkJacobians("tall", new double[] {0.6, -1.3}, 3);
    checkJacobians("wide", new double[] {0.6, -1.3, 2.1}, 2);
  }

  private static void checkJacobians(String name, double[] x, int rows) throws Exception {
    Object[] arguments = new Object[x.length];
    for (int i = 0; i < x.length; i++) {
      arguments[i] = x[i];
    }
    reset();
    double[] value = (double[]) invoke(user(), name, arguments);
    double[][] expected = new double[rows][];
    for (int i = 0; i < rows; i++) {
      int element = i;
      expected[i] = GradientCheck.numericGradient(p -> {
        try {
          reset();
          Object[] at = new Object[p.length];
          for (int k = 0; k < p.length; k++) {
            at[k] = p[k];
          }
          return ((double[]) invoke(user(), name, at))[element];
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }, x);
    }

    reset();
    double[][] jacobian = (double[][]) invoke(grad(), name + "Jacobian", arguments);
    assertWithMessage("calls of tick() by %sJacobian", name).that(count()).isEqualTo(1);
    assertClose(name + "Jacobian", jacobian, expected);

    reset();
    double[][] into = new double[rows][x.length];
    Object[] withMatrix = java.util.Arrays.copyOf(arguments, x.length + 1);
    withMatrix[x.length] = into;
    double[] returned = (double[]) invoke(grad(), name + "ValueAndJacobian", withMatrix);
    assertWithMessage("calls of tick() by %sValueAndJacobian", name).that(count())
        .isEqualTo(1);
    assertThat(returned).isEqualTo(value);
    assertClose(name + "ValueAndJacobian", into, expected);
  }
}
