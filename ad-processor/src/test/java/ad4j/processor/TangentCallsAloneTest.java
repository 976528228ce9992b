package ad4j.processor;

import static com.google.common.truth.Truth.assertThat;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.GeneratedText;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A tangent member calls a {@code @Differentiable} callee's tangent only, not its value as
 * well, where nothing reads the value ({@code optimize/TangentCallsAlone}): the callee's code
 * runs once; so do the value's own sums in loops, which only such calls fed. Every member
 * still agrees with differences and with the others, and throws what
 * the method throws, with the callee's message; where the value is read (a product), or where
 * something that is not pure stands between the two calls, the value call stays. Where the
 * value is read and the tangent is not (a branch's condition, a cast to {@code int}), the
 * tangent call goes instead.
 */
@ExtendWith(TapeIsEmpty.class)
class TangentCallsAloneTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Sums {",
      "  @Differentiable static double distance(double x1, double y1, double x2, double y2) {",
      "    double dx = x2 - x1;",
      "    double dy = y2 - y1;",
      "    return Math.sqrt(dx * dx + dy * dy);",
      "  }",
      "  @Differentiable static double checked(double x) {",
      "    if (x < 0) {",
      "      throw new IllegalArgumentException(\"negative: \" + x);",
      "    }",
      "    double s = 0;",
      "    for (int i = 1; i <= 3; i++) {",
      "      s += Math.log(x + i);",
      "    }",
      "    return s;",
      "  }",
      "  @Differentiable static double[] pair(double x) {",
      "    return new double[] {checked(x), x * x};",
      "  }",
      "  /** Only the callees' tangents are needed. */",
      "  @Differentiable static double perimeter(double ax, double ay, double bx, double by) {",
      "    return distance(ax, ay, bx, by) + distance(bx, by, 0, 1) + distance(0, 1, ax, ay);",
      "  }",
      "  /** The callee throws: the tangent throws the same from its tangent call. */",
      "  @Differentiable static double guarded(double x, double y) {",
      "    return checked(x) - 2 * checked(y) + pair(x - y)[1];",
      "  }",
      "  @Differentiable static double soft(double x) {",
      "    return Math.log1p(Math.exp(x));",
      "  }",
      "  /** The value only feeds a sum the tangent does not return. */",
      "  @Differentiable static double looped(double a, double b) {",
      "    double s = 0;",
      "    for (int i = 0; i < 5; i++) {",
      "      s += soft(a * i - b);",
      "    }",
      "    return s;",
      "  }",
      "  /** The value is read: the call stays. */",
      "  @Differentiable static double used(double x, double y) {",
      "    return checked(x) * y + checked(y);",
      "  }",
      "  /** The value chooses a branch, and is cast: the tangent calls go. */",
      "  @Differentiable static double gated(double x, double y) {",
      "    double s = checked(x) > 2 ? x * y : y * y;",
      "    for (int i = 0; i < 3; i++) {",
      "      int k = (int) soft(s * i);",
      "      s += k * y;",
      "    }",
      "    return s;",
      "  }",
      "}");

  private static final CompiledOnce SUMS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Sums",
          SOURCE));

  @Test
  void onlyTheTangentIsCalledWhereTheValueIsUnread() {
    String source = GeneratedText.of(SUMS.get(), "com.example.SumsGrad");
    String perimeter = GeneratedText.method(source, "perimeterTangent");
    assertThat(perimeter).doesNotContain("Sums.distance(");
    assertThat(perimeter).contains("distanceTangent(");
    String guarded = GeneratedText.method(source, "guardedTangent");
    assertThat(guarded).doesNotContain("Sums.checked(");
    // the vector's element read, kept for where it may throw, reads pair's value
    assertThat(guarded).contains("Sums.pair(");
    String looped = GeneratedText.method(source, "loopedTangent");
    assertThat(looped).doesNotContain("Sums.soft(");
    assertThat(looped).doesNotContainMatch("(?m)^\\s*double s = "); // only its comment
    // the value of checked(x) is read by the product
    assertThat(GeneratedText.method(source, "usedTangent")).contains("Sums.checked(x)");
    // read by a branch and a cast only: the values, not the tangents
    String gated = GeneratedText.method(source, "gatedTangent");
    assertThat(gated).contains("Sums.checked(x)");
    assertThat(gated).contains("Sums.soft(");
    assertThat(gated).doesNotContain("checkedTangent(");
    assertThat(gated).doesNotContain("softTangent(");
  }

  @Test
  void membersAgree() throws Exception {
    MemberAgreement.of(SUMS.get(), "com.example.Sums", "perimeter", true, true, true, true)
        .checkScalar(new Object[] {0.3, -1.2, 2.0, 0.7}, 1, 1e-7);
    MemberAgreement.of(SUMS.get(), "com.example.Sums", "guarded", true, true)
        .checkScalar(new Object[] {1.4, 0.3}, 1, 1e-7);
    MemberAgreement.of(SUMS.get(), "com.example.Sums", "looped", true, true)
        .checkScalar(new Object[] {0.4, 1.3}, 1, 1e-7);
    MemberAgreement.of(SUMS.get(), "com.example.Sums", "used", true, true)
        .checkScalar(new Object[] {0.4, 1.3}, 1, 1e-7);
    MemberAgreement gated = MemberAgreement.of(SUMS.get(), "com.example.Sums", "gated", true,
        true);
    gated.checkScalar(new Object[] {0.4, 1.3}, 1, 1e-7);
    gated.checkScalar(new Object[] {3.1, 0.45}, 1, 1e-7);
  }

  @Test
  void theTangentThrowsWhatTheCalleeThrows() throws Exception {
    MemberAgreement guarded = MemberAgreement.of(SUMS.get(), "com.example.Sums", "guarded",
        true, true);
    guarded.checkThrows(new Object[] {-0.5, 1.3}, 1);
    guarded.checkThrows(new Object[] {0.5, -1.3}, 1);
    // pair(x - y) throws from inside a vector function's tangent
    guarded.checkThrows(new Object[] {0.5, 1.3}, 1);
    // the value call, left alone, throws for the tangent
    MemberAgreement.of(SUMS.get(), "com.example.Sums", "gated", true, true)
        .checkThrows(new Object[] {-0.5, 1.3}, 1);
  }
}
