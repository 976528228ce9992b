package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.GradientCheck;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Instance {@code @Differentiable} methods (DESIGN.md, part 3, "Instance methods"): every
 * generated member is static and takes the receiver first; the receiver and the fields read
 * through it (private ones included) carry no derivative; instance callees are called on their
 * receiver, from instance and static methods, in loops too; order 2 and vector results work as
 * for static methods.
 */
@ExtendWith(TapeIsEmpty.class)
class InstanceMethodsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Spring {",
      "  private final double stiffness;",
      "  final double[] weights;",
      "  Spring(double stiffness, double[] weights) {",
      "    this.stiffness = stiffness;",
      "    this.weights = weights;",
      "  }",
      "  double rest() { return weights[0]; }",
      "  @Differentiable double energy(double x, double v) {",
      "    double stretch = x - rest();",
      "    return 0.5 * stiffness * stretch * stretch + 0.5 * this.weights[1] * v * v;",
      "  }",
      "  @Differentiable double total(double[] xs) {",
      "    double t = 0;",
      "    for (int i = 0; i < xs.length; i++) {",
      "      t += energy(xs[i], weights[1] * xs[i]) * Math.cos(xs[i]);",
      "    }",
      "    return t + this.energy(xs[0], 1.0);",
      "  }",
      "  @Differentiable static double scaled(Spring s, double x) {",
      "    return s.energy(x, x) * x;",
      "  }",
      "  @Differentiable(order = 2) double curved(double x, double y) {",
      "    return stiffness * Math.sin(x * y) + x * x * y;",
      "  }",
      "  @Differentiable double[] forces(double x, double y) {",
      "    return new double[] {-stiffness * x * y, Math.exp(weights[0] * y)};",
      "  }",
      "}");

  private static final CompiledOnce SPRING = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Spring", SOURCE));

  private static final double STIFFNESS = 1.7;
  private static final double[] WEIGHTS = {0.4, 1.3};

  private Object spring() throws Exception {
    var constructor = SPRING.get().load("com.example.Spring")
        .getDeclaredConstructor(double.class, double[].class);
    constructor.setAccessible(true);
    return constructor.newInstance(STIFFNESS, WEIGHTS.clone());
  }

  /** The user's method on {@code self}. */
  private double value(String name, Object self, Object... arguments) throws Exception {
    return (Double) call(SPRING.get().load("com.example.Spring"), name, self, arguments);
  }

  /** The generated member {@code SpringGrad.name(self, arguments)}. */
  private Object generated(String name, Object self, Object... arguments) throws Exception {
    Object[] all = new Object[arguments.length + 1];
    all[0] = self;
    System.arraycopy(arguments, 0, all, 1, arguments.length);
    return call(SPRING.get().load("com.example.SpringGrad"), name, null, all);
  }

  private static Object call(Class<?> owner, String name, Object self, Object[] arguments)
      throws Exception {
    for (Method method : owner.getDeclaredMethods()) {
      if (method.getName().equals(name) && method.getParameterCount() == arguments.length
          && (arguments.length == 0
              || method.getParameterTypes()[0] != ad4j.runtime.internal.Tape.class)) {
        method.setAccessible(true);
        try {
          return method.invoke(self, arguments);
        } catch (InvocationTargetException e) {
          throw new AssertionError(name + " threw", e.getCause());
        }
      }
    }
    throw new AssertionError("no " + name + " with " + arguments.length + " parameters");
  }

  @Test
  void everyMemberIsStaticAndTakesTheReceiverFirst() {
    Class<?> grad = SPRING.get().load("com.example.SpringGrad");
    Class<?> spring = SPRING.get().load("com.example.Spring");
    int checked = 0;
    for (Method method : grad.getDeclaredMethods()) {
      if (Modifier.isPrivate(method.getModifiers()) || method.getName().startsWith("scaled")) {
        continue;
      }
      assertThat(Modifier.isStatic(method.getModifiers())).isTrue();
      List<Class<?>> types = Arrays.asList(method.getParameterTypes());
      int receiver = types.get(0) == ad4j.runtime.internal.Tape.class ? 1 : 0; // for callers' code
      assertThat(types.get(receiver)).isEqualTo(spring);
      checked++;
    }
    assertThat(checked).isAtLeast(20);
  }

  @Test
  void gradientOfAMethodReadingPrivateAndPackageFieldsAndCallingHelpers() throws Exception {
    Object self = spring();
    double[] x = {1.1, -0.6};
    double[] gradient = (double[]) generated("energyGradient", self, x[0], x[1]);
    // by hand: 0.5 k (x - w0)^2 + 0.5 w1 v^2
    assertThat(gradient[0]).isWithin(1e-14).of(STIFFNESS * (x[0] - WEIGHTS[0]));
    assertThat(gradient[1]).isWithin(1e-14).of(WEIGHTS[1] * x[1]);
    double[] out = new double[2];
    assertThat((Double) generated("energyValueAndGradient", self, x[0], x[1], out))
        .isEqualTo(value("energy", self, x[0], x[1]));
    assertThat(out).usingExactEquality().containsExactly(gradient).inOrder();
  }

  @Test
  void instanceCalleesInALoopAgainstDifferencesAndForwardAgainstReverse() throws Exception {
    Object self = spring();
    double[] xs = {0.3, -1.2, 0.8, 2.1};
    double[] gradient = (double[]) generated("totalGradient", self, (Object) xs.clone());
    GradientCheck.check(point -> {
      try {
        return value("total", self, (Object) point);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }, xs, gradient).assertWithin(1e-7);
    double[] direction = {0.5, -0.25, 1.5, -2.0};
    double tangent = (Double) generated("totalTangent", self, xs.clone(), direction.clone());
    double dot = 0;
    for (int i = 0; i < xs.length; i++) {
      dot += gradient[i] * direction[i];
    }
    assertThat(tangent).isWithin(1e-12 * Math.abs(dot) + 1e-12).of(dot);
    double[] adjoints = new double[xs.length];
    assertThat((Double) generated("totalPullback", self, xs.clone(), 2.0, adjoints))
        .isEqualTo(value("total", self, (Object) xs.clone()));
    for (int i = 0; i < xs.length; i++) {
      assertThat(adjoints[i]).isWithin(1e-12 * Math.abs(gradient[i]) + 1e-12)
          .of(2 * gradient[i]);
    }
  }

  @Test
  void aStaticMethodCallsAnInstanceMethodOnItsParameter() throws Exception {
    Object self = spring();
    Class<?> grad = SPRING.get().load("com.example.SpringGrad");
    Method gradientMember = Arrays.stream(grad.getDeclaredMethods())
        .filter(m -> m.getName().equals("scaledGradient")).findFirst().orElseThrow();
    gradientMember.setAccessible(true);
    double x = 0.9;
    double[] gradient = (double[]) gradientMember.invoke(null, self, x);
    // by hand: s(x) = (0.5 k (x - w0)^2 + 0.5 w1 x^2) x
    double e = 0.5 * STIFFNESS * (x - WEIGHTS[0]) * (x - WEIGHTS[0]) + 0.5 * WEIGHTS[1] * x * x;
    double de = STIFFNESS * (x - WEIGHTS[0]) + WEIGHTS[1] * x;
    assertThat(gradient[0]).isWithin(1e-13).of(de * x + e);
  }

  @Test
  void orderTwoHessianOfAnInstanceMethod() throws Exception {
    Object self = spring();
    double x = 0.7;
    double y = -1.1;
    double[][] hessian = (double[][]) generated("curvedHessian", self, x, y);
    double s = Math.sin(x * y);
    double c = Math.cos(x * y);
    // f = k sin(xy) + x^2 y
    assertThat(hessian[0][0]).isWithin(1e-13).of(-STIFFNESS * s * y * y + 2 * y);
    assertThat(hessian[0][1]).isWithin(1e-13).of(STIFFNESS * (c - s * x * y) + 2 * x);
    assertThat(hessian[1][0]).isWithin(1e-13).of(hessian[0][1]);
    assertThat(hessian[1][1]).isWithin(1e-13).of(-STIFFNESS * s * x * x);
  }

  @Test
  void jacobianOfAnInstanceVectorFunction() throws Exception {
    Object self = spring();
    double x = 0.7;
    double y = -1.1;
    double[][] jacobian = (double[][]) generated("forcesJacobian", self, x, y);
    assertThat(jacobian[0][0]).isWithin(1e-14).of(-STIFFNESS * y);
    assertThat(jacobian[0][1]).isWithin(1e-14).of(-STIFFNESS * x);
    assertThat(jacobian[1][0]).isEqualTo(0.0);
    assertThat(jacobian[1][1]).isWithin(1e-14).of(WEIGHTS[0] * Math.exp(WEIGHTS[0] * y));
    double[] tangent = (double[]) generated("forcesTangent", self, x, y, 0.3, -0.8);
    for (int i = 0; i < 2; i++) {
      assertThat(tangent[i]).isWithin(1e-14)
          .of(jacobian[i][0] * 0.3 + jacobian[i][1] * -0.8);
    }
  }

  private static void assertRejected(String source, String message, int line) {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(line);
  }

  @Test
  void anInstanceMethodOfARecordMixingDoublesAndOthersIsAnError() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "record F(double a, char unit) {",
        "  @Differentiable double f(double x) { return a * x; }",
        "}"),
        "@Differentiable method 'f' is an instance method of record 'F', whose components"
            + " carry derivatives beside one ad4j does not flatten yet (component 'unit' of type"
            + " 'char'): ad4j does not yet differentiate with respect to such a record", 4);
  }

  @Test
  void anInstanceMethodOfAGenericClassIsAnError() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F<T> {",
        "  T tag;",
        "  @Differentiable double f(double x) { return x * x; }",
        "}"),
        "@Differentiable method 'f' is an instance method of generic class 'F'", 5);
  }

  @Test
  void aPrivateInstanceCalleeIsAnError() {
    assertRejected(String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable private double g(double x) { return x * x; }",
        "  @Differentiable double f(double x) {",
        "    return g(x) + 1;",
        "  }",
        "}"),
        "call to private @Differentiable instance method 'g': generated code lives in another"
            + " class and cannot call it; make it package-private", 6);
  }
}
