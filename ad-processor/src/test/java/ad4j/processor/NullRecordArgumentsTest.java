package ad4j.processor;

import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Constructor;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A value record held as an object (a {@code @NoDerivative} parameter's, a field's, a local
 * given one) passed to a {@code @Differentiable} callee that takes the record flattened: with a
 * {@code null} record the callee's generated members must behave as the callee, which reads the
 * record only on one branch (in the same class, in a nested one, through a callee that passes the
 * record on, an instance method, a vector function, at order 2). On the branch that does not read
 * it every member returns what the method does (value bit for bit, derivatives against
 * differences and each other, at order 2 the Hessian); on the branch that reads it every member
 * throws the method's {@code NullPointerException}; with a record, the members agree as usual.
 * Before, the call read all the record's components where the caller passed it, and every member
 * threw on both branches. Whole and cut into parts of one statement.
 */
@ExtendWith(TapeIsEmpty.class)
class NullRecordArgumentsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Nul {",
      "  record Damping(double k, double c) {",
      "    Damping { if (!(k > 0)) throw new IllegalArgumentException(\"k must be positive\"); }",
      "  }",
      "  private final Damping damping;",
      "  Nul(Damping damping) { this.damping = damping; }",
      "  @Differentiable static double g(double x, Damping d) {",
      "    if (x > 0) {",
      "      return Math.exp(-d.k() * x) + d.c() * x;",
      "    }",
      "    return x * x * x;",
      "  }",
      "  @Differentiable static double passes(double x, @NoDerivative Damping d) {",
      "    return g(x, d) * Math.sin(x);",
      "  }",
      "  @Differentiable static double onward(double x, Damping d) {",
      "    return g(x, d) + x;",
      "  }",
      "  @Differentiable static double nested(double x, @NoDerivative Damping d) {",
      "    return onward(x, d) * x;",
      "  }",
      "  static final class Other {",
      "    @Differentiable static double q(double x, Damping d) {",
      "      if (x > 0) { return d.c() * x; }",
      "      return Math.exp(x);",
      "    }",
      "  }",
      "  @Differentiable static double other(double x, @NoDerivative Damping d) {",
      "    return Other.q(x, d) + x * x;",
      "  }",
      "  @Differentiable static double local(double x, @NoDerivative Damping d) {",
      "    Damping e = d;",
      "    double y = x * 2;",
      "    return g(y, e) + y;",
      "  }",
      "  @Differentiable double field(double x) {",
      "    return g(x, damping) + x;",
      "  }",
      "  @Differentiable double h(double x, Damping d) {",
      "    if (x > 0) {",
      "      return d.k() * x * x + d.c();",
      "    }",
      "    return Math.sin(x);",
      "  }",
      "  @Differentiable double instance(double x, @NoDerivative Damping d) {",
      "    return h(x, d) * x + this.h(x, damping);",
      "  }",
      "  @Differentiable static double two(double x, Damping a, Damping b) {",
      "    double s = x * x;",
      "    if (x > 0) { s += a.k() * x; }",
      "    if (x > 1) { s += b.c() * x; }",
      "    return s;",
      "  }",
      "  @Differentiable static double both(double x, @NoDerivative Damping a,",
      "      @NoDerivative Damping b) {",
      "    return two(x, a, b) * x;",
      "  }",
      "  @Differentiable double made(double x) {",
      "    return h(x, new Damping(x * x + 1, 0.5)) + h(-x, new Damping(2 + x, x));",
      "  }",
      "  @Differentiable(order = 2) static double g2(double x, Damping d) {",
      "    if (x > 0) {",
      "      return Math.exp(-d.k() * x) + d.c() * x * x;",
      "    }",
      "    return x * x * Math.cos(x);",
      "  }",
      "  @Differentiable(order = 2) static double second(double x, double y,",
      "      @NoDerivative Damping d) {",
      "    return g2(x * y, d) + x;",
      "  }",
      "  @Differentiable static double[] pair(double x, Damping d) {",
      "    double[] p = new double[2];",
      "    if (x > 0) {",
      "      p[0] = d.k() * x;",
      "      p[1] = x;",
      "    } else {",
      "      p[0] = x * x;",
      "      p[1] = -x;",
      "    }",
      "    return p;",
      "  }",
      "  @Differentiable static double vector(double x, @NoDerivative Damping d) {",
      "    double[] p = pair(x, d);",
      "    return p[0] * p[1];",
      "  }",
      "}");

  private static final List<CompiledOnce> COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Nul", SOURCE, 1);

  /** A caller: its name, order, whether it is the instance method, its arguments at x. */
  private record Caller(String name, int order, boolean instance) {
    Object[] arguments(double x, Object damping) {
      return switch (name) {
        case "field", "made" -> new Object[] {x};
        case "second" -> new Object[] {x, 1.3, damping};
        default -> new Object[] {x, damping};
      };
    }

    boolean[] active() {
      return switch (name) {
        case "field", "made" -> new boolean[] {true};
        case "second" -> new boolean[] {true, true, false};
        default -> new boolean[] {true, false};
      };
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> callers() {
    return Stream.of(new Caller("passes", 1, false), new Caller("nested", 1, false),
        new Caller("other", 1, false),
        new Caller("local", 1, false),
        new Caller("field", 1, true), new Caller("instance", 1, true),
        new Caller("second", 2, false),
        new Caller("vector", 1, false))
        .flatMap(caller -> Stream.of(0, 1).map(k -> Arguments.of(caller, k)));
  }

  @ParameterizedTest(name = "{0}, compilation {1}")
  @MethodSource("callers")
  void aNullRecordThatTheCalleeDoesNotReadOnItsPathGivesWhatTheMethodGives(Caller caller,
      int compilation) throws Exception {
    Compiled compiled = COMPILED.get(compilation).get();
    MemberAgreement members = agreement(compiled, caller, null);
    members.checkScalar(caller.arguments(-0.7, null), caller.order(), 1e-7);
  }

  @ParameterizedTest(name = "{0}, compilation {1}")
  @MethodSource("callers")
  void aNullRecordThatTheCalleeReadsThrowsFromEveryMemberAsFromTheMethod(Caller caller,
      int compilation) throws Exception {
    Compiled compiled = COMPILED.get(compilation).get();
    MemberAgreement members = agreement(compiled, caller, null);
    Object[] arguments = caller.arguments(0.7, null);
    assertThrows(NullPointerException.class, () -> members.value(arguments));
    int n = caller.name().equals("second") ? 2 : 1;
    List<Object[]> more = new java.util.ArrayList<>(List.of(new Object[0],
        new Object[] {new double[n]}, new Object[] {1.0, new double[n]}));
    List<String> suffixes = new java.util.ArrayList<>(
        List.of("Gradient", "ValueAndGradient", "Pullback"));
    Object[] tangents = caller.name().equals("second") ? new Object[] {1.0, 0.5}
        : new Object[] {1.0};
    suffixes.add("Tangent");
    more.add(tangents);
    if (caller.order() == 2) {
      suffixes.addAll(List.of("Hessian", "HessianVector", "ValueGradientAndHessian"));
      more.addAll(List.of(new Object[0], new Object[] {new double[] {1, 0}},
          new Object[] {new double[n], new double[n][n]}));
    }
    for (int i = 0; i < suffixes.size(); i++) {
      Object[] extra = more.get(i);
      String suffix = suffixes.get(i);
      // (MemberAgreement unwraps what the member throws)
      assertThrows(NullPointerException.class, () -> members.member(suffix, arguments, extra),
          caller.name() + suffix);
    }
  }

  /**
   * Two records held as objects, one null: where the callee reads only the other, every member
   * gives what the method gives, the other's components read; where it reads the null one,
   * every member throws as the method does.
   */
  @org.junit.jupiter.api.Test
  void ofTwoRecordsTheOneThatIsNotNullIsRead() throws Exception {
    for (CompiledOnce once : COMPILED) {
      Compiled compiled = once.get();
      Object a = damping(compiled, 0.8, -0.3);
      MemberAgreement members = MemberAgreement.of(compiled, "com.example.Nul", "both", true,
          false, false);
      members.checkScalar(new Object[] {0.6, a, null}, 1, 1e-7);
      members.checkScalar(new Object[] {-0.6, null, null}, 1, 1e-7);
      members.checkScalar(new Object[] {1.6, a, damping(compiled, 0.5, 0.25)}, 1, 1e-7);
      assertThrows(NullPointerException.class,
          () -> members.value(new Object[] {1.6, a, null}));
      for (String suffix : List.of("Gradient", "Tangent")) {
        Object[] more = suffix.equals("Tangent") ? new Object[] {1.0} : new Object[0];
        assertThrows(NullPointerException.class,
            () -> members.member(suffix, new Object[] {1.6, a, null}, more), suffix);
      }
    }
  }

  /**
   * An instance method taking a value record, called on the method's own object, with a record
   * made in the caller: the call passes the record's leaves, which carry derivatives. Before,
   * such a call (with a record made there or held as an object) was an internal error: the
   * record was not flattened for the callee's members.
   */
  @org.junit.jupiter.api.Test
  void anInstanceMethodTakingARecordMadeByTheCallerIsDifferentiated() throws Exception {
    for (CompiledOnce once : COMPILED) {
      Compiled compiled = once.get();
      Caller caller = new Caller("made", 1, true);
      MemberAgreement members = agreement(compiled, caller, damping(compiled, 0.8, -0.3));
      for (double x : new double[] {-0.7, 0.7}) {
        members.checkScalar(caller.arguments(x, null), 1, 1e-7);
      }
    }
  }

  @ParameterizedTest(name = "{0}, compilation {1}")
  @MethodSource("callers")
  void withARecordTheMembersAgreeOnBothBranches(Caller caller, int compilation)
      throws Exception {
    Compiled compiled = COMPILED.get(compilation).get();
    Object damping = damping(compiled, 0.8, -0.3);
    MemberAgreement members = agreement(compiled, caller, damping);
    for (double x : new double[] {-0.7, 0.7}) {
      members.checkScalar(caller.arguments(x, damping), caller.order(), 1e-7);
    }
  }

  private static MemberAgreement agreement(Compiled compiled, Caller caller, Object damping)
      throws Exception {
    MemberAgreement members = MemberAgreement.of(compiled, "com.example.Nul", caller.name(),
        caller.active());
    if (!caller.instance()) {
      return members;
    }
    Class<?> nul = compiled.load("com.example.Nul");
    Constructor<?> make = nul.getDeclaredConstructor(compiled.load("com.example.Nul$Damping"));
    make.setAccessible(true);
    return members.on(make.newInstance(damping));
  }

  private static Object damping(Compiled compiled, double k, double c) throws Exception {
    Constructor<?> make = compiled.load("com.example.Nul$Damping")
        .getDeclaredConstructor(double.class, double.class);
    make.setAccessible(true);
    return make.newInstance(k, c);
  }

  /**
   * A callee whose code does not run alike twice (it counts its calls), which a method of
   * order 1 of its class may call since its members are judged on their programs: with a null
   * record it is not run as written first, since with its members it would then run twice where
   * the method runs it once (each member returned the method's value having counted two calls);
   * the record is read at the call, as before there was a null path, so every member throws
   * there, having counted none. With a record every member counts one call, as the method does.
   */
  @org.junit.jupiter.api.Test
  void aCalleeThatCountsIsNeverRunTwiceForANullRecord() throws Exception {
    Compiled compiled = ad4j.processor.testing.InProcessCompiler.compile("com.example.Counted",
        String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "import ad4j.NoDerivative;",
            "final class Counted {",
            "  static int calls;",
            "  static void tick() { calls++; }",
            "  record Rec(double k) {}",
            "  @Differentiable static double g(double x, Rec d) {",
            "    tick();",
            "    return x > 0 ? d.k() * x : x * x;",
            "  }",
            "  @Differentiable static double f(double x, @NoDerivative Rec d) {",
            "    return g(x, d) + x;",
            "  }",
            "}",
            ""));
    Constructor<?> make = compiled.load("com.example.Counted$Rec")
        .getDeclaredConstructor(double.class);
    make.setAccessible(true);
    Object record = make.newInstance(2.0);
    MemberAgreement members = MemberAgreement.of(compiled, "com.example.Counted", "f", true,
        false);
    members.checkScalar(new Object[] {-0.7, record}, 1, 1e-7);
    members.checkScalar(new Object[] {0.7, record}, 1, 1e-7);
    java.lang.reflect.Field calls = compiled.load("com.example.Counted")
        .getDeclaredField("calls");
    calls.setAccessible(true);
    List<String> suffixes = List.of("Gradient", "ValueAndGradient", "Pullback", "Tangent");
    List<Object[]> more = List.of(new Object[0], new Object[] {new double[1]},
        new Object[] {1.0, new double[1]}, new Object[] {1.0});
    for (int i = 0; i < suffixes.size(); i++) {
      String suffix = suffixes.get(i);
      Object[] extra = more.get(i);
      calls.setInt(null, 0);
      assertThrows(NullPointerException.class,
          () -> members.member(suffix, new Object[] {-0.7, null}, extra), suffix);
      com.google.common.truth.Truth.assertWithMessage(suffix).that(calls.getInt(null))
          .isEqualTo(0);
    }
  }
}
