package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.InProcessCompiler;
import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import org.junit.jupiter.api.Test;

/**
 * The error at a call of a library method that receives a derivative and has no rule hands over
 * the rule to write, with its signature, ready to paste (issue 36, item 7): pasted into the
 * class with a body, it compiles and gives the derivative.
 */
class RuleAdviceTest {
  private static final String CALL =
      "    return java.awt.geom.Point2D.distance(x * 2, 1.5, 0, 0) * x;";

  private static String source(String rule) {
    return String.join("\n",
        "package com.example;",
        "import ad4j.DerivativeOf;",
        "import ad4j.Differentiable;",
        "final class F {",
        rule,
        "  @Differentiable static double f(double x) {",
        CALL,
        "  }",
        "}");
  }

  @Test
  void theSuggestedRulePastedInCompilesAndGivesTheDerivative() throws Exception {
    Compilation failed = InProcessCompiler.javac().compile(
        JavaFileObjects.forSourceString("com.example.F", source("")));
    List<String> errors = failed.errors().stream()
        .map(error -> error.getMessage(Locale.ROOT)).toList();
    assertWithMessage("errors").that(errors).hasSize(1);
    assertThat(failed.errors().get(0).getKind()).isEqualTo(Diagnostic.Kind.ERROR);
    Matcher rule = Pattern.compile("such as '(@DerivativeOf\\(.*\\))'$").matcher(errors.get(0));
    assertWithMessage("a rule in %s", errors.get(0)).that(rule.find()).isTrue();
    assertThat(rule.group(1)).isEqualTo("@DerivativeOf(owner = java.awt.geom.Point2D.class,"
        + " value = \"distance\", wrt = \"x1\") static double distanceX1(double x1, double y1,"
        + " double x2, double y2)");

    // d/dx1 |(x1, y1) - (x2, y2)| = (x1 - x2) / |(x1, y1) - (x2, y2)|
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(List.of(),
        "com.example.F", source("  " + rule.group(1)
            + " { return (x1 - x2) / java.awt.geom.Point2D.distance(x1, y1, x2, y2); }"));
    double x = 0.7;
    double[] gradient = compiled.function("com.example.F", "f", 1).gradient(x);
    // f = sqrt(4 x² + 2.25) x
    double root = Math.sqrt(4 * x * x + 2.25);
    assertThat(gradient[0]).isWithin(1e-14).of(4 * x * x / root + root);
  }
}
