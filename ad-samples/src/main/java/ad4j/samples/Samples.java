package ad4j.samples;

import java.io.PrintStream;
import java.util.List;

/**
 * Runs every sample and prints its results: worked examples of AD textbooks, Rosenbrock by
 * BFGS and by Newton's method with the generated Hessian, a pendulum fitted by Newton's method
 * through an RK4 step returning {@code double[]}, Black-Scholes Greeks (gamma, vanna and
 * volga from the generated Hessian; also with a library's erfc and a user-supplied derivative), a
 * negative-binomial likelihood with a library's log-gamma, a logistic loss, logistic and softmax
 * regression trained on real data sets (array parameters), a spring-mass simulation over a value
 * record, Simpson's rule and Runge-Kutta called with lambdas, a loss written with streams,
 * and functions with loops and branches, then where the generated sources are.
 */
public final class Samples {
  private Samples() {}

  /** The generated classes of this module, one per class holding {@code @Differentiable} methods. */
  static final List<Class<?>> GENERATED = List.of(
      SeedExamplesGrad.class, RosenbrockGrad.class, BlackScholesGrad.class,
      BlackScholesErfGrad.class, NegativeBinomialGrad.class, LogisticLossGrad.class, ControlFlowGrad.class, HygieneGrad.class, Outer_InnerGrad.class,
      OverloadsGrad.class, LogisticRegressionGrad.class, SoftmaxRegressionGrad.class,
      CurveFitGrad.class, NewtonRosenbrockGrad.class, PendulumNewtonGrad.class,
      SpringMassGrad.class,
      QuadratureGrad.class, StreamLossGrad.class);

  /**
   * Prints all samples to standard output.
   *
   * @param args ignored
   */
  public static void main(String[] args) {
    PrintStream out = System.out;
    out.println("ad4j samples: derivatives generated at compile time by the ad4j processor");
    out.println();
    SeedExamples.print(out);
    out.println();
    RosenbrockBfgs.print(out);
    out.println();
    NewtonRosenbrock.print(out);
    PendulumNewton.print(out);
    out.println();
    BlackScholes.print(out);
    out.println();
    BlackScholesErf.print(out);
    out.println();
    NegativeBinomial.print(out);
    out.println();
    LogisticLoss.print(out);
    out.println();
    LogisticRegression.print(out);
    out.println();
    SoftmaxRegression.print(out);
    out.println();
    CurveFit.print(out);
    out.println();
    SpringMass.print(out);
    out.println();
    Quadrature.print(out);
    out.println();
    StreamLoss.print(out);
    out.println();
    ControlFlow.print(out);
    out.println();
    out.println("Other samples: Hygiene (names like generated ones), Outer.Inner, Overloads");
    out.println("  Outer_InnerGrad.dampedGradient(1, 0.5) = "
        + Fmt.vec(Outer_InnerGrad.dampedGradient(1, 0.5)));
    out.println("  OverloadsGrad.normGradient(3, 4) = " + Fmt.vec(OverloadsGrad.normGradient(3, 4))
        + ", normGradient(1, 2, 2) = " + Fmt.vec(OverloadsGrad.normGradient(1, 2, 2)));
    out.println();
    out.println("Generated sources (relative to the ad-samples module):");
    for (Class<?> generated : GENERATED) {
      out.println("  " + generatedSourcePath(generated));
    }
  }

  /**
   * The path, relative to the module, where javac's annotation processing under Maven writes the
   * source of a generated class.
   *
   * @param generated a generated (top-level) class
   * @return for example {@code target/generated-sources/annotations/ad4j/samples/RosenbrockGrad.java}
   */
  static String generatedSourcePath(Class<?> generated) {
    return "target/generated-sources/annotations/" + generated.getName().replace('.', '/') + ".java";
  }
}
