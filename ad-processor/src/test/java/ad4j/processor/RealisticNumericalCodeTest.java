package ad4j.processor;

import static com.google.common.truth.Truth.assertWithMessage;

import ad4j.processor.testing.InProcessCompiler;
import ad4j.processor.testing.MemberAgreement;
import ad4j.processor.testing.TapeIsEmpty;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Numerical code as users write it, mixing what ad4j supports the way real code does (hunt 58):
 * pricing with an Abramowitz-Stegun erf, a Lanczos log-gamma, a max-shifted log-sum-exp,
 * softplus and logistic with branches for stability, Newton iterations with a tolerance and
 * {@code break}, bisection, Clenshaw and Horner recurrences, Simpson, adaptive Simpson and
 * trapezoid quadrature over lambdas, RK4 and leapfrog integrators over {@code int} and
 * {@code long} step counts, value records and a value class carried through loops, Kahan and
 * Welford sums, splines with a binary search over a {@code @NoDerivative} knot array, Gaussian
 * elimination, Cholesky, LU, Gauss-Seidel, the Thomas algorithm, soft-DTW, sorting by swaps,
 * switch expressions and fall-through switches over an {@code int} or an enum, labelled
 * {@code break}/{@code continue}, do-while, compound assignments mixing {@code int},
 * {@code long} and {@code float}, {@code float} methods, checkpointed loops, loops whose sums
 * the reverse sweep fuses, instance methods of a model class, {@code @DerivativeOf} rules whose
 * arguments are overwritten after the call, overloaded callees, switches with {@code continue}
 * and labelled {@code break} inside loops, counters stepped in the body, Newton iterations and
 * double integrals inside quadrature templates, a value record's own methods with loops and an
 * instance method passing a lambda over its siblings to an instance template, and vector
 * functions returning {@code double[]} or a value record, tall ones (many more outputs than
 * inputs) included; some of order 2.
 *
 * <p>Each file of {@code src/test/resources/realistic} is one class, compiled with
 * {@code -Xlint:all -Werror}; its {@code probes()} (not differentiated) lists what to check:
 * {@code {name, order, vector?, active flags, points}}, then optionally the receiver of an
 * instance method, the tolerance against differences (1e-6 when absent or null; 1e-4 for
 * {@code float} code) and the binary names of the user's class and its generated class (for a
 * nested class). Each method at each point goes through {@link MemberAgreement}: the value bit
 * for bit, the gradient or Jacobian against central differences of order 8 of the user's own
 * method, forward against reverse (the dot-product test), pullbacks accumulating, and at order 2
 * the Hessian against differences of the gradient and {@code mHessianVector}. The points lie
 * away from the kinks of branches, clamps and trip counts.
 */
@ExtendWith(TapeIsEmpty.class)
class RealisticNumericalCodeTest {
  private static final List<String> CLASSES = List.of("ScalarFunctions", "StatesAndMatrices",
      "LoopPrograms", "ModelsAndRules", "RecordNameShadowing", "Solvers", "Particles",
      "LocalArrayAliases", "CheckpointedLoops", "AccumulatedSums", "ControlFlowForms",
      "ShadowedConstants", "SwitchesInLoops", "CountersAndSteps", "RulesAtOverwrittenArguments",
      "OverloadedCallees", "NestedFunctionValues", "NewtonInsideQuadrature", "TallJacobians",
      "ModelsWithLoopsInMethods");

  @TestFactory
  Stream<DynamicNode> everyProbedMethodAgreesWithDifferencesAndAcrossModes() {
    return CLASSES.stream().map(name -> DynamicContainer.dynamicContainer(name,
        Stream.of(name).flatMap(RealisticNumericalCodeTest::checks)));
  }

  private static Stream<DynamicNode> checks(String simpleName) {
    String className = "com.example." + simpleName;
    InProcessCompiler.Compiled compiled = InProcessCompiler.compileWith(
        List.of("-Xlint:all", "-Werror"), className, source(simpleName));
    Object[] probes;
    try {
      Method method = compiled.load(className).getDeclaredMethod("probes");
      method.setAccessible(true);
      probes = (Object[]) method.invoke(null);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
    assertWithMessage("probes of %s", simpleName).that(probes.length).isAtLeast(1);
    List<DynamicNode> tests = new ArrayList<>();
    for (Object entry : probes) {
      Object[] probe = (Object[]) entry;
      String name = (String) probe[0];
      int order = (Integer) probe[1];
      boolean vector = (Boolean) probe[2];
      boolean[] active = (boolean[]) probe[3];
      Object[][] points = (Object[][]) probe[4];
      Object receiver = probe.length > 5 ? probe[5] : null;
      double tolerance = probe.length > 6 && probe[6] != null ? (Double) probe[6] : 1e-6;
      MemberAgreement method;
      if (probe.length > 7) {
        String[] classes = (String[]) probe[7];
        method = new MemberAgreement(compiled.load(classes[0]), compiled.load(classes[1]), name,
            null, active);
      } else {
        method = MemberAgreement.of(compiled, className, name, active);
      }
      MemberAgreement called = receiver == null ? method : method.on(receiver);
      for (Object[] point : points) {
        tests.add(DynamicTest.dynamicTest(name + Arrays.deepToString(point), () -> {
          if (vector) {
            called.checkVector(point);
          } else {
            called.checkScalar(point, order, tolerance);
          }
        }));
      }
    }
    return tests.stream();
  }

  private static String source(String simpleName) {
    String resource = "realistic/" + simpleName + ".java";
    try (InputStream in = RealisticNumericalCodeTest.class.getClassLoader()
        .getResourceAsStream(resource)) {
      assertWithMessage("resource %s", resource).that(in).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
