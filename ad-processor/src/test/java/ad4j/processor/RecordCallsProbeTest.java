package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An adversarial probe of calls of a value record's {@code @Differentiable} methods that ad4j
 * does not inline but calls through their generated members, the receiver flattened first
 * (DESIGN.md, part 3): a receiver reassigned in a loop and read after it was replaced, kept
 * while its local takes a method's result, the same record as receiver and argument, a
 * record component of another record as receiver, inlined methods calling such methods on
 * {@code this} and on components, components of type {@code long}, {@code boolean},
 * {@code String} and {@code float} among doubles, a compact constructor that swaps and
 * computes components, a static method making the record, overloads by arity, mutual
 * recursion between two instances, a method that throws, methods implementing an
 * interface's, a {@code static final} receiver, a {@code @NoDerivative} receiver, a method
 * returning a record of nested records, a vector function of record results, a value class
 * returning itself, arrays passed to a record's method in a loop (made for the call, and a
 * local the caller changes after each call), and a record and callee compiled earlier. Every
 * member against differences of the user's method and forward against reverse, order 2 where
 * allowed, whole and in parts. Where javac may mean another method than the record's own of
 * that name and arity (an inherited default method, variable arity), ad4j called the record's:
 * now an error at the call.
 */
@ExtendWith(TapeIsEmpty.class)
class RecordCallsProbeTest {
  private static final double[][] POINTS = {{0.4, 1.3}, {-0.8, 0.6}};

  /** A receiver reassigned in a loop, read after being replaced; a record-returning method. */
  private static final String REASSIGNED = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Reassigned {",
      "  record P(double a, double b) {",
      "    @Differentiable(order = 2) double m(double x) {",
      "      double s = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        s += a * x * x + b * i;",
      "      }",
      "      return s;",
      "    }",
      "    @Differentiable(order = 2) P next(double x) {",
      "      double u = a;",
      "      for (int i = 0; i < 2; i++) {",
      "        u = u * x + b;",
      "      }",
      "      return new P(u, a * b);",
      "    }",
      "  }",
      "  @Differentiable(order = 2) static double f(double a, double b) {",
      "    P p = new P(a, b);",
      "    P first = p;",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      double v = p.m(b);",
      "      p = new P(p.b() * v * 0.1, a + i);",
      "      s += v + p.m(a) + first.m(0.5);",
      "      p = p.next(0.3 * b);",
      "    }",
      "    return s + p.a * p.b();",
      "  }",
      "}");

  /** The same record as receiver and as argument, a record field of another record. */
  private static final String ALIASED = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Aliased {",
      "  record V(double x, double y) {",
      "    @Differentiable(order = 2) double dot(V o) {",
      "      double s = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        s += x * o.x() + y * o.y * (i + 1);",
      "      }",
      "      return s;",
      "    }",
      "    @Differentiable(order = 2) double twiceDot(V o) {",
      "      double d = dot(o);",
      "      return 2 * d + this.dot(this) * o.dot(this);",
      "    }",
      "    @Differentiable(order = 2) static double cross(V u, V w) {",
      "      double s = 0;",
      "      for (int i = 0; i < 1; i++) {",
      "        s += u.x * w.y - u.y * w.x;",
      "      }",
      "      return s;",
      "    }",
      "  }",
      "  record Seg(V from, double w, V to) {",
      "    @Differentiable(order = 2) double mix() {",
      "      double d = from.twiceDot(to) + to.dot(from);",
      "      return d * w;",
      "    }",
      "    @Differentiable(order = 2) double len2() {",
      "      double s = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        s += from.dot(to) * w - to.dot(to) * i;",
      "      }",
      "      return s;",
      "    }",
      "  }",
      "  @Differentiable(order = 2) static double f(double a, double b) {",
      "    V v = new V(a, b * b);",
      "    Seg seg = new Seg(v, a - b, new V(b, 2 * a));",
      "    return v.dot(v) + seg.len2() + seg.to().dot(seg.from) + V.cross(v, v)",
      "        + V.cross(seg.to(), v) * a + seg.mix() + v.twiceDot(seg.to);",
      "  }",
      "}");

  /** Mixed components, swapped and computed by the canonical constructor. */
  private static final String SWAPPED = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Swapped {",
      "  record T(long n, double x, boolean on, String s, double y) {",
      "    static final double SCALE = 2.5;",
      "    @Differentiable(order = 2) double m(double t) {",
      "      double r = 0;",
      "      for (long i = 0; i < n; i++) {",
      "        r += on ? x * t * SCALE : y * t;",
      "        r += s.length() * y;",
      "      }",
      "      return r;",
      "    }",
      "  }",
      "  record Sw(double a, double b) {",
      "    Sw {",
      "      double t = a * a;",
      "      a = b + a;",
      "      b = t;",
      "    }",
      "    @Differentiable(order = 2) double m(double t) {",
      "      double r = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        r += a * t + b * b * i;",
      "      }",
      "      return r;",
      "    }",
      "  }",
      "  record Pl(double b, double a) {",
      "    static Pl of(double b) {",
      "      return new Pl(b * b, 2 * b);",
      "    }",
      "    @Differentiable(order = 2) Pl turned(double t) {",
      "      double u = a;",
      "      for (int i = 0; i < 2; i++) {",
      "        u = u * t + b;",
      "      }",
      "      return new Pl(u, b * t);",
      "    }",
      "  }",
      "  record C(double b, double a) {",
      "    C {",
      "      double t = a;",
      "      a = b;",
      "      b = t * 3;",
      "    }",
      "    @Differentiable(order = 2) double m(double t) {",
      "      double r = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        r += a * t - b * b;",
      "      }",
      "      return r;",
      "    }",
      "  }",
      "  @Differentiable(order = 2) static double f(double a, double b) {",
      "    T t = new T(3L, a, true, \"xy\", b);",
      "    T u = new T(2L, b, false, \"\", a * b);",
      "    Sw sw = new Sw(a, b);",
      "    Pl tw = new Pl(a, b).turned(b);",
      "    C c = new C(a, 2 * b);",
      "    Pl pl = Pl.of(a * b).turned(a);",
      "    return t.m(b) + u.m(a) + sw.m(a) + tw.a() * tw.b + c.m(b) + c.a * c.b() + pl.a * pl.b;",
      "  }",
      "}");

  /** Overloads, a generic record, a call on another instance, mutual recursion. */
  private static final String OVERLOADS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Overloads {",
      "  record Q(double k, double c) {",
      "    @Differentiable(order = 2) double m(double x) {",
      "      double s = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        s += k * x;",
      "      }",
      "      return s;",
      "    }",
      "    @Differentiable(order = 2) double m(double x, double y) {",
      "      double s = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        s += c * x * y;",
      "      }",
      "      return s;",
      "    }",
      "    @Differentiable(order = 2) double m(int n, int p, int z) {",
      "      double s = p + z;",
      "      for (int i = 0; i < n; i++) {",
      "        s *= k + c;",
      "      }",
      "      return s;",
      "    }",
      "    @Differentiable(order = 2) double even(int n, Q o) {",
      "      if (n == 0) {",
      "        return k;",
      "      }",
      "      return o.odd(n - 1, this) * c;",
      "    }",
      "    @Differentiable(order = 2) double odd(int n, Q o) {",
      "      if (n == 0) {",
      "        return c * c;",
      "      }",
      "      return o.even(n - 1, this) + k;",
      "    }",
      "  }",
      "  @Differentiable(order = 2) static double f(double a, double b) {",
      "    Q q = new Q(a, b);",
      "    Q r = new Q(b, a * a);",
      "    return q.m(b) + q.m(a, b) + q.m(3, 1, 0) + q.even(3, r) + r.odd(4, q);",
      "  }",
      "}");

  /** A method that throws on its argument; methods that implement an interface's. */
  private static final String THROWS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Throws {",
      "  interface Shape {",
      "    double m(double x);",
      "    default double n(double x) {",
      "      return x;",
      "    }",
      "  }",
      "  record Q(double k, double c) implements Shape {",
      "    @Override",
      "    @Differentiable(order = 2) public double n(double x) {",
      "      double y = k * x;",
      "      return y * c;",
      "    }",
      "    @Override",
      "    @Differentiable(order = 2) public double m(double x) {",
      "      if (x < 0) {",
      "        throw new IllegalArgumentException(\"negative \" + x + \" with \" + k);",
      "      }",
      "      double s = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        s += k * Math.sqrt(x) + c;",
      "      }",
      "      return s;",
      "    }",
      "  }",
      "  @Differentiable(order = 2) static double f(double a, double b) {",
      "    Q q = new Q(a, b);",
      "    double u = q.m(b * b);",
      "    return u + q.m(a) * b + q.n(a * b);",
      "  }",
      "}");

  /**
   * A {@code static final} receiver of a method returning a record, a receiver kept while its
   * local is given a method's result, a vector function of record results, a
   * {@code @NoDerivative} receiver of a method returning a record.
   */
  private static final String PLACES = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Places {",
      "  record Q(double k, double c) {",
      "    @Differentiable(order = 2) double m(double x) {",
      "      double s = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        s += k * x * x + c * i;",
      "      }",
      "      return s;",
      "    }",
      "    @Differentiable(order = 2) Q grown(double t) {",
      "      double u = k;",
      "      for (int i = 0; i < 2; i++) {",
      "        u = u * t + c;",
      "      }",
      "      return new Q(u, c * t);",
      "    }",
      "  }",
      "  static final Q FIXED = new Q(0.3, -0.2);",
      "  @Differentiable(order = 2) static double f(double a, double b) {",
      "    Q q = new Q(a, b);",
      "    Q h = FIXED.grown(a);",
      "    Q first = q;",
      "    double s = h.m(a) + h.k() * h.c + FIXED.m(b);",
      "    q = q.grown(b);",
      "    return s + first.m(b) + q.m(a);",
      "  }",
      "  @Differentiable static double[] v(double a, double b) {",
      "    Q q = new Q(a, b).grown(a * b);",
      "    Q r = q.grown(0.5);",
      "    return new double[] {q.k(), r.c() * q.m(b), r.k};",
      "  }",
      "  @Differentiable static double data(@NoDerivative Q q, double a) {",
      "    Q r = q.grown(a);",
      "    return r.m(a) + q.m(a) * r.c();",
      "  }",
      "}");

  /**
   * A record reassigned by a method returning one in a loop, a value class's method returning
   * a value class, a method returning a record of nested records, each leaf read.
   */
  private static final String MARCHING = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Marching {",
      "  record S(double x, double v) {",
      "    @Differentiable S stepped(double k) {",
      "      double px = x;",
      "      double pv = v;",
      "      for (int i = 0; i < 2; i++) {",
      "        double acc = -k * Math.sin(px);",
      "        px += 0.1 * pv;",
      "        pv += 0.1 * acc;",
      "      }",
      "      return new S(px, pv);",
      "    }",
      "  }",
      "  static final class Z {",
      "    private final double re;",
      "    private final double im;",
      "    Z(double re, double im) {",
      "      this.re = re;",
      "      this.im = im;",
      "    }",
      "    double re() { return re; }",
      "    double im() { return im; }",
      "    @Differentiable Z pow(int n) {",
      "      double r = 1;",
      "      double i = 0;",
      "      for (int j = 0; j < n; j++) {",
      "        double t = r * re - i * im;",
      "        i = r * im + i * re;",
      "        r = t;",
      "      }",
      "      return new Z(r, i);",
      "    }",
      "  }",
      "  @Differentiable static double f(double a, double b) {",
      "    S s = new S(a, b);",
      "    for (int i = 0; i < 6; i++) {",
      "      s = s.stepped(a * 0.5 + b);",
      "    }",
      "    return s.x() * s.v;",
      "  }",
      "  record Vec(double x, double y) {}",
      "  record Body(double m, Vec pos, Vec vel) {",
      "    @Differentiable(order = 2) Body moved(double t) {",
      "      double x = pos.x();",
      "      double y = pos.y;",
      "      for (int i = 0; i < 2; i++) {",
      "        x += t * vel.x() * m;",
      "        y -= t * vel.y * x;",
      "      }",
      "      return new Body(m * 2, new Vec(y, x), new Vec(vel.y(), m));",
      "    }",
      "  }",
      "  @Differentiable(order = 2) static double h(double a, double b) {",
      "    Body body = new Body(a, new Vec(b, a * b), new Vec(1.5, -b));",
      "    Body next = body.moved(0.3).moved(b);",
      "    return next.m() + 3 * next.pos().x() + 5 * next.pos.y + 7 * next.vel().x()",
      "        + 11 * next.vel.y() + body.moved(a).vel().x() * a;",
      "  }",
      "  @Differentiable static double g(double a, double b) {",
      "    Z z = new Z(a, b).pow(3);",
      "    return z.re() * z.im() + new Z(b, a).pow(2).re();",
      "  }",
      "}");

  /** A {@code float} component, a {@code @NoDerivative} parameter of the record's method. */
  private static final String FLOATS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Floats {",
      "  record K(double a, float w) {",
      "    @Differentiable(order = 2) double m(double x, @NoDerivative double scale) {",
      "      double s = 0;",
      "      for (int i = 0; i < 2; i++) {",
      "        s += a * x * scale + w * w * x;",
      "      }",
      "      return s;",
      "    }",
      "  }",
      "  @Differentiable(order = 2) static double f(double a, double b) {",
      "    K k = new K(a, (float) b);",
      "    return k.m(b, 2.5) + k.m(a * b, (int) a);",
      "  }",
      "}");

  /**
   * Arrays passed to a record's method in a loop: made for the call from the loop's values,
   * and a local array the caller changes after each call, read by the reverse sweep.
   */
  private static final String ARRAYS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Arrays2 {",
      "  record Q(double k, double c) {",
      "    @Differentiable(order = 2) double sum(double[] x) {",
      "      double s = 0;",
      "      for (int i = 0; i < x.length; i++) {",
      "        s += k * x[i] * x[i] + c * x[i] * i;",
      "      }",
      "      return s;",
      "    }",
      "  }",
      "  @Differentiable(order = 2) static double f(double a, double b) {",
      "    Q q = new Q(a, b);",
      "    double[] x = {a, b, a * b};",
      "    double s = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      s += Math.tanh(q.sum(new double[] {a * i, b - i}) * s * 0.1);",
      "      s += Math.sin(0.2 * q.sum(x) * x[i]);",
      "      x[i] = Math.sin(s) * a * 0.5;",
      "      x[(i + 1) % 3] += Math.tanh(0.2 * q.sum(x));",
      "    }",
      "    return s + q.sum(x);",
      "  }",
      "}");

  private static InProcessCompiler.Compiled compiled(String source, int partSize) {
    Matcher declared = Pattern.compile("final class (\\w+)").matcher(source);
    assertThat(declared.find()).isTrue();
    List<String> all = new ArrayList<>(List.of("-Xlint:all", "-Werror"));
    if (partSize > 0) {
      all.add("-Aad4j.partSize=" + partSize);
    }
    return InProcessCompiler.compileWith(all, "com.example." + declared.group(1), source);
  }

  private static void checkF(String source, int order, int partSize) throws Exception {
    Matcher declared = Pattern.compile("final class (\\w+)").matcher(source);
    assertThat(declared.find()).isTrue();
    checkF(compiled(source, partSize), "com.example." + declared.group(1), order);
  }

  /** Every member of {@code f(double a, double b)} of {@code name}, at each point. */
  private static void checkF(InProcessCompiler.Compiled compiled, String name, int order)
      throws Exception {
    checkAtPoints(compiled, name, "f", order);
  }

  /** Every member of {@code method(double, double)} of {@code name}, at each point. */
  private static void checkAtPoints(InProcessCompiler.Compiled compiled, String name,
      String method, int order) throws Exception {
    MemberAgreement members = MemberAgreement.of(compiled, name, method, true, true);
    members.checkScalarAt(POINTS, order, 1e-7);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1, 2})
  void reassigned(int partSize) throws Exception {
    checkF(REASSIGNED, 2, partSize);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1, 2})
  void aliased(int partSize) throws Exception {
    checkF(ALIASED, 2, partSize);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1, 2})
  void swapped(int partSize) throws Exception {
    checkF(SWAPPED, 2, partSize);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1, 2})
  void overloads(int partSize) throws Exception {
    checkF(OVERLOADS, 2, partSize);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1})
  void throwsLikeThePrimal(int partSize) throws Exception {
    MemberAgreement members = MemberAgreement.of(compiled(THROWS, partSize),
        "com.example.Throws", "f", true, true);
    members.checkScalar(new Object[] {0.4, 1.3}, 2, 1e-7);
    members.checkThrows(new Object[] {-0.4, 1.3}, 2);
  }


  /**
   * A record's method beside an interface's default method of the same name and arity
   * ({@code m(double)}, {@code m(int)}): javac calls the default one for {@code r.m(3)}, which
   * ad4j called the record's, inlined or through its members, wrong in value and derivative;
   * an error now, as is a call of a method of variable arity, whose members did not compile.
   */
  @Test
  void aMethodJavacMayChooseAmongOthersIsAnError() {
    List<String> inherited = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  interface Scaled {",
        "    default double m(int n) {",
        "      return 10 * n;",
        "    }",
        "  }",
        "  record R(double k) implements Scaled {",
        "    @Differentiable double m(double x) {",
        "      double s = 0;",
        "      for (int i = 0; i < 2; i++) {",
        "        s += k * x;",
        "      }",
        "      return s;",
        "    }",
        "    @Differentiable double l(double x) {",
        "      double y = k * x * x;",
        "      return y;",
        "    }",
        "  }",
        "  @Differentiable static double f(double a, double b) {",
        "    R r = new R(a);",
        "    return r.m(3) * b + r.l(b);",
        "  }",
        "}");
    String message = "call to 'r.m(...)': value record 'R' has 2 methods 'm' a call of 1"
        + " argument may mean ('m(double)', 'Scaled.m(int)'), which javac chooses among by the"
        + " arguments' types, and ad4j does not yet; give its own a name of its own";
    assertSingleError(inherited, message, 24, 15);
    // the same with the record's m inlined: declarations and a return
    List<String> inlined = new ArrayList<>(inherited);
    inlined.subList(10, 14).clear();
    inlined.add(10, "      double s = 2 * k * x;");
    assertSingleError(inlined, message, 21, 15);
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record R(double k) {",
        "    @Differentiable double m(double... xs) {",
        "      double s = 0;",
        "      for (double x : xs) {",
        "        s += k * x * x;",
        "      }",
        "      return s;",
        "    }",
        "  }",
        "  @Differentiable static double f(double a, double b) {",
        "    R r = new R(a);",
        "    return r.m(b) * a;",
        "  }",
        "}"), "call to 'r.m(...)': value record 'R' declares 'm(double...)', of variable"
            + " arity, which ad4j does not call yet; declare it with an array parameter instead",
        15, 15);
    // two of the record's own methods of one arity: overloads javac chooses among by type
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record R(double k) {",
        "    @Differentiable double m(double x) {",
        "      double s = 0;",
        "      for (int i = 0; i < 2; i++) {",
        "        s += k * x;",
        "      }",
        "      return s;",
        "    }",
        "    double m(int n) {",
        "      return k * n;",
        "    }",
        "  }",
        "  @Differentiable static double f(double a, double b) {",
        "    R r = new R(a);",
        "    return r.m(b) * b;",
        "  }",
        "}"), "call to 'r.m(...)': value record 'R' has 2 methods 'm' a call of 1 argument may"
            + " mean ('m(double)', 'm(int)'), which javac chooses among by the arguments' types,"
            + " and ad4j does not yet; give each a name of its own", 18, 15);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1, 2})
  void places(int partSize) throws Exception {
    InProcessCompiler.Compiled compiled = compiled(PLACES, partSize);
    checkF(compiled, "com.example.Places", 2);
    MemberAgreement v = MemberAgreement.of(compiled, "com.example.Places", "v", true, true);
    for (double[] point : POINTS) {
      v.checkVector(new Object[] {point[0], point[1]});
    }
    Object q = Records.make(compiled.load("com.example.Places$Q"), 0.7, -0.4);
    MemberAgreement data = MemberAgreement.of(compiled, "com.example.Places", "data", false,
        true);
    data.checkScalar(new Object[] {q, 0.6}, 1, 1e-7);
  }

  /**
   * A record and a callee compiled earlier, classes only: the record's methods are called
   * through its generated class (no source to inline, even for the one of declarations and a
   * return), the callee's value unread beside its tangent call.
   */
  @Test
  void aRecordAndACalleeCompiledEarlier(@TempDir Path classes) throws Exception {
    Compilation library = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .compile(JavaFileObjects.forSourceString("com.example.Lib", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "public final class Lib {",
            "  public record Q(double k, double c) {",
            "    @Differentiable(order = 2) public double m(double x) {",
            "      double s = 0;",
            "      for (int i = 0; i < 2; i++) {",
            "        s += k * x * x + c * i;",
            "      }",
            "      return s;",
            "    }",
            "    @Differentiable(order = 2) public double dc(double x) {",
            "      double y = k * c * x;",
            "      return y * y;",
            "    }",
            "    @Differentiable(order = 2) public Q grown(double t) {",
            "      double u = k;",
            "      for (int i = 0; i < 2; i++) {",
            "        u = u * t + c;",
            "      }",
            "      return new Q(u, c * t);",
            "    }",
            "  }",
            "  @Differentiable(order = 2) public static double g(double x) {",
            "    double s = 0;",
            "    for (int i = 1; i <= 2; i++) {",
            "      s += Math.sin(x * i);",
            "    }",
            "    return s;",
            "  }",
            "}")));
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    Compilation caller = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .withClasspath(classpath).compile(JavaFileObjects.forSourceString("com.example.Caller",
            String.join("\n",
                "package com.example;",
                "import ad4j.Differentiable;",
                "final class Caller {",
                "  @Differentiable(order = 2) static double f(Lib.Q q, double a) {",
                "    double b = q.c();",
                "    Lib.Q r = q.grown(a * b);",
                "    return q.m(b) + r.dc(a) * r.k() + Lib.g(a) + Lib.g(q.m(a)) + r.c();",
                "  }",
                "}")));
    InProcessCompiler.Compiled compiled = InProcessCompiler.loadedWithLibrary(caller, library);
    MemberAgreement members = MemberAgreement.of(compiled, "com.example.Caller", "f", true,
        true);
    Class<?> q = compiled.load("com.example.Lib$Q");
    for (double[] point : POINTS) {
      members.checkScalar(new Object[] {Records.make(q, point[0], point[1]), -point[1]}, 2,
          1e-7);
    }
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 2})
  void marching(int partSize) throws Exception {
    InProcessCompiler.Compiled compiled = compiled(MARCHING, partSize);
    checkF(compiled, "com.example.Marching", 1);
    checkAtPoints(compiled, "com.example.Marching", "g", 1);
    checkAtPoints(compiled, "com.example.Marching", "h", 2);
  }


  /**
   * An unqualified call in a record's method of a name the record inherits (an interface's
   * default method) and its enclosing class declares too: Java calls the inherited one, and so
   * does ad4j, which does not yet call a record's inherited methods: an error naming it, not a
   * call of the enclosing class's.
   */
  @Test
  void anInheritedMethodIsNotTheEnclosingClasss() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  interface Scaling {",
        "    default double scale(double x) {",
        "      return 2 * x;",
        "    }",
        "  }",
        "  @Differentiable static double scale(double x) {",
        "    return 3 * x * x;",
        "  }",
        "  record Q(double k, double c) implements Scaling {",
        "    @Differentiable double m(double x) {",
        "      double s = 0;",
        "      for (int i = 0; i < 2; i++) {",
        "        s += scale(3) * k * x + c;",
        "      }",
        "      return s;",
        "    }",
        "  }",
        "  @Differentiable static double f(double a, double b) {",
        "    return new Q(a, b).m(b);",
        "  }",
        "}"), "call to 'scale(...)': 'Scaling.scale' is a default method of interface 'Scaling',"
            + " which ad4j does not call on a value record", 16, 19);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1})
  void floats(int partSize) throws Exception {
    MemberAgreement members = MemberAgreement.of(compiled(FLOATS, partSize),
        "com.example.Floats", "f", true, true);
    for (double[] point : POINTS) {
      // differences of a function of (float) b carry its rounding, 6e-8 relative, over h;
      // order 1: the Hessian's differences of the gradient carry it too, at a fixed tolerance
      members.checkScalar(new Object[] {point[0], point[1]}, 1, 1e-5);
    }
  }

  /**
   * A record with a constructor besides its canonical one: an error where it is made, which
   * said the record declared "a canonical constructor that is not a compact one".
   */
  @Test
  void aConstructorBesidesTheCanonicalOneIsNamedAsSuch() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record Pl(double b, double a) {",
        "    Pl(double b) {",
        "      this(b * b, 2 * b);",
        "    }",
        "  }",
        "  @Differentiable static double f(double a, double b) {",
        "    Pl pl = new Pl(a, b);",
        "    return pl.a() * pl.b();",
        "  }",
        "}"), "'new Pl(...)': record 'Pl' declares a constructor besides its canonical one"
            + " ('Pl(double)'), and ad4j does not yet flatten records with such constructors;"
            + " make the record with a static method of it instead", 10, 13);
  }

  @ParameterizedTest(name = "parts of {0} (0: whole)")
  @ValueSource(ints = {0, 1, 2})
  void arrays(int partSize) throws Exception {
    checkF(ARRAYS, 2, partSize);
  }
}
