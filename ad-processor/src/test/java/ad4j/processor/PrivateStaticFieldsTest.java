package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * The {@code private static final} fields of the user's classes (issue 36, item 1: constants
 * computed with {@code Math.log}, coefficient tables, a logger, a nested class's table): the
 * generated class reads them through a private lookup, once where the class's initialisation
 * cannot reach the generated class and at each use where it may, and its members compute with
 * the same values. Checked against differences of the user's own methods, values bit for bit,
 * forward against reverse mode; the generated code compiles under {@code -Xlint:all -Werror}.
 */
class PrivateStaticFieldsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.logging.Logger;",
      "public final class Gamma {",
      "  private static final Logger LOG = Logger.getLogger(\"gamma\");",
      "  private static final double HALF_LOG_2_PI = 0.5 * Math.log(2.0 * Math.PI);",
      "  private static final double[] LANCZOS = {",
      "    0.99999999999999709182, 57.156235665862923517, -59.597960355475491248,",
      "    14.136097974741747174, -0.49191381609762019978};",
      "  private static final int[] POWERS = {1, 2, 3};",
      "  private static final String UNIT = \"nats\";",
      "  static final class Table {",
      "    private static final double[] LANCZOS = {2.0, -1.0};",
      "  }",
      "  @Differentiable static double lanczos(double x) {",
      "    double sum = 0;",
      "    for (int i = LANCZOS.length - 1; i > 0; --i) { sum += LANCZOS[i] / (x + i); }",
      "    return sum + LANCZOS[0];",
      "  }",
      "  @Differentiable static double logGamma(double x) {",
      "    LOG.fine(\"logGamma in \" + UNIT);",
      "    double g = 607.0 / 128.0;",
      "    double tmp = x + g + .5;",
      "    return ((x + .5) * Math.log(tmp)) - tmp + HALF_LOG_2_PI + Math.log(lanczos(x) / x);",
      "  }",
      "  @Differentiable static double shadowed(double x, double y) {",
      "    double s = 0;",
      "    for (int i = 0; i < POWERS.length; i++) { s += Math.pow(x, POWERS[i]) * LANCZOS[i]; }",
      "    return s + Table.LANCZOS[0] * y + Table.LANCZOS[1] * x * y;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Gamma",
          SOURCE));

  @Test
  void constantsTablesAndObjectsArePrivateAndReadOnce() {
    DerivativeChecks.checkAt(COMPILED.get().function("com.example.Gamma", "logGamma", 1), 8.5);
    DerivativeChecks.checkAt(COMPILED.get().function("com.example.Gamma", "logGamma", 1), 12.25);
    DerivativeChecks.checkAt(COMPILED.get().function("com.example.Gamma", "lanczos", 1), 3.5);
    CompiledFunction shadowed = COMPILED.get().function("com.example.Gamma", "shadowed", 2);
    DerivativeChecks.checkAt(shadowed, 0.7, -1.3);
    // d/dy: Table.LANCZOS[0] + Table.LANCZOS[1] x, the nested class's table, not the outer one
    assertThat(shadowed.gradient(0.7, -1.3)[1]).isEqualTo(2.0 - 0.7);
  }

  /**
   * Gamma's initialisation makes a logger, and {@code Logger.getLogger} may load classes its
   * configuration names (handlers of the user's, which could reach the generated class while
   * Gamma's fields are not all set): its fields are read through their handles at each use.
   * The nested {@code Table}'s initialisation only makes an array: its table is copied once.
   */
  @Test
  void fieldsOfAClassThatMakesALoggerAreReadAtEachUseOthersCopiedOnce() throws Exception {
    String code = COMPILED.get().compilation().generatedSourceFile("com.example.GammaGrad")
        .orElseThrow().getCharContent(true).toString();
    assertThat(code).contains("private static final VarHandle LANCZOSField;");
    assertThat(code).contains("private static final VarHandle HALF_LOG_2_PIField;");
    assertThat(code).contains("private static final VarHandle LOGField;");
    assertThat(code).contains("((double[]) GammaGrad.LANCZOSField.get())[0]");
    assertThat(code).contains("private static final double[] Table_LANCZOS;");
    assertThat(code).contains("MethodHandles.privateLookupIn(Gamma.class, MethodHandles.lookup())");
    assertThat(code.split("findStaticVarHandle\\(Gamma.class, \"LANCZOS\"", -1)).hasLength(2);
    // a compile-time constant is inlined, as javac does
    assertThat(code).doesNotContain("UNIT;");
  }

  /**
   * Tables and constants of private nested classes (holders, issue 36 item 1): generated code
   * cannot name the class, so the generated class finds it by its binary name through a private
   * lookup of the top-level class, whose nestmate it is, and copies the fields once.
   */
  @Test
  void fieldsOfPrivateNestedClassesAreFoundThroughTheTopLevelClass() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Series", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Series {",
            "  private static final class Holder {",
            "    static final double[] P = {0.5, 0.25, -0.125};",
            "    static final double ROOT = Math.log(3);",
            "  }",
            "  private static final class Outer {",
            "    static final class Deep { private static final double[] D = {2.0, -1.0}; }",
            "  }",
            "  @Differentiable static double f(double x, double y) {",
            "    double s = 0;",
            "    for (int i = 0; i < Holder.P.length; i++) s += Holder.P[i] * Math.pow(x, i);",
            "    return s * y + Holder.ROOT * x * x + Outer.Deep.D[1] * Math.sin(x * y);",
            "  }",
            "}"));
    CompiledFunction f = compiled.function("com.example.Series", "f", 2);
    DerivativeChecks.checkAt(f, 0.7, -1.3);
    DerivativeChecks.checkAt(f, 1.9, 0.4);
    double x = 0.7;
    double y = -1.3;
    assertThat(f.gradient(x, y)[1]).isWithin(1e-14)
        .of(0.5 + 0.25 * x - 0.125 * x * x - x * Math.cos(x * y));
    String code = compiled.compilation().generatedSourceFile("com.example.SeriesGrad")
        .orElseThrow().getCharContent(true).toString();
    assertThat(code).contains("findClass(\"com.example.Series$Holder\")");
    assertThat(code).contains("findClass(\"com.example.Series$Outer$Deep\")");
    assertThat(code).contains("private static final double[] Holder_P;");
  }

  /**
   * A class whose static initialisation calls its own generated class: the generated class is
   * initialised while the fields are not yet set, so a copy read then would keep their default
   * values for good (it gave a gradient and a value of 0 after initialisation before), and an
   * initializer evaluated again would give its value before Java has set it. The
   * fields of such a class are read through a handle where the method reads them, as Java
   * reads them; a class whose initialisation runs only the JDK's code keeps its copies.
   */
  @Test
  void fieldsOfAClassWhoseInitialisationMayReachTheGeneratedClassAreReadAtEachUse()
      throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Early", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Early {",
            "  static final double EARLY = EarlyGrad.fGradient(2.0)[0];",
            "  private static final double K = Math.log(3.0);",
            "  private static final double R = Math.sqrt(2.0);",
            "  private static final double[] T = {Math.sqrt(2.0), 0.5};",
            "  static final class Named { int size() { return 1; } }",
            "  private static final Named NAME = new Named();",
            "  private static final class Holder {",
            "    static final double[] P = {0.5, Math.log(5.0)};",
            "  }",
            "  @Differentiable static double f(double x) { return K * x * x + R * x; }",
            "  @Differentiable static double g(double x) {",
            "    return T[0] * x * x + T.length * Math.sin(x) + Holder.P[1] * x * NAME.size();",
            "  }",
            "}"));
    CompiledFunction f = compiled.function("com.example.Early", "f", 1);
    DerivativeChecks.checkAt(f, 0.7);
    assertThat(f.gradient(0.7)[0]).isWithin(1e-15).of(2 * Math.log(3.0) * 0.7 + Math.sqrt(2));
    // during the initialisation, K and R are 0 for the method as for its gradient
    java.lang.reflect.Field early = compiled.load("com.example.Early").getDeclaredField("EARLY");
    early.setAccessible(true);
    assertThat(early.getDouble(null)).isEqualTo(0.0);
    DerivativeChecks.checkAt(compiled.function("com.example.Early", "g", 1), 0.7);
    String code = compiled.compilation().generatedSourceFile("com.example.EarlyGrad")
        .orElseThrow().getCharContent(true).toString();
    assertThat(code).contains("private static final VarHandle KField;");
    assertThat(code).contains("private static final VarHandle TField;");
    assertThat(code).contains("((com.example.Early.Named) EarlyGrad.NAMEField.get()).size()");
    assertThat(code).contains("private static final double[] Holder_P;");
  }

  /**
   * A class whose static initialisation loads its generated class by name, through the JDK's
   * reflection ({@code Class.forName} initialises the class it names): initialised first, it
   * initialises the generated class before its own fields are set. A copy of K taken then
   * stayed 0 for good (a gradient and a value of 0, where the method gives 2 K x); calls of the
   * JDK that load, initialise or make classes by name make the answer "may reach".
   */
  @Test
  void aClassWhoseInitialisationLoadsTheGeneratedClassByNameIsReadAtEachUse()
      throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.ByName", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class ByName {",
            "  static {",
            "    try {",
            "      Class.forName(\"com.example.ByNameGrad\");",
            "    } catch (ClassNotFoundException e) {",
            "      throw new IllegalStateException(e);",
            "    }",
            "  }",
            "  private static final double K = Math.log(3.0);",
            "  @Differentiable static double f(double x) { return K * x * x; }",
            "}"));
    // the user's class first: its initialisation initialises the generated class
    assertThat((Double) compiled.invoke("com.example.ByName", "f", 0.7))
        .isEqualTo(Math.log(3.0) * 0.7 * 0.7);
    CompiledFunction f = compiled.function("com.example.ByName", "f", 1);
    DerivativeChecks.checkAt(f, 0.7);
    assertThat(f.gradient(0.7)[0]).isWithin(1e-15).of(2 * Math.log(3.0) * 0.7);
  }

  /** The same through a resource bundle, a class of the user's the JDK makes by name. */
  @Test
  void aClassWhoseInitialisationLoadsAResourceBundleIsReadAtEachUse() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.Bundled", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Bundled {",
            "  /** Made by ResourceBundle.getBundle; it calls the generated class. */",
            "  public static final class Texts extends java.util.ListResourceBundle {",
            "    private final double early = BundledGrad.fGradient(1.0)[0];",
            "    @Override protected Object[][] getContents() {",
            "      return new Object[][] {{\"early\", early}};",
            "    }",
            "  }",
            "  private static final java.util.ResourceBundle TEXTS =",
            "      java.util.ResourceBundle.getBundle(\"com.example.Bundled$Texts\");",
            "  private static final double K = Math.log(3.0);",
            "  @Differentiable static double f(double x) { return K * x * x; }",
            "}"));
    assertThat((Double) compiled.invoke("com.example.Bundled", "f", 0.7))
        .isEqualTo(Math.log(3.0) * 0.7 * 0.7);
    CompiledFunction f = compiled.function("com.example.Bundled", "f", 1);
    DerivativeChecks.checkAt(f, 0.7);
    assertThat(f.gradient(0.7)[0]).isWithin(1e-15).of(2 * Math.log(3.0) * 0.7);
  }

  /**
   * A private static field that is not final (issue 36): read through a {@code VarHandle} where
   * the method reads it, as a package-private one is ({@code MutableStaticFieldsTest}).
   */
  private static final String MUTABLE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Counter {",
      "  private static double scale = 2;",
      "  private static int calls;",
      "  private static java.util.logging.Logger log = java.util.logging.Logger.getLogger(\"c\");",
      "  static void setLog(java.util.logging.Logger l) { log = l; }",
      "  private static void reset() { scale = 2; }",
      "  private static void change() { scale = 5; calls++; }",
      "  static void setScale(double s) { scale = s; }",
      "  static int calls() { return calls; }",
      "  @Differentiable static double f(double x) {",
      "    log.fine(\"f\");",
      "    reset();",
      "    double s = scale;",
      "    double acc = 0;",
      "    for (int i = 0; i < 3; i++) {",
      "      acc += Math.sin(x * scale) * acc + x * s;",
      "      change();",
      "    }",
      "    return acc * scale + s * x;",
      "  }",
      "  @Differentiable static double g(double x) { return scale * x * x + Math.sin(scale * x); }",
      "  @Differentiable static double caller(double x) { return g(x) * Math.exp(x); }",
      "}");

  private static final CompiledOnce MUTABLE_COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Counter",
          MUTABLE));

  @Test
  void aPrivateFieldThatIsNotFinalIsReadWhereTheMethodReadsIt() {
    CompiledFunction f = MUTABLE_COMPILED.get().function("com.example.Counter", "f", 1);
    DerivativeChecks.checkAt(f, 1.5);
    DerivativeChecks.checkAt(f, -0.4);
    // by hand: scale is 2 in the first iteration, 5 after; s stays 2
    double x = 0.7;
    double acc = 0;
    double dacc = 0;
    for (int i = 0; i < 3; i++) {
      double k = i == 0 ? 2 : 5;
      double t = Math.sin(x * k);
      double dt = Math.cos(x * k) * k;
      double next = acc + t * acc + x * 2;
      dacc = dacc + dt * acc + t * dacc + 2;
      acc = next;
    }
    assertThat(f.gradient(x)[0]).isWithin(1e-12).of(dacc * 5 + 2);
  }

  @Test
  void aChangeOfAPrivateFieldBetweenCallsIsSeen() throws Exception {
    CompiledFunction g = MUTABLE_COMPILED.get().function("com.example.Counter", "g", 1);
    for (double scale : new double[] {3.0, -1.25}) {
      MUTABLE_COMPILED.get().invoke("com.example.Counter", "setScale", scale);
      DerivativeChecks.checkAt(g, 0.6);
      // a caller's sweeps read it through g's pullback
      DerivativeChecks.checkAt(
          MUTABLE_COMPILED.get().function("com.example.Counter", "caller", 1), 0.6);
      assertThat(g.gradient(0.6)[0])
          .isWithin(1e-12).of(2 * scale * 0.6 + scale * Math.cos(scale * 0.6));
    }
  }

  @Test
  void eachPrivateFieldThatIsNotFinalHasAHandleReadAtEachUse() throws Exception {
    String code = MUTABLE_COMPILED.get().compilation()
        .generatedSourceFile("com.example.CounterGrad").orElseThrow().getCharContent(true)
        .toString();
    assertThat(code).contains("private static final VarHandle scaleField;");
    assertThat(code).contains("(double) CounterGrad.scaleField.get()");
    assertThat(code.split("findStaticVarHandle\\(Counter.class, \"scale\"", -1)).hasLength(2);
  }

  /**
   * A private static object that is not final, the receiver of a call run as written: read
   * through its handle where the method reads it, so a logger set between calls is the one
   * the generated members log to.
   */
  @Test
  void aPrivateObjectFieldThatIsNotFinalIsReadWhereTheMethodCallsIt() throws Exception {
    java.util.logging.Logger logger = java.util.logging.Logger.getAnonymousLogger();
    logger.setUseParentHandlers(false);
    logger.setLevel(java.util.logging.Level.FINE);
    List<String> seen = new java.util.ArrayList<>();
    logger.addHandler(new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord record) {
        seen.add(record.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    });
    MUTABLE_COMPILED.get().invoke("com.example.Counter", "setLog", logger);
    MUTABLE_COMPILED.get().invoke("com.example.CounterGrad", "fGradient", 0.7);
    MUTABLE_COMPILED.get().invoke("com.example.CounterGrad", "fTangent", 0.7, 1.0);
    assertThat(seen).containsExactly("f", "f");
    String code = MUTABLE_COMPILED.get().compilation()
        .generatedSourceFile("com.example.CounterGrad").orElseThrow().getCharContent(true)
        .toString();
    assertThat(code).contains("((java.util.logging.Logger) CounterGrad.logField.get()).fine(");
  }

  /** What a call run as written may change is still not read again after it (StateReadAgain). */
  @Test
  void aCalleeReadingAPrivateFieldAfterACallThatMayChangeItIsAnError() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Callers {",
        "  private static double scale = 1;",
        "  private static void change() { scale = 3; }",
        "  @Differentiable static double field(double x) {",
        "    double[] t = {x, x * x};",
        "    return t[1] * scale;",
        "  }",
        "  @Differentiable static double caller(double x) {",
        "    double a = field(x);",
        "    change();",
        "    return a;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Callers",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("call to 'field(...)': 'Callers.field' reads what a"
        + " call run as written may change (line 8: return t[1] * scale;), and the gradient of"
        + " 'caller' may run 'Callers.field' again in its reverse sweep, after 'change()' (line"
        + " 12), which runs as written and may change it")
        .inFile(file).onLine(11);
  }

  @Test
  void aPrivateCharFieldThatIsNotFinalIsStillAnError() {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Letters", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Letters {",
        "  private static char letter = 'a';",
        "  @Differentiable static double f(double x) { return letter * x; }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining("field 'letter' is not final, and generated code"
        + " cannot read it as a 'char'").inFile(file).onLine(5);
  }

  /**
   * A private field whose initializer is pure and exact is evaluated by generated code from its
   * text; a sign written apart from a signed operand ({@code - -2.0}, {@code + +1.0}, the
   * minus of a negative constant) was written back without the space, {@code --2.0}, which
   * javac reads as a decrement of a literal: the generated class did not compile.
   */
  @Test
  void signsWrittenApartInAPureInitializerStayApart() {
    CompiledFunction f = InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
        "com.example.Signs", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class Signs {",
            "  static final double NEGATIVE = -3.5;",
            "  private static final double TWICE = - -2.0 * Math.sqrt(3.0) + + +1.0;",
            "  private static final double OPPOSITE = -(-NEGATIVE) - -Math.sqrt(2.0);",
            "  private static final double ABS = Math.abs(-NEGATIVE);",
            "  @Differentiable static double f(double x) {",
            "    return TWICE * x * x + OPPOSITE * x + ABS;",
            "  }",
            "}")).function("com.example.Signs", "f", 1);
    DerivativeChecks.checkAt(f, 0.7);
    DerivativeChecks.checkAt(f, -1.5);
    assertThat(f.gradient(0.7)[0]).isWithin(1e-14)
        .of(2 * (2.0 * Math.sqrt(3.0) + 1.0) * 0.7 + (-3.5 + Math.sqrt(2.0)));
  }
}
