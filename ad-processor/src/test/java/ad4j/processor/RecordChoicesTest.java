package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.HessianChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code ?:} or {@code switch} expression that chooses a value record ({@code
 * RecordChoices}): as a local's initializer, assigned, returned, passed to a {@code
 * @Differentiable} method and as an operand of another {@code ?:}; the chosen operand or case
 * alone evaluated, its constructor's checks included. Each
 * derivative against differences of the user's own method and forward against reverse
 * ({@link DerivativeChecks}), at points on both sides of each condition.
 */
@ExtendWith(TapeIsEmpty.class)
class RecordChoicesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Choices {",
      "  record V(double a, double b) {",
      "    V {",
      "      if (b > 100) throw new IllegalArgumentException(\"b \" + b);",
      "    }",
      "    double dot(V o) { return a * o.a + b * o.b; }",
      "    V clampedTo(double m) { return dot(this) > m * m ? new V(a * 0.5, b * 0.5) : this; }",
      "  }",
      "  record Tagged(V v, double w, String tag, int k) {}",
      // line 11
      "  @Differentiable static double local(double x, double y) {",
      "    V v = x > y ? new V(x, y) : new V(y * y, Math.sin(x));",
      "    return v.a() * v.b() + v.dot(v);",
      "  }",
      "  @Differentiable static double chain(double x) {",
      "    int c = (int) Math.floor(x);",
      "    V u = new V(x, 3);",
      "    V v = c <= 0 ? u : c == 1 ? new V(Math.exp(x), x * x) : new V(x * x * x, 1 / x);",
      "    return v.a() * v.b() + u.a();",
      "  }",
      // line 21
      "  @Differentiable static double tagged(double x, double y) {",
      "    Tagged t = x > 0",
      "        ? new Tagged(new V(x, y), x * y, \"pos\", 2)",
      "        : new Tagged(new V(y, x), -x, \"negative\", 3);",
      "    return t.v().a() * t.w() + t.k() * t.v().b() + t.tag().length() * x;",
      "  }",
      "  @Differentiable static V picked(double x, double y) {",
      "    V v = new V(x * y, y);",
      "    V w = new V(Math.cos(x), x + y);",
      "    return (x > y) ? v : w;",
      // line 31
      "  }",
      "  @Differentiable static double viaCalls(double x, double y) {",
      "    V p = picked(x, y);",
      "    V q = new V(y, 2 * x);",
      "    return scaled(p.a() > q.a() ? p : q, x).dot(p);",
      "  }",
      "  @Differentiable static V scaled(V v, double k) { return new V(k * v.a(), v.b() / k); }",
      "  @Differentiable static double assigned(double x, double y) {",
      "    V v = new V(x, y);",
      "    for (int i = 0; i < 3; i++) {",
      // line 41
      "      v = v.a() > 1 ? new V(v.a() * 0.5, v.b() + x) : new V(v.a() + y, v.b() * v.a());",
      "    }",
      "    return v.a() + v.b();",
      "  }",
      "  @Differentiable static double onlyTheChosenIsMade(double x) {",
      // the operand not chosen would throw (b > 100): only the chosen one runs
      "    V v = x < 2 ? new V(x, x) : new V(x, 1000 * x);",
      "    return v.a() * v.b();",
      "  }",
      "  @Differentiable(order = 2) static double second(double x, double y) {",
      // line 51
      "    V v = x * y > 0.2 ? new V(x * x, y) : new V(y, Math.exp(x));",
      "    return v.a() * v.b() * v.b() + v.dot(new V(y, x));",
      "  }",
      "  @Differentiable static double switched(double x, double y) {",
      "    int k = (int) Math.floor(x);",
      "    V u = new V(y, x);",
      "    V v = switch (k) {",
      "      case 0 -> new V(x * y, Math.sin(y));",
      "      case 1, 2 -> u;",
      // line 61
      "      case 3 -> {",
      "        double s = x * x;",
      "        yield new V(s, s * y);",
      "      }",
      "      default -> throw new IllegalArgumentException(\"k \" + k);",
      "    };",
      "    return v.a() * v.b() + v.a();",
      "  }",
      "  enum Kind { PLAIN, TAGGED }",
      "  static Kind kindOf(double x, double y) { return x > y ? Kind.TAGGED : Kind.PLAIN; }",
      "  @Differentiable(order = 2) static double switchedColons(double x, double y) {",
      "    Kind kind = kindOf(x, y);",
      "    Tagged t = switch (kind) {",
      "      case PLAIN:",
      "        yield new Tagged(new V(x, y), y * y, \"plain\", 1);",
      "      default:",
      "        double w = Math.exp(x - y);",
      "        yield new Tagged(new V(w, x), w, \"tagged\", 2);",
      "    };",
      "    return t.v().a() * t.w() + t.k() * t.v().b() * x + t.tag().length();",
      "  }",
      "  @Differentiable static double caseLocals(double x, double y) {",
      "    V v = new V(x, y);",
      "    double s = 0;",
      "    for (int i = 0; i < 5; i++) {",
      "      V w = switch (i % 2) {",
      "        case 0 -> v.clampedTo(1.5);",
      "        default -> {",
      "          V u = new V(v.b(), s);",
      "          yield u;",
      "        }",
      "      };",
      "      s += w.a() * w.b();",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double caseLocalChosen(double x, double y) {",
      "    V v = switch ((int) Math.floor(y)) {",
      "      case 0 -> new V(x, y);",
      "      default -> {",
      "        V w = new V(y, x * y);",
      "        yield x > 0.5 ? w : (x > 0.2 ? new V(1, y) : w.clampedTo(0.2));",
      "      }",
      "    };",
      "    return v.a() * v.b() + Math.sin(v.a());",
      "  }",
      "  record A(double[] xs, double c) {}",
      // what the error for a choice of a record with a double[] component advises
      "  @Differentiable static double arrayElementsChosen(double x, double y) {",
      "    double[] p = {x, y, x * y};",
      "    double[] q = {y, x, 1};",
      "    boolean c = x > y;",
      "    A a = new A(new double[] {c ? p[0] : q[0], c ? p[1] : q[1], c ? p[2] : q[2]},"
          + " c ? x : y);",
      "    return a.xs()[0] * a.xs()[2] + a.c() * a.xs()[1];",
      "  }",
      "}");

  private static final CompiledOnce CHOICES = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Choices",
          SOURCE));

  private static CompiledFunction function(String name, int arity) {
    return CHOICES.get().function("com.example.Choices", name, arity);
  }

  @Test
  void aLocalInitializedByAChoiceOfNewRecords() {
    CompiledFunction f = function("local", 2);
    DerivativeChecks.checkAt(f, 0.9, 0.4); // x > y
    DerivativeChecks.checkAt(f, 0.3, 0.8); // x <= y
  }

  @Test
  void aChainOfChoicesWithALocalAsOneOperand() {
    CompiledFunction f = function("chain", 1);
    DerivativeChecks.checkAt(f, -0.6);
    DerivativeChecks.checkAt(f, 1.4);
    DerivativeChecks.checkAt(f, 2.3);
  }

  @Test
  void aChoiceOfNestedRecordsWithComponentsThatCarryNothing() {
    CompiledFunction f = function("tagged", 2);
    DerivativeChecks.checkAt(f, 0.7, -0.3);
    DerivativeChecks.checkAt(f, -0.7, 0.45);
  }

  @Test
  void aChoiceReturnedAndPassedToADifferentiableMethod() {
    CompiledFunction f = function("viaCalls", 2);
    DerivativeChecks.checkAt(f, 0.9, 0.2); // picked v; p.a() = 0.18 < q.a() = 0.2: q
    DerivativeChecks.checkAt(f, 1.3, 0.1); // picked v; p.a() = 0.13 > q.a() = 0.1: p
    DerivativeChecks.checkAt(f, 0.2, 0.9); // picked w
  }

  @Test
  void aRecordLocalAssignedAChoiceInALoop() {
    CompiledFunction f = function("assigned", 2);
    DerivativeChecks.checkAt(f, 1.7, 0.3); // halves, then adds
    DerivativeChecks.checkAt(f, 0.4, 0.35);
  }

  @Test
  void theOperandNotChosenIsNotMadeAndTheChosenOnesChecksRun() throws Exception {
    CompiledFunction f = function("onlyTheChosenIsMade", 1);
    DerivativeChecks.checkAt(f, 1.5);
    // at x = 3 the method itself throws from the chosen record's check; so do the members
    InvocationTargetException thrown = org.junit.jupiter.api.Assertions.assertThrows(
        InvocationTargetException.class, () -> f.gradientMethod().invoke(null, 3.0));
    assertThat(thrown.getCause()).isInstanceOf(IllegalArgumentException.class);
    assertThat(thrown.getCause()).hasMessageThat().isEqualTo("b 3000.0");
  }

  @Test
  void theHessianOfAnOrderTwoMethodThroughAChoice() throws Exception {
    CompiledFunction f = function("second", 2);
    Class<?> grad = CHOICES.get().load("com.example.ChoicesGrad");
    HessianChecks.checkAt(f, grad, 0.8, 0.6);
    HessianChecks.checkAt(f, grad, 0.3, 0.2);
  }

  @Test
  void aSwitchExpressionYieldingRecordsFromRulesABlockAndALocal() throws Exception {
    CompiledFunction f = function("switched", 2);
    DerivativeChecks.checkAt(f, 0.6, 0.8); // case 0
    DerivativeChecks.checkAt(f, 1.5, -0.4); // case 1, 2: the local u
    DerivativeChecks.checkAt(f, 2.5, 0.3);
    DerivativeChecks.checkAt(f, 3.2, 0.7); // the block that yields
    // where no case yields, the method's exception
    InvocationTargetException thrown = org.junit.jupiter.api.Assertions.assertThrows(
        InvocationTargetException.class, () -> f.gradientMethod().invoke(null, 4.5, 0.1));
    assertThat(thrown.getCause()).hasMessageThat().isEqualTo("k 4");
  }

  @Test
  void aSwitchExpressionOfColonCasesOnAnEnumAtOrderTwo() throws Exception {
    CompiledFunction f = function("switchedColons", 2);
    Class<?> grad = CHOICES.get().load("com.example.ChoicesGrad");
    HessianChecks.checkAt(f, grad, 0.3, 0.9); // PLAIN
    HessianChecks.checkAt(f, grad, 0.9, 0.3); // TAGGED
  }

  @Test
  void aCaseYieldingItsOwnLocalAndAChoiceOfThisInARecordsMethod() {
    CompiledFunction f = function("caseLocals", 2);
    DerivativeChecks.checkAt(f, 0.4, 0.9); // |v|^2 < 2.25: v itself
    DerivativeChecks.checkAt(f, 1.4, 0.9); // halved
  }

  @Test
  void aCaseYieldingAChoiceOfItsOwnLocal() {
    // the case's '?:' chooses a local its block declares: it was an error that the switch
    // could not initialize 'v'
    CompiledFunction f = function("caseLocalChosen", 2);
    DerivativeChecks.checkAt(f, 0.7, 0.3); // case 0
    DerivativeChecks.checkAt(f, 0.7, 1.3); // w
    DerivativeChecks.checkAt(f, 0.3, 1.3); // new V(1, y)
    DerivativeChecks.checkAt(f, 0.1, 1.2); // w clamped: halved
    DerivativeChecks.checkAt(f, 0.1, -0.15); // w clamped: itself
  }

  @Test
  void aRecordWithADoubleArrayMadeFromElementsChosenOneByOne() {
    CompiledFunction f = function("arrayElementsChosen", 2);
    DerivativeChecks.checkAt(f, 0.9, 0.4);
    DerivativeChecks.checkAt(f, 0.3, 0.8);
  }

  private static void assertRejected(List<String> lines, String message, int line, int column) {
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.F",
        String.join("\n", lines));
    Compilation compilation = InProcessCompiler.javac().compile(file);
    assertThat(compilation).hadErrorContaining(message).inFile(file).onLine(line);
    assertThat(compilation.errors().get(0).getLineNumber()).isEqualTo(line);
    assertThat(compilation.errors().get(0).getColumnNumber()).isEqualTo(column);
  }

  @Test
  void aChoiceWithNullIsAnErrorAtIt() {
    assertRejected(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {}",
        "  @Differentiable static double f(double x) {",
        "    V v = x > 0 ? new V(x, 1) : null;",
        "    return v.a();",
        "  }",
        "}"),
        "'x > 0 ? new V(x, 1) : null' cannot initialize value record local 'v': ad4j gives it"
            + " values of its record made in the method (a local, 'new', a call of the record's"
            + " methods, a '?:' or 'switch' choosing between them)", 6, 17); // javac's place of a ?: is its '?'
  }

  @Test
  void aCaseYieldingAnotherRecordIsAnErrorAtItNotAnInternalError() {
    assertRejected(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {}",
        "  record W(double a, double b) {}",
        "  @Differentiable static double f(double x, int k) {",
        "    V v = new V(x, 1);",
        "    V u = switch (k) {", // not Java either: javac would say so after ad4j
        "      case 0 -> v;",
        "      default -> {",
        "        W w = new W(x, x);",
        "        yield w;",
        "      }",
        "    };",
        "    return v.a() + u.b();",
        "  }",
        "}"),
        "'w' is yielded where this 'switch' chooses a value record 'V': every case must yield"
            + " one", 12, 15);
  }

  @Test
  void aSwitchExpressionYieldingAnotherRecordIsAnErrorAtIt() {
    assertRejected(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {}",
        "  record W(double a, double b) {}",
        "  @Differentiable static double f(double x, int k) {",
        "    V v = k > 0 ? new V(x, 1) : new V(1, x);",
        "    W w = new W(x, 2);",
        "    V u = switch (k) { case 0 -> v; default -> null; };",
        "    return v.a() + w.a() + u.b();",
        "  }",
        "}"),
        "'switch (k) { case 0 -> v; default -> null; }' cannot initialize value record local"
            + " 'u': ad4j gives it values of its record made in the method (a local, 'new', a"
            + " call of the record's methods, a '?:' or 'switch' choosing between them)", 9, 11);
  }

  @Test
  void aSwitchOverSeveralLinesIsQuotedOnOneLineShortened() {
    // the message quoted the whole switch, its line breaks included
    assertRejected(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {}",
        "  @Differentiable static double f(double x, int k) {",
        "    V u = switch (k) {",
        "      case 0 -> new V(x, 1);",
        "      case 1 -> new V(1, x);",
        "      default -> null;",
        "    };",
        "    return u.b();",
        "  }",
        "}"),
        "'switch (k) { case 0 -> new V(x, 1); case 1 -> new V(1, x); default -> null; }' cannot"
            + " initialize value record local 'u'", 6, 11);
    assertRejected(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record V(double a, double b) {}",
        "  @Differentiable static double f(double x, int k) {",
        "    V u = switch (k) {",
        "      case 0 -> new V(x, 1);",
        "      case 1 -> new V(1, x);",
        "      case 2 -> new V(x, x);",
        "      default -> null;",
        "    };",
        "    return u.b();",
        "  }",
        "}"),
        "'switch (k) { case 0 -> new V(x, 1); case 1 -> new V(1, x); case 2 -> new V(x, x); defau...'"
            + " cannot initialize value record local 'u'", 6, 11);
  }

  // A record with a double[] component chosen, or assigned in a branch or loop: its array
  // leaf was a variable set in branches, whose elements' derivatives reached nothing (the
  // gradient of 'a.xs()[0] * a.xs()[2] + a.c() * a.xs()[1]' was {0.4, 0.0} for {1.12, 1.71}
  // at (0.9, 0.4)). An error at the choice or the assignment now.

  private static final String CHOOSES_AN_ARRAY = "cannot choose value record 'A', whose"
      + " component 'xs()' is a 'double[]': a differentiable method binds an array to one array"
      + " at each point of the code; choose the components instead (the array's elements one by"
      + " one into a new array) and make one record of them";

  @Test
  void aChoiceOfARecordWithADoubleArrayComponentIsAnErrorAtIt() {
    assertRejected(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record A(double[] xs, double c) {}",
        "  @Differentiable static double f(double x, double y) {",
        "    double[] p = {x, y, x * y};",
        "    double[] q = {y, x, 1};",
        "    A a = x > y ? new A(p, x) : new A(q, y);",
        "    return a.xs()[0] * a.xs()[2] + a.c() * a.xs()[1];",
        "  }",
        "}"),
        "a '?:' or 'switch' " + CHOOSES_AN_ARRAY, 8, 17);
  }

  @Test
  void aSwitchChoosingANestedRecordWithADoubleArrayIsAnErrorAtIt() {
    assertRejected(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record A(double[] xs, double c) {}",
        "  record B(double w, A a) {}",
        "  @Differentiable static double f(double x, int k) {",
        "    double[] p = {x, x * x};",
        "    B b = switch (k) {",
        "      case 0 -> new B(x, new A(p, x));",
        "      default -> new B(1, new A(new double[] {x, 2}, 3));",
        "    };",
        "    return b.a().xs()[1] * b.w();",
        "  }",
        "}"),
        "a '?:' or 'switch' cannot choose value record 'B', whose component 'a().xs()' is a"
            + " 'double[]'", 8, 11);
  }

  @Test
  void aRecordWithADoubleArrayComponentAssignedInABranchIsAnErrorAtTheAssignment() {
    assertRejected(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record A(double[] xs, double c) {}",
        "  @Differentiable static double f(double x, double y) {",
        "    A a = new A(new double[] {x, y, x * y}, x);",
        "    if (x > y) a = new A(new double[] {y, x, x}, y);",
        "    return a.xs()[0] * a.xs()[2] + a.c();",
        "  }",
        "}"),
        "value record local 'a' cannot be assigned in a branch or loop inside its scope: its"
            + " component 'xs()' is a 'double[]', and a differentiable method binds an array"
            + " variable to one array at each point of the code; assign it outside the branch or"
            + " loop, or declare another local there", 7, 16);
  }

  @Test
  void aRecordParameterWithADoubleArrayComponentAssignedInALoopIsAnErrorAtTheAssignment() {
    assertRejected(List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class F {",
        "  record A(double[] xs, double c) {}",
        "  @Differentiable static double f(A a, double x) {",
        "    for (int i = 0; i < 3; i++) {",
        "      a = new A(a.xs(), a.c() * a.xs()[1] * x);",
        "    }",
        "    return a.xs()[0] * a.c();",
        "  }",
        "}"),
        "value record local 'a' cannot be assigned in a branch or loop inside its scope", 7, 7);
  }
}
