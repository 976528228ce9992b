package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One negative test per diagnostic: the message, and the line and column javac reports it at.
 *
 * <p>Each case is one line of source with a caret {@code ‸} at the column the error must be
 * reported at (the caret is removed before compiling). javac reports a tree at its "preferred
 * position": a method at its name, a call at its '(', a unary or binary operator at the operator,
 * a statement at its first keyword, a declaration at its name.
 */
class DiagnosticsTest {
  private static final String CARET = "‸";

  /** A method line, the message expected at its caret, and how many errors the method gets. */
  record Case(String name, String method, String message, int errors) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case error(String name, String method, String message) {
    return new Case(name, method, message, 1);
  }

  static Stream<Case> cases() {
    return Stream.of(
        // signature
        error("no double parameter", "@Differentiable static double ‸f(int n) { return n; }",
            "@Differentiable method 'f' has no 'double', 'float', 'double[]', 'float[]' or"
                + " 'double[][]' parameter without @NoDerivative"),
        error("double[][][] parameter",
            "@Differentiable static double f(double‸[][][] x) { return 1; }",
            "parameter 'x' of @Differentiable method 'f' has type 'double[][][]'"),
        error("int return type", "@Differentiable static ‸int f(double x) { return 1; }",
            "@Differentiable method 'f' must return 'double', 'float', 'double[]' or 'float[]',"
                + " not 'int'"),
        error("float[][] parameter",
            "@Differentiable static double f(float‸[][] x) { return 1; }",
            "parameter 'x' of @Differentiable method 'f' has type 'float[][]': ad4j"
                + " differentiates 'double', 'float', 'double[]', 'float[]' and 'double[][]'"
                + " parameters; mark an array of a higher rank @NoDerivative to pass it along"
                + " without derivatives"),
        error("double[][] return type",
            "@Differentiable static double‸[][] f(double x) { throw new RuntimeException(); }",
            "@Differentiable method 'f' must return 'double', 'float', 'double[]' or 'float[]',"
                + " not 'double[][]'"),
        error("abstract method", "@Differentiable abstract double ‸f(double x);",
            "'f' has no body to differentiate (abstract or native)"),
        error("native method", "@Differentiable static native double ‸f(double x);",
            "'f' has no body to differentiate (abstract or native)"),
        error("no parameters", "@Differentiable static double ‸f() { return 1; }",
            "@Differentiable method 'f' has no parameters"),
        error("generic method", "@Differentiable static <‸T> double f(double x) { return x; }",
            "@Differentiable method 'f' must not be generic"),
        // second order
        error("order 3",
            "@Differentiable(order ‸= 3) static double f(double x) { return x; }",
            "@Differentiable(order = 3) on method 'f' is not supported: the order must be 1"
                + " (first derivatives, the default) or 2 (Hessians as well)"),
        error("order 0",
            "@Differentiable(order ‸= 0) static double f(double x) { return x; }",
            "@Differentiable(order = 0) on method 'f' is not supported"),
        error("call from an order-2 method to an order-1 one",
            "@Differentiable(order = 2) static double f(double x) { return x * k‸(x); }",
            "call to 'k(...)' from method 'f', which is @Differentiable(order = 2): 'F.k' must be"
                + " @Differentiable(order = 2) as well, so that ad4j generates the second"
                + " derivatives this call needs"),
        // calls
        error("Math.random()", "@Differentiable static double f(double x) { return Math.random‸(); }",
            "call to 'Math.random()' is not differentiable: it returns a new random number"),
        error("library method (active)", "@Differentiable static double f(double x) {"
                + " return java.awt.geom.Point2D.distance‸(x * 2, 1, 0, 0); }",
            "call to 'java.awt.geom.Point2D.distance(...)' is not differentiable: 'x * 2' carries"
                + " a derivative into 'java.awt.geom.Point2D.distance(x * 2, 1, 0, 0)', which ad4j"
                + " cannot differentiate: 'Point2D.distance' is not a @Differentiable method; ad4j"
                + " differentiates calls to Math, StrictMath and FastMath functions and to"
                + " @Differentiable methods; give its partial derivatives with @DerivativeOf, one"
                + " rule per parameter that receives a derivative, such as '@DerivativeOf(owner ="
                + " java.awt.geom.Point2D.class, value = \"distance\", wrt = \"x1\") static double"
                + " distanceX1(double x1, double y1, double x2, double y2)'"),
        error("user method", "@Differentiable static double f(double x) { return g‸(x); }",
            "call to 'g(...)' is not differentiable: 'x' carries a derivative into 'g(x)', which"
                + " ad4j cannot differentiate: annotate 'F.g' with @Differentiable, so that"
                + " ad4j generates the derivatives this call needs"),
        error("private generic inactive method",
            "@Differentiable static double f(double x) { return q‸(x) ? x : -x; }",
            "call to 'q(...)' carries no derivative and would run as written, but generated code"
                + " cannot call it: method 'F.q' is private; make it package-private"),
        error("inactive call of an instance method",
            "@Differentiable static double f(double x) { return r‸(x) ? x : -x; }",
            "call to 'r(...)': 'F.r' is not static, and a static method has no object to call"
                + " it on"),
        error("call through this", "@Differentiable static double f(double x) { return this.g‸(x); }",
            "call to 'this.g(...)': the method is static and has no 'this'; call 'g(...)'"
                + " without it"),
        error("call through super",
            "@Differentiable static double f(double x) { return super.hashCode‸(); }",
            "call to 'super.hashCode()': the method is static and has no 'super'; call"
                + " 'hashCode()' without it"),
        // objects
        // a Double, Float, Integer or Long is unboxed (UnboxedDataTest); a Short is not a
        // number ad4j computes with
        error("boxed short operand",
            "@Differentiable static double f(double x) { return x ‸+ Short.valueOf((short) 1); }",
            "operator '+' cannot be applied to 'double' and 'Short'"),
        error("object of a value that carries a derivative",
            "@Differentiable static double f(double x) { return ‸new java.awt.geom.Point2D.Double(x, 1)"
                + ".getX(); }",
            "'x' carries a derivative into 'new java.awt.geom.Point2D.Double(x, 1)', which ad4j"
                + " cannot differentiate: objects carry no derivatives"),
        error("method of an object with a derivative",
            "@Differentiable static double f(double x, java.awt.geom.Point2D p) {"
                + " return p.distance‸(x, x); }",
            "call to 'p.distance(...)' is not differentiable: 'x' carries a derivative into"
                + " 'p.distance(x, x)', which ad4j cannot differentiate: 'Point2D.distance' is a"
                + " method of an object, which ad4j runs as written"),
        error("lambda", "@Differentiable static double f(double x) { double y = ‸() -> x; return x; }",
            "lambda expression is not supported"),
        error("lambda in a local of functional type",
            "@Differentiable static double f(double x) { Runnable r = ‸() -> { }; return x; }",
            "function value 'r' of type 'Runnable' is not supported: its method is 'void run()'"),
        error("static field write", "@Differentiable static double f(double x) { ‸s = x; return x; }",
            "assignment to field 's': a differentiable method may assign only its own locals"
                + " and parameters"),
        error("qualified static field write",
            "@Differentiable static double f(double x) { F‸.s = x; return x; }",
            "assignment to field 'F.s'"),
        // before: "... to 'Arrays.copyOf', which ad4j would run as written and which could
        // write into it", which it does not
        error("Arrays.copyOf of an array with derivatives outside a declaration",
            "@Differentiable static double f(double x) { double[] w = {x, 2 * x};"
                + " return java.util.Arrays.copyOf‸(w, 3)[1]; }",
            "call to 'java.util.Arrays.copyOf(...)' copies 'w', an array that carries"
                + " derivatives: ad4j copies such an array with 'Arrays.copyOf' only where the"
                + " copy initialises a local ('double[] c = Arrays.copyOf(...);'); declare a"
                + " local with the copy and use it here"),
        // statements
        error("try", "@Differentiable static double f(double x) { ‸try { x = 1; } finally { } return x; }",
            "'try' statement is not supported"),
        error("synchronized",
            "@Differentiable static double f(double x) { ‸synchronized (F.class) { } return x; }",
            "'synchronized' statement is not supported"),
        // the locals a rejected statement assigns are not reported again where they are read
        // (before: "variable 's' might not have been initialized" at the return)
        error("try assigning a local read after it",
            "@Differentiable static double f(double x) { double s; ‸try { s = x * 2; }"
                + " catch (RuntimeException e) { s = 0; } return s * x; }",
            "'try' statement is not supported"),
        error("synchronized counting a local read after it",
            "@Differentiable static double f(double x) { int n; double s; ‸synchronized (F.class)"
                + " { n = 2; n++; s = x; s += n; } return s * n; }",
            "'synchronized' statement is not supported"),
        error("switch on a boxed Character",
            "@Differentiable static double f(double x) { switch ‸(Character.valueOf('b')) { case 'b': break; default: } return x; }",
            "'switch' on a 'java.lang.Character' is not supported: ad4j switches on 'int', 'char',"
                + " 'short', 'byte', enum and 'String' values"),
        error("case label of another enum",
            "@Differentiable static double f(double x) { return x * switch (java.time.DayOfWeek.MONDAY)"
                + " { case ‸JANUARY -> 2.0; default -> 1.0; }; }",
            "'JANUARY' is not a constant of the enum 'java.time.DayOfWeek'"),
        error("yield before the end of a case",
            "@Differentiable static double f(double x) { return switch ((int) x) { case 1 -> { if (x > 1)"
                + " ‸yield 2.0; yield x; } default -> 1.0; }; }",
            "'yield' is supported only as the last statement of a case of a 'switch' expression:"
                + " assign the value to a local declared at the case's start, and yield that local"
                + " as the case's last statement"),
        error("enhanced for over a double",
            "@Differentiable static double f(double x) { for (double d : ‸x) { } return x; }",
            "enhanced 'for' loop over 'x', of type 'double': only arrays and Iterables can be walked"),
        error("break outside a loop", "@Differentiable static double f(double x) { ‸break; }",
            "'break' outside a loop is not supported"),
        error("label on a block", "@Differentiable static double f(double x) { ‸b: { } return x; }",
            "a label is supported only on a loop"),
        // a for loop's update that changes a double ends its body, which continue skips
        error("continue in a for loop whose update changes a double",
            "@Differentiable static double f(double x) { for (double t = 0; t < 1; ‸t += x) { if (t > 0.5) continue; x *= t; } return x; }",
            "a 'for' loop whose update changes a 'double' ('t += x') cannot be continued: ad4j"
                + " differentiates such an update as the end of the loop body, which 'continue'"
                + " would skip; use 'if' instead of 'continue', or make the update in the body"),
        error("throw of a checked exception",
            "@Differentiable static double f(double x) { if (x < 0) { throw new ‸Exception(); } return x; }",
            "'throw' needs an unchecked exception class"),
        error("assert with an anonymous object",
            "@Differentiable static double f(double x) { assert x > 0 : ‸new Object() { }; return x; }",
            "'new Object() { }' is not supported: ad4j creates objects of named classes only, not"
                + " anonymous or inner ones"),
        error("a diamond its local's type does not decide",
            "@Differentiable static double f(double x) { var l = ‸new java.util.ArrayList<>(); return x; }",
            "'new java.util.ArrayList<>()' is not supported here: ad4j infers a diamond's type"
                + " arguments only from the declared type of the local it initializes"
                + " ('List<Double> xs = new ArrayList<>()'); write them out"
                + " ('new java.util.ArrayList<...>(...)')"),
        error("non-boolean condition", "@Differentiable static double f(double x) { return ‸x ? 1 : 2; }",
            "the condition of '?:' must be a boolean"),
        // increments and assignments
        error("++ on a boolean", "@Differentiable static double f(double x, boolean b) { b‸++; return x; }",
            "operator '++' cannot be applied to 'boolean'"),
        error("field assignment in an expression",
            "@Differentiable static double f(double x) { return (‸s = x) * 2; }",
            "assignment to field 's': a differentiable method may assign only its own locals"
                + " and parameters"),
        error("continue in a do loop whose condition assigns a double",
            "@Differentiable static double f(double x) { do { if (x > 1) continue; x *= 0.5; }"
                + " while ‸((x -= 0.1) > 0); return x; }",
            "a 'do' loop whose condition assigns a 'double' cannot be continued"),
        error("compound shift assignment",
            "@Differentiable static double f(double x) { x ‸<<= 1; return x; }",
            "compound assignment '<<=' cannot be applied to 'double' and 'int': it applies to"
                + " 'int', 'long' and 'boolean' values, which carry no derivative"),
        // locals and names
        error("uninitialized local", "@Differentiable static double f(double x) { double y; return x * ‸y; }",
            "variable 'y' might not have been initialized"),
        error("unknown identifier", "@Differentiable static double f(double x) { return x * ‸zz; }",
            "cannot find variable 'zz'"),
        error("private static object field that is not final",
            "@Differentiable static double f(double x) { return x * (‸Q == null ? 1 : 2); }",
            "field 'Q' carries no derivative and would be read as written, but generated code"
                + " cannot read it: field 'F.Q' is private; make it package-private"),
        error("string literal", "@Differentiable static double f(double x) { double t = ‸\"a\"; return x; }",
            "a value of type 'String' cannot be assigned to 'double'"),
        error("boolean assigned to a double",
            "@Differentiable static double f(double x) { double t = x ‸< 1; return x; }",
            "a value of type 'boolean' cannot be assigned to 'double'"),
        // return
        error("statement after return",
            "@Differentiable static double f(double x) { return x; ‸x = 2; }",
            "unreachable statement"),
        error("no return", "@Differentiable static double ‸f(double x) { double y = x; }",
            "method 'f' can reach its end without a 'return'"));
  }

  /** Line 4 declares what the cases use; the case's method is line 5. */
  private static String source(String method) {
    return String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "abstract class F {",
        "  static double s; static double S2 = 2; private static final double P = Math.log(2);"
            + " private static Object Q = null;"
            + " static double g(double x) { return x; }"
            + " private static <T extends Comparable<T>> boolean q(T x) { return x != null; }"
            + " boolean r(double x) { return x > 0; } static String o(double x) { return null; }"
            + " static short t(double x) { return 0; }"
            + " @Differentiable private static double h(double x) { return x; }"
            + " @Differentiable static double k(double x) { return x * x; }",
        "  " + method,
        "}",
        "");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reportsTheErrorAtTheOffendingConstruct(Case c) {
    String line = "  " + c.method();
    int column = line.indexOf(CARET) + 1;
    assertWithMessage("case needs a caret").that(column).isGreaterThan(0);
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        source(c.method().replace(CARET, "")));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining(c.message())
        .inFile(file).onLine(5).atColumn(column);
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(c.errors());
    for (Diagnostic<? extends JavaFileObject> error : compilation.errors()) {
      assertThat(error.getMessage(null)).startsWith("ad4j: ");
    }
    assertThat(InProcessCompiler.generatedSourceNames(file)).isEmpty();
  }

  /**
   * Two overloads whose generated members would have one signature: the record half of the
   * pullback takes the tape, the parameters and an int per array that carries derivatives, so
   * {@code f(double[], double)} and {@code f(@NoDerivative double[], double, int)} both give
   * {@code fRecord(Tape, double[], double, int)}. An error at the second, naming both, instead of a
   * duplicate method in code the user did not write.
   */
  @Test
  void reportsGeneratedMembersOfOneSignatureAtTheSecondMethod() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  @Differentiable static double f(double[] a, double x) {",
        "    return a[0] * x;",
        "  }",
        "  @Differentiable static double f(@NoDerivative double[] a, double x, int n) {",
        "    return a[n] * x;",
        "  }",
        "}"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("the generated method 'fRecord(Tape, double[],"
        + " double, int)' for 'f(double[], double, int)' has the same signature as the one"
        + " generated for 'f(double[], double)'; rename one of the two methods").inFile(file).onLine(8);
  }

  @Test
  void reportsAllErrorsOfAMethodInOneCompilation() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x) {",
        "    double a = Math.random();",
        "    synchronized (F.class) { }",
        "    return x * zz;",
        "  }",
        "}"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(3);
    assertThat(compilation).hadErrorContaining("call to 'Math.random()'").inFile(file)
        .onLine(5).atColumn(27);
    assertThat(compilation).hadErrorContaining("'synchronized' statement is not supported")
        .inFile(file).onLine(6).atColumn(5);
    assertThat(compilation).hadErrorContaining("cannot find variable 'zz'").inFile(file)
        .onLine(7).atColumn(16);
  }

  /**
   * An inherited static method is named by the class that declares it, where the advice applies
   * (before: 'F.scaled', a method F does not declare).
   */
  @Test
  void namesAnInheritedCalleeByTheClassThatDeclaresIt() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "class Base {",
        "  @Differentiable static double scaled(double x) { return 3 * Math.sin(x); }",
        "}",
        "final class F extends Base {",
        "  @Differentiable(order = 2) static double f(double x, double y) {",
        "    return scaled(x) * y;",
        "  }",
        "}"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("call to 'scaled(...)' from method 'f', which is"
        + " @Differentiable(order = 2): 'Base.scaled' must be @Differentiable(order = 2) as"
        + " well").inFile(file).onLine(8).atColumn(18);
  }

  /** The lines of {@code com.example.F} declaring these members (from line 4 on). */
  private static List<String> classF(String... members) {
    List<String> lines = new java.util.ArrayList<>(List.of("package com.example;",
        "import ad4j.Differentiable;", "final class F {"));
    lines.addAll(List.of(members));
    lines.add("}");
    return lines;
  }

  private static JavaFileObject fileOf(List<String> lines) {
    return JavaFileObjects.forSourceString("com.example.F", String.join("\n", lines));
  }

  /** The 1-based column of {@code text} on line {@code line}; the test fails without it. */
  private static int columnOf(List<String> lines, int line, String text) {
    int column = lines.get(line - 1).indexOf(text) + 1;
    assertWithMessage("line %s has %s", line, text).that(column).isGreaterThan(0);
    return column;
  }

  /**
   * A generic record with {@code double} components is not a value record yet: made in the
   * method from a value that carries a derivative, or taken as a parameter, the error names the
   * type parameter. It said "objects carry no derivatives", and for the parameter "a
   * component", of a record whose components are all {@code double}s. Made with {@code <>}, it
   * said to write the type arguments out, which gave this error next.
   */
  @Test
  void aGenericRecordIsNamedAsWhatKeepsItFromBeingAValue() {
    List<String> lines = classF(
        "  record Gen<T>(double w) {}",
        "  @Differentiable static double f(double a, double b) {",
        "    Gen<String> g = new Gen<String>(a);",
        "    return g.w() * b;",
        "  }",
        "  @Differentiable static double h(Gen<String> g, double b) {",
        "    return g.w() * b;",
        "  }",
        "  @Differentiable static double k(double a, double b) {",
        "    Gen<String> g = new Gen<>(a);",
        "    return g.w() * b;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(3);
    // with '<>' the same reason, not advice to write out the type arguments, which then
    // fails with this error
    assertThat(compilation).hadErrorContaining("'a' carries a derivative into 'new"
        + " Gen<>(a)', which ad4j cannot differentiate: 'Gen' is a record ad4j does not"
        + " flatten yet ('Gen' is generic, with type parameter 'T', and ad4j flattens records"
        + " that are not), so an object, and objects carry no derivatives")
        .inFile(file).onLine(13).atColumn(columnOf(lines, 13, "new Gen"));
    assertThat(compilation).hadErrorContaining("'a' carries a derivative into 'new"
        + " Gen<String>(a)', which ad4j cannot differentiate: 'Gen' is a record ad4j does not"
        + " flatten yet ('Gen' is generic, with type parameter 'T', and ad4j flattens records"
        + " that are not), so an object, and objects carry no derivatives")
        .inFile(file).onLine(6).atColumn(columnOf(lines, 6, "new Gen"));
    assertThat(compilation).hadErrorContaining("parameter 'g' of @Differentiable method 'h'"
        + " has type 'com.example.F.Gen<java.lang.String>': a record whose components carry"
        + " derivatives beside one ad4j does not flatten yet ('Gen' is generic, with type"
        + " parameter 'T', and ad4j flattens records that are not;")
        .inFile(file).onLine(9).atColumn(columnOf(lines, 9, "<String> g"));
  }

  /**
   * One error per construct: a lambda lowered at each of its calls, and a function passed to a
   * method that takes one and calls it twice, report their errors once; a pattern's variable
   * and a local class's uses add none after the error at the construct.
   */
  @Test
  void reportsEachConstructOnceWithoutFollowOnErrors() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.function.DoubleUnaryOperator;",
        "final class F {",
        "  @Differentiable static double twice(DoubleUnaryOperator f, double x) {",
        "    return f.applyAsDouble(x) + f.applyAsDouble(2 * x);",
        "  }",
        "  @Differentiable static double a(double x) {",
        "    DoubleUnaryOperator f = y -> { synchronized (F.class) { return y * y; } };",
        "    return f.applyAsDouble(x) + f.applyAsDouble(3 * x) + twice(z -> z * Math.random(), x);",
        "  }",
        "  @Differentiable static double b(double x, java.util.Collection<Double> o) {",
        "    if (o instanceof java.util.List<Double> d) {",
        "      return x * d.get(0);",
        "    }",
        "    return x;",
        "  }",
        "  @Differentiable static double c(double x) {",
        "    class Sq { double of(double y) { return y * y; } }",
        "    Sq s = new Sq();",
        "    var t = new Sq();",
        "    return s.of(x) + t.of(x) + new Sq().of(x);",
        "  }",
        "}");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("a 'return' of a lambda or of a method taking a"
        + " function inside synchronized is not supported").inFile(file).onLine(9);
    assertThat(compilation).hadErrorContaining("call to 'Math.random()' is not differentiable")
        .inFile(file).onLine(10);
    assertThat(compilation).hadErrorContaining("'o instanceof java.util.List<Double> d' is"
        + " not supported: ad4j tests an object's class, so a generic type is tested with"
        + " wildcards ('List<?>')").inFile(file).onLine(13);
    assertThat(compilation).hadErrorContaining("local class declaration is not supported in a"
        + " differentiable method").inFile(file).onLine(19);
    assertThat(compilation).hadErrorCount(4);
  }

  @Test
  void reportsTheBodysErrorsAlsoWhenTheSignatureIsRejected() {
    List<String> lines = classF(
        "  @Differentiable static double f(double[][][] k, double x) {",
        "    double a = Math.random();",
        "    return a + x;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("parameter 'k' of @Differentiable method 'f' has"
        + " type 'double[][][]'").inFile(file).onLine(4).atColumn(columnOf(lines, 4, "[][][]"));
    assertThat(compilation).hadErrorContaining("call to 'Math.random()'").inFile(file)
        .onLine(5).atColumn(columnOf(lines, 5, "()"));
  }

  /**
   * A call of a {@code @Differentiable} method whose parameter no generated member takes (a
   * type variable) is an error at the call beside the callee's own; it was an
   * internal error ({@code NoSuchElementException}) while the call was lowered.
   */
  @Test
  void reportsACallOfAMethodWithAParameterNoMemberTakesAtTheCall() {
    List<String> lines = classF(
        "  @Differentiable static <T> double g(T tag, double x) { return x * x; }",
        "  @Differentiable static double h(char c, double x) { return c * x; }",
        "  @Differentiable static double f(double x) {",
        "    return g(\"a\", x) * 3 + h('b', x);",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorContaining("call to 'g(...)': parameter 'tag' of 'F.g' has"
        + " type 'T', which its generated members cannot take (see the error at its"
        + " declaration), so this call has no derivative").inFile(file).onLine(7)
        .atColumn(columnOf(lines, 7, "(\"a\""));
    assertThat(compilation).hadErrorContaining("@Differentiable method 'g' must not be generic")
        .inFile(file).onLine(4);
    for (Diagnostic<? extends JavaFileObject> error : compilation.errors()) {
      assertThat(error.getMessage(null)).doesNotContain("internal error");
    }
  }

  @Test
  void reportsLaterErrorsThatReadAValueWhoseDefinitionFailed() {
    List<String> lines = classF(
        "  static final java.util.Random NORMAL = new java.util.Random(1);",
        "  static double g(double x) { return x; }",
        "  @Differentiable static double f(double x) {",
        "    double a = Math.random();",
        "    double b = g(a);",
        "    return b * g(a) + NORMAL.nextDouble() * x;",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = InProcessCompiler.javac().compile(file);

    // NORMAL.nextDouble() carries no derivative and runs as written: no error
    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(3);
    assertThat(compilation).hadErrorContaining("call to 'Math.random()'").inFile(file)
        .onLine(7).atColumn(columnOf(lines, 7, "()"));
    assertThat(compilation).hadErrorContaining("call to 'g(...)' is not differentiable: 'a'"
        + " carries a derivative into 'g(a)', which ad4j cannot differentiate: annotate"
        + " 'F.g' with @Differentiable").inFile(file).onLine(8)
        .atColumn(columnOf(lines, 8, "(a)"));
    assertThat(compilation).hadErrorContaining("call to 'g(...)' is not differentiable: 'a'"
        + " carries a derivative into 'g(a)'").inFile(file).onLine(9)
        .atColumn(columnOf(lines, 9, "(a)"));
  }

  /**
   * Calls that are not differentiable inside one another (issue 36): each is reported at its
   * own call, the outer one because the inner one's result would carry a derivative; a
   * differentiable function of such a result ({@code Math.sqrt}) and a local holding it are no
   * errors of their own.
   */
  @Test
  void reportsEachNestedCallThatIsNotDifferentiable() {
    List<String> lines = classF(
        "  static double g(double x) { return 2 * x; }",
        "  static double h(double x) { return x + 1; }",
        "  @Differentiable static double f(double x) {",
        "    double y = g(h(x));",
        "    return y * Math.sqrt(h(x) + 1) + g(Math.getExponent(x) + g(x));",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertWithMessage(InProcessCompiler.describe(compilation.diagnostics()))
        .that(compilation.errors()).hasSize(5);
    assertThat(compilation).hadErrorContaining("call to 'g(...)' is not differentiable:"
        + " 'h(x)' carries a derivative into 'g(h(x))', which ad4j cannot differentiate:"
        + " annotate 'F.g' with @Differentiable").inFile(file).onLine(7)
        .atColumn(columnOf(lines, 7, "(h(x))"));
    assertThat(compilation).hadErrorContaining("call to 'h(...)' is not differentiable: 'x'"
        + " carries a derivative into 'h(x)', which ad4j cannot differentiate: annotate 'F.h'"
        + " with @Differentiable").inFile(file).onLine(7).atColumn(columnOf(lines, 7, "(x))"));
    assertThat(compilation).hadErrorContaining("call to 'h(...)' is not differentiable: 'x'"
        + " carries a derivative into 'h(x)'").inFile(file).onLine(8)
        .atColumn(columnOf(lines, 8, "(x) + 1"));
    assertThat(compilation).hadErrorContaining("call to 'g(...)' is not differentiable:"
        + " 'Math.getExponent(x) + g(x)' carries a derivative into 'g(Math.getExponent(x) +"
        + " g(x))'").inFile(file).onLine(8).atColumn(columnOf(lines, 8, "(Math.getExponent"));
    assertThat(compilation).hadErrorContaining("call to 'g(...)' is not differentiable: 'x'"
        + " carries a derivative into 'g(x)'").inFile(file).onLine(8)
        .atColumn(columnOf(lines, 8, "(x));"));
  }

  @Test
  void advisesAnnotatingOnlyWhereThatWouldWork() {
    List<String> lines = classF(
        "  static float count(double x, float[]... more) { return 1; }",
        "  double scale(double x) { return x; }",
        "  @Differentiable static double f(double x) {",
        "    return count(x) * x + scale(x);",
        "  }");
    JavaFileObject file = fileOf(lines);

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("call to 'count(...)' is not differentiable:"
        + " 'x' carries a derivative into 'count(x)', which ad4j cannot differentiate:"
        + " 'F.count' is not a @Differentiable method, and annotating it would not help: its"
        + " parameter 'more' has type 'float[][]': ad4j differentiates 'double', 'float',"
        + " 'double[]', 'float[]' and 'double[][]' parameters")
        .inFile(file).onLine(7).atColumn(columnOf(lines, 7, "(x) *"));
    assertThat(compilation).hadErrorContaining("call to 'scale(...)' is not differentiable:"
        + " 'x' carries a derivative into 'scale(x)', which ad4j cannot differentiate:"
        + " 'F.scale' is not a @Differentiable method, and annotating it would not help: it is"
        + " not static").inFile(file).onLine(7).atColumn(columnOf(lines, 7, "(x);"));
  }

  /**
   * A local assigned inside a condition is definitely assigned where Java says so: no
   * "might not have been initialized" at its uses.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("assignmentsInConditions")
  void noFalseUninitializedAfterAnAssignmentInACondition(String body) {
    Compilation compilation = InProcessCompiler.compileUnchecked("com.example.F",
        "package com.example; final class F { @ad4j.Differentiable static double f(double x) { "
            + body + " } }");

    InProcessCompiler.requireSuccess(compilation);
  }

  static Stream<String> assignmentsInConditions() {
    return Stream.of(
        "double y; if ((y = x * x) > 1) { return y; } return -y;",
        "double y; if (x > 0 && (y = x * x) > 1) { return y; } return x;",
        "double y; if (x < 0 || (y = x * 2) < 1) { return x; } return y;",
        "double y; while ((y = x * 0.5) > 1) { x = y; } return y;",
        "double y; boolean big = (y = Math.exp(x)) > 2; return big ? y : -y;");
  }

  @Test
  void reportsErrorsOfEveryMethodAndGeneratesNothing() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  @Differentiable static double f(double x) { return Math.random(); }",
        "  @Differentiable static double ok(double x) { return x * x; }",
        "  @Differentiable static double g(double x) { return h(x); }",
        "  static double h(double x) { return x; }",
        "}"));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("call to 'Math.random()'").inFile(file)
        .onLine(4).atColumn(65);
    assertThat(compilation).hadErrorContaining("call to 'h(...)' is not differentiable")
        .inFile(file).onLine(6).atColumn(55);
    assertThat(InProcessCompiler.generatedSourceNames(file)).isEmpty();
  }

  @Test
  void anErrorInOneClassDoesNotStopAnotherClass() {
    JavaFileObject[] files = {
        JavaFileObjects.forSourceString("com.example.Bad", "package com.example;"
            + " final class Bad { @ad4j.Differentiable static double f(double x) { return zz; } }"),
        JavaFileObjects.forSourceString("com.example.Good", "package com.example;"
            + " final class Good { @ad4j.Differentiable static double f(double x) { return x; } }")
    };

    assertThat(InProcessCompiler.javac().compile(files)).hadErrorCount(1);
    assertThat(InProcessCompiler.generatedSourceNames(files))
        .containsExactly("com.example.GoodGrad", "com.example.GoodGradSweeps");
  }

  /**
   * An unsupported declaration, initializer or assigned value should be reported once: the name
   * should still be known afterwards, so that its uses do not draw "cannot find variable" or
   * "might not have been initialized" as well.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cascades")
  void reportsAFailedDeclarationOnlyOnce(String body) {
    Compilation compilation = InProcessCompiler.compileUnchecked("com.example.F",
        "package com.example; final class F { @ad4j.Differentiable static double f(double x) { "
            + body + " } }");

    List<String> errors = compilation.errors().stream().map(d -> d.getMessage(null)).toList();
    assertWithMessage(String.join("\n", errors)).that(errors).hasSize(1);
  }

  static Stream<String> cascades() {
    return Stream.of(
        "double a = Math.random(); return a * x;",
        "double y = switch (Character.valueOf('a')) { default -> 2.0; }; return x * y;",
        "double a, b; a = b = Math.random(); return a + b;",
        "double a; a = Math.random(); return a * x;",
        "double a; if (x > 0) { a = (x <<= 1) * 2; } else { a = x; } return a * x;");
  }
}
