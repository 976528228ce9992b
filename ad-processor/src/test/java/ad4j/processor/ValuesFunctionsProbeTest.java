package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Probes of session 59 (hunt for silently wrong derivatives over DESIGN.md part 3's values and
 * functions) that found no wrong number, kept so that they stay right. Functions: a lambda
 * capturing an array that is written between its calls and inside its own body, per-iteration
 * lambdas, lambdas of templates whose own locals (assigned in loops) share the captured names,
 * templates two levels deep and nested inside each other's functions, overloaded and
 * {@code float} method references, {@code Math::hypot}, {@code Double::sum}, anonymous and
 * named classes whose method loops, {@code static final} lambdas with do/while, switch and
 * nested loops, boxed {@code Function<Double, Double>}, functions over records and arrays,
 * recursion reached from lambdas and streams, lambda parameters named like generated code's
 * variables. Streams: {@code reduce} with a non-associative operator and a non-zero identity,
 * {@code max}/{@code min}/{@code average} with {@code orElse}, filters on active values, an
 * empty range, nested streams, a stream lambda that writes into its source array, streams over
 * ranges capturing values a loop changes. Records and receivers: a record's own accessor that
 * computes, an array component aliased and written after construction, a clamping compact
 * constructor, static factories and {@code withX} copies, {@code this} passed to a helper,
 * records reassigned in loops and chosen in branches, a subclass field hiding the field an
 * inherited method reads, static method hiding; lambdas written in an inlined record method
 * and templates called from one, beside a caller's and a class's names like the record's
 * (found wrong, {@code RecordLambdas}). Each {@code double} method against
 * differences of order 8 of itself and forward against reverse ({@link DerivativeChecks});
 * the {@code float} methods (mixed {@code float}/{@code double}/{@code int}/{@code long}
 * arithmetic, narrowing compound assignments, {@code Math.abs}/{@code max}/{@code fma}/
 * {@code scalb}/{@code copySign} on floats, {@code Float.MIN_VALUE}, float lambdas, templates
 * and streams) against differences of the same source written in {@code double}, to float's
 * precision (DESIGN: values in float bit for bit, derivatives in double). The probes that
 * found errors with misleading messages are the diagnostics at the end.
 */
@ExtendWith(TapeIsEmpty.class)
class ValuesFunctionsProbeTest {
  private static final Map<String, String> SOURCES = new LinkedHashMap<>();

  static {
    SOURCES.put("Fn", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
import java.util.stream.*;
import java.util.Arrays;
final class Fn {
  @FunctionalInterface interface F3 { double ap(double a, double b, double c); }
  @Differentiable static double sq(double v) { return v * v; }
  static final class Scale implements DoubleUnaryOperator {
    public double applyAsDouble(double v) { return 3 * v * v; }
  }
  @Differentiable static double boxed(double x, double y) {
    Function<Double, Double> f = v -> v * v * x;
    BiFunction<Double, Double, Double> g = (a, b) -> a * b + x;
    return f.apply(y) + g.apply(x, y);
  }
  @Differentiable static double methodRefs(double x, double y) {
    DoubleUnaryOperator s = Fn::sq;
    DoubleUnaryOperator m = Math::sin;
    DoubleBinaryOperator h = Math::hypot;
    DoubleBinaryOperator mx = Math::max;
    return s.applyAsDouble(x) + m.applyAsDouble(y) + h.applyAsDouble(x, y) + mx.applyAsDouble(x * y, y);
  }
  @Differentiable static double custom3(double x, double y, double z) {
    F3 f = (a, b, c) -> a * b + c * x;
    return f.ap(y, z, x) * f.ap(x, x, z);
  }
  @Differentiable static double anon(double x, double y) {
    DoubleUnaryOperator f = new DoubleUnaryOperator() {
      @Override public double applyAsDouble(double v) { return v * v * v; }
    };
    DoubleUnaryOperator g = new Scale();
    return f.applyAsDouble(x * y) + g.applyAsDouble(y);
  }
  @Differentiable static double twice(DoubleUnaryOperator f, double v) { return f.applyAsDouble(f.applyAsDouble(v)); }
  @Differentiable static double through(DoubleUnaryOperator f, double v) { return twice(f, v) + f.applyAsDouble(v); }
  @Differentiable static double twoLevels(double x, double y) {
    double k = x * y;
    return through(v -> v * k + Math.cos(v), y);
  }
  @Differentiable static double capturedActive(double x, double y) {
    double a = Math.exp(x);
    double b = a * y;
    DoubleBinaryOperator f = (p, q) -> p * a + q * b;
    double s = 0;
    for (int i = 0; i < 4; i++) { s = f.applyAsDouble(s, x) * 0.5; }
    return s;
  }
  @Differentiable static double supplier(double x, double y) {
    DoubleSupplier s = () -> x * y;
    Supplier<Double> t = () -> x + y;
    return s.getAsDouble() * t.get();
  }
  @Differentiable static double intToDouble(double x, double y) {
    IntToDoubleFunction f = i -> x * i + y;
    double s = 0;
    for (int i = 0; i < 4; i++) s += f.applyAsDouble(i) * f.applyAsDouble(i + 1);
    return s;
  }
  @Differentiable static double rangeSum(double x, double y) {
    return IntStream.range(0, 5).mapToDouble(i -> Math.pow(x, i) * y).sum();
  }
  @Differentiable static double reduceIdentity(double x, double y) {
    double[] a = {x, y, x * y};
    return Arrays.stream(a).map(v -> v * v).reduce(y, (p, q) -> p * q + 1);
  }
  @Differentiable static double reduceMul(double x, double y) {
    return DoubleStream.of(x, y, 2.0).reduce(1.0, (p, q) -> p * q);
  }
  @Differentiable static double maxMin(double x, double y) {
    double[] a = {x, y, x * y, -y};
    return Arrays.stream(a).max().getAsDouble() * Arrays.stream(a).min().orElse(0) + Arrays.stream(a).average().getAsDouble();
  }
  @Differentiable static double filtered(double x, double y) {
    double[] a = {x, y, x * y, -y, x - y};
    return Arrays.stream(a).filter(v -> v > 0.2).map(v -> v * y).sum();
  }
  @Differentiable static double averageEmpty(double x, double y) {
    double[] a = {x, y};
    return Arrays.stream(a).filter(v -> v > 100).average().orElse(x * y);
  }
  @Differentiable static double streamOfVarargs(double x, double y) {
    return DoubleStream.of(x, y * y, 3).map(Math::exp).sum();
  }
  @Differentiable static double rangeClosed(double x, double y) {
    return IntStream.rangeClosed(1, 3).mapToDouble(i -> x / i + y).reduce(0.5, Double::sum);
  }
  @Differentiable static double maxOfMap(double x, double y) {
    return IntStream.range(0, 3).mapToDouble(i -> (x - i) * (y + i)).max().orElse(-1);
  }
}
""");
    SOURCES.put("Streams", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
import java.util.stream.*;
import java.util.Arrays;
final class Streams {
  record V(double x, double y) {
    @Differentiable double dot(V o) { return x * o.x + y * o.y; }
  }
  static final DoubleUnaryOperator CUBE = v -> v * v * v;
  @Differentiable static double capturedArrayMutated(double x, double y) {
    double[] a = {x};
    DoubleSupplier s = () -> a[0] * 2;
    double first = s.getAsDouble();
    a[0] = y * y;
    return first + s.getAsDouble();
  }
  @Differentiable static double capturedArrayInLoop(double x, double y) {
    double[] a = {x, y};
    DoubleUnaryOperator f = v -> v * a[0] + a[1];
    double s = 0;
    for (int i = 0; i < 4; i++) {
      s += f.applyAsDouble(s + x);
      a[0] = a[0] * y + s;
      a[1] = Math.sin(a[1]);
    }
    return s;
  }
  @Differentiable static double lambdaWritesArray(double x, double y) {
    double[] acc = {0};
    DoubleUnaryOperator f = v -> { acc[0] += v * v; return acc[0] * y; };
    double r = f.applyAsDouble(x) + f.applyAsDouble(y);
    return r + acc[0];
  }
  @Differentiable static double lambdaPerIteration(double x, double y) {
    double s = 0;
    for (int i = 1; i <= 3; i++) {
      double k = x * i + s;
      DoubleUnaryOperator f = v -> v * k;
      s += f.applyAsDouble(y);
    }
    return s;
  }
  @Differentiable static double staticFinalField(double x, double y) {
    return CUBE.applyAsDouble(x * y) + CUBE.applyAsDouble(y);
  }
  @Differentiable static double streamRange(double x, double y) {
    double[] a = {x, y, x * y, 3};
    double[] b = {y, 1, x, x};
    return Arrays.stream(a, 1, 3).sum() + IntStream.range(0, 4).mapToDouble(i -> a[i] * b[i]).sum();
  }
  @Differentiable static double streamCapturesMutated(double x, double y) {
    double[] a = {x, y, x * y};
    double s = 0;
    for (int i = 0; i < 3; i++) {
      double k = s;
      s += Arrays.stream(a).map(v -> v * k + y).sum();
      a[i] = s * 0.1;
    }
    return s;
  }
  @Differentiable static double averageFiltered(double x, double y) {
    double[] a = {x, y, x * y, -x};
    return Arrays.stream(a).filter(v -> v < y).average().orElse(y);
  }
  @Differentiable static double intStreamMap(double x, double y) {
    return IntStream.range(0, 5).map(i -> i * i).mapToDouble(i -> x * i).sum() + IntStream.of(1, 2, 3).asDoubleStream().map(v -> v * y).sum();
  }
  @Differentiable static double minOrElse(double x, double y) {
    double[] a = {x * y, y - x, x};
    return Arrays.stream(a).map(v -> v * v).min().orElse(x);
  }
  @Differentiable static double sumOfEmptyRange(double x, double y) {
    int n = 0;
    return IntStream.range(0, n).mapToDouble(i -> x).sum() + y + IntStream.range(3, 1).mapToDouble(i -> x * i).sum();
  }
  @Differentiable static double nestedStreams(double x, double y) {
    double[] a = {x, y};
    return IntStream.range(0, 3).mapToDouble(i -> Arrays.stream(a).map(v -> v * i + x).sum()).sum();
  }
  @Differentiable static double mapRef(double x, double y) {
    double[] a = {x, y};
    return Arrays.stream(a).map(Math::sin).map(Streams::sq).sum();
  }
  @Differentiable static double sq(double v) { return v * v; }
  @Differentiable static double unboundRef(double x, double y) {
    ToDoubleFunction<V> f = v -> v.x() * v.y();
    ToDoubleBiFunction<V, V> g = (p, q) -> p.dot(q);
    V a = new V(x, y * x);
    return f.applyAsDouble(a) + g.applyAsDouble(a, new V(y, 1));
  }
}
""");
    SOURCES.put("Anon", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
final class Anon {
  interface Op { double ap(double v); default double twice(double v) { return ap(ap(v)); } }
  interface Op2 extends DoubleUnaryOperator { }
  static final class Scale implements DoubleUnaryOperator {
    final double k;
    Scale(double k) { this.k = k; }
    public double applyAsDouble(double v) { return k * v * v; }
  }
  @Differentiable static double anonCapturesActive(double x, double y) {
    DoubleUnaryOperator f = new DoubleUnaryOperator() {
      @Override public double applyAsDouble(double v) { return v * x; }
    };
    return f.applyAsDouble(y);
  }
  @Differentiable static double subInterface(double x, double y) {
    Op2 f = v -> v * x;
    return f.applyAsDouble(y);
  }
  @Differentiable static double whileTape(double x, double y) {
    DoubleUnaryOperator f = v -> v * 0.5 + x;
    double s = y;
    int n = 0;
    while (s < 1e9 && n < 12) { s = f.applyAsDouble(s) + s * y; n++; }
    return s;
  }
}
""");
    SOURCES.put("Names", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
import java.util.stream.*;
import java.util.Arrays;
final class Names {
  @Differentiable static double through(DoubleUnaryOperator f, double x) {
    double k = 100 + x;
    double y = k * 0.5;
    return f.applyAsDouble(x) + k + y;
  }
  @Differentiable static double deeper(DoubleUnaryOperator g, double y) {
    double k = -7;
    double x = y * 3;
    return through(g, x + k) * through(v -> g.applyAsDouble(v) * k, y);
  }
  @Differentiable static double nameClash(double x, double y) {
    double k = x * y;
    return through(v -> v * k + x + y, y);
  }
  @Differentiable static double nameClash2(double x, double y) {
    double k = x * y;
    return deeper(v -> v * k + x * y, x);
  }
  @Differentiable static double lambdaParamShadow(double x, double y) {
    double k = x + 1;
    DoubleBinaryOperator f = (y2, k2) -> y2 * k + k2 * y;
    double s = 0;
    for (int i = 0; i < 3; i++) {
      double t = f.applyAsDouble(s, k);
      s = t * 0.5;
    }
    return s;
  }
  @Differentiable static double streamLambdaWrites(double x, double y) {
    double[] a = {x, y, x * y};
    return Arrays.stream(a).map(v -> { a[2] = v * 2; return v * a[2]; }).sum();
  }
  @Differentiable static double nestedLambdaCaptureLambda(double x, double y) {
    DoubleUnaryOperator f = v -> v * x;
    DoubleUnaryOperator g = v -> f.applyAsDouble(v) * f.applyAsDouble(y);
    return g.applyAsDouble(x + y);
  }
  @Differentiable static double streamOfLambda(double x, double y) {
    DoubleUnaryOperator f = v -> v * v * x;
    double[] a = {x, y};
    return Arrays.stream(a).map(f).sum() + DoubleStream.of(y).map(v -> f.applyAsDouble(v)).sum();
  }
}
""");
    SOURCES.put("Refs", """
package com.example;
import ad4j.Differentiable;
import ad4j.DerivativeOf;
import java.util.function.*;
final class Refs {
  @FunctionalInterface interface IOp { double ap(int i, double v); }
  @Differentiable static double g(double v) { return v * v * v; }
  @Differentiable static double g(double v, double w) { return v * w; }
  @Differentiable static double g(float v) { return 1000 * v; }
  static double ruled(double v) { return Math.tanh(v); }
  @DerivativeOf("ruled") static double ruledD(double v) { double t = Math.tanh(v); return 1 - t * t; }
  @Differentiable static double typedParams(double x, double y) {
    DoubleBinaryOperator f = (double a, double b) -> a * b + x;
    DoubleBinaryOperator h = (var a, var b) -> a - b * x;
    return f.applyAsDouble(x, y) + h.applyAsDouble(y, y);
  }
  @Differentiable static double overloadRef(double x, double y) {
    DoubleUnaryOperator f = Refs::g;
    DoubleBinaryOperator h = Refs::g;
    return f.applyAsDouble(x) + h.applyAsDouble(x, y);
  }
  @Differentiable static double intToDoubleRef(double x, double y) {
    IntToDoubleFunction f = Math::sqrt;
    return f.applyAsDouble(3) * x + y;
  }
  @Differentiable static double ruledRef(double x, double y) {
    DoubleUnaryOperator f = Refs::ruled;
    return f.applyAsDouble(x * y) + ruled(y);
  }
  @Differentiable static double mixedIntParam(double x, double y) {
    IOp f = (i, v) -> v * i + x;
    double s = 0;
    for (int i = 0; i < 3; i++) s += f.ap(i, y * s + x);
    return s;
  }
  @Differentiable static double toRadiansRef(double x, double y) {
    DoubleUnaryOperator f = Math::toRadians;
    DoubleBinaryOperator p = Math::pow;
    return f.applyAsDouble(x * 30) + p.applyAsDouble(Math.abs(x) + 1, y);
  }
}
""");
    SOURCES.put("Bodies", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
final class Bodies {
  static final double[] C = {0.5, -1.25, 2, 0.75};
  static final class Horner implements DoubleUnaryOperator {
    public double applyAsDouble(double t) {
      double u = 0;
      for (int i = 0; i < C.length; i++) { u = u * t + C[i]; }
      return u;
    }
  }
  static final DoubleUnaryOperator ANON = new DoubleUnaryOperator() {
    @Override public double applyAsDouble(double t) {
      double u = 0;
      int i = 0;
      while (i < C.length) { u = u * t + C[i]; i++; }
      return u;
    }
  };
  static final DoubleUnaryOperator DO = t -> {
    double u = 1;
    int k = 0;
    do { u = u * t + 0.5; k++; } while (k < 3);
    double w;
    if (t > 0) { w = u * 2; } else { w = u - 1; }
    switch (k) { case 3: w = w + t; break; default: w = 0; }
    return w;
  };
  static final DoubleBinaryOperator NESTED = (a, b) -> {
    double s = 0;
    for (int i = 0; i < 3; i++) { double p = a; for (int j = 0; j < i; j++) { p = p * b; } s += p; }
    return s;
  };
  @Differentiable static double named(double x, double y) {
    DoubleUnaryOperator f = new Horner();
    return f.applyAsDouble(x) * y + f.applyAsDouble(y);
  }
  @Differentiable static double anonLoop(double x, double y) {
    DoubleUnaryOperator f = new DoubleUnaryOperator() {
      @Override public double applyAsDouble(double t) {
        double u = 0;
        for (int i = 0; i < C.length; i++) { u = u * t + C[i]; }
        return u;
      }
    };
    return f.applyAsDouble(x) * y + f.applyAsDouble(y);
  }
  @Differentiable static double staticDo(double x, double y) {
    return DO.applyAsDouble(x) * y + DO.applyAsDouble(y - 1);
  }
  @Differentiable static double staticNested(double x, double y) {
    return NESTED.applyAsDouble(x, y) + NESTED.applyAsDouble(y, x);
  }
  @Differentiable static double inLoopStatic(double x, double y) {
    double s = 0;
    for (int i = 0; i < 3; i++) { s = DO.applyAsDouble(s * 0.1 + x) + NESTED.applyAsDouble(s * 0.01, y); }
    return s;
  }
  @Differentiable static double templateLoop(double x, double y) {
    return iterate(t -> { double u = t; for (int i = 0; i < 2; i++) { u = u * 0.5 + y; } return u; }, x, 3);
  }
  @Differentiable static double iterate(DoubleUnaryOperator f, double v, int n) {
    double u = v;
    for (int i = 0; i < n; i++) { u = f.applyAsDouble(u); }
    return u;
  }
  @Differentiable static double staticToTemplate(double x, double y) {
    return iterate(DO, x * y, 2) + iterate(new Horner(), x, 2);
  }
}
""");
    SOURCES.put("Templates", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
final class Templates {
  @Differentiable static double iterate(DoubleUnaryOperator f, double v, int n) {
    double u = v;
    double k = 1;
    for (int i = 0; i < n; i++) { k = k * 1.5; u = f.applyAsDouble(u) * k; }
    return u + k;
  }
  @Differentiable static double twoArgs(DoubleBinaryOperator g, double a) {
    double u = a;
    for (int i = 0; i < 2; i++) { double v = g.applyAsDouble(u, i); u = v * 0.5; }
    return u;
  }
  @Differentiable static double captureSameName(double x, double y) {
    double k = x * y;
    double u = y + 1;
    return iterate(t -> t * k + u, x, 3);
  }
  @Differentiable static double captureInLoop(double x, double y) {
    double s = 0;
    for (int i = 0; i < 3; i++) {
      double k = s + x;
      double u = i * y;
      s += iterate(t -> t * k * 0.1 + u, y, 2);
    }
    return s;
  }
  @Differentiable static double nestedTemplates(double x, double y) {
    double v = x * 2;
    return twoArgs((u, i) -> iterate(t -> t * u * 0.2 + v + i, u, 2), y);
  }
  @Differentiable static double sameLambdaTwice(double x, double y) {
    DoubleUnaryOperator f = t -> { double u = t; for (int i = 0; i < 2; i++) { u = u * x + 0.1; } return u; };
    return iterate(f, y, 2) + iterate(f, x, 1) + f.applyAsDouble(y);
  }
}
""");
    SOURCES.put("Hostile", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
import java.util.stream.*;
import java.util.Arrays;
final class Hostile {
  @Differentiable static double tmpl(DoubleBinaryOperator tape, double seed) {
    double adjoints = seed * 2;
    return tape.applyAsDouble(seed, adjoints) + adjoints;
  }
  @Differentiable static double names(double x, double y) {
    DoubleBinaryOperator t1 = (xDot, seed) -> xDot * seed + x;
    DoubleUnaryOperator gradient = tape -> tape * tape * y;
    double[] result = {x, y};
    double sum = Arrays.stream(result).map(compensation -> compensation * gradient.applyAsDouble(compensation)).sum();
    double max = IntStream.range(0, 2).mapToDouble(xBar -> result[xBar] * t1.applyAsDouble(xBar, y)).max().orElse(0);
    return sum + max + tmpl((seed, adjoints) -> seed * adjoints * x, y) + tmpl(t1, x);
  }
  @Differentiable static double names2(double xDot, double seed) {
    DoubleUnaryOperator yDot = v -> v * xDot;
    double tape = yDot.applyAsDouble(seed);
    double v = tape * 2;
    return tmpl((a, b) -> a * b * v * xDot, seed) + yDot.applyAsDouble(v);
  }
}
""");
    SOURCES.put("Recursion", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
final class Recursion {
  @Differentiable static double rec(double x, int n) { return n == 0 ? x : rec(x * x * 0.5 + 0.1, n - 1) * 0.9 + x; }
  @Differentiable static double even(double x, int n) { return n <= 0 ? x : odd(Math.sin(x) + x, n - 1) * 1.1; }
  @Differentiable static double odd(double x, int n) { return n <= 0 ? x * x : even(x * 0.7, n - 1) + x; }
  @Differentiable static double recLoop(double x, int n) {
    double s = x;
    for (int i = 0; i < n; i++) { s = s * 0.5 + rec(s, i % 3); }
    return s;
  }
  @Differentiable static double callsRec(double x, double y) { return rec(x * y, 4) + even(y, 5) + recLoop(x, 3); }
  @Differentiable static double recLambda(double x, double y) {
    DoubleUnaryOperator f = v -> rec(v, 2) * y;
    return f.applyAsDouble(x) + java.util.stream.IntStream.range(0, 3).mapToDouble(i -> rec(x, i)).sum();
  }
}
""");
    SOURCES.put("Records", """
package com.example;
import ad4j.Differentiable;
final class Records {
  record P(double a, double b) {}
  record Custom(double x, double y) {
    public double x() { return x * 2; }
    public double y() { return Math.abs(y); }
  }
  record W(double[] w, double s) {}
  record Clamp(double a, double b) {
    Clamp { if (a < 0) { a = 0; } b = Math.min(b, 1.0); }
  }
  record Pair<T>(T first, T second) {}
  record Norm(double a, double b) {
    static Norm of(double a, double b) { double n = Math.hypot(a, b); return new Norm(a / n, b / n); }
    Norm withA(double na) { return new Norm(na, b); }
  }
  @Differentiable static double customAccessor(double x, double y) {
    Custom c = new Custom(x, y - 0.5);
    return c.x() * c.y() + c.x;
  }
  @Differentiable static double arrayComponentAlias(double x, double y) {
    double[] arr = {x, x * x};
    W r = new W(arr, y);
    arr[0] = y * 3;
    return r.w()[0] * r.s() + r.w()[1];
  }
  @Differentiable static double arrayComponentWrite(double x, double y) {
    double[] arr = {x, x * x};
    W r = new W(arr, y);
    r.w()[1] = y * y;
    return r.w()[1] + arr[1] * x;
  }
  @Differentiable static double clamped(double x, double y) {
    Clamp c = new Clamp(x - 0.5, y * 2);
    return c.a() * 3 + c.b() * x;
  }
  @Differentiable static double factoryAndWith(double x, double y) {
    Norm n = Norm.of(x, y);
    Norm m = n.withA(n.b() * x);
    return m.a() * 2 + m.b() + n.a();
  }
  @Differentiable static double directField(double x, double y) {
    P p = new P(x * y, y);
    return p.a * p.b + p.a();
  }
}
""");
    SOURCES.put("Inherited", """
package com.example;
import ad4j.Differentiable;
final class Inherited {
  static class Base {
    double k = 2;
    @Differentiable double scaled(double x) { return x * x * k; }
    @Differentiable final double fixed(double x) { return x * k + Math.sin(x * k); }
    @Differentiable static double st(double x) { return x * x; }
    @Differentiable static double st2(double x) { return x * x * x; }
  }
  static final class Derived extends Base {
    double k = -3;
    @Differentiable static double st(double x) { return Math.exp(x); }
    static double st2(double x) { return 5 * x; }
  }
  static final Derived D = new Derived();
  static final Base B = new Derived();
  @Differentiable static double inheritedCallLocal(double x, double y) {
    Derived d = D;
    return d.scaled(x) * y + d.fixed(x * y);
  }
  @Differentiable static double hidingStatic(double x, double y) {
    return Derived.st(x * y) + Base.st(y);
  }
}
""");
    SOURCES.put("Receivers", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
final class Receivers {
  record V(double x, double y) {
    @Differentiable double m(double z) { return helper(this, z) + this.x * z; }
    @Differentiable V scaled(double k) { return new V(x * k, y * k); }
    @Differentiable double chain(double z) { return scaled(z).m(z) + scaled(2).scaled(z).x(); }
    @Differentiable double viaThisAccessor(double z) { return this.x() * y() + x * z; }
  }
  record Outer(V a, V b, double w) {
    @Differentiable double energy() { return a.m(w) + b.chain(a.y()) * w; }
  }
  @Differentiable static double helper(V v, double z) { return v.x() * v.y() * z; }
  @Differentiable static double thisToHelper(double x, double y) {
    V v = new V(x, y * x);
    return v.m(y) + v.chain(x) + v.viaThisAccessor(y);
  }
  @Differentiable static double nested(double x, double y) {
    Outer o = new Outer(new V(x, y), new V(y * y, x), x * y);
    return o.energy() + o.a().scaled(y).m(x);
  }
  @Differentiable static double recordInLoop(double x, double y) {
    V v = new V(x, y);
    double s = 0;
    for (int i = 0; i < 4; i++) {
      v = v.scaled(0.5 + v.x() * 0.1);
      if (v.y() > 0.3) { v = new V(v.y(), v.x() + s); }
      s += v.m(y);
    }
    return s;
  }
  @Differentiable static double recordFromBranch(double x, double y) {
    V v;
    if (x > 0) { v = new V(x, y); } else { v = new V(y, x * x); }
    V w = x * y > 0.2 ? v.scaled(2) : v;
    return w.m(x) + v.x();
  }
}
""");
    SOURCES.put("RecordFunctions", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
final class RecordFunctions {
  record V(double x, double y) {
    @Differentiable double m(double t) { return x * t + y * y * t; }
  }
  record Pos(double a) { Pos { a = Math.abs(a) + 1; } }
  interface VOp { V ap(V v); }
  interface AOp { double ap(double[] a); }
  interface AF { double[] ap(double v); }
  static final V ORIGIN = new V(1.5, -2);
  static final Pos PC = new Pos(-3);
  @Differentiable static double constantRecord(double x, double y) {
    return ORIGIN.x() * x + ORIGIN.m(y) + PC.a() * y;
  }
  @Differentiable static double recordFunction(double x, double y) {
    VOp f = v -> new V(v.y(), v.x() * x);
    ToDoubleFunction<V> g = v -> v.x() * v.y();
    V r = f.ap(f.ap(new V(x, y)));
    return g.applyAsDouble(r) + r.m(x);
  }
  @Differentiable static double arrayFunctions(double x, double y) {
    AOp f = a -> a[0] * a[1] + a.length;
    ToDoubleFunction<double[]> g = a -> a[0] - a[1] * a[1];
    double[] u = {x * x, y * x};
    return f.ap(u) + g.applyAsDouble(u) + f.ap(new double[] {y, x});
  }
  @Differentiable static double arrayFunctionMutates(double x, double y) {
    AOp f = a -> { double r = a[0] * a[1]; return r; };
    double[] u = {x, y};
    double first = f.ap(u);
    u[0] = y * 3;
    return first + f.ap(u);
  }
}
""");
    // Found wrong: a lambda written in a value record's method that ad4j inlines (a stream's,
    // one given to a template) took its unqualified names from the caller when the caller had
    // locals of those names ('x' of s1 for the record's component 'x'), and a template called
    // from such a method took its own unqualified names (a static field 'K', a method 'helper')
    // from the record ('K', 'helper' of V): values and derivatives of another function, no
    // error; so did a lambda in a record's compact constructor (ctor: the caller's 'K')
    SOURCES.put("RecordLambdas", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
import java.util.stream.*;
final class RecordLambdas {
  static final double K = 2.5;
  static final DoubleUnaryOperator F = v -> v * K + helper(v);
  record V(double K, double y) {
    @Differentiable double tmpl(double t) { return RecordLambdas.apply(v -> v * y + K, t); }
    @Differentiable double helper(double v) { return 1000 * v * K; }
    @Differentiable double stream(double t) { return IntStream.range(0, 3).mapToDouble(i -> helper(t * i) + y).sum(); }
    @Differentiable double sameNames(double t) { return RecordLambdas.named(v -> v * y * K, t, 0.5); }
  }
  static final class C {
    private final double K;
    private final double y;
    C(double K, double y) { this.K = K; this.y = y; }
    double K() { return K; }
    double y() { return y; }
    @Differentiable double tmpl(double t) { return RecordLambdas.apply(v -> v * y + K, t); }
  }
  @Differentiable static double apply(DoubleUnaryOperator f, double v) { return f.applyAsDouble(v) * K + helper(v); }
  @Differentiable static double named(DoubleUnaryOperator f, double y, double K) { return f.applyAsDouble(y) + y * K; }
  @Differentiable static double helper(double v) { return v * 0.5 + K; }
  @Differentiable static double t1(double a, double b) { return new V(a * b, a).tmpl(b); }
  @Differentiable static double t3(double a, double b) { return new V(a * b, a).stream(b); }
  @Differentiable static double t4(double a, double b) { return new V(a * b, a).sameNames(b); }
  @Differentiable static double t5(double a, double b) { return new C(a * b, a).tmpl(b); }
  @Differentiable static double t6(double K, double y) {
    V p = new V(y, K * y);
    return p.tmpl(K) + p.sameNames(y) + F.applyAsDouble(K);
  }
  record W(double x, double y) {
    @Differentiable double stream(double t) {
      return IntStream.range(0, 3).mapToDouble(i -> x * i + t * y).sum();
    }
    @Differentiable double tmpl(double t) { return RecordLambdas.apply(v -> v * x * y, t); }
  }
  @Differentiable static double s1(double x, double y) {
    return new W(x * y, x).stream(y);
  }
  @Differentiable static double s2(double x, double y) {
    W p = new W(x, y * y);
    return p.stream(x * y) + p.tmpl(y);
  }
  record Q(double a, double b) {
    Q {
      double s = IntStream.range(1, 3).mapToDouble(i -> a * i * K).sum();
      b = b + s;
    }
  }
  @Differentiable static double ctor(double K, double a) {
    Q q = new Q(a * K, K);
    return q.a() + q.b() * a;
  }
}
""");
    SOURCES.put("RecordLambdasNested", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
import java.util.stream.*;
final class RecordLambdasNested {
  record B(double x, double k) {
    @Differentiable double f(double t) { return IntStream.range(0, 2).mapToDouble(i -> x * t + k * i).sum(); }
  }
  record A(double x, double y, B b) {
    @Differentiable double g(double t) {
      return IntStream.range(1, 3).mapToDouble(i -> b.f(x * i) + new B(y, x).f(t) + x).sum();
    }
    @Differentiable double h(double t) { return RecordLambdasNested.apply(v -> b.f(v) * x + y, t); }
  }
  @Differentiable static double apply(DoubleUnaryOperator f, double v) { return f.applyAsDouble(v) + v; }
  @Differentiable static double n1(double x, double k) {
    A a = new A(k, x * k, new B(x, k * k));
    return a.g(x) + a.h(k);
  }
}
""");
    SOURCES.put("RecordLambdasLooped", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
import java.util.stream.*;
final class RecordLambdasLooped {
  static final double K = 2.5;
  record V(double K, double y) {
    @Differentiable double looped(double t) {
      double s = 0;
      for (int i = 0; i < 3; i++) { s += RecordLambdasLooped.apply(v -> v * y + K, t + s * 0.1); }
      return s;
    }
  }
  @Differentiable static double apply(DoubleUnaryOperator f, double v) { return f.applyAsDouble(v) * K + v; }
  @Differentiable static double u1(double a, double b) { return new V(a * b, a).looped(b); }
}
""");
    SOURCES.put("RecordArrayStreams", """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
import java.util.stream.*;
import java.util.Arrays;
final class RecordArrayStreams {
  record W(double[] w, double s) {
    @Differentiable double dot(double t) { return Arrays.stream(w).map(v -> v * s + t).sum(); }
    @Differentiable double maxw() { return Arrays.stream(w).max().orElse(s); }
  }
  record P(double x, double y) {}
  @Differentiable static double c1(double s, double w) {
    double[] a = {s, w, s * w};
    W r = new W(a, w * 2);
    return r.dot(s) + Arrays.stream(r.w()).sum() + r.maxw();
  }
  @Differentiable static double c2(double x, double y) {
    P p = new P(x * y, y);
    return DoubleStream.of(p.x(), p.y(), x).map(v -> v * p.x()).sum();
  }
}
""");
  }

  private static final String FLOAT_SOURCE = """
package com.example;
import ad4j.Differentiable;
import java.util.function.*;
import java.util.stream.*;
final class F {
  record FP(float a, double b) {}
  @FunctionalInterface interface FOp { float ap(float v); }
  @FunctionalInterface interface FB { float ap(float a, double b); }
  @Differentiable static float absMax(float x, float y) {
    return Math.abs(x * y) + Math.max(x, y) * Math.min(x * x, y) + Math.signum(x) * y;
  }
  @Differentiable static double mixedTypes(float x, double y) {
    long k = 3;
    int n = 7;
    float a = x * k + n / 2;
    double d = a * x * y;
    float b = (float) (d / n) * a;
    return b + a * y + x / n;
  }
  @SuppressWarnings("lossy-conversions")
  @Differentiable static float compound(float x, double y) {
    float f = x;
    f += y;
    f *= y * 1.1;
    f /= (1 + y * y);
    f -= x * y;
    return f;
  }
  @SuppressWarnings("lossy-conversions")
  @Differentiable static float compoundArray(float x, double y) {
    float[] a = {x, x * 2};
    a[0] += y;
    a[1] *= y;
    a[0] /= 1.5;
    return a[0] * a[1];
  }
  @Differentiable static float loopAcc(float x, float y) {
    float s = 0.1f;
    for (int i = 0; i < 20; i++) { s = s * 0.9f + x * y / (i + 1); }
    return s;
  }
  @Differentiable static double mathOnFloat(float x, float y) {
    return Math.sqrt(x * x + y * y) + Math.exp(x) * Math.sin(y) + Math.pow(x, 3) + Math.atan2(y, x);
  }
  @Differentiable static float castsBack(float x, double y) {
    return (float) Math.sqrt(x * x + y) * (float) Math.log(1 + x * x);
  }
  @Differentiable static float copySign(float x, float y) {
    return Math.copySign(x * y, y) + Math.scalb(x, 2) + Math.fma(x, y, x);
  }
  @Differentiable static double ternaryMix(float x, double y) {
    double r = x > 0.2f ? x * x : y;
    float q = y > 0 ? x : (float) y;
    return r + q * 3;
  }
  @Differentiable static float minValue(float x, float y) {
    return (x + Float.MIN_VALUE) * y + Math.max(x, Float.MIN_NORMAL) * Float.MAX_VALUE * 1e-38f;
  }
  @Differentiable static float recordFloat(float x, double y) {
    FP p = new FP(x * 2, y * x);
    return p.a() * (float) p.b() + p.a();
  }
  @Differentiable static float lambdaFloat(float x, float y) {
    FOp f = v -> v * v * y;
    return f.ap(x) + f.ap(x * y);
  }
  @Differentiable static double remainder(float x, double y) {
    float r = (x * 7) % 2.5f;
    return r * y + (y * 5) % 1.5;
  }
  @Differentiable static float intermediateDouble(float x, float y) {
    double d = x;
    d = d * y + 1e-9;
    float back = (float) d;
    return back * back;
  }
  @Differentiable static double floatToDoubleChain(float x, double y) {
    float a = x * x;
    double b = a * y;
    float c = (float) b;
    double e = c + a * 0.1;
    return e * e;
  }
  @Differentiable static float increments(float x, float y) {
    float f = x;
    f++;
    ++f;
    float g = f-- * y;
    return g + --f;
  }
  @Differentiable static float arrayLoop(float x, float y) {
    float[] a = new float[5];
    for (int i = 0; i < 5; i++) a[i] = x * i + y;
    float s = 0;
    for (float v : a) s += v * v;
    return s;
  }
  @Differentiable static double mixMax(float x, float y) {
    int n = 16777217;
    long big = 1L << 40;
    float a = Math.max(n, x);
    float b = x * big;
    double c = Math.max(x, y * 1e-3);
    return a + b * 1e-12 + c + Math.min(3L, y);
  }
  @Differentiable static double switchMixed(float x, double y) {
    int n = y > 0.5 ? 1 : 2;
    double d = switch (n) { case 1 -> x * x; default -> y * 3; };
    float f = switch (n) { case 1 -> x; default -> 3; };
    var v = n == 1 ? x * 0.1f : 7;
    var w = n == 1 ? 1L : x * y;
    return d + f * y + v + w;
  }
  @SuppressWarnings("lossy-conversions")
  @Differentiable static float compoundMixed(float x, float y) {
    float f = x;
    int i = 3;
    long l = 5;
    f *= i;
    f /= l;
    f += i * y;
    f -= 0.1;
    i += f;
    return f * i;
  }
  @Differentiable static double divChain(float x, double y) {
    int i = 7;
    float f = x * i / 3;
    double g = x / 3 * y + i / 2 * x;
    return f + g + (float) (x / 3.0);
  }
  @Differentiable static float floatArrayOps(float x, float y) {
    float[] a = {x, y, x * y};
    a[1]++;
    a[2] += a[0]--;
    float[] b = java.util.Arrays.copyOf(a, 4);
    b[3] = Math.abs(b[0] - b[1]);
    float s = 0;
    for (float v : b) { s += v * v; }
    return s;
  }
  @Differentiable static double floatLoopToDouble(float x, double y) {
    float acc = x;
    double dacc = 0;
    for (int i = 0; i < 8; i++) {
      acc = acc * 1.01f + (float) y * i;
      dacc += acc;
      if (acc > 20) break;
    }
    return dacc + acc;
  }
  @Differentiable static float floatPow(float x, float y) {
    return (float) Math.pow(x * x + 1, y) + (float) Math.hypot(x, y) + (float) Math.cbrt(x);
  }
  @Differentiable static double floatStream(float x, float y) {
    float[] fa = {x, y, x * y};
    return IntStream.range(0, fa.length).mapToDouble(i -> fa[i] * fa[i]).sum()
        + DoubleStream.of(x, y).map(v -> (float) v * 1.1f).sum();
  }
  @Differentiable static float floatTemplate(float x, float y) {
    return apply(v -> v * v * y + 0.1f, x) + apply(v -> v / y, x * x);
  }
  @Differentiable static float apply(FOp f, float v) { return f.ap(f.ap(v)) * 0.5f; }
  @Differentiable static double mixedLambda(float x, double y) {
    FB f = (a, b) -> (float) (a * b) + a;
    DoubleBinaryOperator g = (a, b) -> a * (float) b;
    return f.ap(x, y) * g.applyAsDouble(y, x);
  }
  @Differentiable static float floatLambdaLoop(float x, float y) {
    FOp f = v -> v * 0.9f + y * 0.01f;
    float s = x;
    for (int i = 0; i < 10; i++) s = f.ap(s) + s * 0.01f;
    return s;
  }
}
""";

  /** The same methods in double arithmetic: the reference for the float methods' derivatives. */
  private static final String DOUBLE_SOURCE = FLOAT_SOURCE
      .replace("class F", "class G")
      .replace("(float) ", "")
      .replaceAll("\\bfloat\\b", "double")
      .replaceAll("(\\d)f\\b", "$1");

  private static final Map<String, CompiledOnce> COMPILED = new LinkedHashMap<>();

  static {
    SOURCES.forEach((name, source) -> COMPILED.put(name, new CompiledOnce(() ->
        InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
            "com.example." + name, source))));
  }

  private static final CompiledOnce FLOATS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.F", FLOAT_SOURCE, "com.example.G", DOUBLE_SOURCE));

  /** Points off the kinks and trip-count changes of the methods above. */
  private static final double[][] POINTS = {{0.3, 0.7, 1.1}, {-0.6, 0.45, 1.9}, {1.3, -0.8, 0.55}};

  /** Points whose coordinates are floats, so that F and G start from the same numbers. */
  private static final double[][] FLOAT_POINTS =
      {{0.375, 0.75}, {-0.625, 0.4375}, {1.3125, -0.8125}};

  /** Float's precision, with room for the roundings of the primal values the partials read. */
  private static final double FLOAT_TOLERANCE = 1e-5;

  private static final Pattern DOUBLE_METHOD = Pattern.compile(
      "(?m)^  @Differentiable static double (\\w+)\\((double \\w+(?:, double \\w+)*)\\)");

  private static final Pattern FLOAT_METHOD = Pattern.compile(
      "(?m)^  @Differentiable static (?:float|double) (\\w+)"
          + "\\(((?:float|double) \\w+(?:, (?:float|double) \\w+)*)\\)");

  static Stream<Arguments> doubleMethods() {
    List<Arguments> methods = new ArrayList<>();
    SOURCES.forEach((name, source) -> {
      Matcher m = DOUBLE_METHOD.matcher(source);
      while (m.find()) {
        methods.add(Arguments.of(name, m.group(1), m.group(2).split(", ").length));
      }
    });
    return methods.stream();
  }

  @ParameterizedTest(name = "{0}.{1}")
  @MethodSource("doubleMethods")
  void derivativesOfTheMethodAsWritten(String className, String method, int arity) {
    CompiledFunction f = COMPILED.get(className).get()
        .function("com.example." + className, method, arity);
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(f, Arrays.copyOf(point, arity));
    }
  }

  static Stream<Arguments> floatMethods() {
    List<Arguments> methods = new ArrayList<>();
    Matcher m = FLOAT_METHOD.matcher(FLOAT_SOURCE);
    while (m.find()) {
      String[] parameters = m.group(2).split(", ");
      Class<?>[] types = new Class<?>[parameters.length];
      for (int i = 0; i < parameters.length; i++) {
        types[i] = parameters[i].startsWith("float") ? float.class : double.class;
      }
      methods.add(Arguments.of(m.group(1), types));
    }
    return methods.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("floatMethods")
  void floatMethodsAgainstTheirDoubleTwins(String method, Class<?>[] types) {
    CompiledFunction f = FLOATS.get().function("com.example.F", method, types);
    CompiledFunction reference = FLOATS.get().function("com.example.G", method, types.length);
    for (double[] point : FLOAT_POINTS) {
      DerivativeChecks.checkAt(f, reference, FLOAT_TOLERANCE, Arrays.copyOf(point, types.length));
    }
  }

  // Errors whose message said something other than why. Before: a lambda of a functional
  // interface whose method returns an array was "lambda expression is not supported here: ...
  // a lambda or method reference may initialise a local of a functional interface type", which
  // it did; a boxed local "a value of type 'double' cannot be assigned to 'java.lang.Double'",
  // which Java does; an unbound reference to a record's accessor was accepted where it was
  // written and an error at its call about passing the record "elsewhere".

  @Test
  void aFunctionWhoseMethodReturnsAnArraySaysSoAtItsLambda() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  interface Pair { double[] of(double v); }",
        "  @Differentiable static double f(double x, double y) {",
        "    Pair h = v -> new double[] {v * x, v + y};",
        "    return h.of(x)[0];",
        "  }",
        "}"),
        "function value 'h' of type 'Pair' is not supported: its method is"
            + " 'double[] of(double)', and ad4j specialises functions whose method takes", 6, 14);
  }

  @Test
  void aBoxedLocalSaysToDeclareItPrimitive() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x, double y) {",
        "    Double a = x * y;",
        "    return a + x;",
        "  }",
        "}"),
        "a value of type 'double' boxed into a local of type 'java.lang.Double' is not"
            + " supported: ad4j computes with primitive values, and a box (an object) carries no"
            + " derivative; declare the local 'double'", 5, 18);
  }

  @Test
  void anUnboundReferenceToARecordsAccessorIsAnErrorAtTheReference() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.function.ToDoubleFunction;",
        "final class F {",
        "  record V(double x, double y) {}",
        "  @Differentiable static double f(double x, double y) {",
        "    ToDoubleFunction<V> g = V::x;",
        "    return g.applyAsDouble(new V(x * y, y));",
        "  }",
        "}"),
        "method reference 'V::x' names an instance method: ad4j specialises references to"
            + " static methods; write a lambda instead", 7, 29);
  }

  @Test
  void aReferenceToAMethodReturningABoxIsAnErrorAtTheReference() {
    // before: "a value of type 'Object' cannot be assigned to 'double'", at the reference too
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleFunction;",
        "final class F {",
        "  @Differentiable static double f(double x, double y) {",
        "    DoubleFunction<Double> box = Double::valueOf;",
        "    return box.apply(x) * y;",
        "  }",
        "}"),
        "method reference 'Double::valueOf' returns a 'Double' object: ad4j specialises"
            + " functions over 'double' values, and differentiates no object; write a lambda that"
            + " computes the number ('v -> v' for boxing alone)", 6, 34);
  }

  @Test
  void aStreamInsideACheckpointedLoopIsAnErrorAtTheStream() {
    // before: "loop inside a checkpointed loop" at the annotation, a loop the user did not write
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Checkpointed(snapshots = 2)",
        "  @Differentiable static double f(double x, double y) {",
        "    double[] w = {x, y};",
        "    double s = y;",
        "    for (int i = 0; i < 5; i++) {",
        "      double k = s;",
        "      s = java.util.Arrays.stream(w).map(v -> v * k).sum() * 0.5;",
        "    }",
        "    return s;",
        "  }",
        "}"),
        "stream inside a checkpointed loop of method 'f' is not supported (@Checkpointed): ad4j"
            + " lowers a stream as a loop", 11, 57);
  }

  @Test
  void aFunctionValueAssignedALambdaIsOneErrorAtTheAssignment() {
    // before: a second error at the lambda, that a lambda may initialise a local
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "final class F {",
        "  @Differentiable static double f(double x, double y) {",
        "    DoubleUnaryOperator g = v -> v * x;",
        "    if (y > 0.5) { g = v -> v * v * y; }",
        "    return g.applyAsDouble(x + y);",
        "  }",
        "}"),
        "function value 'g' cannot be assigned: ad4j specialises a function value by the code it"
            + " is declared with; declare another local", 7, 20);
  }
}
