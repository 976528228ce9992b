package ad4j.processor;

import static ad4j.processor.testing.SingleErrors.assertSingleError;
import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.ArrayArguments;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.FlatHessianChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Value records at {@code @Differentiable(order = 2)} (DESIGN.md, part 3): record parameters,
 * whose Hessian is over their flattened slots; record locals, construction and accessors;
 * calls of order-2 methods that take records, records whose compact constructor transforms
 * the values included (passed whole, through the callee's value over the leaves); and methods
 * returning records, vector functions over their leaves that get no Hessian, only the tangent
 * of their pullback that their order-2 callers' sweeps call. Each Hessian against differences
 * of the generated gradient and second differences of the user's method, symmetric, with the
 * Hessian-vector product and {@code mValueGradientAndHessian} ({@link FlatHessianChecks}).
 * {@code float} too: records with float components, float callees and locals, and
 * {@code float[]} vector functions at order 2, against their double twins. The rest: what
 * stays a compile error, each at its line.
 */
@ExtendWith(TapeIsEmpty.class)
class SecondOrderRecordsTest {
  private static final String SHAPES = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Shapes {",
      "  record Vec(double x, double y) {",
      "    @Differentiable(order = 2) double dot(Vec o) { return x * o.x() + y * y * o.y(); }",
      "    /** An instance method of the record returning the record. */",
      "    @Differentiable(order = 2) Vec times(double s) { return new Vec(x * s, y * s * x); }",
      "  }",
      "  /** A result with components that carry no derivative. */",
      "  record Tagged(double v, int id, String name) {}",
      "  record Body(Vec pos, double mass, String name) {}",
      "  /** A unit vector: its compact constructor divides by the norm. */",
      "  record Unit(double x, double y) {",
      "    Unit {",
      "      double n = Math.sqrt(x * x + y * y);",
      "      x = x / n;",
      "      y = y / n;",
      "    }",
      "  }",
      "  record Poly(double[] c, double s) {}",
      "  /** A record parameter with a nested record; locals, construction, accessors. */",
      "  @Differentiable(order = 2) static double energy(Body b, double k) {",
      "    Vec p = b.pos();",
      "    Vec q = new Vec(p.x() * k, p.y() + k);",
      "    return b.mass() * (q.x() * q.x() + Math.sin(q.y()) * p.x());",
      "  }",
      "  /** An order-2 callee taking a record, called with records made in the caller. */",
      "  @Differentiable(order = 2) static double norm2(Vec v) {",
      "    return v.x() * v.x() + v.y() * v.y() * v.x();",
      "  }",
      "  @Differentiable(order = 2) static double callsWithRecord(double a, double b) {",
      "    Vec v = new Vec(a * b, Math.exp(a));",
      "    return norm2(v) + norm2(new Vec(b, a)) * a;",
      "  }",
      "  /** A record parameter passed on whole, and the record's own method. */",
      "  @Differentiable(order = 2) static double passesOn(Vec v, double s) {",
      "    return norm2(v) * s + v.dot(new Vec(s, v.x()));",
      "  }",
      "  /** Methods returning records: vector functions over their leaves. */",
      "  @Differentiable(order = 2) static Vec polar(double r, double t) {",
      "    return new Vec(r * Math.cos(t), r * Math.sin(t));",
      "  }",
      "  @Differentiable(order = 2) static Vec rotate(Vec v, double t) {",
      "    double c = Math.cos(t);",
      "    double s = Math.sin(t);",
      "    return new Vec(c * v.x() - s * v.y(), s * v.x() + c * v.y() * v.y());",
      "  }",
      "  @Differentiable(order = 2) static double callsReturningRecord(double r, double t) {",
      "    Vec p = polar(r * r, t);",
      "    Vec q = rotate(p, r);",
      "    return p.x() * q.y() + Math.exp(q.x());",
      "  }",
      "  /** A record result in a loop, the record parameter its start. */",
      "  @Differentiable(order = 2) static double orbit(Vec v0, double w, int n) {",
      "    Vec v = v0;",
      "    double s = 0;",
      "    for (int i = 0; i < n; i++) {",
      "      v = rotate(v, w * (i + 1));",
      "      s += v.x() * v.y();",
      "    }",
      "    return s + norm2(v);",
      "  }",
      "  /** Nested records and data components in results, in branches, an instance method. */",
      "  @Differentiable(order = 2) static Body moved(Body b, double t) {",
      "    Vec p = b.pos().times(t);",
      "    double m = Math.exp(t);",
      "    if (t > 0) {",
      "      p = rotate(p, b.mass());",
      "      m = b.mass() * t;",
      "    }",
      "    return new Body(p, m, b.name());",
      "  }",
      "  @Differentiable(order = 2) static Tagged tag(Vec v, int id, String name) {",
      "    return new Tagged(v.x() * v.y() + id, id, name);",
      "  }",
      "  @Differentiable(order = 2) static double callsNested(Body b, double t) {",
      "    Body m = moved(b, t);",
      "    Tagged g = tag(m.pos(), 3, \"g\");",
      "    return m.mass() * m.pos().x() + g.v() * g.v() + Other.spin(m.pos(), t).y();",
      "  }",
      "  /** A record whose constructor transforms: a local, passed whole to an order-2 callee. */",
      "  @Differentiable(order = 2) static double area(Unit u) {",
      "    return u.x() * u.y() + u.x() * u.x() * u.x();",
      "  }",
      "  @Differentiable(order = 2) static double direction(double a, double b) {",
      "    Unit u = new Unit(a, b);",
      "    return area(u) + u.x() * a * b;",
      "  }",
      "  /** ... a parameter, passed on whole; its twin takes the components. */",
      "  @Differentiable(order = 2) static double onUnit(Unit u, double s) {",
      "    return area(u) * s + u.y() * s * s;",
      "  }",
      "  @Differentiable(order = 2) static double onUnitTwin(double x, double y, double s) {",
      "    return (x * y + x * x * x) * s + y * s * s;",
      "  }",
      "  /** ... passed whole to an order-2 method returning a record. */",
      "  @Differentiable(order = 2) static Vec scaled(Unit u, double s) {",
      "    return new Vec(u.x() * s, u.y() * s * s);",
      "  }",
      "  @Differentiable(order = 2) static double viaScaled(double a, double b) {",
      "    Unit u = new Unit(a, b);",
      "    Vec v = scaled(u, a);",
      "    return v.x() * v.y() + area(u) * b;",
      "  }",
      "  /** A record with an array component. */",
      "  @Differentiable(order = 2) static double poly(Poly p, double x) {",
      "    double s = 0;",
      "    double t = 1;",
      "    for (int i = 0; i < p.c().length; i++) {",
      "      s += p.c()[i] * t;",
      "      t *= x * p.s();",
      "    }",
      "    return s * s;",
      "  }",
      "  /** float: a record with a float component returned, a float callee, float locals. */",
      "  record Mixed(double x, float y) {}",
      "  @Differentiable(order = 2) static Mixed mixed(double a, float b) {",
      "    return new Mixed(a * b, b * b * (float) a);",
      "  }",
      "  @Differentiable(order = 2) static float square(float a, double b) {",
      "    return a * a * (float) b;",
      "  }",
      "  @Differentiable(order = 2) static double inFloat(double a, float b) {",
      "    float t = b * (float) a;",
      "    Mixed v = mixed(a, t);",
      "    return square(t, a) * v.x() + v.y() * v.y() * a;",
      "  }",
      "  /** Its twin in double. */",
      "  @Differentiable(order = 2) static Vec twin(double a, double b) {",
      "    return new Vec(a * b, b * b * a);",
      "  }",
      "  @Differentiable(order = 2) static double twinSquare(double a, double b) {",
      "    return a * a * b;",
      "  }",
      "  @Differentiable(order = 2) static double inDouble(double a, double b) {",
      "    double t = b * a;",
      "    Vec v = twin(a, t);",
      "    return twinSquare(t, a) * v.x() + v.y() * v.y() * a;",
      "  }",
      "  /** float[]: a vector function of a float[] parameter, called in a loop. */",
      "  @Differentiable(order = 2) static float[] floatStep(float[] y, double k) {",
      "    float[] r = new float[y.length];",
      "    for (int i = 0; i < y.length; i++) {",
      "      r[i] = y[i] + (float) (k * Math.sin(y[(i + 1) % y.length])) * y[i];",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable(order = 2) static double floatTrajectory(float[] y0, double k) {",
      "    float[] y = y0.clone();",
      "    double s = 0;",
      "    for (int n = 0; n < 3; n++) {",
      "      float[] z = floatStep(y, k);",
      "      for (int i = 0; i < y.length; i++) {",
      "        y[i] = z[i];",
      "      }",
      "      s += y[0] > 0 ? y[0] * y[1] : -y[1];",
      "    }",
      "    return s + k * y[0];",
      "  }",
      "  /** Its twin in double. */",
      "  @Differentiable(order = 2) static double[] doubleStep(double[] y, double k) {",
      "    double[] r = new double[y.length];",
      "    for (int i = 0; i < y.length; i++) {",
      "      r[i] = y[i] + k * Math.sin(y[(i + 1) % y.length]) * y[i];",
      "    }",
      "    return r;",
      "  }",
      "  @Differentiable(order = 2) static double doubleTrajectory(double[] y0, double k) {",
      "    double[] y = y0.clone();",
      "    double s = 0;",
      "    for (int n = 0; n < 3; n++) {",
      "      double[] z = doubleStep(y, k);",
      "      for (int i = 0; i < y.length; i++) {",
      "        y[i] = z[i];",
      "      }",
      "      s += y[0] > 0 ? y[0] * y[1] : -y[1];",
      "    }",
      "    return s + k * y[0];",
      "  }",
      "  @Differentiable(order = 2) static double callsPoly(double a, double b) {",
      "    double[] c = {a, a * b, b};",
      "    return poly(new Poly(c, a), b) + Math.sin(a);",
      "  }",
      "}");

  /** A method returning a record, in another class. */
  private static final String OTHER = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "public final class Other {",
      "  @Differentiable(order = 2) static Shapes.Vec spin(Shapes.Vec v, double w) {",
      "    return new Shapes.Vec(v.x() * Math.cos(w * v.y()), v.y() * Math.sin(w));",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Shapes", SHAPES, "com.example.Other", OTHER));

  private static final CompiledOnce IN_PARTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror", "-Aad4j.partSize=8"),
          "com.example.Shapes", SHAPES, "com.example.Other", OTHER));

  static Stream<Call> calls() throws Exception {
    return calls(COMPILED.get());
  }

  static Stream<Call> callsInParts() throws Exception {
    return calls(IN_PARTS.get());
  }

  /** The calls, their records made of the classes {@code compiled} loaded. */
  private static Stream<Call> calls(InProcessCompiler.Compiled compiled) throws Exception {
    Class<?> vec = compiled.load("com.example.Shapes$Vec");
    Class<?> body = compiled.load("com.example.Shapes$Body");
    Class<?> poly = compiled.load("com.example.Shapes$Poly");
    return Stream.of(
        new Call("energy", new Object[] {Records.make(body, Records.make(vec, 0.7, -0.4), 1.3,
            "b"), 0.9}, true, true),
        new Call("callsWithRecord", new Object[] {0.6, -0.8}, true, true),
        new Call("passesOn", new Object[] {Records.make(vec, 0.5, 1.2), -0.7}, true, true),
        new Call("callsReturningRecord", new Object[] {0.8, 0.6}, true, true),
        new Call("callsReturningRecord", new Object[] {-1.1, 2.3}, true, true),
        new Call("callsNested", new Object[] {Records.make(body, Records.make(vec, 0.7, -0.4),
            1.3, "b"), 0.6}, true, true),
        new Call("callsNested", new Object[] {Records.make(body, Records.make(vec, -0.2, 0.5),
            0.8, "c"), -0.9}, true, true),
        new Call("orbit", new Object[] {Records.make(vec, 0.9, 0.3), 0.4, 3}, true, true,
            false),
        new Call("direction", new Object[] {0.6, 1.4}, true, true),
        new Call("viaScaled", new Object[] {0.6, -1.3}, true, true),
        new Call("onUnitTwin", new Object[] {0.6, 0.8, 1.7}, true, true, true),
        new Call("inDouble", new Object[] {0.7, 1.3}, true, true),
        new Call("doubleTrajectory", new Object[] {new double[] {0.6, -0.3, 0.9}, 0.7}, true,
            true),
        new Call("poly", new Object[] {Records.make(poly, new double[] {0.3, -0.6, 1.1}, 0.8),
            0.9}, true, true),
        new Call("callsPoly", new Object[] {0.4, 1.2}, true, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void hessiansWithRecordsAreExact(Call call) throws Exception {
    FlatHessianChecks.of(COMPILED.get(), "com.example.Shapes").check(call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("callsInParts")
  void hessiansWithRecordsAreExactWithTheSweepsCutIntoParts(Call call) throws Exception {
    FlatHessianChecks.of(IN_PARTS.get(), "com.example.Shapes").check(call);
  }

  @Test
  void aMethodReturningARecordGetsNoHessianOnlyTheTangentOfItsPullbackForCallers() {
    List<String> members = names("com.example.ShapesGrad");
    assertThat(members).containsAtLeast("polarJacobian", "polarTangent", "polarPullback",
        "polarPullbackTangent", "rotatePullbackTangent", "floatStepPullbackTangent",
        "callsReturningRecordHessian");
    assertThat(members.stream().filter(n -> n.startsWith("polarHessian")
        || n.startsWith("rotateValueGradientAndHessian") || n.startsWith("floatStepHessian"))
        .toList()).isEmpty();
    // callers' code, not the contract's: package-private
    assertThat(Arrays.stream(COMPILED.get().load("com.example.ShapesGrad").getDeclaredMethods())
        .filter(m -> m.getName().endsWith("PullbackTangent")
            && java.lang.reflect.Modifier.isPublic(m.getModifiers())).toList()).isEmpty();
    assertThat(names("com.example.OtherGradSweeps")).contains("spinPullbackTangent");
  }

  /**
   * A parameter of a record whose constructor transforms, passed on whole: its slots are its
   * components as they are (the callee's value over the leaves runs no constructor again), so
   * the Hessian is its twin's over the components (checked against differences above). The
   * user's method cannot be moved slot by slot: the constructor would normalise each move.
   */
  @Test
  void aRecordParameterWhoseConstructorTransformsHasTheHessianOverItsComponents()
      throws Exception {
    Class<?> grad = COMPILED.get().load("com.example.ShapesGrad");
    Object unit = Records.make(COMPILED.get().load("com.example.Shapes$Unit"), 0.6, 0.8);
    double[][] hessian = (double[][]) Records.call(grad, "onUnitHessian", unit, 1.7);
    double[][] twin = (double[][]) Records.call(grad, "onUnitTwinHessian", 0.6, 0.8, 1.7);
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        assertWithMessage("H[%s][%s]", i, j).that(hessian[i][j])
            .isWithin(1e-12 * Math.max(1, Math.abs(twin[i][j]))).of(twin[i][j]);
      }
    }
    double[] v = {0.4, -0.9, 1.3};
    HessianChecks.assertProduct(hessian, v,
        (double[]) Records.call(grad, "onUnitHessianVector", unit, 1.7, v), "onUnit");
  }

  /**
   * Hessians of methods computing in float, computed in double over the float values they
   * compute, against their double twins' (checked against differences above): float's rounding
   * apart, the same. A record with a float component returned, a float callee and locals.
   */
  @Test
  void floatComponentsCalleesAndLocalsHaveTheHessianOfTheirDoubleTwin() throws Exception {
    for (double[] p : new double[][] {{0.7, 1.3}, {-0.4, 0.9}}) {
      assertHessianOfTwin("inFloat", new Object[] {p[0], (float) p[1]}, "inDouble",
          new Object[] {p[0], (double) (float) p[1]});
    }
  }

  /** A float[] vector function of a float[] parameter, called in a loop. */
  @Test
  void floatArrayFunctionsHaveTheHessianOfTheirDoubleTwin() throws Exception {
    float[] y = {0.6f, -0.3f, 0.9f};
    assertHessianOfTwin("floatTrajectory", new Object[] {y, 0.7}, "doubleTrajectory",
        new Object[] {new double[] {y[0], y[1], y[2]}, 0.7});
  }

  /**
   * The Hessian of {@code name} at {@code arguments} within float's rounding of its twin's at
   * the same point, its product with a vector that Hessian's, and its value with gradient and
   * Hessian the method's value bit for bit with the same Hessian.
   */
  private static void assertHessianOfTwin(String name, Object[] arguments, String twin,
      Object[] twinArguments) throws Exception {
    Class<?> user = COMPILED.get().load("com.example.Shapes");
    Class<?> grad = COMPILED.get().load("com.example.ShapesGrad");
    double[][] hessian = (double[][]) Records.call(grad, name + "Hessian", arguments);
    double[][] expected = (double[][]) Records.call(grad, twin + "Hessian", twinArguments);
    int n = expected.length;
    assertThat(hessian.length).isEqualTo(n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        assertWithMessage("H[%s][%s] of %s", i, j, name).that(hessian[i][j])
            .isWithin(1e-5 * Math.max(1, Math.abs(expected[i][j]))).of(expected[i][j]);
      }
    }
    double[] v = new java.util.Random(7).doubles(n, -1, 1).toArray();
    double[] product = (double[]) Records.call(grad, name + "HessianVector",
        ArrayArguments.append(arguments, v));
    HessianChecks.assertProduct(hessian, v, product, name);
    double[] gradient = new double[n];
    double[][] written = new double[n][n];
    double value = (double) Records.call(grad, name + "ValueGradientAndHessian",
        ArrayArguments.append(arguments, gradient, written));
    assertThat(value).isEqualTo((double) Records.call(user, name, arguments));
    assertThat(written).isEqualTo(hessian);
  }

  @Test
  void aMethodReturningARecordOfOrderOneCalledAtOrderTwoIsAnErrorAtTheCall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {}",
        "  @Differentiable static V g(double x) { return new V(x * x, x); }",
        "  @Differentiable(order = 2) static double f(double x) {",
        "    V v = g(x);",
        "    return v.a() * v.b();",
        "  }",
        "}");

    assertSingleError(lines, "call to 'g(...)' from method 'f', which is"
        + " @Differentiable(order = 2): 'F.g' must be @Differentiable(order = 2) as well, so"
        + " that ad4j generates the second derivatives this call needs", 7,
        lines.get(6).indexOf("(x)") + 1);
  }

  @Test
  void aRecordWhoseConstructorTransformsReturnedAtOrderTwoIsAnErrorAtTheReturn() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record Unit(double x, double y) {",
        "    Unit {",
        "      double n = Math.sqrt(x * x + y * y);",
        "      x = x / n;",
        "      y = y / n;",
        "    }",
        "  }",
        "  @Differentiable(order = 2) static Unit towards(double a, double b) {",
        "    return new Unit(a * b, a + b);",
        "  }",
        "}");

    assertSingleError(lines, "'new Unit(a * b, a + b)' is returned as value record 'Unit',"
        + " whose constructor changes its components: the generated members make the record of"
        + " the result's components and of its tangents, and would run its code on them again;"
        + " ad4j does not yet return such records", 12, lines.get(11).indexOf("new") + 1);
  }

  private static List<String> names(String generatedClass) {
    return Arrays.stream(COMPILED.get().load(generatedClass).getDeclaredMethods())
        .map(Method::getName).toList();
  }
}
