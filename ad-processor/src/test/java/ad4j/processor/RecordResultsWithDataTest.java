package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.Records;
import ad4j.runtime.GradientCheck;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Methods returning a value record with components that carry no derivative (DESIGN.md, part
 * 3, "Value records": {@code record Particle(Vec3 pos, Vec3 vel, double mass, String name)}):
 * vector functions over the record's derivative-carrying leaves, whose members return the
 * record with the other components the method's run gives them, and whose callers use it.
 * Derivatives against finite differences of the user's own method, forward against reverse.
 */
class RecordResultsWithDataTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Particles {",
      "  record Vec3(double x, double y, double z) {",
      "    Vec3 plus(Vec3 o) { return new Vec3(x + o.x, y + o.y, z + o.z); }",
      "    Vec3 scale(double s) { return new Vec3(x * s, y * s, z * s); }",
      "  }",
      "  record Particle(Vec3 pos, Vec3 vel, double mass, String name) {}",
      "  record Tagged(double v, int count, String label) {}",
      "  @Differentiable",
      "  static Particle step(Particle p, double dt) {",
      "    return new Particle(p.pos().plus(p.vel().scale(dt)), p.vel(), p.mass(), p.name());",
      "  }",
      "  @Differentiable",
      "  static Particle drag(Particle p, double k, String label) {",
      "    Vec3 v = p.vel().scale(Math.exp(-k * p.mass()));",
      "    return new Particle(p.pos(), v, p.mass() * Math.cos(k), label);",
      "  }",
      "  @Differentiable",
      "  static Tagged grow(double x, int count) {",
      "    return new Tagged(Math.sin(x) * x, count, \"grown\");",
      "  }",
      "  @Differentiable",
      "  static double grown(double x, int count) {",
      "    Tagged t = grow(x, count + 1);",
      "    return t.v() * t.count() * t.label().length();",
      "  }",
      "  @Differentiable",
      "  static Particle twice(Particle p, double dt) {",
      "    Particle q = step(p, dt);",
      "    Particle r = drag(step(q, dt * q.mass()), dt, q.name());",
      "    return r;",
      "  }",
      "  @Differentiable",
      "  static double energy(Particle p, double dt) {",
      "    Particle q = step(p, dt);",
      "    double n = q.name().length();",
      "    Vec3 v = q.vel();",
      "    return 0.5 * q.mass() * (v.x() * v.x() + v.y() * q.pos().z()) * n;",
      "  }",
      "}");

  private static final CompiledOnce PARTICLES = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Particles", SOURCE));

  private static Class<?> type(String name) {
    return PARTICLES.get().load("com.example.Particles$" + name);
  }

  private static Object vec(double x, double y, double z) throws Exception {
    return Records.make(type("Vec3"), x, y, z);
  }

  /** A particle of the 7 slots {@code s} (pos, vel, mass) and {@code name}. */
  private static Object particle(double[] s, String name) throws Exception {
    return Records.make(type("Particle"), vec(s[0], s[1], s[2]), vec(s[3], s[4], s[5]), s[6],
        name);
  }

  private static Object user(String name, Object... arguments) throws Exception {
    return Records.call(PARTICLES.get().load("com.example.Particles"), name, arguments);
  }

  private static Object generated(String name, Object... arguments) throws Exception {
    return Records.call(PARTICLES.get().load("com.example.ParticlesGrad"), name, arguments);
  }

  /** Component {@code name} of {@code record}, read by its accessor. */
  private static Object component(Object record, String name) throws Exception {
    java.lang.reflect.Method accessor = record.getClass().getDeclaredMethod(name);
    accessor.setAccessible(true);
    return accessor.invoke(record);
  }

  /** The derivative-carrying leaves of a particle, depth first. */
  private static double[] leaves(Object particle) throws Exception {
    Object pos = component(particle, "pos");
    Object vel = component(particle, "vel");
    double[] leaves = new double[7];
    for (int k = 0; k < 3; k++) {
      String axis = "xyz".substring(k, k + 1);
      leaves[k] = (Double) component(pos, axis);
      leaves[3 + k] = (Double) component(vel, axis);
    }
    leaves[6] = (Double) component(particle, "mass");
    return leaves;
  }

  private static Object name(Object particle) throws Exception {
    return component(particle, "name");
  }

  /** A function of a point that may throw, as the reflective calls do. */
  private interface Leaves {
    double[] at(double[] point) throws Exception;
  }

  /** Row {@code row} of {@code f} as a scalar function, for finite differences. */
  private static ToDoubleFunction<double[]> row(Leaves f, int row) {
    return point -> {
      try {
        return f.at(point)[row];
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
  }

  /**
   * Checks the vector members of {@code method} (a {@code Particle} and {@code dt} in 8 slots
   * to a {@code Particle}'s 7) at {@code x}: each Jacobian row against finite differences of
   * the user's method, {@code mValueAndJacobian} returning the user's record, {@code mTangent}
   * as J times a direction, {@code mPullback} as a seed times J (the dot-product test); the
   * name is the one the user's method returns, the same object, in the value and the tangents.
   */
  private static void checkStep(String method, double[] x, String given) throws Exception {
    Leaves f = point -> leaves(user(method, particle(point, given), point[7]));
    Object p = particle(x, given);
    double[][] jacobian = (double[][]) generated(method + "Jacobian", p, x[7]);
    assertThat(jacobian).hasLength(7);
    for (int i = 0; i < 7; i++) {
      assertThat(jacobian[i]).hasLength(8);
      GradientCheck.check(row(f, i), x, jacobian[i]).assertWithin(1e-7);
    }
    Object expected = user(method, p, x[7]);
    double[][] written = new double[7][8];
    Object value = generated(method + "ValueAndJacobian", p, x[7], written);
    assertThat(value).isEqualTo(expected); // component by component, bit for bit
    assertThat(name(value)).isSameInstanceAs(name(expected));
    for (int i = 0; i < 7; i++) {
      assertThat(written[i]).usingExactEquality().containsExactly(jacobian[i]).inOrder();
    }
    double[] d = {0.5, -0.25, 1.5, -2.0, 0.75, 0.1, -0.3, 0.4};
    Object tangent = generated(method + "Tangent", p, x[7], particle(d, "ignored"), d[7]);
    assertThat(name(tangent)).isSameInstanceAs(name(expected));
    double[] t = leaves(tangent);
    double[] w = {-0.6, 0.25, 1.1, 0.3, -0.9, 0.7, 0.2};
    double[] adjoints = new double[8];
    Object pulled = generated(method + "Pullback", p, x[7], particle(w, "seed"), adjoints);
    assertThat(pulled).isEqualTo(expected);
    assertThat(name(pulled)).isSameInstanceAs(name(expected));
    double forward = 0;
    double reverse = 0;
    for (int i = 0; i < 7; i++) {
      double jd = 0;
      for (int j = 0; j < 8; j++) {
        jd += jacobian[i][j] * d[j];
      }
      assertThat(t[i]).isWithin(1e-12).of(jd);
      forward += w[i] * t[i];
    }
    for (int j = 0; j < 8; j++) {
      double wj = 0;
      for (int i = 0; i < 7; i++) {
        wj += w[i] * jacobian[i][j];
      }
      assertThat(adjoints[j]).isWithin(1e-12).of(wj);
      reverse += adjoints[j] * d[j];
    }
    assertThat(forward).isWithin(1e-12).of(reverse);
  }

  @Test
  void aStepOfAParticleIsAVectorFunctionOfItsSevenSlotsAndDtWhoseNameIsPassedAlong()
      throws Exception {
    checkStep("step", new double[] {0.3, -1.2, 0.8, 1.1, 0.4, -0.5, 2.0, 0.25}, "probe");
  }

  @Test
  void aCallerOfStepsReturnsTheParticleWithTheNameItsCalleesReturn() throws Exception {
    // twice = drag(step(step(p, dt), dt * mass), dt, name): the name passes through three calls
    checkStep("twice", new double[] {0.3, -1.2, 0.8, 1.1, 0.4, -0.5, 1.5, 0.2},
        new String("moon")); // a new object: the same one must come back
  }

  @Test
  void aComponentFromAPlainParameterIsThatParameter() throws Exception {
    double[] x = {0.3, -1.2, 0.8, 1.1, 0.4, -0.5, 1.5, 0.7};
    String label = new String("slowed");
    Object p = particle(x, "fast");
    Object value = generated("dragValueAndJacobian", p, x[7], label, new double[7][8]);
    assertThat(value).isEqualTo(user("drag", p, x[7], label));
    assertThat(name(value)).isSameInstanceAs(label);
    double[][] jacobian = (double[][]) generated("dragJacobian", p, x[7], label);
    Leaves f = point -> leaves(user("drag", particle(point, "fast"), point[7], label));
    for (int i = 0; i < 7; i++) {
      GradientCheck.check(row(f, i), x, jacobian[i]).assertWithin(1e-7);
    }
  }

  @Test
  void anIntAndAConstantStringComponentComeBackAsTheMethodReturnsThem() throws Exception {
    double x = 0.9;
    Object expected = user("grow", x, 7);
    Object value = generated("growValueAndJacobian", x, 7, new double[1][1]);
    assertThat(value).isEqualTo(expected);
    assertThat(component(value, "label")).isSameInstanceAs(component(expected, "label"));
    double[][] jacobian = (double[][]) generated("growJacobian", x, 7);
    assertThat(jacobian[0][0]).isWithin(1e-15).of(Math.cos(x) * x + Math.sin(x));
    Object tangent = generated("growTangent", x, 7, 2.0);
    assertThat((Double) component(tangent, "v")).isWithin(1e-15).of(2 * jacobian[0][0]);
    assertThat(component(tangent, "count")).isEqualTo(7);
  }

  @Test
  void aCallerUsesTheIntAndTheLiteralTheCalleeReturns() throws Exception {
    // grown = (sin(x) x) (count + 1) "grown".length(), its derivative by hand
    double x = 0.9;
    double expected = (Math.cos(x) * x + Math.sin(x)) * 4 * 5;
    assertThat((Double) user("grown", x, 3))
        .isWithin(1e-15).of(Math.sin(x) * x * 4 * 5);
    double[] gradient = (double[]) generated("grownGradient", x, 3);
    assertThat(gradient[0]).isWithin(1e-13).of(expected);
    assertThat((Double) generated("grownTangent", x, 3, 1.5)).isWithin(1e-13).of(1.5 * expected);
  }

  @Test
  void aCallerReturningADoubleUsesTheReturnedNameAndMass() throws Exception {
    double[] x = {0.3, -1.2, 0.8, 1.1, 0.4, -0.5, 2.0, 0.25};
    ToDoubleFunction<double[]> f = point -> {
      try {
        return (Double) user("energy", particle(point, "probe"), point[7]);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
    Object p = particle(x, "probe");
    double[] gradient = (double[]) generated("energyGradient", p, x[7]);
    assertThat(gradient).hasLength(8);
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    double[] out = new double[8];
    assertThat((Double) generated("energyValueAndGradient", p, x[7], out))
        .isEqualTo(f.applyAsDouble(x));
    double[] d = {0.5, -0.25, 1.5, -2.0, 0.75, 0.1, -0.3, 0.4};
    double tangent = (Double) generated("energyTangent", p, x[7], particle(d, "ignored"), d[7]);
    double expected = 0;
    for (int j = 0; j < 8; j++) {
      expected += gradient[j] * d[j];
    }
    assertThat(tangent).isWithin(1e-12).of(expected);
  }

  @Test
  void componentsWithoutDerivativesInNestedRecordsKeepTheirPlaces() throws Exception {
    InProcessCompiler.Compiled nest = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Nest", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Nest {",
            "  record In(double x, int id) {}",
            "  record Out(In in, float f, String s, In in2) {}",
            "  @Differentiable",
            "  static Out g(Out o, double k) {",
            "    return new Out(new In(o.in2().x() * k, o.in().id()), (float) (o.f() * k),"
                + " o.s(), new In(o.in().x(), 7));",
            "  }",
            "  @Differentiable",
            "  static double use(Out o, double k) {",
            "    Out r = g(o, k);",
            "    return r.in().x() * r.in().id() + r.f() * r.in2().id()"
                + " + r.in2().x() * r.s().length();",
            "  }",
            "}"));
    Class<?> in = nest.load("com.example.Nest$In");
    Class<?> out = nest.load("com.example.Nest$Out");
    Class<?> user = nest.load("com.example.Nest");
    Class<?> grad = nest.load("com.example.NestGrad");
    double[] x = {0.6, 1.5, -0.4, 2.0}; // in.x, f, in2.x, k
    Object o = Records.make(out, Records.make(in, x[0], 3), (float) x[1], "ab",
        Records.make(in, x[2], 5));
    Object value = Records.call(grad, "gValueAndJacobian", o, x[3], new double[3][4]);
    assertThat(value).isEqualTo(Records.call(user, "g", o, x[3]));
    double[] gradient = (double[]) Records.call(grad, "useGradient", o, x[3]);
    // by hand: use = in2.x k 3 + (float) (f k) 7 + in.x 2, the float's derivative in double
    assertThat(gradient).usingTolerance(1e-12).containsExactly(2.0, 14.0, 6.0, -0.4 * 3 + 1.5 * 7)
        .inOrder();
    double tangent = (Double) Records.call(grad, "useTangent", o, x[3],
        Records.make(out, Records.make(in, 0.5, 0), -1.0f, "", Records.make(in, 2.0, 0)), 0.25);
    assertThat(tangent).isWithin(1e-12)
        .of(0.5 * gradient[0] - gradient[1] + 2.0 * gradient[2] + 0.25 * gradient[3]);
  }

  private static void assertRejected(String source, String message, int line) {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(line);
  }

  @Test
  void aComponentComputedInTheMethodIsAnErrorAtTheReturn() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record P(double x, String name) {}",
        "  @Differentiable static P f(P p, int n) {",
        "    String name = p.name();",
        "    for (int i = 0; i < n; i++) {",
        "      name = name + \"'\";",
        "    }",
        "    return new P(p.x() * p.x(), name);",
        "  }",
        "}"),
        "component 'name' of value record 'P' returned by 'new P(p.x() * p.x(), name)' carries"
            + " no derivative and is computed in the method: ad4j returns such components only"
            + " as the method's parameters or constants hold them", 10);
  }

  @Test
  void aCallerOfAMethodReturningAConstantExpressionComponentIsAnErrorAtTheCall() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record T(double v, String label) {}",
        "  @Differentiable static T g(double x) {",
        "    return new T(x * x, \"ma\" + \"de\");",
        "  }",
        "  @Differentiable static double f(double x) {",
        "    T t = g(x);",
        "    return t.v();",
        "  }",
        "}"),
        "call to 'g(...)': it returns value record 'T', whose components that carry no"
            + " derivative callers take from the arguments or literals the method returns them"
            + " from; it returns a constant there that is not a string, integer or boolean"
            + " literal", 9);
  }

  /**
   * A caller compiled later than such a method, against its class file: it takes the
   * components that carry no derivative from its own arguments and literals, as the constant
   * the method's generated class holds ({@code gCarriedResult}) says; before, it was an error at
   * the call.
   */
  @Test
  void aCallerOfSuchAMethodCompiledEarlier(@TempDir Path classes) throws Exception {
    Compilation library = InProcessCompiler.javac().compile(JavaFileObjects.forSourceString(
        "com.example.Lib", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "public final class Lib {",
            "  public record T(double v, String label, int n) {}",
            "  @Differentiable public static T g(double x, String label) {",
            "    return new T(x * Math.sin(x), label, 3);",
            "  }",
            "}")));
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    Compilation compilation = InProcessCompiler.javac("-Xlint:all", "-Werror")
        .withClasspath(classpath).compile(JavaFileObjects.forSourceString("com.example.Caller",
            String.join("\n",
                "package com.example;",
                "import ad4j.Differentiable;",
                "final class Caller {",
                "  @Differentiable static double f(double x, double y) {",
                "    Lib.T t = Lib.g(x * y, \"ab\");",
                "    return t.v() * t.label().length() + t.n() * y;",
                "  }",
                "}")));
    InProcessCompiler.Compiled compiled =
        InProcessCompiler.loadedWithLibrary(compilation, library);
    ad4j.processor.testing.CompiledFunction f = compiled.function("com.example.Caller", "f", 2);
    ad4j.processor.testing.DerivativeChecks.checkAt(f, 0.7, -1.3);
    ad4j.processor.testing.DerivativeChecks.checkAt(f, -0.4, 0.9);
  }

  /**
   * The same caller against a generated class that records nothing of the components, as an
   * earlier ad4j wrote it: an error at the call.
   */
  @Test
  void aCallerOfSuchAMethodWhoseGeneratedClassRecordsNothingIsAnErrorAtTheCall(
      @TempDir Path classes) throws Exception {
    Compilation library = InProcessCompiler.javac("-proc:none").compile(
        JavaFileObjects.forSourceString("com.example.Lib", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "public final class Lib {",
            "  public record T(double v, String label) {}",
            "  @Differentiable public static T g(double x, String label) {",
            "    return new T(x * x, label);",
            "  }",
            "}")),
        JavaFileObjects.forSourceString("com.example.LibGrad",
            "package com.example; public final class LibGrad { private LibGrad() {} }"),
        JavaFileObjects.forSourceString("com.example.LibGradSweeps",
            "package com.example; public final class LibGradSweeps { private LibGradSweeps() {} }"));
    assertThat(library).succeeded();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    JavaFileObject caller = JavaFileObjects.forSourceString("com.example.Caller",
        String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Caller {",
            "  @Differentiable static double f(double x) {",
            "    Lib.T t = Lib.g(x, \"a\");",
            "    return t.v() * t.label().length();",
            "  }",
            "}"));
    Compilation compilation = InProcessCompiler.javac().withClasspath(classpath).compile(caller);
    assertThat(compilation).hadErrorContaining("call to 'Lib.g(...)': it returns value record"
        + " 'T', whose components that carry no derivative callers take from the arguments or"
        + " literals the method returns them from; ad4j reads which of its parameters it"
        + " returns there from its code, or from its generated class when it was compiled"
        + " earlier, and its source is not in this compilation (or has errors) and no generated"
        + " class records it")
        .inFile(caller)
        .onLine(5);
    assertThat(compilation.errors()).hasSize(1);
  }

  /**
   * Overloads of one name that both return such records: their generated class records
   * neither (one constant per name), so a caller compiled later is an error at the call.
   */
  @Test
  void aCallerOfOneOfSeveralSuchOverloadsCompiledEarlierIsAnErrorAtTheCall(
      @TempDir Path classes) throws Exception {
    Compilation library = InProcessCompiler.javac().compile(JavaFileObjects.forSourceString(
        "com.example.Lib", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "public final class Lib {",
            "  public record T(double v, String label) {}",
            "  @Differentiable public static T g(double x, String label) {",
            "    return new T(x * x, label);",
            "  }",
            "  @Differentiable public static T g(String label, double x) {",
            "    return new T(x, label);",
            "  }",
            "}")));
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    JavaFileObject caller = JavaFileObjects.forSourceString("com.example.Caller",
        String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Caller {",
            "  @Differentiable static double f(double x) {",
            "    Lib.T t = Lib.g(x, \"a\");",
            "    return t.v() * t.label().length();",
            "  }",
            "}"));
    Compilation compilation = InProcessCompiler.javac().withClasspath(classpath).compile(caller);
    assertThat(compilation).hadErrorContaining("call to 'Lib.g(...)': it returns value record"
        + " 'T', whose components that carry no derivative callers take from the arguments or"
        + " literals the method returns them from; ad4j reads which of its parameters it"
        + " returns there from its code, or from its generated class when it was compiled"
        + " earlier")
        .inFile(caller)
        .onLine(5);
    assertThat(compilation.errors()).hasSize(1);
  }

  @Test
  void aRecordResultWithAnArrayComponentIsAnError() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double[] w) {}",
        "  @Differentiable static V f(double x, double[] w) {",
        "    return new V(x, w);",
        "  }",
        "}"),
        "@Differentiable method 'f' returns value record 'V', which has a 'double[]'"
            + " component", 5);
  }
}
