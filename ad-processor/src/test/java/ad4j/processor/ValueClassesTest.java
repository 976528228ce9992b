package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

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
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Value classes (DESIGN.md, part 3): a {@code final} class whose {@code final} fields its one
 * constructor sets unchanged, read by getters, is flattened like a value record — an immutable
 * {@code Complex} whose methods are differentiated where they are called. Its members take and
 * return the class ({@code mTangent(Complex a, double t, Complex aDot, double tDot)}), a method
 * returning one is a vector function; a mutable class, or one whose constructor computes its
 * fields, stays an object. Each derivative against differences of the user's own method and
 * forward against reverse, the generated code compiling under {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class ValueClassesTest {
  private static final CompiledOnce COMPLEXES = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Complexes",
          String.join("\n",
              "package com.example;",
              "import ad4j.Differentiable;",
              "public final class Complexes {",
              "  public static final class Complex {",
              "    private final double re, im;",
              "    public Complex(double re, double im) { this.re = re; this.im = im; }",
              "    public double re() { return re; }",
              "    public double im() { return im; }",
              "    public Complex times(Complex o) {",
              "      return new Complex(re * o.re - im * o.im, re * o.im + im * o.re);",
              "    }",
              "    public double abs() { return Math.sqrt(re * re + im * im); }",
              "    @Differentiable public double scaled(double k) { return k * abs() * re; }",
              "  }",
              "  /** Getters named get..., a String field and a value class field. */",
              "  public static final class Phasor {",
              "    private final Complex z;",
              "    private final String unit;",
              "    private final double w;",
              "    public Phasor(Complex z, String unit, double w) {",
              "      this.z = z;",
              "      this.unit = unit;",
              "      this.w = w;",
              "    }",
              "    public Complex getZ() { return z; }",
              "    public String unit() { return unit; }",
              "    public double getW() { return this.w; }",
              "  }",
              "  @Differentiable(order = 2) public static double cx(Complex a, double t) {",
              "    Complex b = a.times(new Complex(t, 1));",
              "    return b.re() * b.im();",
              "  }",
              "  @Differentiable(order = 2) static double viaCx(double x, double y, double t) {",
              "    return cx(new Complex(x, y), t);",
              "  }",
              "  @Differentiable public static Complex sq(Complex a, double k) {",
              "    Complex b = a.times(a);",
              "    return new Complex(b.re() * k, b.im());",
              "  }",
              "  @Differentiable static double viaSq(double x, double y, double k) {",
              "    Complex s = sq(new Complex(x, y), k);",
              "    return s.re() + 2 * s.im() * s.abs();",
              "  }",
              "  @Differentiable static double power(Complex a, int n) {",
              "    Complex p = new Complex(1, 0);",
              "    for (int i = 0; i < n; i++) {",
              "      p = p.times(a);",
              "    }",
              "    return p.abs();",
              "  }",
              "  @Differentiable static double phasor(Phasor p, double t) {",
              "    Complex turn = new Complex(Math.cos(p.getW() * t), Math.sin(p.getW() * t));",
              "    return p.getZ().times(turn).re() * p.unit().length();",
              "  }",
              "}")));

  private static Class<?> load(String name) {
    return COMPLEXES.get().load("com.example." + name);
  }

  private static Object complex(double re, double im) throws Exception {
    Constructor<?> constructor = load("Complexes$Complex")
        .getConstructor(double.class, double.class);
    return constructor.newInstance(re, im);
  }

  private static double[] parts(Object complex) throws Exception {
    Class<?> type = load("Complexes$Complex");
    return new double[] {(Double) type.getMethod("re").invoke(complex),
        (Double) type.getMethod("im").invoke(complex)};
  }

  private static Object grad(String name, Object... arguments) throws Exception {
    return Records.call(load("ComplexesGrad"), name, arguments);
  }

  private static Object user(String name, Object... arguments) throws Exception {
    return Records.call(load("Complexes"), name, arguments);
  }

  private interface Throwing {
    double apply(double[] x) throws Exception;
  }

  private static ToDoubleFunction<double[]> unchecked(Throwing f) {
    return x -> {
      try {
        return f.apply(x);
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

  private static List<String> signatures(String prefix) {
    return Arrays.stream(load("ComplexesGrad").getDeclaredMethods())
        .filter(m -> m.getName().startsWith(prefix) && Modifier.isPublic(m.getModifiers())
            && m.getParameterTypes()[0] != ad4j.runtime.internal.Tape.class)
        .map(m -> m.getReturnType().getSimpleName() + " " + m.getName()
            + Arrays.toString(m.getParameterTypes()))
        .sorted().toList();
  }

  @Test
  void theContractsMembersTakeAndReturnTheComplex() {
    String c = load("Complexes$Complex").toString();
    assertThat(signatures("cx")).containsExactly(
        "double cxPullback[" + c + ", double, double, class [D]",
        "double cxTangent[" + c + ", double, " + c + ", double]",
        "double cxValueAndGradient[" + c + ", double, class [D]",
        "double cxValueGradientAndHessian[" + c + ", double, class [D, class [[D]",
        "double[] cxGradient[" + c + ", double]",
        "double[] cxHessianVector[" + c + ", double, class [D]",
        "double[][] cxHessian[" + c + ", double]");
    assertThat(signatures("sq")).containsExactly(
        "Complex sqPullback[" + c + ", double, " + c + ", class [D]",
        "Complex sqTangent[" + c + ", double, " + c + ", double]",
        "Complex sqValueAndJacobian[" + c + ", double, class [[D]",
        "double[][] sqJacobian[" + c + ", double]");
  }

  @Test
  void aComplexTakesTwoSlotsAndItsMethodsAreDifferentiated() throws Exception {
    double[] x = {0.7, -1.3, 0.4}; // a.re, a.im, t
    ToDoubleFunction<double[]> f = unchecked(p -> (Double) user("cx", complex(p[0], p[1]), p[2]));
    Object a = complex(x[0], x[1]);
    double[] gradient = (double[]) grad("cxGradient", a, x[2]);
    assertThat(gradient).hasLength(3);
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    double[] written = new double[3];
    assertThat((Double) grad("cxValueAndGradient", a, x[2], written))
        .isEqualTo(f.applyAsDouble(x));
    assertThat(written).usingExactEquality().containsExactly(gradient).inOrder();
    double[] adjoints = {1, 2, 3};
    grad("cxPullback", a, x[2], -0.5, adjoints);
    for (int i = 0; i < 3; i++) {
      assertThat(adjoints[i]).isWithin(1e-12).of(i + 1 - 0.5 * gradient[i]);
    }
    double[] d = {0.3, 1.1, -0.6};
    double tangent = (Double) grad("cxTangent", a, x[2], complex(d[0], d[1]), d[2]);
    assertThat(tangent).isWithin(1e-12).of(dot(gradient, d));
    // its Hessian is the one of the same code over three doubles, which is checked too
    CompiledFunction via = COMPLEXES.get().function("com.example.Complexes", "viaCx", 3);
    HessianChecks.checkAt(via, load("ComplexesGrad"), x);
    double[][] expected = (double[][]) grad("viaCxHessian", x[0], x[1], x[2]);
    double[][] hessian = (double[][]) grad("cxHessian", a, x[2]);
    for (int i = 0; i < 3; i++) {
      assertThat(hessian[i]).usingTolerance(1e-12).containsExactly(expected[i]).inOrder();
    }
  }

  @Test
  void aMethodReturningAComplexIsAVectorFunction() throws Exception {
    double[] x = {0.7, -1.3, 1.5}; // a.re, a.im, k
    Object a = complex(x[0], x[1]);
    double[][] jacobian = (double[][]) grad("sqJacobian", a, x[2]);
    for (int row = 0; row < 2; row++) {
      int r = row;
      ToDoubleFunction<double[]> component = unchecked(p ->
          parts(user("sq", complex(p[0], p[1]), p[2]))[r]);
      GradientCheck.check(component, x, jacobian[row]).assertWithin(1e-7);
    }
    double[][] written = new double[2][3];
    Object value = grad("sqValueAndJacobian", a, x[2], written);
    assertThat(parts(value)).usingExactEquality()
        .containsExactly(parts(user("sq", a, x[2]))).inOrder();
    for (int row = 0; row < 2; row++) {
      assertThat(written[row]).usingTolerance(1e-12).containsExactly(jacobian[row]).inOrder();
    }
    double[] d = {0.3, 1.1, -0.6};
    double[] tangent = parts(grad("sqTangent", a, x[2], complex(d[0], d[1]), d[2]));
    double[] seed = {0.8, -1.7};
    double[] adjoints = new double[3];
    grad("sqPullback", a, x[2], complex(seed[0], seed[1]), adjoints);
    for (int row = 0; row < 2; row++) {
      assertThat(tangent[row]).isWithin(1e-12).of(dot(jacobian[row], d));
    }
    for (int j = 0; j < 3; j++) {
      assertThat(adjoints[j]).isWithin(1e-12)
          .of(seed[0] * jacobian[0][j] + seed[1] * jacobian[1][j]);
    }
    CompiledFunction via = COMPLEXES.get().function("com.example.Complexes", "viaSq", 3);
    DerivativeChecks.checkAt(via, x);
  }

  @Test
  void aComplexInALoopAndAClassOfAComplexAStringAndADouble() throws Exception {
    double[] x = {0.6, 0.5};
    ToDoubleFunction<double[]> power = unchecked(p -> (Double) user("power",
        complex(p[0], p[1]), 5));
    double[] gradient = (double[]) grad("powerGradient", complex(x[0], x[1]), 5);
    GradientCheck.check(power, x, gradient).assertWithin(1e-7);
    double[] d = {-0.4, 1.2};
    assertThat((Double) grad("powerTangent", complex(x[0], x[1]), 5, complex(d[0], d[1])))
        .isWithin(1e-12).of(dot(gradient, d));

    Constructor<?> phasorOf = load("Complexes$Phasor")
        .getConstructor(load("Complexes$Complex"), String.class, double.class);
    double[] y = {0.7, -1.3, 2.0, 0.4}; // z.re, z.im, w, t
    ToDoubleFunction<double[]> phasor = unchecked(p -> (Double) user("phasor",
        phasorOf.newInstance(complex(p[0], p[1]), "volt", p[2]), p[3]));
    Object p = phasorOf.newInstance(complex(y[0], y[1]), "volt", y[2]);
    double[] g = (double[]) grad("phasorGradient", p, y[3]);
    assertThat(g).hasLength(4); // z's two slots, w, then t; the unit none
    GradientCheck.check(phasor, y, g).assertWithin(1e-7);
    double[] e = {0.3, 1.1, -0.6, 0.25};
    double tangent = (Double) grad("phasorTangent", p, y[3],
        phasorOf.newInstance(complex(e[0], e[1]), "ignored", e[2]), e[3]);
    assertThat(tangent).isWithin(1e-12).of(dot(g, e));
  }

  @Test
  void anInstanceMethodOfAValueClassDifferentiatesWithRespectToItsReceiverFirst()
      throws Exception {
    Class<?> type = load("Complexes$Complex");
    double[] x = {0.7, -1.3, 1.5}; // re, im, k
    ToDoubleFunction<double[]> f = unchecked(p -> (Double) type
        .getMethod("scaled", double.class).invoke(complex(p[0], p[1]), p[2]));
    Class<?> grad = load("Complexes_ComplexGrad");
    double[] gradient = (double[]) Records.call(grad, "scaledGradient", complex(x[0], x[1]),
        x[2]);
    assertThat(gradient).hasLength(3);
    GradientCheck.check(f, x, gradient).assertWithin(1e-7);
    double[] d = {0.3, 1.1, -0.6};
    double tangent = (Double) Records.call(grad, "scaledTangent", complex(x[0], x[1]), x[2],
        complex(d[0], d[1]), d[2]);
    assertThat(tangent).isWithin(1e-12).of(dot(gradient, d));
  }

  private static void assertRejected(String source, String message, int line) {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(line);
  }

  @Test
  void aMutableClassStaysAnObjectThatCarriesNoDerivative() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class Complex {",
        "    private double re, im;",
        "    Complex(double re, double im) { this.re = re; this.im = im; }",
        "    double re() { return re; }",
        "    double im() { return im; }",
        "  }",
        "  @Differentiable static double f(double t) {",
        "    Complex b = new Complex(t, 1);",
        "    return b.re() * b.im();",
        "  }",
        "}"),
        "'t' carries a derivative into 'new Complex(t, 1)', which ad4j cannot differentiate:"
            + " objects carry no derivatives", 11);
  }

  @Test
  void aClassWithAPrivateConstructorStaysAnObjectAndOneImplementingAnInterfaceIsAValueClass()
      throws Exception {
    // generated code could not make the first again: it is an object, made by a call run as
    // written, and the derivative through it is an error
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class Real {",
        "    private final double re;",
        "    private Real(double re) { this.re = re; }",
        "    double re() { return re; }",
        "    static Real of(double re) { return new Real(re); }",
        "  }",
        "  @Differentiable static double f(double x) {",
        "    Real r = Real.of(x);",
        "    return r.re() * x;",
        "  }",
        "}"),
        "'r.re()' depends on 'x' through 'Real.of' (line 11), which carries no derivative", 12);
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Ordered", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Ordered {",
            "  static final class Real implements Comparable<Real> {",
            "    private final double re;",
            "    Real(double re) { this.re = re; }",
            "    double re() { return re; }",
            "    @Override public int compareTo(Real o) { return Double.compare(re, o.re); }",
            "  }",
            "  @Differentiable static double f(Real r, double x) {",
            "    return r.re() * r.re() * x;",
            "  }",
            "}"));
    Class<?> real = compiled.load("com.example.Ordered$Real");
    Constructor<?> make = real.getDeclaredConstructor(double.class);
    make.setAccessible(true);
    double[] gradient = (double[]) Records.call(compiled.load("com.example.OrderedGrad"),
        "fGradient", make.newInstance(1.5), 0.5);
    // by hand: d/dr = 2 r x, d/dx = r^2
    assertThat(gradient).usingTolerance(1e-15).containsExactly(1.5, 2.25).inOrder();
  }

  @Test
  void aClassWhoseConstructorComputesItsFieldsStaysAnObject() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class Scaled {",
        "    private final double v;",
        "    Scaled(double v) { this.v = 2 * v; }",
        "    double v() { return v; }",
        "  }",
        "  @Differentiable static double f(double t) {",
        "    Scaled s = new Scaled(t);",
        "    return s.v() * t;",
        "  }",
        "}"),
        "'t' carries a derivative into 'new Scaled(t)', which ad4j cannot differentiate:"
            + " objects carry no derivatives", 10);
  }
}
