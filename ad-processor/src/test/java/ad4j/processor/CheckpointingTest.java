package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MixedFunction;
import ad4j.runtime.GradientCheck;
import ad4j.runtime.internal.Tape;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code @Checkpointed}: the reverse mode of a checkpointed loop gives the gradients of the
 * loop recorded in full, for trip counts below, at and above the number of snapshots (which
 * are thinned then); its tape stays within the documented bound; an exception leaves the tape
 * as it was; and what it does not support is an error at the loop or the annotation.
 */
class CheckpointingTest {
  /** Snapshots of the checkpointed twins: small, so that thinning happens early. */
  private static final int SNAPSHOTS = 4;

  /**
   * Bodies of functions of {@code (double a, double b, double x0, int steps)}, each compiled
   * twice: as written, and with {@code @Checkpointed(snapshots = 4)}.
   */
  private static final List<String[]> BODIES = List.of(
      new String[] {"rk4", String.join("\n",
          "double x = x0; double y = 2 * x0;",
          "for (int i = 0; i < steps; i++) {",
          "  double k1x = a * x - b * x * y; double k1y = b * x * y - a * y;",
          "  double x1 = x + 0.05 * k1x; double y1 = y + 0.05 * k1y;",
          "  double k2x = a * x1 - b * x1 * y1; double k2y = b * x1 * y1 - a * y1;",
          "  double x2 = x + 0.05 * k2x; double y2 = y + 0.05 * k2y;",
          "  double k3x = a * x2 - b * x2 * y2; double k3y = b * x2 * y2 - a * y2;",
          "  double x3 = x + 0.1 * k3x; double y3 = y + 0.1 * k3y;",
          "  double k4x = a * x3 - b * x3 * y3; double k4y = b * x3 * y3 - a * y3;",
          "  x += 0.1 / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);",
          "  y += 0.1 / 6 * (k1y + 2 * k2y + 2 * k3y + k4y);",
          "}",
          "return x + y;")},
      // branches, continue, a data-dependent break, a while loop
      new String[] {"branches", String.join("\n",
          "double x = x0; int i = 0;",
          "while (true) {",
          "  if (i >= steps) { break; }",
          "  i++;",
          "  double k = Math.sin(a * x) + b;",
          "  if (i % 3 == 0) { x = x + 0.1 * k * k; continue; }",
          "  if (x > 50) { x = x * 0.5; break; }",
          "  if (i == 13) { return x * a; }",
          "  x = x * (1 + 0.01 * a) + 0.1 * k;",
          "}",
          "return x * b;")},
      // state of every kind, a do loop, a call of another @Differentiable method
      new String[] {"mixed", String.join("\n",
          "double x = x0; float f = 1.5f; long n = 3; boolean flip = false; int i = 0;",
          "do {",
          "  if (steps == 0) { break; }",
          "  double h = helper(x, a);",
          "  f = f * 0.9f + 0.01f * n;",
          "  n = n * 3 % 1000;",
          "  x = flip ? x - 0.1 * h + b * f : x + 0.05 * h * (n % 7);",
          "  flip = !flip;",
          "  i++;",
          "} while (i < steps);",
          "return x + f * a;")},
      // two loops, one inside a branch, the other with a read-only array
      new String[] {"twoLoops", String.join("\n",
          "double x = x0;",
          "if (a > 0) {",
          "  for (int i = 0; i < steps; i++) { x = Math.cos(x) * a + TABLE[i % 3] * b; }",
          "}",
          "double s = 0;",
          "for (int j = steps; j > 0; j -= 2) { s = s + x * Math.exp(-0.01 * j * s); }",
          "return s + x;")},
      // calls of a checkpointed method (of the full-tape one in the twin) in a loop
      new String[] {"calls", String.join("\n",
          "double s = 0;",
          "for (int k = 0; k < 3; k++) { s = s * b + $RK4(a, b, x0 + 0.1 * k, steps); }",
          "return s;")});

  private static String source() {
    StringBuilder source = new StringBuilder(String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class Loops {",
        "  static final double[] TABLE = {0.5, -0.25, 1};",
        "  @Differentiable static double helper(double x, double a) {"
            + " return Math.tanh(x) * a; }",
        ""));
    for (String[] body : BODIES) {
      for (boolean checkpointed : new boolean[] {false, true}) {
        source.append(checkpointed ? "  @Checkpointed(snapshots = " + SNAPSHOTS + ")\n" : "")
            .append("  @Differentiable static double ").append(body[0])
            .append(checkpointed ? "Checkpointed" : "")
            .append("(double a, double b, double x0, int steps) {\n")
            .append(body[1].replace("$RK4", checkpointed ? "rk4Checkpointed" : "rk4")
                .indent(4)).append("  }\n");
      }
    }
    return source.append("}\n").toString();
  }

  /** With {@code -Xlint:all -Werror}: the generated code compiles without warnings. */
  private static final CompiledOnce LOOPS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Loops",
          source()));

  private static MixedFunction function(String name) {
    return new MixedFunction(LOOPS.get(), "com.example.Loops", name, double.class,
        double.class, double.class, int.class);
  }

  static Stream<Arguments> functionsAndTripCounts() {
    List<Arguments> cases = new ArrayList<>();
    for (String[] body : BODIES) {
      // 0, 1, around the number of snapshots, around its multiples (thinning), longer
      for (int steps : new int[] {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 100}) {
        cases.add(Arguments.of(body[0], steps));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, {1} steps")
  @MethodSource("functionsAndTripCounts")
  void checkpointedGradientsAreThoseOfTheFullTapeAndOfFiniteDifferences(String name,
      int steps) {
    MixedFunction recorded = function(name);
    MixedFunction checkpointed = function(name + "Checkpointed");
    Object[] arguments = {0.7, 0.3, 1.2, steps};
    double value = recorded.value(arguments);
    double[] expected = recorded.gradient(arguments);

    double[] gradient = new double[3];
    assertWithMessage("value").that(checkpointed.valueAndGradient(arguments, gradient))
        .isEqualTo(value);
    // the same operations on the same values, in the same order
    assertWithMessage("gradient of %s at %s steps", name, steps).that(gradient)
        .usingExactEquality().containsExactly(expected).inOrder();
    assertThat(checkpointed.gradient(arguments)).usingExactEquality()
        .containsExactly(expected).inOrder();
    double[] adjoints = {1, 2, 3};
    assertThat(checkpointed.pullback(arguments, -2.0, adjoints)).isEqualTo(value);
    for (int i = 0; i < 3; i++) {
      assertThat(adjoints[i]).isWithin(1e-12 * (1 + Math.abs(expected[i])))
          .of(i + 1 - 2.0 * expected[i]);
    }
    GradientCheck.check(x -> checkpointed.value(checkpointed.withDoubles(arguments, x)),
        checkpointed.doublesOf(arguments), gradient).assertWithin(1e-7);
    assertThat(Tape.current().size()).isEqualTo(0);
  }

  @Test
  void theTapeHoldsAtMostTheSnapshotsAndOneSegmentsStates() throws Exception {
    int steps = 100_000;
    long[] capacity = new long[2];
    // each on a thread of its own: a new tape, whose capacity is then its high-water mark,
    // rounded up to a power of two
    for (int i = 0; i < 2; i++) {
      MixedFunction f = function(i == 0 ? "rk4" : "rk4Checkpointed");
      int index = i;
      Thread thread = new Thread(() -> {
        f.gradient(new Object[] {0.7, 0.3, 1.2, steps});
        capacity[index] = Tape.current().capacityBytes();
      });
      thread.start();
      thread.join();
    }
    // the state is x, y and i: two doubles and one int, 8 bytes each. With 4 snapshots,
    // snapshots are 32768 iterations apart (the least power of two k with 4 k >= 100000); the
    // tape holds at most 4 snapshots and the states of one segment, and its stacks are at most
    // twice as long as what they held
    long every = 32_768;
    long bound = 2 * 8 * 3 * (SNAPSHOTS + every);
    assertWithMessage("checkpointed tape bytes").that(capacity[1]).isAtMost(bound);
    // the full tape: 16 doubles per step (the products of the four stages and their states)
    assertWithMessage("full tape bytes").that(capacity[0]).isAtLeast(16L * 8 * steps);
  }

  @Test
  void shortLoopsRecordTheStateOfEachIterationOnly() throws Exception {
    // fewer steps than snapshots: one snapshot per step, of 2 doubles and 1 int
    String source = source().replace("snapshots = " + SNAPSHOTS, "snapshots = 4096");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compile("com.example.Loops", source);
    MixedFunction f = new MixedFunction(compiled, "com.example.Loops", "rk4Checkpointed",
        double.class, double.class, double.class, int.class);
    AtomicLong capacity = new AtomicLong();
    Thread thread = new Thread(() -> {
      f.gradient(new Object[] {0.7, 0.3, 1.2, 4000});
      capacity.set(Tape.current().capacityBytes());
    });
    thread.start();
    thread.join();
    // 4000 x 2 doubles and 4000 ints: 8000 doubles (64 KB) and 4000 longs (32 KB) at most,
    // rounded up to powers of two
    assertThat(capacity.get()).isEqualTo(8L * (8192 + 4096));
  }

  private static String throwingSource() {
    return String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class Throwing {",
        "  @Differentiable static double fails(double x, int k) {",
        "    if (k == 7) { throw new IllegalStateException(\"k is 7\"); }",
        "    return Math.sin(x) + k;",
        "  }",
        "  @Checkpointed(snapshots = 4) @Differentiable",
        "  static double inLoop(double x, int n) {",
        "    double s = x;",
        "    for (int i = 0; i < 20; i++) {",
        "      s = s * 0.5 + Math.cos(s) * x;",
        "      if (i == n) { throw new IllegalArgumentException(\"stop at \" + i); }",
        "    }",
        "    return s;",
        "  }",
        "  @Checkpointed(snapshots = 4) @Differentiable",
        "  static double inCallee(double x, int n) {",
        "    double s = x;",
        "    for (int k = 0; k < n; k++) { s = s * 0.5 + fails(s, k); }",
        "    return s;",
        "  }",
        "}");
  }

  private static final CompiledOnce THROWING = new CompiledOnce(() ->
      InProcessCompiler.compile("com.example.Throwing", throwingSource()));

  @ParameterizedTest
  @ValueSource(strings = {"inLoop", "inCallee"})
  void anExceptionInACheckpointedLoopLeavesTheTapeAsItWas(String name) {
    MixedFunction f = new MixedFunction(THROWING.get(), "com.example.Throwing", name,
        double.class, int.class);
    // both throw in the 9th iteration, after snapshots were taken and thinned
    Object[] failing = {0.75, name.equals("inLoop") ? 9 : 12};
    Class<? extends RuntimeException> type = name.equals("inLoop")
        ? IllegalArgumentException.class : IllegalStateException.class;
    List<Consumer<Object[]>> members = List.of(
        arguments -> f.gradient(arguments),
        arguments -> f.valueAndGradient(arguments, new double[1]),
        arguments -> f.pullback(arguments, 1.0, new double[1]));
    Tape tape = Tape.current();
    for (Consumer<Object[]> member : members) {
      tape.pushDouble(-2.5);
      tape.pushInt(17);
      int before = tape.size();
      for (int i = 0; i < 1000; i++) {
        assertThrows(type, () -> member.accept(failing));
      }
      assertThat(tape.size()).isEqualTo(before);
      assertThat(tape.popInt()).isEqualTo(17);
      assertThat(tape.popDouble()).isEqualTo(-2.5);
      Object[] fine = {0.75, name.equals("inLoop") ? -1 : 6};
      double[] gradient = f.gradient(fine);
      GradientCheck.check(x -> f.value(f.withDoubles(fine, x)), f.doublesOf(fine), gradient)
          .assertWithin(1e-7);
      assertThat(tape.size()).isEqualTo(0);
    }
  }

  /** A method line, the line of the error in the source below and its message. */
  record Case(String name, String annotation, String body, int line, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> unsupported() {
    String prefix = "loop of method 'f' cannot be checkpointed (@Checkpointed): ";
    return Stream.of(
        new Case("nested loop", "@Checkpointed",
            "for (int i = 0; i < n; i++) {\n"
                + "  for (int j = 0; j < 2; j++) { x = x * 0.5; }\n"
                + "}", 9,
            "loop inside a checkpointed loop of method 'f' is not supported (@Checkpointed):"
                + " move it into a @Differentiable method that the outer loop calls"),
        new Case("array written", "@Checkpointed",
            "double[] v = new double[2];\n"
                + "for (int i = 0; i < n; i++) { v[i % 2] = x; x = x * v[0]; }", 9,
            prefix + "it makes or writes an array (line 9); the state a checkpoint holds must"
                + " be variables of type double, float, int, long or boolean"),
        new Case("plain call", "@Checkpointed",
            "for (int i = 0; i < n; i++) {\n"
                + "  if (System.nanoTime() < 0) { break; }\n"
                + "  x = x * 0.5;\n"
                + "}", 8,
            prefix + "it calls 'System.nanoTime' (line 9), which is not @Differentiable and"
                + " would run again when the reverse sweep computes iterations anew"),
        new Case("assignment in condition", "@Checkpointed",
            "int i = 0;\n"
                + "while (i++ < n) { x = x * 0.5; }", 9,
            prefix + "its condition assigns 'i'; assign it in the body or the update"),
        new Case("object state", "@Checkpointed",
            "String label = \"start\";\n"
                + "for (int i = 0; i < n; i++) { label = \"going\"; x = x * 0.5; }", 9,
            prefix + "it assigns 'label' of type 'java.lang.String', declared before it; the state a"
                + " checkpoint holds must be variables of type double, float, int, long or"
                + " boolean"),
        new Case("no loop", "@Checkpointed", "x = x * 2;", 5,
            "@Checkpointed on method 'f' has no effect: the method has no loop; remove the"
                + " annotation"),
        new Case("one snapshot", "@Checkpointed(snapshots = 1)",
            "for (int i = 0; i < n; i++) { x = x * 0.5; }", 5,
            "@Checkpointed(snapshots = 1) on method 'f' is not supported: a checkpointed loop"
                + " needs at least 2 snapshots"),
        new Case("order 2", "@Checkpointed @Differentiable(order = 2)",
            "for (int i = 0; i < n; i++) { x = x * 0.5; }", 5,
            "@Checkpointed on method 'f' is not supported together with"
                + " @Differentiable(order = 2): checkpointing applies to first derivatives"
                + " only"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unsupported")
  void whatCheckpointingDoesNotSupportIsAnErrorAtTheLoopOrTheAnnotation(Case c) {
    String annotations = c.annotation().contains("@Differentiable") ? c.annotation()
        : c.annotation() + " @Differentiable";
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  " + annotations.replace(" @Differentiable", "\n  @Differentiable")
            .replace("@Differentiable(order", "\n  @Differentiable(order"),
        "  static double f(double x, int n) {",
        c.body().indent(4).stripTrailing(),
        "    return x;",
        "  }",
        "}");
    // line 5 holds @Checkpointed, line 6 @Differentiable; the body starts on line 8
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining(c.message()).inFile(file).onLine(c.line());
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  /**
   * A record local whose {@code String} component the loop carries: the error named it by the
   * flattened variable of generated code ({@code rName}), which the user never wrote; it names
   * it as the code reads it.
   */
  @Test
  void aRecordComponentTheLoopCarriesIsNamedAsTheCodeReadsIt() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record R(double v, String name) {}",
        "  @Checkpointed @Differentiable",
        "  static double f(double x, int n) {",
        "    R r = new R(x, \"a\");",
        "    for (int i = 0; i < n; i++) {",
        "      r = new R(Math.sin(r.v()) * x, r.name() + \"b\");",
        "    }",
        "    return r.v();",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("loop of method 'f' cannot be checkpointed"
        + " (@Checkpointed): it assigns 'r.name()' of type 'java.lang.String', declared before"
        + " it; the state a checkpoint holds must be variables of type double, float, int, long"
        + " or boolean").inFile(file).onLine(9);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  /**
   * A method that takes a function and has a loop, called in a checkpointed loop: ad4j inlines
   * it there, so its loop is inside the checkpointed one. The error was at the annotation and
   * told the user to move the loop into a method the loop calls, which it already was; it is at
   * the checkpointed loop and names the callee's loop.
   */
  @Test
  void aLoopOfACalleeInlinedInTheLoopIsAnErrorAtTheLoop() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "final class F {",
        "  @Differentiable",
        "  static double integrate(DoubleUnaryOperator g, double a) {",
        "    double s = 0;",
        "    for (int k = 0; k < 4; k++) { s += g.applyAsDouble(a * k); }",
        "    return s;",
        "  }",
        "  @Checkpointed @Differentiable",
        "  static double f(double x, int n) {",
        "    double r = x;",
        "    for (int i = 0; i < n; i++) {",
        "      r = integrate(t -> Math.sin(t) * x, r) * 0.1;",
        "    }",
        "    return r;",
        "  }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("loop inside a checkpointed loop of method 'f' is"
        + " not supported (@Checkpointed): this loop calls a method that takes a function,"
        + " which ad4j differentiates where it is called, and that method has a loop (line 9 of"
        + " its source); call it outside this loop, or leave this loop without @Checkpointed")
        .inFile(file).onLine(15);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);
  }

  /**
   * A value record's method that ad4j does not inline, returning the record, called in a
   * checkpointed loop: its members hand the record's components back in an array, which a
   * checkpoint cannot hold. The error said "it makes or writes an array", of a loop that has
   * none; it names the call and says what to do.
   */
  @Test
  void aRecordReturnedThroughAnArrayIsAnErrorThatNamesTheCall() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double u, double v) {",
        "    @Differentiable V step(double h) {",
        "      double a = u;",
        "      for (int i = 0; i < 2; i++) { a += h * v; }",
        "      return new V(a, v - h * u);",
        "    }",
        "  }",
        "  @Checkpointed @Differentiable static double f(double a, double b) {",
        "    V s = new V(a, b);",
        "    for (int i = 0; i < 100; i++) {",
        "      s = s.step(0.01);",
        "    }",
        "    return s.u();",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("loop of method 'f' cannot be checkpointed"
        + " (@Checkpointed): it calls 'step' (line 15), which returns a value record, handed"
        + " back as an array of its components, and the state a checkpoint holds must be"
        + " variables of type double, float, int, long or boolean; a method whose body is local"
        + " declarations and a final 'return' is inlined instead, or leave this loop without"
        + " @Checkpointed").inFile(file).onLine(14);
    assertThat(compilation.errors()).hasSize(1);
  }

  /**
   * A field of an object read in a checkpointed loop: an error that names the field (it was
   * reported as a call of a method named like the field), and the fix it suggests, the field
   * read into a local before the loop, gives the exact gradient.
   */
  @Test
  void aFieldReadInACheckpointedLoopIsAnErrorThatSaysToReadItBeforeTheLoop() {
    String rejected = String.join("\n",
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class Fields {",
        "  static final class Rate { double k = 0.5; }",
        "  @Checkpointed @Differentiable",
        "  static double f(double x, int n, Rate rate) {",
        "    for (int i = 0; i < n; i++) {",
        "      x = x * rate.k + Math.sin(x);",
        "    }",
        "    return x;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Fields", rejected);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("loop of method 'f' cannot be checkpointed"
        + " (@Checkpointed): it reads the field 'k' (line 9), which the reverse sweep would"
        + " read again when it computes iterations anew, when it may hold another value; read"
        + " it into a local variable before the loop").inFile(file).onLine(8);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(1);

    String fixed = rejected.replace("    for (int i = 0; i < n; i++) {\n      x = x * rate.k",
        "    double k = rate.k;\n    for (int i = 0; i < n; i++) {\n      x = x * k");
    assertThat(fixed).contains("double k = rate.k;");
    InProcessCompiler.Compiled compiled = InProcessCompiler.compile("com.example.Fields", fixed);
    MixedFunction f = new MixedFunction(compiled, "com.example.Fields", "f", double.class,
        int.class, compiled.load("com.example.Fields$Rate"));
    Object[] arguments = {0.8, 30, newRate(compiled)};
    double[] gradient = f.gradient(arguments);
    GradientCheck.check(x -> f.value(f.withDoubles(arguments, x)), f.doublesOf(arguments),
        gradient).assertWithin(1e-7);
    double[] adjoints = {0.25};
    f.pullback(arguments, 2.0, adjoints);
    assertThat(adjoints[0]).isWithin(1e-15 * Math.abs(gradient[0]) + 1e-300)
        .of(0.25 + 2.0 * gradient[0]);
    assertThat(f.tangent(arguments, new double[] {1.0})).isWithin(1e-12 * Math.abs(gradient[0]))
        .of(gradient[0]);
  }

  private static Object newRate(InProcessCompiler.Compiled compiled) {
    try {
      var constructor = compiled.load("com.example.Fields$Rate").getDeclaredConstructor();
      constructor.setAccessible(true);
      return constructor.newInstance();
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
