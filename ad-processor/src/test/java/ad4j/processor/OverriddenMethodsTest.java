package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Instance {@code @Differentiable} methods that a subclass may override (neither the method nor
 * its class {@code final}). Their generated members differentiate the body ad4j saw; for an
 * object of a subclass that overrides the method, a call would run the subclass's body, so they
 * throw rather than give the derivative of another function (before: {@code baseGradient} of a
 * subclass overriding {@code a * a * k} with {@code 100 * a} gave 4 at 1, where the call's
 * derivative is 100). Objects of the declaring class and of subclasses that do not override it
 * get the derivatives, and so do final methods whatever the object's class.
 */
class OverriddenMethodsTest {
  private static final String BASE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "public class Base {",
      "  public double k = 2;",
      "  @Differentiable public double base(double a) { return a * a * k; }",
      "  @Differentiable public double caller(double a, double b) { return base(a) * b; }",
      "  @Differentiable public final double fixed(double a) { return a * a * a * k; }",
      "  @Differentiable(order = 2) public double curved(double a, double b) {",
      "    return a * a * b * k;",
      "  }",
      "  @Differentiable double local(double a) { return a * k; }",
      "}");
  private static final String SUB = String.join("\n",
      "package com.example;",
      "public class Sub extends Base {",
      "  @Override public double base(double a) { return 100 * a; }",
      "  @Override public double curved(double a, double b) { return a + b; }",
      "}");
  private static final String PLAIN = String.join("\n",
      "package com.example;",
      "public class Plain extends Base {}");
  /** Declares local(double) in another package: no override of a package-private method. */
  private static final String ELSEWHERE = String.join("\n",
      "package com.other;",
      "public class Elsewhere extends com.example.Base {",
      "  public double local(double a) { return -a; }",
      "}");

  /** An enum whose constant MUL has a body: a subclass of Op that overrides apply. */
  private static final String OP = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "public enum Op {",
      "  ADD, MUL { @Override double apply(double x, double y) { return x * y; } };",
      "  @Differentiable double apply(double x, double y) { return x + y; }",
      "}");
  private static final String OPS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "public final class Ops {",
      "  @Differentiable static double one(double a, double b, @NoDerivative Op op) {",
      "    return op.apply(a, b) * a;",
      "  }",
      "  @Differentiable static double total(double a, double b) {",
      "    double s = 0;",
      "    for (Op op : Op.values()) { s += op.apply(a, b); }",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce ENUMS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Op", OP,
          "com.example.Ops", OPS));

  private static InProcessCompiler.Compiled compiled;

  private static InProcessCompiler.Compiled compiled() {
    if (compiled == null) {
      compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Base", BASE, "com.example.Sub", SUB, "com.example.Plain", PLAIN,
          "com.other.Elsewhere", ELSEWHERE);
    }
    return compiled;
  }

  private static Object make(String name) throws ReflectiveOperationException {
    return compiled().load(name).getConstructor().newInstance();
  }

  private static Object call(String member, Class<?>[] types, Object... arguments)
      throws Throwable {
    Class<?> grad = compiled().load("com.example.BaseGrad");
    Method method = grad.getDeclaredMethod(member, types);
    method.setAccessible(true);
    try {
      return method.invoke(null, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Class<?> base() {
    return compiled().load("com.example.Base");
  }

  @Test
  void objectsOfTheClassAndOfSubclassesThatDoNotOverrideGetTheDerivatives() throws Throwable {
    for (String receiver : List.of("com.example.Base", "com.example.Plain")) {
      Object self = make(receiver);
      double[] gradient = (double[]) call("baseGradient",
          new Class<?>[] {base(), double.class}, self, 1.5);
      assertThat(gradient[0]).isWithin(1e-12).of(2 * 1.5 * 2); // d(a^2 k)/da
      double tangent = (double) call("callerTangent", new Class<?>[] {base(), double.class,
          double.class, double.class, double.class}, self, 1.5, 0.5, 1.0, 0.0);
      assertThat(tangent).isWithin(1e-12).of(2 * 1.5 * 2 * 0.5); // d(a^2 k b)/da
      double[][] hessian = (double[][]) call("curvedHessian",
          new Class<?>[] {base(), double.class, double.class}, self, 1.5, 0.5);
      assertThat(hessian[0][0]).isWithin(1e-12).of(2 * 0.5 * 2);
      assertThat(hessian[0][1]).isWithin(1e-12).of(2 * 1.5 * 2);
    }
  }

  @Test
  void anObjectOfASubclassThatOverridesTheMethodIsRefused() throws Throwable {
    Object sub = make("com.example.Sub");
    IllegalArgumentException gradient = assertThrows(IllegalArgumentException.class,
        () -> call("baseGradient", new Class<?>[] {base(), double.class}, sub, 1.0));
    assertThat(gradient).hasMessageThat().isEqualTo("BaseGrad.baseGradient: the receiver is a"
        + " com.example.Sub, which overrides Base.base; ad4j differentiated the body of"
        + " Base.base, which a call on this receiver does not run, and generated members do not"
        + " dispatch on the receiver's class: call the members generated for the overriding"
        + " method (@Differentiable on it) on a receiver declared of its class, or make"
        + " Base.base final");
    assertThrows(IllegalArgumentException.class, () -> call("baseValueAndGradient",
        new Class<?>[] {base(), double.class, double[].class}, sub, 1.0, new double[1]));
    assertThrows(IllegalArgumentException.class, () -> call("baseTangent",
        new Class<?>[] {base(), double.class, double.class}, sub, 1.0, 1.0));
    assertThrows(IllegalArgumentException.class, () -> call("basePullback",
        new Class<?>[] {base(), double.class, double.class, double[].class}, sub, 1.0, 1.0,
        new double[1]));
    IllegalArgumentException hessian = assertThrows(IllegalArgumentException.class,
        () -> call("curvedHessian", new Class<?>[] {base(), double.class, double.class}, sub,
            1.0, 1.0));
    assertThat(hessian).hasMessageThat().startsWith("BaseGrad.curvedHessian: the receiver is a"
        + " com.example.Sub, which overrides Base.curved;");
  }

  @Test
  void aCallerWhoseCalleeTheObjectOverridesIsRefused() throws Throwable {
    // caller is not overridden, but the base(a) it calls is, for this object
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> call("callerGradient", new Class<?>[] {base(), double.class, double.class},
            make("com.example.Sub"), 1.0, 2.0));
    assertThat(refused).hasMessageThat().contains("which overrides Base.base;");
  }

  @Test
  void anEnumConstantWithABodyThatOverridesTheMethodIsRefused() throws Throwable {
    // MUL's body is a subclass of Op: the members gave the derivative of ADD's x + y for it
    // (totalGradient [2, 2] at (1.5, 0.5), where the sum x + y + x * y has [1.5, 2.5])
    Class<?> op = ENUMS.get().load("com.example.Op");
    Class<?> opGrad = ENUMS.get().load("com.example.OpGrad");
    Class<?> opsGrad = ENUMS.get().load("com.example.OpsGrad");
    Object add = op.getField("ADD").get(null);
    Object mul = op.getField("MUL").get(null);
    Class<?>[] applyTypes = {op, double.class, double.class};
    assertThat((double[]) invoke(opGrad, "applyGradient", applyTypes, add, 1.5, 0.5))
        .usingExactEquality().containsExactly(1.0, 1.0).inOrder();
    assertThat((double[]) invoke(opsGrad, "oneGradient", new Class<?>[] {double.class,
        double.class, op}, 1.5, 0.5, add)).usingExactEquality()
        .containsExactly(2 * 1.5 + 0.5, 1.5).inOrder();
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> invoke(opGrad, "applyGradient", applyTypes, mul, 1.5, 0.5));
    assertThat(refused).hasMessageThat().contains("which overrides Op.apply;");
    assertThrows(IllegalArgumentException.class, () -> invoke(opGrad, "applyTangent",
        new Class<?>[] {op, double.class, double.class, double.class, double.class}, mul, 1.5,
        0.5, 1.0, 0.0));
    assertThrows(IllegalArgumentException.class, () -> invoke(opGrad, "applyPullback",
        new Class<?>[] {op, double.class, double.class, double.class, double[].class}, mul,
        1.5, 0.5, 1.0, new double[2]));
    assertThrows(IllegalArgumentException.class, () -> invoke(opsGrad, "oneTangent",
        new Class<?>[] {double.class, double.class, op, double.class, double.class}, 1.5, 0.5,
        mul, 1.0, 0.0));
    assertThrows(IllegalArgumentException.class, () -> invoke(opsGrad, "totalGradient",
        new Class<?>[] {double.class, double.class}, 1.5, 0.5));
    assertThrows(IllegalArgumentException.class, () -> invoke(opsGrad, "totalTangent",
        new Class<?>[] {double.class, double.class, double.class, double.class}, 1.5, 0.5,
        1.0, 0.0));
  }

  private static Object invoke(Class<?> owner, String member, Class<?>[] types,
      Object... arguments) throws Throwable {
    Method method = owner.getDeclaredMethod(member, types);
    method.setAccessible(true);
    try {
      return method.invoke(null, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Test
  void aFinalMethodAndAPackagePrivateOneDeclaredAgainElsewhereAreNotOverridden()
      throws Throwable {
    double[] fixed = (double[]) call("fixedGradient", new Class<?>[] {base(), double.class},
        make("com.example.Sub"), 1.5);
    assertThat(fixed[0]).isWithin(1e-12).of(3 * 1.5 * 1.5 * 2);
    // com.other.Elsewhere.local does not override the package-private Base.local (JLS 8.4.8.1)
    double[] local = (double[]) call("localGradient", new Class<?>[] {base(), double.class},
        make("com.other.Elsewhere"), 1.5);
    assertThat(local[0]).isWithin(1e-12).of(2.0);
  }
}
