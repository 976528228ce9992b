package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Programs written to break the newer features (value records, instance methods, functions,
 * private members): each one either compiles and gives derivatives that agree with differences
 * of the user's own method and between forward and reverse mode, or is an error at its line.
 */
@ExtendWith(TapeIsEmpty.class)
class AdversarialProgramsTest {
  private static final double[][] POINTS = {{0.7, -1.3}, {-0.8, 1.2}, {1.3, 0.6}};

  private static void checkAtPoints(CompiledFunction f) {
    for (double[] x : POINTS) {
      DerivativeChecks.checkAt(f, x);
    }
  }

  /**
   * A method with a record parameter whose pullback is not split into halves (it calls a
   * vector function) gave callers an {@code hRecord} calling the user's method with the
   * record's leaves: the generated class did not compile.
   */
  @Test
  void aMethodTakingARecordAndCallingAVectorFunctionCanBeCalled() {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.R", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class R {",
            "  record V(double x, double y) {}",
            "  @Differentiable static V g(double a, double b) { return new V(a * b, b); }",
            "  @Differentiable static double h(V w, double s) {",
            "    V u = g(w.y(), s);",
            "    return u.x() * u.y() + w.x();",
            "  }",
            "  @Differentiable static double k(double a, double b) {",
            "    return h(new V(a, b), a * b) * a;",
            "  }",
            "}"));
    checkAtPoints(compiled.function("com.example.R", "k", 2));
  }

  /**
   * The same for instance methods, of a class and of a value record: {@code hRecord} called
   * {@code Foo.h(self, ...)}, a static call of an instance method, and the record's method with
   * its receiver's leaves.
   */
  @Test
  void instanceMethodsCallingAVectorFunctionCanBeCalled() {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.I", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class I {",
            "  final double k = 2;",
            "  record V(double x, double y) {",
            "    @Differentiable double m(double s) {",
            "      double[] r = I.g(x, s);",
            "      return r[0] * y + r[1];",
            "    }",
            "  }",
            "  @Differentiable static double[] g(double a, double b) {",
            "    return new double[] {a * b, b * b};",
            "  }",
            "  @Differentiable double h(double w, double s) {",
            "    double[] u = g(w, s);",
            "    return u[0] * u[1] * k;",
            "  }",
            "  @Differentiable static double caller(double a, double b) {",
            "    I o = new I();",
            "    return o.h(a, b) + new V(a, b).m(a * b);",
            "  }",
            "}"));
    checkAtPoints(compiled.function("com.example.I", "caller", 2));
  }
  /**
   * A record whose accessor {@code x()} computes ({@code return 2 * x;}) instead of returning its
   * component: generated code reads a record's components through its accessors, so a record
   * parameter's gradient was taken at {@code (2x, y)} and a constant's leaves were {@code 2x}
   * (the gradient of {@code a * K.x + b * k.x() + K.y * a * b} at {@code (1, 1)} with
   * {@code K = (3, 5)} was {@code {11, 17}}, not {@code {8, 11}}). Each such use is an error at
   * its place; the accessor inside the method keeps its meaning.
   */
  @Test
  void aRecordWhoseAccessorComputesIsAnErrorWhereItsComponentsAreReadFromOutside() {
    String source = String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "import ad4j.NoDerivative;",
        "final class F {",
        "  record W(double x, double y) {",
        "    public double x() { return 2 * x; }",
        "  }",
        "  record P(W w, double s) {}",
        "  static final W K = new W(3, 5);",
        "  @Differentiable static double parameter(W w) { return w.x * w.y + w.x(); }",
        "  @Differentiable static double nested(P p) { return p.w().y() * p.s(); }",
        "  @Differentiable static W result(double a) { return new W(a, a * a); }",
        "  @Differentiable static double constant(double a, double b) {",
        "    W k = K;",
        "    return a * K.x + b * k.x() + K.y * a * b;",
        "  }",
        "  @Differentiable static double data(double a, @NoDerivative W w) {",
        "    return a * w.y();",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", source);
    Compilation compilation = InProcessCompiler.javac().compile(file);
    String message = "record 'W' declares accessor 'x()', whose body is more than 'return x;'";
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(10);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(11);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(12);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(14);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(15);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(18);
  }

  /**
   * An accessor written by hand that returns its component ({@code return x;},
   * {@code return this.y;}) is the one javac would write: records that declare one keep
   * working, and a computing method of another name is differentiated as written.
   */
  @Test
  void aRecordWithAccessorsThatReturnTheirComponentsIsDifferentiated() {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.G", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class G {",
            "  record W(double x, double y) {",
            "    @Override public double x() { return x; }",
            "    public double y() { return (this.y); }",
            "    double doubledX() { return 2 * x; }",
            "  }",
            "  static final W K = new W(3, 5);",
            "  @Differentiable static double inner(W w) { return w.x * w.y() + w.doubledX(); }",
            "  @Differentiable static double f(double a, double b) {",
            "    W k = K;",
            "    return inner(new W(a, b)) + a * K.x + b * k.doubledX() + K.y() * a * b;",
            "  }",
            "}"));
    CompiledFunction f = compiled.function("com.example.G", "f", 2);
    checkAtPoints(f);
    assertWithMessage("gradient at (1, 1) by hand: (b + 2 + 3 + 5b, a + 6 + 5a)")
        .that(f.gradient(1, 1)).usingTolerance(1e-12).containsExactly(11, 12).inOrder();
  }
  /**
   * An instance method that a subclass may override: its generated members differentiate the
   * body they see, so for a subclass overriding it with {@code return a * 100;} they gave the
   * gradient {4} at 1 for a call whose derivative is 100, and {@code usesGradient} [3.5, 6] for
   * [99.5, 200]. They now refuse such a receiver ({@link OverriddenMethodsTest} has the rest);
   * the class's own objects get the derivatives.
   */
  @Test
  void anInstanceMethodThatASubclassOverridesRefusesTheSubclasssObjects() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.F", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "class F {",
            "  double k = 2;",
            "  @Differentiable double base(double a) { return a * a * k; }",
            "  @Differentiable protected double uses(double a, double b) { return base(a) * b; }",
            "  @Differentiable final double fixed(double a) { return a * k; }",
            "  @Differentiable private double own(double a) { return a * k; }",
            "  @Differentiable static double call(double a, F f) { return f.fixed(a) * a; }",
            "  static class Sub extends F {",
            "    @Override double base(double a) { return a * 100; }",
            "  }",
            "}"));
    java.lang.reflect.Constructor<?> subclass =
        compiled.load("com.example.F$Sub").getDeclaredConstructor();
    subclass.setAccessible(true);
    Object sub = subclass.newInstance();
    for (String member : List.of("baseGradient", "usesGradient")) {
      Object[] arguments = member.equals("baseGradient") ? new Object[] {sub, 1.0}
          : new Object[] {sub, 1.0, 1.0};
      java.lang.reflect.InvocationTargetException refused = org.junit.jupiter.api.Assertions
          .assertThrows(java.lang.reflect.InvocationTargetException.class,
              () -> compiled.invoke("com.example.FGrad", member, arguments));
      assertWithMessage(member).that(refused.getCause())
          .isInstanceOf(IllegalArgumentException.class);
      assertWithMessage(member).that(refused.getCause()).hasMessageThat()
          .contains("which overrides F.base;");
    }
    java.lang.reflect.Constructor<?> own =
        compiled.load("com.example.F").getDeclaredConstructor();
    own.setAccessible(true);
    double[] gradient = (double[]) compiled.invoke("com.example.FGrad", "usesGradient",
        own.newInstance(), 1.0, 1.0);
    assertWithMessage("gradient of a * a * k * b with k = 2 at (1, 1), by hand")
        .that(gradient).usingTolerance(1e-12).containsExactly(4.0, 2.0).inOrder();
  }

  /** A final method of a class that is not final: the receiver's class runs this code. */
  @Test
  void aFinalInstanceMethodOfAClassThatIsNotFinalIsDifferentiated() throws Exception {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.F", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "class F {",
            "  double k = 2;",
            "  @Differentiable final double fixed(double a, double b) { return a * a * k * b; }",
            "  static final class Sub extends F {",
            "    Sub() { k = 3; }",
            "  }",
            "}"));
    java.lang.reflect.Constructor<?> constructor =
        compiled.load("com.example.F$Sub").getDeclaredConstructor();
    constructor.setAccessible(true);
    Object sub = constructor.newInstance();
    double[] gradient = (double[]) compiled.invoke("com.example.FGrad", "fixedGradient", sub,
        1.5, -2.0);
    assertWithMessage("gradient of a * a * k * b with k = 3 at (1.5, -2), by hand")
        .that(gradient).usingTolerance(1e-12).containsExactly(2 * 1.5 * 3 * -2.0, 1.5 * 1.5 * 3)
        .inOrder();
  }
  /**
   * A value record's method, inlined into a method of the class around the record, reading a
   * private static field of that class that is not final and calling a private method of it:
   * the generated code named the handles as members of the record's generated class
   * ({@code F_VGrad.scaleField}), which does not exist; the class did not compile.
   */
  @Test
  void aRecordMethodReadingPrivateMembersOfTheClassAroundIt() {
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), "com.example.F", String.join("\n",
            "package com.example;",
            "import ad4j.Differentiable;",
            "final class F {",
            "  private static double scale = 1.5;",
            "  private static double factor(int n) { return n * 0.25; }",
            "  record V(double x, double y) {",
            "    V step(double h) { return new V(x + h * y * factor(3), y - h * x * scale); }",
            "  }",
            "  @Differentiable static double f(double a, double b) {",
            "    V p = new V(a, b).step(0.1).step(a);",
            "    return p.x() * p.y();",
            "  }",
            "}"));
    checkAtPoints(compiled.function("com.example.F", "f", 2));
  }
  /**
   * A value record compiled earlier, whose source ad4j does not see, made inside the method:
   * ad4j took its accessors for its components, so with {@code public double x() { return 2 *
   * x; }} the value of {@code new W(a, b).x() * y()} and its gradient were half the method's
   * (value -0.91 for -1.82 at (0.7, -1.3)); a canonical constructor that changes its values
   * would be missed the same way. Such a record made in the method is an error at
   * {@code new}. Returned (alone or in a record), generated code made it again of what its
   * accessors gave, a record of another value ({@code W[x=6.0, y=5.0]} for {@code W[x=3.0,
   * y=5.0]}): an error at the method. Passed in, it was read through its accessors throughout
   * and taken for no error, but the slot of {@code x} then held the derivative with respect to
   * {@code 2 * x}, not to the component (the contract's slot), and a nonlinear accessor gave
   * wrong derivatives outright: its class file now shows the accessor computing, the error at
   * each parameter as for a record compiled from source ({@link RecordsFromClassFilesTest}).
   */
  @Test
  void aValueRecordCompiledEarlierMadeInTheMethodIsAnError(@TempDir Path classes)
      throws Exception {
    Compilation library = InProcessCompiler.javac().compile(JavaFileObjects.forSourceString(
        "com.lib.W", String.join("\n",
            "package com.lib;",
            "public record W(double x, double y) {",
            "  public double x() { return 2 * x; }",
            "}")));
    assertThat(library).succeededWithoutWarnings();
    List<File> classpath = InProcessCompiler.classpathWithClassesOf(library, classes);
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F", String.join("\n",
        "package com.example;",
        "import ad4j.Differentiable;",
        "import com.lib.W;",
        "final class F {",
        "  @Differentiable static double f(double a, double b) {",
        "    W w = new W(a, b);",
        "    return w.x() * w.y();",
        "  }",
        "  @Differentiable static double g(W w, double s) { return w.x() * w.y() * s; }",
        "  record S(W w, double t) {}",
        "  @Differentiable static W id(W w, double s) { return w; }",
        "  @Differentiable static S wrap(W w, double s) { return new S(w, s); }",
        "}"));
    Compilation compilation = InProcessCompiler.javac().withClasspath(classpath).compile(file);
    assertThat(compilation).hadErrorContaining("'new W(...)': record 'W' is compiled without"
        + " its source here").inFile(file).onLine(6);
    // returned, it is made again of what its accessors gave: W[x=6.0, y=5.0] for W[x=3.0, ...]
    String withoutSource = "compiled without its source here";
    assertThat(compilation).hadErrorContaining("@Differentiable method 'id' returns value record"
        + " 'W', which is " + withoutSource).inFile(file).onLine(11);
    assertThat(compilation).hadErrorContaining("@Differentiable method 'wrap' returns value"
        + " record 'S', which is made of 'W', which is " + withoutSource).inFile(file).onLine(12);
    String computes = "record 'W' declares accessor 'x()', whose body is, as its class file"
        + " shows, more than 'return x;': value record parameter 'w' is read through its"
        + " accessors by generated code";
    for (int line : new int[] {9, 11, 12}) {
      assertThat(compilation).hadErrorContaining(computes).inFile(file).onLine(line);
    }
    assertThat(compilation).hadErrorContaining("record 'W' declares accessor 'x()', whose body"
        + " is, as its class file shows, more than 'return x;': the value record 'id' returns")
        .inFile(file).onLine(11);
    assertThat(compilation).hadErrorContaining("record 'W' declares accessor 'x()', whose body"
        + " is, as its class file shows, more than 'return x;': the value record 'wrap' returns")
        .inFile(file).onLine(12);
    assertThat(compilation).hadErrorCount(8);
  }
}
