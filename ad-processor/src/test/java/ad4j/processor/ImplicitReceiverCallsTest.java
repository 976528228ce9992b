package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Calls on the objects an instance method reaches without naming its receiver: {@code
 * link.response(x)} for {@code this.link.response(x)} (DESIGN.md, part 3, "Instance methods":
 * the receiver and every field read through it carry no derivative), and the errors for calls
 * that have no object, or one ad4j does not call, each saying why.
 */
@ExtendWith(TapeIsEmpty.class)
class ImplicitReceiverCallsTest {
  private static final String MODEL = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Model {",
      "  static final class Link {",
      "    private final double k;",
      "    Link(double k) { this.k = k; }",
      "    double scale() { return k; }",
      "    @Differentiable(order = 2) double response(double x) { return Math.tanh(k * x) * x; }",
      "  }",
      "  record Damping(double c) {",
      "    @Differentiable(order = 2) double damp(double x) { return c * Math.exp(-x * x); }",
      "  }",
      "  private final Link link;",
      "  final Damping damping;",
      "  final double bias;",
      "  Model(Link link, Damping damping, double bias) {",
      "    this.link = link;",
      "    this.damping = damping;",
      "    this.bias = bias;",
      "  }",
      "  @Differentiable static double through(Model m, double x) {",
      "    return m.damping.damp(x) * x + m.link.response(x);",
      "  }",
      "  @Differentiable(order = 2) static double weighed(Damping d, double x) {",
      "    return d.c() * Math.sin(x) + d.damp(x);",
      "  }",
      "  @Differentiable(order = 2) double f(double x, double y) {",
      "    double s = link.scale() * x * y + link.response(x - y);",
      "    for (int i = 0; i < 3; i++) {",
      "      s += Math.sin(s) * link.scale() * bias;",
      "    }",
      "    Damping local = damping;",
      "    return s * link.response(y) + damping.damp(s) * damping.c() + weighed(local, x);",
      "  }",
      "  @Differentiable(order = 2) double g(double x, double y) {",
      "    double s = this.link.scale() * x * y + this.link.response(x - y);",
      "    for (int i = 0; i < 3; i++) {",
      "      s += Math.sin(s) * this.link.scale() * this.bias;",
      "    }",
      "    Damping local = this.damping;",
      "    return s * this.link.response(y) + this.damping.damp(s) * this.damping.c()",
      "        + weighed(local, x);",
      "  }",
      "}");

  private static final List<CompiledOnce> COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Model", MODEL, 1);

  private static Object model(InProcessCompiler.Compiled compiled) throws Exception {
    Class<?> link = compiled.load("com.example.Model$Link");
    Constructor<?> makeLink = link.getDeclaredConstructor(double.class);
    makeLink.setAccessible(true);
    Class<?> model = compiled.load("com.example.Model");
    Class<?> damping = compiled.load("com.example.Model$Damping");
    Constructor<?> makeDamping = damping.getDeclaredConstructor(double.class);
    makeDamping.setAccessible(true);
    Constructor<?> makeModel = model.getDeclaredConstructor(link, damping, double.class);
    makeModel.setAccessible(true);
    return makeModel.newInstance(makeLink.newInstance(1.7), makeDamping.newInstance(0.45), 0.6);
  }

  /**
   * {@code link.response(x)} with {@code link} an instance field: it was an error ("'link' is
   * an instance field, and a @Differentiable method is static"); it is the call on {@code
   * this.link}, differentiated through the callee's generated members, at orders 1 and 2. The
   * callees are methods of a value class ({@code Link}, its field read by a getter) and of a
   * value record, whose members take the receiver flattened: {@code this.link.response(x)}
   * passed the object where they take its {@code double}, and the generated class did not
   * compile ("incompatible types: Link cannot be converted to double"); the receiver's leaves
   * are now read from the object. A value record in a field also initialises a local of its
   * type ({@code Damping local = damping}: it was an error, "cannot initialize value record
   * local"), which is passed to a method that takes the record, its components carrying no
   * derivative.
   */
  @Test
  void aFieldNamedWithoutThisIsReadThroughTheReceiver() throws Exception {
    for (CompiledOnce once : COMPILED) {
      InProcessCompiler.Compiled compiled = once.get();
      Object self = model(compiled);
      for (double[] point : new double[][] {{0.4, 1.3}, {-0.8, 0.25}, {1.1, -0.7}}) {
        Object[] arguments = {point[0], point[1]};
        MemberAgreement.of(compiled, "com.example.Model", "f", true, true).on(self)
            .checkScalar(arguments, 2, 1e-7);
        // a value record and a value class in fields of an object parameter
        MemberAgreement.of(compiled, "com.example.Model", "through", false, true)
            .checkScalar(new Object[] {self, point[0]}, 1, 1e-7);
        // the same as the method that writes 'this.', to the bit
        Class<?> grad = compiled.load("com.example.ModelGrad");
        for (String member : List.of("Gradient", "Hessian")) {
          Method implicit = method(grad, "f" + member);
          Method explicit = method(grad, "g" + member);
          assertThat(implicit.invoke(null, self, point[0], point[1]))
              .isEqualTo(explicit.invoke(null, self, point[0], point[1]));
        }
      }
    }
  }

  private static final String NULLS = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import ad4j.NoDerivative;",
      "final class Nulls {",
      "  record Rec(double c) {}",
      "  final Rec rec;",
      "  Nulls(Rec rec) { this.rec = rec; }",
      "  @Differentiable double a(double x) {",
      "    Rec d = rec;",
      "    if (x > 0) {",
      "      return x * x;",
      "    }",
      "    return d.c() * x;",
      "  }",
      "  @Differentiable static double b(@NoDerivative Rec r, double x) {",
      "    Rec d = r;",
      "    if (x > 0) {",
      "      return x * Math.sin(x);",
      "    }",
      "    return d.c() * x;",
      "  }",
      "}");

  private static final List<CompiledOnce> NULLS_COMPILED =
      CompiledOnce.wholeAndInParts("com.example.Nulls", NULLS, 1);

  /**
   * A local given a record held as an object, a field's or a {@code @NoDerivative}
   * parameter's, reads its components where the method reads them: with a null record and the
   * branch that does not read it, every member returns what the method does; the local,
   * flattened where it was declared, read them all there, and a @NoDerivative parameter's
   * members threw a {@code NullPointerException} the method does not throw. Where the method
   * reads the null record, every member throws as it does.
   */
  @Test
  void aRecordHeldAsAnObjectIsReadWhereTheMethodReadsIt() throws Exception {
    for (CompiledOnce once : NULLS_COMPILED) {
      InProcessCompiler.Compiled compiled = once.get();
      Class<?> nulls = compiled.load("com.example.Nulls");
      Class<?> rec = compiled.load("com.example.Nulls$Rec");
      Constructor<?> make = nulls.getDeclaredConstructor(rec);
      make.setAccessible(true);
      Object self = make.newInstance((Object) null);
      MemberAgreement.of(compiled, "com.example.Nulls", "a", true).on(self)
          .checkScalar(new Object[] {0.7}, 1, 1e-7);
      MemberAgreement.of(compiled, "com.example.Nulls", "b", false, true)
          .checkScalar(new Object[] {null, 0.7}, 1, 1e-7);
      Class<?> grad = compiled.load("com.example.NullsGrad");
      for (String member : List.of("aGradient", "aTangent")) {
        Method m = method(grad, member);
        Object[] arguments = member.endsWith("Tangent") ? new Object[] {self, -0.7, 1.0}
            : new Object[] {self, -0.7};
        java.lang.reflect.InvocationTargetException thrown = org.junit.jupiter.api.Assertions
            .assertThrows(java.lang.reflect.InvocationTargetException.class,
                () -> m.invoke(null, arguments));
        assertThat(thrown.getCause()).isInstanceOf(NullPointerException.class);
      }
    }
  }

  private static Method method(Class<?> owner, String name) {
    for (Method method : owner.getDeclaredMethods()) {
      if (method.getName().equals(name)) {
        method.setAccessible(true);
        return method;
      }
    }
    throw new AssertionError("no method " + name + " in " + owner);
  }

  private static Compilation compile(List<String> lines) {
    return InProcessCompiler.javac().compile(file(lines));
  }

  private static JavaFileObject file(List<String> lines) {
    return JavaFileObjects.forSourceString("com.example.F", String.join("\n", lines));
  }

  private static int columnOf(List<String> lines, int line, String text) {
    return lines.get(line - 1).indexOf(text) + 1;
  }

  /**
   * A value record's method calling a method its record inherits from an interface: ad4j
   * inlines the record's own methods and does not call others on it. The error said "a
   * @Differentiable method is static" and, with a derivative in the argument, that ad4j
   * differentiates static methods only; it now names the interface and what to do.
   */
  @Test
  void anInheritedDefaultMethodInARecordsCodeIsAnErrorThatSaysSo() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  interface Scaled { default double twice(double y) { return 2 * y; } }",
        "  record R(double k) implements Scaled {",
        "    double m(double x) { return twice(3.0) * k * x; }",
        "    double n(double x) { return twice(k * x); }",
        "  }",
        "  @Differentiable static double f(double a, double b) {",
        "    R r = new R(a);",
        "    return r.m(b) + r.n(b);",
        "  }",
        "}");
    JavaFileObject file = file(lines);
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("call to 'twice(...)': 'Scaled.twice' is a"
        + " default method of interface 'Scaled', which ad4j does not call on a value record (it"
        + " calls the methods the record declares); declare 'twice' in the record")
        .inFile(file).onLine(6).atColumn(columnOf(lines, 6, "(3.0)"));
    assertThat(compilation).hadErrorContaining("call to 'twice(...)' is not differentiable:"
        + " 'k * x' carries a derivative into 'twice(k * x)', which ad4j cannot differentiate:"
        + " 'Scaled.twice' is not a @Differentiable method, and annotating it would not help:"
        + " it is a default method of interface 'Scaled', which ad4j does not call on a value"
        + " record").inFile(file).onLine(7).atColumn(columnOf(lines, 7, "(k * x)"));
  }

  /**
   * An object's method that a derivative flows into: where annotating it is what ad4j needs
   * (an instance method of a class of the sources), the message says so, and the class
   * compiles once it is annotated; a method annotating would not help keeps the old advice.
   */
  @Test
  void anObjectsMethodIsAdvisedToBeAnnotatedWhereThatWorks() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class Cell {",
        "    final double k = 2;",
        "    double energy(double x) { return k * x * x; }",
        "  }",
        "  interface Shape { default double area(double r) { return r * r; } }",
        "  @Differentiable static double f(Cell c, Shape s, double a) {",
        "    return c.energy(a) + s.area(a);",
        "  }",
        "}");
    JavaFileObject file = file(lines);
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("'Cell.energy' is a method of an object, which"
        + " ad4j runs as written; annotate 'Cell.energy' with @Differentiable (an instance"
        + " method's object carries no derivative), or give its partial derivatives with"
        + " @DerivativeOf (rules that take the object first)")
        .inFile(file).onLine(10).atColumn(columnOf(lines, 10, "(a) +"));
    assertThat(compilation).hadErrorContaining("'Shape.area' is a method of an object, which"
        + " ad4j runs as written; compute the value in a static @Differentiable method")
        .inFile(file).onLine(10).atColumn(columnOf(lines, 10, "(a);"));

    List<String> annotated = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class Cell {",
        "    final double k = 2;",
        "    @Differentiable double energy(double x) { return k * x * x; }",
        "  }",
        "  @Differentiable static double f(Cell c, double a) {",
        "    return c.energy(a);",
        "  }",
        "}");
    assertThat(compile(annotated)).succeeded();
  }

  /**
   * {@code super.m()} in an instance method, and a field of an enclosing instance: the errors
   * said "a @Differentiable method is static", which an instance method is not.
   */
  @Test
  void superAndEnclosingInstancesInInstanceMethodsAreErrorsThatSayWhy() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  static final class N { double cdf(double x) { return x * 3; } }",
        "  final N outer = new N();",
        "  final class Inner {",
        "    @Differentiable double g(double x) { return outer.cdf(2.0) * x; }",
        "  }",
        "  static class Base { double base(double y) { return 2 * y; } }",
        "  static final class H extends Base {",
        "    @Differentiable double h(double x) { return super.base(2.0) * x; }",
        "  }",
        "}");
    JavaFileObject file = file(lines);
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("call to 'outer.cdf(...)': 'outer' is an"
        + " instance field of an enclosing instance, which ad4j does not pass to generated code;"
        + " read it into a field of 'Inner'")
        .inFile(file).onLine(7).atColumn(columnOf(lines, 7, "(2.0)"));
    assertThat(compilation).hadErrorContaining("call to 'super.base(...)': ad4j calls an"
        + " object's methods as Java dispatches them, and does not pass over an override as"
        + " 'super' does; where 'H' does not override 'base', call 'base(...)' without 'super'")
        .inFile(file).onLine(11).atColumn(columnOf(lines, 11, "(2.0)"));
  }

  /**
   * A field read through {@code super} or a qualified {@code this}: the errors said "cannot
   * find variable 'super'" and "cannot find class 'G.this'".
   */
  @Test
  void fieldsThroughSuperAndAQualifiedThisAreErrorsThatSayWhy() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "class G {",
        "  double k = 7;",
        "  static final class H extends G {",
        "    double k = 10;",
        "    @Differentiable double h(double x) { return super.k * x + k; }",
        "  }",
        "  @Differentiable final double g(double x) { return G.this.k * x; }",
        "}");
    JavaFileObject file = file(lines);
    Compilation compilation = InProcessCompiler.javac().compile(file);

    assertThat(compilation).hadErrorCount(2);
    assertThat(compilation).hadErrorContaining("field 'k' read through 'super' is not"
        + " supported: ad4j reads the fields of the method's object by name or through 'this';"
        + " a field that this class hides stays out of reach")
        .inFile(file).onLine(7).atColumn(columnOf(lines, 7, ".k * x"));
    assertThat(compilation).hadErrorContaining("'G.this' (a qualified 'this') is not supported:"
        + " read a field of the method's own object by name or through 'this' (an enclosing"
        + " instance's fields are not passed to generated code)")
        .inFile(file).onLine(9).atColumn(columnOf(lines, 9, ".this.k") + 5);
  }
}
