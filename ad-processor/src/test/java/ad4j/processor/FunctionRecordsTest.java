package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.GeneratedClassChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Function values over value records (DESIGN.md, part 3, Functions): a lambda, an anonymous
 * class or a user's {@code @FunctionalInterface} whose parameters are value records, called with
 * a record local, parameter, {@code new} or a capture, and given to a {@code @Differentiable}
 * template taking such a function and a record. The record parameter is bound to the argument's
 * flattened leaves, so each derivative is the one of the same code written in place: checked
 * against differences of the user's own method and forward against reverse, the generated code
 * compiling under {@code -Xlint:all -Werror}.
 */
@ExtendWith(TapeIsEmpty.class)
class FunctionRecordsTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "import java.util.function.ToDoubleFunction;",
      "import java.util.function.UnaryOperator;",
      "final class Fields {",
      "  record Vec3(double x, double y, double z) {",
      "    double dot(Vec3 o) { return x * o.x + y * o.y + z * o.z; }",
      "    Vec3 scale(double k) { return new Vec3(k * x, k * y, k * z); }",
      "    Vec3 plus(Vec3 o) { return new Vec3(x + o.x, y + o.y, z + o.z); }",
      "  }",
      "  record Body(Vec3 pos, double mass) {}",
      "  @FunctionalInterface interface Energy { double of(Vec3 p, double s); }",
      "  @FunctionalInterface interface Force { Vec3 at(Vec3 p); }",
      "  /** A record local, a capture and a new record as arguments. */",
      "  @Differentiable static double local(double a, double b, double c, double k) {",
      "    Vec3 p = new Vec3(a, b, c);",
      "    ToDoubleFunction<Vec3> energy = q -> q.x() * q.x() + k * q.y() + q.dot(p);",
      "    return energy.applyAsDouble(p) + energy.applyAsDouble(new Vec3(b, c * c, a));",
      "  }",
      "  /** A record parameter, a user's interface with a block body and an anonymous class. */",
      "  @Differentiable static double param(Vec3 p, double k) {",
      "    ToDoubleFunction<Vec3> energy = q -> q.x() * q.x() + k * q.y() * q.z();",
      "    Energy e = (q, s) -> {",
      "      Vec3 r = q.scale(s);",
      "      return r.dot(q) + Math.sin(r.z());",
      "    };",
      "    Energy g = new Energy() {",
      "      @Override public double of(Vec3 q, double s) { return s * q.y() / (1 + q.x() * q.x()); }",
      "    };",
      "    return energy.applyAsDouble(p) + e.of(p, k) + g.of(p.scale(k), 2);",
      "  }",
      "  @Differentiable static double viaParam(double a, double b, double c, double k) {",
      "    return param(new Vec3(a, b, c), k);",
      "  }",
      "  /** Nested records: the function reads a record component of its parameter. */",
      "  @Differentiable static double nested(double a, double b, double c, double m) {",
      "    ToDoubleFunction<Body> kinetic = body -> 0.5 * body.mass() * body.pos().dot(body.pos);",
      "    return kinetic.applyAsDouble(new Body(new Vec3(a, b, c), m));",
      "  }",
      "  /** A template taking a function of a record and a record. */",
      "  @Differentiable static double total(ToDoubleFunction<Vec3> f, Vec3 p, double h) {",
      "    return f.applyAsDouble(p) + f.applyAsDouble(new Vec3(p.x() + h, p.y(), p.z()));",
      "  }",
      "  @Differentiable static double viaTemplate(double a, double b, double c, double k) {",
      "    Vec3 p = new Vec3(a, b, c);",
      "    return total(q -> k * q.x() * q.y() + Math.sin(q.z()), p, k)",
      "        + total(q -> q.dot(p), new Vec3(c, a, b), 0.5);",
      "  }",
      "  @Differentiable static double energyOf(Vec3 p) { return p.x() * p.y() + Math.exp(p.z()); }",
      "  /** A reference to a @Differentiable method taking a record. */",
      "  @Differentiable static double viaReference(double a, double b, double c, double k) {",
      "    ToDoubleFunction<Vec3> f = Fields::energyOf;",
      "    return k * f.applyAsDouble(new Vec3(a, b, c));",
      "  }",
      "  /** Functions returning records: in a loop, chained, read through accessors. */",
      "  @Differentiable static double step(double a, double b, double c, double k) {",
      "    Vec3 p = new Vec3(a, b, c);",
      "    UnaryOperator<Vec3> twice = v -> v.scale(2);",
      "    Force spring = q -> new Vec3(-k * q.x(), -k * q.y() * q.z(), Math.sin(q.z()));",
      "    Vec3 v = p;",
      "    for (int i = 0; i < 3; i++) {",
      "      v = v.plus(spring.at(v).scale(0.1));",
      "    }",
      "    Vec3 w = twice.apply(v);",
      "    return w.dot(p) + spring.at(p).x() + twice.apply(spring.at(w)).dot(v);",
      "  }",
      "  /** A record returned by a function passed to a @Differentiable method taking a record. */",
      "  @Differentiable static double passed(double a, double b, double c, double k) {",
      "    Force f = q -> q.scale(k);",
      "    return energyOf(f.at(new Vec3(a, b, c)));",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Fields", SOURCE));

  private static CompiledFunction function(String name) {
    return COMPILED.get().function("com.example.Fields", name, 4);
  }

  private static final double[][] POINTS = {
      {0.7, -1.3, 0.4, 1.1}, {-2.1, 0.4, 1.5, -0.6}, {1.5, 2.5, -0.8, 0.3}};

  @Test
  void aFunctionOfARecordLocalACaptureAndANewRecord() {
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(function("local"), point);
    }
    // by hand: q.x^2 + k q.y + q.p at p and at (b, c^2, a), so
    // a^2 + k b + |p|^2 + b^2 + k c^2 + a b + b c^2 + a c
    double a = 0.7;
    double b = -1.3;
    double c = 0.4;
    double k = 1.1;
    double[] gradient = function("local").gradient(a, b, c, k);
    assertWithMessage("d/dk").that(gradient[3]).isWithin(1e-14).of(b + c * c);
    assertWithMessage("d/da").that(gradient[0]).isWithin(1e-13)
        .of(4 * a + b + c);
  }

  @Test
  void aFunctionOfARecordParameterAUsersInterfaceAndAnAnonymousClass() {
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(function("viaParam"), point);
    }
  }

  @Test
  void aFunctionOfANestedRecord() {
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(function("nested"), point);
    }
  }

  @Test
  void aTemplateTakingAFunctionOfARecordAndARecord() {
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(function("viaTemplate"), point);
    }
  }

  @Test
  void aReferenceToADifferentiableMethodTakingARecord() {
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(function("viaReference"), point);
    }
  }

  @Test
  void functionsReturningRecordsInALoopChainedAndReadThroughAccessors() {
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(function("step"), point);
    }
  }

  @Test
  void aRecordAFunctionReturnsPassedToADifferentiableMethod() {
    for (double[] point : POINTS) {
      DerivativeChecks.checkAt(function("passed"), point);
    }
    // by hand: k^2 a b + exp(k c)
    double[] gradient = function("passed").gradient(0.7, -1.3, 0.4, 1.1);
    assertWithMessage("d/dk").that(gradient[3]).isWithin(1e-13)
        .of(2 * 1.1 * 0.7 * -1.3 + 0.4 * Math.exp(1.1 * 0.4));
  }

  @Test
  void theGeneratedCodeHoldsNoFunctionObject() throws Exception {
    String source = COMPILED.get().compilation().generatedSourceFile(
        "com.example.FieldsGrad").orElseThrow().getCharContent(true).toString();
    String code = GeneratedClassChecks.codeWithoutComments(source);
    assertThat(code).doesNotContain("applyAsDouble");
    assertThat(code).doesNotContain(".apply(");
    assertThat(code).doesNotContain(".at(");
    assertThat(code).doesNotContain("->");
    assertThat(code).contains("Math.sin(");
  }

  /** Compiles {@code lines} as {@code com.example.F}; {@code message} at the line of {@code at}. */
  private static void assertError(String message, String at, String... lines) {
    List<String> all = List.of(lines);
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", all));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    int line = 0;
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).contains(at)) {
        line = i + 1;
      }
    }
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(line);
  }

  /** The lines of {@code com.example.F} with value record {@code V}, then {@code members}. */
  private static String[] classF(String... members) {
    List<String> lines = new java.util.ArrayList<>(List.of("package com.example;",
        "import ad4j.Differentiable;", "import java.util.function.UnaryOperator;",
        "final class F {", "  record V(double a, double b) {",
        "    V scale(double k) { return new V(k * a, k * b); }", "  }"));
    lines.addAll(List.of(members));
    lines.add("}");
    return lines.toArray(String[]::new);
  }

  @Test
  void aMethodReferenceReturningARecordIsAnError() {
    assertError("'F::twice' returns value record 'V', which ad4j supports for a lambda"
        + " ('p -> p.scale(2)'): write a lambda instead",
        "UnaryOperator<V> f = F::twice;",
        classF("  static V twice(V v) { return v.scale(2); }",
            "  @Differentiable static double f(double x) {",
            "    UnaryOperator<V> f = F::twice;",
            "    return f.apply(new V(x, 1)).a();",
            "  }"));
  }

  @Test
  void aRecordAFunctionReturnsUsedAsAnObjectIsAnError() {
    assertError("'f.apply(new V(x, 1))' is a value record, which ad4j flattens into its"
        + " components", "Object o = f.apply(new V(x, 1));",
        classF("  @Differentiable static double f(double x) {",
            "    UnaryOperator<V> f = v -> v.scale(x);",
            "    Object o = f.apply(new V(x, 1));",
            "    return x * o.hashCode();",
            "  }"));
  }

  @Test
  void aRecordWhoseLeavesAreNotKnownIsAnErrorAtTheArgument() {
    assertError("'make(x)' is passed where a value record 'V' is taken, which ad4j passes to a"
        + " function flattened: pass a record made or held in the method",
        "f.applyAsDouble(make(x))",
        "package com.example;",
        "import ad4j.Differentiable;",
        "import java.util.function.ToDoubleFunction;",
        "final class F {",
        "  record V(double a, double b) {}",
        "  static V make(double x) { return new V(x, 2); }",
        "  @Differentiable static double f(double x) {",
        "    ToDoubleFunction<V> f = v -> v.a() * v.b();",
        "    return f.applyAsDouble(make(x));",
        "  }",
        "}");
  }
}
