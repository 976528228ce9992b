package ad4j.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The seed documents' worked examples, with the numbers the documents give. */
class SeedExamplesTest {

  @Test
  void seed000ValueAtTwoThreeIsSinSixPlusExpThree() {
    // v3 = 6, v4 = sin(6), v5 = exp(3), v6 = sin(6) + exp(3).
    double expected = Math.sin(6) + Math.exp(3);
    assertEquals(expected, SeedExamples.f(2, 3), 0.0);
    double[] gradient = new double[2];
    assertEquals(expected, SeedExamplesGrad.fValueAndGradient(2, 3, gradient), 0.0);
    assertArrayEquals(new double[] {3 * Math.cos(6), 2 * Math.cos(6) + Math.exp(3)}, gradient, 1e-14);
  }

  @Test
  void seed000TangentFollowsTheForwardRules() {
    // ẋ = (1, 0): v̇3 = x2, v̇4 = cos(v3) v̇3, v̇5 = 0.
    assertEquals(3 * Math.cos(6), SeedExamplesGrad.fTangent(2, 3, 1, 0), 1e-15);
    // ẋ = (0, 1): v̇3 = x1, v̇5 = exp(x2).
    assertEquals(2 * Math.cos(6) + Math.exp(3), SeedExamplesGrad.fTangent(2, 3, 0, 1), 1e-13);
  }

  @Test
  void seed001ForwardSeedOneZeroGivesX2CosX1X2PlusOne() {
    for (double[] x : new double[][] {{2, 3}, {-0.7, 1.9}, {0, 5}}) {
      double expected = x[1] * Math.cos(x[0] * x[1]) + 1;
      assertEquals(expected, SeedExamplesGrad.gTangent(x[0], x[1], 1, 0), 1e-15);
      assertEquals(expected, SeedExamplesGrad.gGradient(x[0], x[1])[0], 1e-15);
      assertEquals(x[0] * Math.cos(x[0] * x[1]), SeedExamplesGrad.gGradient(x[0], x[1])[1], 1e-15);
    }
  }

  @Test
  void seed000CommonSubexpressionGetsBothContributions() {
    double x = 0.7;
    double v2 = x * x;
    // v̄2 = cos(v2) - sin(v2), then x̄ = 2 x v̄2.
    assertEquals(2 * x * (Math.cos(v2) - Math.sin(v2)),
        SeedExamplesGrad.sharedSquareGradient(x)[0], 1e-15);
  }

  @Test
  void seed000OverwrittenVariable() {
    assertEquals(3.0, SeedExamplesGrad.overwrittenGradient(1.5)[0], 0.0);
    assertEquals(1.5 * 1.5 + 1, SeedExamples.overwritten(1.5), 0.0);
  }

  @Test
  void seed004PolynomialDerivativeIsElevenAtFive() {
    // "Symbolic: 11", "Automatic: 11"; and df(3) = 7.
    assertEquals(11.0, SeedExamplesGrad.polyGradient(5)[0], 0.0);
    assertEquals(11.0, SeedExamplesGrad.polyTangent(5, 1), 0.0);
    assertEquals(7.0, SeedExamplesGrad.polyTangent(3, 1), 0.0);
    assertEquals(31.0, SeedExamples.poly(5), 0.0);
  }

  @Test
  void seed004ProductAndSharingAtThreeTwo() {
    assertArrayEquals(new double[] {2, 3}, SeedExamplesGrad.productGradient(3, 2), 0.0);
    // Trace: s = 2x + 3y (as a linear map), r = s + s: gradient (4, 6).
    assertArrayEquals(new double[] {4, 6}, SeedExamplesGrad.sharingGradient(3, 2), 0.0);
  }

  @Test
  void seed004TwoOutputsOneTangentEach() {
    double x = 1.0;
    double s = Math.sin(x);
    double c = Math.cos(x);
    assertEquals(2 * s * c + 10, SeedExamplesGrad.twoOutFirstTangent(x, 1), 1e-14);
    assertEquals(1 + 40 * s * c, SeedExamplesGrad.twoOutSecondTangent(x, 1), 1e-13);
  }

  @Test
  void seed002SinPlusXAndAffine() {
    assertEquals(1 + Math.cos(2), SeedExamplesGrad.xPlusSinGradient(2)[0], 1e-15);
    assertEquals(7.0, SeedExamplesGrad.affineGradient(-3)[0], 0.0);
    assertEquals(7.0, SeedExamplesGrad.affineTangent(100, 1), 0.0);
  }
}
