package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;

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
      "    @Differentiable(order = 2) static double cross(V u, V w) {",
      "      double s = 0;",
      "      for (int i = 0; i < 1; i++) {",
      "        s += u.x * w.y - u.y * w.x;",
      "      }",
      "      return s;",
      "    }",
      "  }",
      "  record Seg(V from, double w, V to) {",
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
      "        + V.cross(seg.to(), v) * a;",
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
      "    return t.m(b) + u.m(a) + sw.m(a) + tw.a() * tw.b + c.m(b) + c.a * c.b();",
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

  /** A method that throws on its argument. */
  private static final String THROWS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Throws {",
      "  record Q(double k, double c) {",
      "    @Differentiable(order = 2) double m(double x) {",
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
      "    return u + q.m(a) * b;",
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
    String name = "com.example." + declared.group(1);
    MemberAgreement members = MemberAgreement.of(compiled(source, partSize), name, "f", true,
        true);
    for (double[] point : POINTS) {
      members.checkScalar(new Object[] {point[0], point[1]}, order, 1e-7);
    }
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
    String message = "call to 'r.m(...)': value record 'R' has more than one method 'm' a call"
        + " of 1 argument may mean (one it inherits, or one of variable arity), which javac"
        + " chooses among by the arguments' types, and ad4j does not yet";
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
        "}"), "call to 'r.m(...)': value record 'R' has more than one method 'm' a call of 1"
            + " argument may mean (one it inherits, or one of variable arity)", 15, 15);
  }
}
