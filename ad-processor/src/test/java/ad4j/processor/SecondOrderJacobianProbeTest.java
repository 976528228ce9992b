package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Probes of session 59 (hunt for silently wrong second derivatives and Jacobians), kept so that
 * what they found right stays so. Order-2 methods: trip counts from {@code int} parameters and
 * from data, {@code break}, {@code continue} and {@code return} in loops, nests over ragged
 * matrices, {@code while} and {@code do}-{@code while} on doubles, kinks, local aliases written
 * in place, {@code long} and {@code int} locals, scalar and vector callees, 0 to 9 slots over
 * the Hessian's lanes with empty arrays and rows; every Math function of the rule table;
 * {@code @DerivativeOf} rules (one that calls its own target, one for a vector target called
 * with a table, one with respect to an array, one whose target runs generated members on the
 * same tape) and rules that replace Math's (a straight-through floor, a smooth abs and max,
 * against their Hessians written out); powers at 0 and below; local arrays overlapped through
 * a matrix's row, elements read and written at coinciding indices, filled and copied, arrays
 * rotated and swapped in a branch; a matrix parameter first, inactive arrays between active
 * ones; instance methods of an ordinary class. Jacobians: copies, a chosen argument, a table,
 * p = 1, p greater than the slots (forward), in-place writes through aliases, callee results
 * written into, a loop with a break, an inactive array, empty arguments. Labels on enhanced
 * {@code for} loops. Each whole and (but the Math functions) cut into parts, against differences
 * of order 8 with forward against reverse ({@link MemberAgreement}). Also the error for a
 * vector function returning an array it did not make.
 */
@ExtendWith(TapeIsEmpty.class)
class SecondOrderJacobianProbeTest {
  private static final String SCALARS = """
      package com.example;
      import ad4j.DerivativeOf;
      import ad4j.Differentiable;
      import ad4j.NoDerivative;
      final class Scalars {
        static final double[] TABLE = {0.5, -1.5, 2.0, 0.25};
        @Differentiable(order = 2) static double tripCount(double[] x, double y, int n) {
          double s = y;
          for (int i = 0; i < n; i++) { s = s * x[i % x.length] * 0.7 + Math.sin(s * y); }
          int m = (int) Math.floor(Math.abs(x[0]) * 3) + 1;
          for (int k = 0; k < m; k++) { s += x[k % x.length] * y * k; }
          return s;
        }
        @Differentiable(order = 2) static double earlyExits(double[] x, double y) {
          double s = 0;
          for (int i = 0; i < x.length; i++) {
            if (x[i] < 0) { continue; }
            s += x[i] * x[i] * y;
            if (s > 2) { break; }
            if (s * y > 1.5) { return s * Math.exp(y * x[i]); }
          }
          return s + y * y * y;
        }
        @Differentiable(order = 2) static double nested(double[][] m, double[] v) {
          double s = 0;
          for (int i = 0; i < m.length; i++) {
            double row = 0;
            for (int j = 0; j < m[i].length; j++) { row += m[i][j] * v[j % v.length]; }
            s += row * row * (i + 1);
          }
          return s;
        }
        @Differentiable(order = 2) static double whileDouble(double x, double y) {
          double s = x;
          int k = 0;
          while (s < 10 * y) { s = s * 1.3 + x * y; k++; }
          do { s = s * 0.6 - y; } while (s > 2 * y);
          return s * k;
        }
        @Differentiable(order = 2) static double kinks(double x, double y, double z) {
          double a = Math.abs(x - y) * z;
          double b = Math.max(x * y, z * z) + Math.min(x, y * z);
          double c = x > y ? x * x * y : y * y * z;
          return a * b + c + Math.signum(x) * x * z + Math.hypot(x, y) * Math.copySign(z, y);
        }
        @Differentiable(order = 2) static double aliasing(double[] x, double y) {
          double[] a = x.clone();
          double[] b = a;
          for (int i = 0; i < a.length; i++) { b[i] = a[i] * y + b[(i + 1) % a.length]; }
          double[] c = b;
          c[0] *= a[1];
          a = new double[] {c[0], b[1] * y};
          return a[0] * a[1] + b[0] * c[b.length - 1] + x[0] * y;
        }
        @Differentiable(order = 2) static double mixed(double x, double y, long l) {
          int i = (int) l;
          long q = l * 3 + i;
          double s = x * q * y;
          int j = (int) (x * 10);
          s += j * y * y + (q % 2 == 0 ? x : y) * x;
          return s;
        }
        static double special(double x, double y) { return Math.exp(x) * Math.sin(y); }
        @Differentiable @DerivativeOf(value = "special", wrt = "x")
        static double specialX(double x, double y) { return Math.exp(x) * Math.sin(y); }
        @Differentiable @DerivativeOf(value = "special", wrt = "y")
        static double specialY(double x, double y) { return Math.exp(x) * Math.cos(y); }
        @Differentiable(order = 2) static double ruled(double x, double y) {
          double s = 0;
          for (int i = 0; i < 3; i++) { s += special(x * y, s + y) * x; }
          return s + special(y, 0.5);
        }
        static double myExp(double x) { return Math.exp(x); }
        @Differentiable @DerivativeOf("myExp") static double myExpD(double x) { return myExp(x); }
        @Differentiable(order = 2) static double selfRuled(double x, double y) {
          return myExp(x * y) * y + myExp(myExp(x));
        }
        @Differentiable(order = 2) static double scalarCallee(double a, double b) {
          return Math.sin(a * b) * a;
        }
        @Differentiable(order = 2) static double[] vectorCallee(double[] x, double t) {
          double[] r = new double[x.length];
          for (int i = 0; i < x.length; i++) {
            if (x[i] * t > 3) { break; }
            r[i] = x[i] * t + (i > 0 ? r[i - 1] * x[i] : 0);
          }
          return r;
        }
        @Differentiable(order = 2) static double caller(double[] x, double t, @NoDerivative double c) {
          double[] r = vectorCallee(x, t * c);
          double s = 0;
          for (int i = 0; i < r.length; i++) { s += scalarCallee(r[i], x[i]) * r[(i + 1) % r.length]; }
          double[] again = vectorCallee(r, t);
          return s + again[again.length - 1] * TABLE[1];
        }
        @Differentiable(order = 2) static double one(double x) {
          double s = x;
          for (int i = 0; i < 4; i++) { s = Math.sin(s) * x + s * s * 0.1; }
          return s;
        }
        @Differentiable(order = 2) static double lanes(double[] x, double[][] m, double y) {
          double s = y * y;
          for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < m[i % m.length].length; j++) {
              s += x[i] * m[i % m.length][j] * Math.cos(x[(i + j) % x.length] * y);
            }
          }
          return s;
        }
      }
      """;

  private static final String VECTORS = """
      package com.example;
      import ad4j.Differentiable;
      import ad4j.NoDerivative;
      final class Vectors {
        static final double[] TABLE = {0.5, -1.5, 2.0, 0.25};
        @Differentiable static double[] identity(double[] x) { return x.clone(); }
        @Differentiable static double[] chosen(double[] x, double[] y) {
          double[] r = new double[x[0] > y[0] ? x.length : y.length];
          if (x[0] > y[0]) { System.arraycopy(x, 0, r, 0, x.length); } else { System.arraycopy(y, 0, r, 0, y.length); }
          return r;
        }
        @Differentiable static double[] table(double t) {
          double[] r = new double[4];
          if (t > 0) { System.arraycopy(TABLE, 0, r, 0, 4); } else { r[0] = t; r[1] = t * t; r[2] = 1; r[3] = 2; }
          r[1] *= t;
          return r;
        }
        @Differentiable static double[] wide(double[] x, double y) {
          double s = 0;
          for (int i = 0; i < x.length; i++) { s += x[i] * x[i] * y; }
          return new double[] {s};
        }
        @Differentiable static double[] tall(double x, double y) {
          double[] r = new double[7];
          r[0] = x;
          for (int i = 1; i < r.length; i++) { r[i] = r[i - 1] * y + Math.sin(x * i); }
          return r;
        }
        @Differentiable static double[] inPlace(double[] x, double t) {
          double[] r = x.clone();
          for (int i = 0; i < r.length; i++) { r[i] = r[i] * t + r[(i + r.length - 1) % r.length]; }
          double[] alias = r;
          alias[0] += r[r.length - 1] * x[0];
          return alias;
        }
        @Differentiable static double[] callsThen(double[] x, double t) {
          double[] a = inPlace(x, t);
          double[] b = a;
          b[0] += x[1] * t;
          double[] c = inPlace(b, 0.5);
          double[] r = new double[c.length];
          for (int i = 0; i < r.length; i++) { r[i] = c[0] > 1 ? a[i] : c[i]; }
          return r;
        }
        @Differentiable static double[] earlyReturn(double[] x, int n) {
          double[] r = new double[n];
          for (int i = 0; i < n; i++) {
            r[i] = x[i % x.length] * (i + 1);
            if (r[i] > 2.5) { break; }
          }
          r[0] = r[n - 1] * r[0];
          return r;
        }
        @Differentiable static double[] inactive(double[] x, @NoDerivative double[] d) {
          double[] r = new double[2];
          if (x[0] > 0) { System.arraycopy(d, 0, r, 0, 2); } else { System.arraycopy(x, 0, r, 0, 2); }
          return r;
        }
      }
      """;



  private static final String FUNCTIONS = """
      package com.example;
      import ad4j.Differentiable;
      final class Functions {
        @Differentiable(order = 2) static double trig(double x, double y) {
          return Math.sin(x * y) + Math.cos(x - y) * Math.tan(0.3 * x) + Math.asin(0.4 * x * y) * Math.acos(0.3 * y)
              + Math.atan(x / y) + Math.atan2(x * y, x - y) + StrictMath.atan2(y, x * x);
        }
        @Differentiable(order = 2) static double hyperbolic(double x, double y) {
          return Math.sinh(x * y) + Math.cosh(x) * Math.tanh(y - x) + StrictMath.sinh(y) * StrictMath.tanh(x);
        }
        @Differentiable(order = 2) static double exponentials(double x, double y) {
          return Math.exp(x * y) + Math.expm1(x - y) * Math.log(x * x + y) + Math.log10(x + 2 * y) * Math.log1p(x * y)
              + StrictMath.exp(-x) * StrictMath.log(y);
        }
        @Differentiable(order = 2) static double roots(double x, double y) {
          return Math.sqrt(x * x + y) * Math.cbrt(x * y - 1) + Math.hypot(x, y * y) + StrictMath.cbrt(y) * StrictMath.hypot(x * y, 3);
        }
        @Differentiable(order = 2) static double powers(double x, double y) {
          return Math.pow(x, y) + Math.pow(x, 3) * Math.pow(x, 2.5) + Math.pow(2.0, x * y) + Math.pow(-x, 3)
              + Math.pow(y, -2) + Math.pow(x * y, 0.5) + Math.pow(x, 1) * Math.pow(y, 0) + Math.pow(x + y, 2)
              + StrictMath.pow(y, x) + Math.pow(x - 2, 4) + Math.pow(y, 1.0 / 3);
        }
        @Differentiable(order = 2) static double piecewise(double x, double y) {
          return Math.fma(x, y, x * x) * Math.IEEEremainder(x * 1.5, y) + (x * 2) % y + Math.scalb(x * y, 3)
              + Math.toDegrees(x) * Math.toRadians(y) + Math.copySign(x * x, y) + Math.abs(x * y - 2)
              + Math.max(x * x, y) * Math.min(x, y * y) + Math.signum(x) * Math.floor(3 * y) + Math.ceil(x) * y
              + Math.rint(x * 4) * y * y;
        }
        @Differentiable(order = 2) static double quotients(double x, double y) {
          double q = 1 / x + y / (x * x) - x / Math.sin(y);
          q /= (1 + x * y);
          q *= q;
          q -= x / y / y;
          return q + (x - y) / (x + y);
        }
      }
      """;

  private static final List<CompiledOnce> FUNCTIONS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Functions", FUNCTIONS);

  private static final String RULES = """
      package com.example;
      import ad4j.DerivativeOf;
      import ad4j.Differentiable;
      final class Rules {
        @Differentiable @DerivativeOf(owner = Math.class, value = "floor")
        static double floorStraightThrough(double x) { return 1; }
        @Differentiable @DerivativeOf(owner = Math.class, value = "abs")
        static double absSmooth(double x) { return Math.tanh(10 * x); }
        @Differentiable @DerivativeOf(owner = Math.class, value = "max", wrt = "a")
        static double maxA(double a, double b) { return 0.5 + 0.5 * Math.tanh(a - b); }
        @Differentiable @DerivativeOf(owner = Math.class, value = "max", wrt = "b")
        static double maxB(double a, double b) { return 0.5 - 0.5 * Math.tanh(a - b); }
        @Differentiable(order = 2) static double straight(double x, double y) {
          return Math.floor(x * y) * y + x;
        }
        @Differentiable(order = 2) static double smoothAbs(double x, double y) {
          return Math.abs(x * y - 0.1) * y + Math.abs(x);
        }
        @Differentiable(order = 2) static double smoothMax(double x, double y) {
          return Math.max(x * x, y) * y;
        }
        static final double[] TABLE = {0.5, 1.5, -2};
        static double[] scaled(double[] a, double t) {
          double[] r = new double[a.length];
          for (int i = 0; i < a.length; i++) { r[i] = a[i] * a[i] * t; }
          return r;
        }
        @DerivativeOf(value = "scaled", wrt = "a") static double[][] scaledA(double[] a, double t) {
          double[][] j = new double[a.length][a.length];
          for (int i = 0; i < a.length; i++) { j[i][i] = 2 * a[i] * t; }
          return j;
        }
        @Differentiable @DerivativeOf(value = "scaled", wrt = "t") static double[] scaledT(double[] a, double t) {
          double[] r = new double[a.length];
          for (int i = 0; i < a.length; i++) { r[i] = a[i] * a[i]; }
          return r;
        }
        @Differentiable(order = 2) static double vectorRule(double[] x, double t) {
          double[] r = scaled(TABLE, t);
          double s = 0;
          for (int i = 0; i < r.length; i++) { s += r[i] * x[(i + 1) % x.length] * t; }
          return s * s;
        }
        static double norm2(double[] a) { return java.util.Arrays.stream(a).map(v -> v * v).sum(); }
        @Differentiable @DerivativeOf("norm2") static double[] norm2A(double[] a) {
          double[] g = new double[a.length];
          for (int i = 0; i < a.length; i++) { g[i] = 2 * a[i]; }
          return g;
        }
        @Differentiable(order = 2) static double arrayRule(double[] x, double t) {
          double[] y = new double[x.length];
          for (int i = 0; i < x.length; i++) { y[i] = x[i] * t; }
          return norm2(y) * t + norm2(x) * norm2(y);
        }
        @Differentiable(order = 2) static double cube(double x) {
          double s = 1;
          for (int i = 0; i < 3; i++) { s = s * x; }
          return s;
        }
        /** 3 x^2, computed with the generated members of another method: on the same tape. */
        static double slope(double x) {
          double[] g = new double[1];
          RulesGrad.cubeValueAndGradient(x, g);
          return g[0] + 0 * RulesGrad.cubeHessian(x)[0][0];
        }
        @Differentiable @DerivativeOf("slope") static double slopeD(double x) { return 6 * x; }
        @Differentiable(order = 2) static double nestedTape(double x, double y) {
          double s = 0;
          for (int i = 0; i < 3; i++) { s += slope(x * y + s * 0.1) * y; }
          return s * s;
        }
        @Differentiable(order = 2) static double powers(double x, double y) {
          double s = 0;
          for (int i = 0; i < 5; i++) { s += Math.pow(x, i) * y; }
          return s + Math.pow(x, 3.0) + Math.pow(x * y, 2) + Math.pow(y, 2.0) * x + Math.pow(x, 1) * y
              + Math.pow(x + y, 0);
        }
      }
      """;

  private static final String ARRAYS = """
      package com.example;
      import ad4j.Differentiable;
      import ad4j.NoDerivative;
      final class Arrays2 {
        @Differentiable(order = 2) static double rowsOverlap(double[] x, double y) {
          double[] a = x.clone();
          a[4] *= y;
          double[][] m = new double[2][5];
          System.arraycopy(a, 0, m[1], 0, 5);
          double[] r = m[1];
          System.arraycopy(r, 1, m[1], 0, a.length - 1);
          System.arraycopy(r, 0, a, 0, 5);
          double s = 0;
          for (int i = 0; i < a.length; i++) { s += a[i] * a[i] * (i + 1) * y; }
          return s;
        }
        @Differentiable(order = 2) static double selfElements(double[] x, double y, int j) {
          double[] a = x.clone();
          for (int i = 0; i < a.length; i++) {
            a[i] *= a[j];
            a[j] += a[i] * y;
            a[(i + j) % 5] = a[(2 * i + j) % 5] * a[i];
          }
          return a[0] + a[1] * a[2] + a[3] * a[4];
        }
        @Differentiable(order = 2) static double fillCopy(double[] x, double y) {
          double[] a = new double[7];
          java.util.Arrays.fill(a, 2, 5, x[1] * y);
          System.arraycopy(x, 1, a, 3, 4);
          double[] b = java.util.Arrays.copyOfRange(a, 2, 6);
          double[] c = java.util.Arrays.copyOf(b, 6);
          c[5] = c[0] * c[1];
          double s = 0;
          for (double v : c) { s += v * v * y; }
          return s;
        }
        @Differentiable(order = 2) static double matrixFirst(double[][] m, double y, double[] z, double w) {
          double s = w * y;
          for (double[] row : m) {
            for (int j = 0; j < row.length; j++) { s += row[j] * z[j % z.length] * y + Math.sin(row[j] * w); }
          }
          return s * s;
        }
        @Differentiable(order = 2) static double inactiveBetween(double[] x, @NoDerivative double[] d, double y,
            @NoDerivative double[] e, double w) {
          double s = 0;
          for (int i = 0; i < x.length; i++) { s += x[i] * d[i % d.length] * y * w + e[0] * x[i] * x[i]; }
          return s * y;
        }
        @Differentiable(order = 2) static double indicesFromData(double[] x, double y, @NoDerivative double[] at) {
          double s = 0;
          for (double k : at) { int i = (int) k; s += x[i] * x[(i + 1) % x.length] * y; }
          return s * s;
        }
        @Differentiable(order = 2) static double rotated(double[] x, double y) {
          double[] a = new double[3];
          double[] b = new double[3];
          double[] c = new double[3];
          for (int i = 0; i < 3; i++) { a[i] = x[i] * y; b[i] = x[i + 1] * x[i]; c[i] = x[i + 2]; }
          double[] t = a; a = b; b = c; c = t;
          return a[0] * 3 + b[2] * y + c[1] * 7 * a[1];
        }
        @Differentiable(order = 2) static double swappedInBranch(double[] x, double y) {
          double[] a = new double[3];
          double[] b = new double[3];
          for (int i = 0; i < 3; i++) { a[i] = x[i] * y; b[i] = x[i + 1] * x[i]; }
          double s = 0;
          for (int k = 0; k < 4; k++) {
            if (a[0] > b[0]) { double[] t = a; a = b; b = t; }
            a[k % 3] += s * 0.1 + y;
            s += a[0] * 3 + b[2] * y;
          }
          return s;
        }
        static final class Model {
          final double k;
          final double[] w;
          Model(double k, double[] w) { this.k = k; this.w = w; }
          @Differentiable(order = 2) double energy(double[] x, double y) {
            double s = 0;
            for (int i = 0; i < x.length; i++) { s += w[i % w.length] * x[i] * x[i] * y + k * Math.sin(x[i] * y); }
            return s + helper(y);
          }
          @Differentiable(order = 2) double twice(double a, double b) {
            return helper(a * b) * this.helper(a) + k * a * b * b;
          }
          @Differentiable(order = 2) double helper(double a) { return Math.exp(k * a) * w[0]; }
        }
        @Differentiable(order = 2) static double callsModel(double[] x, double y, double z, Model m) {
          double s = m.energy(x, y) * z + m.twice(y * z, x[1]);
          for (int i = 0; i < 3; i++) { s += m.energy(x, s * 0.1) * 0.2; }
          return s;
        }
      }
      """;

  private static final List<CompiledOnce> RULES_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Rules", RULES, 2);
  private static final List<CompiledOnce> ARRAYS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Arrays2", ARRAYS, 2);

  /** Labels on enhanced 'for' loops: rejected as "a label is supported only on a loop" before. */
  private static final String LABELS = """
      package com.example;
      import ad4j.Differentiable;
      import ad4j.NoDerivative;
      final class Labels {
        @Differentiable(order = 2) static double rows(double[][] m, double y) {
          double s = y;
          outer:
          for (double[] row : m) {
            for (double v : row) {
              if (v * y > 0.5) { continue outer; }
              s += v * s * y;
            }
            s *= 1 + 0.1 * row.length;
          }
          return s;
        }
        @Differentiable(order = 2) static double elements(double[] x, double y) {
          double s = y;
          outer:
          for (double v : x) {
            for (int k = 0; k < 3; k++) {
              if (v * y * k > 0.5) { continue outer; }
              if (s > 4) { break outer; }
              s += v * s * y;
            }
          }
          return s;
        }
        @Differentiable(order = 2) static double indices(double[] x, double y, @NoDerivative int[] at) {
          double s = y;
          found:
          for (int i : at) {
            int k = 0;
            while (k < 3) {
              k++;
              if (x[i] * k > 1) { break found; }
              s += x[i] * s * y * k;
            }
          }
          return s * s;
        }
        @Differentiable static double[] vector(double[] x, double y) {
          double[] r = new double[3];
          int i = 0;
          outer:
          for (double v : x) {
            for (int k = 0; k < 2; k++) {
              if (v * k > 0.6) { break outer; }
              r[i % 3] += v * y * (k + 1);
            }
            i++;
          }
          return r;
        }
      }
      """;

  private static final List<CompiledOnce> LABELS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Labels", LABELS, 2);
  private static final List<CompiledOnce> SCALARS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Scalars", SCALARS, 2);
  private static final List<CompiledOnce> VECTORS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Vectors", VECTORS, 1);

  static Stream<Arguments> scalars() {
    List<Arguments> cases = new ArrayList<>();
    for (int version = 0; version < 2; version++) {
      CompiledOnce c = SCALARS_COMPILED.get(version);
      double[] x5 = {0.3, -0.4, 0.7, 0.2, 0.55};
      cases.add(Arguments.of(c, "tripCount", new Object[] {x5, 0.6, 7}, new boolean[] {true, true, false}));
      cases.add(Arguments.of(c, "tripCount", new Object[] {new double[] {0.9}, 0.6, 1}, new boolean[] {true, true, false}));
      cases.add(Arguments.of(c, "earlyExits", new Object[] {x5, 0.8}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "earlyExits", new Object[] {new double[] {1.1, 0.3, 1.2, 0.1}, 0.8}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "earlyExits", new Object[] {new double[] {0.6, 0.5, 0.4, 0.3}, 0.3}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "nested", new Object[] {new double[][] {{0.1, 0.2, 0.3}, {0.4}, {0.5, -0.6}}, new double[] {0.7, -0.2}}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "whileDouble", new Object[] {0.38, 1.16}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "kinks", new Object[] {0.37, 0.61, -0.45}, new boolean[] {true, true, true}));
      cases.add(Arguments.of(c, "kinks", new Object[] {0.87, 0.41, 0.95}, new boolean[] {true, true, true}));
      cases.add(Arguments.of(c, "aliasing", new Object[] {new double[] {0.3, 0.5, -0.2}, 0.7}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "mixed", new Object[] {0.37, 0.61, 5L}, new boolean[] {true, true, false}));
      cases.add(Arguments.of(c, "ruled", new Object[] {0.37, 0.61}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "selfRuled", new Object[] {0.37, 0.61}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "caller", new Object[] {new double[] {0.3, 0.5, -0.2, 0.4, 0.1}, 0.7, 1.3}, new boolean[] {true, true, false}));
      cases.add(Arguments.of(c, "caller", new Object[] {new double[] {1.3, 2.5, 2.2}, 0.9, 1.3}, new boolean[] {true, true, false}));
      cases.add(Arguments.of(c, "one", new Object[] {0.37}, new boolean[] {true}));
      cases.add(Arguments.of(c, "lanes", new Object[] {new double[0], new double[][] {{}, {0.2, 0.4}, {}, {-0.3}}, 0.6}, new boolean[] {true, true, true}));
      cases.add(Arguments.of(c, "lanes", new Object[] {new double[] {0.3, -0.2, 0.5}, new double[][] {{}, {0.2, 0.4}, {}, {-0.3}}, 0.6}, new boolean[] {true, true, true}));
      cases.add(Arguments.of(c, "lanes", new Object[] {new double[] {0.3, -0.2, 0.5, 0.1, 0.9, -0.7}, new double[][] {{}}, 0.6}, new boolean[] {true, true, true}));
      for (int n = 1; n <= 9; n += 2) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) { x[i] = 0.1 * i - 0.3; }
        cases.add(Arguments.of(c, "lanes", new Object[] {x, new double[][] {{0.2, 0.4}, {-0.3}}, 0.6}, new boolean[] {true, true, true}));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{1} {2}, {0}")
  @MethodSource("scalars")
  void hessians(CompiledOnce compiled, String name, Object[] arguments, boolean[] active)
      throws Exception {
    MemberAgreement.of(compiled.get(), "com.example.Scalars", name, active)
        .checkScalar(arguments, 2, 1e-7);
  }

  static Stream<Arguments> vectors() {
    List<Arguments> cases = new ArrayList<>();
    for (int version = 0; version < 2; version++) {
      CompiledOnce c = VECTORS_COMPILED.get(version);
      double[] x3 = {0.3, -0.4, 0.7};
      cases.add(Arguments.of(c, "identity", new Object[] {x3}, new boolean[] {true}));
      cases.add(Arguments.of(c, "identity", new Object[] {new double[0]}, new boolean[] {true}));
      cases.add(Arguments.of(c, "wide", new Object[] {new double[0], 0.4}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "inPlace", new Object[] {new double[] {0.5}, 0.4}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "chosen", new Object[] {x3, new double[] {0.1, 0.2}}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "chosen", new Object[] {x3, new double[] {0.5, 0.2}}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "table", new Object[] {0.3}, new boolean[] {true}));
      cases.add(Arguments.of(c, "table", new Object[] {-0.3}, new boolean[] {true}));
      cases.add(Arguments.of(c, "wide", new Object[] {x3, 0.4}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "tall", new Object[] {0.3, 0.4}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "inPlace", new Object[] {x3, 0.4}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "callsThen", new Object[] {x3, 0.4}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "earlyReturn", new Object[] {x3, 6}, new boolean[] {true, false}));
      cases.add(Arguments.of(c, "earlyReturn", new Object[] {new double[] {0.9, 0.2}, 2}, new boolean[] {true, false}));
      cases.add(Arguments.of(c, "inactive", new Object[] {x3, new double[] {1, 2}}, new boolean[] {true, false}));
      cases.add(Arguments.of(c, "inactive", new Object[] {new double[] {-0.3, 0.2}, new double[] {1, 2}}, new boolean[] {true, false}));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{1} {2}, {0}")
  @MethodSource("vectors")
  void jacobians(CompiledOnce compiled, String name, Object[] arguments, boolean[] active)
      throws Exception {
    MemberAgreement.of(compiled.get(), "com.example.Vectors", name, active)
        .checkVector(arguments);
  }

  static Stream<Arguments> functions() {
    List<Arguments> cases = new ArrayList<>();
    for (int version = 0; version < 1; version++) {
      for (String name : List.of("trig", "hyperbolic", "exponentials", "roots", "powers", "piecewise", "quotients")) {
        // points whose stencils cross no jump of floor, rint, remainders, branches or cbrt's 0
        double[][] points = name.equals("piecewise")
            ? new double[][] {{0.43, 0.53}, {0.93, 0.72}, {1.18, 0.94}}
            : name.equals("roots") ? new double[][] {{0.37, 0.61}, {1.23, 1.27}}
            : new double[][] {{0.37, 0.61}, {1.23, 0.87}, {0.71, 1.42}};
        for (double[] point : points) {
          cases.add(Arguments.of(FUNCTIONS_COMPILED.get(version), name, point));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{1} {2}, {0}")
  @MethodSource("functions")
  void mathFunctions(CompiledOnce compiled, String name, double[] point) throws Exception {
    MemberAgreement.of(compiled.get(), "com.example.Functions", name, true, true)
        .checkScalarAt(new double[][] {point}, 2, 1e-7);
  }

  /**
   * Rules that replace Math's (a straight-through floor, a smooth abs and max) at order 2:
   * the Hessian is that of the rules, written out here, not what differences of the method
   * would give.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("rulesVersions")
  void rulesReplacingMathGiveTheirSecondDerivatives(CompiledOnce compiled) throws Exception {
    double x = 0.37;
    double y = 0.61;
    // floor(x y) y + x with floor' = 1
    assertHessian(compiled, "straight", x, y, new double[] {y * y + 1, x * y + Math.floor(x * y)},
        new double[][] {{0, 2 * y}, {2 * y, 2 * x}});
    // |x y - 0.1| y + |x| with |u|' = tanh(10 u)
    double u = x * y - 0.1;
    double t = Math.tanh(10 * u);
    double tx = Math.tanh(10 * x);
    assertHessian(compiled, "smoothAbs", x, y, new double[] {t * y * y + tx, t * x * y + Math.abs(u)},
        new double[][] {{10 * (1 - t * t) * y * y * y + 10 * (1 - tx * tx),
            10 * (1 - t * t) * x * y * y + 2 * y * t},
            {10 * (1 - t * t) * x * y * y + 2 * y * t, 10 * (1 - t * t) * x * x * y + 2 * t * x}});
    // max(x^2, y) y with max_a = (1 + tanh(a - b)) / 2
    double a = x * x;
    double m = Math.tanh(a - y);
    double ma = 0.5 + 0.5 * m;
    double mb = 0.5 - 0.5 * m;
    assertHessian(compiled, "smoothMax", x, y, new double[] {ma * 2 * x * y, mb * y + Math.max(a, y)},
        new double[][] {{(1 - m * m) * 2 * x * x * y + 2 * ma * y, -(1 - m * m) * x * y + 2 * ma * x},
            {-(1 - m * m) * x * y + 2 * ma * x, 0.5 * (1 - m * m) * y + 2 * mb}});
  }

  static Stream<CompiledOnce> rulesVersions() {
    return RULES_COMPILED.stream();
  }

  private static void assertHessian(CompiledOnce compiled, String name, double x, double y,
      double[] gradient, double[][] hessian) throws Exception {
    Class<?> generated = compiled.get().load("com.example.RulesGrad");
    double[] g = (double[]) ad4j.processor.testing.ArrayFunctionChecks.invoke(generated,
        name + "Gradient", x, y);
    double[][] h = (double[][]) ad4j.processor.testing.ArrayFunctionChecks.invoke(generated,
        name + "Hessian", x, y);
    for (int i = 0; i < 2; i++) {
      assertWithMessage("%s gradient %s", name, i).that(g[i]).isWithin(1e-13).of(gradient[i]);
      for (int j = 0; j < 2; j++) {
        assertWithMessage("%s H[%s][%s]", name, i, j).that(h[i][j]).isWithin(1e-12)
            .of(hessian[i][j]);
      }
    }
  }

  static Stream<Arguments> ruledCalls() {
    List<Arguments> cases = new ArrayList<>();
    for (CompiledOnce c : RULES_COMPILED) {
      double[] x5 = {0.3, -0.5, 0.7, 0.2, 0.9};
      cases.add(Arguments.of(c, "vectorRule", new Object[] {x5, 0.6}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "arrayRule", new Object[] {x5, 0.6}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "nestedTape", new Object[] {0.37, 0.61}, new boolean[] {true, true}));
      for (double[] point : new double[][] {{-0.7, 0.4}, {0.0, 0.4}, {0.7, 0.0}}) {
        cases.add(Arguments.of(c, "powers", new Object[] {point[0], point[1]}, new boolean[] {true, true}));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{1} {2}, {0}")
  @MethodSource("ruledCalls")
  void ruledCallsAndPowers(CompiledOnce compiled, String name, Object[] arguments,
      boolean[] active) throws Exception {
    MemberAgreement.of(compiled.get(), "com.example.Rules", name, active)
        .checkScalar(arguments, 2, 1e-7);
  }

  static Stream<Arguments> arrays() {
    List<Arguments> cases = new ArrayList<>();
    for (CompiledOnce c : ARRAYS_COMPILED) {
      double[] x5 = {0.3, -0.5, 0.7, 0.1, 0.2};
      cases.add(Arguments.of(c, "rowsOverlap", new Object[] {x5, 0.6}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "selfElements", new Object[] {x5, 0.6, 2}, new boolean[] {true, true, false}));
      cases.add(Arguments.of(c, "fillCopy", new Object[] {x5, 0.6}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "matrixFirst", new Object[] {new double[][] {{0.3, -0.5}, {0.7}}, 0.6,
          new double[] {0.2, 0.1}, 0.9}, new boolean[] {true, true, true, true}));
      cases.add(Arguments.of(c, "inactiveBetween", new Object[] {new double[] {0.3, -0.5, 0.7},
          new double[] {1, 2}, 0.6, new double[] {0.5}, 0.25}, new boolean[] {true, false, true, false, true}));
      cases.add(Arguments.of(c, "indicesFromData", new Object[] {x5, 0.6, new double[] {4, 0, 2}},
          new boolean[] {true, true, false}));
      cases.add(Arguments.of(c, "rotated", new Object[] {x5, 0.6}, new boolean[] {true, true}));
      cases.add(Arguments.of(c, "swappedInBranch", new Object[] {x5, 0.6}, new boolean[] {true, true}));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{1} {2}, {0}")
  @MethodSource("arrays")
  void arraysWrittenInPlace(CompiledOnce compiled, String name, Object[] arguments,
      boolean[] active) throws Exception {
    MemberAgreement.of(compiled.get(), "com.example.Arrays2", name, active)
        .checkScalar(arguments, 2, 1e-7);
  }

  static Stream<CompiledOnce> arraysVersions() {
    return ARRAYS_COMPILED.stream();
  }

  /** Instance methods of an ordinary class at order 2, and a static method calling them. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("arraysVersions")
  void instanceMethods(CompiledOnce compiled) throws Exception {
    Class<?> modelClass = compiled.get().load("com.example.Arrays2$Model");
    java.lang.reflect.Constructor<?> make =
        modelClass.getDeclaredConstructor(double.class, double[].class);
    make.setAccessible(true);
    Object model = make.newInstance(1.5, new double[] {0.5, -0.25, 2});
    Class<?> modelGrad = compiled.get().load("com.example.Arrays2_ModelGrad");
    double[] x5 = {0.3, -0.5, 0.7, 0.1, 0.2};
    new MemberAgreement(modelClass, modelGrad, "energy", null, true, true).on(model)
        .checkScalar(new Object[] {x5, 0.6}, 2, 1e-7);
    new MemberAgreement(modelClass, modelGrad, "twice", null, true, true).on(model)
        .checkScalar(new Object[] {0.3, 0.6}, 2, 1e-7);
    MemberAgreement.of(compiled.get(), "com.example.Arrays2", "callsModel", true, true, true, false)
        .checkScalar(new Object[] {x5, 0.6, 0.9, model}, 2, 1e-7);
  }

  static Stream<CompiledOnce> labelsVersions() {
    return LABELS_COMPILED.stream();
  }

  /**
   * {@code continue} and {@code break} to the label of an enhanced {@code for} loop, over a
   * matrix's rows, an array's elements and an {@code int[]} of indices, at order 2 and in a
   * vector function; each taken at the points.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("labelsVersions")
  void labelsOnEnhancedForLoops(CompiledOnce compiled) throws Exception {
    MemberAgreement.of(compiled.get(), "com.example.Labels", "rows", true, true).checkScalar(
        new Object[] {new double[][] {{0.3, -0.5}, {0.7}, {}, {0.1, 0.9, 0.2}}, 0.6}, 2, 1e-7);
    MemberAgreement.of(compiled.get(), "com.example.Labels", "elements", true, true)
        .checkScalar(new Object[] {new double[] {0.3, -0.5, 0.7, 0.2}, 0.6}, 2, 1e-7);
    MemberAgreement.of(compiled.get(), "com.example.Labels", "elements", true, true)
        .checkScalar(new Object[] {new double[] {1.3, 1.5, 0.7, 0.2}, 1.6}, 2, 1e-7);
    MemberAgreement.of(compiled.get(), "com.example.Labels", "indices", true, true, false)
        .checkScalar(new Object[] {new double[] {0.3, -0.5, 0.45, 0.2}, 0.6, new int[] {1, 3, 2, 0}},
            2, 1e-7);
    MemberAgreement.of(compiled.get(), "com.example.Labels", "vector", true, true)
        .checkVector(new Object[] {new double[] {0.3, -0.5, 0.7, 0.2}, 0.6});
  }

  /**
   * A {@code @Differentiable} instance method called on an object held in a {@code static final}
   * field: an error that says to call it on a local, which works, where it advised before to
   * write {@code @DerivativeOf} rules for a method whose derivatives ad4j generates.
   */
  @Test
  void aDifferentiableMethodOfAFieldsObjectIsToBeCalledOnALocal() throws Exception {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class Model {",
        "    final double k;",
        "    Model(double k) { this.k = k; }",
        "    @Differentiable(order = 2) double energy(double x) { return k * x * x * x; }",
        "  }",
        "  static final Model MODEL = new Model(1.5);",
        "  @Differentiable(order = 2) static double viaField(double x) { return MODEL.energy(x); }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("'F.MODEL' holds an object, and ad4j"
        + " differentiates calls of its @Differentiable methods on a local or a parameter only;"
        + " assign it to a local first ('Model local = F.MODEL;') and call 'energy' on that")
        .inFile(file).onLine(10).atColumn(lines.get(9).indexOf("(x);") + 1);

    // as the message says
    List<String> local = new ArrayList<>(lines);
    local.set(9, "  @Differentiable(order = 2) static double viaField(double x) {"
        + " Model local = F.MODEL; return local.energy(x); }");
    MemberAgreement.of(InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
            "com.example.F", String.join("\n", local)), "com.example.F", "viaField", true)
        .checkScalar(new Object[] {0.7}, 2, 1e-7);
  }

  /**
   * A vector function that returns a {@code static final} table, a local holding one, or an
   * object's array: an error at the return saying which it is. Before, {@code return TABLE}
   * was called a parameter's array, and the three others stopped the processor with an
   * internal error (a NullPointerException while writing the generated class).
   */
  @Test
  void returningAnArrayTheMethodDidNotMakeIsAnErrorAtTheReturn() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final double[] TABLE = {0.5, -1.5, 2.0};",
        "  static final class Holder { final double[] data = {1, 2}; }",
        "  @Differentiable static double[] table(double t) { return TABLE; }",
        "  @Differentiable static double[] alias(double t) { double[] r = TABLE; return r; }",
        "  @Differentiable(order = 2) static double[] read(double t) {",
        "    double[] r = TABLE;",
        "    double s = r[0] * t;",
        "    return r;",
        "  }",
        "  @Differentiable static double[] object(double t, Holder h) { return h.data; }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(4);
    assertThat(compilation).hadErrorContaining("'TABLE' is a static final table, which its"
        + " class owns: return a local array ('TABLE.clone()')").inFile(file).onLine(6)
        .atColumn(lines.get(5).indexOf("TABLE;") + 1);
    String notMade = "' holds an array this method did not make (a static final table, a"
        + " field's or an object's), which it does not own: return a local array ('";
    assertThat(compilation).hadErrorContaining("'r" + notMade + "r.clone()')").inFile(file)
        .onLine(7).atColumn(lines.get(6).indexOf("r; }") + 1);
    assertThat(compilation).hadErrorContaining("'r" + notMade + "r.clone()')").inFile(file)
        .onLine(11).atColumn(lines.get(10).indexOf("r;") + 1);
    assertThat(compilation).hadErrorContaining("'h.data" + notMade + "h.data.clone()')")
        .inFile(file).onLine(13).atColumn(lines.get(12).indexOf(".data;") + 1);
  }
}
