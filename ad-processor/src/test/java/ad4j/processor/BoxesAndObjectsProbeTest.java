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
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Probes of session 60's features: boxes of data unboxed where Java unboxes them ({@code List},
 * {@code Map} and {@code Double[]} data in conditions, loops, compound assignments, casts,
 * {@code Math} arguments; {@code Integer}, {@code Long} and {@code Float} boxes in integer
 * division, shifts, overflow, string concatenation, {@code ==} beside a number and between
 * boxes; {@code Double}, {@code Float}, {@code Integer} and {@code Long} parameters at orders 1
 * and 2 and in a vector function; a {@code ?:} with a box beside a number), boxes that a value
 * carrying a derivative went into (through {@code add}, {@code set}, {@code put},
 * {@code Collections.addAll}, an alias, a helper, a nested list, a sub-list, a deque, a generic
 * identity, an object's setter, a static list; each an error where the number comes back),
 * objects and strings passed to {@code @Differentiable} methods in loops (enums, strings,
 * records, receivers read from arrays by an index that depends on an active value, while, do
 * and nested loops, a {@code @Checkpointed} loop, order 2; an object the loop changes between
 * the calls is an error), indices found by {@code Arrays.binarySearch} (ranges, {@code float[]},
 * {@code int[]}, knots that carry derivatives, arrays written after the search), matrices of
 * constants written as arguments of {@code @Differentiable} calls (orders 1 and 2, in a loop,
 * into a vector function), and methods of static fields' objects typed as members of the
 * fields' types (generic maps of lists, a superclass's and an interface's field, a generic
 * holder). Every accepted method is checked by {@link MemberAgreement} (values bit for bit,
 * differences of order 8 of the user's method, forward against reverse, Hessians at order 2),
 * compiled under {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class BoxesAndObjectsProbeTest {
  private static final String BOXES = """
      package com.example;
      import ad4j.Differentiable;
      import ad4j.NoDerivative;
      import java.util.ArrayList;
      import java.util.List;
      import java.util.Map;
      final class Boxes {
        static final List<Integer> IL = List.of(3, 14);
        static final List<Integer> IL2 = List.of(3, 14);
        static final List<Integer> BIG = List.of(1000);
        static final List<Integer> BIG2 = List.of(1000);
        static final List<Long> LL = List.of(3L, 17L);
        static final List<Float> FL = List.of(3f, 4.5f);
        @Differentiable static double conditions(double x, double y, int k,
            @NoDerivative List<Double> xs) {
          double s = x;
          if (xs.get(k) > x) { s *= y; }
          while (s < xs.get(3)) { s += y * y + 0.5; }
          if (xs.get(0) == 1.0) { s *= y; }
          if (xs.get(k) != 2.5) { s += y; }
          return s;
        }
        @Differentiable static double boxArray(double x, double y, @NoDerivative Double[] ws) {
          double s = 0;
          for (int i = 0; i < ws.length; i++) { s += ws[i] * x * y; }
          for (Double w : ws) { s += w * x; }
          return s;
        }
        @Differentiable static double map(double x, double y,
            @NoDerivative Map<String, Double> w) {
          return x * w.get("a") + y * w.getOrDefault("z", 2.0) + w.get("b") / x;
        }
        @Differentiable static double compound(double x, double y, @NoDerivative List<Double> xs) {
          double s = x;
          s *= xs.get(1);
          s += xs.get(2) * y;
          s /= xs.get(0);
          s -= Math.sin(xs.get(3)) * x;
          int i = (int) (double) xs.get(3);
          float f = (float) (double) xs.get(1);
          int n = 1;
          n += xs.get(1);
          n *= FL.get(1);
          return s + x * i + y * f + n * x;
        }
        @Differentiable static double integers(double x, double y) {
          int big = IL.get(1) * 1000000000;
          long lb = LL.get(1) * 4000000000000000000L;
          double d = IL.get(1) / 3;
          return IL.get(1) / IL.get(0) * x + IL.get(1) % IL.get(0) * y + LL.get(1) / 3 * y
              + big * 1e-9 * x + lb * 1e-18 * y + d * x + (IL.get(1) << 2) * x
              + (IL.get(1) & 1) * y + (-IL.get(0)) * x * y + (~IL.get(0)) * x
              + Math.abs(-IL.get(1)) / 3 * x + Math.floorDiv(IL.get(1), 3) * y
              + Math.round(FL.get(1)) * x + Math.sqrt(IL.get(1)) * y;
        }
        @Differentiable static double comparedAndPrinted(double x, double y) {
          String s = "v" + FL.get(1) + IL.get(0) + (IL.get(0) + IL.get(1));
          return s.length() * x + (IL.get(0) == IL2.get(0) ? 1 : 3) * x
              + (BIG.get(0) == BIG2.get(0) ? 5 : 7) * y + (IL.get(1) == 14 ? 11 : 13) * y
              + (FL.get(1) * 0.1f == 0.45f ? 1 : 2) * x;
        }
        @Differentiable static double mutatedData(double x, double y) {
          List<Double> l = new ArrayList<Double>();
          l.add(2.0);
          double s = x;
          for (int i = 0; i < 3; i++) {
            s = Math.sin(s * l.get(0)) + y;
            l.set(0, l.get(0) + 1.5);
          }
          return s * l.get(0);
        }
        @Differentiable static double parameters(Double d, double x, double y, Integer n) {
          double s = 0;
          for (int i = 0; i < n; i++) { s += Math.pow(x, 2) * d * y + n * d; }
          return s;
        }
        @Differentiable(order = 2) static double secondOrder(Double d, double x, double y,
            Integer n, Float f, Long m) {
          double s = 0;
          for (int i = 0; i < n; i++) { s += Math.pow(x, 2) * d * y + n * d; }
          return s + f * x * y * m + x / f * m;
        }
        @Differentiable static double[] vector(double x, double y, Double d, Integer n) {
          double[] r = new double[3];
          for (int i = 0; i < 3; i++) { r[i] = x * d + y * y * n * i; }
          return r;
        }
      }
      """;

  /** Boxes where Java unboxes them that ad4j rejected before this class's fixes. */
  private static final String CHOICES = """
      package com.example;
      import ad4j.Differentiable;
      import ad4j.NoDerivative;
      import java.util.List;
      final class Choices {
        static final List<Integer> IL = List.of(3, 14);
        static final List<Float> FL = List.of(3f, 4.5f);
        static final List<Integer> IX = List.of(1, 3, 2);
        static final List<Integer> IS = List.of(2, 0, 4);
        static int calls;
        static List<Double> counted(List<Double> xs) { calls++; return xs; }
        /** A box beside a number in '?:' is unboxed (JLS 15.25). */
        @Differentiable static double chosen(double x, double y, @NoDerivative List<Double> xs) {
          double s = 0;
          for (int i = 0; i < xs.size(); i++) { s += (i % 2 == 0 ? xs.get(i) : x) * y; }
          double t = x > 0 ? xs.get(1) : x * y;
          return s + t * x + (y > 1 ? 2 : IL.get(0)) * y + (x < 0 ? IL.get(1) : xs.get(0)) * x;
        }
        /** Chains, a float and an int result, a Math argument, a call run in one branch. */
        @Differentiable static double chains(double x, double y, @NoDerivative List<Double> xs) {
          double d = x > 0 ? (float) (IL.get(0) / 2) : FL.get(1);
          float f = y > 1 ? FL.get(1) : 2.5f;
          int n = x > 0 ? IL.get(1) : 7;
          return d * x + (y > 0 ? x * y : y < 2 ? xs.get(2) : IL.get(1) / 4) * x
              + (x > 0.2 ? (y > 1 ? xs.get(3) : y) : counted(xs).get(0)) * y
              + f * x + n * y + Math.sin(x > 0 ? xs.get(0) : y);
        }
        /** Switch expressions yielding a box beside a number, or boxes of two types. */
        @Differentiable static double switched(double x, double y, int k,
            @NoDerivative List<Double> xs) {
          double d = switch (k) { case 0 -> xs.get(0); case 1 -> IL.get(1); default -> x * y; };
          double e = switch (k) {
            case 0: yield xs.get(1) * 2;
            case 3: yield IL.get(0);
            default: yield y;
          };
          long n = switch (k) { case 1 -> IL.get(1); default -> 4L; };
          return d * x + e * y + switch (k) { case 0 -> xs.get(2); default -> FL.get(1); } * x
              + n / 3 * y;
        }
        /** Boxes as array indices and sizes, read, written, compound, of a matrix. */
        @Differentiable static double indexed(double x, double y, int k) {
          double[] a = {x, y, x * y, 2.0, 3.0};
          a[IX.get(0)] = a[IX.get(1)] * x;
          a[IS.get(k % 3)] += y * a[IX.get(2)];
          double[] b = new double[IX.get(1)];
          b[IX.get(2)] = a[IS.get(1)] * y;
          double[][] m = new double[IX.get(1)][IX.get(0) + 1];
          m[IX.get(2)][IX.get(0)] = x * b[IX.get(2)];
          double s = 0;
          for (int i = 0; i < b.length; i++) { s += b[i] * a[i] + m[i][IX.get(0)]; }
          return s + a[IX.get(0)] * a[IS.get(2)];
        }
      }
      """;

  private static final String OBJECTS = """
      package com.example;
      import ad4j.Checkpointed;
      import ad4j.Differentiable;
      import java.util.Arrays;
      import java.util.List;
      import java.util.Map;
      final class ObjectCalls extends Base implements Weights {
        static final class Law {
          final double k;
          Law(double k) { this.k = k; }
          @Differentiable(order = 2) double cdf(double x) { return Math.tanh(k * x); }
        }
        record P(double k, String name) {}
        enum E { A, B, C }
        static final Law[] LAWS = {new Law(0.5), new Law(1.5), new Law(-0.7)};
        static final P[] PS = {new P(0.5, "a"), new P(1.5, "bb"), new P(-0.7, "ccc")};
        static final String[] NAMES = {"a", "bb", "ccc"};
        static final Map<String, List<Double>> TABLE =
            Map.of("a", List.of(0.5, 2.0), "b", List.of(1.5));
        static final Holder<Double> G = new Holder<Double>(1.75);
        static final double[] K = {0.0, 0.5, 1.0, 1.5};
        static final double[] V = {2.0, -1.0, 0.5, 3.0};
        @Differentiable(order = 2) static double gl(Law l, double x) {
          return l.cdf(x) * l.k + x * x;
        }
        @Differentiable(order = 2) static double gp(P p, double x) {
          return Math.sin(p.k() * x) * p.name().length() + x * p.k();
        }
        @Differentiable(order = 2) static double gs(String s, double x) {
          return s.length() * Math.sin(x) + (s.startsWith("b") ? x * x : x);
        }
        @Differentiable(order = 2) static double ge(E e, double x) {
          return (e.ordinal() + 0.5) * Math.sin(x) + (e == E.B ? x * x * x : x);
        }
        @Differentiable(order = 2) static double activeIndex(double x, double y) {
          double s = y;
          for (int i = 0; i < 5; i++) {
            int j = s > 0.5 ? 1 : (s > 0 ? 2 : 0);
            s = gl(LAWS[j], s * x) * 0.7 + 0.1;
          }
          return s;
        }
        @Differentiable(order = 2) static double floorIndex(double x, double y) {
          double s = y;
          for (int i = 0; i < 5; i++) {
            int j = Math.floorMod((int) Math.floor(s * 3), 3);
            s = gp(PS[j], s * x) * 0.5 + 0.2;
          }
          return s;
        }
        @Differentiable static double nested(double x, double y) {
          double s = y;
          for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 3; j++) { s = gs(NAMES[(i + j) % 3], s * x) * 0.5; }
          }
          return s;
        }
        @Differentiable static double enumWhile(double x, double y) {
          double s = y;
          E e = E.A;
          int i = 0;
          while (i < 6) {
            s = ge(e, s * x) * 0.5 + 0.1;
            e = E.values()[(e.ordinal() + 1) % 3];
            i++;
          }
          return s;
        }
        @Differentiable static double enumSwitched(double x, double y) {
          double s = y;
          E e = E.A;
          for (int i = 0; i < 6; i++) {
            switch (e) { case A -> e = E.C; case B -> e = E.A; default -> e = E.B; }
            s = ge(e, s * x) * 0.5 + 0.1;
            if (s > 0.3) { e = E.A; }
          }
          return s;
        }
        @Differentiable static double concatenated(double x, double y) {
          double s = y;
          String n = "";
          for (int i = 0; i < 4; i++) { n = n + (s > 0.2 ? "b" : "a"); s = gs(n, s * x) * 0.5; }
          return s;
        }
        @Differentiable static double records(double x, double y) {
          double s = y;
          for (int i = 0; i < 4; i++) {
            P p = new P(i * 0.5 - 0.3, "n" + i);
            s = gp(p, s * x) * 0.5;
          }
          return s;
        }
        @Differentiable(order = 2) static double receivers(double x, double y) {
          double s = y;
          for (int i = 0; i < 4; i++) {
            Law l = LAWS[i % 3];
            if (s > 0.4) { l = LAWS[2]; }
            s = l.cdf(s * x) + 0.5 * s;
          }
          return s;
        }
        @Differentiable static double doLoop(double x, double y) {
          double s = y;
          int i = 0;
          String n = "a";
          do {
            s = gs(n, s * x) * 0.5;
            n = n + "b";
            i++;
          } while (i < 4 && s < 10);
          return s;
        }
        @Checkpointed(snapshots = 2)
        @Differentiable static double checkpointed(double x, double y) {
          double s = y;
          E e = E.A;
          for (int i = 0; i < 7; i++) {
            s = ge(E.B, s * x) * 0.5 + 0.1 + gs(NAMES[i % 3], s) * 0.1;
            s += ge(e, s) * 0.1 + LAWS[i % 3].cdf(s * x) * 0.5 + gl(LAWS[(i + 1) % 3], s);
            s = Math.tanh(s);
          }
          return s;
        }
        @Differentiable(order = 2) static double matrix(double[][] m, double x) {
          double[][] c = new double[2][2];
          c[0][0] = m[0][0] * x;
          c[1][1] = c[0][0] * m[1][1] + x;
          return c[1][1] * x + m[0][1];
        }
        @Differentiable(order = 2) static double passedOn(double[][] m, double x) {
          return matrix(m, x * m[1][0]) + m[0][0] * x;
        }
        @Differentiable static double[] rows(double[][] m, double x) {
          double[] r = new double[2];
          r[0] = m[0][0] * x;
          r[1] = m[1][1] * x * x;
          return r;
        }
        @Differentiable(order = 2) static double matrices(double x, double y) {
          double s = y;
          for (int i = 0; i < 3; i++) { s = passedOn(new double[][] {{1, 2}, {3 + i, 4}}, s * x); }
          return s + matrix(new double[][] {{1, 2}, {3, 4}}, x)
              * matrix(new double[][] {{y, 2}, {3, x}}, y);
        }
        @Differentiable static double matrixRows(double x, double y) {
          double[] r = rows(new double[][] {{1, 2}, {3, 4}}, x * y);
          return r[0] * r[1] + y;
        }
        @Differentiable static double searched(double x, double y) {
          double[] a = {0.0, x, 2.0, 3.0};
          int i = Arrays.binarySearch(a, y);
          int j = i < 0 ? -i - 2 : i;
          j = Math.max(0, Math.min(j, 2));
          a[j] = 10 * x;
          a[j + 1] = a[j] * y;
          double[] b = {-5.0, 0.0, 0.5, 1.0, 1.5, 9.0};
          int k = Arrays.binarySearch(b, 1, 5, y);
          k = Math.max(1, Math.min(k < 0 ? -k - 2 : k, 3));
          double t = (y - b[k]) / (b[k + 1] - b[k]);
          float[] f = {(float) x, (float) (2 * x), (float) (3 * x)};
          int m = Arrays.binarySearch(f, (float) y);
          m = Math.max(0, Math.min(m < 0 ? -m - 2 : m, 1));
          int[] n = {0, 1, 2, 3};
          int p = Arrays.binarySearch(n, (int) Math.floor(y * 2));
          int q = Arrays.binarySearch(K, y);
          q = Math.max(0, Math.min(q < 0 ? -q - 2 : q, 2));
          return a[j] * a[j + 1] + j + x * (1 - t) + t * x * x + f[m] * y + f[m + 1]
              + (p < 0 ? -p - 1 : p) * x * y + K[q] * x + V[q] * y;
        }
        @Differentiable static double searchedInALoop(double x, double y) {
          double[] a = {0.0, 0.5, 1.0, 1.5, 2.0};
          double s = 0;
          for (int k = 0; k < 4; k++) {
            int i = Arrays.binarySearch(a, y + 0.3 * k);
            i = Math.max(0, Math.min(i < 0 ? -i - 2 : i, 3));
            s += a[i] * x * (k + 1);
            a[(i + 1) % 5] = s;
          }
          return s;
        }
        @Differentiable static double fields(double x, double y) {
          return TABLE.get("a").get(1) * x + TABLE.get("b").get(0) * y + SW.get(1) * x
              + Base.SW.get(2) * y + IW.get(0) * x * y + G.get() * x + G.value * y
              + SW.indexOf(1.25) * x + K.clone()[1] * y;
        }
      }
      """;

  /** A superclass's and an interface's static fields, and a generic holder's method. */
  private static final String[] FIELD_OWNERS = {
      "com.example.Base", "package com.example; import java.util.List;"
          + " class Base { static final List<Double> SW = List.of(0.5, 1.25, -0.3); }",
      "com.example.Weights", "package com.example; import java.util.List;"
          + " interface Weights { List<Double> IW = List.of(2.5); }",
      "com.example.Holder", "package com.example;"
          + " final class Holder<T> { final T value; Holder(T v) { value = v; }"
          + " T get() { return value; } }"};

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Boxes", BOXES, "com.example.ObjectCalls", OBJECTS, FIELD_OWNERS[0],
          FIELD_OWNERS[1], FIELD_OWNERS[2], FIELD_OWNERS[3], FIELD_OWNERS[4], FIELD_OWNERS[5]));

  // away from the kinks of the methods' branches (differences at two steps agree there)
  private static final CompiledOnce CHOSEN = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Choices", CHOICES));

  private static final double[][] POINTS = {{0.3, 0.7, -0.4}, {-0.45, 1.1, 0.9}};

  /** Arguments for a method's parameters at a point: numbers, data boxes, lists and maps. */
  private static Object[] arguments(Class<?>[] types, double[] point, int k) {
    Object[] arguments = new Object[types.length];
    int d = 0;
    for (int i = 0; i < types.length; i++) {
      Class<?> t = types[i];
      arguments[i] = t == double.class ? (Object) point[d++ % 3]
          : t == int.class ? (Object) k
          : t == Integer.class ? (Object) Integer.valueOf(k + 1)
          : t == Long.class ? (Object) Long.valueOf(k + 2)
          : t == Double.class ? (Object) Double.valueOf(1.25 + k)
          : t == Float.class ? (Object) Float.valueOf(0.75f + k)
          : t == Double[].class ? new Double[] {1.5, 0.25, 2.0 + k}
          : t == List.class ? List.of(1.0, 2.5, -0.5, 3.0 + k)
          : t == Map.class ? Map.of("a", 0.7, "b", 1.3 + k)
          : null;
      assertWithMessage("a parameter of type %s", t).that(arguments[i]).isNotNull();
    }
    return arguments;
  }

  /** Every member of each method of {@code names} at each point, for k = 0, 1, 3. */
  private static void check(String userClass, int order, String... names) throws Exception {
    check(COMPILED.get(), userClass, order, names);
  }

  private static void check(InProcessCompiler.Compiled compiled, String userClass, int order,
      String... names) throws Exception {
    Class<?> user = compiled.load(userClass);
    for (String name : names) {
      java.lang.reflect.Method method = java.util.Arrays.stream(user.getDeclaredMethods())
          .filter(m -> m.getName().equals(name)).findFirst().orElseThrow();
      Class<?>[] types = method.getParameterTypes();
      boolean[] active = new boolean[types.length];
      for (int i = 0; i < types.length; i++) {
        active[i] = types[i] == double.class;
      }
      MemberAgreement agreement = MemberAgreement.of(compiled, userClass, name, active);
      for (double[] point : POINTS) {
        for (int k : new int[] {0, 1, 3}) {
          Object[] arguments = arguments(types, point, k);
          if (method.getReturnType() == double[].class) {
            agreement.checkVector(arguments);
          } else {
            agreement.checkScalar(arguments, order, 1e-6);
          }
        }
      }
    }
  }

  @Test
  void boxesOfDataAreReadAsJavaReadsThem() throws Exception {
    check("com.example.Boxes", 1, "conditions", "boxArray", "map", "compound", "integers",
        "comparedAndPrinted", "mutatedData", "parameters", "vector");
    check("com.example.Boxes", 2, "secondOrder");
  }

  /**
   * A box beside a number in {@code ?:} is unboxed, as JLS 15.25 makes such a choice numeric:
   * {@code (i % 2 == 0 ? xs.get(i) : x) * y}, {@code x > 0 ? xs.get(1) : x * y},
   * {@code y > 1 ? 2 : IL.get(0)}, an {@code Integer} beside a {@code Double}, chains, a
   * {@code float} and an {@code int} choice, a {@code Math} function's argument, a call run in
   * one branch only. Before, each was the error "'?:' choosing between objects is not
   * supported: a differentiable method keeps each array or object variable bound to one value"
   * (at the first {@code ?:} of each method). The same for a {@code switch} expression (JLS
   * 15.28.1): {@code switch (k) { case 0 -> xs.get(0); case 1 -> IL.get(1); default -> x * y; }}
   * was an internal error ("java.lang.IllegalArgumentException: not numeric: OBJECT, OBJECT").
   */
  @Test
  void aBoxBesideANumberInAChoiceIsUnboxed() throws Exception {
    check(CHOSEN.get(), "com.example.Choices", 1, "chosen", "chains", "switched");
  }

  /**
   * An {@code Integer} box as an array's index (read, written, in a compound assignment) or
   * size ({@code new double[IX.get(1)]}, a matrix's two sizes) is unboxed, as Java promotes it
   * (JLS 15.10.3, 15.13). Before, each was the error "array index 'IX.get(0)' has type
   * 'Object': an index must be an 'int'" (or "array size ... a size must be an 'int'").
   */
  @Test
  void anIntegerBoxIsAnArrayIndexOrSize() throws Exception {
    check(CHOSEN.get(), "com.example.Choices", 1, "indexed");
  }

  @Test
  void objectsInLoopsMatricesSearchesAndStaticFieldsAreExact() throws Exception {
    check("com.example.ObjectCalls", 2, "activeIndex", "floorIndex", "receivers", "matrices");
    check("com.example.ObjectCalls", 1, "nested", "enumWhile", "enumSwitched", "concatenated",
        "records", "doLoop", "checkpointed", "matrixRows", "searched", "searchedInALoop",
        "fields");
  }

  /** One method per line from line 8 on: each an error at its line containing its text. */
  private static final List<String> LAUNDERED = List.of(
      "List<Double> l = new ArrayList<Double>(); List<Double> l2 = l; l.add(x);"
          + " return l2.get(0) * y;",
      "List<Double> l = new ArrayList<Double>(); fill(l, x); return l.get(0) * y;",
      "xs.add(x * y); return xs.get(xs.size() - 1) * y;",
      "List<List<Double>> ll = new ArrayList<List<Double>>();"
          + " List<Double> l = new ArrayList<Double>(); ll.add(l); ll.get(0).add(x);"
          + " return l.get(0) * y;",
      "List<Double> l = new ArrayList<Double>(); l.add(1.0); l.add(2.0);"
          + " List<Double> s = l.subList(0, 1); s.set(0, x); return l.get(0) * y;",
      "H h = new H(); h.put(x); return h.get() * y;",
      "LIST.add(x); return LIST.get(LIST.size() - 1) * y;",
      "Map<String, Double> m = new HashMap<String, Double>(); m.put(\"a\", x * y);"
          + " return m.get(\"a\") + x;",
      "List<Double> l = new ArrayList<Double>(); Collections.addAll(l, x, y);"
          + " return l.get(0) * l.get(1);",
      "Deque<Double> q = new ArrayDeque<Double>(); q.push(x); return q.pop() * y;",
      "Double d = id(x); return d * y;",
      "List<Double> l = new ArrayList<Double>(); l.add(x * y); double d = x; d += l.get(0);"
          + " return d;",
      "List<Double> l = new ArrayList<Double>(); l.add(x); return (double) l.get(0) * y;",
      "List<Double> l = new ArrayList<Double>(); l.add(x * y); return l.get(0);",
      "List<Double> l = new ArrayList<Double>(); l.add(x); return Math.sin(l.get(0)) * y;",
      "List<Double> l = new ArrayList<Double>(); double s = 0;"
          + " for (int i = 0; i < 3; i++) { l.add(s + x); s += l.get(i) * y; } return s;",
      "List<Double> l = List.of(x, y); return l.get(0) * l.get(1);",
      "return java.util.Optional.of(x).get() * y;");

  /**
   * A value carrying a derivative that went into a box (a list, a map, a deque, an object, a
   * generic identity) and comes back out is an error where it comes back, whatever way it went
   * in: each of these compiled with the previous commit too.
   */
  @Test
  void aValueThatWentIntoABoxIsAnErrorWhereItComesBack() {
    StringBuilder source = new StringBuilder(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.*;",
        "final class Laundered {",
        "  static final class H { private Double v; void put(double d) { v = d; }"
            + " double get() { return v; } }",
        "  static final List<Double> LIST = new ArrayList<Double>();",
        ""));
    for (int i = 0; i < LAUNDERED.size(); i++) {
      source.append("  @Differentiable static double f").append(i)
          .append("(double x, double y, @NoDerivative List<Double> xs) { ")
          .append(LAUNDERED.get(i)).append(" }\n");
    }
    source.append("  static void fill(List<Double> l, double v) { l.add(v); }\n")
        .append("  static <T> T id(T t) { return t; }\n}\n");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Laundered",
        source.toString());
    Compilation compilation = InProcessCompiler.javac().compile(file);

    List<Long> lines = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> error : compilation.errors()) {
      assertWithMessage("%s", error).that(error.getMessage(null))
          .containsMatch("depends on '.*' through '.*' \\(line \\d+\\), which carries no"
              + " derivative, and reaches (a value that carries a derivative|the result)");
      lines.add(error.getLineNumber());
    }
    List<Long> expected = new ArrayList<>();
    for (int i = 0; i < LAUNDERED.size(); i++) {
      expected.add(8L + i);
    }
    assertWithMessage("%s", compilation.errors()).that(lines).containsExactlyElementsIn(expected);
  }

  /**
   * A value that carries a derivative passed to a {@code Double} parameter (an object, so data:
   * DESIGN.md) is an error that says to declare the parameter {@code double}. It said "which is
   * @NoDerivative and would drop them; remove @NoDerivative from 'd'", of a parameter that has
   * no such annotation.
   */
  @Test
  void aDerivativeIntoADoubleParameterIsAnErrorThatSaysToDeclareItDouble() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double g(Double d, double y) { return d * y; }",
        "  @Differentiable static double f(double x, double y) {",
        "    double s = y;",
        "    for (int i = 0; i < 3; i++) { s = g(s * x, s); }",
        "    return s;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("call to 'g(...)': 's * x' carries derivatives"
        + " into parameter 'd' of 'F.g', of type 'java.lang.Double', which carries no derivative"
        + " and would drop them; declare 'd' as a 'double', a 'float' or an array of them, or"
        + " pass a value that carries no derivative")
        .inFile(file).onLine(7).atColumn(lines.get(6).indexOf("(s * x") + 1);
  }

  /**
   * A {@code ?:} or {@code switch} expression choosing between boxes of one type only is a box
   * in Java (JLS 15.25, 15.28.1), an object: an error that says to cast an operand, which makes
   * the choice a number. The {@code ?:} was the error "choosing between objects ... keeps each
   * array or object variable bound to one value"; the {@code switch}, an internal error ("not
   * numeric: OBJECT, OBJECT").
   */
  @Test
  void aChoiceBetweenBoxesOfOneTypeIsAnErrorThatSaysToCastOne() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.List;",
        "final class Same {",
        "  @Differentiable static double f(double x, int k, @NoDerivative List<Double> xs) {",
        "    return (k > 0 ? xs.get(1) : xs.get(0)) * x;",
        "  }",
        "  @Differentiable static double g(double x, int k, @NoDerivative List<Double> xs) {",
        "    double d = switch (k) { case 0 -> xs.get(0); default -> xs.get(1); };",
        "    return d * x;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Same",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    String advice = " choosing between boxes of 'double' only is a box in Java (an object), which"
        + " ad4j does not choose: cast an operand to 'double' ('(double) xs.get(i)'), which makes"
        + " the choice a number";
    assertThat(compilation).hadErrorContaining("'?:'" + advice).inFile(file).onLine(7)
        .atColumn(lines.get(6).indexOf("?") + 1);
    assertThat(compilation).hadErrorContaining("a 'switch' expression" + advice).inFile(file)
        .onLine(10).atColumn(lines.get(9).indexOf("switch") + 1);
  }

  /**
   * An object that a call run as written changes, read by a {@code @Differentiable} callee
   * that the reverse sweep may run again (a field read, a getter, an instance method on it,
   * after the call or in a loop), is an error at the call.
   */
  @Test
  void anObjectChangedAfterACalleeReadItIsAnErrorAtTheCall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class G {",
        "  static final class H {",
        "    double k = 1;",
        "    void set(double v) { k = v; }",
        "    @Differentiable double m(double x) { return Math.sin(k * x) + x * k; }",
        "  }",
        "  @Differentiable static double g(H h, double x) { return Math.sin(h.k * x) + x * h.k; }",
        "  @Differentiable static double inLoop(double x, double y) {",
        "    H h = new H(); double s = y;",
        "    for (int i = 0; i < 3; i++) { h.set(i + 1.0); s = g(h, s * x); }",
        "    return s;",
        "  }",
        "  @Differentiable static double after(double x, double y) {",
        "    H h = new H(); h.set(2.0); double s = g(h, x * y); h.set(5.0); return s * y;",
        "  }",
        "  @Differentiable static double receiver(double x, double y) {",
        "    H h = new H(); double s = y;",
        "    for (int i = 0; i < 3; i++) { h.set(i + 1.0); s = h.m(s * x); }",
        "    return s;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.G",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(3);
    for (int line : new int[] {12, 16, 20}) {
      String text = lines.get(line - 1);
      // at the call's '(', as javac places a call
      int call = text.contains("h.m(") ? text.indexOf("h.m(") + 3 : text.indexOf("g(h") + 1;
      assertThat(compilation).hadErrorContaining("reads what a call run as written may change")
          .inFile(file).onLine(line).atColumn(call + 1);
    }
  }
}
