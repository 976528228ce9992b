package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.GradientCheck;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Value records (DESIGN.md, part 3), flattened into their {@code double} leaves: record
 * parameters take one gradient slot per leaf, depth first, and their tangents are records of the
 * same type; record locals, {@code new}, accessors, component reads and the record's own methods
 * (inlined, static and instance, calling each other) inside the method, in loops too; a
 * {@code @NoDerivative} record is read through its accessors. Each derivative against
 * differences of the user's own method and forward against reverse.
 */
@ExtendWith(TapeIsEmpty.class)
class ValueRecordsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Orbits {",
      "  record Vec3(double x, double y, double z) {",
      "    Vec3 plus(Vec3 o) { return new Vec3(x + o.x, y + o.y, z + o.z()); }",
      "    Vec3 minus(Vec3 o) { return new Vec3(x - o.x, this.y - o.y, z - o.z); }",
      "    Vec3 scale(double k) { return new Vec3(k * x, k * y, k * z); }",
      "    double dot(Vec3 o) { return x * o.x + y * o.y + z * o.z; }",
      "    double norm() {",
      "      double s = dot(this);",
      "      return Math.sqrt(s);",
      "    }",
      "    static Vec3 cross(Vec3 a, Vec3 b) {",
      "      return new Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);",
      "    }",
      "  }",
      "  record Body(Vec3 pos, double mass) {",
      "    @Differentiable double energy(double g) {",
      "      return 0.5 * mass * pos.dot(pos) + mass * g * pos().z();",
      "    }",
      "  }",
      "  @Differentiable static double spring(Vec3 p, Vec3 q, double k) {",
      "    Vec3 d = p.minus(q);",
      "    double r = d.norm();",
      "    return 0.5 * k * (r - 1) * (r - 1) + Vec3.cross(p, q).dot(d);",
      "  }",
      "  @Differentiable static double orbit(Vec3 p0, Vec3 v0, double dt, int steps) {",
      "    Vec3 p = p0;",
      "    var v = v0;",
      "    for (int i = 0; i < steps; i++) {",
      "      double r = p.norm();",
      "      Vec3 a = p.scale(-1.0 / (r * r * r));",
      "      v = v.plus(a.scale(dt));",
      "      p = p.plus(v.scale(dt));",
      "    }",
      "    return 0.5 * v.dot(v) - 1 / p.norm();",
      "  }",
      "  @Differentiable static double potential(Body b, @NoDerivative Vec3 g, double h) {",
      "    return b.mass() * b.pos().plus(new Vec3(0, 0, h)).dot(g) + b.pos.x() * h;",
      "  }",
      "}");

  private static final CompiledOnce ORBITS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Orbits", SOURCE));

  private Class<?> vec3() {
    return ORBITS.get().load("com.example.Orbits$Vec3");
  }

  private Object vec(double x, double y, double z) throws Exception {
    return record(vec3(), x, y, z);
  }

  private Object body(Object pos, double mass) throws Exception {
    return record(ORBITS.get().load("com.example.Orbits$Body"), pos, mass);
  }

  private static Object record(Class<?> type, Object... components) throws Exception {
    return Records.make(type, components);
  }

  private static Object call(Class<?> owner, String name, Object... arguments)
      throws Exception {
    return Records.call(owner, name, arguments);
  }

  private Object user(String name, Object... arguments) throws Exception {
    return call(ORBITS.get().load("com.example.Orbits"), name, arguments);
  }

  private Object generated(String name, Object... arguments) throws Exception {
    return call(ORBITS.get().load("com.example.OrbitsGrad"), name, arguments);
  }

  private ToDoubleFunction<double[]> unchecked(ThrowingFunction f) {
    return x -> {
      try {
        return f.apply(x);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
  }

  private interface ThrowingFunction {
    double apply(double[] x) throws Exception;
  }

  private static void assertDot(double tangent, double[] gradient, double[] direction) {
    double dot = 0;
    for (int i = 0; i < gradient.length; i++) {
      dot += gradient[i] * direction[i];
    }
    assertThat(tangent).isWithin(1e-12 * (1 + Math.abs(dot))).of(dot);
  }

  /**
   * Whether {@code member} is the package-private tangent or value over the leaves of a method
   * taking or returning records, which the forward sweep of callers calls (for those of other
   * classes through {@code FooGradSweeps}): {@code mTangentFlat}, {@code mValueFlat}, or an
   * {@code mTangent} taking no record beside one that does.
   */
  private static boolean isFlatTangent(Method member) {
    if (member.getName().endsWith("TangentFlat") || member.getName().endsWith("ValueFlat")) {
      return true;
    }
    return member.getName().endsWith("Tangent")
        && Arrays.stream(member.getParameterTypes()).noneMatch(Class::isRecord)
        && Arrays.stream(member.getDeclaringClass().getDeclaredMethods()).anyMatch(other ->
            other.getName().equals(member.getName())
                && Arrays.stream(other.getParameterTypes()).anyMatch(Class::isRecord));
  }

  @Test
  void theContractsMembersTakeTheRecordAndItsTangentAsARecord() throws Exception {
    Class<?> grad = ORBITS.get().load("com.example.OrbitsGrad");
    Class<?> vec = vec3();
    List<String> signatures = Arrays.stream(grad.getDeclaredMethods())
        .filter(m -> m.getName().startsWith("spring") && !Modifier.isPrivate(m.getModifiers())
            && m.getParameterTypes()[0] != ad4j.runtime.internal.Tape.class && !isFlatTangent(m))
        .map(m -> m.getName() + Arrays.toString(m.getParameterTypes()))
        .sorted().toList();
    String v = vec.toString();
    assertThat(signatures).containsExactly(
        "springGradient[" + v + ", " + v + ", double]",
        "springPullback[" + v + ", " + v + ", double, double, class [D]",
        "springTangent[" + v + ", " + v + ", double, " + v + ", " + v + ", double]",
        "springValueAndGradient[" + v + ", " + v + ", double, class [D]");
  }

  @Test
  void gradientOfASpringOverRecordMethodsInlined() throws Exception {
    double[] x = {0.3, -1.2, 0.8, 1.1, 0.4, -0.5, 2.0};
    ToDoubleFunction<double[]> f = unchecked(point -> (Double) user("spring",
        vec(point[0], point[1], point[2]), vec(point[3], point[4], point[5]), point[6]));
    double[] gradient = (double[]) generated("springGradient", vec(x[0], x[1], x[2]),
        vec(x[3], x[4], x[5]), x[6]);
    assertThat(gradient).hasLength(7); // p's 3 slots, q's 3, then k
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    double[] out = new double[7];
    assertThat((Double) generated("springValueAndGradient", vec(x[0], x[1], x[2]),
        vec(x[3], x[4], x[5]), x[6], out)).isEqualTo(f.applyAsDouble(x));
    assertThat(out).usingExactEquality().containsExactly(gradient).inOrder();
    double[] d = {0.5, -0.25, 1.5, -2.0, 0.75, 0.1, -0.3};
    double tangent = (Double) generated("springTangent", vec(x[0], x[1], x[2]),
        vec(x[3], x[4], x[5]), x[6], vec(d[0], d[1], d[2]), vec(d[3], d[4], d[5]), d[6]);
    assertDot(tangent, gradient, d);
  }

  @Test
  void gradientOfAnOrbitWhoseRecordLocalsChangeInALoop() throws Exception {
    double[] x = {1.0, 0.1, -0.2, 0.05, 0.9, 0.1};
    int steps = 40;
    double dt = 0.01;
    ToDoubleFunction<double[]> f = unchecked(point -> (Double) user("orbit",
        vec(point[0], point[1], point[2]), vec(point[3], point[4], point[5]), dt, steps));
    double[] all = (double[]) generated("orbitGradient", vec(x[0], x[1], x[2]),
        vec(x[3], x[4], x[5]), dt, steps);
    assertThat(all).hasLength(7); // and dt's slot last
    double[] gradient = Arrays.copyOf(all, 6);
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    double[] d = {0.5, -0.25, 1.5, -2.0, 0.75, 0.1};
    double tangent = (Double) generated("orbitTangent", vec(x[0], x[1], x[2]),
        vec(x[3], x[4], x[5]), dt, steps, vec(d[0], d[1], d[2]), vec(d[3], d[4], d[5]), 0.0);
    assertDot(tangent, gradient, d);
    double[] adjoints = new double[7];
    assertThat((Double) generated("orbitPullback", vec(x[0], x[1], x[2]),
        vec(x[3], x[4], x[5]), dt, steps, 1.0, adjoints)).isEqualTo(f.applyAsDouble(x));
    for (int i = 0; i < 7; i++) {
      assertThat(adjoints[i]).isWithin(1e-12 * (1 + Math.abs(all[i]))).of(all[i]);
    }
  }

  @Test
  void nestedRecordsTakeTheirLeavesDepthFirstAndANoDerivativeRecordIsData() throws Exception {
    Object g = vec(0.2, -0.7, 9.81);
    double[] x = {0.4, 1.3, -0.6, 2.5, 0.9}; // pos.x, pos.y, pos.z, mass, h
    ToDoubleFunction<double[]> f = unchecked(point -> (Double) user("potential",
        body(vec(point[0], point[1], point[2]), point[3]), g, point[4]));
    double[] gradient = (double[]) generated("potentialGradient",
        body(vec(x[0], x[1], x[2]), x[3]), g, x[4]);
    assertThat(gradient).hasLength(5);
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    // by hand: m ((pos + h e_z) . g) + pos.x h
    double dotted = x[0] * 0.2 + x[1] * -0.7 + (x[2] + x[4]) * 9.81;
    assertThat(gradient[0]).isWithin(1e-13).of(x[3] * 0.2 + x[4]);
    assertThat(gradient[3]).isWithin(1e-13).of(dotted);
    assertThat(gradient[4]).isWithin(1e-13).of(x[3] * 9.81 + x[0]);
  }

  @Test
  void anInstanceMethodOfAValueRecordDifferentiatesWithRespectToItsReceiverFirst()
      throws Exception {
    Class<?> bodyType = ORBITS.get().load("com.example.Orbits$Body");
    double[] x = {0.4, 1.3, -0.6, 2.5, 9.81}; // pos.x, pos.y, pos.z, mass, g
    ToDoubleFunction<double[]> f = unchecked(point -> {
      Method energy = bodyType.getDeclaredMethod("energy", double.class);
      energy.setAccessible(true);
      return (Double) energy.invoke(body(vec(point[0], point[1], point[2]), point[3]),
          point[4]);
    });
    // the members of a nested record's methods are in its own generated class
    Class<?> grad = ORBITS.get().load("com.example.Orbits_BodyGrad");
    double[] gradient = (double[]) call(grad, "energyGradient",
        body(vec(x[0], x[1], x[2]), x[3]), x[4]);
    assertThat(gradient).hasLength(5); // the receiver's four leaves first
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    assertThat(gradient[3]).isWithin(1e-13)
        .of(0.5 * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) + x[4] * x[2]);
    double[] d = {0.5, -0.25, 1.5, -2.0, 0.75};
    double tangent = (Double) call(grad, "energyTangent", body(vec(x[0], x[1], x[2]), x[3]),
        x[4], body(vec(d[0], d[1], d[2]), d[3]), d[4]);
    assertDot(tangent, gradient, d);
  }

  private static void assertRejected(String source, String message, int line) {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(line);
  }

  @Test
  void aRecordPassedToAnotherMethodIsAnError() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {}",
        "  static double show(Object o) { return o.hashCode(); }",
        "  @Differentiable static double f(V v) {",
        "    return v.a() * show(v);",
        "  }",
        "}"),
        "'v' is a value record, which ad4j flattens into its components: read them through its"
            + " accessors, assign it, or pass it to its own methods; passing it elsewhere (to"
            + " other methods, as an object) is not supported yet", 7);
  }

  @Test
  void aRecordWhoseCanonicalConstructorIsNotCompactIsAnErrorWhereItIsMade() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {",
        "    V(double a, double b) { this.a = Math.abs(a); this.b = b; }",
        "  }",
        "  @Differentiable static double f(double x) {",
        "    V v = new V(x, 2 * x);",
        "    return v.a() * v.b();",
        "  }",
        "}"),
        "'new V(...)': record 'V' declares a canonical constructor that is not a compact one,"
            + " and ad4j does not yet flatten records whose constructors set their fields"
            + " themselves; write it as a compact constructor ('V { ... }'), which assigns the"
            + " components", 8);
  }

  @Test
  void aCompactConstructorsChecksRunAsWrittenWhereTheRecordIsMade() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Checked", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Checked {",
            "  record V(double a, double b) {",
            "    V {",
            "      if (-a > 0 || !(b == b)) throw new IllegalArgumentException(\"a < 0: \" + a);",
            "    }",
            "    double prod() { return a * b; }",
            "  }",
            "  record W(V v, double c) {",
            "    W { if (c > 100) throw new IllegalStateException(\"big\"); }",
            "  }",
            "  @Differentiable static V g(V v, double k) { return new V(v.a() * k, v.b()); }",
            "  @Differentiable static double f(double x, double y) {",
            "    V v = new V(x * y, y);",
            "    double p = g(v, y).prod();",
            "    double s = 0;",
            "    for (int i = 0; i < 3; i++) {",
            "      W w = new W(new V(x + i, y), s);",
            "      s += w.v().prod() + p * w.c();",
            "    }",
            "    return s;",
            "  }",
            "}"));
    Class<?> user = compiled.load("com.example.Checked");
    Class<?> grad = compiled.load("com.example.CheckedGrad");
    double[] x = {0.5, 1.5};
    ToDoubleFunction<double[]> f = unchecked(p -> (Double) call(user, "f", p[0], p[1]));
    double[] gradient = (double[]) call(grad, "fGradient", x[0], x[1]);
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    double[] d = {0.4, -0.9};
    assertDot((Double) call(grad, "fTangent", x[0], x[1], d[0], d[1]), gradient, d);
    // where the user's code throws, so do the members, with the check's own exception
    for (String member : List.of("fGradient", "fTangent")) {
      Object[] arguments = member.equals("fGradient") ? new Object[] {-0.5, 1.5}
          : new Object[] {-0.5, 1.5, 1.0, 0.0};
      Method method = Arrays.stream(grad.getDeclaredMethods())
          .filter(m -> m.getName().equals(member) && !Modifier.isPrivate(m.getModifiers())
              && m.getParameterCount() == arguments.length)
          .findFirst().orElseThrow();
      method.setAccessible(true);
      InvocationTargetException thrown = org.junit.jupiter.api.Assertions.assertThrows(
          InvocationTargetException.class, () -> method.invoke(null, arguments));
      assertThat(thrown.getCause()).isInstanceOf(IllegalArgumentException.class);
      assertThat(thrown.getCause()).hasMessageThat().isEqualTo("a < 0: -0.75");
    }
  }

  @Test
  void aRecordMixingDoublesAndOtherComponentsIsAnErrorAsAParameter() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record P(double a, float[] c) {}",
        "  @Differentiable static double f(P p, double x) {",
        "    return p.a() * x;",
        "  }",
        "}"),
        "parameter 'p' of @Differentiable method 'f' has type 'com.example.F.P': a record whose"
            + " components carry derivatives beside one ad4j does not flatten yet (component 'c'"
            + " of type 'float[]';", 5);
  }

  @Test
  void aRecordPassedToAMethodOfTheSameClassIsPassedFlattened() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Calls", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Calls {",
            "  record V(double a, double b) {}",
            "  @Differentiable static double g(V v, double s) {",
            "    return Math.sin(v.a()) * v.b() * s;",
            "  }",
            "  @Differentiable static double f(double x, double y) {",
            "    V v = new V(x * y, 2);",
            "    double t = 0;",
            "    for (int i = 0; i < 3; i++) {",
            "      t += g(v, i + 1) + g(new V(y, x), x);",
            "    }",
            "    return t;",
            "  }",
            "}"));
    Class<?> user = compiled.load("com.example.Calls");
    Class<?> grad = compiled.load("com.example.CallsGrad");
    double[] x = {0.7, -1.3};
    ToDoubleFunction<double[]> f = unchecked(p -> (Double) call(user, "f", p[0], p[1]));
    double[] gradient = (double[]) call(grad, "fGradient", x[0], x[1]);
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    double tangent = (Double) call(grad, "fTangent", x[0], x[1], 0.4, -0.9);
    assertDot(tangent, gradient, new double[] {0.4, -0.9});
  }

  @Test
  void anInlinedRecordMethodsNamesResolveInTheRecordsScopeNotTheCallers() throws Exception {
    // B.scale doubles, A.scale triples: the record's 'scale(x)' is B's, as Java resolves it
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.A", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class A {",
            "  @Differentiable static double scale(double t) { return 3 * t; }",
            "  @Differentiable static double f(double x) {",
            "    B.V v = new B.V(x);",
            "    return v.scaled();",
            "  }",
            "  static final class B {",
            "    @Differentiable static double scale(double t) { return 2 * t; }",
            "    record V(double a) {",
            "      double scaled() { return scale(a); }",
            "    }",
            "  }",
            "}"));
    Class<?> grad = compiled.load("com.example.AGrad");
    double[] gradient = (double[]) call(grad, "fGradient", 0.7);
    assertThat(gradient[0]).isEqualTo(2.0);
    assertThat((Double) call(compiled.load("com.example.A"), "f", 0.7)).isEqualTo(1.4);
  }

  @Test
  void theHessianOfAnOrderTwoMethodTakesTheRecordsLeavesAsItsFirstSlots() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Second", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Second {",
            "  record V(double a, double b) { double aa() { return a * a; } }",
            "  @Differentiable(order = 2) static double f(V v, double s) {",
            "    return v.aa() * s + v.b() * s * s;",
            "  }",
            "}"));
    Class<?> vType = compiled.load("com.example.Second$V");
    double a = 0.3;
    double b = -0.7;
    double s = 1.1;
    double[][] hessian = (double[][]) call(compiled.load("com.example.SecondGrad"), "fHessian",
        record(vType, a, b), s);
    // by hand: f = a^2 s + b s^2
    double[][] expected = {{2 * s, 0, 2 * a}, {0, 0, 2 * s}, {2 * a, 2 * s, 2 * b}};
    for (int i = 0; i < 3; i++) {
      assertThat(hessian[i]).usingTolerance(1e-14).containsExactly(expected[i]).inOrder();
    }
  }

  @Test
  void aLeafNamedLikeAnotherParameterKeepsEveryValueInItsPlace() throws Exception {
    // the record p's leaf x would be named pX, which the method's first parameter is called
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Names", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Names {",
            "  record V(double x, double y) {}",
            "  @Differentiable static double f(double pX, V p, double s) {",
            "    return p.x() * 10 + pX * 100 + p.y() + s * 1000;",
            "  }",
            "  @Differentiable static double g(double pYDot, V p) {",
            "    return p.y() * 10 + pYDot * 100;",
            "  }",
            "}"));
    Class<?> vType = compiled.load("com.example.Names$V");
    Class<?> grad = compiled.load("com.example.NamesGrad");
    Method gradient = grad.getDeclaredMethod("fGradient", double.class, vType, double.class);
    gradient.setAccessible(true);
    double[] g = (double[]) gradient.invoke(null, 0.5, record(vType, 0.25, 0.75), 2.0);
    // slots in parameter order: pX, then p's x and y, then s
    assertThat(g).usingExactEquality().containsExactly(100.0, 10.0, 1.0, 1000.0).inOrder();
    Method value = grad.getDeclaredMethod("fValueAndGradient", double.class, vType,
        double.class, double[].class);
    value.setAccessible(true);
    assertThat((Double) value.invoke(null, 0.5, record(vType, 0.25, 0.75), 2.0,
        new double[4])).isEqualTo(0.25 * 10 + 0.5 * 100 + 0.75 + 2000.0);
    // p's leaf y (pY) would have a tangent named pYDot, which the first parameter is called
    Method tangent = grad.getDeclaredMethod("gTangent", double.class, vType, double.class,
        vType);
    tangent.setAccessible(true);
    assertThat((Double) tangent.invoke(null, 0.5, record(vType, 0.25, 0.75), 1.0,
        record(vType, 0.0, 0.0))).isEqualTo(100.0);
    assertThat((Double) tangent.invoke(null, 0.5, record(vType, 0.25, 0.75), 0.0,
        record(vType, 3.0, 1.0))).isEqualTo(10.0);
  }

  @Test
  void staticFinalRecordConstantsAreReadAsConstants() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Constants", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Constants {",
            "  record V(double a, double b) {",
            "    V plus(V o) { return new V(a + o.a, b + o.b); }",
            "    double dot(V o) { return a * o.a + b * o.b; }",
            "  }",
            "  static final V G = new V(0.5, -2);",
            "  static final class Table { static final V H = new V(1, 3); }",
            "  static double weight(V v, double s) { return v.a() * s; }",
            "  @Differentiable static double g(V v, double s) { return v.dot(G) * s; }",
            "  @Differentiable static double f(V p, double s) {",
            "    double shown = String.valueOf(G).isEmpty() ? 1 : 0;",
            "    return p.plus(G).dot(Table.H) * s + G.a() + g(p, s) + g(G, s) + shown;",
            "  }",
            "}"));
    Class<?> vType = compiled.load("com.example.Constants$V");
    double a = 0.3;
    double b = -0.7;
    double s = 1.1;
    double[] gradient = (double[]) call(compiled.load("com.example.ConstantsGrad"),
        "fGradient", record(vType, a, b), s);
    // by hand: ((a + 0.5) + 3 (b - 2)) s + 0.5 + (0.5 a - 2 b) s + (0.25 + 4) s
    assertThat(gradient).usingTolerance(1e-14).containsExactly(s + 0.5 * s, 3 * s - 2 * s,
        (a + 0.5) + 3 * (b - 2) + (0.5 * a - 2 * b) + 4.25).inOrder();
  }

  @Test
  void aRecordPassedToAMethodOfAnotherClassWorks() {
    // an error until records were passed between classes: now differentiated through G's members
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.F", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class F {",
            "  @Differentiable static double f(double x) {",
            "    G.V v = new G.V(x, 1);",
            "    return G.g(v);",
            "  }",
            "}"), "com.example.G", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class G {",
            "  record V(double a, double b) {}",
            "  @Differentiable static double g(V v) { return v.a() * v.b() * Math.sin(v.a()); }",
            "}"));
    DerivativeChecks.checkAt(compiled.function("com.example.F", "f", 1), 0.7);
  }

  private static final CompiledOnce MOTION = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Motion",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Motion {",
              "  record V(double a, double b) {",
              "    V scale(double k) { return new V(k * a, k * b); }",
              "  }",
              "  record B(V p, double m) {}",
              "  @Differentiable static V polar(double r, double t) {",
              "    return new V(r * Math.cos(t), r * Math.sin(t));",
              "  }",
              "  @Differentiable static B push(V v, double s) {",
              "    V w = polar(v.a(), s).scale(v.b());",
              "    return new B(w, v.b() * w.a() + s);",
              "  }",
              "  @Differentiable static double energy(double r, double t, double s) {",
              "    B b = push(polar(r, t), s);",
              "    double e = 0;",
              "    for (int i = 0; i < 3; i++) {",
              "      V q = polar(t, s * i);",
              "      e += b.p().a() * b.m() + q.b() * b.p().b();",
              "    }",
              "    return e;",
              "  }",
              "}")));

  private Object motionRecord(String name, Object... components) throws Exception {
    return record(MOTION.get().load("com.example.Motion$" + name), components);
  }

  /** The leaves of {@code record}, depth first, read through its accessors. */
  private static double[] leavesOf(Object record) throws Exception {
    List<Double> leaves = new java.util.ArrayList<>();
    collectLeaves(record, leaves);
    return leaves.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static void collectLeaves(Object record, List<Double> into) throws Exception {
    for (java.lang.reflect.RecordComponent component : record.getClass().getRecordComponents()) {
      Method accessor = component.getAccessor();
      accessor.setAccessible(true);
      Object value = accessor.invoke(record);
      if (value instanceof Double leaf) {
        into.add(leaf);
      } else {
        collectLeaves(value, into);
      }
    }
  }

  @Test
  void aMethodReturningARecordGetsTheVectorMembersWithTheRecordAsValueTangentAndSeed()
      throws Exception {
    Class<?> grad = MOTION.get().load("com.example.MotionGrad");
    String v = MOTION.get().load("com.example.Motion$V").getName();
    String b = MOTION.get().load("com.example.Motion$B").getName();
    List<String> signatures = Arrays.stream(grad.getDeclaredMethods())
        .filter(m -> (m.getName().startsWith("polar") || m.getName().startsWith("push"))
            && !Modifier.isPrivate(m.getModifiers())
            && m.getParameterTypes()[0] != ad4j.runtime.internal.Tape.class && !isFlatTangent(m))
        .map(m -> m.getReturnType().getTypeName() + " " + m.getName() + Arrays.stream(
            m.getParameterTypes()).map(Class::getTypeName).toList())
        .sorted().toList();
    assertThat(signatures).containsExactly(
        "double[][] polarJacobian[double, double]",
        v + " polarValueAndJacobian[double, double, double[][]]",
        v + " polarTangent[double, double, double, double]",
        v + " polarPullback[double, double, " + v + ", double[]]",
        "double[][] pushJacobian[" + v + ", double]",
        b + " pushValueAndJacobian[" + v + ", double, double[][]]",
        b + " pushTangent[" + v + ", double, " + v + ", double]",
        b + " pushPullback[" + v + ", double, " + b + ", double[]]");
  }

  @Test
  void theJacobianOfAMethodReturningNestedRecordsIsOverTheResultsLeaves() throws Exception {
    Class<?> grad = MOTION.get().load("com.example.MotionGrad");
    double a = 0.7;
    double b = -1.3;
    double s = 0.4;
    Object v = motionRecord("V", a, b);
    double[][] jacobian = (double[][]) call(grad, "pushJacobian", v, s);
    // by hand: push((a, b), s) = (b a cos s, b a sin s, b^2 a cos s + s), slots a, b, s
    double c = Math.cos(s);
    double n = Math.sin(s);
    double[][] expected = {
        {b * c, a * c, -b * a * n},
        {b * n, a * n, b * a * c},
        {b * b * c, 2 * b * a * c, -b * b * a * n + 1}};
    assertThat(jacobian).hasLength(3);
    for (int i = 0; i < 3; i++) {
      assertThat(jacobian[i]).usingTolerance(1e-14).containsExactly(expected[i]).inOrder();
    }
    double[][] written = {new double[3], new double[3], new double[3]};
    Object value = call(grad, "pushValueAndJacobian", v, s, written);
    Object user = call(MOTION.get().load("com.example.Motion"), "push", v, s);
    assertThat(value).isEqualTo(user); // component by component, bit for bit
    for (int i = 0; i < 3; i++) {
      assertThat(written[i]).usingTolerance(1e-14).containsExactly(expected[i]).inOrder();
    }
    // forward: J times a direction, as a record; reverse: a seed record times J
    double[] d = {0.3, -0.8, 1.7};
    double[] tangent = leavesOf(call(grad, "pushTangent", v, s, motionRecord("V", d[0], d[1]),
        d[2]));
    double[] w = {-0.6, 0.25, 1.1};
    double[] adjoints = new double[3];
    Object pulled = call(grad, "pushPullback", v, s,
        motionRecord("B", motionRecord("V", w[0], w[1]), w[2]), adjoints);
    assertThat(pulled).isEqualTo(user);
    double forward = 0;
    double reverse = 0;
    for (int i = 0; i < 3; i++) {
      double row = 0;
      for (int j = 0; j < 3; j++) {
        row += expected[i][j] * d[j];
      }
      assertThat(tangent[i]).isWithin(1e-14).of(row);
      assertThat(adjoints[i]).isWithin(1e-14)
          .of(w[0] * expected[0][i] + w[1] * expected[1][i] + w[2] * expected[2][i]);
      forward += w[i] * tangent[i];
      reverse += adjoints[i] * d[i];
    }
    assertThat(forward).isWithin(1e-13).of(reverse); // the dot-product test
  }

  @Test
  void aRecordWithoutRecordParametersKeepsItsValueAndTangentApartFromTheFlatMembers()
      throws Exception {
    Class<?> grad = MOTION.get().load("com.example.MotionGrad");
    double r = 1.5;
    double t = 0.9;
    Object value = call(grad, "polarValueAndJacobian", r, t, new double[2][2]);
    assertThat(value).isEqualTo(call(MOTION.get().load("com.example.Motion"), "polar", r, t));
    double[] tangent = leavesOf(call(grad, "polarTangent", r, t, 0.5, -2.0));
    // by hand: J = [[cos t, -r sin t], [sin t, r cos t]]
    assertThat(tangent).usingTolerance(1e-14).containsExactly(
        0.5 * Math.cos(t) + 2.0 * r * Math.sin(t),
        0.5 * Math.sin(t) - 2.0 * r * Math.cos(t)).inOrder();
  }

  @Test
  void recordsReturnedByCalleesAreTheirLeavesInTheCaller() throws Exception {
    Class<?> user = MOTION.get().load("com.example.Motion");
    Class<?> grad = MOTION.get().load("com.example.MotionGrad");
    double[] x = {0.8, 0.35, -0.6};
    ToDoubleFunction<double[]> f = unchecked(p -> (Double) call(user, "energy", p[0], p[1],
        p[2]));
    double[] gradient = (double[]) call(grad, "energyGradient", x[0], x[1], x[2]);
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    double[] d = {0.5, -1.25, 0.75};
    assertDot((Double) call(grad, "energyTangent", x[0], x[1], x[2], d[0], d[1], d[2]),
        gradient, d);
    double[] adjoints = new double[3];
    assertThat((Double) call(grad, "energyPullback", x[0], x[1], x[2], 1.0, adjoints))
        .isEqualTo(f.applyAsDouble(x));
    assertThat(adjoints).usingTolerance(1e-13).containsExactly(gradient).inOrder();
  }

  @Test
  void aRecordResultReturnedBeforeTheEndIsAnError() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {}",
        "  @Differentiable static V f(double x) {",
        "    if (x > 0) {",
        "      return new V(x, 1);",
        "    }",
        "    return new V(-x, 1);",
        "  }",
        "}"),
        "a method returning value record 'V' must return once, as its last statement: assign"
            + " the result to one local 'V' and return it at the end", 7);
  }

  @Test
  void aRecordReturnedByAMethodOfAnotherClassWorks() {
    // an error until records were returned between classes: now through G's members
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.F", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class F {",
            "  @Differentiable static double f(double x) {",
            "    G.V v = G.g(x);",
            "    return v.a() * v.b();",
            "  }",
            "}"), "com.example.G", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class G {",
            "  record V(double a, double b) {}",
            "  @Differentiable static V g(double x) { return new V(Math.exp(x), x * x); }",
            "}"));
    DerivativeChecks.checkAt(compiled.function("com.example.F", "f", 1), 0.7);
  }

  private static final CompiledOnce MIXED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Mixed",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "final class Mixed {",
              "  record P(double x, float w, int n, boolean on) {",
              "    double weight() { return on ? w * x * n : x; }",
              "  }",
              "  record Q(P p, long id, float s) {}",
              "  record F(double a, float b) {}",
              "  record Counts(int a, boolean b) {}",
              "  @Differentiable static double f(P p, double k) {",
              "    P q = new P(p.x() * k, p.w() * 2, p.n() + 1, !p.on());",
              "    return q.weight() + p.weight() * k;",
              "  }",
              "  @Differentiable static double g(Q q, double k) {",
              "    Q r = new Q(new P(k, q.s(), 3, true), q.id(), (float) k);",
              "    return f(r.p(), k) + q.p().x() * r.s() + r.id();",
              "  }",
              "  @Differentiable static F h(F v, double k) {",
              "    return new F(v.a() * k, v.b() * (float) k);",
              "  }",
              "  @Differentiable static double u(double x, Counts c) {",
              "    F y = h(new F(x, (float) x), c.a() * x);",
              "    return y.a() + y.b();",
              "  }",
              "}")));

  private Object mixed(String name, Object... components) throws Exception {
    return record(MIXED.get().load("com.example.Mixed$" + name), components);
  }

  @Test
  void floatComponentsCarryDerivativesAndIntLongAndBooleanOnesAreKeptBesideThem()
      throws Exception {
    Class<?> grad = MIXED.get().load("com.example.MixedGrad");
    double x = 0.3;
    float w = 1.5f;
    double k = 1.2;
    Object p = mixed("P", x, w, 2, true);
    // f = q.weight() + p.weight() k = x k + w x n k (n = 2, q's 'on' false): slots x, w, k
    double[] gradient = (double[]) call(grad, "fGradient", p, k);
    assertThat(gradient).usingTolerance(1e-14)
        .containsExactly(k + w * 2 * k, x * 2 * k, x + w * x * 2).inOrder();
    double[] d = {0.5, -1.5, 0.25};
    // the tangent record's int and boolean components carry nothing: ignored
    double tangent = (Double) call(grad, "fTangent", p, k,
        mixed("P", d[0], (float) d[1], 99, false), d[2]);
    assertDot(tangent, gradient, d);
    // Q's leaves: p.x, p.w, (p.n, p.on), (id), s: slots p.x, p.w, s, then k
    float s = 0.25f;
    double kk = 0.7;
    Object q = mixed("Q", p, 7L, s);
    double[] g = (double[]) call(grad, "gGradient", q, kk);
    float kf = (float) kk;
    // by hand: g = k^2 + 3 s k^2 + x (float) k + 7
    assertThat(g).usingTolerance(1e-7).containsExactly(
        (double) kf, 0.0, 3 * kk * kk, 2 * kk + 6 * s * kk + x).inOrder();
    assertThat(g[0]).isEqualTo((double) kf); // the float cast's value, exactly
    assertThat((Double) call(grad, "gValueAndGradient", q, kk, new double[4]))
        .isEqualTo(call(MIXED.get().load("com.example.Mixed"), "g", q, kk));
  }

  @Test
  void aRecordResultWithAFloatComponentIsAVectorFunctionAndARecordOfIntsIsAnObject()
      throws Exception {
    Class<?> grad = MIXED.get().load("com.example.MixedGrad");
    Object v = mixed("F", 0.5, 0.25f);
    Object value = call(grad, "hValueAndJacobian", v, 3.0, new double[2][3]);
    assertThat(value).isEqualTo(call(MIXED.get().load("com.example.Mixed"), "h", v, 3.0));
    double[][] jacobian = (double[][]) call(grad, "hJacobian", v, 3.0);
    assertThat(jacobian[0]).usingExactEquality().containsExactly(3.0, 0.0, 0.5).inOrder();
    assertThat(jacobian[1]).usingExactEquality().containsExactly(0.0, 3.0, 0.25).inOrder();
    // Counts (ints and a boolean) carries no derivative: no slot, no tangent
    Object counts = mixed("Counts", 2, true);
    double[] gradient = (double[]) call(grad, "uGradient", 0.4, counts);
    // by hand: u = x (2 x) + (float) x (float) (2 x) in float
    assertThat(gradient).hasLength(1);
    assertThat(gradient[0]).isWithin(1e-6).of(8 * 0.4);
    assertThat((Double) call(grad, "uTangent", 0.4, counts, 1.0)).isEqualTo(gradient[0]);
  }

  @Test
  void aRecordThatHoldsItselfIsDataAndARecordOfTwoEqualRecordsIsFlattened() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Shapes", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "import ad4j.NoDerivative;",
            "final class Shapes {",
            "  record Node(double v, Node next) {}",
            "  record V(double a, double b) {}",
            "  record Seg(V from, V to) {}",
            "  @Differentiable static double f(Seg s, @NoDerivative Node n) {",
            "    return (s.to().a() - s.from().a()) * s.to().b() * n.v();",
            "  }",
            "}"));
    Class<?> v = compiled.load("com.example.Shapes$V");
    Object seg = record(compiled.load("com.example.Shapes$Seg"), record(v, 0.5, 2.0),
        record(v, 1.5, -3.0));
    Object node = record(compiled.load("com.example.Shapes$Node"), 2.0, null);
    double[] gradient = (double[]) call(compiled.load("com.example.ShapesGrad"), "fGradient",
        seg, node);
    // by hand: (ta - fa) tb v, slots fa, fb, ta, tb
    assertThat(gradient).usingExactEquality().containsExactly(6.0, 0.0, -6.0, 2.0).inOrder();
  }

  @Test
  void aRecordWithAConstructorIsAnErrorWhereGeneratedCodeWouldMakeItAgain() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {",
        "    V { a = 2 * a; }",
        "  }",
        "  @Differentiable static V f(V v, double k) {",
        "    return v;",
        "  }",
        "}"),
        "'v' is returned as value record 'V', whose constructor changes its components: the"
            + " generated members make the record of the result's components and of its"
            + " tangents, and would run its code on them again", 8);
  }
}
