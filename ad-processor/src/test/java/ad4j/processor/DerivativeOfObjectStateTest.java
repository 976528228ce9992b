package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;

import ad4j.processor.testing.CompiledFunction;
import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.DerivativeChecks;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.TapeIsEmpty;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code @DerivativeOf} rules of instance targets whose receiver is a mutable object changed
 * after the call (a setter): each rule must see the object as its call did, so the partials are
 * computed where the call is. Objects that are locals and a {@code static final} field, in straight-line
 * code and loops. Where a generated member would run a setter more than once (order 2, a
 * caller's tangent), it is an error. Each function is checked against finite differences
 * of the user's own method (which calls the targets' real bodies), forward mode against reverse
 * mode, and at order 2 its Hessian against differences of its gradient.
 */
@ExtendWith(TapeIsEmpty.class)
class DerivativeOfObjectStateTest {
  /** A mutable distribution: its cdf is a target, with a rule that reads the mean. */
  private static final String DIST = String.join("\n",
      "package com.example;",
      "import ad4j.DerivativeOf;",
      "import ad4j.Differentiable;",
      "public final class Dist {",
      "  private double mean;",
      "  private double scale;",
      "  public Dist(double mean, double scale) { this.mean = mean; this.scale = scale; }",
      "  public double mean() { return mean; }",
      "  public double scale() { return scale; }",
      "  public void setMean(double mean) { this.mean = mean; }",
      "  public void setScale(double scale) { this.scale = scale; }",
      "  /** The logistic cdf, through a StringBuilder that ad4j would reject. */",
      "  public double cdf(double x) {",
      "    StringBuilder unused = new StringBuilder().append(x);",
      "    return unused.length() > 0 ? 1 / (1 + Math.exp(-(x - mean) / scale)) : 0;",
      "  }",
      "  @Differentiable @DerivativeOf(\"cdf\")",
      "  static double cdfDerivative(Dist d, double x) {",
      "    double e = Math.exp(-(x - d.mean()) / d.scale());",
      "    return e / (d.scale() * (1 + e) * (1 + e));",
      "  }",
      "}");

  private static final String MODEL = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Model {",
      "  static final Dist SHARED = new Dist(0.0, 1.0);",
      "  @Differentiable static double local(double x, double y) {",
      "    Dist d = new Dist(0.2, 1.5);",
      "    double a = d.cdf(x * y);",
      "    d.setMean(1.5);",
      "    d.setScale(0.5);",
      "    return a * x + d.cdf(y);",
      "  }",
      "  @Differentiable static double changed(double x, double y, Dist d) {",
      "    double m = d.mean();",
      "    double a = d.cdf(x - y);",
      "    d.setMean(m + 2);",
      "    double b = d.cdf(x * y);",
      "    d.setMean(m);",
      "    return a * b + y;",
      "  }",
      "  @Differentiable static double loop(double x, double y) {",
      "    Dist d = new Dist(0.1, 1.2);",
      "    double s = x;",
      "    for (int i = 0; i < 4; i++) {",
      "      s = s * 0.5 + d.cdf(s * y + i * 0.1);",
      "      d.setMean(0.4 * i);",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double field(double x, double y) {",
      "    double a = SHARED.cdf(x + y);",
      "    SHARED.setMean(0.9);",
      "    double b = SHARED.cdf(x * y);",
      "    SHARED.setMean(0.0);",
      "    return a * b;",
      "  }",
      "}");

  private static final CompiledOnce COMPILED = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"),
          "com.example.Dist", DIST, "com.example.Model", MODEL));

  private static CompiledFunction function(String name) {
    return COMPILED.get().function("com.example.Model", name, 2);
  }

  @Test
  void aRuleSeesALocalObjectAsItsCallDidNotAsASetterLeftIt() {
    DerivativeChecks.checkAt(function("local"), 0.7, 1.3);
    DerivativeChecks.checkAt(function("local"), -1.2, 0.4);
  }

  @Test
  void aRuleInALoopSeesTheObjectOfItsIteration() {
    DerivativeChecks.checkAt(function("loop"), 0.6, 0.9);
    DerivativeChecks.checkAt(function("loop"), -0.4, 1.7);
  }

  @Test
  void aRuleSeesAStaticFinalFieldsObjectAsItsCallDid() {
    DerivativeChecks.checkAt(function("field"), 0.6, 0.9);
    DerivativeChecks.checkAt(function("field"), -0.4, 1.7);
  }

  /**
   * A member that makes a sweep per slot would call the setter once per sweep, and a caller's
   * tangent would call a method that calls it twice: errors at those calls (the Hessians of
   * such methods were exact before only because each sweep made its objects anew).
   */
  @Test
  void settersWhereAMemberWouldCallThemAgainAreErrors() {
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Twice {",
        "  @Differentiable(order = 2) static double localTwice(double x, double y) {",
        "    Dist d = new Dist(0.2, 1.5);",
        "    double a = d.cdf(x * y);",
        "    d.setMean(1.5);",
        "    return a * x + d.cdf(y * a);",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Twice",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.Dist", DIST), file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("call to 'd.setMean(...)' runs as written and may"
        + " give another result or do something again each time it runs: mHessian and"
        + " mValueGradientAndHessian of 'localTwice' make one sweep per slot").inFile(file)
        .onLine(7);

    // the caller's tangent reads the callee's value and its tangent (the product): its plan
    // shows the two calls, once the class has no other error
    List<String> calling = List.of(
        "package com.example;",
        "import ad4j.Differentiable;",
        "final class Twice {",
        "  @Differentiable static double changed(double x, Dist d) {",
        "    d.setMean(x > 0 ? 1 : 2);",
        "    return d.cdf(x);",
        "  }",
        "  @Differentiable static double parameter(double x, double y) {",
        "    return changed(x, new Dist(-0.3, 0.8)) * y;",
        "  }",
        "}");
    JavaFileObject caller = JavaFileObjects.forSourceString("com.example.Twice",
        String.join("\n", calling));
    Compilation called = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.Dist", DIST), caller);
    assertThat(called).hadErrorCount(1);
    assertThat(called).hadErrorContaining("call to 'changed(...)': 'Twice.changed' runs"
        + " code that carries no derivative ('d.setMean(...)', line 5), which the tangent of"
        + " 'parameter' would run twice").inFile(caller).onLine(9).atColumn(19);
  }

  @Test
  void aCheckpointedLoopCallingATargetOnAnObjectIsAnErrorAtTheLoop() {
    // computing iterations anew, the reverse sweep would see the object as the setter left it
    List<String> lines = List.of(
        "package com.example;",
        "import ad4j.Checkpointed;",
        "import ad4j.Differentiable;",
        "final class Stepper {",
        "  @Checkpointed(snapshots = 4) @Differentiable static double f(double x) {",
        "    Dist d = new Dist(0.3, 1.0);",
        "    double s = x;",
        "    for (int i = 0; i < 5; i++) {",
        "      s = 0.5 * s + d.cdf(s);",
        "    }",
        "    d.setMean(4);",
        "    return s;",
        "  }",
        "}");
    JavaFileObject file = JavaFileObjects.forSourceString("com.example.Stepper",
        String.join("\n", lines));

    Compilation compilation = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.Dist", DIST), file);

    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadErrorContaining("ad4j: loop of method 'f' cannot be checkpointed"
        + " (@Checkpointed): it calls 'cdf' (line 9) on an object, with @DerivativeOf rules:"
        + " computing iterations anew, the reverse sweep would call it and its rules with the"
        + " object as the code after the loop left it, not as the loop saw it; call it outside"
        + " the loop").inFile(file).onLine(8).atColumn(5);
  }

  @Test
  void theRulesAreCalledInTheForwardSweepOnly() throws Exception {
    String code = COMPILED.get().compilation()
        .generatedSourceFile("com.example.ModelGrad").orElseThrow()
        .getCharContent(true).toString();
    String gradient = code.substring(code.indexOf("static double localValueAndGradient("));
    gradient = gradient.substring(0, gradient.indexOf("\n  }\n"));
    String reverse = gradient.substring(gradient.indexOf("// reverse sweep"));
    assertThat(gradient).contains("Dist.cdfDerivative(d, ");
    assertThat(reverse).doesNotContain("cdfDerivative");
  }
}
