package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * {@code @DerivativeOf} rules whose target a subclass may override. A rule gives the partials
 * of the target's body; a call on an object whose class overrides the target runs another body,
 * so the generated members refuse such a receiver rather than give the rule's derivative of a
 * function the call does not compute (before: with {@code Base.f(x) = x * x} ruled
 * {@code 2 * x} and {@code OVERRIDING} a {@code Sub}, whose {@code f(x)} is {@code x * x * x},
 * {@code onOverridingGradient(0.5)} gave the rules' 0.75 where the method's derivative is 0.5).
 * A rule for a method without a body (an interface's or an abstract one) is an error at the
 * call.
 */
class OverriddenRuleTargetsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "public class Rules {",
      "  public static class Base {",
      "    public double f(double x) { return x * x; }",
      "  }",
      "  public static class Sub extends Base {",
      "    @Override public double f(double x) { return x * x * x; }",
      "  }",
      "  public static class Plain extends Base {}",
      "  @DerivativeOf(owner = Base.class, value = \"f\")",
      "  @Differentiable public static double fX(Base b, double x) { return 2 * x; }",
      "  static final Base OVERRIDING = new Sub();",
      "  static final Base INHERITING = new Plain();",
      "  @Differentiable static double onOverriding(double x) { return OVERRIDING.f(x) * x; }",
      "  @Differentiable static double onInheriting(double x) { return INHERITING.f(x) * x; }",
      "  @Differentiable static double onObject(double x, @NoDerivative Base b) {",
      "    return b.f(x) + x;",
      "  }",
      "  @Differentiable(order = 2) static double curved(double x, double y) {",
      "    return OVERRIDING.f(x * y);",
      "  }",
      "}");

  private static InProcessCompiler.Compiled compiled;

  private static InProcessCompiler.Compiled compiled() {
    if (compiled == null) {
      compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Rules", SOURCE);
    }
    return compiled;
  }

  private static Object call(String member, Class<?>[] types, Object... arguments)
      throws Throwable {
    Method method = compiled().load("com.example.RulesGrad").getDeclaredMethod(member, types);
    method.setAccessible(true);
    try {
      return method.invoke(null, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Object make(String name) throws ReflectiveOperationException {
    Class<?> type = compiled().load("com.example.Rules$" + name);
    var constructor = type.getDeclaredConstructor();
    constructor.setAccessible(true);
    return constructor.newInstance();
  }

  @Test
  void aReceiverThatRunsTheRuledBodyGetsTheRulesDerivative() throws Throwable {
    DerivativeChecks.checkAt(compiled().function("com.example.Rules", "onInheriting", 1), 0.5);
    DerivativeChecks.checkAt(compiled().function("com.example.Rules", "onInheriting", 1), 1.3);
    Class<?> base = compiled().load("com.example.Rules$Base");
    for (String receiver : List.of("Base", "Plain")) {
      double[] gradient = (double[]) call("onObjectGradient",
          new Class<?>[] {double.class, base}, 1.5, make(receiver));
      assertThat(gradient[0]).isWithin(1e-12).of(2 * 1.5 + 1); // d(x^2 + x)/dx
    }
  }

  @Test
  void aReceiverWhoseClassOverridesTheTargetIsRefused() throws Throwable {
    IllegalArgumentException field = assertThrows(IllegalArgumentException.class,
        () -> call("onOverridingGradient", new Class<?>[] {double.class}, 0.5));
    assertThat(field).hasMessageThat().isEqualTo("the receiver of a call of Base.f is a"
        + " com.example.Rules$Sub, which overrides Base.f; its @DerivativeOf rules give"
        + " the derivative of the body of Base.f, which a call on this receiver does not"
        + " run: give rules for the overriding method (owner = its class) and call it on a"
        + " receiver of that type, or make Base.f final");
    assertThrows(IllegalArgumentException.class,
        () -> call("onOverridingTangent", new Class<?>[] {double.class, double.class}, 0.5, 1.0));
    assertThrows(IllegalArgumentException.class, () -> call("onOverridingPullback",
        new Class<?>[] {double.class, double.class, double[].class}, 0.5, 1.0, new double[1]));
    Class<?> base = compiled().load("com.example.Rules$Base");
    assertThrows(IllegalArgumentException.class, () -> call("onObjectGradient",
        new Class<?>[] {double.class, base}, 0.5, make("Sub")));
    assertThrows(IllegalArgumentException.class, () -> call("curvedHessian",
        new Class<?>[] {double.class, double.class}, 0.5, 0.7));
    assertThrows(IllegalArgumentException.class, () -> call("curvedGradient",
        new Class<?>[] {double.class, double.class}, 0.5, 0.7));
  }

  @Test
  void aDefaultMethodOverriddenByASubinterfaceIsRefused() throws Throwable {
    // the class declares no f: the JVM runs J's default, which no walk of superclasses sees
    InProcessCompiler.Compiled defaults = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Defaults", String.join("\n",
            "package com.example;",
            "import ad4j.DerivativeOf;",
            "import ad4j.Differentiable;",
            "public class Defaults {",
            "  public interface I { default double f(double x) { return x * x; } }",
            "  public interface J extends I {",
            "    @Override default double f(double x) { return x * x * x; }",
            "  }",
            "  static final class ThroughJ implements J {}",
            "  static final class ThroughI implements I {}",
            "  @DerivativeOf(owner = I.class, value = \"f\")",
            "  public static double fX(I i, double x) { return 2 * x; }",
            "  static final I THROUGH_J = new ThroughJ();",
            "  static final I THROUGH_I = new ThroughI();",
            "  @Differentiable static double viaJ(double x) { return THROUGH_J.f(x); }",
            "  @Differentiable static double viaI(double x) { return THROUGH_I.f(x) * x; }",
            "}"));
    DerivativeChecks.checkAt(defaults.function("com.example.Defaults", "viaI", 1), 0.5);
    Method viaJ = defaults.load("com.example.DefaultsGrad")
        .getDeclaredMethod("viaJGradient", double.class);
    viaJ.setAccessible(true);
    InvocationTargetException refused = assertThrows(InvocationTargetException.class,
        () -> viaJ.invoke(null, 0.5));
    assertThat(refused.getCause()).isInstanceOf(IllegalArgumentException.class);
    assertThat(refused.getCause()).hasMessageThat().startsWith("the receiver of a call of I.f"
        + " is a com.example.Defaults$ThroughJ, which overrides I.f;");
  }

  @Test
  void aRuleForAMethodWithoutABodyIsAnErrorAtTheCall() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Shapes", String.join("\n",
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "public class Shapes {",
        "  public interface Curve { double at(double x); }",
        "  public static final class Cube implements Curve {",
        "    public double at(double x) { return x * x * x; }",
        "  }",
        "  @DerivativeOf(owner = Curve.class, value = \"at\")",
        "  public static double atX(Curve c, double x) { return 2 * x; }",
        "  static final Curve CURVE = new Cube();",
        "  @Differentiable static double f(double x) {",
        "    return CURVE.at(x) + x;",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("ad4j: call to 'CURVE.at(...)': 'Curve.at'"
        + " has no body, and the call runs the body of the receiver's class, of which its"
        + " @DerivativeOf rules know nothing; give rules for that class's method (owner = its"
        + " class) and call it on a receiver of that type").inFile(file).onLine(13);
  }
}
