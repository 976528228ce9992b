package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Names and calls resolved as javac resolves them (JLS 6.4.1, 8.3, 8.4.8, 8.5, 15.12): a
 * class's own static field, method or member class hides the inherited one, the innermost
 * class having a name wins, locals and parameters shadow fields; and calls javac accepts are
 * accepted: generic methods, variable arity calls, a local declared in one group of a switch
 * and used in a later one, static methods inherited through classes generated code cannot
 * name. Each function is checked against the user's own method (values bit for bit), finite
 * differences, and forward against reverse mode ({@link DerivativeChecks}).
 */
@ExtendWith(TapeIsEmpty.class)
class ResolutionTest {
  static final String CONSTANTS = String.join("\n",
      "package com.example;",
      "interface Constants { double EPS = 1e-3; double SCALE = 2.0; }");

  static final String BASE = String.join("\n",
      "package com.example;",
      "class Base {",
      "  static final double EPS = 1e-6;",
      "  static final double OFFSET = Math.sqrt(2.0);",
      "  static double helper(double t) { return 2 * t; }",
      "  static double shift(int k) { return k + 0.25; }",
      "  static class Table { static final double FACTOR = 3.0; }",
      "}");

  static final String HIDING = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Hiding extends Base implements Constants {",
      "  static final double EPS = 0.5;",
      "  static final double OFFSET = Math.cbrt(3.0);",
      "  static double helper(double t) { return 3 * t; }",
      "  static class Table { static final double FACTOR = 5.0; }",
      "  @Differentiable static double constants(double x) {",
      "    return EPS * x * x + OFFSET * x + Table.FACTOR * x + SCALE + Hiding.EPS * x;",
      "  }",
      "  @Differentiable static double helpers(double x) {",
      "    return Math.sin(x) * helper(2.0) + shift(3) * x;",
      "  }",
      "  @Differentiable static double shadowed(double x, double EPS) {",
      "    double SCALE = x * 4;",
      "    return EPS * SCALE;",
      "  }",
      "  static final class Inner extends Base {",
      "    static final double SCALE = 7.0;",
      "    static double helper(double t) { return t * t; }",
      "    @Differentiable static double nested(double x) {",
      "      return SCALE * x + helper(1.5) * x + EPS + OFFSET * x;",
      "    }",
      "  }",
      "}");

  static final String CALLS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.List;",
      "import java.util.Objects;",
      "final class Calls {",
      "  static <T> T id(T t) { return t; }",
      "  static int logged;",
      "  static void log(String format, Object... arguments) { logged += arguments.length; }",
      "  @Differentiable static double sumOfSquares(double... xs) {",
      "    double s = 0;",
      "    for (double v : xs) { s += v * v; }",
      "    return s;",
      "  }",
      "  @Differentiable static double generic(double x) {",
      "    Objects.requireNonNull(\"s\");",
      "    List<Integer> sizes = List.of(1, 2, 3);",
      "    String word = id(\"four\");",
      "    return x * sizes.size() + word.length() * x * x;",
      "  }",
      "  @SuppressWarnings(\"ad4j.zero-derivative\") // text.length(): an int, derivative 0",
      "  @Differentiable static double variableArity(double x, double y) {",
      "    String text = String.format(\"%.3f\", x);",
      "    log(\"x=%s y=%s\", x, y);",
      "    return text.length() * x + sumOfSquares(x, y, x * y) + sumOfSquares(y);",
      "  }",
      "}");

  static final String GROUPS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Groups {",
      "  @Differentiable static double f(double x) {",
      "    double r = 0;",
      "    for (int k = 0; k < 3; k++) {",
      "      switch (k) {",
      "        case 0:",
      "          double t = x * 2;",
      "          r += t;",
      "          break;",
      "        case 1:",
      "          t = Math.sin(x);",
      "          r += t * t;",
      "          break;",
      "        default:",
      "          t = x * x * x;",
      "          r += t;",
      "      }",
      "    }",
      "    return r;",
      "  }",
      "}");

  static final String MODEL = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "class Helpers {",
      "  static final double RATE = Math.log(3.0);",
      "  static double twice(double t) { return 2 * t; }",
      "  @Differentiable static double square(double t) { return t * t; }",
      "}",
      "final class Model extends Helpers {",
      "  @Differentiable static double f(double x) {",
      "    return twice(1.5) * square(x) + RATE * x;",
      "  }",
      "}");

  static final String LIB_BASE = String.join("\n",
      "package com.lib;",
      "class Base {",
      "  public static final double RATE = Math.log(3.0);",
      "  public static double twice(double t) { return 2 * t; }",
      "}");

  static final String LIB_API = String.join("\n",
      "package com.lib;",
      "public class Api extends Base {}");

  static final String USER = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import com.lib.Api;",
      "final class User extends Api {",
      "  @Differentiable static double f(double x) {",
      "    return twice(1.5) * x * x + RATE * x + Api.twice(0.25) + Api.RATE;",
      "  }",
      "}");

  static final String SCALES = String.join("\n",
      "package com.example;",
      "final class Scales {",
      "  static double scale(double a) { return a * 10; }",
      "  static final double LEVEL = 4.0;",
      "}");

  static final String FACTORS = String.join("\n",
      "package com.example;",
      "final class Factors {",
      "  static double scale(int a) { return a + 0.5; }",
      "  static double scale(double a) { return a * 100; }",
      "  static final double LEVEL = 9.0;",
      "}");

  static final String IMPORTS = String.join("\n",
      "package com.example;",
      "import static com.example.Factors.*;",
      "import static com.example.Scales.LEVEL;",
      "import static com.example.Scales.scale;",
      "import ad4j.Differentiable;",
      "final class Imports {",
      "  @Differentiable static double f(double x) {",
      "    return scale(2) * x * x + scale(0.5) * x + LEVEL * x;",
      "  }",
      "}");

  private static final CompiledOnce HIDDEN = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Constants", CONSTANTS, "com.example.Base", BASE,
          "com.example.Hiding", HIDING));

  private static Compiled hidden() {
    return HIDDEN.get();
  }

  @Test
  void aClassesOwnStaticFieldsHideInheritedOnes() {
    CompiledFunction constants = hidden().function("com.example.Hiding", "constants", 1);
    DerivativeChecks.checkAt(constants, 0.7);
    DerivativeChecks.checkAt(constants, -1.9);
    // 0.5 x^2 + cbrt(3) x + 5 x + 2 + 0.5 x: Hiding's EPS, OFFSET and Table
    double x = 0.7;
    assertThat(constants.gradient(x)[0]).isWithin(1e-12)
        .of(2 * 0.5 * x + Math.cbrt(3.0) + 5.0 + 0.5);
  }

  @Test
  void aClassesOwnStaticMethodsHideInheritedOnes() {
    CompiledFunction helpers = hidden().function("com.example.Hiding", "helpers", 1);
    DerivativeChecks.checkAt(helpers, 0.7);
    DerivativeChecks.checkAt(helpers, 2.3);
    // sin(x) * Hiding.helper(2) + Base.shift(3) x
    assertThat(helpers.gradient(0.7)[0]).isWithin(1e-12).of(Math.cos(0.7) * 6.0 + 3.25);
  }

  @Test
  void parametersAndLocalsShadowFields() {
    CompiledFunction shadowed = hidden().function("com.example.Hiding", "shadowed", 2);
    DerivativeChecks.checkAt(shadowed, 0.7, -1.2);
    // EPS * 4 x with the parameter EPS
    assertThat(shadowed.gradient(0.7, -1.2)).usingTolerance(1e-12)
        .containsExactly(-1.2 * 4, 0.7 * 4).inOrder();
  }

  @Test
  void theInnermostClassHavingANameWins() {
    CompiledFunction nested = hidden().function("com.example.Hiding$Inner",
        "com.example.Hiding_InnerGrad", "nested", 1);
    DerivativeChecks.checkAt(nested, 0.7);
    // Inner's SCALE and helper, Base's EPS and OFFSET inherited by Inner (not Hiding's)
    assertThat(nested.gradient(0.7)[0]).isWithin(1e-12).of(7.0 + 2.25 + Math.sqrt(2.0));
  }

  @Test
  void singleStaticImportsComeBeforeOnDemandOnes() {
    // as javac resolves it: the single import's Scales.scale(double) applies to scale(2) and
    // scale(0.5), so Factors' methods, imported on demand, are not considered (though
    // Factors.scale(int) is more specific); LEVEL: the single import's
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Scales", SCALES, "com.example.Factors", FACTORS,
        "com.example.Imports", IMPORTS);
    CompiledFunction f = compiled.function("com.example.Imports", "f", 1);
    DerivativeChecks.checkAt(f, 0.7);
    assertThat(f.gradient(0.7)[0]).isWithin(1e-12).of(2 * 20.0 * 0.7 + 5.0 + 4.0);
  }

  @Test
  void genericAndVariableArityCallsAreAccepted() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Calls", CALLS);
    CompiledFunction generic = compiled.function("com.example.Calls", "generic", 1);
    DerivativeChecks.checkAt(generic, 0.7);
    assertThat(generic.gradient(0.7)[0]).isWithin(1e-12).of(3 + 8 * 0.7);
    CompiledFunction variableArity = compiled.function("com.example.Calls", "variableArity", 2);
    DerivativeChecks.checkAt(variableArity, 0.7, -1.3);
    DerivativeChecks.checkAt(variableArity, 2.5, 0.4);
    // "0.700".length() x + x^2 + y^2 + x^2 y^2 + y^2
    double x = 0.7;
    double y = -1.3;
    assertThat(variableArity.gradient(x, y)).usingTolerance(1e-12)
        .containsExactly(5 + 2 * x + 2 * x * y * y, 2 * y + 2 * x * x * y + 2 * y).inOrder();
  }

  @Test
  void aLocalOfOneGroupOfASwitchIsInScopeInTheGroupsAfterIt() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Groups", GROUPS);
    CompiledFunction f = compiled.function("com.example.Groups", "f", 1);
    DerivativeChecks.checkAt(f, 0.7);
    DerivativeChecks.checkAt(f, -1.4);
    double x = 0.7;
    assertThat(f.gradient(x)[0]).isWithin(1e-12)
        .of(2 + 2 * Math.sin(x) * Math.cos(x) + 3 * x * x);
  }

  @Test
  void staticMethodsInheritedThroughAnAuxiliaryClass() {
    // Helpers is an auxiliary class of Model.java: generated code naming it would draw a
    // warning (an error with -Werror); it names Model, through which the user's code calls
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Model", MODEL);
    CompiledFunction f = compiled.function("com.example.Model", "f", 1);
    DerivativeChecks.checkAt(f, 0.7);
    assertThat(f.gradient(0.7)[0]).isWithin(1e-12).of(3 * 2 * 0.7 + Math.log(3.0));
  }

  @Test
  void staticMembersInheritedFromAPackagePrivateSuperclassOfAnotherPackage() {
    Compiled compiled = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.lib.Base", LIB_BASE,
        "com.lib.Api", LIB_API,
        "com.example.User", USER);
    CompiledFunction f = compiled.function("com.example.User", "f", 1);
    DerivativeChecks.checkAt(f, 0.7);
    assertThat(f.gradient(0.7)[0]).isWithin(1e-12).of(3 * 2 * 0.7 + Math.log(3.0));
  }
}
