package ad4j.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.ArrayFunctionChecks;
import ad4j.processor.testing.ArrayFunctionChecks.Call;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code instanceof} on objects that carry no derivative: records of a sealed interface read
 * from a list, an {@code Object} parameter, elements of arrays and tables of objects. The test
 * is a boolean that carries no derivative; a pattern's variable holds the object where Java
 * scopes it (the branch, the right operand of {@code &&}, the rest of the block after a negated
 * test that leaves it, a branch of {@code ?:}, a lambda), and a name may be bound again by
 * another pattern in another branch. Each was the error "'o instanceof Circle c' is not
 * supported: ad4j does not test the types of objects". Checked by {@link ArrayFunctionChecks}
 * (value bit for bit, differences of the user's own method, forward against reverse, the
 * pullback) at points and data that take each branch, in loops whose reverse sweep needs each
 * iteration's values, in a checkpointed loop, at order 2 by {@link HessianChecks}; the
 * generated code compiles under {@code -Xlint:all -Werror}. What stays an error (a value record
 * ad4j flattens, a box of a number that carries a derivative read back, a generic type with
 * type arguments) is checked by its message and line.
 */
@ExtendWith(TapeIsEmpty.class)
class TypeTestsTest {
  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Shapes",
          String.join("\n",
              "package com.example;",
              "import ad4j.Checkpointed;",
              "import ad4j.Differentiable;",
              "import ad4j.NoDerivative;",
              "import java.util.List;",
              "public final class Shapes {",
              "  public sealed interface Shape permits Circle, Sq, Tri {}",
              "  public record Circle(double r) implements Shape {}",
              "  public record Sq(double side) implements Shape {}",
              "  public record Tri(double b, double h) implements Shape {}",
              "  private static final Object[] ITEMS = {new Circle(0.5), new Sq(2.0), 1.5,",
              "      \"abc\", new Sq(0.5)};",
              "  private static final Shape ONE = new Circle(1.5);",
              // plain tests and patterns in an else-if chain, in a loop whose reverse sweep
              // needs each iteration's product
              "  @Differentiable static double area(double a, double b,",
              "      @NoDerivative List<Shape> shapes) {",
              "    double t = 1;",
              "    for (Shape o : shapes) {",
              "      if (o instanceof Circle c) t = t * a * c.r() + Math.sin(b * c.r());",
              "      else if (o instanceof Sq) t = t * b + a * a;",
              "      else t = Math.cos(t * a);",
              "    }",
              "    return t;",
              "  }",
              // '&&' scopes: the left test's variable in the right operand and the branch; a
              // test in the right operand binds the branch too; 'c' bound again in another
              // branch, of another type
              "  @Differentiable static double scoped(double a, double b,",
              "      @NoDerivative List<Shape> shapes) {",
              "    double t = 0;",
              "    for (Shape o : shapes) {",
              "      if (o instanceof Circle c && c.r() * a > 0.5) {",
              "        t += Math.exp(c.r() * b) * a;",
              "      } else if (a > -5 && o instanceof Tri c) {",
              "        t = t * a + c.b() * c.h() * b;",
              "      } else if (o instanceof Sq c && !(c.side() > 10)) {",
              "        t -= c.side() * a * b;",
              "      }",
              "      double v = o instanceof Circle c ? c.r() * a * t : b;",
              "      t += v;",
              "    }",
              "    return t;",
              "  }",
              // a negated test that leaves: its variable for the rest of the block; '||' too
              "  @Differentiable static double early(double a, double b,",
              "      @NoDerivative List<Object> items) {",
              "    double t = b;",
              "    for (Object o : items) {",
              "      if (!(o instanceof Sq s)) continue;",
              "      t = t * a + s.side();",
              "    }",
              "    for (Object o : items) {",
              "      if (!(o instanceof Tri r) || r.h() < 0.5) {",
              "        continue;",
              "      }",
              "      t = t * r.b() + a * b;",
              "    }",
              "    for (Object o : items) {",
              "      if (a > 100 || !(o instanceof Circle k)) continue;",
              "      t = t * k.r() + a;",
              "    }",
              "    if (!(items.get(0) instanceof Circle first)) {",
              "      return t * a;",
              "    }",
              "    return t * first.r() + a;",
              "  }",
              // a loop's condition binds the body: a variable declared before the loop
              "  @Differentiable static double circles(double a,",
              "      @NoDerivative List<Object> items) {",
              "    double t = a;",
              "    int i = 0;",
              "    while (i < items.size() && items.get(i) instanceof Circle c) {",
              "      t = t * c.r() + Math.sin(a * t);",
              "      i++;",
              "    }",
              "    return t;",
              "  }",
              // an Object parameter, boxes, strings, and a static final object
              "  @Differentiable static double object(double a, Object o) {",
              "    double t = ONE instanceof Circle c ? c.r() * a : a;",
              "    if (o instanceof Double d) return t * d;",
              "    if (o instanceof String s && !s.isEmpty()) return t * s.length() + a;",
              "    if (o instanceof Shape) return Math.sin(t);",
              "    if (o instanceof List<?> l && !l.isEmpty()) return t * l.size();",
              "    return t * t;",
              "  }",
              // after a switch expression's case statements, in the same statement
              "  @Differentiable static double chosen(double a, int k, @NoDerivative Object o) {",
              "    double v = switch (k) { case 1 -> { double q = a * 2; yield q; } default -> a; }",
              "        + (a > 0 && o instanceof Circle c ? c.r() * a : 0);",
              "    return v * a;",
              "  }",
              // a lambda's pattern, in a stream's loop
              "  @Differentiable static double streamed(double a,",
              "      @NoDerivative List<Shape> shapes) {",
              "    return shapes.stream().mapToDouble(s -> s instanceof Circle c ? c.r() * a * a",
              "        : s instanceof Sq q && q.side() > 1 ? q.side() * a : Math.sin(a)).sum();",
              "  }",
              // a checkpointed loop computes iterations anew with the same tests
              "  @Checkpointed(snapshots = 2) @Differentiable static double stepped(double a,",
              "      @NoDerivative Shape[] shapes) {",
              "    double s = a;",
              "    for (int i = 0; i < shapes.length; i++) {",
              "      if (shapes[i] instanceof Circle) s = Math.sin(s) * a + 0.5;",
              "      else if (i > 0 && shapes[i] instanceof Sq q && q != shapes[0]) s = s * a;",
              "      else s = s * s * 0.5 + a;",
              "    }",
              "    return s;",
              "  }",
              // the variable passed to a method taking the record, and captured by a lambda
              "  @Differentiable static double areaOf(Circle c, double a) {",
              "    return c.r() * c.r() * a;",
              "  }",
              "  @Differentiable static double passed(double a, @NoDerivative List<Shape> shapes,",
              "      @NoDerivative double[] w) {",
              "    double t = 0;",
              "    for (Shape o : shapes) {",
              "      if (o instanceof Circle c) {",
              "        t += areaOf(c, a);",
              "        t += java.util.Arrays.stream(w).map(v -> v * c.r() * a).sum();",
              "      }",
              "    }",
              "    return t;",
              "  }",
              // a callee that tests a type runs before a call that may change state: its
              // second run, in the reverse sweep, tests the same object alike
              "  public static int notes;",
              "  static void note(double v) { notes += v > 0 ? 1 : 2; }",
              "  @Differentiable static double kind(double s, Object o) {",
              "    return o instanceof Circle ? s * s : Math.sin(s);",
              "  }",
              // a callee that binds a pattern, called with each iteration's object: the
              // reverse sweep takes the object back from the tape and runs the callee's
              "  @Differentiable static double part(double s, Shape o) {",
              "    if (o instanceof Circle c && c.r() > 0.5) return Math.sin(c.r() * s);",
              "    return o instanceof Sq q ? s * s * q.side() : s;",
              "  }",
              "  @Differentiable static double parts(double a, @NoDerivative Shape[] shapes) {",
              "    double t = a;",
              "    for (int i = 0; i < shapes.length; i++) {",
              "      t = part(t, shapes[i]) + a;",
              "    }",
              "    return t;",
              "  }",
              "  @Differentiable static double noted(double a, @NoDerivative Object o) {",
              "    double s = kind(a, o);",
              "    note(s);",
              "    return kind(s, o) * a;",
              "  }",
              "  @Differentiable(order = 2) static double second(double a, double b) {",
              "    double s = a * b;",
              "    for (Object o : ITEMS) {",
              "      if (o instanceof Circle c) s = s * a * c.r() + b;",
              "      else if (o instanceof Double d && d > 1) s = s * Math.sin(b * d);",
              "      else if (b > -10 && o instanceof Sq q) s += q.side() * a * b;",
              "      else if (!(o instanceof String)) s += a * a * b;",
              "    }",
              "    return s;",
              "  }",
              // a 'for' loop's negated condition binds the rest of the block after the loop
              // (it was the error "cannot find class 'c'": the loop's scope took it along)
              "  @Differentiable static double until(double a, double b, Object[] items) {",
              "    double s = 1;",
              "    Object o = items[0];",
              "    for (int i = 1; !(o instanceof Circle c); o = items[i++]) s = s * a + b;",
              "    return s * c.r() * a;",
              "  }",
              "}")));

  @Test
  void aForLoopsNegatedConditionBindsTheRestOfTheBlock() throws Exception {
    Object[] sqFirst = {make("Sq", 2.0), 1.5, "text", make("Circle", 0.8), make("Circle", 1.3)};
    Object[] circleFirst = {make("Circle", 1.3), make("Sq", 2.0)};
    for (Object[] items : new Object[][] {sqFirst, circleFirst}) {
      for (double[] p : new double[][] {{0.7, 0.6}, {-1.2, 0.9}}) {
        checks().check(new Call("until", new Object[] {p[0], p[1], items}, true, true, false));
      }
    }
  }

  private static Object make(String record, double... components) throws Exception {
    Class<?> type = COMPILED.get().load("com.example.Shapes$" + record);
    Class<?>[] parameters = new Class<?>[components.length];
    java.util.Arrays.fill(parameters, double.class);
    Object[] arguments = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      arguments[i] = components[i];
    }
    return type.getDeclaredConstructor(parameters).newInstance(arguments);
  }

  private static List<Object> shapes() throws Exception {
    return List.of(make("Circle", 0.8), make("Sq", 1.5), make("Tri", 2.0, 0.75),
        make("Circle", 1.3), make("Sq", 0.5), make("Tri", 0.5, 0.25), make("Circle", 0.2));
  }

  private static ArrayFunctionChecks checks() {
    return ArrayFunctionChecks.of(COMPILED.get(), "com.example.Shapes");
  }

  @Test
  void testsAndPatternsInAChainOfALoop() throws Exception {
    for (double[] p : new double[][] {{0.7, 0.6}, {-1.3, 2.0}, {1.1, -0.4}}) {
      checks().check(new Call("area", new Object[] {p[0], p[1], shapes()}, true, true, false));
    }
  }

  @Test
  void patternsAreScopedAsJavaScopesThem() throws Exception {
    // a = 0.9 passes 'c.r() * a > 0.5' for r = 0.8 and 1.3, a = 0.3 for none
    for (double[] p : new double[][] {{0.9, 0.6}, {0.3, -0.7}, {-6, 0.2}}) {
      checks().check(new Call("scoped", new Object[] {p[0], p[1], shapes()}, true, true,
          false));
    }
  }

  @Test
  void aNegatedTestThatLeavesBindsTheRestOfTheBlock() throws Exception {
    List<Object> items = new java.util.ArrayList<>(shapes());
    items.add(2.5);
    items.add("text");
    List<Object> startsWithSq = new java.util.ArrayList<>(items.subList(1, items.size()));
    for (List<Object> data : List.of(items, startsWithSq)) {
      for (double[] p : new double[][] {{0.7, 0.6}, {-1.2, 0.9}}) {
        checks().check(new Call("early", new Object[] {p[0], p[1], data}, true, true, false));
      }
    }
  }

  @Test
  void aLoopsConditionBindsItsBody() throws Exception {
    List<Object> circlesFirst = new java.util.ArrayList<>(List.of(make("Circle", 0.8),
        make("Circle", 1.3)));
    List<Object> all = new java.util.ArrayList<>(circlesFirst);
    all.add("stop");
    all.add(make("Circle", 0.4));
    for (List<Object> items : List.of(circlesFirst, all, shapes())) {
      for (double a : new double[] {0.7, -0.3}) {
        checks().check(new Call("circles", new Object[] {a, items}, true, false));
      }
    }
  }

  @Test
  void anObjectParameterIsTested() throws Exception {
    for (Object o : new Object[] {2.5, "four", "", make("Sq", 1.0), 7, null, List.of(1, 2),
        List.of()}) {
      for (double a : new double[] {0.7, -1.9}) {
        checks().check(new Call("object", new Object[] {a, o}, true, false));
      }
    }
  }

  @Test
  void aPatternAfterASwitchExpressionIsBoundInItsStatement() throws Exception {
    for (Object o : new Object[] {make("Circle", 0.8), "other"}) {
      for (double a : new double[] {0.7, -0.3}) {
        for (int k : new int[] {1, 2}) {
          checks().check(new Call("chosen", new Object[] {a, k, o}, true, false, false));
        }
      }
    }
  }

  @Test
  void aLambdasPatternIsBoundInTheStreamsLoop() throws Exception {
    for (double a : new double[] {0.7, -1.9}) {
      checks().check(new Call("streamed", new Object[] {a, shapes()}, true, false));
    }
  }

  @Test
  void aVariableIsPassedAsItsRecordAndCapturedByALambda() throws Exception {
    for (double a : new double[] {0.7, -1.9}) {
      checks().check(new Call("passed", new Object[] {a, shapes(), new double[] {1.5, -0.5}},
          true, false, false));
    }
  }

  /** {@link #shapes} in a {@code Shape[]}. */
  private static Object[] shapeArray() throws Exception {
    Class<?> shape = COMPILED.get().load("com.example.Shapes$Shape");
    List<Object> shapes = shapes();
    Object[] array = (Object[]) java.lang.reflect.Array.newInstance(shape, shapes.size());
    for (int i = 0; i < array.length; i++) {
      array[i] = shapes.get(i);
    }
    return array;
  }

  @Test
  void aCheckpointedLoopTestsTheSameEachTime() throws Exception {
    for (double a : new double[] {0.7, -0.4}) {
      checks().check(new Call("stepped", new Object[] {a, shapeArray()}, true, false));
    }
  }

  @Test
  void testsAtOrderTwo() throws Exception {
    for (double[] p : new double[][] {{0.5, 0.7}, {0.9, -0.4}}) {
      HessianChecks.checkAt(COMPILED.get().function("com.example.Shapes", "second", 2),
          COMPILED.get().load("com.example.ShapesGrad"), p);
    }
  }

  @Test
  void aCalleeBindsAPatternOfEachIterationsObject() throws Exception {
    for (double a : new double[] {0.7, -0.4}) {
      checks().check(new Call("parts", new Object[] {a, shapeArray()}, true, false));
    }
  }

  @Test
  void aCalleeThatTestsATypeMayRunAgainAfterACallThatChangesState() throws Exception {
    for (Object o : new Object[] {make("Circle", 1.0), "other"}) {
      for (double a : new double[] {0.7, -1.9}) {
        checks().check(new Call("noted", new Object[] {a, o}, true, false));
      }
    }
  }

  @Test
  void aPatternOfTheObjectsOwnTypeBindsTheObject() throws Exception {
    // Java 21 lets a pattern name the tested expression's own type or a supertype
    org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() >= 21);
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Own", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "import ad4j.NoDerivative;",
            "public final class Own {",
            "  public interface Shape {}",
            "  public record Circle(double r) implements Shape {}",
            "  @Differentiable static double own(double a, @NoDerivative Shape s,",
            "      @NoDerivative Circle k) {",
            "    double t = s instanceof Shape u && u instanceof Circle q ? q.r() * a : a;",
            "    if (k instanceof Circle kk) t = t * kk.r();",
            "    return t * a;",
            "  }",
            "}"));
    ArrayFunctionChecks checks = ArrayFunctionChecks.of(compiled, "com.example.Own");
    Class<?> circle = compiled.load("com.example.Own$Circle");
    Object small = circle.getDeclaredConstructor(double.class).newInstance(0.8);
    Object large = circle.getDeclaredConstructor(double.class).newInstance(1.3);
    for (double a : new double[] {0.7, -0.3}) {
      checks.check(new Call("own", new Object[] {a, small, large}, true, false, false));
      checks.check(new Call("own", new Object[] {a, null, null}, true, false, false));
    }
  }

  @Test
  void whatIsNoObjectOfDataIsAnErrorAtItsTest() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "import java.util.Collection;",
        "import java.util.List;",
        "final class F {",
        "  record Pt(double x, double y) {}",
        "  @Differentiable static double flattened(Pt p, double b) {",
        "    if (p instanceof Pt) return p.x() * b;",
        "    Pt k = new Pt(b, b);",
        "    return k instanceof Pt ? b : p.y();",
        "  }",
        "  @Differentiable static double boxed(double a, double b) {",
        "    Object o = Double.valueOf(a);",
        "    if (o instanceof Double d) return d * b;",
        "    return b;",
        "  }",
        "  @Differentiable static double generic(double a, @NoDerivative Collection<Double> w) {",
        "    return w instanceof List<Double> l ? l.get(0) * a : a;",
        "  }",
        "  @Differentiable static double array(double a, @NoDerivative Object o) {",
        "    return o instanceof double[] w ? w[0] * a : a;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(5);
    assertThat(compilation).hadErrorContaining("'p instanceof Pt' is not supported: 'p' is a"
        + " value of record 'Pt', which ad4j flattens into its numbers (they may carry"
        + " derivatives), so there is no object whose type it could test").inFile(file)
        .onLine(9).atColumn(lines.get(8).indexOf("instanceof") + 1);
    assertThat(compilation).hadErrorContaining("'k instanceof Pt' is not supported: 'k' is a"
        + " value of record 'Pt'").inFile(file).onLine(11);
    // a box is an object of data, whose number comes back where it is unboxed
    assertThat(compilation).hadErrorContaining("'d * b' depends on 'a' through"
        + " 'Double.valueOf' (line 14), which carries no derivative, and reaches a value that"
        + " carries a derivative").inFile(file).onLine(15);
    assertThat(compilation).hadErrorContaining("'w instanceof List<Double> l' is not supported:"
        + " ad4j tests an object's class, so a generic type is tested with wildcards"
        + " ('List<?>')").inFile(file).onLine(19);
    assertThat(compilation).hadErrorContaining("'o instanceof double[] w' is not supported:"
        + " ad4j tests objects against classes, interfaces, enums and records, not 'double[]'")
        .inFile(file).onLine(22);
  }

  @Test
  void aRecordPatternIsAnErrorAtItsTest() {
    // record patterns are Java 21's; the tests run on 17 too
    org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.version().feature() >= 21);
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record Pt(double x, double y) {}",
        "  @Differentiable static double f(double a, Object o) {",
        "    if (o instanceof Pt(double x, double y)) return x * y * a;",
        "    return a;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("'o instanceof Pt(double x, double y)' is not"
        + " supported: ad4j tests the type of an object with 'instanceof' and a type or a type"
        + " pattern ('o instanceof Circle c'), not a record pattern").inFile(file).onLine(6);
  }

  /**
   * A pattern's variable is held in the block where its test stands, so a read of its name
   * after Java's scope of it ends would read it: with a field of that name, 'b * scale' after
   * the 'if' multiplied by the pattern's box (value 6.0 where Java's is 5.3 with 'o' the box
   * 3.0 and the field 2.0, and a NullPointerException for another object), and 't' tested
   * after the 'if' was the pattern's circle, not the field's. Now an error at the test.
   */
  /**
   * A pattern variable named like a class: after Java's scope of the variable ends, the name
   * names the class again ('Scale.v(a)' calls the static method), while ad4j held the variable:
   * the gradient of {@code f} was 4.0 where it is 12 at a = 0.5 with a {@code Box(2)}.
   */
  @Test
  void aPatternVariableNamedLikeAClassIsAnErrorAtItsTest() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  static final class Box {",
        "    final double w;",
        "    Box(double w) { this.w = w; }",
        "    @Differentiable double v(double x) { return w * x; }",
        "  }",
        "  static final class Scale {",
        "    @Differentiable static double v(double x) { return 10 * x; }",
        "  }",
        "  @Differentiable static double f(double a, @NoDerivative Object o) {",
        "    double r = 0;",
        "    if (o instanceof Box Scale) r = Scale.v(a);",
        "    return r + Scale.v(a);",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("the pattern variable 'Scale' has the name of the"
        + " class 'com.example.F.Scale': ad4j holds a pattern's variable in the block where the"
        + " test stands, so 'Scale' where Java's scope of the variable has ended (after the 'if',"
        + " in its 'else', the right operand of '||') would name the variable instead of the"
        + " class; rename the pattern variable").inFile(file).onLine(15)
        .atColumn(lines.get(14).indexOf("instanceof") + 1);
  }

  @Test
  void aPatternVariableNamedLikeAFieldIsAnErrorAtItsTest() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  record Circle(double r) {}",
        "  static double scale = 2.0;",
        "  static Object t = new Circle(3.0);",
        "  private final double k = 1.5;",
        "  @Differentiable static double boxed(double a, double b, @NoDerivative Object o) {",
        "    double r = 0;",
        "    if (o instanceof Double scale) r = a * scale;",
        "    return r + b * scale;",
        "  }",
        "  @Differentiable static double circles(double a, double b, @NoDerivative Object o) {",
        "    double r = 0;",
        "    if (o instanceof Circle t) r = a * t.r();",
        "    if (t instanceof Circle u) r += b * u.r();",
        "    return r;",
        "  }",
        "  @Differentiable double own(double a, @NoDerivative Object o) {",
        "    return o instanceof Double k || k > 1 ? a * k : a;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(3);
    assertThat(compilation).hadErrorContaining("the pattern variable 'scale' has the name of the"
        + " field 'F.scale': ad4j holds a pattern's variable in the block where the test stands,"
        + " so a read of 'scale' where Java's scope of the variable has ended (after the 'if',"
        + " in its 'else', the right operand of '||') would read the variable instead of the"
        + " field; rename the pattern variable").inFile(file).onLine(11)
        .atColumn(lines.get(10).indexOf("instanceof") + 1);
    assertThat(compilation).hadErrorContaining("the pattern variable 't' has the name of the"
        + " field 'F.t'").inFile(file).onLine(16);
    assertThat(compilation).hadErrorContaining("the pattern variable 'k' has the name of the"
        + " field 'F.k'").inFile(file).onLine(21);
  }
}
