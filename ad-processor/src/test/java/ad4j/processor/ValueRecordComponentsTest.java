package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.Records;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.GradientCheck;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Value records with components that carry no derivative (DESIGN.md, part 3): a {@code String},
 * an object, an {@code int[]} beside {@code double} components take no slot and are carried
 * along unchanged — DESIGN's own {@code Particle(Vec3 pos, Vec3 vel, double mass, String name)}
 * takes 7 slots. Its members take the record and a tangent record of the same type (whose
 * {@code name} is ignored); the record goes through locals, loops, its own methods, a
 * {@code @Differentiable} callee (inside a loop too, where the tape records the string) and an
 * order-2 method. A {@code double[]} component takes one slot per element, in its place. Each derivative against differences of the user's own method and forward
 * against reverse, the generated code compiling under {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class ValueRecordComponentsTest {
  private static final CompiledOnce PARTICLES = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Particles",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.List;",
              "public final class Particles {",
              "  public record Vec3(double x, double y, double z) {",
              "    Vec3 plus(Vec3 o) { return new Vec3(x + o.x, y + o.y, z + o.z); }",
              "    Vec3 scale(double k) { return new Vec3(k * x, k * y, k * z); }",
              "    double dot(Vec3 o) { return x * o.x + y * o.y + z * o.z; }",
              "  }",
              "  public record Particle(Vec3 pos, Vec3 vel, double mass, String name) {",
              "    Particle moved(double dt) {",
              "      return new Particle(pos.plus(vel.scale(dt)), vel, mass, name);",
              "    }",
              "    double weight() { return name.isEmpty() ? mass : mass * name.length(); }",
              "  }",
              "  record Tagged(double v, List<String> tags, int[] ids, long id) {}",
              "  public record Poly(double[] c, int degree) {}",
              "  @Differentiable(order = 2) public static double poly(Poly p, double x) {",
              "    double s = 0;",
              "    for (int i = p.degree(); i >= 0; i--) {",
              "      s = s * x + p.c()[i];",
              "    }",
              "    return s * p.c()[0];",
              "  }",
              "  @Differentiable static double viaPoly(double[] c, double x) {",
              "    double[] d = new double[c.length];",
              "    for (int i = 0; i < c.length; i++) {",
              "      d[i] = c[i] * c[i];",
              "    }",
              "    Poly q = new Poly(d, c.length - 1);",
              "    return poly(q, x) + poly(new Poly(c, c.length - 2), x * x) * q.c()[1];",
              "  }",
              "  static final Particle HOME =",
              "      new Particle(new Vec3(0, 0, 1), new Vec3(0, 0, 0), 2, \"home\");",
              "  @Differentiable(order = 2) public static double energy(Particle p) {",
              "    return 0.5 * p.mass() * p.vel().dot(p.vel()) * p.pos().x()",
              "        + 9.81 * p.weight() * p.pos().z() + Math.sin(p.pos().y() * p.vel().z())",
              "        + p.name().length();",
              "  }",
              "  @Differentiable static double flight(Particle p, double dt, int steps) {",
              "    Particle q = p;",
              "    double s = 0;",
              "    for (int i = 0; i < steps; i++) {",
              "      q = q.moved(dt);",
              "      s += energy(q) * (q.name().equals(p.name()) ? 1 : 2);",
              "      q = new Particle(q.pos(), q.vel().scale(0.9), q.mass(), q.name() + i);",
              "    }",
              "    return s + HOME.pos().z() * p.mass();",
              "  }",
              "  @Differentiable(order = 2) static double viaEnergy(double px, double py,",
              "      double pz, double vx, double vy, double vz, double m) {",
              "    return energy(new Particle(new Vec3(px, py, pz), new Vec3(vx, vy, vz), m,",
              "        \"probe\"));",
              "  }",
              "  @Differentiable static double viaFlight(double px, double py, double pz,",
              "      double vx, double vy, double vz, double m, double dt) {",
              "    return flight(new Particle(new Vec3(px, py, pz), new Vec3(vx, vy, vz), m,",
              "        \"probe\"), dt, 3);",
              "  }",
              "  @Differentiable static double tagged(Tagged t, @NoDerivative Particle home) {",
              "    Tagged u = new Tagged(t.v() * t.v(), t.tags(), t.ids(), t.id() + 1);",
              "    return u.v() * u.tags().size() + u.ids()[0] * t.v() + home.mass() * t.v()",
              "        + home.name().length() + u.id();",
              "  }",
              "}")));

  private static Class<?> load(String name) {
    return PARTICLES.get().load("com.example." + name);
  }

  private static Object particle(double[] x, String name) throws Exception {
    Class<?> vec = load("Particles$Vec3");
    return Records.make(load("Particles$Particle"), Records.make(vec, x[0], x[1], x[2]),
        Records.make(vec, x[3], x[4], x[5]), x[6], name);
  }

  private static Object grad(String name, Object... arguments) throws Exception {
    return Records.call(load("ParticlesGrad"), name, arguments);
  }

  private static Object user(String name, Object... arguments) throws Exception {
    return Records.call(load("Particles"), name, arguments);
  }

  private static ToDoubleFunction<double[]> energyOf(String name) {
    return point -> {
      try {
        return (Double) user("energy", particle(point, name));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
  }

  private static double dot(double[] a, double[] b) {
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
    }
    return dot;
  }

  @Test
  void theContractsMembersTakeTheParticleAndItsTangentAsAParticle() {
    String p = load("Particles$Particle").toString();
    List<String> signatures = Arrays.stream(load("ParticlesGrad").getDeclaredMethods())
        .filter(m -> m.getName().startsWith("energy") && Modifier.isPublic(m.getModifiers())
            && m.getParameterTypes()[0] != ad4j.runtime.internal.Tape.class)
        .map(m -> m.getReturnType().getSimpleName() + " " + m.getName()
            + Arrays.toString(m.getParameterTypes()))
        .sorted().toList();
    assertThat(signatures).containsExactly(
        "double energyPullback[" + p + ", double, class [D]",
        "double energyTangent[" + p + ", " + p + "]",
        "double energyValueAndGradient[" + p + ", class [D]",
        "double energyValueGradientAndHessian[" + p + ", class [D, class [[D]",
        "double[] energyGradient[" + p + "]",
        "double[] energyHessianVector[" + p + ", class [D]",
        "double[][] energyHessian[" + p + "]");
  }

  @Test
  void aParticleTakesSevenSlotsAndItsNameIsCarriedAlong() throws Exception {
    double[] x = {0.4, -0.7, 1.3, 0.9, -0.2, 0.6, 2.5};
    Object p = particle(x, "probe");
    double[] gradient = (double[]) grad("energyGradient", p);
    assertThat(gradient).hasLength(7);
    GradientCheck.check(energyOf("probe"), x, gradient).assertWithin(1e-7);
    double[] written = new double[7];
    assertThat((Double) grad("energyValueAndGradient", p, written))
        .isEqualTo(user("energy", p));
    assertThat(written).usingExactEquality().containsExactly(gradient).inOrder();
    double[] adjoints = {1, 2, 3, 4, 5, 6, 7};
    assertThat((Double) grad("energyPullback", p, 2.0, adjoints)).isEqualTo(user("energy", p));
    for (int i = 0; i < 7; i++) {
      assertThat(adjoints[i]).isWithin(1e-12 * (1 + Math.abs(gradient[i])))
          .of(i + 1 + 2 * gradient[i]);
    }
    // the tangent is a Particle too: its name ("ignored") carries nothing and changes nothing
    double[] d = {0.5, -0.25, 1.5, -2.0, 0.75, 0.1, -0.3};
    double tangent = (Double) grad("energyTangent", p, particle(d, "ignored"));
    assertThat(tangent).isWithin(1e-12 * (1 + Math.abs(dot(gradient, d))))
        .of(dot(gradient, d));
  }

  @Test
  void theHessianOfAParticleIsTheOneOfItsSevenSlots() throws Exception {
    double[] x = {0.4, -0.7, 1.3, 0.9, -0.2, 0.6, 2.5};
    CompiledFunction via = PARTICLES.get().function("com.example.Particles", "viaEnergy", 7);
    // viaEnergy makes the Particle and calls energy: its Hessian is checked against differences
    HessianChecks.checkAt(via, load("ParticlesGrad"), x);
    double[][] expected = (double[][]) grad("viaEnergyHessian", x[0], x[1], x[2], x[3], x[4],
        x[5], x[6]);
    Object p = particle(x, "probe");
    double[][] hessian = (double[][]) grad("energyHessian", p);
    double[] v = {0.3, -1.1, 0.2, 0.7, -0.4, 1.5, 0.25};
    double[] hv = (double[]) grad("energyHessianVector", p, v);
    for (int i = 0; i < 7; i++) {
      assertThat(hessian[i]).usingTolerance(1e-12).containsExactly(expected[i]).inOrder();
      assertThat(hv[i]).isWithin(1e-12).of(dot(expected[i], v));
    }
  }

  @Test
  void aParticlePassedToACalleeInALoopWithItsNameChanging() {
    CompiledFunction via = PARTICLES.get().function("com.example.Particles", "viaFlight", 8);
    for (double[] point : new double[][] {
        {0.4, -0.7, 1.3, 0.9, -0.2, 0.6, 2.5, 0.1}, {-1.2, 0.3, 0.5, -0.4, 1.1, 0.2, 0.8, 0.05}}) {
      DerivativeChecks.checkAt(via, point);
    }
  }

  @Test
  void theRecordMembersOfAMethodWithALoopAgreeWithItsFlatCaller() throws Exception {
    double[] x = {0.4, -0.7, 1.3, 0.9, -0.2, 0.6, 2.5};
    double dt = 0.1;
    double[] flat = (double[]) grad("viaFlightGradient", x[0], x[1], x[2], x[3], x[4], x[5],
        x[6], dt);
    double[] gradient = (double[]) grad("flightGradient", particle(x, "probe"), dt, 3);
    assertThat(gradient).usingTolerance(1e-12).containsExactly(flat).inOrder();
    double[] d = {0.5, -0.25, 1.5, -2.0, 0.75, 0.1, -0.3, 0.2};
    double tangent = (Double) grad("flightTangent", particle(x, "probe"), dt, 3,
        particle(d, "other"), d[7]);
    assertWithMessage("forward against reverse").that(tangent)
        .isWithin(1e-12 * (1 + Math.abs(dot(gradient, d)))).of(dot(gradient, d));
  }

  @Test
  void objectAndIntArrayComponentsAreCarriedAlong() throws Exception {
    Class<?> tagged = load("Particles$Tagged");
    List<String> tags = List.of("a", "b", "c");
    int[] ids = {4, 5};
    Object home = particle(new double[] {0, 0, 1, 0, 0, 0, 2}, "home");
    ToDoubleFunction<double[]> f = point -> {
      try {
        return (Double) user("tagged", Records.make(tagged, point[0], tags, ids, 7L), home);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
    double[] x = {0.35};
    Object t = Records.make(tagged, x[0], tags, ids, 7L);
    double[] gradient = (double[]) grad("taggedGradient", t, home);
    assertThat(gradient).hasLength(1); // v's slot only; home carries none
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    double tangent = (Double) grad("taggedTangent", t, home,
        Records.make(tagged, 1.0, List.of(), new int[0], 0L));
    assertThat(tangent).isWithin(1e-12).of(gradient[0]);
  }

  @Test
  void aDoubleArrayComponentTakesOneSlotPerElementInItsPlace() throws Exception {
    Class<?> poly = load("Particles$Poly");
    String p = poly.toString();
    List<String> signatures = Arrays.stream(load("ParticlesGrad").getDeclaredMethods())
        .filter(m -> m.getName().matches("poly[A-Z].*") && Modifier.isPublic(m.getModifiers())
            && m.getParameterTypes()[0] != ad4j.runtime.internal.Tape.class)
        .map(m -> m.getReturnType().getSimpleName() + " " + m.getName()
            + Arrays.toString(m.getParameterTypes()))
        .sorted().toList();
    assertThat(signatures).containsExactly(
        "double polyPullback[" + p + ", double, double, class [D]",
        "double polyTangent[" + p + ", double, " + p + ", double]",
        "double polyValueAndGradient[" + p + ", double, class [D]",
        "double polyValueGradientAndHessian[" + p + ", double, class [D, class [[D]",
        "double[] polyGradient[" + p + ", double]",
        "double[] polyHessianVector[" + p + ", double, class [D]",
        "double[][] polyHessian[" + p + ", double]");
    double[] x = {0.5, -1.2, 0.8, 2.0, 0.7}; // c[0..3], then x
    ToDoubleFunction<double[]> f = point -> {
      try {
        return (Double) user("poly", Records.make(poly, Arrays.copyOf(point, 4), 3), point[4]);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
    Object at = Records.make(poly, Arrays.copyOf(x, 4), 3);
    double[] gradient = (double[]) grad("polyGradient", at, x[4]);
    assertThat(gradient).hasLength(5);
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    double[] written = new double[5];
    assertThat((Double) grad("polyValueAndGradient", at, x[4], written))
        .isEqualTo(f.applyAsDouble(x));
    assertThat(written).usingExactEquality().containsExactly(gradient).inOrder();
    double[] d = {0.3, -0.4, 1.1, 0.2, -0.9};
    // the tangent's degree carries nothing: 99 is ignored
    double tangent = (Double) grad("polyTangent", at, x[4],
        Records.make(poly, Arrays.copyOf(d, 4), 99), d[4]);
    assertThat(tangent).isWithin(1e-12 * (1 + Math.abs(dot(gradient, d))))
        .of(dot(gradient, d));
    // its Hessian: columns against central differences of the gradient
    double[][] hessian = (double[][]) grad("polyHessian", at, x[4]);
    double h = 1e-5;
    for (int k = 0; k < 5; k++) {
      double[] up = x.clone();
      double[] down = x.clone();
      up[k] += h;
      down[k] -= h;
      double[] gUp = (double[]) grad("polyGradient", Records.make(poly, Arrays.copyOf(up, 4), 3),
          up[4]);
      double[] gDown = (double[]) grad("polyGradient",
          Records.make(poly, Arrays.copyOf(down, 4), 3), down[4]);
      for (int i = 0; i < 5; i++) {
        assertThat(hessian[i][k]).isWithin(1e-6).of((gUp[i] - gDown[i]) / (2 * h));
      }
    }
    // a record made of a local array and of a parameter, passed to the callee
    ArrayFunctionChecks.of(PARTICLES.get(), "com.example.Particles").check(
        new ArrayFunctionChecks.Call("viaPoly", new Object[] {new double[] {0.5, -1.2, 0.8},
            0.7}, true, true));
  }

  private static void assertRejected(String source, String message, int line) {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(line);
  }

  @Test
  void aStringComponentMadeOfADerivativeCarryingValueAndReadBackIsAnError() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record P(double mass, String name) {}",
        "  @Differentiable static double f(P p) {",
        "    P q = new P(p.mass(), \"m=\" + p.mass());",
        "    return Double.parseDouble(q.name().substring(2)) * p.mass();",
        "  }",
        "}"),
        "'Double.parseDouble(q.name().substring(2))' depends on 'pMass' through '\"m=\" +"
            + " p.mass()' (line 6), which carries no derivative", 7);
  }

  @Test
  void returningARecordWithAStringComponentMadeInTheMethodIsAnErrorAtTheReturnAndOnlyThere() {
    // the name is made of a derivative-carrying value: the members could not give the
    // method's own without running its code again (a parameter's name is returned as it is,
    // RecordResultsWithDataTest)
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record P(double mass, String name) {}",
        "  @Differentiable static P f(P p, double k) {",
        "    return new P(p.mass() * k, \"m=\" + p.mass());",
        "  }",
        "}");
    assertRejected(source, "component 'name' of value record 'P' returned by 'new P(p.mass() *"
        + " k, \"m=\" + p.mass())' carries no derivative and is computed in the method", 6);
    Compilation compilation = InProcessCompiler.javac()
        .compile(JavaFileObjects.forSourceString("com.example.F", source));
    assertThat(compilation.errors()).hasSize(1);
  }
}
