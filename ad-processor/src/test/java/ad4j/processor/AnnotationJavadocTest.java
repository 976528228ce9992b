package ad4j.processor;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The javadoc of the annotations says what the README and the user guide say, on the facts a
 * user acts on: that generated code needs {@code ad-runtime} at run time, which parameters are
 * differentiated, what {@code @DerivativeOf} targets and receivers may be, and where rules are
 * found. Each check names a statement the javadoc once got wrong, so it cannot come back. Line
 * breaks, javadoc's leading asterisks and runs of spaces count as one space.
 */
class AnnotationJavadocTest {
  private static final Path ANNOTATIONS = Path.of("..", "ad-annotations", "src", "main", "java",
      "ad4j");

  @Test
  void differentiableSaysGeneratedCodeNeedsTheRuntime() throws IOException {
    String javadoc = javadoc("Differentiable");
    assertFalse(javadoc.contains("need nothing at run time"), javadoc);
    assertTrue(javadoc.contains(
        "Every generated class refers to {@code ad4j.runtime.internal.Tape}"), javadoc);
    assertTrue(guide("README.md").contains("**Generated code needs `ad-runtime` at run time**"),
        "the README says so too");
  }

  @Test
  void differentiableSaysEveryDoubleParameterIsDifferentiatedUnlessNoDerivative()
      throws IOException {
    assertTrue(javadoc("Differentiable").contains("Every {@code double}, {@code double[]} and"
        + " {@code double[][]} parameter is differentiated unless it is marked"
        + " {@link NoDerivative}"));
    assertTrue(guide("README.md").contains("**Every `double`, `double[]` and `double[][]`"
        + " parameter is differentiated** unless you mark it `@NoDerivative`"));
  }

  @Test
  void differentiableSaysOrderTwoCallsOrderTwoVectorFunctionsWithoutHessians()
      throws IOException {
    String javadoc = javadoc("Differentiable");
    assertFalse(javadoc.contains("and cannot call vector functions"), javadoc);
    assertTrue(javadoc.contains("vector functions included: {@code 2} on a method returning"
        + " {@code double[]}, {@code float[]} or a value record gives it no Hessian members"),
        javadoc);
    String readme = guide("README.md");
    assertFalse(readme.contains("and cannot call vector functions"));
    assertTrue(readme.contains("A vector function (returning `double[]`, `float[]` or a value"
        + " record) may be of order 2 so that order-2 methods can call it: it gets no Hessian"
        + " members"));
  }

  @Test
  void derivativeOfNamesEveryTargetAndReceiverTheGuideAllows() throws IOException {
    String javadoc = javadoc("DerivativeOf");
    assertFalse(javadoc.contains("The target must return {@code double};"), javadoc);
    assertTrue(javadoc.contains("The target returns {@code double} or {@code double[]}"), javadoc);
    assertTrue(javadoc.contains("a {@code static final} field (a distribution object, say),"
        + " a parameter or a local made outside loops"), javadoc);
    assertTrue(guide("docs/guide/custom-derivatives.md")
        .contains("A target may be an instance method called on a `static final` field, a parameter"
            + " or a local made outside loops"));
  }

  @Test
  void derivativeOfAndTheGuideNameTheSameClassesForRules() throws IOException {
    assertTrue(javadoc("DerivativeOf").contains("A call sees the rules in the target's own class,"
        + " in the class of the {@code @Differentiable} method that calls it, in every class of the"
        + " same compilation, and in the classes listed by {@link UsesDerivatives}"));
    assertTrue(guide("docs/guide/custom-derivatives.md").contains("A call sees the rules in **the"
        + " target's class** (its `owner`), in **the class of the calling `@Differentiable`"
        + " method**, in **every class of the same compilation**"));
  }

  /** The annotation's javadoc and its elements', with the code between them. */
  private static String javadoc(String annotation) throws IOException {
    String source = Files.readString(ANNOTATIONS.resolve(annotation + ".java"));
    String comments = source.substring(source.indexOf("/**")); // the type's and its elements'
    return comments.replaceAll("\\n\\s*\\*", " ").replaceAll("\\s+", " ");
  }

  private static String guide(String path) throws IOException {
    return Files.readString(Path.of("..").resolve(path)).replaceAll("\\s+", " ");
  }
}
