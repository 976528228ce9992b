package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.CompiledOnce;
import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Second derivatives through the rule table where a rule's partial chooses between formulas:
 * the formula chosen must carry the derivative of the partial, not only its value, or the
 * order-2 members lose a term there. Each method is checked by {@link MemberAgreement} (the
 * Hessian against differences of order 8 of the gradient, {@code mHessianVector} against the
 * Hessian) and against its second derivatives written out.
 */
@ExtendWith(TapeIsEmpty.class)
class RuleSecondDerivativesTest {
  private static final String SOURCE = String.join("\n",
      "package com.example;",
      "import ad4j.Differentiable;",
      "final class Powers {",
      "  @Differentiable(order = 2) static double power(double a, double b) {",
      "    return Math.pow(a, b);",
      "  }",
      "  @Differentiable(order = 2) static double exponentFirst(double e, double x) {",
      "    return StrictMath.pow(x, e);",
      "  }",
      "  @Differentiable(order = 2) static double scaled(double a, double b) {",
      "    return 3 * Math.pow(a * a, b - 1) + b;",
      "  }",
      "}");

  private static final CompiledOnce POWERS = new CompiledOnce(() ->
      InProcessCompiler.compileWith(List.of("-Xlint:all", "-Werror"), "com.example.Powers",
          SOURCE));

  /**
   * d²(a^b)/da db = a^(b-1) (1 + b log a) is 1/a at b = 0. The partial with respect to a was
   * the constant 0 at b = 0 (to avoid 0 * 0^-1 at a = 0), whose derivative with respect to b
   * is 0: mHessianVector of pow(a, b) along b gave 0.0 for H[0][1] = 0.4 at (2.5, 0), and
   * mHessian of pow(x, e), the exponent first, gave H[1][0] = 0.0 for 0.4, with no error.
   */
  @Test
  void theMixedSecondDerivativeOfAPowerAtExponentZero() throws Exception {
    MemberAgreement power = MemberAgreement.of(POWERS.get(), "com.example.Powers", "power",
        true, true);
    power.checkScalarAt(new double[][] {{2.5, 0.0}, {0.7, 0.0}, {2.5, 0.5}},
        2, 1e-6);
    MemberAgreement exponentFirst = MemberAgreement.of(POWERS.get(), "com.example.Powers",
        "exponentFirst", true, true);
    exponentFirst.checkScalarAt(new double[][] {{0.0, 2.5}, {0.0, 0.7}}, 2, 1e-6);
    MemberAgreement scaled = MemberAgreement.of(POWERS.get(), "com.example.Powers", "scaled",
        true, true);
    scaled.checkScalarAt(new double[][] {{1.3, 1.0}, {-0.8, 1.0}}, 2, 1e-6);

    for (double a : new double[] {2.5, 0.7}) {
      double[][] hessian = (double[][]) power.member("Hessian", new Object[] {a, 0.0});
      double log = Math.log(a);
      assertWithMessage("Hessian of pow at (%s, 0)", a).that(hessian[0][1]).isWithin(1e-15)
          .of(1 / a);
      assertWithMessage("Hessian of pow at (%s, 0)", a).that(hessian[1][0]).isWithin(1e-15)
          .of(1 / a);
      assertWithMessage("Hessian of pow at (%s, 0)", a).that(hessian[0][0]).isEqualTo(0.0);
      assertWithMessage("Hessian of pow at (%s, 0)", a).that(hessian[1][1])
          .isWithin(1e-15).of(log * log);
      double[] alongB = (double[]) power.member("HessianVector", new Object[] {a, 0.0},
          (Object) new double[] {0, 1});
      assertWithMessage("H (0, 1) of pow at (%s, 0)", a).that(alongB[0]).isWithin(1e-15)
          .of(1 / a);
      double[][] swapped = (double[][]) exponentFirst.member("Hessian", new Object[] {0.0, a});
      assertWithMessage("Hessian of pow(x, e) at e = 0, x = %s", a).that(swapped[1][0])
          .isWithin(1e-15).of(1 / a);
    }
  }

  /**
   * At a = b = 0 the partial with respect to a stays 0 (the documented value of d/da a^b
   * there), and so does its derivative: no NaN from 0 / 0.
   */
  @Test
  void aPowerAtTheOriginKeepsItsConvention() throws Exception {
    MemberAgreement power = MemberAgreement.of(POWERS.get(), "com.example.Powers", "power",
        true, true);
    double[] gradient = (double[]) power.member("Gradient", new Object[] {0.0, 0.0});
    assertWithMessage("gradient of pow at the origin").that(gradient)
        .usingExactEquality().containsExactly(0.0, 0.0).inOrder();
    double[][] hessian = (double[][]) power.member("Hessian", new Object[] {0.0, 0.0});
    assertWithMessage("H[0][1] of pow at the origin").that(hessian[0][1]).isEqualTo(0.0);
    assertWithMessage("H[0][0] of pow at the origin").that(hessian[0][0]).isEqualTo(0.0);
  }
}
