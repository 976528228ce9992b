package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A probe of session 49's second-order code: the tangents known to be zero that the rules leave
 * out ({@code derive/forward/ZeroTangents}: a variable declared with a value whose tangent is
 * zero and never assigned again has none), the Hessian's lower triangle copied from the upper
 * ({@code write/HessianInto.symmetrised}), and what every member does with a null array. Each
 * class is compiled with {@code -Xlint:all -Werror}, whole and cut into parts, and each method
 * checked by {@link MemberAgreement} at order 2 (the gradient against differences of order 8 of
 * the user's method, the members against each other, the tangent against the gradient, the
 * Hessian against differences of the gradient, {@code mHessianVector} and {@code
 * mValueGradientAndHessian} against the Hessian) or at order 1, vector functions by their
 * Jacobian (forward mode where it has more rows than slots).
 *
 * <p>The methods change a variable declared with a constant in every way Java has: compound
 * assignments, {@code ++} and {@code --} on doubles, assignments inside expressions and loop
 * conditions, nested blocks, branches, both kinds of {@code switch}, labelled {@code break} and
 * {@code continue}, swaps, declarations without a value, declarations in a loop's body,
 * recursion, a {@code @Checkpointed} loop, local arrays and their aliases, records, lambdas and
 * streams that capture it, {@code float}s and {@code int}s widened, an assigned {@code
 * @NoDerivative} parameter, and calls of order-2 methods (a scalar one with an array, a vector
 * one, a {@code @DerivativeOf} rule). The Hessians have 1 to 33 slots (below, at and between
 * multiples of the lanes), scalars, arrays and a matrix mixed with {@code @NoDerivative}
 * parameters between them, and code whose structure is not symmetric.
 *
 * <p>The probe found one crash, older than session 49, fixed with it: a callee's parameter
 * that no adjoint reaches ({@link #calleesWhoseParametersNoAdjointReaches}).
 */
@ExtendWith(TapeIsEmpty.class)
class ZeroTangentsProbeTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "import java.util.function.DoubleUnaryOperator;",
      "@SuppressWarnings({\"lossy-conversions\", \"fallthrough\"}) final class Zp {",
      "  @Differentiable(order = 2) static double compound(double x, double y) {",
      "    double s = 0;",
      "    s += x * y;",
      "    s *= x;",
      "    double t = 1;",
      "    t -= y;",
      "    t /= x;",
      "    return s + t * t;",
      "  }",
      "  @Differentiable(order = 2) static double increments(double x, double y) {",
      "    double c = 1;",
      "    c++;",
      "    ++c;",
      "    double r = x * c++;",
      "    double q = (--c) * y;",
      "    c = c * x;",
      "    c--;",
      "    return r * q + c * y;",
      "  }",
      "  @Differentiable(order = 2) static double assignmentInExpression(double x, double y) {",
      "    double s = 0;",
      "    double a = (s = x * y) * 2;",
      "    double b = 3;",
      "    double c = (b += x) * (s -= y);",
      "    return a * s + c * b;",
      "  }",
      "  @Differentiable(order = 2) static double nestedBlocks(double x, double y) {",
      "    double s = 0;",
      "    {",
      "      s = x * y;",
      "    }",
      "    if (x > 0) {",
      "      {",
      "        s = s * x;",
      "      }",
      "    }",
      "    return s * y;",
      "  }",
      "  @Differentiable(order = 2) static double declaredInLoop(double[] x) {",
      "    double prev = 0;",
      "    double sum = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      double t = 0;",
      "      if (i > 0) {",
      "        t = prev;",
      "      }",
      "      double u = 2;",
      "      sum += t * x[i] + u * x[i] * x[i];",
      "      prev = x[i] * x[i];",
      "    }",
      "    return sum;",
      "  }",
      "  @Differentiable(order = 2) static double loopCarried(double[] x, double y) {",
      "    double k = 1;",
      "    double acc = 0;",
      "    int i = 0;",
      "    while (i < x.length) {",
      "      acc += k * x[i];",
      "      k = k * y;",
      "      i++;",
      "    }",
      "    return acc * acc;",
      "  }",
      "  @Differentiable(order = 2) static double doWhileCondition(double x, double y) {",
      "    double s = 0.5;",
      "    int n = 0;",
      "    do {",
      "      n++;",
      "    } while ((s = s * x + 0.25 * y) < 3 && n < 6);",
      "    return s * y;",
      "  }",
      "  @Differentiable(order = 2) static double branches(double x, double y, int k) {",
      "    double c = 0;",
      "    if (k == 1) {",
      "      c = x * y;",
      "    } else if (k == 2) {",
      "      c = Math.sin(x);",
      "    }",
      "    double d = 2;",
      "    d = k > 0 ? d : x;",
      "    return c * d + y * d;",
      "  }",
      "  @Differentiable(order = 2) static double switches(double x, double y, int k) {",
      "    double c = 1;",
      "    switch (k) {",
      "      case 1: c = x * y; break;",
      "      case 2: c *= y;",
      "      case 3: c += x; break;",
      "      default: break;",
      "    }",
      "    double e = 0;",
      "    e = switch (k) { case 1 -> x; case 2 -> y * y; default -> e; };",
      "    return c * x + e * c;",
      "  }",
      "  @Differentiable(order = 2) static double labelled(double[] x) {",
      "    double c = 0;",
      "    outer:",
      "    for (int i = 0; i < x.length; i++) {",
      "      double m = 1;",
      "      for (int j = 0; j < x.length; j++) {",
      "        if (j == i) continue;",
      "        if (x[j] > 1.5) continue outer;",
      "        m *= x[j];",
      "        if (j > 3) break outer;",
      "      }",
      "      c += m * x[i];",
      "    }",
      "    return c;",
      "  }",
      "  @Differentiable(order = 2) static double swaps(double x, double y) {",
      "    double a = 0;",
      "    double b = 1;",
      "    for (int i = 0; i < 4; i++) {",
      "      double t = a;",
      "      a = b;",
      "      b = t + b * x;",
      "    }",
      "    double p = 2;",
      "    double q = y;",
      "    double r = p;",
      "    p = q;",
      "    q = r;",
      "    return a * b + p * q * x;",
      "  }",
      "  @Differentiable(order = 2) static double noInitializer(double x, double y) {",
      "    double c;",
      "    if (x > y) {",
      "      c = x * x;",
      "    } else {",
      "      c = y;",
      "    }",
      "    double d;",
      "    d = x * y;",
      "    return c * d;",
      "  }",
      "  @Differentiable(order = 2) static double recursion(double x, int n) {",
      "    double acc = 1;",
      "    if (n > 0) {",
      "      acc = recursion(x, n - 1) * x + acc;",
      "    }",
      "    return acc * x;",
      "  }",
      "  @Differentiable(order = 2) static double localArrays(double x, double y, int n) {",
      "    double[] a = new double[n];",
      "    a[0] = x;",
      "    for (int i = 1; i < n; i++) {",
      "      a[i] = a[i - 1] * y;",
      "    }",
      "    double[] b = a;",
      "    b[0] = y * y;",
      "    double s = 0;",
      "    for (double v : a) {",
      "      s += v * v;",
      "    }",
      "    return s * a[0];",
      "  }",
      "  @Differentiable(order = 2) static double constantArray(double[] x) {",
      "    double[] w = {1, 2, 3};",
      "    w[1] = x[0] * x[1];",
      "    double s = w[0];",
      "    s += w[1] * w[2];",
      "    double[] v = new double[2];",
      "    v[1] += x[2];",
      "    return s * x[2] + v[1] * v[1] * s;",
      "  }",
      "  @Differentiable(order = 2) static double lambdas(double x, double y) {",
      "    double k = 3;",
      "    double m = x * y;",
      "    DoubleUnaryOperator f = u -> u * k + m * u;",
      "    double s = 0;",
      "    s = f.applyAsDouble(x) + f.applyAsDouble(y);",
      "    return s * k * s;",
      "  }",
      "  @Differentiable(order = 2) static double streams(double[] x, double y) {",
      "    double k = 2;",
      "    double s = java.util.Arrays.stream(x).map(v -> v * v * k * y).sum();",
      "    double z = 0;",
      "    z = java.util.Arrays.stream(x).map(v -> v * y).sum();",
      "    return s + z * z;",
      "  }",
      "  @Differentiable(order = 2) static double floats(float x, double y) {",
      "    float f = 0f;",
      "    for (int i = 0; i < 3; i++) {",
      "      f += x * (float) y;",
      "    }",
      "    float g = 1;",
      "    g *= x;",
      "    return f * g;",
      "  }",
      "  @Differentiable(order = 2) static double intToDouble(double x, int n) {",
      "    double d = n;",
      "    d *= x;",
      "    double e = n + 1;",
      "    for (int i = 0; i < n; i++) {",
      "      e += d * x;",
      "    }",
      "    return d * e;",
      "  }",
      "  @Differentiable(order = 2) static double ternaryAssign(double x, double y, int k) {",
      "    double c = 0;",
      "    double r = k > 0 ? (c = x * y) : c + y;",
      "    return r * c + x * r;",
      "  }",
      "  @Differentiable(order = 2) static double noDerivativeAssigned(double x, @NoDerivative double c) {",
      "    for (int i = 0; i < 3; i++) {",
      "      c = c * x + 1;",
      "    }",
      "    return c * x;",
      "  }",
      "  @Differentiable(order = 2) static double helperAccumulates(double x, double y) {",
      "    double acc = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      acc = step(acc, x) + y * acc;",
      "    }",
      "    return acc;",
      "  }",
      "  @Differentiable(order = 2) static double step(double a, double x) {",
      "    return a * x + x * x;",
      "  }",
      "}");

  private static final String CALLS = String.join("\n",
      "package com.example;",
      "import ad4j.Checkpointed;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Zq {",
      "  @Differentiable(order = 2) static double weighted(double[] w, double s) {",
      "    double acc = 0;",
      "    double k = 1;",
      "    for (int i = 0; i < w.length; i++) {",
      "      acc += k * w[i] * w[i] * s;",
      "      k = k + 1;",
      "    }",
      "    return acc;",
      "  }",
      "  @Differentiable(order = 2) static double callsInLoop(double[] w, double s) {",
      "    double total = 0;",
      "    double c = 2;",
      "    for (int i = 0; i < 3; i++) {",
      "      total += weighted(w, s * c) * c;",
      "      c = c * s;",
      "    }",
      "    return total;",
      "  }",
      "  @Differentiable(order = 2) static double[] pair(double x, double y) {",
      "    double[] r = new double[2];",
      "    double z = 0;",
      "    z += x * y;",
      "    r[0] = z * z;",
      "    r[1] = Math.sin(x) * y;",
      "    return r;",
      "  }",
      "  @Differentiable(order = 2) static double usesPair(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 0; i < 2; i++) {",
      "      double[] p = pair(x + i, y);",
      "      s += p[0] * p[1];",
      "    }",
      "    return s;",
      "  }",
      "  public static double soft(double x) {",
      "    return Math.log1p(Math.exp(x));",
      "  }",
      "  @Differentiable(order = 2) @DerivativeOf(\"soft\") static double softX(double x) {",
      "    return 1 / (1 + Math.exp(-x));",
      "  }",
      "  @Differentiable(order = 2) static double ruled(double x, double y) {",
      "    double s = 0;",
      "    double c = 3;",
      "    for (int i = 0; i < 3; i++) {",
      "      s += soft(x * c + s) * y;",
      "    }",
      "    return s + soft(c) * x;",
      "  }",
      "  record P(double u, double v) {}",
      "  @Differentiable(order = 2) static double records(P p, double y) {",
      "    P q = new P(0, 1);",
      "    double s = 0;",
      "    for (int i = 0; i < 2; i++) {",
      "      s += q.u() * p.v() + q.v() * p.u() * y;",
      "      q = new P(p.u() * y, q.v() * p.v());",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double[] wide(double x, double y) {",
      "    double[] r = new double[6];",
      "    double a = 0;",
      "    double b = 1;",
      "    for (int i = 0; i < 6; i++) {",
      "      r[i] = a * x + b * y;",
      "      double t = a;",
      "      a = b;",
      "      b = t + b * x;",
      "    }",
      "    return r;",
      "  }",
      "  @Checkpointed(snapshots = 4)",
      "  @Differentiable static double checkpointed(double x, double y) {",
      "    double a = 0;",
      "    double b = 1;",
      "    for (int i = 0; i < 9; i++) {",
      "      double t = a;",
      "      a = b * y;",
      "      b = t + Math.sin(b * x);",
      "    }",
      "    return a + b;",
      "  }",
      "  @Differentiable(order = 2) static double assignedNoDerivativeArray(double x, @NoDerivative double[] w) {",
      "    double s = 0;",
      "    double[] v = w.clone();",
      "    for (int i = 0; i < v.length; i++) {",
      "      v[i] = v[i] * 2;",
      "      s += v[i] * x * x;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double unusedSecond(double a, double b) {",
      "    return a * a;",
      "  }",
      "  @Differentiable(order = 2) static double constantCallee(double a, double b) {",
      "    return 3.0;",
      "  }",
      "  @Differentiable(order = 2) static double unreachedAdjoint(double x, double y) {",
      "    return unusedSecond(x * y, y) * x;",
      "  }",
      "  @Differentiable(order = 2) static double unreachedAdjointsInLoop(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      s += unusedSecond(x * y, y) * x + constantCallee(x, y) * y;",
      "    }",
      "    return s + unusedSecond(y, x) * y;",
      "  }",
      "  @Differentiable(order = 2) static double assignsUnused(double a, double b, int k) {",
      "    if (k > 0) {",
      "      b = 2;",
      "    }",
      "    return a * a * k;",
      "  }",
      "  @Differentiable(order = 2) static double[] pairUnused(double a, double b, double[] w) {",
      "    double[] r = new double[2];",
      "    r[0] = a * w[0];",
      "    r[1] = a * a;",
      "    return r;",
      "  }",
      "  @Differentiable(order = 2) static double unreachedInAssignedAndVector(double x, double y,",
      "      double[] w) {",
      "    double s = assignsUnused(x * y, y, 2);",
      "    for (int i = 0; i < 2; i++) {",
      "      double[] p = pairUnused(x + i, y, w);",
      "      s += p[0] * p[1] * y;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double localArrayInLoop(double[] x, double y) {",
      "    double s = 0;",
      "    for (int k = 0; k < 2; k++) {",
      "      double[] a = new double[x.length];",
      "      for (int i = 0; i < x.length; i++) {",
      "        a[i] = k == 0 ? 1 : x[i] * y;",
      "      }",
      "      for (int i = 0; i < x.length; i++) {",
      "        s += a[i] * a[i] * x[i];",
      "      }",
      "    }",
      "    return s;",
      "  }",
      "}");

  private static final String HESSIANS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Zh {",
      "  @Differentiable(order = 2) static double scattered(double[] x) {",
      "    double s = 0;",
      "    int n = x.length;",
      "    for (int i = 0; i < n; i++) {",
      "      int j = (i * 7 + 3) % n;",
      "      s += x[i] * x[i] * x[j] + Math.sin(x[i] * (i + 1)) * x[(i + 1) % n];",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double mixed(double a, double[] x, @NoDerivative double c,",
      "      double b, @NoDerivative double[] w, double[][] m) {",
      "    double s = a * b * c;",
      "    for (int i = 0; i < x.length; i++) {",
      "      s += x[i] * a * w[i % w.length] + x[i] * x[(i + 1) % x.length] * b;",
      "    }",
      "    for (double[] row : m) {",
      "      for (int j = 0; j < row.length; j++) {",
      "        s += row[j] * row[j] * a * x[j % x.length];",
      "      }",
      "    }",
      "    return s * Math.cos(s);",
      "  }",
      "  @Differentiable(order = 2) static double one(double x) {",
      "    return x * x * Math.exp(x);",
      "  }",
      "  @Differentiable(order = 2) static double two(double x, double y) {",
      "    return x * x * y + Math.sin(y) * x;",
      "  }",
      "  @Differentiable(order = 2) static double upperOnly(double[] x) {",
      "    double s = 0;",
      "    for (int i = 0; i < x.length; i++) {",
      "      for (int j = i + 1; j < x.length; j++) {",
      "        s += x[i] * x[j] * (j - i) * x[j];",
      "      }",
      "    }",
      "    return s + x[0] * x[0] * x[0];",
      "  }",
      "  @Differentiable(order = 2) static double scalarsAroundArray(double p, @NoDerivative double q,",
      "      double[] x, double r) {",
      "    double s = p * r;",
      "    for (int i = 0; i < x.length; i++) {",
      "      s += x[i] * x[i] * p * q + (i % 2 == 0 ? x[i] * r : Math.exp(x[i] * p));",
      "    }",
      "    return s * r;",
      "  }",
      "}");

  private static final String NULLS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Nul {",
      "  @Differentiable(order = 2) static double arrayFirst(double[] x, double y) {",
      "    if (y > 0) {",
      "      return y * y * y;",
      "    }",
      "    return x[0] * y;",
      "  }",
      "  @Differentiable(order = 2) static double arrayLast(double y, double[] x) {",
      "    if (y > 0) {",
      "      return y * y * y;",
      "    }",
      "    return x[0] * y;",
      "  }",
      "  @Differentiable(order = 2) static double reads(double y, double[] x) {",
      "    double s = y * y;",
      "    for (double v : x) {",
      "      s += v * y;",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable(order = 2) static double inactive(double y, @NoDerivative double[] w) {",
      "    return w == null ? y * y : w[0] * y * y;",
      "  }",
      "  @Differentiable(order = 2) static double matrix(double y, double[][] m) {",
      "    if (y > 0) {",
      "      return y * y;",
      "    }",
      "    return m[0][0] * y;",
      "  }",
      "  @Differentiable static double[] vector(double y, double[] x) {",
      "    return new double[] {y * x[0], y};",
      "  }",
      "  @Differentiable static double[] vectorLate(double y, double[] x) {",
      "    double[] r = new double[2];",
      "    if (y > 0) {",
      "      r[0] = y;",
      "    } else {",
      "      r[0] = y * x[0];",
      "    }",
      "    r[1] = y * y;",
      "    return r;",
      "  }",
      "}");

  private static final List<CompiledOnce> COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Zp", SOURCE, 1, 2);
  private static final List<CompiledOnce> CALLS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Zq", CALLS, 1, 2);
  private static final List<CompiledOnce> HESSIANS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Zh", HESSIANS, 1);
  private static final CompiledOnce NULLS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Nul", NULLS).get(0);

  private static MemberAgreement method(Compiled compiled, String name, boolean... active) {
    return MemberAgreement.of(compiled, "com.example.Zp", name, active);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void scalars(int options) throws Exception {
    Compiled c = COMPILED.get(options).get();
    double[] five = {0.3, 0.8, 1.2, 0.6, 1.1};
    method(c, "compound", true, true).checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    method(c, "increments", true, true).checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    method(c, "assignmentInExpression", true, true).checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    method(c, "nestedBlocks", true, true).checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    method(c, "nestedBlocks", true, true).checkScalar(new Object[] {-0.7, -0.4}, 2, 1e-7);
    method(c, "declaredInLoop", true).checkScalar(new Object[] {five}, 2, 1e-7);
    method(c, "loopCarried", true, true).checkScalar(new Object[] {five, 0.9}, 2, 1e-7);
    method(c, "doWhileCondition", true, true).checkScalar(new Object[] {1.3, 0.9}, 2, 1e-7);
    for (int k = 0; k < 4; k++) {
      method(c, "branches", true, true, false).checkScalar(new Object[] {0.7, -0.4, k}, 2, 1e-7);
      method(c, "switches", true, true, false).checkScalar(new Object[] {0.7, -0.4, k}, 2, 1e-7);
      method(c, "ternaryAssign", true, true, false).checkScalar(new Object[] {0.7, -0.4, k - 1}, 2, 1e-7);
    }
    method(c, "labelled", true).checkScalar(new Object[] {five}, 2, 1e-7);
    method(c, "labelled", true).checkScalar(new Object[] {new double[] {0.3, 0.8, 1.7, 0.6, 1.1, 0.5}}, 2, 1e-7);
    method(c, "swaps", true, true).checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    method(c, "noInitializer", true, true).checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    method(c, "noInitializer", true, true).checkScalar(new Object[] {-0.7, -0.4}, 2, 1e-7);
    method(c, "recursion", true, false).checkScalar(new Object[] {0.7, 3}, 2, 1e-7);
    method(c, "localArrays", true, true, false).checkScalar(new Object[] {0.7, -0.4, 4}, 2, 1e-7);
    method(c, "constantArray", true).checkScalar(new Object[] {new double[] {0.3, 0.8, 1.2}}, 2, 1e-7);
    method(c, "lambdas", true, true).checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    method(c, "streams", true, true).checkScalar(new Object[] {five, -0.4}, 2, 1e-7);
    method(c, "intToDouble", true, false).checkScalar(new Object[] {0.7, 3}, 2, 1e-7);
    method(c, "noDerivativeAssigned", true, false).checkScalar(new Object[] {0.7, 0.4}, 2, 1e-7);
    method(c, "helperAccumulates", true, true).checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void callsRulesRecordsAndVectors(int options) throws Exception {
    Compiled c = CALLS_COMPILED.get(options).get();
    String zq = "com.example.Zq";
    double[] three = {0.3, 0.8, 1.2};
    MemberAgreement.of(c, zq, "callsInLoop", true, true).checkScalar(new Object[] {three, 0.7}, 2, 1e-7);
    MemberAgreement.of(c, zq, "usesPair", true, true).checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    MemberAgreement.of(c, zq, "pair", true, true).checkVector(new Object[] {0.7, -0.4});
    MemberAgreement.of(c, zq, "ruled", true, true).checkScalar(new Object[] {0.3, 0.6}, 2, 1e-7);
    Class<?> record = c.load("com.example.Zq$P");
    MemberAgreement.of(c, zq, "records", true, true)
        .checkScalar(new Object[] {ad4j.processor.testing.Records.make(record, 0.4, 0.9), 0.7}, 2, 1e-7);
    MemberAgreement.of(c, zq, "wide", true, true).checkVector(new Object[] {0.7, -0.4});
    MemberAgreement.of(c, zq, "checkpointed", true, true).checkScalar(new Object[] {0.7, 0.9}, 1, 1e-7);
    MemberAgreement.of(c, zq, "assignedNoDerivativeArray", true, false)
        .checkScalar(new Object[] {0.7, new double[] {0.3, 0.5}}, 2, 1e-7);
    MemberAgreement.of(c, zq, "localArrayInLoop", true, true).checkScalar(new Object[] {three, 0.7}, 2, 1e-7);
  }

  /**
   * A callee's parameter that no adjoint reaches ({@code b} of {@code unusedSecond}, both of
   * {@code constantCallee}): its {@code mPullbackTangent} must push a tangent beside the zero
   * adjoint it pushes, since the caller's forward-over-reverse sweep takes back both. It pushed
   * the zero alone, and every {@code mHessian} and {@code mHessianVector} of a caller took one
   * number more from the tape than was there ({@code ArrayIndexOutOfBoundsException}).
   */
  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1, 2})
  void calleesWhoseParametersNoAdjointReaches(int options) throws Exception {
    Compiled c = CALLS_COMPILED.get(options).get();
    String zq = "com.example.Zq";
    MemberAgreement.of(c, zq, "unreachedAdjoint", true, true)
        .checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    MemberAgreement.of(c, zq, "unreachedAdjointsInLoop", true, true)
        .checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    MemberAgreement.of(c, zq, "unreachedAdjointsInLoop", true, true)
        .checkScalar(new Object[] {-1.3, 0.9}, 2, 1e-7);
    MemberAgreement.of(c, zq, "unreachedInAssignedAndVector", true, true, true)
        .checkScalar(new Object[] {0.7, -0.4, new double[] {1.3, 0.2}}, 2, 1e-7);
  }

  @ParameterizedTest(name = "option set {0}")
  @ValueSource(ints = {0, 1})
  void hessiansOfEveryShape(int options) throws Exception {
    Compiled c = HESSIANS_COMPILED.get(options).get();
    String zh = "com.example.Zh";
    for (int n : new int[] {1, 2, 3, 4, 5, 8, 9, 33}) {
      Object[] arguments = {point(n, n)};
      MemberAgreement.of(c, zh, "scattered", true).checkScalar(arguments, 2, 1e-7);
      if (n > 1) {
        ad4j.processor.testing.FlatHessianChecks.of(c, zh).checkColumnsOfHessianVector(
            new ad4j.processor.testing.ArrayFunctionChecks.Call("scattered", arguments, true));
      }
    }
    for (int n : new int[] {2, 5, 7, 9}) {
      MemberAgreement.of(c, zh, "upperOnly", true).checkScalar(new Object[] {point(n, 40 + n)}, 2, 1e-7);
    }
    Object[] mixed = {0.7, point(3, 1), 1.3, -0.4, point(2, 2),
        new double[][] {point(3, 3), point(3, 4)}};
    MemberAgreement.of(c, zh, "mixed", true, true, false, true, false, true).checkScalar(mixed, 2, 1e-7);
    ad4j.processor.testing.FlatHessianChecks.of(c, zh).checkColumnsOfHessianVector(
        new ad4j.processor.testing.ArrayFunctionChecks.Call("mixed", mixed, true, true, false, true, false, true));
    MemberAgreement.of(c, zh, "one", true).checkScalar(new Object[] {0.7}, 2, 1e-7);
    MemberAgreement.of(c, zh, "two", true, true).checkScalar(new Object[] {0.7, -0.4}, 2, 1e-7);
    for (int n : new int[] {1, 4, 6}) {
      MemberAgreement.of(c, zh, "scalarsAroundArray", true, false, true, true)
          .checkScalar(new Object[] {0.7, 1.3, point(n, 7), -0.4}, 2, 1e-7);
    }
  }

  private static double[] point(int n, long seed) {
    return new java.util.Random(seed).doubles(n, 0.3, 1.4).toArray();
  }

  /**
   * A null array that carries derivatives: every member that lays out slots reads its length
   * first and throws the NullPointerException the contract documents, before it writes into
   * any array of the caller's; the tangent, which lays out none, runs the method's own path
   * (it throws where the method throws, and gives the method's derivative where the method
   * never reads the array). A null {@code @NoDerivative} array is the method's business.
   */
  @Test
  void nullArrays() throws Exception {
    Compiled c = NULLS_COMPILED.get();
    Class<?> generated = c.load("com.example.NulGrad");
    MemberAgreement arrayFirst = MemberAgreement.of(c, "com.example.Nul", "arrayFirst", true, true);
    MemberAgreement arrayLast = MemberAgreement.of(c, "com.example.Nul", "arrayLast", true, true);
    MemberAgreement reads = MemberAgreement.of(c, "com.example.Nul", "reads", true, true);
    MemberAgreement matrix = MemberAgreement.of(c, "com.example.Nul", "matrix", true, true);
    for (double y : new double[] {-0.5, 0.5}) {
      checkNull(arrayFirst, new Object[] {null, y}, y > 0 ? 3 * y * y : null,
          new Object[] {null, 1.0}, 2);
      checkNull(arrayLast, new Object[] {y, null}, y > 0 ? 3 * y * y : null,
          new Object[] {1.0, null}, 2);
      checkNull(reads, new Object[] {y, null}, null, new Object[] {1.0, null}, 2);
      checkNull(matrix, new Object[] {y, null}, y > 0 ? 2 * y : null,
          new Object[] {1.0, null}, 2);
      // a null row: the method reads row 0 only, the members lay out row 1's slots too
      double[][] ragged = {{0.5, 0.25}, null};
      double[] gradient = {7, 7, 7, 7};
      double[][] hessian = {{7, 7, 7, 7}, {7, 7, 7, 7}, {7, 7, 7, 7}, {7, 7, 7, 7}};
      for (Object[] call : List.of(new Object[] {"matrixGradient", y, ragged},
          new Object[] {"matrixValueAndGradient", y, ragged, gradient},
          new Object[] {"matrixPullback", y, ragged, 1.0, gradient},
          new Object[] {"matrixHessian", y, ragged},
          new Object[] {"matrixHessianVector", y, ragged, new double[] {1, 1, 1, 1}},
          new Object[] {"matrixValueGradientAndHessian", y, ragged, gradient, hessian})) {
        Throwable t = thrown(() -> ArrayFunctionChecks.invoke(generated, (String) call[0],
            java.util.Arrays.copyOfRange(call, 1, call.length)));
        assertWithMessage("%s with a null row", call[0]).that(t.getCause())
            .isInstanceOf(NullPointerException.class);
        assertThat(gradient).isEqualTo(new double[] {7, 7, 7, 7});
        assertThat(hessian[0]).isEqualTo(new double[] {7, 7, 7, 7});
      }
    }
    MemberAgreement inactive = MemberAgreement.of(c, "com.example.Nul", "inactive", true, false);
    inactive.checkScalar(new Object[] {0.7, null}, 2, 1e-7);
    inactive.checkScalar(new Object[] {0.7, new double[] {1.5}}, 2, 1e-7);
    MemberAgreement vector = MemberAgreement.of(c, "com.example.Nul", "vector", true, true);
    MemberAgreement vectorLate = MemberAgreement.of(c, "com.example.Nul", "vectorLate", true, true);
    for (double y : new double[] {-0.5, 0.5}) {
      for (MemberAgreement m : List.of(vector, vectorLate)) {
        Object[] arguments = {y, null};
        boolean throwsToo = thrown(() -> m.value(arguments)) != null;
        assertThat(throwsToo).isEqualTo(m == vector || y < 0);
        for (String suffix : List.of("Jacobian", "ValueAndJacobian", "Pullback")) {
          double[][] into = {{7, 7, 7}, {7, 7, 7}};
          double[] adjoints = {7, 7, 7};
          Object[] more = suffix.equals("Jacobian") ? new Object[0]
              : suffix.equals("ValueAndJacobian") ? new Object[] {into}
              : new Object[] {new double[] {1, 1}, adjoints};
          Throwable t = thrown(() -> m.member(suffix, arguments, more));
          assertWithMessage("m%s with a null array, y = %s", suffix, y).that(t)
              .isInstanceOf(NullPointerException.class);
          assertThat(into).isEqualTo(new double[][] {{7, 7, 7}, {7, 7, 7}});
          assertThat(adjoints).isEqualTo(new double[] {7, 7, 7});
        }
        Throwable t = thrown(() -> m.member("Tangent", arguments, 1.0, null));
        if (throwsToo) {
          assertThat(t).isInstanceOf(NullPointerException.class);
        } else {
          assertThat(t).isNull();
          assertThat((double[]) m.member("Tangent", arguments, 1.0, null))
              .usingTolerance(1e-15).containsExactly(1.0, 2 * y).inOrder();
        }
      }
    }
  }

  /**
   * {@code arguments} hold a null active array; {@code tangent} is the derivative along
   * {@code directions} where the method does not read it (null where it throws).
   */
  private static void checkNull(MemberAgreement m, Object[] arguments, Double tangent,
      Object[] directions, int order) throws Exception {
    String where = m.name() + java.util.Arrays.deepToString(arguments);
    Throwable expected = thrown(() -> m.value(arguments));
    assertWithMessage("the method, %s", where).that(expected == null).isEqualTo(tangent != null);
    if (expected != null) {
      assertWithMessage("the method, %s", where).that(expected)
          .isInstanceOf(NullPointerException.class);
    }
    double[] gradient = {7, 7, 7, 7};
    double[] adjoints = {7, 7, 7, 7};
    double[][] hessian = {{7, 7, 7, 7}, {7, 7, 7, 7}, {7, 7, 7, 7}, {7, 7, 7, 7}};
    List<String> suffixes = new java.util.ArrayList<>(List.of("Gradient", "ValueAndGradient", "Pullback"));
    List<Object[]> more = new java.util.ArrayList<>(List.of(new Object[0], new Object[] {gradient},
        new Object[] {1.0, adjoints}));
    if (order == 2) {
      suffixes.addAll(List.of("Hessian", "HessianVector", "ValueGradientAndHessian"));
      more.addAll(List.of(new Object[0], new Object[] {new double[] {1, 1, 1, 1}},
          new Object[] {gradient, hessian}));
    }
    for (int k = 0; k < suffixes.size(); k++) {
      String suffix = suffixes.get(k);
      Object[] extra = more.get(k);
      Throwable t = thrown(() -> m.member(suffix, arguments, extra));
      assertWithMessage("m%s, %s", suffix, where).that(t).isInstanceOf(NullPointerException.class);
      assertWithMessage("gradient after m%s, %s", suffix, where).that(gradient)
          .isEqualTo(new double[] {7, 7, 7, 7});
      assertWithMessage("adjoints after m%s, %s", suffix, where).that(adjoints)
          .isEqualTo(new double[] {7, 7, 7, 7});
      for (double[] row : hessian) {
        assertWithMessage("Hessian after m%s, %s", suffix, where).that(row)
            .isEqualTo(new double[] {7, 7, 7, 7});
      }
    }
    Throwable t = thrown(() -> m.member("Tangent", arguments, directions));
    if (tangent == null) {
      assertWithMessage("mTangent, %s", where).that(t).isInstanceOf(NullPointerException.class);
    } else {
      assertWithMessage("mTangent, %s", where).that(t).isNull();
      assertWithMessage("mTangent, %s", where)
          .that((Double) m.member("Tangent", arguments, directions)).isWithin(1e-15).of(tangent);
    }
    assertWithMessage("entries left on the tape, %s", where)
        .that(ad4j.runtime.internal.Tape.current().size()).isEqualTo(0);
  }

  private interface Call {
    Object run() throws Exception;
  }

  private static Throwable thrown(Call call) {
    try {
      call.run();
      return null;
    } catch (Exception e) {
      return e;
    }
  }
}
