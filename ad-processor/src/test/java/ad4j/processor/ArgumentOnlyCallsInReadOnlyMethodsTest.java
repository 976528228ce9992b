package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A method run as written whose body only reads may call the static methods of {@code Double}
 * and the other argument-only classes of the JDK, and argument-only static methods of the
 * sources, named through their class ({@code Double.isNaN(re)}, {@code Checks.positive(k)}):
 * running it again gives the same result and changes nothing, so generated code may run it in
 * each sweep of an order-2 method. A compact constructor that checks its components with
 * {@code Double.isNaN} (documented as run where the record is made) and a getter that does
 * were the error "call to 'new C(...)' runs as written and may give another result or do
 * something again each time it runs" in an order-2 method: only {@code Math} and
 * {@code StrictMath} were looked at as qualifiers. A constructor calling
 * {@code Integer.getInteger} (a system property, which may change) or a static method that
 * counts its calls stays that error, and so does a getter passing an object to
 * {@code String.valueOf}, which calls its {@code toString()}.
 */
@ExtendWith(TapeIsEmpty.class)
class ArgumentOnlyCallsInReadOnlyMethodsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Orbits",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "final class Orbits {",
              "  static final class Checks {",
              "    static double positive(double v) {",
              "      if (!(v > 0)) { throw new IllegalArgumentException(\"not positive: \" + v); }",
              "      return v;",
              "    }",
              "  }",
              "  record C(double re, double im) {",
              "    C {",
              "      if (Double.isNaN(re) || Double.isInfinite(im)) {",
              "        throw new IllegalArgumentException(\"bad \" + re + \", \" + im);",
              "      }",
              "    }",
              "    C times(C o) { return new C(re * o.re - im * o.im, re * o.im + im * o.re); }",
              "    C plus(C o) { return new C(re + o.re, im + o.im); }",
              "    double abs2() { return re * re + im * im; }",
              "  }",
              "  static final class Damping {",
              "    double k = 0.75;",
              "    double safe() { return Double.isNaN(k) ? 0 : Checks.positive(Math.max(k, 0.5)); }",
              "  }",
              "  @Differentiable(order = 2)",
              "  static double orbit(double cr, double ci, @NoDerivative Damping d) {",
              "    C c = new C(cr, ci);",
              "    C z = new C(0.1 * d.safe(), 0);",
              "    for (int i = 0; i < 5; i++) {",
              "      z = z.times(z).plus(c);",
              "    }",
              "    return z.abs2() * d.safe() + Math.log(cr);",
              "  }",
              "}")));

  @Test
  void anOrder2MethodMakesRecordsWhoseConstructorChecksWithDouble() throws Exception {
    java.lang.reflect.Constructor<?> make = COMPILED.get().load("com.example.Orbits$Damping")
        .getDeclaredConstructor();
    make.setAccessible(true);
    Object damping = make.newInstance();
    MemberAgreement orbit = MemberAgreement.of(COMPILED.get(), "com.example.Orbits", "orbit",
        true, true, false);
    for (double[] at : new double[][] {{0.25, 0.3}, {0.4, -0.35}, {0.05, 0.6}}) {
      orbit.checkScalar(new Object[] {at[0], at[1], damping}, 2, 1e-6);
    }
    // the record's check throws where the method's does (log(-1) is NaN, the next z too)
    orbit.checkThrows(new Object[] {Double.NaN, 0.3, damping}, 2);
  }

  @Test
  void aConstructorReadingASystemPropertyStaysAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record C(double re, double im) {",
        "    C { if (re > Integer.getInteger(\"limit\", 10)) throw new IllegalArgumentException(); }",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b) {",
        "    C c = new C(a, b);",
        "    return c.re() * c.im();",
        "  }",
        "}"),
        runsAgainInTheHessianSweeps("new C(...)"),
        9, 11);
  }

  @Test
  void aConstructorCallingACountingMethodStaysAnError() {
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class Counter { static int n; static int tick() { return ++n; } }",
        "  record C(double re, double im) {",
        "    C { if (Counter.tick() < 0) throw new IllegalArgumentException(); }",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b) {",
        "    C c = new C(a, b);",
        "    return c.re() * c.im();",
        "  }",
        "}"),
        runsAgainInTheHessianSweeps("new C(...)"),
        10, 11);
  }

  @Test
  void aGetterPassingAnObjectToStringValueOfStaysAnError() {
    // String.valueOf(Object) calls the object's toString(), which counts here
    assertSingleError(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  static final class Tag {",
        "    int n;",
        "    @Override public String toString() { n++; return \"t\" + n; }",
        "  }",
        "  static final class Damping {",
        "    final Tag tag = new Tag();",
        "    double k = 0.75;",
        "    double safe() { return String.valueOf(tag).length() > 2 ? k : 2 * k; }",
        "  }",
        "  @Differentiable(order = 2)",
        "  static double f(double a, double b, @NoDerivative Damping d) {",
        "    return a * a * b * d.safe();",
        "  }",
        "}"),
        runsAgainInTheHessianSweeps("d.safe()"),
        16, 30);
  }

  /** The error at a call that {@code f}'s Hessian sweeps would run once each. */
  private static String runsAgainInTheHessianSweeps(String call) {
    return "call to '" + call + "' runs as written and may give another result or do something"
        + " again each time it runs: mHessian and mValueGradientAndHessian of 'f' make one sweep"
        + " per slot";
  }
}
