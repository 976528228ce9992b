package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.InProcessCompiler.Compiled;
import ad4j.processor.testing.MixedFunction;
import ad4j.processor.testing.TapeIsEmpty;
import ad4j.runtime.GradientCheck;
import com.google.testing.compile.Compilation;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Parameters and locals that carry no derivative, of any type: objects, interfaces, enums,
 * records used as data, strings, {@code long}, arrays of other types or ranks; {@code static
 * final} arrays of any element type; {@code switch} on enums and strings; {@code assert}. They
 * keep their places in every generated member's signature, and the code that uses them runs as
 * written, once per call of each member. Each function is checked against the user's own method
 * (values bit for bit), against central differences of it, and forward against reverse mode;
 * side effects are counted.
 */
@ExtendWith(TapeIsEmpty.class)
class InactiveObjectsTest {
  private static final String COUNTER = String.join("\n",
      "package com.example;",
      "public final class Counter {",
      "  public static int count;",
      "  public static final java.util.List<String> LINES = new java.util.ArrayList<>();",
      "  private Counter() {}",
      "  public static void tick() { count++; }",
      "  public static void log(String line) { LINES.add(line); }",
      "}");

  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Objects {",
      "  enum Mode { LINEAR, SQUARE, CUBE }",
      "  interface Distribution { double density(double x); }",
      "  static final class Normal implements Distribution {",
      "    private final double mean;",
      "    private final double sd;",
      "    Normal(double mean, double sd) { this.mean = mean; this.sd = sd; Counter.tick(); }",
      "    @Override public double density(double x) {",
      "      Counter.tick();",
      "      double z = (x - mean) / sd;",
      "      return Math.exp(-0.5 * z * z) / (sd * Math.sqrt(2 * Math.PI));",
      "    }",
      "  }",
      "  record Point(double x, double y) {}",
      "  static final class Cell { public double scale = 2.5; public int[] counts = {3, 4}; }",
      "  static final long[] POWERS = {1L, 10L, 100L};",
      "  static final String[] NAMES = {\"alpha\", \"beta\"};",
      "  static final Mode DEFAULT_MODE = Mode.SQUARE;",
      "",
      "  @SuppressWarnings(\"fallthrough\")",
      "  @Differentiable static double byMode(Mode mode, double x) {",
      "    double base = mode == Mode.LINEAR ? x : x * x;",
      "    switch (mode) {",
      "      case LINEAR:",
      "        return base + 1;",
      "      case SQUARE:",
      "        base = base * 3;",
      "      default:",
      "        return base * Math.sin(x) + (mode == DEFAULT_MODE ? 1 : 0);",
      "    }",
      "  }",
      "  @Differentiable static double byModeExpression(Mode mode, double x) {",
      "    return switch (mode) {",
      "      case LINEAR -> x;",
      "      case SQUARE -> x * x;",
      "      case CUBE -> { Counter.tick(); yield x * x * x; }",
      "    };",
      "  }",
      "  @Differentiable static double byUnit(String unit, double angle) {",
      "    double radians = switch (unit) {",
      "      case \"deg\" -> angle * Math.PI / 180;",
      "      case \"rad\" -> angle;",
      "      default -> throw new IllegalArgumentException(\"unknown unit \" + unit);",
      "    };",
      "    return Math.sin(radians) * unit.length();",
      "  }",
      "  @Differentiable static double weighted(Distribution d, double x) {",
      "    return x * x * d.density(0.5);",
      "  }",
      "  @Differentiable static double distance(@ad4j.NoDerivative Point p, double ax,",
      "      double ay) {",
      "    return Math.hypot(p.x() - ax, p.y() - ay);",
      "  }",
      "  @Differentiable static double scaled(Cell cell, double x) {",
      "    return cell.scale * x * x + cell.counts[1] + cell.counts.length;",
      "  }",
      "  @Differentiable static double withObjectLocal(double x, int k) {",
      "    Normal n = new Normal(0, 1);",
      "    Distribution d = n;",
      "    StringBuilder line = new StringBuilder(\"k=\");",
      "    line.append(k).append(\", d=\").append(d.density(0.25 * k));",
      "    Counter.log(line.toString());",
      "    return x * n.density(0.5) + Math.exp(x) * line.length();",
      "  }",
      "  @Differentiable static double longs(long n, long[] weights, double x) {",
      "    return n * x + weights[weights.length - 1] * x * x + POWERS[2];",
      "  }",
      "  @Differentiable static double ranks(@NoDerivative int[][] index,",
      "      @NoDerivative double[][][] table, double x) {",
      "    return table[index[0][1]][0][1] * x + index.length * x * x;",
      "  }",
      "  @Differentiable static double named(double x, int i) {",
      "    String name = NAMES[i];",
      "    var upper = name.toUpperCase(java.util.Locale.ROOT);",
      "    Counter.log(upper + \" at \" + x);",
      "    return x * name.length() + (upper.equals(\"BETA\") ? x * x : 0);",
      "  }",
      "  @Differentiable static double asserted(double x) {",
      "    assert x > 0 : \"x must be positive, is \" + x;",
      "    assert check(x);",
      "    return Math.log(x) * x;",
      "  }",
      "  static boolean check(double x) { Counter.tick(); return x < 100; }",
      "  static final class Inner {",
      "    @Differentiable static double asserted(double x) {",
      "      assert x > 0 : \"x must be positive, is \" + x;",
      "      return Math.log(x) * x;",
      "    }",
      "  }",
      "  @Differentiable static double overModes(Mode mode, double x) {",
      "    double s = 0;",
      "    for (Mode m : Mode.values()) {",
      "      if (m == mode) { s += x * x * (m.ordinal() + 1); } else { s += x; }",
      "    }",
      "    long bits = 6L;",
      "    bits >>= 1;",
      "    bits |= 8;",
      "    return s * bits;",
      "  }",
      "  static String label(int k) { return k > 0 ? \"k\" + k : null; }",
      "  @Differentiable static double nullable(double x, int k) {",
      "    String name = label(k);",
      "    if (name == null) { return x; }",
      "    Integer boxed = Integer.valueOf(k);",
      "    return x * x * name.length() + boxed.doubleValue();",
      "  }",
      "}");

  private static final CompiledOnce OBJECTS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Counter", COUNTER, "com.example.Objects", SOURCE));

  private static Compiled objects() {
    return OBJECTS.get();
  }

  private static Class<?> type(String nested) {
    return objects().load("com.example.Objects$" + nested);
  }

  private static Object mode(String name) {
    for (Object constant : type("Mode").getEnumConstants()) {
      if (((Enum<?>) constant).name().equals(name)) {
        return constant;
      }
    }
    throw new AssertionError(name);
  }

  private static Object construct(String nested, Object... arguments) {
    try {
      var constructor = type(nested).getDeclaredConstructors()[0];
      constructor.setAccessible(true);
      return constructor.newInstance(arguments);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static MixedFunction function(String name, Class<?>... types) {
    return new MixedFunction(objects(), "com.example.Objects", name, types);
  }

  /**
   * Checks every generated member at {@code arguments}: the values bit for bit against the
   * user's method, the gradient against central differences of the user's method, tangents
   * against the gradient, and pullbacks against the gradient.
   */
  private static void check(MixedFunction f, Object... arguments) {
    double value = f.value(arguments);
    double[] x = f.doublesOf(arguments);
    double[] gradient = f.gradient(arguments);
    double[] out = new double[f.doubles()];
    assertThat(f.valueAndGradient(arguments, out)).isEqualTo(value);
    assertThat(out).isEqualTo(gradient);
    GradientCheck.Result numeric =
        GradientCheck.check(p -> f.value(f.withDoubles(arguments, p)), x, gradient);
    assertThat(numeric.worstError()).isAtMost(DerivativeChecks.NUMERIC_TOLERANCE);
    for (int i = 0; i < x.length; i++) {
      double[] direction = new double[x.length];
      direction[i] = 1;
      assertThat(f.tangent(arguments, direction)).isWithin(1e-12 * Math.max(1,
          Math.abs(gradient[i]))).of(gradient[i]);
    }
    double[] adjoints = new double[x.length];
    assertThat(f.pullback(arguments, 2, adjoints)).isEqualTo(value);
    for (int i = 0; i < x.length; i++) {
      assertThat(adjoints[i]).isWithin(1e-12 * Math.max(1, Math.abs(gradient[i])))
          .of(2 * gradient[i]);
    }
  }

  @Test
  void enumParametersKeepTheirPlaceAndChooseTheBranch() {
    MixedFunction f = function("byMode", type("Mode"), double.class);
    for (String mode : List.of("LINEAR", "SQUARE", "CUBE")) {
      check(f, mode(mode), 0.7);
      check(f, mode(mode), -1.3);
    }
    // d/dx of x + 1, 3x^2 sin x + 1, x^2 sin x
    assertThat(f.gradient(new Object[] {mode("LINEAR"), 0.7})[0]).isEqualTo(1.0);
    assertThat(f.gradient(new Object[] {mode("CUBE"), 0.7})[0]).isWithin(1e-15)
        .of(2 * 0.7 * Math.sin(0.7) + 0.49 * Math.cos(0.7));
    MixedFunction over = function("overModes", type("Mode"), double.class);
    check(over, mode("SQUARE"), 0.7);
    // s = x + 2 x^2 + x, times (6 >> 1) | 8 = 11
    assertThat(over.gradient(new Object[] {mode("SQUARE"), 0.7})[0]).isWithin(1e-14)
        .of(11 * (2 + 4 * 0.7));
    MixedFunction g = function("byModeExpression", type("Mode"), double.class);
    for (String mode : List.of("LINEAR", "SQUARE", "CUBE")) {
      check(g, mode(mode), 0.7);
    }
  }

  @Test
  void aNullEnumOrStringSelectorThrowsAsInJava() {
    MixedFunction f = function("byMode", type("Mode"), double.class);
    assertThat(thrownBy(() -> f.value(new Object[] {null, 0.7})))
        .isInstanceOf(NullPointerException.class);
    assertThat(thrownBy(() -> f.gradient(new Object[] {null, 0.7})))
        .isInstanceOf(NullPointerException.class);
    MixedFunction g = function("byUnit", String.class, double.class);
    assertThat(thrownBy(() -> g.tangent(new Object[] {null, 0.7}, new double[] {1})))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void stringParametersSwitchAndThrowAsWritten() {
    MixedFunction f = function("byUnit", String.class, double.class);
    check(f, "deg", 30.0);
    check(f, "rad", 0.4);
    assertThat(f.gradient(new Object[] {"rad", 0.4})[0]).isWithin(1e-15)
        .of(3 * Math.cos(0.4));
    Throwable thrown = thrownBy(() -> f.gradient(new Object[] {"grad", 0.4}));
    assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
    assertThat(thrown).hasMessageThat().isEqualTo("unknown unit grad");
  }

  @Test
  void objectsRecordsAndFieldsCarryNoDerivative() {
    Object normal = construct("Normal", 0.0, 1.0);
    check(function("weighted", type("Distribution"), double.class), normal, 0.7);
    MixedFunction distance = function("distance", type("Point"), double.class, double.class);
    check(distance, construct("Point", 1.0, 2.0), 0.3, -0.4);
    assertThat(distance.gradient(new Object[] {construct("Point", 3.0, 4.0), 0.0, 0.0}))
        .usingTolerance(1e-15).containsExactly(-0.6, -0.8).inOrder();
    check(function("scaled", type("Cell"), double.class), construct("Cell"), 0.7);
  }

  @Test
  void longsAndArraysOfOtherTypesOrRanks() {
    check(function("longs", long.class, long[].class, double.class), 3L, new long[] {2, 5},
        0.7);
    MixedFunction ranks = function("ranks", int[][].class, double[][][].class, double.class);
    double[][][] table = {{{0, 1.5}}, {{0, 2.5}}};
    check(ranks, new int[][] {{0, 1}}, table, 0.7);
    assertThat(ranks.gradient(new Object[] {new int[][] {{0, 1}}, table, 0.7})[0])
        .isWithin(1e-15).of(2.5 + 2 * 0.7);
  }

  @Test
  void objectLocalsStringsAndTheirSideEffectsOncePerCall() {
    MixedFunction f = function("withObjectLocal", double.class, int.class);
    check(f, 0.7, 3);
    MixedFunction named = function("named", double.class, int.class);
    check(named, 0.7, 1);
    check(named, 0.7, 0);
    MixedFunction nullable = function("nullable", double.class, int.class);
    check(nullable, 0.7, 0);
    check(nullable, 0.7, 12);
    assertThat(nullable.gradient(new Object[] {0.7, 12})[0]).isWithin(1e-15).of(3 * 2 * 0.7);
    // each member: one construction and two densities tick; one line logged
    assertEffects(f, new Object[] {0.7, 3}, 3, "k=3, d=" + density(0.75));
    assertEffects(named, new Object[] {0.5, 1}, 0, "BETA at 0.5");
  }

  private static double density(double x) {
    return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
  }

  @Test
  void assertionsRunWhenTheUsersClassHasThemEnabled() throws ReflectiveOperationException {
    Compilation compilation = objects().compilation();
    for (boolean enabled : List.of(true, false)) {
      // the user's class alone: the generated class asks for its status, not its own
      Compiled loaded = InProcessCompiler.loadedWithAssertions(compilation,
          Map.of("com.example.Objects", enabled));
      MixedFunction f = new MixedFunction(loaded, "com.example.Objects", "asserted",
          double.class);
      Field count = loaded.load("com.example.Counter").getField("count");
      check(f, 0.7);
      int before = count.getInt(null);
      f.gradient(new Object[] {0.7});
      f.tangent(new Object[] {0.7}, new double[] {1});
      // 'assert check(x)' runs once per member when enabled, never when disabled
      assertThat(count.getInt(null) - before).isEqualTo(enabled ? 2 : 0);
      Throwable user = thrownBy(() -> f.value(new Object[] {-0.5}));
      Throwable generated = thrownBy(() -> f.gradient(new Object[] {-0.5}));
      if (enabled) {
        assertThat(user).isInstanceOf(AssertionError.class);
        assertThat(generated).isInstanceOf(AssertionError.class);
        assertThat(generated).hasMessageThat().isEqualTo("x must be positive, is -0.5");
        assertThat(generated).hasMessageThat().isEqualTo(user.getMessage());
      } else {
        assertThat(user).isNull(); // log(-0.5) is NaN, as written
        assertThat(generated).isNull();
      }
    }
  }

  @Test
  void assertionsOfANestedClassFollowItsTopLevelClass() throws ReflectiveOperationException {
    Compilation compilation = objects().compilation();
    for (boolean enabled : List.of(true, false)) {
      // JLS 14.10: the nested class's assert runs as its top-level class's status says, not as
      // its own (nor the generated class's) does
      Compiled loaded = InProcessCompiler.loadedWithAssertions(compilation,
          Map.of("com.example.Objects", enabled, "com.example.Objects$Inner", !enabled));
      Class<?> grad = loaded.load("com.example.Objects_InnerGrad");
      Map<String, Supplier<?>> calls = Map.of(
          "the method", invoker(loaded.load("com.example.Objects$Inner"), "asserted",
              new Class<?>[] {double.class}, -0.5),
          "assertedGradient", invoker(grad, "assertedGradient",
              new Class<?>[] {double.class}, -0.5),
          "assertedTangent", invoker(grad, "assertedTangent",
              new Class<?>[] {double.class, double.class}, -0.5, 1.0),
          "assertedPullback", invoker(grad, "assertedPullback",
              new Class<?>[] {double.class, double.class, double[].class}, -0.5, 1.0,
              new double[1]));
      calls.forEach((name, call) -> {
        Throwable thrown = thrownBy(call);
        if (enabled) {
          assertWithMessage(name).that(thrown).isInstanceOf(AssertionError.class);
          assertThat(thrown).hasMessageThat().isEqualTo("x must be positive, is -0.5");
        } else {
          assertWithMessage(name).that(thrown).isNull(); // log(-0.5) is NaN, as written
        }
      });
    }
  }

  /** A call of the static method {@code name} of {@code owner}, rethrowing what it throws. */
  private static Supplier<?> invoker(Class<?> owner, String name, Class<?>[] types,
      Object... arguments) throws NoSuchMethodException {
    Method method = owner.getDeclaredMethod(name, types);
    method.setAccessible(true);
    return () -> {
      try {
        return method.invoke(null, arguments);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        if (e.getCause() instanceof RuntimeException runtime) {
          throw runtime;
        }
        throw new AssertionError(e);
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
    };
  }

  @Test
  void generatedMembersKeepTheUsersParameterTypes() throws ReflectiveOperationException {
    Class<?> grad = objects().load("com.example.ObjectsGrad");
    Class<?> mode = type("Mode");
    Method tangent = grad.getDeclaredMethod("byModeTangent", mode, double.class, double.class);
    assertThat(tangent.getReturnType()).isEqualTo(double.class);
    Method pullback = grad.getDeclaredMethod("longsPullback", long.class, long[].class,
        double.class, double.class, double[].class);
    assertThat(pullback.getReturnType()).isEqualTo(double.class);
    Method gradient = grad.getDeclaredMethod("ranksGradient", int[][].class,
        double[][][].class, double.class);
    assertThat(gradient.getReturnType()).isEqualTo(double[].class);
  }

  private static void assertEffects(MixedFunction f, Object[] arguments, int ticks,
      String line) {
    Class<?> counter = objects().load("com.example.Counter");
    List<Consumer<Object[]>> members = List.of(
        f::value,
        f::gradient,
        a -> f.valueAndGradient(a, new double[f.doubles()]),
        a -> f.tangent(a, new double[f.doubles()]),
        a -> f.pullback(a, 1, new double[f.doubles()]));
    try {
      Field count = counter.getField("count");
      @SuppressWarnings("unchecked")
      List<String> lines = (List<String>) counter.getField("LINES").get(null);
      for (Consumer<Object[]> member : members) {
        int before = count.getInt(null);
        lines.clear();
        member.accept(arguments);
        assertThat(count.getInt(null) - before).isEqualTo(ticks);
        assertThat(lines).containsExactly(line);
      }
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** What {@code call} throws (unwrapped from reflection), or null. */
  private static Throwable thrownBy(Supplier<?> call) {
    try {
      call.get();
      return null;
    } catch (RuntimeException | Error e) {
      return e; // MixedFunction rethrows what the member threw, as is
    }
  }
}
