package ad4j.processor;

import static ad4j.processor.testing.GeneratedText.line;
import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.GeneratedText;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A probe of session 50's algebra on the reverse sweep's adjoint sums ({@code
 * optimize/LikeTerms}; {@code optimize/CommonFactors} expanding adjoints that are sums read once
 * and multiplying a factor common to every term of a sum of at most 8 adjoints once) and of its
 * interplay with {@code SumSpreading}, {@code ElementAdjointSums} and methods cut into parts.
 * Each class is compiled with {@code -Xlint:all -Werror}, whole and cut into parts of 1
 * statement, and each method checked by {@link MemberAgreement}: the gradient against
 * differences of order 8 of the user's method, the members against each other, forward against
 * reverse mode, and at order 2 the Hessian against differences of the gradient and {@code
 * mHessianVector} against the Hessian; vector functions by their Jacobian.
 *
 * <p>The programs aim at what the algebra could get wrong: signs ({@code -=}, negations,
 * subtracted products), like terms whose coefficients cancel to zero or do not sum to a {@code
 * double} exactly (0.1 + 0.2, 1e300 + 1e300, subnormals), {@code -0.0} factors, a factor
 * reassigned between the terms (also inside one statement, and carried by a loop), swaps in a
 * loop, array elements written between two reads, an alias of a local array, two index
 * parameters that are equal at run time ({@code v[i] * v[j]} with {@code i == j}), {@code int},
 * {@code long}, {@code float} and cast factors (an {@code int} product that overflows),
 * division, {@code Math.fma}, {@code Math.pow}, {@code Math.hypot}, helpers' pullbacks,
 * branches, a {@code @Checkpointed} loop, Jacobians by rows and by columns, and sums of 8 and 9
 * adjoints with a common factor (the bound {@code MOST_TERMS_WITH_A_COMMON_FACTOR}) and of 16
 * terms, one of them with every term subtracted. The cases fail when the processor drops the
 * sign of a sum whose common factor is taken out, or sums like terms' coefficients without the
 * constants inside their products (two mutants tried while writing the probe).
 *
 * <p>The same checks ran on a few hundred random polynomial programs of this shape, whole and
 * cut into parts (not kept: they take many minutes). Neither found a wrong derivative or a
 * crash. The one uncompilable output was not the algebra's: a class of eight long random
 * methods cut into parts of 1 or 3 statements passed the class file's limit of constants
 * (javac: "too many constants").
 */
@ExtendWith(TapeIsEmpty.class)
class AdjointAlgebraProbeTest {
  private static final String SOURCE = """
      package com.example;

      import ad4j.Differentiable;

      @SuppressWarnings({"lossy-conversions", "cast"})
      final class Alg {
        @Differentiable(order = 2) static double signs(double x, double y) {
          double a = x * y - 3 * x * y * y;
          double b = -(x * y) + x * x;
          double c = x - y;
          c -= x * y * 2;
          c -= -(y * x * 3);
          return a * b - c * a + b * c - (-(a * c));
        }
        @Differentiable(order = 2) static double beale(double x, double y) {
          double a = 1.5 - x + x * y;
          double b = 2.25 - x + x * y * y;
          double c = 2.625 - x + x * y * y * y;
          return a * a + b * b + c * c;
        }
        @Differentiable(order = 2) static double bealeNegated(double x, double y) {
          double a = 1.5 - x - x * y;
          double b = 2.25 + x - x * y * y;
          double c = -(2.625 - x * y * y * y);
          return a * a - b * b * 0.5 + c * c;
        }
        @Differentiable static double allSubtracted(double x, double y) {
          double s = 3;
          s -= x * y;
          s -= x * y * y * 2;
          double t = 1;
          t -= x * y * y * y;
          t -= y * x * 0.5;
          return s * s + t * t * 0.5 + Math.sin(s * t);
        }
        @Differentiable(order = 2) static double eightAdjoints(double x, double y) {
          double a1 = x * y;
          double a2 = x * y * y;
          double a3 = x * y * y * y;
          double a4 = x * y * y * y * y;
          double a5 = x * y * 5;
          double a6 = x * y * y * 6;
          double a7 = x * y * 7 * y;
          double a8 = y * x * 8;
          return Math.sin(a1) + Math.cos(a2) + a3 * a3 + Math.exp(0.1 * a4) + a5 * a1 + a6 * a6
              + Math.sqrt(1 + a7 * a7) + a8 * a2;
        }
        @Differentiable(order = 2) static double nineAdjoints(double x, double y) {
          double a1 = x * y;
          double a2 = x * y * y;
          double a3 = x * y * y * y;
          double a4 = x * y * y * y * y;
          double a5 = x * y * 5;
          double a6 = x * y * y * 6;
          double a7 = x * y * 7 * y;
          double a8 = y * x * 8;
          double a9 = -(y * x * 9);
          return Math.sin(a1) + Math.cos(a2) + a3 * a3 + Math.exp(0.1 * a4) + a5 * a1 + a6 * a6
              + Math.sqrt(1 + a7 * a7) + a8 * a2 + Math.atan(a9);
        }
        @Differentiable(order = 2) static double reassigned(double x, double y) {
          double u = x;
          double a = u * y;
          u = u * u + 1;
          double b = u * y * y;
          u = u - y;
          double c = u * y * 3;
          return Math.sin(a) + Math.cos(b) + Math.exp(c * 0.1) + a * b * c;
        }
        @Differentiable(order = 2) static double reassignedSameStatement(double x, double y) {
          double u = x;
          double s = u * y + (u = u * 2) * y * y + (u = u + y) * y * 3;
          double t = s * u;
          return s * s + t * y;
        }
        @Differentiable(order = 2) static double loopCarried(double x, double y, int n) {
          double s = x;
          double t = y;
          for (int i = 0; i < n; i++) {
            double a = s * t;
            double b = s * t * t;
            s = Math.sin(a) + b * 0.5 - s * t * 3;
            t = t * x + a * b;
          }
          return s + t;
        }
        @Differentiable(order = 2) static double loopAccumulates(double x, double y, int n) {
          double s = 0;
          for (int i = 0; i < n; i++) {
            s += x * y;
            s += x * y * 2;
            s -= x * y * 3 * i;
            s += s * x * 0.25;
          }
          return s * y;
        }
        @Differentiable(order = 2) static double cancels(double x, double y) {
          double s = x * y;
          s += x * y * 2;
          s -= x * y * 3;
          double t = 0.1 * x * y + 0.2 * x * y - 0.3 * x * y;
          return s * x + t * y + x * y;
        }
        @Differentiable(order = 2) static double sameIndex(double[] v, int i, int j) {
          double a = v[i] * v[j] * 3 + v[i] * v[i];
          double b = v[j] * v[i] - v[j];
          return a * b + v[i] * 2 * v[j] * v[j] - v[j] * v[i] * v[j];
        }
        @Differentiable(order = 2) static double elementsWritten(double[] v, double x) {
          double[] w = new double[v.length];
          for (int k = 0; k < v.length; k++) {
            w[k] = v[k];
          }
          w[0] = w[0] * x;
          double a = w[0] * x * x;
          w[0] = w[0] + x * 2;
          double b = w[0] * x;
          w[1] = w[0] * w[1];
          double c = w[1] * x * 3 + w[0] * x;
          return a * b + c * a + b * c;
        }
        @Differentiable(order = 2) static double aliased(double[] v, double x) {
          double[] w = new double[2];
          w[0] = v[0];
          w[1] = v[1];
          double[] u = w;
          u[0] = w[0] * x;
          double a = w[0] * x * x + u[0] * x;
          u[0] = w[0] * 2 + x;
          double b = w[0] * x + u[0] * x * 2;
          return a * b + a * w[1] + u[0] * x;
        }
        @Differentiable(order = 2) static double aliasedIndices(double[] v, int i, int j) {
          double[] w = new double[v.length];
          for (int k = 0; k < v.length; k++) {
            w[k] = v[k];
          }
          w[i] = w[i] * w[j];
          w[j] = w[j] * 2 + w[i];
          double a = w[i] * w[j] * 3 + w[i] * w[i];
          return a * w[j] + w[i];
        }
        @Differentiable(order = 2) static double ints(double x, double y, int n, long k) {
          double a = n * x * y + x * y * 2 + (double) n * x * y;
          double b = k * x * x - x * k * x * 2;
          double c = (n * n) * x * y + n * (x * y) * n;
          float f = (float) (x * 0.5);
          double d = f * y + x * f;
          return a * b + c * 1e-9 + d * a;
        }
        @Differentiable(order = 2) static double division(double x, double y) {
          double a = x / y + x / y * 2;
          double b = 1 / (x * y) + y / x * 3;
          double c = x * y / 4 + y * x * 0.25;
          return a * b + c * a + b * c;
        }
        @Differentiable(order = 2) static double branches(double x, double y) {
          double r;
          if (x > 0) {
            r = x * y;
          } else {
            r = x * y * y;
          }
          r += x * y * 3;
          if (y > 0) {
            r -= y * x * 2;
          }
          return r * r + r * x;
        }
        @Differentiable(order = 2) static double sharedAdjoint(double x, double y) {
          double d = x - 2 * y;
          double q = x * x + 3 * x * y;
          double r = 1 + d * d * q;
          double s = r * d + q * r;
          return s * (2 + x) + r * q * y;
        }
        @Differentiable(order = 2) static double fma(double x, double y) {
          double a = Math.fma(x, y, x * y);
          double b = Math.fma(x * y, 2, x * y * 3);
          return a * b + Math.fma(a, b, x) * y;
        }
        @Differentiable(order = 2) static double powers(double x, double y) {
          double a = Math.pow(x, 2) * y + x * x * y;
          double b = Math.pow(x * y, 3) - x * y * x * y * x * y;
          return a * b + Math.hypot(a, b) * x;
        }
        @Differentiable(order = 2) static double negativeZero(double x, double y) {
          double a = x * y * -0.0 + x * y * 0.0 + x * y;
          double b = x * -1 * y + x * y * 2;
          return a * b + a * x;
        }
        @Differentiable(order = 2) static double manyStatements(double x, double y) {
          double s = 0;
          s += x * y;
          s += x * y * y;
          s -= x * y * 3;
          s += x * x * y;
          s += y * x;
          s -= x * y * y * 2;
          s += x * 0.5 * y;
          s += x * y * y * y;
          s += x * y * 4;
          s -= y * y * x;
          s += x * y * x;
          s += x * 7 * y;
          return s * s + s * x;
        }
        @Differentiable static double[] vector(double x, double y) {
          double a = 1.5 - x + x * y;
          double b = 2.25 - x + x * y * y;
          double c = 2.625 - x + x * y * y * y;
          return new double[] {a * a + b * b, b * c - a, c * c * x, a * b * c};
        }
        @Differentiable(order = 2) static double arrayCommonFactor(double[] v, double x) {
          double s = 0;
          for (int k = 0; k < v.length; k++) {
            double a = v[k] * x;
            double b = v[k] * x * x;
            double c = v[k] * x * x * x;
            s += a * a + b * b - c * c * 0.5 + a * b * c;
          }
          return s;
        }
        @Differentiable(order = 2) static double swapInLoop(double x, double y, int n) {
          double a = x;
          double b = y;
          for (int i = 0; i < n; i++) {
            double t = a;
            a = b * t + a * b * 2;
            b = t * b * 0.5 - t;
          }
          return a * b;
        }
      }
      """;

  private static final String MORE = """
      package com.example;

      import ad4j.Checkpointed;
      import ad4j.Differentiable;

      @SuppressWarnings({"lossy-conversions", "cast"})
      final class Alg2 {
        @Differentiable(order = 2) static float floats(float x, float y) {
          float a = x * y + x * y * 2 - y * x * 0.5f;
          float b = x * x * y + x * y * x * 3;
          double c = a * (double) y + x * y * 2.0;
          return (float) (a * b + c * x) + b * y;
        }
        @Differentiable(order = 2) static double powers(double x, double y) {
          double p = x * x;
          double q = p * p * x;
          double r = q * p + p * q * x + x * x * x * x * x * x * y;
          return r + p * q * y * 2;
        }
        @Differentiable(order = 2) static double bigConstants(double x, double y) {
          double a = x * 1e300 * y + x * y * 1e300 + x * y * 4.9e-324 + x * 4.9e-324 * y;
          double b = x * y * 0.1 + x * y * 0.2 + x * 0.3 * y;
          return a * 1e-300 * b + a * 1e-300 * x;
        }
        @Differentiable(order = 2) static double helpers(double x, double y) {
          double a = helper(x * y, x * y * y);
          double b = helper(x * y * 3, y * x);
          return a * b + helper(a, b) * x;
        }
        @Differentiable(order = 2) static double helper(double a, double b) {
          return a * b + a * a * 0.5 - b * a * b;
        }
        @Differentiable static double[] vectorWide(double[] v, double x) {
          double a = v[0] * x + v[1] * x * x + v[2] * x * 3;
          double b = v[0] * v[1] * x - v[2] * v[3] * x * x + v[3] * x;
          return new double[] {a * b + x, a - b * v[0]};
        }
        @Differentiable(order = 2) static double subtracted(double x, double y) {
          double s = 1;
          s -= x * y;
          s -= x * y * y * 2;
          s -= x * y * y * y * 3;
          s -= -(x * 4);
          double t = 2;
          t -= s * x;
          t -= s * x * y;
          return s * s + t * t;
        }
        @Differentiable(order = 2) static double fmaLoop(double x, double y, int n) {
          double s = x;
          for (int i = 0; i < n; i++) {
            s = Math.fma(s, y, x * s * 0.5) + Math.fma(x, y * s, s * s * 0.25);
          }
          return s;
        }
        @Differentiable(order = 2) static double sixteenTerms(double[] v, double x) {
          double s = 0;
          s += v[0] * x; s += v[1] * x * 2; s += v[2] * x * 3; s += v[3] * x * 4;
          s += v[0] * v[1] * x; s += v[1] * v[2] * x; s += v[2] * v[3] * x; s += v[3] * v[0] * x;
          s -= v[0] * x * x; s -= v[1] * x * x; s -= v[2] * x * x; s -= v[3] * x * x;
          s += v[0] * v[0] * x; s += v[1] * v[1] * x; s += v[2] * v[2] * x; s += v[3] * v[3] * x;
          return s * s + Math.sin(s) * x;
        }
        @Differentiable(order = 2) static double infiniteParts(double x, double y) {
          double a = x * y;
          double b = x * y * y;
          double c = x * y * y * y;
          return Math.log(1 + a * a) + Math.sqrt(1 + b * b) + c * c;
        }
        @Differentiable(order = 2) static double reassignedFactorInLoop(double x, double y, int n) {
          double u = x;
          double s = 0;
          for (int i = 0; i < n; i++) {
            double a = u * y;
            double b = u * y * y;
            u = u * 0.5 + y;
            double c = u * y * 3;
            s += Math.sin(a) + b * b + c * a;
          }
          return s + u * y;
        }
        @Differentiable(order = 2) static double elementFactor(double[] v, int i, int j) {
          double a = v[i] * v[j];
          double b = v[i] * v[j] * v[j];
          double c = v[i] * v[j] * v[j] * v[j];
          return a * a + b * b + c * c + a * b * c;
        }
        @Checkpointed(snapshots = 3)
        @Differentiable static double checkpointedBeale(double x, double y) {
          double s = 0;
          double u = x;
          for (int i = 0; i < 7; i++) {
            double a = 1.5 - u + u * y;
            double b = 2.25 - u + u * y * y;
            double c = 2.625 - u + u * y * y * y;
            s += a * a + b * b - c * c * 0.5;
            u = u * 0.5 + 0.1 * Math.sin(s) * y;
          }
          return s;
        }
        @Differentiable static double[] bealeRows(double[] v, double y) {
          double[] r = new double[3];
          for (int k = 0; k < 3; k++) {
            double a = 1.5 - v[k] + v[k] * y;
            double b = 2.25 - v[k + 1] + v[k] * y * y;
            double c = 2.625 - v[k] + v[k + 1] * y * y * y;
            r[k] = a * a + b * b + c * c;
          }
          return r;
        }
      }
      """;

  private static final List<CompiledOnce> COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Alg", SOURCE, 1);
  private static final List<CompiledOnce> MORE_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Alg2", MORE, 1);

  private static final double[][] POINTS = {{0.7, -0.4}, {-0.6, 1.7}};

  private static MemberAgreement method(Compiled compiled, String name, boolean... active) {
    return MemberAgreement.of(compiled, "com.example.Alg", name, active);
  }

  private static MemberAgreement more(Compiled compiled, String name, boolean... active) {
    return MemberAgreement.of(compiled, "com.example.Alg2", name, active);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1})
  void polynomials(int options) throws Exception {
    Compiled c = COMPILED.get(options).get();
    for (double[] p : POINTS) {
      for (String name : List.of("signs", "beale", "bealeNegated", "eightAdjoints",
          "nineAdjoints", "reassigned", "reassignedSameStatement", "cancels", "division",
          "branches", "sharedAdjoint", "fma", "powers", "negativeZero", "manyStatements")) {
        method(c, name, true, true).checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
      }
      method(c, "ints", true, true, false, false)
          .checkScalar(new Object[] {p[0], p[1], 3, 5L}, 2, 1e-7);
      method(c, "ints", true, true, false, false)
          .checkScalar(new Object[] {p[0], p[1], 70000, -9L}, 2, 1e-7);
      method(c, "vector", true, true).checkVector(new Object[] {p[0], p[1]});
      method(c, "allSubtracted", true, true).checkScalar(new Object[] {p[0], p[1]}, 1, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1})
  void loops(int options) throws Exception {
    Compiled c = COMPILED.get(options).get();
    for (double[] p : POINTS) {
      for (int n : new int[] {0, 1, 3}) {
        method(c, "loopCarried", true, true, false)
            .checkScalar(new Object[] {p[0] * 0.5, p[1] * 0.5, n}, 2, 1e-7);
        method(c, "loopAccumulates", true, true, false)
            .checkScalar(new Object[] {p[0], p[1], n}, 2, 1e-7);
        method(c, "swapInLoop", true, true, false)
            .checkScalar(new Object[] {p[0] * 0.5, p[1] * 0.5, n}, 2, 1e-7);
      }
    }
  }

  /** {@code i} and {@code j} equal and different; elements written between reads. */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1})
  void arrayElements(int options) throws Exception {
    Compiled c = COMPILED.get(options).get();
    for (double[] p : POINTS) {
      double[] v = {p[0], p[1], 0.8, -1.1};
      for (int[] ij : new int[][] {{1, 1}, {3, 2}}) {
        method(c, "sameIndex", true, false, false)
            .checkScalar(new Object[] {v, ij[0], ij[1]}, 2, 1e-7);
        method(c, "aliasedIndices", true, false, false)
            .checkScalar(new Object[] {v, ij[0], ij[1]}, 2, 1e-7);
      }
      method(c, "elementsWritten", true, true).checkScalar(new Object[] {v, p[1]}, 2, 1e-7);
      method(c, "aliased", true, true).checkScalar(new Object[] {v, p[1]}, 2, 1e-7);
      method(c, "arrayCommonFactor", true, true).checkScalar(new Object[] {v, p[1]}, 2, 1e-7);
    }
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1})
  void floatsCallsCheckpointsAndJacobians(int options) throws Exception {
    Compiled c = MORE_COMPILED.get(options).get();
    for (double[] p : POINTS) {
      // a float method's differences are those of a function rounded to float, too coarse for
      // differences of its gradient: the gradient only, at a tolerance for floats
      more(c, "floats", true, true).checkScalar(new Object[] {(float) p[0], (float) p[1]}, 1,
          1e-4);
      for (String name : List.of("powers", "bigConstants", "helpers", "subtracted",
          "infiniteParts")) {
        more(c, name, true, true).checkScalar(new Object[] {p[0], p[1]}, 2, 1e-7);
      }
      for (int n : new int[] {0, 2}) {
        more(c, "fmaLoop", true, true, false)
            .checkScalar(new Object[] {p[0] * 0.5, p[1] * 0.5, n}, 2, 1e-7);
        more(c, "reassignedFactorInLoop", true, true, false)
            .checkScalar(new Object[] {p[0], p[1], n}, 2, 1e-7);
      }
      more(c, "checkpointedBeale", true, true).checkScalar(new Object[] {p[0], p[1]}, 1, 1e-7);
      double[] v = {p[0], p[1], 0.8, -1.1};
      more(c, "sixteenTerms", true, true).checkScalar(new Object[] {v, p[1]}, 2, 1e-7);
      for (int[] ij : new int[][] {{2, 2}, {0, 3}}) {
        more(c, "elementFactor", true, false, false)
            .checkScalar(new Object[] {v, ij[0], ij[1]}, 2, 1e-7);
      }
      more(c, "vectorWide", true, true).checkVector(new Object[] {v, p[1]});
      more(c, "bealeRows", true, true).checkVector(new Object[] {v, p[1]});
    }
  }

  /**
   * The probe's programs reach the rewrite they aim at: a sum of 8 adjoints multiplies its
   * common factor once, one of 9 (past the bound) does not, and a sum whose every term is
   * subtracted is subtracted whole after its factor.
   */
  @Test
  void theRewritesHappenInTheProbedPrograms() {
    String generated = GeneratedText.of(COMPILED.get(0).get(), "com.example.AlgGrad");
    assertThat(line("xBar", GeneratedText.method(generated, "allSubtractedValueAndGradient")))
        .startsWith("double xBar = -(y * (");
    assertThat(line("xBar", GeneratedText.method(generated, "eightAdjointsValueAndGradient")))
        .startsWith("double xBar = y * (");
    assertThat(line("xBar", GeneratedText.method(generated, "nineAdjointsValueAndGradient")))
        .doesNotContain("= y * (");
  }
}
